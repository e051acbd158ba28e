// Exports for review, each read back through the project's own readers: Kueue and KAI Topology
// (+ ResourceFlavor) as the snapshot reader takes them, Volcano HyperNodes into the same node
// grouping per level, Slurm topology.conf / topology.yaml through the Slurm parsers, and node
// labels (of the hierarchy, or of a change plan) as partial Nodes. What Kueue would refuse is
// refused here first.
#include "core/changes/change_plan.h"
#include "core/demo/demo_cluster.h"
#include "core/exports/slurm_topology_from_index.h"
#include "core/exports/topology_exports.h"
#include "core/formats/snapshot_reader.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/label_selector.h"
#include "support/demo_loader.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <map>
#include <set>
#include <string>

using namespace topodeck;
using topodeck::testing::makeNode;

namespace {

using Loaded = testing::LoadedDemo;

Loaded demo(const char* name) {
    return testing::loadDemo(name);
}

std::vector<const Node*> presentNodes(const ClusterState& state) {
    std::vector<const Node*> out;
    for (NodeId id = 0; id < state.nodeSlots(); ++id)
        if (state.record(id).present) out.push_back(state.record(id).node.get());
    return out;
}

// For each level, which nodes share a domain: a set of node-name sets. Names of domains aside,
// two hierarchies that group the same nodes at every level are the same hierarchy.
std::vector<std::set<std::set<std::string>>> grouping(const ClusterState& state, const TopologyIndex& index) {
    std::vector<std::set<std::set<std::string>>> levels(std::size_t(index.spec().depth()));
    std::vector<DomainId> frontier = {kRootDomain};
    while (!frontier.empty()) {
        std::vector<DomainId> next;
        for (DomainId id : frontier)
            for (DomainId child : index.domain(id).children) {
                next.push_back(child);
                const Domain& domain = index.domain(child);
                if (domain.unlabelled) continue;
                std::set<std::string> members;
                for (NodeId node : nodesUnder(index, child)) members.insert(state.record(node).node->name);
                levels[std::size_t(domain.level)].insert(std::move(members));
            }
        frontier = std::move(next);
    }
    return levels;
}

} // namespace

class TestTopologyExports : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kueueTopologyReadsBack() {
        const Loaded gb200 = demo("gb200");
        Result<std::string> text = kueueTopologyYaml(gb200.state, gb200.index);
        QVERIFY2(text.ok(), text.ok() ? "" : text.error().message.c_str());
        QVERIFY(text->find("apiVersion: \"kueue.x-k8s.io/v1beta2\"") != std::string::npos);
        Result<Snapshot> back = readSnapshotText(*text, "kueue.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->topologies.size(), std::size_t(1));
        QCOMPARE(back->topologies[0].levels.size(), gb200.index.spec().levels.size());
        for (std::size_t i = 0; i < back->topologies[0].levels.size(); ++i)
            QCOMPARE(back->topologies[0].levels[i].nodeLabel, gb200.index.spec().levels[i].nodeLabel);
        QCOMPARE(back->resourceFlavors.size(), std::size_t(1));
        QCOMPARE(back->resourceFlavors[0].topologyName, back->topologies[0].name);
        QCOMPARE(back->resourceFlavors[0].nodeLabels, // the hardware, shared by every gb200 node
                 (std::vector<std::pair<std::string, std::string>>{{"nvidia.com/gpu.product", "NVIDIA-GB200"}}));
        // The flavor's labels select every node.
        for (const auto& [key, value] : back->resourceFlavors[0].nodeLabels)
            for (const Node* node : presentNodes(gb200.state)) QVERIFY(node->label(key) && *node->label(key) == value);

        KueueExportOptions v1beta1;
        v1beta1.apiVersion = "v1beta1";
        v1beta1.topologyName = "gb200-fabric";
        v1beta1.flavorLabels = {{"pool", "gb200"}};
        Result<std::string> older = kueueTopologyYaml(gb200.state, gb200.index, v1beta1);
        QVERIFY(older.ok());
        Result<Snapshot> olderBack = readSnapshotText(*older, "kueue.yaml");
        QVERIFY(olderBack.ok());
        QCOMPARE(olderBack->topologies[0].name, std::string("gb200-fabric"));
        QCOMPARE(olderBack->resourceFlavors[0].nodeLabels,
                 (std::vector<std::pair<std::string, std::string>>{{"pool", "gb200"}}));
    }

