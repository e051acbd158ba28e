#include "core/demo/demo_cluster.h"
#include "core/model/cluster_state.h"
#include "core/topology/occupancy_history.h"
#include "core/topology/topology_index.h"
#include "support/demo_loader.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const TopologySpec kSpec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});

// Two blocks of two racks of one 8-GPU node each, events applied the way a source does.
struct Cluster {
    ClusterState state;
    TopologyIndex index;
    Cluster() {
        for (const Node& node : {makeNode("n1", "b1", "r1", 8), makeNode("n2", "b1", "r2", 8),
                                 makeNode("n3", "b2", "r3", 8), makeNode("n4", "b2", "r4", 8)})
            (void)state.apply(NodeUpserted{node});
        index = TopologyIndex::build(state, kSpec);
    }
    void apply(ClusterEvent event) { index.apply(state, state.apply(std::move(event))); }
    DomainId find(std::initializer_list<const char*> path) const {
        DomainId id = kRootDomain;
        for (const char* value : path) id = index.findChild(id, value);
        return id;
    }
};

OccupancyHistoryOptions small(std::size_t capacity) {
    OccupancyHistoryOptions options;
    options.capacity = capacity;
    options.intervalMs = 10'000;
    return options;
}

} // namespace

class TestOccupancyHistory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void newestPointFollowsTheRunningInterval() {
        Cluster cluster;
        OccupancyHistory history(small(10));
        QVERIFY(history.empty());
        QVERIFY(!history.cluster());
        QVERIFY(history.record(cluster.index, 1'000));
        QCOMPARE(history.size(), 1u);
        QCOMPARE(history.at(*history.cluster(), 0), (OccupancySample{0, 0, 32}));

        // Within the interval: the same point, updated, stamped with the newer time.
        cluster.apply(PodUpserted{makePod("a", "n1", 8)});
        QVERIFY(!history.record(cluster.index, 9'999));
        QCOMPARE(history.size(), 1u);
        QCOMPARE(history.timeAt(0), 9'999);
        QCOMPARE(history.at(*history.cluster(), 0), (OccupancySample{8, 0, 32}));

        // Points open on the grid of the first: 11 s and 19.5 s share the second interval.
        QVERIFY(history.record(cluster.index, 11'000));
        QVERIFY(!history.record(cluster.index, 19'500));
        QVERIFY(history.record(cluster.index, 21'000));
        QCOMPARE(history.size(), 3u);
        QCOMPARE(history.timeAt(1), 19'500);
    }

    void wrapsAroundKeepingTheNewest() {
        Cluster cluster;
        OccupancyHistory history(small(5));
        for (int i = 0; i < 12; ++i) {
            // Point i has i GPUs in use (up to 8, then on the second node).
            cluster.apply(PodUpserted{makePod("p" + std::to_string(i), i < 8 ? "n1" : "n2", 1)});
            QVERIFY(history.record(cluster.index, i * 10'000));
        }
        QCOMPARE(history.size(), 5u);
        QCOMPARE(history.firstSequence(), 7u);
        for (std::size_t i = 0; i < 5; ++i) {
            QCOMPARE(history.timeAt(i), std::int64_t(7 + i) * 10'000);
            QCOMPARE(history.at(*history.cluster(), i).used, std::uint32_t(8 + i));
        }
        const OccupancyHistory::Series* b1 = history.find("b1");
        QVERIFY(b1);
        QCOMPARE(history.at(*b1, 4).used, 12u);
        QVERIFY(!history.at(*b1, 5).present()); // past the end
    }

    void seriesForTheTopLevelsAndSelectedDomains() {
        Cluster cluster;
        OccupancyHistoryOptions options = small(100);
        options.trackedLevels = 1; // the cluster and the blocks
        OccupancyHistory history(options);
        QVERIFY(history.record(cluster.index, 0));
        QCOMPARE(history.seriesCount(), 3u);
        QVERIFY(history.find("b1") && history.find("b2"));
        QVERIFY(!history.find("b1/r1"));

        // A selected rack is kept from its first selection on; before, it has gaps.
        cluster.apply(PodUpserted{makePod("a", "n2", 4)});
        QVERIFY(history.record(cluster.index, 10'000));
        QVERIFY(history.track(cluster.index, cluster.find({"b1", "r2"})));
        QVERIFY(history.track(cluster.index, cluster.find({"b1"}))); // has one already
        QVERIFY(!history.track(cluster.index, 999));
        QCOMPARE(history.seriesCount(), 4u);
        const OccupancyHistory::Series* rack = history.find("b1/r2");
        QVERIFY(rack && rack->extra);
        QVERIFY(!history.at(*rack, 0).present());
        QCOMPARE(history.at(*rack, 1), (OccupancySample{4, 0, 8}));
        QVERIFY(history.record(cluster.index, 20'000));
        QCOMPARE(history.at(*rack, 2), (OccupancySample{4, 0, 8}));
    }

    void extraSeriesAreCapped() {
        Cluster cluster;
        OccupancyHistoryOptions options = small(100);
        options.trackedLevels = 1;
        options.maxExtraSeries = 2;
        OccupancyHistory history(options);
        QVERIFY(history.record(cluster.index, 0));
        QVERIFY(history.track(cluster.index, cluster.find({"b1", "r1"})));
        QVERIFY(history.track(cluster.index, cluster.find({"b1", "r2"})));
        QVERIFY(history.track(cluster.index, cluster.find({"b1", "r1"}))); // selected again: the newest
        QVERIFY(history.track(cluster.index, cluster.find({"b2", "r3"})));
        QVERIFY(history.find("b1/r1"));
        QVERIFY(!history.find("b1/r2"));
        QVERIFY(history.find("b2/r3"));
        QCOMPARE(history.seriesCount(), 5u);
    }

    void domainsComeAndGo() {
        Cluster cluster;
        OccupancyHistory history(small(4));
        QVERIFY(history.record(cluster.index, 0));
        QVERIFY(history.find("b2/r4"));

        // A relabel moves n4 to a new block b3: b2/r4 goes away, b3 and b3/r4 appear.
        cluster.apply(NodeUpserted{makeNode("n4", "b3", "r4", 8)});
        QVERIFY(!history.record(cluster.index, 5'000)); // within the first interval
        const OccupancyHistory::Series* gone = history.find("b2/r4");
        QVERIFY(gone);
        QVERIFY(!history.at(*gone, 0).present()); // the running point says it is gone
        QVERIFY(history.record(cluster.index, 10'000));
        const OccupancyHistory::Series* b3 = history.find("b3");
        QVERIFY(b3);
        QCOMPARE(b3->first, 0u);
        QCOMPARE(history.at(*b3, 1), (OccupancySample{0, 0, 8}));
        QCOMPARE(history.at(*history.find("b2"), 1), (OccupancySample{0, 0, 8}));

        // Back again: the same series continues, with a gap where it was away.
        cluster.apply(NodeUpserted{makeNode("n4", "b2", "r4", 8)});
        QVERIFY(history.record(cluster.index, 20'000));
        gone = history.find("b2/r4");
        QVERIFY(!history.at(*gone, 1).present());
        QVERIFY(history.at(*gone, 2).present());

        // b3 left at 20 s; once its last present point leaves the window it is dropped.
        QVERIFY(history.find("b3"));
        for (int i = 3; i <= 5; ++i) QVERIFY(history.record(cluster.index, i * 10'000));
        QCOMPARE(history.firstSequence(), 2u);
        QVERIFY(!history.find("b3"));
        QVERIFY(!history.find("b3/r4"));
        QVERIFY(history.find("b2/r4"));
    }

    void dayAtFullSizeFitsTheBudget() {
        // scale:65536: the cluster, 4 cores, 32 spines, plus the most selected racks allowed.
        const testing::LoadedDemo demo = testing::loadDemo("scale:65536");
        const TopologyIndex& index = demo.index;
        OccupancyHistory history;
        QCOMPARE(history.options().capacity, 8640u);
        QVERIFY(history.record(index, 0));
        QCOMPARE(history.seriesCount(), 37u);
        std::size_t tracked = 0;
        for (DomainId id = 1; id < index.domainSlots() && tracked < 40; ++id)
            if (index.domain(id).alive && index.domain(id).level == 3) tracked += history.track(index, id) ? 1 : 0;
        QCOMPARE(history.seriesCount(), 37u + history.options().maxExtraSeries);
        // The rings are allocated in full, so this is the size after 24 hours too.
        const std::size_t bytes = history.memoryBytes();
        qInfo("history of %zu series: %.1f MB", history.seriesCount(), double(bytes) / 1e6);
        QVERIFY(bytes <= 64u * 1024 * 1024);
        QVERIFY(bytes >= history.seriesCount() * 8640 * sizeof(OccupancySample));
        QCOMPARE(history.at(*history.cluster(), 0).total, std::uint32_t(index.root().totals.gpusTotal));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestOccupancyHistory)
#include "test_occupancy_history.moc"
