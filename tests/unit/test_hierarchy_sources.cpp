// Hierarchies that are not label levels: a Volcano HyperNode tree, a Slurm topology beside a node
// list, and the grouping of a cluster with no topology at all. Inputs are the kinds operators hand
// over (tests/data): nodes with no topology labels, a HyperNode tree in the shape of Volcano's own
// examples (with a skipped tier and nodes in no HyperNode), topology.conf trees and block sets.
#include "core/formats/snapshot_reader.h"
#include "core/model/cluster_state.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace topodeck;
using topodeck::testing::stateFromDataFile;

namespace {

const std::string kData = TOPODECK_TEST_DATA_DIR;

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}


QStringList levelNames(const TopologySpec& spec) {
    QStringList names;
    for (const TopologyLevel& level : spec.levels) names << qs(level.name);
    return names;
}

// The node's domains from the top, as the index placed it; "-" for a level it is outside.
QString pathOf(const TopologyIndex& index, const ClusterState& state, const std::string& node) {
    const auto id = state.findNode(node);
    if (!id) return QStringLiteral("(no node)");
    QStringList parts;
    for (DomainId d : index.pathTo(index.node(*id).leaf)) {
        const Domain& domain = index.domain(d);
        if (domain.level < 0) continue;
        parts << (domain.unlabelled ? QStringLiteral("-") : qs(domain.value));
    }
    return parts.join(QLatin1Char('/'));
}

HyperNode hyperNode(const std::string& name, int tier, std::vector<std::string> children) {
    HyperNode h;
    h.name = name;
    h.tier = tier;
    for (std::string& child : children) {
        HyperNodeMember member;
        member.type = HyperNodeMember::Type::HyperNode;
        member.value = std::move(child);
        h.members.push_back(std::move(member));
    }
    return h;
}

} // namespace

class TestHierarchySources : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hyperNodeTreeIsTheHierarchy();
    void hyperNodeTiersWithoutNames();
    void brokenHyperNodesAreNamed();
    void hyperNodesYieldToTopologyObjects();
    void slurmTreeBesideNodeList();
    void slurmBlocksBesideNodeList();
    void noTopologyGroupsByPool();
    void noTopologyIsFlat();
    void emptyClusterIsEmpty();
    void labelHierarchyForEngines();
    void indexFollowsMembership();
};

// Volcano's example tree: every selector kind places its nodes; s7 (tier 1) sits straight under
// s6 (tier 3), so at tier 2 its nodes stay in s7; node-10 and -11 are in no HyperNode.
void TestHierarchySources::hyperNodeTreeIsTheHierarchy() {
    const ClusterState state = stateFromDataFile("volcano/hypernodes-only.yaml");
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
    QCOMPARE(qs(spec->origin), QStringLiteral("hypernodes"));
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")}));
    QVERIFY(!spec->readFromLabels());
    QVERIFY(spec->notice.empty());

    const TopologyIndex index = TopologyIndex::build(state, *spec);
    QCOMPARE(pathOf(index, state, "node-0"), QStringLiteral("s6/s4/s0")); // exactMatch
    QCOMPARE(pathOf(index, state, "node-3"), QStringLiteral("s6/s4/s1")); // regexMatch
    QCOMPARE(pathOf(index, state, "node-5"), QStringLiteral("s6/s5/s2")); // labelMatch
    QCOMPARE(pathOf(index, state, "node-9"), QStringLiteral("s6/s7/s7")); // tier 2 skipped
    QCOMPARE(pathOf(index, state, "node-10"), QStringLiteral("-/-/-"));
    QCOMPARE(index.root().totals.nodesTotal, 12);
    QCOMPARE(index.root().children.size(), std::size_t(2)); // s6, then the nodes outside

    // Asked for by name, the same.
    Result<TopologySpec> named = resolveTopology(state, "hypernodes", {});
    QVERIFY(named.ok());
    QCOMPARE(*named, *spec);
}

// Tiers only by number, as `kubectl apply` of a bare HyperNode gives them; tiers need not be
// consecutive.
void TestHierarchySources::hyperNodeTiersWithoutNames() {
    ClusterState state;
    for (const char* name : {"a", "b"}) {
        Node node;
        node.name = name;
        state.apply(NodeUpserted{std::move(node)});
    }
    HyperNode leaf;
    leaf.name = "rack";
    leaf.tier = 1;
    HyperNodeMember member;
    member.value = "a";
    leaf.members.push_back(member);
    state.apply(HyperNodeUpserted{leaf});
    state.apply(HyperNodeUpserted{hyperNode("pod", 4, {"rack"})});
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("tier-4"), QStringLiteral("tier-1")}));
    const TopologyIndex index = TopologyIndex::build(state, *spec);
    QCOMPARE(pathOf(index, state, "a"), QStringLiteral("pod/rack"));
    QCOMPARE(pathOf(index, state, "b"), QStringLiteral("-/-"));
}

