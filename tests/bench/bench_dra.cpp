// DRA figures of issue 27 on `scale:65536-dra`: the scale demo with its GPUs published by NVIDIA's
// driver (gpu.nvidia.com) in one ResourceSlice per node, 8 devices each (65,536 slices, 524,288
// devices; the scale demo publishes no MIG devices) and every GPU pod's devices in a ResourceClaim
// of its own.
//  - BM_DraIndexBuild65536: the DRA objects (65,536 slices, the claims, the classes) applied to
//    the ClusterState holding the nodes and pods, then the TopologyIndex built (target <= 300 ms);
//    /whole-cluster: every event from an empty state, and /device-plugin: the same for the
//    cluster counted the device-plugin way, for reference; the counters split the time into the
//    nodes and pods, the DRA objects and the index;
//  - BM_DraClaimAllocateFree: one 8-device claim allocated then freed on a free node
//    (ClusterState::apply + TopologyIndex::apply each; ns_per_event is the figure, target <= 5 us);
//  - BM_DraDryRun/<engine>: 64 pods x 8 GPUs (and 180 cpus, 1800Gi) through a claim template
//    with a productName selector, preferring one agg domain, placeGang on the 65,536 nodes
//    (target <= 50 ms each);
//  - BM_ReadJsonList: the DRA cluster and the device-plugin cluster written as kubectl-style JSON
//    Lists, each read (readSnapshotText) and applied to a state, alternately in each iteration;
//    the counters dra_ms and device_plugin_ms are the two sides (CPU time) and `ratio` the figure
//    (<= 1.5).
#include "core/demo/demo_cluster.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "core/placement/engines/dra_placement.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/requests/gang_flags.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "support/demo_loader.h"

#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

using namespace topodeck;

namespace {

constexpr const char* kDraDemo = "scale:65536-dra";
constexpr const char* kPluginDemo = "scale:65536";
constexpr const char* kProductSelector =
    R"(device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3")";

double peakRssMegabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

DemoCluster makeDemo(const char* name) {
    Result<DemoCluster> demo = makeDemoCluster(name);
    if (!demo) throw std::runtime_error(demo.error().message);
    return std::move(*demo);
}

// The DRA demo as the dry-run and claim benchmarks read it: loaded once, indexed with hostnames
// as the lowest level (as bench_placement does).
struct DraCluster {
    testing::LoadedDemo loaded;
    TopologyIndex placementIndex;
    std::unique_ptr<PlacementCluster> cluster;
};

DraCluster& draCluster() {
    static DraCluster* cluster = [] {
        auto* c = new DraCluster{testing::loadDemo(kDraDemo), {}, {}};
        c->placementIndex =
            TopologyIndex::build(c->loaded.state, withHostnameLevel(c->loaded.demo.topology, c->loaded.state));
        c->cluster = std::make_unique<PlacementCluster>(c->loaded.state, c->placementIndex);
        return c;
    }();
    return *cluster;
}

void setDeviceCounters(benchmark::State& bench, const ClusterState& state) {
    std::size_t devices = 0;
    std::size_t slices = 0;
    for (const auto& [name, published] : state.devices().slices()) {
        ++slices;
        devices += published.slice->devices.size();
    }
    bench.counters["slices"] = static_cast<double>(slices);
    bench.counters["devices"] = static_cast<double>(devices);
    bench.counters["claims"] = static_cast<double>(state.devices().claims().size());
    bench.counters["pods"] = static_cast<double>(state.podCount());
}

bool isDraEvent(const ClusterEvent& event) {
    return std::holds_alternative<ResourceSliceUpserted>(event) ||
           std::holds_alternative<ResourceClaimUpserted>(event) || std::holds_alternative<DeviceClassUpserted>(event) ||
           std::holds_alternative<ResourceClaimTemplateUpserted>(event);
}

