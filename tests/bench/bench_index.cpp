// Index and `show` figures for the foundation issue: build for scale:65536 with ~500k pods, one pod
// event, and `show -o json` end to end on a 65,536-node snapshot file. Peak memory is reported as
// the process's maximum resident set (counter "peak_rss_MB").
#include "core/demo/demo_cluster.h"
#include "core/exports/show_report.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "support/demo_loader.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

using namespace topodeck;

namespace {

double peakRssMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

struct BigCluster {
    DemoCluster demo;
    ClusterState state;
};

const BigCluster& bigCluster() {
    static const BigCluster cluster = [] {
        testing::LoadedDemo loaded = testing::loadDemo("scale:65536");
        return BigCluster{std::move(loaded.demo), std::move(loaded.state)};
    }();
    return cluster;
}

void BM_IndexBuild_65536Nodes(benchmark::State& bench) {
    const BigCluster& cluster = bigCluster();
    for (auto _ : bench) {
        TopologyIndex index = TopologyIndex::build(cluster.state, cluster.demo.topology);
        benchmark::DoNotOptimize(index.root().totals.gpusUsed);
    }
    bench.counters["nodes"] = static_cast<double>(cluster.state.presentNodeCount());
    bench.counters["pods"] = static_cast<double>(cluster.state.podCount());
    bench.counters["peak_rss_MB"] = peakRssMegabytes();
}
BENCHMARK(BM_IndexBuild_65536Nodes)->Unit(benchmark::kMillisecond);

// One pod added then removed: ClusterState::apply + TopologyIndex::apply, twice per iteration.
void BM_PodEvent(benchmark::State& bench) {
    ClusterState state = bigCluster().state;
    TopologyIndex index = TopologyIndex::build(state, bigCluster().demo.topology);
    Pod pod;
    pod.nameSpace = "bench";
    pod.name = "probe";
    pod.phase = PodPhase::Running;
    pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(1));
    pod.requests.set("cpu", Quantity::fromMillis(4000));
    std::size_t nodeCursor = 0;
    for (auto _ : bench) {
        pod.nodeName = state.record(static_cast<NodeId>(nodeCursor++ % state.nodeSlots())).node->name;
        index.apply(state, state.apply(PodUpserted{pod}));
        index.apply(state, state.apply(PodDeleted{pod.nameSpace, pod.name}));
    }
    bench.SetItemsProcessed(bench.iterations() * 2);
    bench.counters["ns_per_event"] = benchmark::Counter(static_cast<double>(bench.iterations() * 2),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PodEvent);

// `topodeckctl show -o json -f FILE`: read + parse the file, apply, build the index, render.
void BM_ShowJsonFromFile_65536Nodes(benchmark::State& bench) {
    const auto path = std::filesystem::temp_directory_path() / "topodeck-bench-65536.json";
    {
        std::ofstream out(path, std::ios::binary);
        out << writeSnapshotJson(bigCluster().state);
    }
    const auto fileBytes = std::filesystem::file_size(path);
    for (auto _ : bench) {
        auto snapshot = readSnapshotFile(path.string());
        if (!snapshot) {
            bench.SkipWithError(snapshot.error().message.c_str());
            break;
        }
        ClusterState state;
        std::move(*snapshot).applyTo(state);
        auto spec = resolveTopology(state, "", {});
        if (!spec) {
            bench.SkipWithError(spec.error().message.c_str());
            break;
        }
        const TopologyIndex index = TopologyIndex::build(state, *spec);
        ShowOptions options;
        options.source = path.string();
        benchmark::DoNotOptimize(renderShowJson(index, state, options).size());
    }
    std::filesystem::remove(path);
    bench.counters["file_MB"] = static_cast<double>(fileBytes) / 1e6;
    bench.counters["peak_rss_MB"] = peakRssMegabytes();
}
BENCHMARK(BM_ShowJsonFromFile_65536Nodes)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

BENCHMARK_MAIN();
