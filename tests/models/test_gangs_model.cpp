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

// handBuilt() on a cluster with ComputeDomains: the trainer's spans two NVLink cliques, the eval
// gang has one of its two pods outside its domain's clique, and a third gang uses none.
GangsReportPtr withComputeDomains() {
    auto report = std::make_shared<GangsReport>(*handBuilt());
    ComputeDomainUsage trainer;
    trainer.nameSpace = "ml";
    trainer.name = "trainer-cd";
    trainer.status = ComputeDomainReadiness::Ready;
    trainer.members = {{"n3", "U.0", true, ComputeDomainReadiness::Ready, 8, 0},
                       {"n20", "U.1", true, ComputeDomainReadiness::Ready, 8, 1}};
    trainer.cliques = {"U.0", "U.1"};
    trainer.workloads = {{"trainer", WorkloadKind::JobSet, 16}};
    trainer.pods = 16;
    ComputeDomainUsage eval = trainer;
    eval.name = "eval-cd";
    eval.status = ComputeDomainReadiness::NotReady;
    eval.members = {{"n7", "U.0", true, ComputeDomainReadiness::NotReady, 1, 0}};
    eval.cliques = {"U.0"};
    eval.workloads = {{"eval", WorkloadKind::Job, 2}};
    report->computeDomains = {eval, trainer};
    report->gangs[0].computeDomain = "ml/trainer-cd";
    report->gangs[0].computeDomainCliques = trainer.cliques;
    report->gangs[1].computeDomain = "ml/eval-cd";
    report->gangs[1].computeDomainCliques = eval.cliques;
    report->gangs[1].outsideComputeDomain = {{8, "", 1}};
    Gang plain = report->gangs[1];
    plain.name = "plain";
    plain.computeDomain.clear();
    plain.computeDomainCliques.clear();
    plain.outsideComputeDomain.clear();
    report->gangs.push_back(plain);
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
    void computeDomainColumn();
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

// Only on a cluster with ComputeDomains: a last column naming each gang's, marked when flagged,
// its tooltip saying why in words.
void TestGangsModel::computeDomainColumn() {
    GangsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(handBuilt());
    QCOMPARE(model.computeDomainColumn(), -1);
    QCOMPARE(model.columnCount(), 7);
    model.setReport(withComputeDomains());
    const int column = model.computeDomainColumn();
    QCOMPARE(column, 7);
    QCOMPARE(model.columnCount(), 8);
    QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), QStringLiteral("ComputeDomain"));
    QVERIFY(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("IMEX")));

    const QModelIndex trainer = model.index(0, column);
    QCOMPARE(trainer.data().toString(), QStringLiteral("⚠ trainer-cd"));
    QVERIFY(trainer.data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(trainer.data(GangsModel::ComputeDomainRole).toString(), QStringLiteral("ml/trainer-cd"));
    QVERIFY(trainer.data(GangsModel::ComputeDomainFlaggedRole).toBool());
    // (The tests install no catalogue: plurals read "(s)", as the source strings write them.)
    const QString why = trainer.data(Qt::ToolTipRole).toString();
    QVERIFY2(why.contains(QStringLiteral("Spans 2 NVLink clique")), qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("JobSet trainer (16 pod")), qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("clique U.1: 1 node")), qPrintable(why));
    // The other roles still answer in this column.
    QCOMPARE(trainer.data(GangsModel::QualifiedNameRole).toString(), QStringLiteral("ml/trainer"));

    const QModelIndex eval = model.index(1, column);
    QCOMPARE(eval.data().toString(), QStringLiteral("⚠ eval-cd"));
    const QString outside = eval.data(Qt::ToolTipRole).toString();
    QVERIFY2(outside.contains(QStringLiteral("1 of its 2 pod")), qPrintable(outside));
    QVERIFY2(outside.contains(QStringLiteral("outside its ComputeDomain's NVLink cliques")), qPrintable(outside));
    QVERIFY2(outside.contains(QStringLiteral("NotReady")), qPrintable(outside));
    QVERIFY(!outside.contains(QStringLiteral("Spans")));

    const QModelIndex plain = model.index(2, column);
    QCOMPARE(plain.data().toString(), QStringLiteral("none"));
    QVERIFY(!plain.data(Qt::FontRole).isValid());
    QVERIFY(!plain.data(GangsModel::ComputeDomainFlaggedRole).toBool());
    QVERIFY(plain.data(GangsModel::ComputeDomainRole).toString().isEmpty());
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
