// Change plans and exports at the largest demo, scale:65536 (issue: change plans):
//  - BM_RelabelPlan: a label operation over every node resolved into a plan (each node's
//    precondition read), as `topodeckctl label` does;
//  - BM_RelabelGenerate: `topodeckctl relabel` of every node onto new keys, the old ones removed:
//    the operations, the plan they resolve into, and the check that the new labels, read as
//    levels, give the same tree;
//  - BM_RelabelPreview: the preview of a relabel that moves every node to a renamed rack: the
//    topology diff (domains, moves, capacity), drift against the cluster, and the preview text;
//  - BM_ExportAll: every export format: Kueue and KAI Topology, HyperNodes, topology.conf,
//    topology.yaml, and the node labels as partial Nodes and kubectl lines;
//  - BM_ReviewBundle: `export bundle` of that relabel with a gang: the preview, the labels, every
//    hierarchy form after it, the gang's dry-run under every engine before and after, its
//    manifests, two maps and the README (in memory: the disk is not what is measured).
//  - BM_HyperNodesPlan: `topodeckctl objects hypernodes --prune`: the HyperNodes of the label
//    hierarchy (one per domain) as object changes, and their preview: the plan made on a copy of
//    the cluster, each object's diff, the CRD rules and the tree they make;
//  - BM_HyperNodeMovePreview: one node moved between two racks' HyperNodes on a cluster whose
//    hierarchy is that HyperNode tree: the tree read again and the topology diff;
//  - BM_SlinkyPlan: `topodeckctl slinky`: every node's annotation from the tree and the blocks.
// Figures go in the README and the closing note.
#include "bench_cluster.h"

#include "core/changes/change_plan.h"
#include "core/changes/object_plan.h"
#include "core/changes/plan_preview.h"
#include "core/changes/relabel_plan.h"
#include "core/changes/slinky_plan.h"
#include "core/changes/topology_diff.h"
#include "core/exports/topology_exports.h"
#include "core/placement/reports/review_bundle.h"
#include "core/topology/hierarchy_sources.h"

#include <benchmark/benchmark.h>

using namespace topodeck;

