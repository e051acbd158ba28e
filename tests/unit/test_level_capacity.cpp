#include "core/model/cluster_state.h"
#include "core/topology/level_capacity.h"
#include "core/topology/topology_index.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const TopologySpec kSpec = [] {
    TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
    spec.levels[0].name = "block";
    spec.levels[1].name = "rack";
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    return spec;
}();

// The tables below read name, block, rack, clique, GPUs.
Node cliqueNode(std::string name, std::string block, std::string rack, std::string clique, std::int64_t gpus,
                bool ready = true) {
    return makeNode(std::move(name), std::move(block), std::move(rack), gpus, ready, false, std::move(clique));
}

// b1/r1: n1 (8 free), n2 (3 used, 5 free)      cliques: c1 = n1 n2 n3
// b1/r2: n3 (8 free), n4 (8 free)                        c2 = n4 n7 n8
// b2/r3: n5 (8 used), n6 (NotReady, 8 GPUs)              c3 = n5 n6
// b2/r4: n7 (8 free), n8 (4 GPUs, 4 free)
TopologyIndex handBuilt() {
    ClusterState state;
    for (const Node& node : {cliqueNode("n1", "b1", "r1", "c1", 8), cliqueNode("n2", "b1", "r1", "c1", 8),
                             cliqueNode("n3", "b1", "r2", "c1", 8), cliqueNode("n4", "b1", "r2", "c2", 8),
                             cliqueNode("n5", "b2", "r3", "c3", 8), cliqueNode("n6", "b2", "r3", "c3", 8, false),
                             cliqueNode("n7", "b2", "r4", "c2", 8), cliqueNode("n8", "b2", "r4", "c2", 4)})
        (void)state.apply(NodeUpserted{node});
    (void)state.apply(PodUpserted{makePod("a", "n2", 3)});
    (void)state.apply(PodUpserted{makePod("b", "n5", 8)});
    return TopologyIndex::build(state, kSpec);
}

const std::vector<std::int64_t> kSizes{4, 8, 12, 16, 32};

} // namespace

