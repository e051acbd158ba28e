// The HyperNode editor's model: edits on a copy of a HyperNode tree (move a node or a HyperNode,
// rename a tier, add, delete, undo) and the ObjectChanges they come to against the cluster's
// objects; the tree model over it (QAbstractItemModelTester) with its drag and drop; the
// Topology editor's changes (levels, a flavor naming the Topology).
#include "models/hypernode_tree_model.h"
#include "models/topology_object_edits.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QTest>

using namespace topodeck;

namespace {

HyperNodeMember member(HyperNodeMember::Type type, std::string name) {
    HyperNodeMember m;
    m.type = type;
    m.value = std::move(name);
    return m;
}

HyperNode hyperNode(std::string name, int tier, std::string tierName, std::vector<HyperNodeMember> members) {
    HyperNode h;
    h.name = std::move(name);
    h.tier = tier;
    h.tierName = std::move(tierName);
    h.members = std::move(members);
    h.resourceVersion = "7";
    return h;
}

constexpr auto NodeType = HyperNodeMember::Type::Node;
constexpr auto Hyper = HyperNodeMember::Type::HyperNode;

// spine (tier 2) over rack-a (n1, n2) and rack-b (n3), tier 1.
ClusterState objects() {
    ClusterState state;
    state.apply(HyperNodeUpserted{hyperNode("rack-a", 1, "rack", {member(NodeType, "n1"), member(NodeType, "n2")})});
    state.apply(HyperNodeUpserted{hyperNode("rack-b", 1, "rack", {member(NodeType, "n3")})});
    state.apply(HyperNodeUpserted{hyperNode("spine", 2, "spine", {member(Hyper, "rack-a"), member(Hyper, "rack-b")})});
    TopologySpec kueue = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
    kueue.name = "default";
    kueue.origin = "kueue";
    state.apply(TopologyUpserted{kueue});
    return state;
}

HyperNodeEdits editsOf(const ClusterState& state) {
    std::vector<HyperNode> all;
    for (const auto& [name, h] : state.hyperNodes()) all.push_back(h);
    return HyperNodeEdits(std::move(all));
}

} // namespace

