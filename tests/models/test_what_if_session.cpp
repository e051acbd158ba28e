// ClusterSession's what-if on the gb200 demo: the answer's snapshot is hypothetical and shows the
// failure, it follows the live cluster while applied, and clearWhatIf stops it.
#include "session/cluster_session.h"
#include "support/test_program.h"

#include <QSignalSpy>
#include <QTest>

using namespace topodeck;

namespace {

constexpr int kTimeoutMs = 60000;

WhatIfAnswerPtr answerAt(const QSignalSpy& spy, qsizetype i) {
    return spy.at(i).at(0).value<WhatIfAnswerPtr>();
}

} // namespace

class TestWhatIfSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void failureIsHypotheticalFollowsLiveAndClears() {
        ClusterSession session;
        QSignalSpy published(&session, &ClusterSession::snapshotPublished);
        session.openDemo(QStringLiteral("gb200"));
        QVERIFY(published.wait(kTimeoutMs));
        const ClusterSnapshotPtr live = session.latestSnapshot();
        QVERIFY(live && !live->hypothetical());

        QSignalSpy answered(&session, &ClusterSession::whatIfAnswered);
        session.requestWhatIf(
            {{WhatIfStep::Kind::Fail, "su-1/rack-1-02", {}, {}}, {WhatIfStep::Kind::Drain, "no-such-node", {}, {}}});
        QVERIFY(session.whatIfActive());
        QVERIFY(answered.wait(kTimeoutMs));
        const WhatIfAnswerPtr answer = answerAt(answered, 0);
        QVERIFY(answer->error.empty());
        QVERIFY(answer->snapshot->hypothetical());
        QCOMPARE(answer->snapshot->hypotheticalSteps,
                 (QStringList{QStringLiteral("Fail su-1/rack-1-02"), QStringLiteral("Drain no-such-node")}));
        QCOMPARE(answer->steps.size(), std::size_t(2));
        QVERIFY(answer->steps[0].applied);
        QVERIFY(!answer->steps[1].applied);
        QVERIFY(!answer->failures.empty());
        QCOMPARE(answer->changedNodes.size(), std::size_t(18));
        QCOMPARE(answer->snapshot->sourceEpoch, live->sourceEpoch);
        // The live snapshot is as it was: the failure is only in the copy.
        QVERIFY(answer->snapshot->index.root().totals.nodesReady < live->index.root().totals.nodesReady);
        QCOMPARE(session.latestSnapshot()->index.root().totals.nodesReady, live->index.root().totals.nodesReady);

        // A newer live snapshot brings a newer answer, still hypothetical.
        session.setSimulationInterval(50);
        session.setSimulationEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(answered.size() >= 2 &&
                                     answerAt(answered, answered.size() - 1)->liveGeneration > answer->liveGeneration,
                                 kTimeoutMs);
        QVERIFY(answerAt(answered, answered.size() - 1)->snapshot->hypothetical());

        // Cleared: no more answers, whatever the live cluster does.
        QSignalSpy cleared(&session, &ClusterSession::whatIfCleared);
        session.clearWhatIf();
        QCOMPARE(cleared.size(), 1);
        QVERIFY(!session.whatIfActive());
        const qsizetype answers = answered.size();
        QVERIFY(published.wait(kTimeoutMs));
        QTest::qWait(1200);
        QCOMPARE(answered.size(), answers);
        QVERIFY(!session.latestSnapshot()->hypothetical());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestWhatIfSession)
#include "test_what_if_session.moc"