    void kueueRefusesWhatKueueRefuses_data() {
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no levels") << QStringList{} << QStringLiteral("1 to 16 levels, not 0");
        QStringList seventeen;
        for (int i = 0; i < 17; ++i) seventeen << QStringLiteral("example.com/l%1").arg(i);
        QTest::newRow("17 levels") << seventeen << QStringLiteral("1 to 16 levels, not 17");
        QTest::newRow("twice") << QStringList{QStringLiteral("a/rack"), QStringLiteral("a/rack")}
                               << QStringLiteral("level 2: \"a/rack\" is given twice");
        QTest::newRow("hostname above") << QStringList{QStringLiteral("kubernetes.io/hostname"), QStringLiteral("a/rack")}
                                        << QStringLiteral("kubernetes.io/hostname may only be the lowest level");
        QTest::newRow("not a key") << QStringList{QStringLiteral("a b")} << QStringLiteral("level 1: \"a b\" is not a label key");
        QTest::newRow("fine") << QStringList{QStringLiteral("a/block"), QStringLiteral("kubernetes.io/hostname")}
                              << QString();
    }
    void kueueRefusesWhatKueueRefuses() {
        QFETCH(QStringList, keys);
        QFETCH(QString, problem);
        std::vector<TopologyLevel> levels;
        for (const QString& key : keys) levels.push_back({key.toStdString(), key.toStdString()});
        const std::string found = kueueLevelsProblem(levels);
        QVERIFY2(problem.isEmpty() ? found.empty() : found.find(problem.toStdString()) != std::string::npos, found.c_str());
    }