// This thread's CPU time in milliseconds: on a machine shared with other builds the wall time of
// a phase says more about the neighbours than about the code.
double cpuMillis() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// The demo's events applied to a state, then the index of its hierarchy built. `wholeCluster`:
// every event from an empty state is timed; otherwise the nodes and pods are applied untimed
// first and the DRA objects (classes, slices, claims, in the demo's order: the same state as its
// interleaved order gives) and the index are timed, which is what DRA adds to building the
// index. The copies of the events the state takes, and the state's destruction, are outside the
// timing. Counters: nodes_pods_ms, dra_ms and index_ms, CPU time, means.
void indexBuild(benchmark::State& bench, const char* demoName, bool wholeCluster) {
    const DemoCluster demo = makeDemo(demoName);
    double nodesAndPodsMs = 0;
    double draMs = 0;
    double indexMs = 0;
    for (auto _ : bench) {
        bench.PauseTiming();
        std::vector<ClusterEvent> events;
        std::vector<ClusterEvent> draEvents;
        // Copied kind by kind, so that the nodes and pods lie in memory as in the device-plugin
        // cluster's copy rather than between the slices and claims.
        for (const ClusterEvent& event : demo.events)
            if (!isDraEvent(event)) events.push_back(event);
        for (const ClusterEvent& event : demo.events)
            if (isDraEvent(event)) draEvents.push_back(event);
        auto state = std::make_unique<ClusterState>();
        if (wholeCluster) bench.ResumeTiming();
        double start = cpuMillis();
        for (ClusterEvent& event : events) (void)state->apply(std::move(event));
        nodesAndPodsMs += cpuMillis() - start;
        if (!wholeCluster) bench.ResumeTiming();
        start = cpuMillis();
        for (ClusterEvent& event : draEvents) (void)state->apply(std::move(event));
        draMs += cpuMillis() - start;
        start = cpuMillis();
        TopologyIndex index = TopologyIndex::build(*state, demo.topology);
        benchmark::DoNotOptimize(index.root().totals.gpusUsed);
        indexMs += cpuMillis() - start;
        bench.PauseTiming();
        setDeviceCounters(bench, *state);
        bench.counters["gpus"] = static_cast<double>(index.root().totals.gpusTotal);
        bench.counters["gpus_used"] = static_cast<double>(index.root().totals.gpusUsed);
        events.clear();
        draEvents.clear();
        state.reset();
        bench.ResumeTiming();
    }
    const auto n = static_cast<double>(bench.iterations());
    bench.counters["nodes_pods_ms"] = nodesAndPodsMs / n;
    bench.counters["dra_ms"] = draMs / n;
    bench.counters["index_ms"] = indexMs / n;
    bench.counters["peak_rss_MB"] = peakRssMegabytes();
}

// The figure: the DRA objects applied and the index built, on a state holding the nodes and pods.
void BM_DraIndexBuild65536(benchmark::State& bench) {
    indexBuild(bench, kDraDemo, false);
}
BENCHMARK(BM_DraIndexBuild65536)->Unit(benchmark::kMillisecond)->Iterations(3);

// The whole cluster from nothing, the same cluster with device-plugin GPUs beside it.
void BM_DraIndexBuild65536_WholeCluster(benchmark::State& bench) {
    indexBuild(bench, kDraDemo, true);
}
BENCHMARK(BM_DraIndexBuild65536_WholeCluster)
    ->Name("BM_DraIndexBuild65536/whole-cluster")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_DraIndexBuild65536_DevicePlugin(benchmark::State& bench) {
    indexBuild(bench, kPluginDemo, true);
}
BENCHMARK(BM_DraIndexBuild65536_DevicePlugin)
    ->Name("BM_DraIndexBuild65536/device-plugin")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// An 8-device claim allocated on a node whose devices are all free, then deleted: two events,
// each applied to the state and then to the index, cycling over the free nodes.
void BM_DraClaimAllocateFree(benchmark::State& bench) {
    DraCluster& dra = draCluster();
    ClusterState& state = dra.loaded.state;
    TopologyIndex& index = dra.loaded.index;
    std::vector<NodeId> freeNodes;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeDevices& devices = state.devices().node(id);
        if (state.record(id).present && devices.devices == 8 && devices.allocatedDevices == 0) freeNodes.push_back(id);
    }
    if (freeNodes.empty()) {
        bench.SkipWithError("no node with 8 free devices");
        return;
    }
    ResourceClaim claim;
    claim.nameSpace = "bench";
    claim.name = "probe-gpus";
    claim.podClaimName = "gpus";
    claim.spec.requests = {{"gpus", DeviceSubRequest{"", "gpu.nvidia.com", {}, {}, 8, false}, {}}};
    claim.allocated = true;
    claim.reservedFor = {{"pods", "probe", ""}};
    std::size_t cursor = 0;
    const std::int64_t usedBefore = index.root().totals.gpusUsed;
    for (auto _ : bench) {
        const std::string& node = state.record(freeNodes[cursor++ % freeNodes.size()]).node->name;
        ResourceClaim allocated = claim;
        allocated.devices.clear();
        for (int d = 0; d < 8; ++d)
            allocated.devices.push_back({"gpus", "gpu.nvidia.com", node, "gpu-" + std::to_string(d)});
        index.apply(state, state.apply(ResourceClaimUpserted{std::move(allocated)}));
        index.apply(state, state.apply(ResourceClaimDeleted{claim.nameSpace, claim.name}));
    }
    if (index.root().totals.gpusUsed != usedBefore) bench.SkipWithError("the claim's GPUs were not given back");
    bench.SetItemsProcessed(bench.iterations() * 2);
    bench.counters["ns_per_event"] = benchmark::Counter(static_cast<double>(bench.iterations() * 2),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DraClaimAllocateFree);

