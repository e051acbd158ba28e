// The gangs report on scale:65536 (65,536 nodes, 4 network layers, ~14,000 running GPU gangs,
// ~485,000 pods): group the pods, then spans and least per level. Target: <= 100 ms.
#include "core/placement/reports/gangs_report.h"

#include "bench_cluster.h"

#include <benchmark/benchmark.h>

using namespace topodeck;

namespace {

const bench::LoadedDemo& bigCluster() {
    static const bench::LoadedDemo cluster = bench::loadDemo("scale:65536");
    return cluster;
}

void BM_GangsReportScale65536(benchmark::State& st) {
    const bench::LoadedDemo& c = bigCluster();
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