class TestHyperNodeEdits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void unchangedMakesNoChange() {
        const ClusterState state = objects();
        QVERIFY(editsOf(state).changesAgainst(state).empty());
        QCOMPARE(editsOf(state).roots(), std::vector<std::string>{"spine"});
    }

    void movingANodeUpdatesBothRacks() {
        const ClusterState state = objects();
        HyperNodeEdits edits = editsOf(state);
        QVERIFY(edits.moveMember(NodeType, "n2", "rack-a", "rack-b"));
        const std::vector<ObjectChange> changes = edits.changesAgainst(state);
        QCOMPARE(changes.size(), std::size_t(2));
        QCOMPARE(changes[0].name, std::string("rack-a"));
        QCOMPARE(changes[0].action(), ObjectChange::Action::Update);
        QCOMPARE(changes[0].resourceVersion, std::string("7"));
        QCOMPARE(std::get<HyperNode>(*changes[0].after).members.size(), std::size_t(1));
        const HyperNode& b = std::get<HyperNode>(*changes[1].after);
        QCOMPARE(b.members.back().value, std::string("n2"));
        QVERIFY(edits.undo());
        QVERIFY(edits.changesAgainst(state).empty());
        QVERIFY(!edits.undo());
    }

    void refusedMovesChangeNothing() {
        const ClusterState state = objects();
        HyperNodeEdits edits = editsOf(state);
        QVERIFY(!edits.moveMember(Hyper, "spine", "", "rack-a"));       // below itself
        QVERIFY(!edits.moveMember(NodeType, "n1", "rack-b", "rack-a")); // not listed there
        QVERIFY(!edits.moveMember(NodeType, "n1", "rack-a", ""));       // a node needs a parent
        QVERIFY(!edits.moveMember(NodeType, "n1", "rack-a", "nowhere"));
        QVERIFY(!edits.canUndo());
        const auto parents = edits.possibleParents(Hyper, "spine");
        QVERIFY(parents.empty());
        QCOMPARE(edits.possibleParents(Hyper, "rack-a"), (std::vector<std::string>{"rack-b", "spine"}));
    }

    void tierRenameAddAndDelete() {
        const ClusterState state = objects();
        HyperNodeEdits edits = editsOf(state);
        QVERIFY(edits.renameTier(1, "leaf"));
        QVERIFY(!edits.renameTier(1, "leaf")); // already
        QVERIFY(!edits.renameTier(5, "x"));
        QCOMPARE(edits.tierName(1), std::string("leaf"));
        QVERIFY(edits.addHyperNode("rack-c", 1, "leaf", "spine"));
        QVERIFY(!edits.addHyperNode("rack-c", 1, "leaf", "spine"));
        QVERIFY(edits.moveMember(NodeType, "n3", "rack-b", "rack-c"));
        QVERIFY(edits.removeHyperNode("rack-b"));
        const std::vector<ObjectChange> changes = edits.changesAgainst(state);
        // Created first, then updated (rack-a's and spine's), then deleted.
        QCOMPARE(changes.size(), std::size_t(4));
        QCOMPARE(changes[0].describe(), std::string("create HyperNode rack-c"));
        QCOMPARE(changes[1].describe(), std::string("update HyperNode rack-a"));
        QCOMPARE(changes[2].describe(), std::string("update HyperNode spine"));
        QCOMPARE(changes[3].describe(), std::string("delete HyperNode rack-b"));
        const HyperNode& spine = std::get<HyperNode>(*changes[2].after);
        QCOMPARE(spine.members.size(), std::size_t(2));
        QCOMPARE(spine.members[1].value, std::string("rack-c"));
    }

    void treeModelShowsAndMoves() {
        const ClusterState state = objects();
        HyperNodeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setEdits(editsOf(state));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex spine = model.index(0, 0);
        QCOMPARE(spine.data().toString(), QStringLiteral("spine"));
        QCOMPARE(model.index(0, HyperNodeTreeModel::TierColumn).data().toInt(), 2);
        QCOMPARE(model.rowCount(spine), 2);
        const QModelIndex rackA = model.index(0, 0, spine);
        QCOMPARE(model.rowCount(rackA), 2);
        const QModelIndex n2 = model.index(1, 0, rackA);
        QCOMPARE(n2.data().toString(), QStringLiteral("n2"));
        QCOMPARE(n2.data(HyperNodeTreeModel::ParentNameRole).toString(), QStringLiteral("rack-a"));
        QVERIFY(model.flags(n2) & Qt::ItemIsDragEnabled);
        QVERIFY(!(model.flags(n2) & Qt::ItemIsDropEnabled));

        // n2 dragged onto rack-b.
        std::unique_ptr<QMimeData> data(model.mimeData({n2}));
        QVERIFY(data);
        const QModelIndex rackB = model.indexOf(HyperNodeTreeModel::ItemKind::HyperNode, QStringLiteral("rack-b"));
        QVERIFY(model.canDropMimeData(data.get(), Qt::MoveAction, -1, 0, rackB));
        QVERIFY(!model.canDropMimeData(data.get(), Qt::MoveAction, -1, 0, QModelIndex())); // a node at the top
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, rackB));
        const QModelIndex rackBAfter = model.indexOf(HyperNodeTreeModel::ItemKind::HyperNode, QStringLiteral("rack-b"));
        QCOMPARE(model.rowCount(rackBAfter), 2);
        QCOMPARE(model.edits().changesAgainst(state).size(), std::size_t(2));

        // rack-a dragged to the top: spine no longer lists it.
        const QModelIndex rackA2 = model.indexOf(HyperNodeTreeModel::ItemKind::HyperNode, QStringLiteral("rack-a"));
        data.reset(model.mimeData({rackA2}));
        QVERIFY(model.dropMimeData(data.get(), Qt::MoveAction, -1, 0, QModelIndex()));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.undo());
        QCOMPARE(model.rowCount(), 1);
    }

    void cyclesAreShownOnce() {
        ClusterState state;
        state.apply(HyperNodeUpserted{hyperNode("a", 2, "x", {member(Hyper, "b")})});
        state.apply(HyperNodeUpserted{hyperNode("b", 1, "y", {member(Hyper, "a")})});
        HyperNodeTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setEdits(editsOf(state));
        QVERIFY(model.rowCount() >= 1);
    }

    void topologyLevels() {
        const ClusterState state = objects();
        QCOMPARE(objectNames(state, ObjectKind::KueueTopology), std::vector<std::string>{"default"});
        QVERIFY(objectNames(state, ObjectKind::KaiTopology).empty());
        QCOMPARE(topologyLevelKeys(state, ObjectKind::KueueTopology, "default"),
                 (std::vector<std::string>{"example.com/block", "example.com/rack"}));
        QVERIFY(!topologyLevelsChange(state, ObjectKind::KueueTopology, "default",
                                      {"example.com/block", "example.com/rack"}));
        auto update = topologyLevelsChange(state, ObjectKind::KueueTopology, "default", {"example.com/rack"});
        QVERIFY(update);
        QCOMPARE(update->action(), ObjectChange::Action::Update);
        auto create = topologyLevelsChange(state, ObjectKind::KaiTopology, "kai-top",
                                           {"example.com/rack", "kubernetes.io/hostname"});
        QVERIFY(create);
        QCOMPARE(create->describe(), std::string("create KAI Topology kai-top"));
        QCOMPARE(std::get<TopologySpec>(*create->after).levels.size(), std::size_t(2));

        auto labels = parseNodeLabels("pool=a100 zone=z1");
        QVERIFY(labels);
        QVERIFY(!parseNodeLabels("pool"));
        auto flavor = flavorTopologyChange(state, "gpu", "default", *labels);
        QVERIFY(flavor);
        QCOMPARE(flavor->describe(), std::string("create ResourceFlavor gpu"));
        QCOMPARE(std::get<ResourceFlavor>(*flavor->after).topologyName, std::string("default"));
        QCOMPARE(nodeLabelsText(*labels), std::string("pool=a100 zone=z1"));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestHyperNodeEdits)
#include "test_hypernode_edits.moc"
