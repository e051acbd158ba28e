// DomainChildrenModel on a small cluster, under QAbstractItemModelTester: a domain's child domains
// or a rack's nodes with their free GPUs and state, the roles the occupancy bar and activation
// read, the rows capped at kMaxRows, and a refresh that keeps the view's selection.
#include "models/domain_children_model.h"
#include "models/topology_tree_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

class TestDomainChildrenModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data() {
        QTest::addColumn<QString>("domain");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        const int name = DomainChildrenModel::NameColumn, free = DomainChildrenModel::FreeColumn,
                  state = DomainChildrenModel::StateColumn;
        QTest::newRow("first block") << QString() << 0 << name << QStringLiteral("b1");
        QTest::newRow("nodes without a block") << QString() << 2 << name << QStringLiteral("(no block)");
        QTest::newRow("a block's free GPUs") << QString() << 0 << free << QStringLiteral("1");
        QTest::newRow("a block's nodes not ready") << QString() << 0 << state << QStringLiteral("1");
        QTest::newRow("all ready: blank") << QString() << 1 << state << QString();
        QTest::newRow("a rack's node") << QStringLiteral("b1/r1") << 0 << name << QStringLiteral("n1");
        QTest::newRow("a node's free GPUs") << QStringLiteral("b1/r1") << 0 << free << QStringLiteral("1");
        QTest::newRow("a ready node: blank") << QStringLiteral("b1/r1") << 0 << state << QString();
        QTest::newRow("not ready") << QStringLiteral("b1/r1") << 1 << state << QStringLiteral("NotReady");
        QTest::newRow("not ready: none free") << QStringLiteral("b1/r1") << 1 << free << QStringLiteral("0");
        QTest::newRow("cordoned") << QStringLiteral("b1/r2") << 0 << state << QStringLiteral("Cordoned");
    }
    void cells() {
        QFETCH(QString, domain);
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        DomainChildrenModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDomain(snapshot, domainAt(snapshot->index, domain.toStdString()));
        QCOMPARE(model.index(row, column).data().toString(), text);
    }

    // Child domains say "Not ready" in the state column, nodes their "Status"; the header follows.
    void headerFollowsWhatIsListed() {
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        DomainChildrenModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.columnCount(), int(DomainChildrenModel::ColumnCount));
        QCOMPARE(model.headerData(DomainChildrenModel::StateColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Not ready"));
        model.setDomain(snapshot, kRootDomain);
        QVERIFY(!model.listsNodes());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.total(), 3);
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        model.setDomain(snapshot, domainAt(snapshot->index, "b1/r1"));
        QVERIFY(model.listsNodes());
        QCOMPARE(headers.count(), 1);
        QCOMPARE(model.headerData(DomainChildrenModel::StateColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Status"));
        model.setDomain(nullptr, kRootDomain);
        QCOMPARE(model.rowCount(), 0);
    }

    // What the occupancy bar delegate and the panel's activation read.
    void roles() {
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        DomainChildrenModel model;
        model.setDomain(snapshot, domainAt(snapshot->index, "b1/r1"));
        const QModelIndex n1 = model.index(0, DomainChildrenModel::OccupancyColumn);
        QCOMPARE(n1.data(TopologyTreeModel::IsNodeRole).toBool(), true);
        QCOMPARE(n1.data(TopologyTreeModel::NodeIdRole).value<NodeId>(), nodeNamed(*snapshot, "n1"));
        QVERIFY(!n1.data(TopologyTreeModel::DomainIdRole).isValid());
        QCOMPARE(n1.data(TopologyTreeModel::GpusTotalRole).toLongLong(), 4);
        QCOMPARE(n1.data(TopologyTreeModel::GpusUsedRole).toLongLong(), 3);
        QCOMPARE(n1.data(TopologyTreeModel::GpusFreeRole).toLongLong(), 1);
        QCOMPARE(n1.data(TopologyTreeModel::GpusUnavailableRole).toLongLong(), 0);
        QCOMPARE(n1.data(Qt::ToolTipRole).toString(), QStringLiteral("3 of 4 GPUs used"));
        QVERIFY(!n1.data(Qt::DisplayRole).isValid()); // drawn, not written
        // A node that is not ready has its rest unavailable, not free.
        QCOMPARE(model.index(1, 0).data(TopologyTreeModel::GpusUnavailableRole).toLongLong(), 4);
        QCOMPARE(Qt::Alignment(model.index(0, DomainChildrenModel::FreeColumn).data(Qt::TextAlignmentRole).toInt()),
                 Qt::AlignRight | Qt::AlignVCenter);

        model.setDomain(snapshot, kRootDomain);
        const QModelIndex b1 = model.index(0, DomainChildrenModel::NameColumn);
        QCOMPARE(b1.data(TopologyTreeModel::IsNodeRole).toBool(), false);
        QCOMPARE(b1.data(TopologyTreeModel::DomainIdRole).value<DomainId>(), domainAt(snapshot->index, "b1"));
        QVERIFY(!b1.data(TopologyTreeModel::NodeIdRole).isValid());
    }

    // A newer snapshot of the same domain changes rows in place: the selection stays, and an
    // unchanged one says nothing; a domain with fewer rows removes the rest, never resets.
    void refreshKeepsTheSelection() {
        const ClusterSnapshotPtr snapshot = detailsSnapshot();
        DomainChildrenModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QItemSelectionModel selection(&model);
        model.setDomain(snapshot, kRootDomain);
        selection.select(model.index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setDomain(detailsSnapshot(), kRootDomain);
        QCOMPARE(changed.count(), 0);
        ClusterState busier = detailsState();
        busier.apply(PodUpserted{detailsPod("p4", "n1", 1)});
        model.setDomain(makeClusterSnapshot(busier, TopologyIndex::build(busier, snapshot->index.spec())), kRootDomain);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0, DomainChildrenModel::FreeColumn).data().toString(), QStringLiteral("0"));
        QVERIFY(selection.isRowSelected(1));
        model.setDomain(snapshot, domainAt(snapshot->index, "b1/r2"));
        QCOMPARE(model.rowCount(), 1);
        model.setDomain(snapshot, domainAt(snapshot->index, "b1/r1"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(resets.count(), 0);
    }

    // A flat hierarchy with more nodes under one rack than a pane lists: the first kMaxRows.
    void rowsAreCapped() {
        ClusterState state;
        const int nodes = DomainChildrenModel::kMaxRows + 5;
        for (int i = 0; i < nodes; ++i)
            state.apply(NodeUpserted{detailsNode("node-" + std::to_string(i), "b1", "r1", 4)});
        const ClusterSnapshotPtr snapshot = makeClusterSnapshot(
            state, TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"})));
        DomainChildrenModel model;
        model.setDomain(snapshot, domainAt(snapshot->index, "b1/r1"));
        QCOMPARE(model.rowCount(), DomainChildrenModel::kMaxRows);
        QCOMPARE(model.total(), nodes);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestDomainChildrenModel)
#include "test_domain_children_model.moc"
