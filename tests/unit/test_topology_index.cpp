#include "core/model/cluster_state.h"
#include "core/text/natural_order.h"
#include "core/topology/topology_index.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QTest>

#include <random>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const TopologySpec kSpec = [] {
    TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    return spec;
}();

// Deterministic small-range draw (the std distributions differ between standard libraries).
int draw(std::mt19937_64& rng, int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); }

ClusterEvent randomEvent(std::mt19937_64& rng) {
    const std::string nodeName = "node-" + std::to_string(draw(rng, 40));
    switch (draw(rng, 10)) {
    case 0:
    case 1: {
        // Labels drawn from small sets, sometimes missing, so nodes move between racks and blocks.
        const int block = draw(rng, 4), rack = draw(rng, 5);
        Node node = makeNode(nodeName, block == 3 ? "" : "b" + std::to_string(block),
                             rack == 4 ? "" : "r" + std::to_string(rack), draw(rng, 3) * 4, draw(rng, 6) != 0,
                             draw(rng, 8) == 0);
        if (draw(rng, 2)) node.setLabel("nvidia.com/gpu.clique", "clique-" + std::to_string(draw(rng, 3)));
        return NodeUpserted{std::move(node)};
    }
    case 2:
        return NodeDeleted{nodeName};
    case 3:
    case 4:
    case 5:
    case 6: {
        static const PodPhase phases[] = {PodPhase::Running, PodPhase::Running, PodPhase::Pending,
                                          PodPhase::Succeeded, PodPhase::Failed};
        // Some pods name nodes that do not exist (yet), as a watch can deliver them first.
        const std::string target = draw(rng, 8) == 0 ? std::string() : "node-" + std::to_string(draw(rng, 44));
        return PodUpserted{makePod("pod-" + std::to_string(draw(rng, 120)), target, draw(rng, 5), phases[draw(rng, 5)])};
    }
    default:
        return PodDeleted{"team", "pod-" + std::to_string(draw(rng, 120))};
    }
}

} // namespace

class TestTopologyIndex : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aggregatesOfAHandBuiltCluster() {
        ClusterState state;
        for (const auto& node : {makeNode("n1", "b1", "r1", 8), makeNode("n2", "b1", "r1", 8),
                                 makeNode("n3", "b1", "r2", 8, /*ready=*/false), makeNode("n4", "b2", "r1", 8, true, true),
                                 makeNode("n5", "", "r9", 4)})
            (void)state.apply(NodeUpserted{node});
        (void)state.apply(PodUpserted{makePod("a", "n1", 8)});
        (void)state.apply(PodUpserted{makePod("b", "n2", 3)});
        (void)state.apply(PodUpserted{makePod("c", "n3", 2)});
        (void)state.apply(PodUpserted{makePod("d", "n2", 1, PodPhase::Succeeded)}); // holds nothing
        (void)state.apply(PodUpserted{makePod("e", "", 4, PodPhase::Pending)});       // unscheduled

        const TopologyIndex index = TopologyIndex::build(state, kSpec);
        const DomainTotals& all = index.root().totals;
        QCOMPARE(all.gpusTotal, 36);
        QCOMPARE(all.gpusUsed, 13);
        QCOMPARE(all.gpusFree, 5 + 4);            // n2 has 5 free, n5 has 4
        QCOMPARE(all.gpusUnavailable, 6 + 8);     // n3 NotReady, n4 cordoned
        QCOMPARE(all.gpusFragmented, 5);          // only n2 is partly used and schedulable
        QCOMPARE(all.nodesTotal, 5);
        QCOMPARE(all.nodesReady, 4);
        QCOMPARE(all.nodesSchedulable, 3);
        QCOMPARE(all.nodesFree, 1);
        QCOMPARE(all.pods, 3);
        QCOMPARE(index.root().maxFreeGpusOnNode(), 5);
        QCOMPARE(index.root().nodesWithFreeGpus(4), 2);

        // b1, b2, then the unlabelled block last.
        QCOMPARE(index.root().children.size(), 3u);
        const Domain& b1 = index.domain(index.root().children[0]);
        QCOMPARE(b1.value, std::string("b1"));
        QCOMPARE(b1.totals.gpusTotal, 24);
        QCOMPARE(b1.maxFreeGpusOnNode(), 5);
        const Domain& unlabelled = index.domain(index.root().children[2]);
        QVERIFY(unlabelled.unlabelled);
        QCOMPARE(index.pathName(unlabelled.children[0]), std::string("(no block)/r9"));

