// NodePodsModel under QAbstractItemModelTester: the session's answer for a node as rows (name,
// workload with its kind in the tooltip, phase, GPUs counted by the snapshot's GPU resources), and
// a Slurm cluster's columns in its own words.
#include "models/node_pods_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

NodePodsPtr podsOf(const std::vector<Pod>& pods) {
    auto answer = std::make_shared<NodePodsAnswer>();
    answer->pods = pods;
    return answer;
}

NodePodsPtr n1Pods() {
    Pod pending = detailsPod("p9", "n1", 0);
    pending.phase = PodPhase::Pending;
    pending.workload.clear();
    pending.workloadKind = WorkloadKind::None;
    return podsOf({detailsPod("p1", "n1", 2), detailsPod("p2", "n1", 1), pending});
}

} // namespace

class TestNodePodsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("text");
        const int display = Qt::DisplayRole, tip = Qt::ToolTipRole;
        QTest::newRow("name") << 0 << int(NodePodsModel::NameColumn) << display << QStringLiteral("team/p1");
        QTest::newRow("name, whole") << 0 << int(NodePodsModel::NameColumn) << tip << QStringLiteral("team/p1");
        QTest::newRow("workload") << 0 << int(NodePodsModel::WorkloadColumn) << display << QStringLiteral("trainer");
        QTest::newRow("workload's kind") << 0 << int(NodePodsModel::WorkloadColumn) << tip
                                         << QStringLiteral("JobSet trainer");
        QTest::newRow("phase") << 0 << int(NodePodsModel::PhaseColumn) << display << QStringLiteral("Running");
        QTest::newRow("GPUs") << 1 << int(NodePodsModel::GpusColumn) << display << QStringLiteral("1");
        QTest::newRow("pending") << 2 << int(NodePodsModel::PhaseColumn) << display << QStringLiteral("Pending");
        QTest::newRow("no GPUs: blank") << 2 << int(NodePodsModel::GpusColumn) << display << QString();
        QTest::newRow("no workload") << 2 << int(NodePodsModel::WorkloadColumn) << tip << QString();
    }
    void cells() {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(int, role);
        QFETCH(QString, text);
        NodePodsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPods(detailsSnapshot(), n1Pods());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(row, column).data(role).toString(), text);
    }

    void headers_data() {
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("firstRow");
        QTest::newRow("Kubernetes") << QStringLiteral("kueue") << QStringLiteral("Pod") << QStringLiteral("Workload")
                                    << QStringLiteral("team/p1");
        // A Slurm allocation is a job: its id, not a namespace.
        QTest::newRow("Slurm") << QStringLiteral("slurm") << QStringLiteral("Job") << QStringLiteral("Name")
                               << QStringLiteral("p1");
    }
    void headers() {
        QFETCH(QString, origin);
        QFETCH(QString, name);
        QFETCH(QString, workload);
        QFETCH(QString, firstRow);
        NodePodsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.columnCount(), int(NodePodsModel::ColumnCount));
        model.setPods(detailsSnapshot(origin.toStdString()), n1Pods());
        QCOMPARE(model.headerData(NodePodsModel::NameColumn, Qt::Horizontal).toString(), name);
        QCOMPARE(model.headerData(NodePodsModel::WorkloadColumn, Qt::Horizontal).toString(), workload);
        QCOMPARE(model.headerData(NodePodsModel::PhaseColumn, Qt::Horizontal).toString(), QStringLiteral("Phase"));
        QCOMPARE(model.index(0, NodePodsModel::NameColumn).data().toString(), firstRow);
    }

    // No answer yet, an answer, a smaller one: rows come and go at the end; the header says when
    // the cluster turns out to be Slurm's.
    void answersReplaceRows() {
        NodePodsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setPods(detailsSnapshot(), nullptr);
        QCOMPARE(model.rowCount(), 0);
        model.setPods(detailsSnapshot(), n1Pods());
        QCOMPARE(model.rowCount(), 3);
        model.setPods(detailsSnapshot(), podsOf({detailsPod("p3", "n4", 8)}));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, NodePodsModel::GpusColumn).data().toString(), QStringLiteral("8"));
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        model.setPods(detailsSnapshot("slurm"), podsOf({detailsPod("p3", "n4", 8)}));
        QCOMPARE(headers.count(), 1);
        QCOMPARE(resets.count(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodePodsModel)
#include "test_node_pods_model.moc"