// HyperNodes that are no tree (a cycle: Volcano's cache refuses it) are not drawn as one; the
// notice says why, and asking for them by name is an error in the same words.
void TestHierarchySources::brokenHyperNodesAreNamed() {
    ClusterState state;
    Node node;
    node.name = "n1";
    state.apply(NodeUpserted{std::move(node)});
    state.apply(HyperNodeUpserted{hyperNode("x", 2, {"y"})});
    state.apply(HyperNodeUpserted{hyperNode("y", 3, {"x"})});
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(qs(spec->origin), QStringLiteral("none"));
    QVERIFY2(qs(spec->notice).startsWith(QStringLiteral("HyperNodes not shown: ")), spec->notice.c_str());
    Result<TopologySpec> named = resolveTopology(state, "hypernodes", {});
    QVERIFY(!named.ok());
    QVERIFY2(qs(named.error().message).startsWith(QStringLiteral("--topology hypernodes: ")),
             named.error().message.c_str());
}

// A Kueue Topology the nodes are labelled for wins over the HyperNodes (the operator's own
// object for the label levels); the HyperNode tree wins over a preset guess.
void TestHierarchySources::hyperNodesYieldToTopologyObjects() {
    ClusterState state = stateFromDataFile("volcano/hypernodes-only.yaml");
    TopologySpec kueue = TopologySpec::fromLabelKeys({"kubernetes.io/hostname"});
    kueue.name = "hosts";
    kueue.origin = "kueue";
    state.apply(TopologyUpserted{kueue});
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(qs(spec->name), QStringLiteral("hosts"));

    ClusterState zoned = stateFromDataFile("volcano/hypernodes-only.yaml");
    for (NodeId id = 0; id < zoned.nodeSlots(); ++id) {
        Node node = *zoned.record(id).node;
        node.setLabel("topology.kubernetes.io/zone", "z1");
        zoned.apply(NodeUpserted{std::move(node)});
    }
    Result<TopologySpec> overPreset = resolveTopology(zoned, {}, {});
    QVERIFY(overPreset.ok());
    QCOMPARE(qs(overPreset->origin), QStringLiteral("hypernodes"));
}

// A Slurm operator's node list (no topology labels) with the topology.conf that places it: the
// switch tree is the hierarchy, even when a preset's labels are on the nodes.
void TestHierarchySources::slurmTreeBesideNodeList() {
    ClusterState state = stateFromDataFile("plan/nodes-unlabelled.yaml");
    std::vector<std::string> warnings;
    QVERIFY(addSlurmTopologyFile(kData + "/slurm/tree.conf", state, warnings).ok());
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(qs(spec->origin), QStringLiteral("slurm-topology"));
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")}));
    const TopologyIndex index = TopologyIndex::build(state, *spec);
    QCOMPARE(pathOf(index, state, "gpu-001"), QStringLiteral("core/spine1/leaf1"));
    QCOMPARE(pathOf(index, state, "gpu-012"), QStringLiteral("core/spine2/leaf3"));
    QCOMPARE(pathOf(index, state, "gpu-011"), QStringLiteral("-/-/-")); // in no switch
    QCOMPARE(index.root().totals.gpusUsed, 8);
    // By name too; a file that does not exist is an error naming it.
    QVERIFY(resolveTopology(state, "slurm", {}).ok());
    ClusterState other;
    const Status missing = addSlurmTopologyFile(kData + "/slurm/nope.conf", other, warnings);
    QVERIFY(!missing.ok());
    QVERIFY2(qs(missing.error().message).contains(QStringLiteral("nope.conf")), missing.error().message.c_str());
}

// topology/block: the base blocks under the aggregated ones BlockSizes allows.
void TestHierarchySources::slurmBlocksBesideNodeList() {
    ClusterState state;
    for (int i = 1; i <= 8; ++i) {
        Node node;
        node.name = "gb-0" + std::to_string(i);
        node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(4));
        state.apply(NodeUpserted{std::move(node)});
    }
    std::vector<std::string> warnings;
    QVERIFY(addSlurmTopologyFile(kData + "/slurm/block.conf", state, warnings).ok());
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("block-x2"), QStringLiteral("block")}));
    const TopologyIndex index = TopologyIndex::build(state, *spec);
    QCOMPARE(pathOf(index, state, "gb-03"), QStringLiteral("b[1-2]/b2"));
    QCOMPARE(pathOf(index, state, "gb-08"), QStringLiteral("b[3-4]/b4"));
}

