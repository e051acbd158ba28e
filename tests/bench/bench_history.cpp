// Occupancy history and capacity figures for issue 14: the cost of one sample on scale:65536
// (the cluster, its 4 cores and 32 spines, and 16 selected racks), the memory of a full day at
// 10 s (8,640 points; budget 64 MB), and the per-level fragmentation and gang-slot computation.
#include "core/demo/demo_cluster.h"
#include "core/model/cluster_state.h"
#include "core/topology/level_capacity.h"
#include "core/topology/occupancy_history.h"
#include "core/topology/topology_index.h"
#include "support/demo_loader.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <stdexcept>

using namespace topodeck;

namespace {

double peakRssMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

const TopologyIndex& bigIndex() {
    static const TopologyIndex index = [] {
        return testing::loadDemo("scale:65536").index;
    }();
    return index;
}

// Tracks the most selected domains the history keeps: racks, below the levels kept anyway.
void selectRacks(OccupancyHistory& history, const TopologyIndex& index) {
    std::size_t tracked = 0;
    for (DomainId id = 1; id < index.domainSlots() && tracked < history.options().maxExtraSeries; ++id)
        if (index.domain(id).alive && index.domain(id).level == 3 && history.track(index, id)) ++tracked;
}

// One new point per iteration, the ring long full (the steady state after a day).
void BM_HistorySample_65536Nodes(benchmark::State& bench) {
    const TopologyIndex& index = bigIndex();
    OccupancyHistory history;
    std::int64_t time = 0;
    (void)history.record(index, time);
    selectRacks(history, index);
    for (std::size_t i = 0; i < history.options().capacity; ++i) (void)history.record(index, time += 10'000);
    for (auto _ : bench) benchmark::DoNotOptimize(history.record(index, time += 10'000));
    bench.counters["series"] = static_cast<double>(history.seriesCount());
}
BENCHMARK(BM_HistorySample_65536Nodes)->Unit(benchmark::kMicrosecond);

// An update of the point still running (snapshots come up to 10 times a second).
void BM_HistoryUpdateRunningPoint_65536Nodes(benchmark::State& bench) {
    const TopologyIndex& index = bigIndex();
    OccupancyHistory history;
    (void)history.record(index, 0);
    selectRacks(history, index);
    std::int64_t time = 0;
    for (auto _ : bench) benchmark::DoNotOptimize(history.record(index, (++time) % 9'000));
}
BENCHMARK(BM_HistoryUpdateRunningPoint_65536Nodes)->Unit(benchmark::kMicrosecond);

// A whole day at full size: its bytes as the history counts them, and the process's peak RSS.
void BM_HistoryFullDay_65536Nodes(benchmark::State& bench) {
    const TopologyIndex& index = bigIndex();
    const double rssBefore = peakRssMegabytes();
    std::size_t bytes = 0;
    std::size_t series = 0;
    for (auto _ : bench) {
        OccupancyHistory history;
        (void)history.record(index, 0);
        selectRacks(history, index);
        for (std::int64_t i = 1; i < std::int64_t(history.options().capacity); ++i) (void)history.record(index, i * 10'000);
        bytes = history.memoryBytes();
        series = history.seriesCount();
        benchmark::DoNotOptimize(history.size());
    }
    bench.counters["series"] = static_cast<double>(series);
    bench.counters["history_MB"] = static_cast<double>(bytes) / (1024.0 * 1024.0);
    bench.counters["peak_rss_growth_MB"] = peakRssMegabytes() - rssBefore;
}
BENCHMARK(BM_HistoryFullDay_65536Nodes)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_LevelCapacity_65536Nodes(benchmark::State& bench) {
    const TopologyIndex& index = bigIndex();
    for (auto _ : bench) {
        std::vector<LevelCapacity> rows = levelCapacity(index);
        benchmark::DoNotOptimize(rows.data());
    }
}
BENCHMARK(BM_LevelCapacity_65536Nodes)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
