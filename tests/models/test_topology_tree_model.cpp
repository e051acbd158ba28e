#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "models/topology_tree_model.h"
#include "session/cluster_snapshot.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include <optional>

using namespace topodeck;

namespace {

// A demo cluster loaded the way a source holds it, so tests can apply further events.
struct Source : testing::LoadedDemo {
    bool load(const QString& name) {
        static_cast<LoadedDemo&>(*this) = testing::loadDemo(name.toStdString());
        return true;
    }
    void apply(const ClusterEvent& event) { index.apply(state, state.apply(event)); }
    ClusterSnapshotPtr snapshot() const { return makeClusterSnapshot(state, index); }
};

QString text(const QAbstractItemModel& model, const QModelIndex& parent, int row, int column) {
    return model.index(row, column, parent).data().toString();
}

QString ratio(std::int64_t a, std::int64_t b) {
    return QLocale().toString(qint64(a)) + QLatin1Char('/') + QLocale().toString(qint64(b));
}

// Every row under `parent` shows what the index holds for `domain`, recursively.
void compareSubtree(const TopologyTreeModel& model, const QModelIndex& parent, const ClusterSnapshot& snapshot,
                    DomainId domainId, int& nodesSeen) {
    const TopologyIndex& index = snapshot.index;
    const Domain& domain = index.domain(domainId);
    QCOMPARE(model.rowCount(parent), int(domain.children.size() + domain.nodes.size()));
    int row = 0;
    for (DomainId child : domain.children) {
        const Domain& d = index.domain(child);
        const QModelIndex at = model.index(row, 0, parent);
        QCOMPARE(at.data(TopologyTreeModel::DomainIdRole).value<quint32>(), child);
        QVERIFY(!at.data(TopologyTreeModel::NodeIdRole).isValid());
        QCOMPARE(at.data(TopologyTreeModel::IsNodeRole).toBool(), false);
        QCOMPARE(model.indexForDomain(child), at);
        QCOMPARE(model.parent(at), parent);
        const QString name = d.unlabelled ? QStringLiteral("(no %1)").arg(QString::fromStdString(
                                                index.spec().levels[static_cast<std::size_t>(d.level)].name))
                                          : QString::fromStdString(d.value);
        QCOMPARE(text(model, parent, row, TopologyTreeModel::NameColumn), name);
        QCOMPARE(text(model, parent, row, TopologyTreeModel::OccupancyColumn),
                 ratio(d.totals.gpusUsed, d.totals.gpusTotal));
        QCOMPARE(text(model, parent, row, TopologyTreeModel::FreeColumn),
                 QLocale().toString(qint64(d.totals.gpusFree)));
        QCOMPARE(text(model, parent, row, TopologyTreeModel::NodesColumn),
                 ratio(d.totals.nodesReady, d.totals.nodesTotal));
        QCOMPARE(text(model, parent, row, TopologyTreeModel::NotReadyColumn),
                 QLocale().toString(qint64(d.totals.nodesTotal - d.totals.nodesReady)));
        QCOMPARE(at.data(TopologyTreeModel::GpusTotalRole).toLongLong(), d.totals.gpusTotal);
        QCOMPARE(at.data(TopologyTreeModel::GpusFreeRole).toLongLong(), d.totals.gpusFree);
        QCOMPARE(at.data(TopologyTreeModel::PathRole).toString(), QString::fromStdString(index.pathName(child)));
        const double fraction =
            model.index(row, TopologyTreeModel::OccupancyColumn, parent).data(Qt::UserRole).toDouble();
        QCOMPARE(fraction, d.totals.gpusTotal ? double(d.totals.gpusUsed) / double(d.totals.gpusTotal) : 0.0);
        compareSubtree(model, at, snapshot, child, nodesSeen);
        if (QTest::currentTestFailed()) return;
        ++row;
    }
    for (NodeId node : domain.nodes) {
        const QModelIndex at = model.index(row, 0, parent);
        QCOMPARE(at.data(TopologyTreeModel::NodeIdRole).value<quint32>(), node);
        QVERIFY(!at.data(TopologyTreeModel::DomainIdRole).isValid());
        QCOMPARE(at.data(TopologyTreeModel::IsNodeRole).toBool(), true);
        QCOMPARE(model.indexForNode(node), at);
        QCOMPARE(model.parent(at), parent);
        QCOMPARE(model.rowCount(at), 0);
        QCOMPARE(at.data().toString(), QString::fromStdString(snapshot.node(node)->name));
        const NodeStats& stats = index.node(node);
        QCOMPARE(text(model, parent, row, TopologyTreeModel::OccupancyColumn), ratio(stats.gpusUsed, stats.gpusTotal));
        QCOMPARE(text(model, parent, row, TopologyTreeModel::FreeColumn), QLocale().toString(qint64(stats.gpusFree())));
        QCOMPARE(at.data(Qt::ForegroundRole).isValid(), !stats.schedulable);
        ++nodesSeen;
        ++row;
    }
}

void compareTree(const TopologyTreeModel& model) {
    int nodesSeen = 0;
    compareSubtree(model, QModelIndex(), *model.snapshot(), kRootDomain, nodesSeen);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(nodesSeen, int(model.snapshot()->index.root().totals.nodesTotal));
}

// A node as it is now, with one label changed (or removed when value is empty).
Node relabelled(const Source& source, NodeId id, const std::string& key, const std::string& value) {
    Node node = *source.state.record(id).node;
    std::erase_if(node.labels, [&key](const auto& label) { return label.first == key; });
    if (!value.empty()) node.setLabel(key, value);
    return node;
}

QModelIndex firstLeaf(const TopologyTreeModel& model) {
    QModelIndex at = model.index(0, 0);
    while (model.rowCount(at) > 0 && !model.index(0, 0, at).data(TopologyTreeModel::IsNodeRole).toBool())
        at = model.index(0, 0, at);
    return at;
}

} // namespace

class TestTopologyTreeModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsTheIndex_data();
    void showsTheIndex();
    void headersAndLookups();
    void liveUpdateKeepsSelection();
    void structureChangeRemapsPersistentIndexes();
    void otherTopologyResets();
    void largeClusterUpdates();
};

void TestTopologyTreeModel::showsTheIndex_data() {
    QTest::addColumn<QString>("demo");
    QTest::addColumn<int>("topRows");
    QTest::addColumn<qint64>("gpus");
    QTest::addColumn<int>("nodes");
    QTest::newRow("h100") << QStringLiteral("h100") << 4 << qint64(4 * 4 * 8 * 8) << 4 * 4 * 8;
    QTest::newRow("gb200") << QStringLiteral("gb200") << 4 << qint64(4 * 8 * 18 * 4) << 4 * 8 * 18;
}

void TestTopologyTreeModel::showsTheIndex() {
    QFETCH(QString, demo);
    QFETCH(int, topRows);
    QFETCH(qint64, gpus);
    QFETCH(int, nodes);

    Source source;
    QVERIFY(source.load(demo));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QCOMPARE(model.rowCount(), 0);
    model.setSnapshot(source.snapshot());

    QCOMPARE(model.rowCount(), topRows);
    QCOMPARE(model.columnCount(), int(TopologyTreeModel::ColumnCount));
    qint64 total = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        total += model.index(row, 0).data(TopologyTreeModel::GpusTotalRole).toLongLong();
    QCOMPARE(total, gpus);
    compareTree(model);
    QCOMPARE(int(source.index.root().totals.nodesTotal), nodes);

    // Some demo nodes are NotReady or cordoned: they are greyed, and counted as not ready.
    qint64 notReady = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        notReady += QLocale().toLongLong(model.index(row, TopologyTreeModel::NotReadyColumn).data().toString());
    QVERIFY(notReady > 0);
}

