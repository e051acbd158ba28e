// Applying a plan apart from the wire: the dry run gates everything, batches stop at the first
// refusal, cancel stops between batches, what each answer means, the journal file (and its
// refusals), and the undo plan built from it. The real server's side is integration.test_kube_apply.
#include "core/changes/change_journal.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_apply.h"
#include "support/test_program.h"

#include <QtTest>

#include <map>
#include <string>

using namespace topodeck;

namespace {

// n01..nNN, each with one change (rack r1 -> r2); n03 also gets a new label.
ChangePlan planOf(int nodes) {
    ChangePlan plan;
    plan.name = "move";
    for (int i = 1; i <= nodes; ++i) {
        const std::string node = (i < 10 ? "n0" : "n") + std::to_string(i);
        plan.labelChanges.push_back({node, "example.com/rack", "r1", "r2"});
        if (i == 3) plan.labelChanges.push_back({node, "team", std::nullopt, "ml"});
    }
    std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
    return plan;
}

// A server that answers by node name, dry run or not, and records what it was sent.
struct FakeServer {
    std::map<std::string, long> dryRunStatus; // default 200
    std::map<std::string, long> applyStatus;
    std::vector<std::vector<std::string>> batches; // the real ones
    int dryRuns = 0;

    PatchSender sender() {
        return [this](std::span<const NodePatch> patches, bool dryRun) {
            std::vector<PatchAnswer> answers;
            if (dryRun) ++dryRuns;
            else batches.emplace_back();
            for (const NodePatch& patch : patches) {
                const auto& table = dryRun ? dryRunStatus : applyStatus;
                const auto found = table.find(patch.node);
                const long status = found == table.end() ? 200 : found->second;
                answers.push_back({status, status == 200 ? "" : std::to_string(status) + " from the server"});
                if (!dryRun) batches.back().push_back(patch.node);
            }
            return answers;
        };
    }
};

} // namespace

