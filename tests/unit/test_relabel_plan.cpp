// The relabel generator: labels that say where each node sits, from every kind of hierarchy an
// operator hands over (a topology.conf beside a node list with no topology labels, Slurm blocks, a
// HyperNode-only cluster with a skipped tier, a Kueue Topology ending in kubernetes.io/hostname,
// another label scheme), checked by what matters: the labels it plans, read back as label levels,
// place every node where the source hierarchy did, and nothing stale is left.
#include "core/changes/change_plan.h"
#include "core/changes/relabel_plan.h"
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
using topodeck::testing::makeNode;

namespace {

const std::string kData = TOPODECK_TEST_DATA_DIR;

QString qs(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }


TopologyIndex indexOf(const ClusterState& state, std::string_view topologyName = {}) {
    Result<TopologySpec> spec = resolveTopology(state, topologyName, {});
    if (!spec) qFatal("%s", spec.error().message.c_str());
    return TopologyIndex::build(state, *spec);
}

// Every present node's domains from the top ("-" outside a level), skipping the levels `skip` marks.
QStringList placements(const ClusterState& state, const TopologyIndex& index, const std::vector<bool>& skip = {}) {
    QStringList out;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        if (!state.record(id).present) continue;
        QStringList parts;
        for (DomainId d : index.pathTo(index.node(id).leaf)) {
            const Domain& domain = index.domain(d);
            if (domain.level < 0 || (std::size_t(domain.level) < skip.size() && skip[std::size_t(domain.level)])) continue;
            parts << (domain.unlabelled ? QStringLiteral("-") : qs(domain.value));
        }
        out << qs(state.record(id).node->name) + QLatin1Char(' ') + parts.join(QLatin1Char('/'));
    }
    return out;
}

// The plan the generator's operations make, checked to resolve.
ChangePlan planFor(const ClusterState& state, const TopologyIndex& index, const RelabelRequest& request) {
    auto operations = relabelOperations(state, index, request);
    if (!operations) qFatal("%s", operations.error().message.c_str());
    ChangePlan plan;
    if (Status added = addLabelOperations(plan, state, index, std::move(*operations)); !added)
        qFatal("%s", added.error().message.c_str());
    return plan;
}

// The hierarchy the planned labels give, read as label levels (what Kueue TAS and KAI read).
TopologyIndex labelIndex(const ClusterState& state, const std::vector<std::string>& keys) {
    std::vector<std::string> present;
    for (const std::string& key : keys)
        if (key != "-") present.push_back(key);
    return TopologyIndex::build(state, TopologySpec::fromLabelKeys(present));
}

QString errorOf(const ClusterState& state, const TopologyIndex& index, const RelabelRequest& request) {
    auto operations = relabelOperations(state, index, request);
    return operations ? QString() : qs(operations.error().message);
}

} // namespace

class TestRelabelPlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A Slurm operator's node list (no topology labels) and the topology.conf that places it:
    // every node labelled with its core, spine and leaf; gpu-011, in no switch, gets nothing.
    void fromTopologyConfBesideANodeList() {
        ClusterState state = stateFromDataFile("plan/nodes-unlabelled.yaml");
        std::vector<std::string> warnings;
        QVERIFY(addSlurmTopologyFile(kData + "/slurm/tree.conf", state, warnings).ok());
        const TopologyIndex slurm = indexOf(state);
        QCOMPARE(qs(slurm.spec().origin), QStringLiteral("slurm-topology"));
        const RelabelRequest request{{"example.com/core", "example.com/spine", "example.com/leaf"}, {}};
        const ChangePlan plan = planFor(state, slurm, request);
        QCOMPARE(plan.labelChanges.size(), std::size_t(11 * 3)); // 11 placed nodes, 3 levels each
        for (const LabelChange& change : plan.labelChanges) {
            QVERIFY(change.node != "gpu-011");
            QVERIFY(!change.before); // nothing was labelled
        }
        const ClusterState after = withPlanApplied(state, plan);
        QCOMPARE(placements(after, labelIndex(after, request.keys)), placements(state, slurm));
        QVERIFY(relabelMismatches(after, slurm, request).empty());
        // Applied, the same request plans nothing more.
        QVERIFY(planFor(after, indexOf(after, "slurm"), request).labelChanges.empty());
    }

    // topology/block with aggregated sizes: "b[1-2]" is no label value, so the aggregated level
    // is refused by name, and "-" leaves it out (Kueue needs the base blocks).
    void fromSlurmBlocks() {
        ClusterState state;
        for (int i = 1; i <= 8; ++i) state.apply(NodeUpserted{makeNode("gb-0" + std::to_string(i), "", "", 4)});
        std::vector<std::string> warnings;
        QVERIFY(addSlurmTopologyFile(kData + "/slurm/block.conf", state, warnings).ok());
        const TopologyIndex blocks = indexOf(state);
        QCOMPARE(blocks.spec().depth(), 2);
        const QString refused = errorOf(state, blocks, {{"example.com/superblock", "example.com/block"}, {}});
        QVERIFY2(refused.contains(QStringLiteral("domain b[1-2]")) && refused.contains(QStringLiteral("give - for level block-x2")),
                 qPrintable(refused));
        const RelabelRequest request{{"-", "example.com/block"}, {}};
        const ChangePlan plan = planFor(state, blocks, request);
        QCOMPARE(plan.labelChanges.size(), std::size_t(8));
        const ClusterState after = withPlanApplied(state, plan);
        QCOMPARE(placements(after, labelIndex(after, request.keys)), placements(state, blocks, {true, false}));
    }

    // A HyperNode-only cluster in the shape of Volcano's examples: s7 skips tier 2, so its nodes
    // carry no tier-2 label; node-10 and node-11 are in no HyperNode and get no label at all.
    void fromHyperNodes() {
        const ClusterState state = stateFromDataFile("volcano/hypernodes-only.yaml");
        const TopologyIndex tree = indexOf(state);
        QCOMPARE(qs(tree.spec().origin), QStringLiteral("hypernodes"));
        QCOMPARE(tree.spec().depth(), 3);
        const RelabelRequest request{{"example.com/tier-3", "example.com/tier-2", "example.com/tier-1"}, {}};
        const ChangePlan plan = planFor(state, tree, request);
        for (const LabelChange& change : plan.labelChanges) QVERIFY(change.node != "node-10" && change.node != "node-11");
        const ClusterState after = withPlanApplied(state, plan);
        const QStringList placed = placements(after, labelIndex(after, request.keys));
        QCOMPARE(placed, placements(state, tree));
        QVERIFY2(placed.contains(QStringLiteral("node-10 -/-/-")), qPrintable(placed.join(QLatin1Char('\n'))));
    }

    // A Kueue Topology ending in kubernetes.io/hostname: that level is the kubelet's, refused by
    // name, left out with "-".
    void hostnameLevelIsLeftOut() {
        ClusterState state;
        for (const char* name : {"n1", "n2", "n3"}) {
            Node node = makeNode(name, "b1", std::string(name) == "n3" ? "r2" : "r1", 8);
            node.setLabel("kubernetes.io/hostname", name);
            state.apply(NodeUpserted{std::move(node)});
        }
        const TopologyIndex index =
            TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack", "kubernetes.io/hostname"}));
        const QString refused = errorOf(state, index, {{"x.io/block", "x.io/rack", "kubernetes.io/hostname"}, {}});
        QVERIFY2(refused.contains(QStringLiteral("the kubelet's own label")), qPrintable(refused));
        const ChangePlan plan = planFor(state, index, {{"x.io/block", "x.io/rack", "-"}, {}});
        QCOMPARE(plan.labelChanges.size(), std::size_t(6));
    }

    // Another label scheme, the old keys removed with it (a prefix), and a stale higher tier of
    // the new scheme removed by its prefix while the tiers asked for stay.
    void renameAScheme() {
        ClusterState state;
        for (int i = 1; i <= 6; ++i) {
            Node node = makeNode("n" + std::to_string(i), i <= 4 ? "b1" : "b2", "r" + std::to_string((i + 1) / 2), 8);
            node.setLabel("example.com/spine-speed", "400g"); // an old-scheme key that is no level
            if (i == 1) node.setLabel("fabric.topograph.run/tier-2", "stale");
            if (i == 2) node.setLabel("fabric.topograph.run/tier-0", "r1"); // already right: no change
            state.apply(NodeUpserted{std::move(node)});
        }
        const std::vector<std::string> oldKeys{"example.com/block", "example.com/rack"};
        const TopologyIndex old = TopologyIndex::build(state, TopologySpec::fromLabelKeys(oldKeys));
        const RelabelRequest request{{"fabric.topograph.run/tier-1", "fabric.topograph.run/tier-0"},
                                     {"example.com/*", "fabric.topograph.run/tier-*"}};
        const ChangePlan plan = planFor(state, old, request);
        const ClusterState after = withPlanApplied(state, plan);
        QCOMPARE(placements(after, labelIndex(after, request.keys)), placements(state, old));
        QVERIFY(relabelMismatches(after, old, request).empty());
        for (NodeId id = 0; id < after.nodeSlots(); ++id) {
            const Node& node = *after.record(id).node;
            for (const auto& [key, value] : node.labels)
                QVERIFY2(!key.starts_with("example.com/") && key != "fabric.topograph.run/tier-2", key.c_str());
        }
        // n2's tier-0 already held r1: the plan does not touch it.
        for (const LabelChange& change : plan.labelChanges)
            QVERIFY(!(change.node == "n2" && change.key == "fabric.topograph.run/tier-0"));
        // Nodes ending alike share an operation: a rack of two nodes each, n1 apart (its stale tier).
        auto operations = relabelOperations(state, old, request);
        QVERIFY(operations.ok());
        QCOMPARE(operations->front().target.nodes, (std::vector<std::string>{"n1"}));
        QCOMPARE(operations->back().target.nodes, (std::vector<std::string>{"n5", "n6"}));
    }

    // Racks named alike under two blocks (values need not be unique across parents): with the
    // block level left out, the rack labels alone would make them one domain, and the check says
    // which nodes that misplaces.
    void leavingALevelOutCanMerge() {
        ClusterState state;
        for (const char* block : {"b1", "b2"})
            state.apply(NodeUpserted{makeNode(std::string(block) + "-n1", block, "r1", 8)});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        const RelabelRequest merging{{"-", "x.io/rack"}, {}};
        const ClusterState merged = withPlanApplied(state, planFor(state, index, merging));
        const std::vector<std::string> misplaced = relabelMismatches(merged, index, merging);
        QCOMPARE(misplaced, (std::vector<std::string>{"b1-n1", "b2-n1"}));
        const RelabelRequest both{{"x.io/block", "x.io/rack"}, {}};
        QVERIFY(relabelMismatches(withPlanApplied(state, planFor(state, index, both)), index, both).empty());
    }

    void badRequestsAreNamed_data() {
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QStringList>("remove");
        QTest::addColumn<QString>("message");
        QTest::newRow("too few keys") << QStringList{QStringLiteral("a.io/x")} << QStringList{}
                                      << QStringLiteral("it has 2 (block, rack), the keys are 1");
        QTest::newRow("a key twice") << QStringList{QStringLiteral("a.io/x"), QStringLiteral("a.io/x")} << QStringList{}
                                     << QStringLiteral("level rack: key a.io/x is given for two levels");
        QTest::newRow("a key Kubernetes refuses")
            << QStringList{QStringLiteral("a.io/x/y"), QStringLiteral("a.io/z")} << QStringList{} << QStringLiteral("level block:");
        QTest::newRow("remove everything") << QStringList{QStringLiteral("a.io/x"), QStringLiteral("a.io/z")}
                                           << QStringList{QStringLiteral("*")} << QStringLiteral("would remove every label");
    }
    void badRequestsAreNamed() {
        QFETCH(QStringList, keys);
        QFETCH(QStringList, remove);
        QFETCH(QString, message);
        ClusterState state;
        state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8)});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        RelabelRequest request;
        for (const QString& key : keys) request.keys.push_back(key.toStdString());
        for (const QString& key : remove) request.remove.push_back(key.toStdString());
        const QString error = errorOf(state, index, request);
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestRelabelPlan)
#include "test_relabel_plan.moc"
