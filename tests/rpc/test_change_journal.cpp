// The daemon's journal (rpc/change_journal.h): a console at generation g gets each object changed
// since, once, at its latest; a new, too old or foreign generation gets every live object; the
// deletions it remembers are bounded, and one forgotten sends the consoles behind it everything.

#include "rpc/change_journal.h"
#include "support/test_program.h"

#include <QtTest>

#include <atomic>
#include <set>
#include <thread>

using namespace topodeck::rpc;

namespace {

ObjectChange pod(const std::string& name, const std::string& body = "{}") {
    return {ObjectKind::Pod, false, "team", name, body};
}
ObjectChange podGone(const std::string& name) { return {ObjectKind::Pod, true, "team", name, {}}; }

std::set<std::string> names(const ChangeJournal::Changes& changes) {
    std::set<std::string> out;
    for (const ObjectChangePtr& change : changes.changes) out.insert(change->name + (change->deleted ? "-" : ""));
    return out;
}

} // namespace

class TestChangeJournal : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void consolesGetWhatChangedSinceTheirGeneration() {
        ChangeJournal journal;
        QCOMPARE(journal.record({}), std::uint64_t(0)); // nothing: no generation
        const std::uint64_t first = journal.record({pod("a"), pod("b"), pod("c")});
        QCOMPARE(first, std::uint64_t(1));
        const std::uint64_t second = journal.record({pod("a", "{\"v\":2}"), podGone("b")});
        const std::uint64_t third = journal.record({pod("d")});
        QCOMPARE(third, std::uint64_t(3));

        const auto fresh = journal.changesSince(0);
        QVERIFY(fresh.reset);
        QCOMPARE(fresh.generation, third);
        QCOMPARE(names(fresh), (std::set<std::string>{"a", "c", "d"})); // live objects only

        const auto afterFirst = journal.changesSince(first);
        QVERIFY(!afterFirst.reset);
        QCOMPARE(names(afterFirst), (std::set<std::string>{"a", "b-", "d"}));
        for (const ObjectChangePtr& change : afterFirst.changes)
            if (change->name == "a") QCOMPARE(change->object, std::string("{\"v\":2}")); // its latest

        QCOMPARE(names(journal.changesSince(second)), (std::set<std::string>{"d"}));
        QVERIFY(journal.changesSince(third).changes.empty());
        QVERIFY(!journal.changesSince(third).reset);
        // A generation the journal never made (another daemon's): everything.
        QVERIFY(journal.changesSince(third + 5).reset);
        QCOMPARE(journal.liveObjects(), std::size_t(3));
        QCOMPARE(journal.rememberedDeletions(), std::size_t(1));
    }

    void aBatchKeepsEachObjectsLastChange() {
        ChangeJournal journal;
        journal.record({pod("a", "1"), pod("a", "2"), podGone("a"), pod("a", "3")});
        const auto all = journal.changesSince(0);
        QCOMPARE(all.changes.size(), std::size_t(1));
        QCOMPARE(all.changes.front()->object, std::string("3"));
        QCOMPARE(journal.rememberedDeletions(), std::size_t(0));
    }

    void forgottenDeletionsSendConsolesBehindThemEverything() {
        ChangeJournal journal(2);
        const std::uint64_t start = journal.record({pod("a"), pod("b"), pod("c"), pod("d")});
        const std::uint64_t deletedA = journal.record({podGone("a")});
        journal.record({podGone("b")});
        QVERIFY(!journal.changesSince(start).reset); // both deletions remembered
        const std::uint64_t deletedC = journal.record({podGone("c")}); // a's tombstone is forgotten
        QCOMPARE(journal.rememberedDeletions(), std::size_t(2));
        QVERIFY(journal.changesSince(start).reset); // it may have missed a's deletion
        QCOMPARE(names(journal.changesSince(start)), (std::set<std::string>{"d"}));
        QVERIFY(!journal.changesSince(deletedA).reset); // it saw a's deletion itself
        QCOMPARE(names(journal.changesSince(deletedA)), (std::set<std::string>{"b-", "c-"}));
        QVERIFY(journal.changesSince(deletedC).changes.empty());
    }

    void deletionsOfObjectsThatCameBackStayBounded() {
        // A pod deleted and made again under the same name, over and over: the journal keeps one
        // entry for it, and its record of deletions does not grow with the churn.
        ChangeJournal journal(4);
        for (int i = 0; i < 20000; ++i) {
            journal.record({podGone("same")});
            journal.record({pod("same")});
        }
        QCOMPARE(journal.liveObjects(), std::size_t(1));
        QCOMPARE(journal.rememberedDeletions(), std::size_t(0));
        QCOMPARE(journal.changesSince(journal.generation() - 1).changes.size(), std::size_t(1));
    }

    void resetSendsEveryConsoleEverything() {
        ChangeJournal journal;
        const std::uint64_t before = journal.record({pod("a")});
        journal.reset();
        QVERIFY(journal.changesSince(before).reset);
        QVERIFY(journal.changesSince(before).changes.empty());
        const std::uint64_t after = journal.record({pod("b")});
        QVERIFY(journal.changesSince(before).reset);
        QCOMPARE(names(journal.changesSince(before)), (std::set<std::string>{"b"}));
        QVERIFY(journal.changesSince(after).changes.empty());
    }

    void readersAndTheWriterRunTogether() {
        // One writer, four readers: every answer a reader gets is whole (its changes all at or
        // below its generation, the generations never going back).
        ChangeJournal journal(64);
        std::atomic<bool> done = false;
        std::vector<std::thread> readers;
        std::atomic<int> broken = 0;
        for (int r = 0; r < 4; ++r)
            readers.emplace_back([&] {
                std::uint64_t have = 0;
                while (!done) {
                    const auto changes = journal.changesSince(have);
                    if (changes.generation < have && !changes.reset) ++broken;
                    have = changes.generation;
                }
            });
        for (int i = 0; i < 5000; ++i) journal.record({pod("p" + std::to_string(i % 97)), podGone("p" + std::to_string(i % 89))});
        done = true;
        for (std::thread& reader : readers) reader.join();
        QCOMPARE(broken.load(), 0);
        QVERIFY(journal.rememberedDeletions() <= 64);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestChangeJournal)
#include "test_change_journal.moc"