        const DomainId r1 = index.findChild(index.root().children[0], "r1");
        QVERIFY(r1 != kNoDomain);
        QCOMPARE(index.domain(r1).nodes.size(), 2u);
        QCOMPARE(index.domain(r1).totals.gpusUsed, 11);
    }

    void childrenAndNodesInNaturalOrder() {
        ClusterState state;
        for (const char* rack : {"r10", "r2", "r1"})
            for (const char* name : {"n10", "n9", "n1"})
                (void)state.apply(NodeUpserted{makeNode(std::string(rack) + "-" + name, "b", rack, 8)});
        const TopologyIndex index = TopologyIndex::build(state, kSpec);
        const Domain& block = index.domain(index.root().children[0]);
        QStringList racks;
        for (DomainId id : block.children) racks << QString::fromStdString(index.domain(id).value);
        QCOMPARE(racks, QStringList({QStringLiteral("r1"), QStringLiteral("r2"), QStringLiteral("r10")}));
        QStringList nodes;
        for (NodeId id : index.domain(block.children[0]).nodes) nodes << QString::fromStdString(state.record(id).node->name);
        QCOMPARE(nodes, QStringList({QStringLiteral("r1-n1"), QStringLiteral("r1-n9"), QStringLiteral("r1-n10")}));
    }

    void incrementalEqualsRebuild_data() {
        QTest::addColumn<quint64>("seed");
        for (quint64 seed : {1ull, 2ull, 3ull, 42ull, 1234ull, 99991ull}) QTest::newRow(qPrintable(QString::number(seed))) << seed;
    }

    // The property: after any sequence of events, the index kept up to date event by event
    // equals one built from scratch.
    void incrementalEqualsRebuild() {
        QFETCH(quint64, seed);
        std::mt19937_64 rng(seed);
        ClusterState state;
        TopologyIndex incremental = TopologyIndex::build(state, kSpec);
        for (int step = 0; step < 3000; ++step) {
            const ClusterEvent event = randomEvent(rng);
            incremental.apply(state, state.apply(event));
            if (step % 25 == 0 || step == 2999) {
                std::string why;
                const TopologyIndex rebuilt = TopologyIndex::build(state, kSpec);
                if (!TopologyIndex::sameContent(incremental, rebuilt, &why))
                    QFAIL(qPrintable(QStringLiteral("seed %1 step %2: %3").arg(seed).arg(step).arg(QString::fromStdString(why))));
            }
        }
        QVERIFY(state.presentNodeCount() > 0);
    }

    void sameContentSeesADifference() {
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8)});
        const TopologyIndex before = TopologyIndex::build(state, kSpec);
        (void)state.apply(PodUpserted{makePod("p", "n1", 2)});
        const TopologyIndex after = TopologyIndex::build(state, kSpec);
        std::string why;
        QVERIFY(!TopologyIndex::sameContent(before, after, &why));
        QVERIFY(!why.empty());
    }

    void relabelMovesNodeAndPrunesEmptyDomains() {
        ClusterState state;
        TopologyIndex index = TopologyIndex::build(state, kSpec);
        index.apply(state, state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8)}));
        index.apply(state, state.apply(PodUpserted{makePod("p", "n1", 8)}));
        const auto versionBefore = index.structureVersion();
        index.apply(state, state.apply(NodeUpserted{makeNode("n1", "b2", "r7", 8)}));
        QVERIFY(index.structureVersion() != versionBefore);
        QCOMPARE(index.root().children.size(), 1u);
        const Domain& b2 = index.domain(index.root().children[0]);
        QCOMPARE(b2.value, std::string("b2"));
        QCOMPARE(b2.totals.gpusUsed, 8); // the pod's usage follows its node
        QCOMPARE(index.findChild(kRootDomain, "b1"), kNoDomain);

        // A pod event changes aggregates but not the structure.
        const auto stable = index.structureVersion();
        index.apply(state, state.apply(PodDeleted{"team", "p"}));
        QCOMPARE(index.structureVersion(), stable);
        QCOMPARE(index.root().totals.gpusFree, 8);
    }

    void nvlinkDomainsAreInterned() {
        ClusterState state;
        Node a = makeNode("a", "b", "r", 4), b = makeNode("b", "b", "r", 4);
        a.setLabel("nvidia.com/gpu.clique", "uuid.1");
        b.setLabel("nvidia.com/gpu.clique", "uuid.1");
        (void)state.apply(NodeUpserted{a});
        (void)state.apply(NodeUpserted{b});
        const TopologyIndex index = TopologyIndex::build(state, kSpec);
        QCOMPARE(index.nvlinkDomainCount(), 1u);
        QCOMPARE(index.node(0).nvlinkDomain, index.node(1).nvlinkDomain);
        QCOMPARE(index.nvlinkName(index.node(0).nvlinkDomain), std::string("uuid.1"));
    }

    void flatSpecPutsNodesInRoot() {
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("x", "b", "r", 8)});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec{});
        QCOMPARE(index.root().nodes.size(), 1u);
        QVERIFY(index.root().children.empty());
    }

    void gpuResourcesAreConfigurable() {
        ClusterState state;
        Node node = makeNode("amd", "b", "r", 0);
        node.allocatable.set("amd.com/gpu", Quantity::fromUnits(8));
        node.allocatable.set("nvidia.com/mig-1g.10gb", Quantity::fromUnits(7));
        (void)state.apply(NodeUpserted{node});
        QCOMPARE(TopologyIndex::build(state, kSpec).root().totals.gpusTotal, 0);
        QCOMPARE(TopologyIndex::build(state, kSpec, GpuResources::fromList("amd.com/gpu")).root().totals.gpusTotal, 8);
        // Seven 1g MIG instances are one physical GPU cut seven ways (core/model/node_gpus.h).
        QCOMPARE(TopologyIndex::build(state, kSpec, GpuResources::fromList("amd.com/gpu, nvidia.com/mig-*")).root().totals.gpusTotal, 9);
    }

    void naturalOrder_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("less");
        QTest::newRow("numbers") << "rack-2" << "rack-10" << true;
        QTest::newRow("numbers reversed") << "rack-10" << "rack-2" << false;
        QTest::newRow("equal") << "a1" << "a1" << false;
        QTest::newRow("prefix") << "a" << "a1" << true;
        QTest::newRow("letters") << "b" << "a" << false;
        QTest::newRow("leading zeros tie-break") << "r01" << "r1" << false;
        QTest::newRow("leading zeros value") << "r09" << "r10" << true;
        QTest::newRow("huge digit runs") << "n123456789012345678901" << "n123456789012345678902" << true;
    }
    void naturalOrder() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, less);
        QCOMPARE(naturalLess(a.toStdString(), b.toStdString()), less);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestTopologyIndex)
#include "test_topology_index.moc"
