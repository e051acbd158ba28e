// GangDomainsModel under QAbstractItemModelTester: a running gang's pods and GPUs per domain at each
// level, top level first, then per NVLink domain; domain rows carry their id, NVLink rows none; the
// gang's nodes gone from the cluster are counted, not listed.
#include "models/gang_domains_model.h"
#include "models/topology_tree_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

// Two pods with 3 GPUs on n1, one with 8 on n4, one on a node that is gone.
Gang trainer(const ClusterSnapshot& snapshot) {
    Gang gang;
    gang.nameSpace = "team";
    gang.name = "trainer";
    gang.nodes = {nodeNamed(snapshot, "n1"), nodeNamed(snapshot, "n4"), NodeId(9999)};
    gang.nodePods = {2, 1, 1};
    gang.nodeGpus = {3, 8, 4};
    return gang;
}

} // namespace

class TestGangDomainsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rows_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<QStringList>("cells"); // level, domain, pods, GPUs
        QTest::newRow("first block") << 0
                                     << QStringList{QStringLiteral("block"), QStringLiteral("b1"), QStringLiteral("2"),
                                                    QStringLiteral("3")};
        QTest::newRow("second block") << 1
                                      << QStringList{QStringLiteral("block"), QStringLiteral("b2"), QStringLiteral("1"),
                                                     QStringLiteral("8")};
        // Racks by path: rack-1 of one block is not rack-1 of another.
        QTest::newRow("first rack") << 2
                                    << QStringList{QStringLiteral("rack"), QStringLiteral("b1/r1"), QStringLiteral("2"),
                                                   QStringLiteral("3")};
        QTest::newRow("second rack") << 3
                                     << QStringList{QStringLiteral("rack"), QStringLiteral("b2/r3"),
                                                    QStringLiteral("1"), QStringLiteral("8")};
        QTest::newRow("first clique") << 4
                                      << QStringList{QStringLiteral("NVLink"), QStringLiteral("c1"),
                                                     QStringLiteral("2"), QStringLiteral("3")};
        QTest::newRow("second clique") << 5
                                       << QStringList{QStringLiteral("NVLink"), QStringLiteral("c2"),
                                                      QStringLiteral("1"), QStringLiteral("8")};
    }
    void rows() {
        QFETCH(int, row);
        QFETCH(QStringList, cells);
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        GangDomainsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Gang gang = trainer(*snapshot);
        model.setGang(snapshot, &gang);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.total(), 6);
        QCOMPARE(model.nodesGone(), 1);
        for (int column = 0; column < GangDomainsModel::ColumnCount; ++column)
            QCOMPARE(model.index(row, column).data().toString(), cells[column]);
        QCOMPARE(model.index(row, GangDomainsModel::DomainColumn).data(Qt::ToolTipRole).toString(),
                 cells[GangDomainsModel::DomainColumn]);
    }

    // What activation reads: the tree's domain, which an NVLink domain is not.
    void domainIds() {
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        GangDomainsModel model;
        const Gang gang = trainer(*snapshot);
        model.setGang(snapshot, &gang);
        QCOMPARE(model.index(2, GangDomainsModel::DomainColumn).data(TopologyTreeModel::DomainIdRole).value<DomainId>(),
                 domainAt(snapshot->index, "b1/r1"));
        QVERIFY(!model.index(4, GangDomainsModel::DomainColumn).data(TopologyTreeModel::DomainIdRole).isValid());
        QCOMPARE(model.headerData(GangDomainsModel::PodsColumn, Qt::Horizontal).toString(), QStringLiteral("Pods"));
    }

    // A newer report of the gang, one no longer running: rows change, go, never reset.
    void gangsReplaceRows() {
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        GangDomainsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        Gang gang = trainer(*snapshot);
        model.setGang(snapshot, &gang);
        gang.nodes.erase(gang.nodes.begin() + 1); // only n1 and the node gone
        gang.nodePods.erase(gang.nodePods.begin() + 1);
        gang.nodeGpus.erase(gang.nodeGpus.begin() + 1);
        model.setGang(snapshot, &gang);
        QCOMPARE(model.rowCount(), 3); // b1, b1/r1, c1
        model.setGang(snapshot, nullptr);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.nodesGone(), 0);
        QCOMPARE(resets.count(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestGangDomainsModel)
#include "test_gang_domains_model.moc"
