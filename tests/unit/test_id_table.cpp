// The hash index of dense ids (core/model/id_table.h) that the ClusterState finds nodes and pods
// by and the DeviceInventory finds pools and device identities by: ids found by hash and key,
// collisions (equal hashes, equal home slots), growth, backward-shift erase keeping every other
// id findable, and replace. The keys live in the test, as they live in the caller.
#include "core/model/id_table.h"
#include "support/test_program.h"

#include <QtTest>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using topodeck::IdTable;

namespace {

// Keys by id, and the table over them, as a caller keeps both.
struct Keys {
    std::vector<std::string> names;
    std::vector<bool> present;
    IdTable table;
    // Every hash is reduced to a few bits so that probes collide constantly.
    std::size_t (*hash)(std::string_view) = nullptr;

    std::uint32_t find(std::string_view name) const {
        return table.find(hash(name), [&](std::uint32_t id) { return names[id] == name; });
    }
    std::uint32_t add(std::string name) {
        const auto id = static_cast<std::uint32_t>(names.size());
        table.insert(hash(name), id);
        names.push_back(std::move(name));
        present.push_back(true);
        return id;
    }
    void remove(std::uint32_t id) {
        table.erase(hash(names[id]), id);
        present[id] = false;
    }
};

std::size_t fullHash(std::string_view name) {
    return topodeck::hashName(name);
}
std::size_t threeBitHash(std::string_view name) {
    return topodeck::hashName(name) & 7;
}
std::size_t sameHash(std::string_view) {
    return 42;
}

} // namespace

class TestIdTable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyFindsNothing() {
        const IdTable table;
        QCOMPARE(table.find(123, [](std::uint32_t) { return true; }), IdTable::kNone);
        QCOMPARE(table.size(), std::size_t(0));
    }

    void findsEveryIdUnderCollisions_data() {
        QTest::addColumn<int>("hashKind");
        QTest::addColumn<int>("count");
        QTest::newRow("full hash, through several growths") << 0 << 5000;
        QTest::newRow("eight home slots") << 1 << 600;
        QTest::newRow("one hash for all") << 2 << 200;
    }
    void findsEveryIdUnderCollisions() {
        QFETCH(int, hashKind);
        QFETCH(int, count);
        Keys keys;
        keys.hash = hashKind == 0 ? fullHash : hashKind == 1 ? threeBitHash : sameHash;
        for (int i = 0; i < count; ++i) QCOMPARE(keys.add("node-" + std::to_string(i)), std::uint32_t(i));
        QCOMPARE(keys.table.size(), std::size_t(count));
        for (int i = 0; i < count; ++i) QCOMPARE(keys.find("node-" + std::to_string(i)), std::uint32_t(i));
        QCOMPARE(keys.find("node-absent"), IdTable::kNone);
    }

    void eraseKeepsTheRestFindable_data() {
        QTest::addColumn<int>("hashKind");
        QTest::newRow("full hash") << 0;
        QTest::newRow("eight home slots") << 1;
        QTest::newRow("one hash for all") << 2;
    }
    void eraseKeepsTheRestFindable() {
        // Random erases and re-inserts: after each, every present key is found under its id and
        // every erased one is not (a probe that stopped at a hole left by erase would miss).
        QFETCH(int, hashKind);
        Keys keys;
        keys.hash = hashKind == 0 ? fullHash : hashKind == 1 ? threeBitHash : sameHash;
        for (int i = 0; i < 300; ++i) keys.add("device-" + std::to_string(i));
        std::mt19937 random(7);
        for (int round = 0; round < 600; ++round) {
            const auto id = static_cast<std::uint32_t>(random() % keys.names.size());
            if (keys.present[id]) {
                keys.remove(id);
            } else {
                keys.table.insert(keys.hash(keys.names[id]), id);
                keys.present[id] = true;
            }
            if (round % 50 != 0) continue;
            for (std::uint32_t k = 0; k < keys.names.size(); ++k)
                QCOMPARE(keys.find(keys.names[k]), keys.present[k] ? k : IdTable::kNone);
        }
        std::size_t present = 0;
        for (const bool p : keys.present) present += p;
        QCOMPARE(keys.table.size(), present);
    }

    void replaceMovesAnIdInPlace() {
        // As the state does when the last pod takes a deleted pod's place.
        Keys keys;
        keys.hash = threeBitHash;
        for (int i = 0; i < 20; ++i) keys.add("pod-" + std::to_string(i));
        keys.remove(3);
        keys.table.replace(keys.hash("pod-19"), 19, 3);
        keys.names[3] = "pod-19";
        QCOMPARE(keys.find("pod-19"), std::uint32_t(3));
        QCOMPARE(keys.find("pod-3"), IdTable::kNone);
        QCOMPARE(keys.table.size(), std::size_t(19));
    }

    void reserveKeepsWhatIsThere() {
        Keys keys;
        keys.hash = fullHash;
        for (int i = 0; i < 10; ++i) keys.add("n" + std::to_string(i));
        keys.table.reserve(100'000);
        for (int i = 0; i < 10; ++i) QCOMPARE(keys.find("n" + std::to_string(i)), std::uint32_t(i));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestIdTable)
#include "test_id_table.moc"