void TestTopologyTreeModel::headersAndLookups() {
    Source source;
    QVERIFY(source.load(QStringLiteral("h100")));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(source.snapshot());

    const QStringList expected{QStringLiteral("Domain"), QStringLiteral("GPU occupancy"), QStringLiteral("Free GPUs"),
                               QStringLiteral("Nodes"), QStringLiteral("Not ready")};
    for (int column = 0; column < model.columnCount(); ++column)
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), expected.at(column));

    QVERIFY(!model.indexForDomain(kRootDomain).isValid());
    QVERIFY(!model.indexForDomain(kNoDomain).isValid());
    QVERIFY(!model.indexForNode(NodeId(1u << 30)).isValid());

    const QModelIndex leaf = firstLeaf(model);
    const QModelIndex node = model.index(0, 0, leaf);
    QCOMPARE(node.data(TopologyTreeModel::LevelNameRole).toString(), QStringLiteral("node"));
    QCOMPARE(node.data(TopologyTreeModel::PathRole).toString(),
             leaf.data(TopologyTreeModel::PathRole).toString() + QLatin1Char('/') + node.data().toString());
    QCOMPARE(leaf.data(TopologyTreeModel::LevelNameRole).toString(),
             QString::fromStdString(source.index.spec().levels.back().name));
    QVERIFY(node.flags() & Qt::ItemNeverHasChildren);
    QVERIFY(!node.data(Qt::DecorationRole).isValid());
    QVERIFY(!node.data(Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(!leaf.data(Qt::ToolTipRole).toString().isEmpty());

    model.setSnapshot(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.indexForNode(0).isValid());
}

void TestTopologyTreeModel::liveUpdateKeepsSelection() {
    Source source;
    QVERIFY(source.load(QStringLiteral("gb200")));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(source.snapshot());

    const QModelIndex rack = model.index(1, 0, model.index(0, 0));
    QVERIFY(rack.isValid());
    QItemSelectionModel selection(&model);
    selection.setCurrentIndex(rack, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const QPersistentModelIndex selectedRack(rack);
    const QPersistentModelIndex node(model.index(3, TopologyTreeModel::FreeColumn, rack));
    const quint32 rackId = rack.data(TopologyTreeModel::DomainIdRole).value<quint32>();
    const quint32 nodeId = node.data(TopologyTreeModel::NodeIdRole).value<quint32>();

    QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);

    DemoSimulator simulator(source.demo, source.demo.seed);
    const ClusterSnapshotPtr before = source.snapshot();
    for (int step = 0; step < 5; ++step)
        for (const ClusterEvent& event : simulator.step(source.state)) source.apply(event);
    QCOMPARE(source.index.structureVersion(), before->index.structureVersion());
    QVERIFY(!TopologyIndex::sameContent(before->index, source.index));
    model.setSnapshot(source.snapshot());

    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 0);
    QVERIFY(dataChanged.count() > 0);
    QVERIFY(selectedRack.isValid());
    QVERIFY(node.isValid());
    QCOMPARE(selectedRack.data(TopologyTreeModel::DomainIdRole).value<quint32>(), rackId);
    QCOMPARE(node.data(TopologyTreeModel::NodeIdRole).value<quint32>(), nodeId);
    QVERIFY(selection.isRowSelected(selectedRack.row(), selectedRack.parent()));
    QCOMPARE(selection.currentIndex(), QModelIndex(selectedRack));
    compareTree(model);

    // Every domain whose figures moved lies in a dataChanged range under its parent.
    auto covered = [&dataChanged](const QModelIndex& at) {
        for (const QList<QVariant>& args : dataChanged) {
            const auto top = args.at(0).value<QModelIndex>();
            const auto bottom = args.at(1).value<QModelIndex>();
            if (top.parent() == at.parent() && top.row() <= at.row() && at.row() <= bottom.row() && top.column() == 0 &&
                bottom.column() == TopologyTreeModel::ColumnCount - 1)
                return true;
        }
        return false;
    };
    int changedDomains = 0;
    for (DomainId id = 1; id < source.index.domainSlots(); ++id) {
        if (before->index.domain(id).totals == source.index.domain(id).totals) continue;
        ++changedDomains;
        QVERIFY2(covered(model.indexForDomain(id)), source.index.pathName(id).c_str());
    }
    QVERIFY(changedDomains > 0);

    // The same snapshot content again changes nothing.
    dataChanged.clear();
    model.setSnapshot(source.snapshot());
    QCOMPARE(dataChanged.count(), 0);
    QCOMPARE(reset.count(), 0);
}

