// GangsModel over hand-built reports (under QAbstractItemModelTester), and the session's gangs
// report: computed on its worker, a newer request superseding an older one.

#include "models/gangs_model.h"
#include "session/cluster_session.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace topodeck;

namespace {

GangsReportPtr handBuilt() {
    auto report = std::make_shared<GangsReport>();
    report->levels = {{"block", "example.com/block", false}, {"rack", "example.com/rack", false},
                      {"nvlink", "nvidia.com/gpu.clique", true}};
    Gang spread;
    spread.nameSpace = "ml";
    spread.name = "trainer";
    spread.kind = WorkloadKind::JobSet;
    spread.pods = 16;
    spread.gpus = 64;
    spread.gpusPerPod = 4;
    spread.levels = {{1, 1, 0}, {2, 1, 0}, {2, 1, 0}};
    spread.nodes = {3, 4, 20};
    Gang tidy;
    tidy.nameSpace = "ml";
    tidy.name = "eval";
    tidy.kind = WorkloadKind::Job;
    tidy.pods = 2;
    tidy.gpus = 16;
    tidy.levels = {{1, 1, 0}, {1, 1, 1}, {1, 1, 0}};
    tidy.nodes = {7};
    report->gangs = {spread, tidy};
    return report;
}

} // namespace

class TestGangsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void columnsAndRows();
    void cells_data();
    void cells();
    void roles();
    void resetsUnderTheTester();
    void sessionComputesTheReport();
    void newerRequestSupersedes();
};

void TestGangsModel::columnsAndRows() {
    GangsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), static_cast<int>(GangsModel::FirstLevelColumn));
    model.setReport(handBuilt());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 7);
    QCOMPARE(model.headerData(GangsModel::NameColumn, Qt::Horizontal).toString(), QStringLiteral("Gang"));
    QCOMPARE(model.headerData(GangsModel::FirstLevelColumn + 1, Qt::Horizontal).toString(), QStringLiteral("rack"));
    QCOMPARE(model.headerData(GangsModel::FirstLevelColumn + 2, Qt::Horizontal).toString(), QStringLiteral("NVLink"));
    QVERIFY(model.headerData(GangsModel::FirstLevelColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("example.com/block")));
    QCOMPARE(model.rowOf(QStringLiteral("ml/eval")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("ml/none")), -1);
}

void TestGangsModel::cells_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    QTest::newRow("name") << 0 << int(GangsModel::NameColumn) << QStringLiteral("ml/trainer");
    QTest::newRow("kind") << 0 << int(GangsModel::KindColumn) << QStringLiteral("JobSet");
    QTest::newRow("pods") << 0 << int(GangsModel::PodsColumn) << QStringLiteral("16");
    QTest::newRow("gpus") << 0 << int(GangsModel::GpusColumn) << QStringLiteral("64");
    QTest::newRow("block") << 0 << int(GangsModel::FirstLevelColumn) << QStringLiteral("1 / 1");
    QTest::newRow("rack") << 0 << int(GangsModel::FirstLevelColumn) + 1 << QStringLiteral("2 / 1");
    QTest::newRow("second gang's kind") << 1 << int(GangsModel::KindColumn) << QStringLiteral("Job");
}

void TestGangsModel::cells() {
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, text);
    GangsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(handBuilt());
    QCOMPARE(model.index(row, column).data().toString(), text);
}

void TestGangsModel::roles() {
    GangsModel model;
    model.setReport(handBuilt());
    const QModelIndex trainer = model.index(0, GangsModel::FirstLevelColumn + 1);
    QCOMPARE(trainer.data(GangsModel::NodeIdsRole).value<QList<quint32>>(), (QList<quint32>{3, 4, 20}));
    QCOMPARE(trainer.data(GangsModel::QualifiedNameRole).toString(), QStringLiteral("ml/trainer"));
    QCOMPARE(trainer.data(GangsModel::CompactRole).toBool(), false);
    QCOMPARE(trainer.data(GangsModel::SpansRole).toInt(), 2);
    QCOMPARE(trainer.data(GangsModel::LeastRole).toInt(), 1);
    QVERIFY(trainer.data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!model.index(0, GangsModel::FirstLevelColumn).data(Qt::FontRole).isValid());
    QVERIFY(trainer.data(Qt::ToolTipRole).toString().contains(QStringLiteral("rack")));
    QVERIFY(model.index(1, GangsModel::FirstLevelColumn + 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("no rack")));
    QCOMPARE(model.index(1, 0).data(GangsModel::CompactRole).toBool(), true);
    QVERIFY(!model.index(1, 0).data(GangsModel::SpansRole).isValid());
}

void TestGangsModel::resetsUnderTheTester() {
    GangsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setReport(handBuilt());
    model.setReport(std::make_shared<GangsReport>());
    QCOMPARE(model.rowCount(), 0);
    model.setReport(nullptr);
    QCOMPARE(model.columnCount(), static_cast<int>(GangsModel::FirstLevelColumn));
    QCOMPARE(resets.count(), 3);
}

void TestGangsModel::sessionComputesTheReport() {
    ClusterSession session;
    QSignalSpy snapshots(&session, &ClusterSession::snapshotPublished);
    QSignalSpy reports(&session, &ClusterSession::gangsReportReady);
    session.requestGangsReport(); // no source yet: an empty report
    QVERIFY(reports.wait(10000));
    QVERIFY(reports.at(0).at(0).value<GangsReportPtr>()->gangs.empty());
    session.openDemo(QStringLiteral("gb200"));
    QVERIFY(snapshots.wait(30000));
    session.requestGangsReport();
    QVERIFY(reports.wait(10000));
    const GangsReportPtr report = reports.at(1).at(0).value<GangsReportPtr>();
    QVERIFY(report && report->gangs.size() > 20);
    QCOMPARE(reports.at(1).at(1).value<quint64>(), session.latestSnapshot()->generation);
    QCOMPARE(report->levels.back().name, std::string("nvlink"));

    GangsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(report);
    QCOMPARE(model.rowCount(), static_cast<int>(report->gangs.size()));
    QCOMPARE(model.columnCount(), 4 + 3);
}

// Two requests before the worker answers: only the newer one's report arrives.
void TestGangsModel::newerRequestSupersedes() {
    ClusterSession session;
    QSignalSpy snapshots(&session, &ClusterSession::snapshotPublished);
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(snapshots.wait(30000));
    QSignalSpy reports(&session, &ClusterSession::gangsReportReady);
    session.requestGangsReport();
    session.requestGangsReport();
    QVERIFY(reports.wait(10000));
    QTest::qWait(300);
    QCOMPARE(reports.count(), 1);
}

TOPODECK_TEST_GUILESS_MAIN(TestGangsModel)
#include "test_gangs_model.moc"