class TestLevelCapacity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gangsThatFit_data() {
        QTest::addColumn<QList<int>>("histogram");
        QTest::addColumn<int>("gang");
        QTest::addColumn<int>("perNode");
        QTest::addColumn<int>("expected");
        // histogram[f] = nodes with f free GPUs
        QTest::newRow("empty") << QList<int>{} << 8 << 8 << 0;
        QTest::newRow("one full node") << QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 1} << 8 << 8 << 1;
        QTest::newRow("two pods of 4 per node") << QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 3} << 4 << 8 << 6;
        QTest::newRow("partial nodes do not add up") << QList<int>{0, 0, 0, 0, 4} << 8 << 8 << 0;
        QTest::newRow("16 = two whole nodes") << QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 5} << 16 << 8 << 2;
        QTest::newRow("12 = two pods of 8") << QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 4} << 12 << 8 << 2;
        QTest::newRow("4-GPU nodes") << QList<int>{0, 0, 0, 0, 18} << 32 << 4 << 2;
        QTest::newRow("3 of 8 free fits gangs of 2") << QList<int>{0, 0, 0, 2} << 2 << 8 << 2;
        QTest::newRow("no GPUs per node") << QList<int>{1} << 8 << 0 << 0;
    }
    void gangsThatFit() {
        QFETCH(QList<int>, histogram);
        QFETCH(int, gang);
        QFETCH(int, perNode);
        QFETCH(int, expected);
        std::vector<std::uint32_t> buckets(histogram.begin(), histogram.end());
        QCOMPARE(topodeck::gangsThatFit(buckets, gang, perNode), std::int64_t(expected));
    }

    void podsThatFit_data() {
        QTest::addColumn<QList<int>>("histogram");
        QTest::addColumn<int>("gpusPerPod");
        QTest::addColumn<int>("expected");
        QTest::newRow("empty") << QList<int>{} << 4 << 0;
        QTest::newRow("each node as many as fit") << QList<int>{0, 1, 0, 2, 0, 0, 0, 0, 3} << 2 << 2 + 12;
        QTest::newRow("pods bigger than any node") << QList<int>{0, 0, 0, 0, 9} << 8 << 0;
        QTest::newRow("one GPU each") << QList<int>{5, 1, 1} << 1 << 3;
        QTest::newRow("no GPUs per pod") << QList<int>{0, 4} << 0 << 0;
    }
    void podsThatFit() {
        QFETCH(QList<int>, histogram);
        QFETCH(int, gpusPerPod);
        QFETCH(int, expected);
        std::vector<std::uint32_t> buckets(histogram.begin(), histogram.end());
        QCOMPARE(topodeck::podsThatFit(buckets, gpusPerPod), std::int64_t(expected));
    }

    void levelsOfAHandBuiltCluster() {
        const TopologyIndex index = handBuilt();
        const std::vector<LevelCapacity> rows = levelCapacity(index, kSizes);
        QCOMPARE(rows.size(), 4u); // block, rack, NVLink domain, node
        const LevelCapacity& block = rows[0];
        const LevelCapacity& rack = rows[1];
        const LevelCapacity& nvlink = rows[2];
        const LevelCapacity& node = rows[3];
        QCOMPARE(block.name, std::string("block"));
        QCOMPARE(rack.name, std::string("rack"));
        QCOMPARE(nvlink.kind, LevelCapacity::Kind::Nvlink);
        QCOMPARE(node.kind, LevelCapacity::Kind::Node);
        for (const LevelCapacity& row : rows) QCOMPARE(row.gpusFree, 41); // 8+5+8+8+8+4

        // Fragmentation: no block is unused; r2 and r4 are (16 + 12); c2 is (20); n2 is the one partly used node.
        QCOMPARE(block.gpusFreeWhole, 0);
        QCOMPARE(rack.gpusFreeWhole, 28);
        QCOMPARE(nvlink.gpusFreeWhole, 20);
        QCOMPARE(node.gpusFreeWhole, 36);
        QCOMPARE(rack.gpusFreeScattered(), 13);
        QCOMPARE(block.fragmentation(), 1.0);
        QCOMPARE(block.domains, 2);
        QCOMPARE(rack.domains, 4);
        QCOMPARE(nvlink.domains, 3);
        QCOMPARE(node.domains, 7); // n6 is not schedulable

        // Slots, sizes 4, 8, 12, 16, 32. Pods of 4 per node: n1 2, n2 1, n3 2, n4 2, n7 2, n8 1.
        // Pods of 8: n1, n3, n4, n7, one each; 12 and 16 are two of them in one domain.
        QCOMPARE(block.gangs, (std::vector<std::int64_t>{10, 4, 1, 1, 0}));  // b1 has 3 whole nodes, b2 1
        QCOMPARE(rack.gangs, (std::vector<std::int64_t>{10, 4, 1, 1, 0}));   // r2 holds the only pair
        QCOMPARE(nvlink.gangs, (std::vector<std::int64_t>{10, 4, 2, 2, 0})); // c1: n1 n3, c2: n4 n7
        QCOMPARE(node.gangs, (std::vector<std::int64_t>{10, 4, 0, 0, 0}));
    }

    // One domain's slots add up to its level's, and say the largest gang that fits in it.
    void slotsOfOneDomain() {
        const TopologyIndex index = handBuilt();
        QCOMPARE(largestNodeGpus(index), 8);
        const DomainId b1 = index.findChild(kRootDomain, "b1");
        const DomainId r2 = index.findChild(b1, "r2");
        const DomainId b2 = index.findChild(kRootDomain, "b2");
        const DomainId r3 = index.findChild(b2, "r3");
        const DomainSlots block = domainSlots(index.domain(b1), 8, kSizes);
        QCOMPARE(block.gangs, (std::vector<std::int64_t>{7, 3, 1, 1, 0})); // n1 n3 n4 whole, n2 5 free
        QCOMPARE(block.wholeNodes, 3);
        QCOMPARE(block.largestGang, 24);
        const DomainSlots rack = domainSlots(index.domain(r2), 8, kSizes);
        QCOMPARE(rack.gangs, (std::vector<std::int64_t>{4, 2, 1, 1, 0}));
        QCOMPARE(rack.largestGang, 16);
        // r3: n5 full, n6 not ready: nothing fits.
        const DomainSlots full = domainSlots(index.domain(r3), 8, kSizes);
        QCOMPARE(full.gangs, (std::vector<std::int64_t>{0, 0, 0, 0, 0}));
        QCOMPARE(full.largestGang, 0);
        // b2: n7 whole, n8 4 free of 4: one node's 8 beats the 4.
        QCOMPARE(domainSlots(index.domain(b2), 8, kSizes).largestGang, 8);
        // A partly used node alone: its free GPUs.
        const DomainId r1 = index.findChild(b1, "r1");
        QCOMPARE(domainSlots(index.domain(r1), 8, kSizes).largestGang, 8);
        QCOMPARE(domainSlots(index.domain(r1), 0, kSizes).largestGang, 0);
    }

    void moreUseLeavesFewerSlots() {
        ClusterState state;
        for (int n = 1; n <= 8; ++n)
            (void)state.apply(NodeUpserted{cliqueNode("n" + std::to_string(n), "b1", n <= 4 ? "r1" : "r2", "", 8)});
        TopologyIndex index = TopologyIndex::build(state, kSpec);
        std::vector<LevelCapacity> rows = levelCapacity(index);
        QCOMPARE(rows.size(), 3u);                                           // no NVLink domains
        QCOMPARE(rows[0].gangs, (std::vector<std::int64_t>{8, 4, 2, 1, 0})); // 8 .. 128 in one block of 64
        QCOMPARE(rows[1].gangs, (std::vector<std::int64_t>{8, 4, 2, 0, 0})); // two racks of 32
        QCOMPARE(rows[0].fragmentation(), 0.0);

        // One GPU used on each of two nodes in r1: that rack can no longer take a gang of 32.
        index.apply(state, state.apply(PodUpserted{makePod("a", "n1", 1)}));
        index.apply(state, state.apply(PodUpserted{makePod("b", "n2", 1)}));
        rows = levelCapacity(index);
        QCOMPARE(rows[1].gangs, (std::vector<std::int64_t>{6, 3, 1, 0, 0}));
        QCOMPARE(rows[0].gangs, (std::vector<std::int64_t>{6, 3, 1, 0, 0}));
        QCOMPARE(rows[1].gpusFreeWhole, 32);
        QCOMPARE(rows[2].gpusFreeWhole, 48);
        QCOMPARE(rows[0].gpusFree, 62);
    }

    void unlabelledDomainsHoldNoSlots() {
        ClusterState state;
        (void)state.apply(NodeUpserted{cliqueNode("n1", "b1", "r1", "", 8)});
        (void)state.apply(NodeUpserted{cliqueNode("n2", "b1", "", "", 8)}); // no rack label
        const TopologyIndex index = TopologyIndex::build(state, kSpec);
        const std::vector<LevelCapacity> rows = levelCapacity(index, std::vector<std::int64_t>{8});
        QCOMPARE(rows[1].domains, 1);
        QCOMPARE(rows[1].gangs, (std::vector<std::int64_t>{1}));
        QCOMPARE(rows[1].gpusFreeWhole, 8);
        QCOMPARE(rows[1].gpusFreeScattered(), 8);
        QCOMPARE(rows[0].gangs, (std::vector<std::int64_t>{2}));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestLevelCapacity)
#include "test_level_capacity.moc"