namespace {

const bench::LoadedDemo& scale() {
    static const bench::LoadedDemo loaded = bench::loadDemo("scale:65536");
    return loaded;
}

// Every node's lowest-level label gets "-b" appended: every rack renamed, every node moved.
ChangePlan renameEveryRack(const bench::LoadedDemo& demo) {
    ChangePlan plan;
    plan.name = "rename-racks";
    const std::string& key = demo.index.spec().levels.back().nodeLabel;
    for (NodeId id = 0; id < demo.state.nodeSlots(); ++id) {
        const NodeRecord& record = demo.state.record(id);
        if (!record.present) continue;
        if (const std::string* value = record.node->label(key))
            plan.labelChanges.push_back({record.node->name, key, *value, *value + "-b"});
    }
    std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
    return plan;
}

void BM_RelabelPlan(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    const std::string& key = demo.index.spec().levels.front().nodeLabel;
    for (auto _ : state) {
        ChangePlan plan;
        LabelOperation operation{{{}, key, {}}, {{"example.com/pool", std::string("a")}}};
        if (!addLabelOperation(plan, demo.state, demo.index, operation)) state.SkipWithError("not planned");
        benchmark::DoNotOptimize(plan);
    }
}

void BM_RelabelGenerate(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    RelabelRequest request;
    for (const TopologyLevel& level : demo.index.spec().levels) {
        request.keys.push_back("example.com/" + level.name);
        request.remove.push_back(level.nodeLabel);
    }
    std::size_t changes = 0;
    for (auto _ : state) {
        auto operations = relabelOperations(demo.state, demo.index, request);
        if (!operations) {
            state.SkipWithError(operations.error().message.c_str());
            return;
        }
        ChangePlan plan;
        if (!addLabelOperations(plan, demo.state, demo.index, std::move(*operations))) state.SkipWithError("not planned");
        if (!relabelMismatches(withPlanApplied(demo.state, plan), demo.index, request).empty()) state.SkipWithError("not faithful");
        changes = plan.labelChanges.size();
    }
    state.counters["changes"] = double(changes);
}

void BM_RelabelPreview(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    const ChangePlan plan = renameEveryRack(demo);
    std::size_t size = 0;
    for (auto _ : state) {
        const TopologyDiff diff = diffPlanTopology(demo.state, demo.index, plan);
        const std::vector<std::string> drift = planDrift(demo.state, plan);
        size = planPreviewText(plan, diff, drift, {}).size();
        benchmark::DoNotOptimize(size);
    }
    state.counters["changes"] = double(plan.labelChanges.size());
    state.counters["preview_KiB"] = double(size) / 1024.0;
}

void BM_ExportAll(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    TopologyExportOptions options;
    options.kueue.flavorLabels = {{"nvidia.com/gpu.present", "true"}};
    std::size_t bytes = 0;
    for (auto _ : state) {
        TopologyExportFiles exports = topologyExportFiles(demo.state, demo.index, options);
        if (!exports.leftOut.empty()) state.SkipWithError(exports.leftOut.front().c_str());
        const NodeLabelsExport labels = nodeLabelsExport(demo.state, demo.index);
        bytes = labels.objects.size() + labels.kubectlLines.size();
        for (const ExportFile& file : exports.files) bytes += file.text.size();
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["MiB"] = double(bytes) / (1024.0 * 1024.0);
}

void BM_ReviewBundle(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    const ChangePlan plan = renameEveryRack(demo);
    Result<PlanQuery> gang = parsePlanQuery("--pods 64 --request nvidia.com/gpu=4 --required " +
                                            demo.index.spec().levels.front().name);
    if (!gang) return state.SkipWithError(gang.error().message.c_str());
    ReviewBundleRequest request;
    request.source = "demo scale:65536";
    request.plan = &plan;
    request.dryRun = &*gang;
    request.gpus = demo.index.gpuResources();
    std::size_t bytes = 0, files = 0;
    for (auto _ : state) {
        auto bundle = reviewBundle(demo.state, demo.index, request);
        if (!bundle) return state.SkipWithError(bundle.error().message.c_str());
        bytes = 0;
        for (const ExportFile& file : bundle->files) bytes += file.text.size();
        files = bundle->files.size();
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["MiB"] = double(bytes) / (1024.0 * 1024.0);
    state.counters["files"] = double(files);
}

} // namespace

void BM_HyperNodesPlan(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    ObjectPlanRequest request;
    request.format = "hypernodes";
    request.prune = true;
    std::size_t changes = 0;
    for (auto _ : state) {
        ChangePlan plan;
        plan.objectChanges = *objectPlanChanges(demo.state, demo.index, request);
        const TopologyDiff diff = diffPlanTopology(demo.state, demo.index, plan);
        const std::string text = planPreviewText(plan, diff, planDrift(demo.state, plan));
        changes = plan.objectChanges.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["objects"] = double(changes);
}

void BM_HyperNodeMovePreview(benchmark::State& state) {
    // The cluster with its HyperNodes made, read through them.
    static const auto cluster = [] {
        const bench::LoadedDemo& demo = scale();
        ObjectPlanRequest request;
        request.format = "hypernodes";
        ChangePlan made;
        made.objectChanges = *objectPlanChanges(demo.state, demo.index, request);
        auto withTree = std::make_shared<ClusterState>(withPlanApplied(demo.state, made));
        const TopologySpec spec = **hyperNodeHierarchy(*withTree);
        return std::pair{withTree, std::make_shared<TopologyIndex>(TopologyIndex::build(*withTree, spec))};
    }();
    const ClusterState& tree = *cluster.first;
    // The first rack's first node goes to the second rack.
    std::vector<const HyperNode*> racks;
    for (const auto& [name, hyperNode] : tree.hyperNodes())
        if (hyperNode.tier == 1 && racks.size() < 2) racks.push_back(&hyperNode);
    HyperNode from = *racks[0], to = *racks[1];
    to.members.push_back(from.members.front());
    from.members.erase(from.members.begin());
    ChangePlan plan;
    plan.objectChanges = {*objectChangeTo(tree, ObjectKind::HyperNode, from.name, from),
                          *objectChangeTo(tree, ObjectKind::HyperNode, to.name, to)};
    std::size_t moved = 0;
    for (auto _ : state) {
        const TopologyDiff diff = diffPlanTopology(tree, *cluster.second, plan);
        moved = diff.moved.size();
        benchmark::DoNotOptimize(moved);
    }
    state.counters["moved"] = double(moved);
}

void BM_SlinkyPlan(benchmark::State& state) {
    const bench::LoadedDemo& demo = scale();
    const SlinkyRequest request{"topo-tree", "topo-block", false};
    std::size_t changes = 0;
    for (auto _ : state) {
        changes = slinkyAnnotationChanges(demo.state, demo.index, request)->size();
        benchmark::DoNotOptimize(changes);
    }
    state.counters["annotations"] = double(changes);
}

BENCHMARK(BM_RelabelPlan)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RelabelGenerate)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_RelabelPreview)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportAll)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReviewBundle)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HyperNodesPlan)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HyperNodeMovePreview)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SlinkyPlan)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