// 64 pods x 8 GPUs of NVIDIA's gpu.nvidia.com class with a productName selector, through a claim
// template per pod, preferring one `agg` domain.
GangRequest draGang(const TopologyIndex& index) {
    const TopologySpec& spec = index.spec();
    GangFlags flags;
    flags.pods = 64;
    // Most of the node besides its GPUs, as the demo's own 8-GPU pods ask: one pod a node.
    flags.perPod.set("cpu", Quantity::fromUnits(180));
    flags.perPod.set("memory", Quantity::fromUnits(1800LL << 30, Quantity::Format::BinarySI));
    flags.preferred = spec.levels[spec.levels.size() - 3].nodeLabel; // hostname, rack, agg
    Result<GangRequest> gang = gangFromFlags(flags);
    if (!gang) throw std::runtime_error(gang.error().message);
    gang->name = "trainer";
    gang->nameSpace = "bench";
    ResourceClaimSpec spec8;
    DeviceSubRequest gpus;
    gpus.deviceClassName = "gpu.nvidia.com";
    gpus.count = 8;
    gpus.selectors = {kProductSelector};
    spec8.requests = {{"gpus", gpus, {}}};
    gang->claims.push_back(GangClaim{"gpus", "eight-h100", "", spec8});
    return *gang;
}

void dryRun(benchmark::State& bench, const PlacementEngine& engine) {
    DraCluster& dra = draCluster();
    const GangRequest gang = draGang(dra.placementIndex);
    bool feasible = false;
    std::size_t nodes = 0;
    for (auto _ : bench) {
        PlacementResult result = placeGang(engine, *dra.cluster, gang, EngineOptions{});
        feasible = result.feasible;
        nodes = result.nodes.size();
        benchmark::DoNotOptimize(result);
    }
    bench.counters["feasible"] = feasible ? 1 : 0;
    bench.counters["result_nodes"] = static_cast<double>(nodes);
    bench.counters["nodes"] = static_cast<double>(dra.loaded.state.presentNodeCount());
}

void registerDryRuns() {
    for (const PlacementEngine* engine : placementEngines()) {
        const std::string name(engine->name());
        if (name != "kueue-tas" && name != "volcano" && name != "kai") continue;
        benchmark::RegisterBenchmark(("BM_DraDryRun/" + name).c_str(), [engine](benchmark::State& s) {
            dryRun(s, *engine);
        })->Unit(benchmark::kMillisecond);
    }
}

// One side of the read: the List's text parsed and applied to a new state; CPU milliseconds.
// What the read made is freed afterwards and malloc's free lists are consolidated then
// (malloc_trim), outside the time: a read in a fresh process (topodeckctl show -f) does not pay
// for the previous iteration's garbage, which glibc would otherwise sort through at this read's
// first large allocation.
double readAndApply(const std::string& text, benchmark::State& bench) {
    double millis = 0;
    {
        const double start = cpuMillis();
        auto state = std::make_unique<ClusterState>();
        Result<Snapshot> snapshot = readSnapshotText(text, "cluster.json");
        if (!snapshot) {
            bench.SkipWithError(snapshot.error().message.c_str());
            return 0;
        }
        std::move(*snapshot).applyTo(*state);
        millis = cpuMillis() - start;
        benchmark::DoNotOptimize(state->podCount());
    }
    malloc_trim(0);
    return millis;
}

// Both Lists read in every iteration, one after the other (which goes first alternates), so that
// the machine's load falls on both alike. The benchmark's own time is the sum; the counters are
// each side's mean and their ratio.
void BM_ReadJsonList(benchmark::State& bench) {
    std::string draText;
    std::string pluginText;
    {
        const testing::LoadedDemo dra = testing::loadDemo(kDraDemo);
        draText = writeSnapshotJson(dra.state);
    }
    {
        const testing::LoadedDemo plugin = testing::loadDemo(kPluginDemo);
        pluginText = writeSnapshotJson(plugin.state);
    }
    double draMs = 0;
    double pluginMs = 0;
    std::int64_t round = 0;
    for (auto _ : bench) {
        if (round++ % 2 == 0) {
            draMs += readAndApply(draText, bench);
            pluginMs += readAndApply(pluginText, bench);
        } else {
            pluginMs += readAndApply(pluginText, bench);
            draMs += readAndApply(draText, bench);
        }
    }
    const auto n = static_cast<double>(bench.iterations());
    bench.counters["dra_ms"] = draMs / n;
    bench.counters["device_plugin_ms"] = pluginMs / n;
    bench.counters["ratio"] = pluginMs > 0 ? draMs / pluginMs : 0;
    bench.counters["dra_MB"] = static_cast<double>(draText.size()) / 1e6;
    bench.counters["device_plugin_MB"] = static_cast<double>(pluginText.size()) / 1e6;
    bench.counters["peak_rss_MB"] = peakRssMegabytes();
}
BENCHMARK(BM_ReadJsonList)->Unit(benchmark::kMillisecond)->Iterations(4);

} // namespace

int main(int argc, char** argv) {
    registerDryRuns();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