class TestPlanApply : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onePatchPerNode() {
        const std::vector<NodePatch> patches = nodePatches(planOf(4));
        QCOMPARE(patches.size(), std::size_t(4));
        QCOMPARE(patches[2].node, std::string("n03"));
        QCOMPARE(patches[2].changeCount, std::size_t(2));
        QCOMPARE(patches[3].firstChange, std::size_t(4));
        QVERIFY(patches[2].body.find(R"("path":"/metadata/labels/team")") != std::string::npos);
    }

    void answersMeanOutcomes_data() {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("outcome");
        QTest::newRow("200") << 200 << int(ChangeOutcome::Applied);
        QTest::newRow("201") << 201 << int(ChangeOutcome::Applied);
        QTest::newRow("422 test failed") << 422 << int(ChangeOutcome::Conflict);
        QTest::newRow("409") << 409 << int(ChangeOutcome::Conflict);
        QTest::newRow("403") << 403 << int(ChangeOutcome::Forbidden);
        QTest::newRow("404") << 404 << int(ChangeOutcome::Gone);
        QTest::newRow("500") << 500 << int(ChangeOutcome::Failed);
        QTest::newRow("429") << 429 << int(ChangeOutcome::Failed);
        QTest::newRow("no answer") << 0 << int(ChangeOutcome::Failed);
    }
    void answersMeanOutcomes() {
        QFETCH(int, status);
        QFETCH(int, outcome);
        QCOMPARE(int(outcomeOf({status, {}})), outcome);
    }

    // One refusal in the dry run and nothing is sent for real.
    void dryRunGatesEverything() {
        FakeServer server;
        server.dryRunStatus["n05"] = 403;
        const ApplyResult result = applyPlan(planOf(8), {}, server.sender());
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::DryRunRefused));
        QCOMPARE(result.dryRunRefusals.size(), std::size_t(1));
        QCOMPARE(result.dryRunRefusals[0].first, std::size_t(4));
        QVERIFY(server.batches.empty());
        QVERIFY(result.journal.changes.empty());
    }

    void dryRunOnlySendsNothingForReal() {
        FakeServer server;
        ApplyOptions options;
        options.dryRunOnly = true;
        const ApplyResult result = applyPlan(planOf(8), {}, server.sender(), options);
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::DryRunPassed));
        QCOMPARE(server.dryRuns, 1);
        QVERIFY(server.batches.empty());
    }

    // All in batches; the journal after each one; every change applied.
    void appliesInBatches() {
        FakeServer server;
        ApplyOptions options;
        options.batchSize = 3;
        std::vector<std::size_t> appliedAfterBatch;
        options.progress = [&](const ChangeJournal& journal) {
            appliedAfterBatch.push_back(journal.count(ChangeOutcome::Applied));
        };
        ChangeJournal header;
        header.plan = "move";
        const ApplyResult result = applyPlan(planOf(8), header, server.sender(), options);
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Applied));
        QCOMPARE(server.batches.size(), std::size_t(3));
        QCOMPARE(server.batches[2], (std::vector<std::string>{"n07", "n08"}));
        QCOMPARE(appliedAfterBatch, (std::vector<std::size_t>{4, 7, 9})); // n03 carries two changes
        QCOMPARE(result.journal.plan, std::string("move"));
        QCOMPARE(result.journal.count(ChangeOutcome::Applied), std::size_t(9));
    }

    // A conflict ends the apply after its batch: the rest of the batch stands, nothing later is sent.
    void aRefusalIsTheLastBatch() {
        FakeServer server;
        server.applyStatus["n05"] = 422;
        ApplyOptions options;
        options.batchSize = 3;
        const ApplyResult result = applyPlan(planOf(8), {}, server.sender(), options);
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Stopped));
        QCOMPARE(server.batches.size(), std::size_t(2));
        const auto outcome = [&](const std::string& node) {
            for (const JournalChange& entry : result.journal.changes)
                if (entry.change.node == node) return entry.outcome;
            return ChangeOutcome::Failed;
        };
        QCOMPARE(int(outcome("n04")), int(ChangeOutcome::Applied));
        QCOMPARE(int(outcome("n05")), int(ChangeOutcome::Conflict));
        QCOMPARE(int(outcome("n06")), int(ChangeOutcome::Applied));
        QCOMPARE(int(outcome("n07")), int(ChangeOutcome::NotAttempted));
        QCOMPARE(result.journal.changes[5].message, std::string("422 from the server"));
    }

    void cancelStopsBetweenBatches() {
        FakeServer server;
        ApplyOptions options;
        options.batchSize = 2;
        options.cancelled = [&] { return server.batches.size() == 2; };
        const ApplyResult result = applyPlan(planOf(8), {}, server.sender(), options);
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Stopped));
        QVERIFY(result.cancelled);
        QCOMPARE(server.batches.size(), std::size_t(2));
        QCOMPARE(result.journal.count(ChangeOutcome::NotAttempted), std::size_t(4));
    }

    // The journal reads back as written; undo reverses only what was applied.
    void journalRoundTripAndUndo() {
        FakeServer server;
        server.applyStatus["n02"] = 403;
        ApplyOptions options;
        options.batchSize = 2;
        ChangeJournal header;
        header.plan = "move";
        header.cluster = "context prod (https://10.0.0.1:6443)";
        header.fieldManager = "topodeck";
        header.started = "2026-12-03T10:00:00Z";
        ApplyResult result = applyPlan(planOf(4), header, server.sender(), options);
        result.journal.finished = "2026-12-03T10:00:01Z";
        const std::string text = writeChangeJournal(result.journal);
        const Result<ChangeJournal> back = readChangeJournal(text, "move.journal.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(*back == result.journal);
        QCOMPARE(writeChangeJournal(*back), text);

        const ChangePlan undo = undoPlan(*back);
        QCOMPARE(undo.labelChanges.size(), std::size_t(1)); // n01 applied; n02 forbidden; n03, n04 never sent
        QCOMPARE(undo.labelChanges[0], (LabelChange{"n01", "example.com/rack", "r2", "r1"}));
        QCOMPARE(undo.name, std::string("undo-move"));
        // The undo plan is a plan like any other: it reads back.
        const Result<ChangePlan> undoBack = readChangePlan(writeChangePlan(undo), "undo.yaml");
        QVERIFY2(undoBack.ok(), undoBack.ok() ? "" : undoBack.error().message.c_str());
        QVERIFY(*undoBack == undo);
    }

    void badJournalsAreRefusedByField_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("error");
        const QByteArray head = "apiVersion: topodeck.io/v1alpha1\nkind: ChangeJournal\n";
        QTest::newRow("a plan") << QByteArray("apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\n")
                                << QByteArray("kind: expected ChangeJournal, not \"ChangePlan\"");
        QTest::newRow("unknown outcome") << head + "spec:\n  changes:\n  - {node: a, key: k, after: v, outcome: done}\n"
                                         << QByteArray("journal.yaml:5:42: spec.changes[0].outcome: expected one of");
        QTest::newRow("no outcome") << head + "spec:\n  changes:\n  - {node: a, key: k, after: v}\n"
                                    << QByteArray("spec.changes[0].outcome: expected one of");
        QTest::newRow("bad node name") << head + "spec:\n  changes:\n  - {node: ../x, key: k, after: v, outcome: applied}\n"
                                       << QByteArray("spec.changes[0].node: invalid node name \"../x\"");
        QTest::newRow("unknown field") << head + "spec:\n  changes:\n  - {node: a, key: k, after: v, outcome: applied, by: me}\n"
                                       << QByteArray("spec.changes[0]: unknown field \"by\"");
        QTest::newRow("changes not a list") << head + "spec:\n  changes: {a: b}\n" << QByteArray("spec.changes: expected a list");
        QTest::newRow("unknown metadata") << head + "metadata:\n  owner: me\n" << QByteArray("metadata: unknown field \"owner\"");
    }
    void badJournalsAreRefusedByField() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, error);
        const Result<ChangeJournal> journal = readChangeJournal(text.toStdString(), "journal.yaml");
        QVERIFY2(!journal, text.constData());
        QVERIFY2(journal.error().message.find(error.toStdString()) != std::string::npos, journal.error().message.c_str());
        QVERIFY2(journal.error().message.starts_with("journal.yaml"), journal.error().message.c_str());
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestPlanApply)
#include "test_plan_apply.moc"