void TestTopologyTreeModel::structureChangeRemapsPersistentIndexes() {
    Source source;
    QVERIFY(source.load(QStringLiteral("h100")));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(source.snapshot());
    const std::string rackKey = source.demo.topology.levels.back().nodeLabel;
    const QString rackLevel = QString::fromStdString(source.demo.topology.levels.back().name);

    const QModelIndex rack = firstLeaf(model);
    const int rackNodes = model.rowCount(rack);
    QVERIFY(rackNodes >= 3);
    auto nodeAt = [&model](const QModelIndex& parent, int row) {
        return NodeId(model.index(row, 0, parent).data(TopologyTreeModel::NodeIdRole).value<quint32>());
    };
    const NodeId moved = nodeAt(rack, 0);
    const QPersistentModelIndex movedNode(model.index(0, TopologyTreeModel::OccupancyColumn, rack));
    const QPersistentModelIndex sibling(model.index(1, 0, rack));
    const QString siblingName = sibling.data().toString();
    const QPersistentModelIndex oldRack(rack);
    const QString oldRackName = rack.data().toString();
    const QPersistentModelIndex otherTop(model.index(model.rowCount() - 1, 0));
    const QString otherTopName = otherTop.data().toString();

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);

    // One node moves to a rack that does not exist yet.
    source.apply(NodeUpserted{relabelled(source, moved, rackKey, "rack-new")});
    model.setSnapshot(source.snapshot());
    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 1);
    QVERIFY(movedNode.isValid());
    QCOMPARE(movedNode.column(), int(TopologyTreeModel::OccupancyColumn));
    QCOMPARE(movedNode.parent().data().toString(), QStringLiteral("rack-new"));
    QCOMPARE(movedNode.sibling(movedNode.row(), 0).data(TopologyTreeModel::NodeIdRole).value<quint32>(), moved);
    QVERIFY(oldRack.isValid());
    QCOMPARE(oldRack.data().toString(), oldRackName);
    QCOMPARE(model.rowCount(oldRack), rackNodes - 1);
    QVERIFY(sibling.isValid());
    QCOMPARE(sibling.row(), 0);
    QCOMPARE(sibling.data().toString(), siblingName);
    QVERIFY(otherTop.isValid());
    QCOMPARE(otherTop.data().toString(), otherTopName);
    compareTree(model);

    // The rest of the rack follows: the old rack vanishes and its persistent index with it.
    const std::vector<NodeId> remaining =
        source.index.domain(DomainId(oldRack.data(TopologyTreeModel::DomainIdRole).value<quint32>())).nodes;
    for (NodeId id : remaining) source.apply(NodeUpserted{relabelled(source, id, rackKey, "rack-new")});
    model.setSnapshot(source.snapshot());
    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 2);
    QVERIFY(!oldRack.isValid());
    QVERIFY(sibling.isValid());
    QCOMPARE(sibling.data().toString(), siblingName);
    QCOMPARE(sibling.parent().data().toString(), QStringLiteral("rack-new"));
    QCOMPARE(model.rowCount(sibling.parent()), rackNodes);
    compareTree(model);

    // A node without the rack label lands in "(no rack)"; a deleted node's index goes away.
    source.apply(NodeUpserted{relabelled(source, moved, rackKey, std::string())});
    const std::string deletedName = source.state.record(remaining.back()).node->name;
    const QPersistentModelIndex deleted = model.indexForNode(remaining.back());
    source.apply(NodeDeleted{deletedName});
    model.setSnapshot(source.snapshot());
    QCOMPARE(reset.count(), 0);
    QCOMPARE(layout.count(), 3);
    QVERIFY(movedNode.isValid());
    QCOMPARE(movedNode.parent().data().toString(), QStringLiteral("(no %1)").arg(rackLevel));
    QVERIFY(!deleted.isValid());
    compareTree(model);
}

void TestTopologyTreeModel::otherTopologyResets() {
    Source source;
    QVERIFY(source.load(QStringLiteral("h100")));
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(source.snapshot());
    const QPersistentModelIndex top(model.index(0, 0));

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    TopologySpec racksOnly;
    racksOnly.levels = {source.demo.topology.levels.back()};
    source.index = TopologyIndex::build(source.state, racksOnly);
    model.setSnapshot(source.snapshot());
    QCOMPARE(reset.count(), 1);
    QVERIFY(!top.isValid());
    QCOMPARE(model.rowCount(), int(source.index.root().children.size()));
    compareTree(model);
}

// 65,536 nodes: setting a snapshot and a live update must stay far below a frame budget's order.
void TestTopologyTreeModel::largeClusterUpdates() {
    Source source;
    QVERIFY(source.load(QStringLiteral("scale:65536")));
    TopologyTreeModel model;
    QElapsedTimer timer;
    timer.start();
    model.setSnapshot(source.snapshot());
    const qint64 firstMs = timer.elapsed();

    const QModelIndex leaf = firstLeaf(model);
    const QPersistentModelIndex node(model.index(0, 0, leaf));
    DemoSimulator simulator(source.demo, source.demo.seed);
    for (const ClusterEvent& event : simulator.step(source.state)) source.apply(event);
    const ClusterSnapshotPtr next = source.snapshot();
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    timer.restart();
    model.setSnapshot(next);
    const qint64 updateMs = timer.elapsed();

    // parent() of every node is O(1): walking all rows stays linear.
    timer.restart();
    int rows = 0;
    for (NodeId id = 0; id < next->index.nodeSlots(); ++id) {
        const QModelIndex at = model.indexForNode(id);
        if (at.isValid() && model.parent(at).isValid()) ++rows;
    }
    const qint64 walkMs = timer.elapsed();
    qInfo("65536 nodes: first snapshot %lld ms, live update %lld ms, parent() of every node %lld ms", firstMs, updateMs,
          walkMs);
    QCOMPARE(rows, 65536);
    QCOMPARE(reset.count(), 0);
    QVERIFY(node.isValid());
    QVERIFY(updateMs < 2000);
    QVERIFY(walkMs < 2000);
}

TOPODECK_TEST_GUILESS_MAIN(TestTopologyTreeModel)
#include "test_topology_tree_model.moc"