    // No shared label and none given: the flavor would select nothing, so it is refused.
    void kueueNeedsFlavorLabels() {
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("a", "b1", "r1", 8, true, false, {})});
        (void)state.apply(NodeUpserted{makeNode("b", "b2", "r2", 8, true, false, {})});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        Result<std::string> text = kueueTopologyYaml(state, index);
        QVERIFY(!text);
        QVERIFY2(text.error().message.find("--flavor-labels") != std::string::npos, text.error().message.c_str());
    }

    void kaiTopologyReadsBack() {
        const Loaded gb200 = demo("gb200");
        Result<std::string> text = kaiTopologyYaml(gb200.index, "fabric");
        QVERIFY(text.ok());
        Result<Snapshot> back = readSnapshotText(*text, "kai.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->topologies.size(), std::size_t(1));
        QCOMPARE(back->topologies[0].origin, std::string("kai"));
        QCOMPARE(back->topologies[0].name, std::string("fabric"));
        QCOMPARE(back->topologies[0].levels.size(), gb200.index.spec().levels.size());
    }

    // HyperNodes group the nodes at every level as the labels did, and read back object for object.
    void hyperNodesReadBackIntoTheSameTree() {
        for (const char* name : {"gb200", "h100"}) {
            const Loaded cluster = demo(name);
            const std::vector<HyperNode> hyperNodes = hyperNodesFromIndex(cluster.state, cluster.index);
            QVERIFY(!hyperNodes.empty());
            Result<Snapshot> back = readSnapshotText(hyperNodesYaml(hyperNodes), "hypernodes.yaml");
            QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
            QVERIFY(back->hyperNodes == hyperNodes);

            ClusterState withTree = cluster.state;
            for (const HyperNode& hyperNode : hyperNodes) (void)withTree.apply(HyperNodeUpserted{hyperNode});
            Result<std::optional<TopologySpec>> spec = hyperNodeHierarchy(withTree);
            QVERIFY2(spec.ok() && *spec, name);
            const TopologyIndex tree = TopologyIndex::build(withTree, **spec);
            QCOMPARE(tree.spec().depth(), cluster.index.spec().depth());
            QVERIFY2(grouping(withTree, tree) == grouping(cluster.state, cluster.index), name);
        }
    }

    // Names are DNS subdomains, unique even where a value repeats under two parents.
    void hyperNodeNamesAreUniqueAndValid() {
        ClusterState state;
        for (const char* block : {"B1", "B2"})
            for (const char* node : {"x", "y"})
                (void)state.apply(NodeUpserted{makeNode(std::string(block) + "-" + node, block, "rack_1", 8, true, false, {})});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        const std::vector<HyperNode> hyperNodes = hyperNodesFromIndex(state, index);
        QCOMPARE(hyperNodes.size(), std::size_t(4));
        std::set<std::string> names;
        for (const HyperNode& hyperNode : hyperNodes) {
            QVERIFY2(nodeNameProblem(hyperNode.name).empty(), hyperNode.name.c_str());
            names.insert(hyperNode.name);
        }
        QCOMPARE(names.size(), std::size_t(4));
        QVERIFY(names.contains("rack-1")); // "rack_1" names its level already
        QVERIFY(names.contains("block-b2-rack-1"));
    }

    // topology.conf and topology.yaml of the same tree parse into the same switches.
    void slurmFilesReadBack() {
        const Loaded gb200 = demo("gb200");
        for (const bool blocks : {false, true}) {
            const SlurmTopology topology =
                blocks ? slurmBlocksFromIndex(gb200.state, gb200.index) : slurmTreeFromIndex(gb200.state, gb200.index);
            Result<SlurmTopology> conf = parseTopologyConf(writeTopologyConf(topology));
            QVERIFY2(conf.ok(), conf.ok() ? "" : conf.error().message.c_str());
            Result<std::vector<SlurmTopology>> yaml = parseTopologyYaml(writeTopologyYaml({topology}));
            QVERIFY2(yaml.ok(), yaml.ok() ? "" : yaml.error().message.c_str());
            QCOMPARE(yaml->size(), std::size_t(1));
            QCOMPARE((*yaml)[0].switches, conf->switches);
            QCOMPARE((*yaml)[0].blocks, conf->blocks);
            QCOMPARE(conf->switches, topology.switches);
            QCOMPARE(conf->blocks, topology.blocks);
            QVERIFY((*yaml)[0].clusterDefault);
        }
    }

    // Node labels of the hierarchy as partial Nodes read back as nodes carrying those labels; a
    // plan's removals are kubectl lines only.
    void nodeLabelsReadBack() {
        const Loaded gb200 = demo("gb200");
        const NodeLabelsExport labels = nodeLabelsExport(gb200.state, gb200.index);
        Result<Snapshot> back = readSnapshotText(labels.objects, "labels.yaml");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->nodes.size(), gb200.state.presentNodeCount());
        const std::string rackKey = gb200.index.spec().levels.back().nodeLabel;
        std::map<std::string, std::string> racks;
        for (const Node& node : back->nodes) racks[node.name] = node.label(rackKey) ? *node.label(rackKey) : "";
        for (const Node* node : presentNodes(gb200.state))
            QCOMPARE(racks[node->name], node->label(rackKey) ? *node->label(rackKey) : std::string());

        ChangePlan plan;
        plan.labelChanges = {{"n1", "a", "x", "y"}, {"n1", "b", "z", std::nullopt}, {"n2", "b", "z", std::nullopt}};
        const NodeLabelsExport planned = nodeLabelsExport(gb200.state, gb200.index, &plan);
        QVERIFY(planned.kubectlLines.find("kubectl label node n1 --overwrite a=y b-\n") != std::string::npos);
        QVERIFY(planned.kubectlLines.find("kubectl label node n2 --overwrite b-\n") != std::string::npos);
        Result<Snapshot> plannedBack = readSnapshotText(planned.objects, "planned.yaml");
        QVERIFY2(plannedBack.ok(), plannedBack.ok() ? "" : plannedBack.error().message.c_str());
        QCOMPARE(plannedBack->nodes.size(), std::size_t(2));
        QCOMPARE(*plannedBack->nodes[0].label("a"), std::string("y"));
        QVERIFY(!plannedBack->nodes[0].label("b"));
    }

    // A hierarchy not read from labels cannot be a Topology (which names label keys).
    void topologiesNeedLabelLevels() {
        const Loaded gb200 = demo("gb200");
        ClusterState withTree = gb200.state;
        for (const HyperNode& hyperNode : hyperNodesFromIndex(gb200.state, gb200.index))
            (void)withTree.apply(HyperNodeUpserted{hyperNode});
        Result<std::optional<TopologySpec>> spec = hyperNodeHierarchy(withTree);
        QVERIFY(spec.ok() && *spec);
        const TopologyIndex tree = TopologyIndex::build(withTree, **spec);
        Result<std::string> kueue = kueueTopologyYaml(withTree, tree);
        QVERIFY(!kueue);
        QVERIFY2(kueue.error().message.find("label the nodes first") != std::string::npos, kueue.error().message.c_str());
        QVERIFY(!kaiTopologyYaml(tree));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestTopologyExports)
#include "test_topology_exports.moc"
