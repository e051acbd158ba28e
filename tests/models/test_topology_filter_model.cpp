// The tree narrowed by a node mask: only matching nodes, the domains above them with their own
// figures, everything without a mask, and the same rows again after a live update.
#include "core/demo/demo_cluster.h"
#include "core/topology/label_selector.h"
#include "models/topology_filter_model.h"
#include "models/topology_tree_model.h"
#include "session/cluster_snapshot.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <optional>

using namespace topodeck;

namespace {

struct Source {
    ClusterState state;
    TopologyIndex index;

    bool load(const char* name) {
        testing::LoadedDemo demo = testing::loadDemo(name);
        state = std::move(demo.state);
        index = std::move(demo.index);
        return true;
    }
    void apply(const ClusterEvent& event) { index.apply(state, state.apply(event)); }
    ClusterSnapshotPtr snapshot() const { return makeClusterSnapshot(state, index); }
};

std::shared_ptr<const NodeMask> maskFor(const char* selector, const ClusterSnapshot& snapshot) {
    auto parsed = LabelSelector::parse(selector);
    if (!parsed) qFatal("%s", parsed.error().message.c_str());
    return std::make_shared<const NodeMask>(matchNodes(*parsed, snapshot.nodes, snapshot.index));
}

QStringList names(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row) out << model.index(row, 0, parent).data().toString();
    return out;
}

// Nodes the filter shows, over the whole tree.
int shownNodes(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int nodes = 0;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex child = model.index(row, 0, parent);
        nodes += child.data(TopologyTreeModel::IsNodeRole).toBool() ? 1 : shownNodes(model, child);
    }
    return nodes;
}

} // namespace

class TestTopologyFilterModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void narrowsToMatchingNodes() {
        Source source;
        QVERIFY(source.load("gb200"));
        const ClusterSnapshotPtr snapshot = source.snapshot();
        TopologyTreeModel tree;
        tree.setSnapshot(snapshot);
        TopologyFilterModel filter(&tree);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(names(filter).size(), 4);
        QCOMPARE(shownNodes(filter), 576);

        filter.setNodeMask(maskFor("fabric.topograph.run/tier-0 in (rack-2-03, rack-4-08)", *snapshot));
        QCOMPARE(names(filter), (QStringList{QStringLiteral("su-2"), QStringLiteral("su-4")}));
        QCOMPARE(names(filter, filter.index(0, 0)), QStringList{QStringLiteral("rack-2-03")});
        QCOMPARE(shownNodes(filter), 36);
        // A domain row keeps the figures of the whole domain.
        const QModelIndex su2 = filter.index(0, 0);
        const DomainId su2Id = su2.data(TopologyTreeModel::DomainIdRole).value<DomainId>();
        QCOMPARE(su2.data(TopologyTreeModel::GpusTotalRole).toLongLong(),
                 qint64(snapshot->index.domain(su2Id).totals.gpusTotal));
        QCOMPARE(filter.mapToSource(su2), tree.indexForDomain(su2Id));

        // An equal mask changes nothing; no mask shows everything again.
        filter.setNodeMask(maskFor("fabric.topograph.run/tier-0 in (rack-4-08, rack-2-03)", *snapshot));
        QCOMPARE(shownNodes(filter), 36);
        filter.setNodeMask(maskFor("nvidia.com/gpu.product=none", *snapshot));
        QCOMPARE(filter.rowCount(), 0);
        filter.setNodeMask(nullptr);
        QCOMPARE(shownNodes(filter), 576);
    }

    void followsNewSnapshots() {
        Source source;
        QVERIFY(source.load("gb200"));
        TopologyTreeModel tree;
        tree.setSnapshot(source.snapshot());
        TopologyFilterModel filter(&tree);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setNodeMask(maskFor("fabric.topograph.run/tier-0=rack-1-01", *tree.snapshot()));
        QCOMPARE(shownNodes(filter), 18);

        // A node relabelled into the filtered rack: a new snapshot and its mask show it there.
        const NodeId moved = *source.state.findNode("gb200-su3-r04-n07");
        Node node = *source.state.record(moved).node;
        node.setLabel("fabric.topograph.run/tier-1", "su-1");
        node.setLabel("fabric.topograph.run/tier-0", "rack-1-01");
        source.apply(NodeUpserted{node});
        const ClusterSnapshotPtr next = source.snapshot();
        tree.setSnapshot(next);
        filter.setNodeMask(maskFor("fabric.topograph.run/tier-0=rack-1-01", *next));
        QCOMPARE(shownNodes(filter), 19);
        QCOMPARE(names(filter), QStringList{QStringLiteral("su-1")});
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestTopologyFilterModel)
#include "test_topology_filter_model.moc"
