// The filter bar's label selector on scale:65536 (65,536 nodes, 4 network layers): parse it, then
// the per-node mask and the matches per domain that the tree and the map read. Target: the filter
// applied in <= 50 ms; the mask alone <= 5 ms, so that it can follow every snapshot on the GUI
// thread.
#include "core/topology/label_selector.h"

#include "bench_cluster.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <stdexcept>

using namespace topodeck;

namespace {

struct BigCluster : bench::LoadedDemo {
    std::vector<std::shared_ptr<const Node>> nodesById; // as a snapshot holds them
};

const BigCluster& bigCluster() {
    static const BigCluster* cluster = [] {
        auto* c = new BigCluster{bench::loadDemo("scale:65536"), {}};
        c->nodesById.resize(c->state.nodeSlots());
        for (NodeId id = 0; id < c->state.nodeSlots(); ++id)
            if (c->state.record(id).present) c->nodesById[id] = c->state.record(id).node;
        return c;
    }();
    return *cluster;
}

// One level's value set, an inequality, and a key the nodes lack (so every search misses).
constexpr const char* kSelector = "topology.k8s.aws/network-node-layer-3 in (agg-001, agg-017, agg-042, agg-100), "
                                  "node.kubernetes.io/instance-type!=p4d.24xlarge, !node.kubernetes.io/unschedulable";

LabelSelector selector() {
    auto parsed = LabelSelector::parse(kSelector);
    if (!parsed) throw std::runtime_error(parsed.error().message);
    return *parsed;
}

void BM_ParseSelector(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(LabelSelector::parse(kSelector));
}
BENCHMARK(BM_ParseSelector)->Unit(benchmark::kMicrosecond);

// What the window runs per snapshot: level keys judged per domain, the rest on the nodes left.
void BM_MaskScale65536(benchmark::State& st) {
    const BigCluster& c = bigCluster();
    const LabelSelector s = selector();
    std::size_t matched = 0;
    for (auto _ : st) {
        NodeMask mask = matchNodes(s, c.nodesById, c.index);
        matched = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
        benchmark::DoNotOptimize(mask);
    }
    st.counters["matched"] = static_cast<double>(matched);
}
BENCHMARK(BM_MaskScale65536)->Unit(benchmark::kMillisecond);

// The same selector with every key read from every node's labels (no index).
void BM_MaskScale65536EveryNode(benchmark::State& st) {
    const BigCluster& c = bigCluster();
    const LabelSelector s = selector();
    for (auto _ : st) benchmark::DoNotOptimize(matchNodes(s, c.nodesById));
}
BENCHMARK(BM_MaskScale65536EveryNode)->Unit(benchmark::kMillisecond);

// The worst case for the index: one key it knows nothing of, looked up on all 65,536 nodes.
void BM_MaskScale65536OtherKey(benchmark::State& st) {
    const BigCluster& c = bigCluster();
    auto s = LabelSelector::parse("node.kubernetes.io/instance-type=p5.48xlarge");
    if (!s) throw std::runtime_error(s.error().message);
    std::size_t matched = 0;
    for (auto _ : st) {
        NodeMask mask = matchNodes(*s, c.nodesById, c.index);
        matched = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
        benchmark::DoNotOptimize(mask);
    }
    st.counters["matched"] = static_cast<double>(matched);
}
BENCHMARK(BM_MaskScale65536OtherKey)->Unit(benchmark::kMillisecond);

// Parse, mask and the counts per domain: what applying a filter costs before the views redraw.
void BM_FilterAppliedScale65536(benchmark::State& st) {
    const BigCluster& c = bigCluster();
    for (auto _ : st) {
        const LabelSelector s = selector();
        NodeMask mask = matchNodes(s, c.nodesById, c.index);
        std::vector<std::uint32_t> perDomain = matchesPerDomain(c.index, mask);
        benchmark::DoNotOptimize(perDomain);
    }
}
BENCHMARK(BM_FilterAppliedScale65536)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
