// The names a DRA device's attributes carry (core/values/interned_name.h): one text per process
// however many devices name it, found again from any thread, kept alive when the text it was
// made from is gone, compared as text, and (past the set's bound) held by the name itself so
// that a source sending ever new names cannot grow the set without end.
#include "core/values/device_attribute.h"
#include "core/values/interned_name.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <string_view>
#include <thread>
#include <vector>

using topodeck::InternedName;

class TestInternedName : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneTextPerName() {
        const InternedName a(std::string("resource.kubernetes.io/pcieRoot"));
        const InternedName b("resource.kubernetes.io/pcieRoot");
        const InternedName c("productName");
        QCOMPARE(a.view().data(), b.view().data());
        QVERIFY(a == b);
        QVERIFY(!(a == c));
        QCOMPARE(a.view(), std::string_view("resource.kubernetes.io/pcieRoot"));
        QCOMPARE(a.size(), std::size_t(31));
    }

    void outlivesItsSource() {
        InternedName name;
        {
            std::string source = "cudaComputeCapability";
            name = InternedName(source);
            source.assign(source.size(), 'x');
        }
        QCOMPARE(name.str(), std::string("cudaComputeCapability"));
    }

    void emptyByDefault() {
        const InternedName none;
        QVERIFY(none.empty());
        QVERIFY(none == InternedName(""));
        QVERIFY(none == std::string_view());
    }

    void comparesAsText() {
        const InternedName name("uuid");
        QVERIFY(name == "uuid");
        QVERIFY(name == std::string("uuid"));
        QVERIFY(name == std::string_view("uuid"));
        QVERIFY("uuid" == name);
        QVERIFY(!(name == "uuid2"));
        QVERIFY(InternedName("architecture") < InternedName("brand"));
        QVERIFY(!(InternedName("brand") < InternedName("architecture")));
        // The attribute keeps the value semantics a string name had.
        const topodeck::DeviceAttribute x{"type", std::string("gpu")};
        const topodeck::DeviceAttribute y{InternedName(std::string("ty") + "pe"), std::string("gpu")};
        QVERIFY(x == y);
    }

    void copiesAndMoves() {
        InternedName a("driverVersion");
        InternedName b = a;
        QVERIFY(a == b);
        InternedName c = std::move(a);
        QVERIFY(c == "driverVersion");
        b = InternedName("brand");
        c = b;
        QVERIFY(c == "brand");
    }

    void sameTextFromEveryThread() {
        constexpr int kThreads = 4;
        std::vector<const char*> seen(kThreads, nullptr);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&seen, t] {
                for (int i = 0; i < 1000; ++i) seen[t] = InternedName("gpu.nvidia.com/threadTest").view().data();
            });
        for (std::thread& thread : threads) thread.join();
        for (int t = 1; t < kThreads; ++t) QCOMPARE(seen[t], seen[0]);
    }

    // Past the bound a new text is not interned: each name holds its own copy, which copies deep
    // and compares as text; texts interned before stay interned.
    void boundedSet() {
        const InternedName early("bound-test-early");
        for (std::size_t i = 0; i < InternedName::kMaxInterned; ++i)
            (void)InternedName("bound-test-" + std::to_string(i));
        const InternedName late1("bound-test-late");
        const InternedName late2("bound-test-late");
        QVERIFY(late1.view().data() != late2.view().data());
        QVERIFY(late1 == late2);
        InternedName copy = late1;
        QVERIFY(copy.view().data() != late1.view().data());
        QVERIFY(copy == "bound-test-late");
        InternedName moved = std::move(copy);
        QVERIFY(moved == "bound-test-late");
        copy = moved;
        QVERIFY(copy == moved);
        QCOMPARE(InternedName("bound-test-early").view().data(), early.view().data());
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestInternedName)
#include "test_interned_name.moc"
