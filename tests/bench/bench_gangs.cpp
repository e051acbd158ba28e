// The gangs report on scale:65536 (65,536 nodes, 4 network layers, ~14,000 running GPU gangs,
// ~485,000 pods): group the pods, then spans and least per level. Target: <= 100 ms.
#include "core/cluster_state.h"
#include "core/demo_cluster.h"
#include "core/placement/gangs_report.h"
#include "core/topology_index.h"

#include <benchmark/benchmark.h>

#include <stdexcept>

using namespace topodeck;

namespace {

struct BigCluster {
    ClusterState state;
    TopologyIndex index;
};

const BigCluster& bigCluster() {
    static const BigCluster* cluster = [] {
        auto demo = makeDemoCluster("scale:65536");
        if (!demo) throw std::runtime_error(demo.error().message);
        auto* c = new BigCluster;
        for (const ClusterEvent& event : demo->events) (void)c->state.apply(event);
        c->index = TopologyIndex::build(c->state, demo->topology);
        return c;
    }();
    return *cluster;
}

void BM_GangsReportScale65536(benchmark::State& st) {
    const BigCluster& c = bigCluster();
    std::size_t gangs = 0, spread = 0;
    for (auto _ : st) {
        GangsReport report = buildGangsReport(c.state, c.index);
        gangs = report.gangs.size();
        spread = report.spreadCount();
        benchmark::DoNotOptimize(report);
    }
    st.counters["gangs"] = static_cast<double>(gangs);
    st.counters["spread"] = static_cast<double>(spread);
    st.counters["pods"] = static_cast<double>(c.state.podCount());
}
BENCHMARK(BM_GangsReportScale65536)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