// No topology: grouped by the node group and instance type most GPU nodes carry, with a notice
// that names what was looked for and how to choose levels.
void TestHierarchySources::noTopologyGroupsByPool() {
    const ClusterState state = stateFromDataFile("plan/nodes-nodegroups.yaml");
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(qs(spec->origin), QStringLiteral("none"));
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("nodegroup"), QStringLiteral("instance-type")}));
    const QString notice = qs(spec->notice);
    for (const char* text : {"no topology found", "HyperNodes", "Slurm topology", "topograph", "--levels"})
        QVERIFY2(notice.contains(QLatin1String(text)), qPrintable(notice));
    // Engines see no levels: the grouping says nothing of the network.
    QCOMPARE(withHostnameLevel(*spec, state).depth(), 1);
    QCOMPARE(qs(withHostnameLevel(*spec, state).levels.front().nodeLabel), QStringLiteral("kubernetes.io/hostname"));
}

void TestHierarchySources::noTopologyIsFlat() {
    const ClusterState state = stateFromDataFile("plan/nodes-unlabelled.yaml");
    Result<TopologySpec> spec = resolveTopology(state, {}, {});
    QVERIFY(spec.ok());
    // One instance type on 11 of 12 nodes: a grouping by it, nothing else.
    QCOMPARE(levelNames(*spec), (QStringList{QStringLiteral("instance-type")}));
    ClusterState bare;
    Node node;
    node.name = "n";
    bare.apply(NodeUpserted{node});
    Result<TopologySpec> flat = resolveTopology(bare, {}, {});
    QVERIFY(flat.ok());
    QCOMPARE(flat->depth(), 0);
    QVERIFY2(qs(flat->notice).contains(QStringLiteral("flat under the cluster")), flat->notice.c_str());
    const TopologyIndex index = TopologyIndex::build(bare, *flat);
    QCOMPARE(index.root().totals.nodesTotal, 1);
}

void TestHierarchySources::emptyClusterIsEmpty() {
    const ClusterState empty;
    Result<TopologySpec> spec = resolveTopology(empty, {}, {});
    QVERIFY(spec.ok());
    QCOMPARE(qs(spec->notice), QStringLiteral("the cluster has no nodes"));
    const TopologyIndex index = TopologyIndex::build(empty, *spec);
    QCOMPARE(index.root().totals.nodesTotal, 0);
    QVERIFY(index.root().children.empty());
}

// Kueue and KAI read node labels only: beside a HyperNode tree they see the label hierarchy the
// cluster has, else none.
void TestHierarchySources::labelHierarchyForEngines() {
    ClusterState state = stateFromDataFile("volcano/hypernodes-only.yaml");
    const TopologySpec shown = *resolveTopology(state, {}, {});
    QCOMPARE(qs(labelHierarchyFor(shown, state).origin), QStringLiteral("none"));
    QCOMPARE(labelHierarchyFor(shown, state).depth(), 0);
    TopologySpec kai = TopologySpec::fromLabelKeys({"example.com/pool"});
    kai.name = "pools";
    kai.origin = "kai";
    state.apply(TopologyUpserted{kai});
    const TopologySpec byName = *resolveTopology(state, "hypernodes", {});
    QCOMPARE(qs(labelHierarchyFor(byName, state).name), QStringLiteral("pools"));
    // A label hierarchy is its own, as is the grouping of a cluster without topology.
    QCOMPARE(labelHierarchyFor(kai, state), kai);
    const ClusterState pools = stateFromDataFile("plan/nodes-nodegroups.yaml");
    const TopologySpec grouped = *resolveTopology(pools, {}, {});
    QCOMPARE(labelHierarchyFor(grouped, pools), grouped);
}

// A node that arrives later is placed by name; one no HyperNode names stays outside until the
// hierarchy is resolved again (the session and `show --watch` do that on arrivals).
void TestHierarchySources::indexFollowsMembership() {
    ClusterState state = stateFromDataFile("volcano/hypernodes-only.yaml");
    TopologyIndex index = TopologyIndex::build(state, *resolveTopology(state, {}, {}));
    Node node;
    node.name = "node-12";
    node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(8));
    const AppliedEvent applied = state.apply(NodeUpserted{node});
    QVERIFY(applied.nodeAdded);
    index.apply(state, applied);
    QCOMPARE(pathOf(index, state, "node-12"), QStringLiteral("-/-/-"));
    QCOMPARE(index.root().totals.gpusTotal, 13 * 8);
    // Relabelling a node moves nothing: the membership, not labels, places it.
    Node relabelled = *state.record(*state.findNode("node-0")).node;
    relabelled.setLabel("example.com/rack", "elsewhere");
    index.apply(state, state.apply(NodeUpserted{relabelled}));
    QCOMPARE(pathOf(index, state, "node-0"), QStringLiteral("s6/s4/s0"));
    // A rebuilt hierarchy compares equal to the first: the session keeps its index.
    QCOMPARE(*resolveTopology(state, {}, {}), index.spec());
}

TOPODECK_TEST_GUILESS_MAIN(TestHierarchySources)
#include "test_hierarchy_sources.moc"
