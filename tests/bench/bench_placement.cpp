// Placement figures for the gang dry-run issue: every engine on scale:65536 (65,536 nodes, 4
// network layers + hostname, ~500,000 GPUs, ~485,000 pods) for a 1,024-pod x 8-GPU gang and an
// 8-pod gang, and the capacity report on the same cluster. Targets: <= 20 ms per dry-run
// (volcano <= 100 ms), capacity <= 200 ms.
#include "core/demo/demo_cluster.h"
#include "core/model/cluster_state.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/reports/capacity_report.h"
#include "core/placement/requests/gang_flags.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "support/demo_loader.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>

using namespace topodeck;

namespace {

struct BigCluster {
    ClusterState state;
    TopologyIndex index;
    std::unique_ptr<PlacementCluster> cluster;
};

const BigCluster& bigCluster() {
    static const BigCluster* cluster = [] {
        testing::LoadedDemo demo = testing::loadDemo("scale:65536");
        auto* c = new BigCluster;
        c->state = std::move(demo.state);
        c->index = TopologyIndex::build(c->state, withHostnameLevel(demo.demo.topology, c->state));
        c->cluster = std::make_unique<PlacementCluster>(c->state, c->index);
        return c;
    }();
    return *cluster;
}

// The gang of the benchmark: `pods` x 8 GPUs, required inside one domain of the level `level`
// levels above the nodes (1 = the lowest network layer).
GangRequest gang(int pods, int levelsUp) {
    const TopologySpec& spec = bigCluster().index.spec();
    GangFlags flags;
    flags.pods = pods;
    flags.perPod.set("nvidia.com/gpu", Quantity::fromUnits(8));
    flags.preferred = spec.levels[spec.levels.size() - 1 - static_cast<std::size_t>(levelsUp)].nodeLabel;
    auto request = gangFromFlags(flags);
    if (!request) throw std::runtime_error(request.error().message);
    return *request;
}

void placeBenchmark(benchmark::State& bench, const PlacementEngine& engine, int pods, int levelsUp) {
    const BigCluster& big = bigCluster();
    const GangRequest request = gang(pods, levelsUp);
    bool feasible = false;
    for (auto _ : bench) {
        PlacementResult result = engine.place(*big.cluster, request, EngineOptions{});
        feasible = result.feasible;
        benchmark::DoNotOptimize(result);
    }
    bench.counters["feasible"] = feasible ? 1 : 0;
    bench.counters["nodes"] = static_cast<double>(big.state.presentNodeCount());
}

void registerEngines() {
    for (const PlacementEngine* engine : placementEngines()) {
        const std::string name(engine->name());
        // 1,024 pods prefer the second network layer (a few thousand nodes); 8 pods the lowest.
        benchmark::RegisterBenchmark(("BM_Place/" + name + "/1024x8gpu").c_str(), [engine](benchmark::State& s) {
            placeBenchmark(s, *engine, 1024, 2);
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_Place/" + name + "/8x8gpu").c_str(), [engine](benchmark::State& s) {
            placeBenchmark(s, *engine, 8, 1);
        })->Unit(benchmark::kMillisecond);
    }
}

void BM_CapacityReport(benchmark::State& bench) {
    const BigCluster& big = bigCluster();
    ResourceList shape;
    shape.set("nvidia.com/gpu", Quantity::fromUnits(8));
    for (auto _ : bench) {
        CapacityReport report = buildCapacityReport(*big.cluster, shape, 8);
        benchmark::DoNotOptimize(report);
    }
}
BENCHMARK(BM_CapacityReport)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    registerEngines();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
