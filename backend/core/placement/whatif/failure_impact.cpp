#include "core/placement/whatif/failure_impact.h"

#include "core/placement/engines/dra_placement.h"
#include "core/placement/engines/what_if.h"
#include "core/placement/reports/gangs_report.h"
#include "core/placement/reports/plan_query.h"
#include "core/slurm/slurm_topology.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

namespace topodeck {
namespace {

// A running gang's GPU pods, as the failure finds them.
struct RunningPod {
    NodeId node = 0;
    const Pod* pod = nullptr;
    bool lost = false;
};

std::string_view kueueAnnotation(PodTopologyRequest::Mode mode) {
    switch (mode) {
    case PodTopologyRequest::Mode::Required:
        return "kueue.x-k8s.io/podset-required-topology";
    case PodTopologyRequest::Mode::Preferred:
        return "kueue.x-k8s.io/podset-preferred-topology";
    case PodTopologyRequest::Mode::Unconstrained:
        return "kueue.x-k8s.io/podset-unconstrained-topology";
    case PodTopologyRequest::Mode::None:
        break;
    }
    return {};
}

KueueConstraint kueueConstraintOf(const PodTopologyRequest& topology) {
    KueueConstraint constraint;
    switch (topology.mode) {
    case PodTopologyRequest::Mode::None:
        break;
    case PodTopologyRequest::Mode::Required:
        constraint.mode = KueueConstraint::Mode::Required;
        break;
    case PodTopologyRequest::Mode::Preferred:
        constraint.mode = KueueConstraint::Mode::Preferred;
        break;
    case PodTopologyRequest::Mode::Unconstrained:
        constraint.mode = KueueConstraint::Mode::Unconstrained;
        break;
    }
    constraint.level = topology.level;
    return constraint;
}

std::int64_t wholeUnits(const ResourceList& list, std::string_view resource) {
    const Quantity amount = list.get(resource);
    return amount.nanos() / 1'000'000'000;
}

// The request the gang's pods make: one shape, or a part per distinct shape (in the order first
// met), each under the constraint its pods carry. A Slurm job asks for its nodes as sbatch would.
GangRequest requestFor(const Gang& gang, const std::vector<RunningPod>& pods, const GpuResources& gpus) {
    GangRequest request;
    request.name = gang.name;
    request.nameSpace = gang.nameSpace;
    request.source = "running " +
                     std::string(workloadKindName(gang.kind).empty() ? "gang" : workloadKindName(gang.kind)) + " " +
                     gang.qualifiedName();
    request.pods = static_cast<std::int32_t>(pods.size());
    const Pod& first = *pods.front().pod;
    request.perPod = first.requests;
    request.kueue = kueueConstraintOf(first.topology);

    std::vector<GangPart> parts;
    for (const RunningPod& running : pods) {
        const auto part = std::find_if(parts.begin(), parts.end(),
                                       [&](const GangPart& p) { return p.perPod == running.pod->requests; });
        if (part != parts.end()) {
            ++part->pods;
            continue;
        }
        GangPart added;
        added.name = "shape-" + std::to_string(parts.size() + 1);
        added.pods = 1;
        added.perPod = running.pod->requests;
        added.kueue = kueueConstraintOf(running.pod->topology);
        parts.push_back(std::move(added));
    }
    if (parts.size() > 1) request.parts = std::move(parts);

    if (gang.kind == WorkloadKind::SlurmJob) {
        // One pod per node it holds: -N <nodes> with each node's GPUs, CPUs and memory.
        SlurmRequest slurm;
        slurm.minNodes = slurm.maxNodes = request.pods;
        slurm.nodeCountGiven = true;
        slurm.gpusPerNode = static_cast<std::int32_t>(gpus.count(first.requests));
        slurm.cpusPerNode = static_cast<std::int32_t>(wholeUnits(first.requests, "cpu"));
        slurm.memoryPerNodeMiB = wholeUnits(first.requests, "memory") / (1024 * 1024);
        request.slurm = slurm;
    }
    return request;
}

bool failedOn(const std::vector<char>& failed, NodeId id) {
    return id < failed.size() && failed[id] != 0;
}

} // namespace

RunningGangScheduler schedulerForRunningGang(WorkloadKind kind, PodScheduler scheduler,
                                             const PodTopologyRequest& topology, const SlurmTopology* slurmTopology) {
    if (kind == WorkloadKind::SlurmJob) {
        if (slurmTopology && slurmTopology->kind == SlurmTopology::Kind::Block)
            return {&slurmBlockEngine(), "a Slurm job: topology/block, the cluster's topology plugin"};
        if (slurmTopology) return {&slurmTreeEngine(), "a Slurm job: topology/tree, the cluster's topology plugin"};
        return {&slurmTreeEngine(),
                "a Slurm job: topology/tree over the levels shown (the cluster names no Slurm topology)"};
    }
    if (scheduler == PodScheduler::Volcano || kind == WorkloadKind::VolcanoJob ||
        kind == WorkloadKind::VolcanoPodGroup) {
        const std::string why = scheduler == PodScheduler::Volcano ? "its pods name schedulerName volcano"
                                                                   : "a " + std::string(workloadKindName(kind));
        return {&volcanoEngine(),
                "Volcano (" + why +
                    "); its networkTopology is on its Job or PodGroup, not on its pods: placed without one"};
    }
    if (scheduler == PodScheduler::Kai || kind == WorkloadKind::KaiPodGroup) {
        const std::string why = scheduler == PodScheduler::Kai ? "its pods name schedulerName kai-scheduler"
                                                               : "a " + std::string(workloadKindName(kind));
        return {&kaiEngine(),
                "KAI (" + why + "); its topology annotations are on its owner, not on its pods: placed without them"};
    }
    if (topology.mode != PodTopologyRequest::Mode::None) {
        std::string why = "Kueue TAS: its pods carry " + std::string(kueueAnnotation(topology.mode));
        if (!topology.level.empty()) why += ": " + topology.level;
        return {&kueueTasEngine(), why};
    }
    if (kind == WorkloadKind::KueueWorkload || kind == WorkloadKind::KueuePodGroup)
        return {&kueueTasEngine(), "Kueue TAS: a " + std::string(workloadKindName(kind)) +
                                       " without a topology annotation on its pods (Kueue's implied request)"};
    const std::string_view kindName = workloadKindName(kind);
    return {&kueueTasEngine(), "assumed Kueue TAS with its implied request: nothing on the pods of this " +
                                   std::string(kindName.empty() ? "gang" : kindName) +
                                   " names a topology-aware scheduler or a topology request"};
}

void failNodes(ClusterState& state, TopologyIndex* index, const std::vector<NodeId>& nodes) {
    std::vector<char> failed(state.nodeSlots(), 0);
    for (NodeId id : nodes)
        if (id < failed.size()) failed[id] = 1;
    // The pods first: a pod event on a node that is still present updates its usage.
    std::vector<std::pair<std::string, std::string>> gone;
    state.forEachPod([&](const Pod& pod) {
        if (pod.nodeName.empty()) return;
        if (const auto id = state.findNode(pod.nodeName); id && failedOn(failed, *id))
            gone.emplace_back(pod.nameSpace, pod.name);
    });
    for (auto& [nameSpace, name] : gone) {
        const AppliedEvent applied = state.apply(PodDeleted{std::move(nameSpace), std::move(name)});
        if (index) index->apply(state, applied);
    }
    for (NodeId id : nodes) {
        if (id >= state.nodeSlots() || !state.record(id).present) continue;
        Node node = *state.record(id).node;
        node.ready = false;
        const AppliedEvent applied = state.apply(NodeUpserted{std::move(node)});
        if (index) index->apply(state, applied);
    }
}

FailureReport assessFailure(const ClusterState& state, const TopologyIndex& shown, std::vector<NodeId> failed,
                            const EngineOptions& options) {
    FailureReport report;
    std::sort(failed.begin(), failed.end());
    failed.erase(std::unique(failed.begin(), failed.end()), failed.end());
    report.failedNodes = failed;
    for (NodeId id : failed)
        if (id < state.nodeSlots()) report.failedNodeNames.push_back(state.record(id).node->name);
    std::vector<char> isFailed(state.nodeSlots(), 0);
    for (NodeId id : failed)
        if (id < isFailed.size()) isFailed[id] = 1;

    // Every gang the report counts, and its GPU pods, found by (namespace, name).
    const GangsReport gangs = buildGangsReport(state, shown);
    std::map<std::pair<std::string_view, std::string_view>, std::size_t> gangOf;
    for (std::size_t g = 0; g < gangs.gangs.size(); ++g)
        gangOf.emplace(std::pair<std::string_view, std::string_view>(gangs.gangs[g].nameSpace, gangs.gangs[g].name), g);
    std::vector<std::vector<RunningPod>> podsOf(gangs.gangs.size());
    std::vector<std::int32_t> lost(gangs.gangs.size(), 0);
    const GpuResources& gpus = shown.gpuResources();
    state.forEachPod([&](const Pod& pod) {
        if (!pod.holdsResources() || pod.workload.empty() || gpus.count(pod.requests) <= 0) return;
        const auto it = gangOf.find({pod.nameSpace, pod.workload});
        if (it == gangOf.end()) return;
        const auto node = state.findNode(pod.nodeName);
        if (!node) return;
        const bool onFailed = failedOn(isFailed, *node);
        podsOf[it->second].push_back({*node, &pod, onFailed});
        if (onFailed) ++lost[it->second];
    });

    std::vector<std::size_t> broken;
    for (std::size_t g = 0; g < gangs.gangs.size(); ++g)
        if (lost[g] > 0) broken.push_back(g);
    // In the report's order: most pods lost first, then by name.
    std::sort(broken.begin(), broken.end(), [&](std::size_t a, std::size_t b) {
        const std::string qa = gangs.gangs[a].qualifiedName();
        const std::string qb = gangs.gangs[b].qualifiedName();
        return std::tie(lost[b], qa) < std::tie(lost[a], qb);
    });
    report.gangsUntouched = gangs.gangs.size() - broken.size();
    if (broken.empty()) return report;

    // The cluster after the failure, as the planner's engines see it.
    ClusterState after = state;
    failNodes(after, nullptr, failed);
    PlanQuery query;
    query.options = options;
    auto inputs = preparePlan(after, shown.spec(), gpus, query);

    for (std::size_t g : broken) {
        const Gang& gang = gangs.gangs[g];
        const std::vector<RunningPod>& pods = podsOf[g];
        GangFailure failure;
        failure.gang = gang.qualifiedName();
        failure.kind = gang.kind;
        failure.pods = static_cast<std::int32_t>(pods.size());
        failure.lostPods = lost[g];
        failure.request = requestFor(gang, pods, gpus);
        const Pod& first = *pods.front().pod;
        const RunningGangScheduler scheduler =
            schedulerForRunningGang(gang.kind, first.scheduler, first.topology, after.slurmTopology().get());
        failure.engine = std::string(scheduler.engine->name());
        failure.engineReason = scheduler.reason;
        if (report.broken.size() >= kMaxGangsPlacedAgain) {
            failure.placedAgain = false;
            failure.message = "not placed again: " + std::to_string(broken.size()) + " gangs broke, and only the " +
                              std::to_string(kMaxGangsPlacedAgain) + " that lost the most pods are";
            report.broken.push_back(std::move(failure));
            continue;
        }
        if (!inputs) {
            failure.message = inputs.error().message;
            report.broken.push_back(std::move(failure));
            continue;
        }
        // Its surviving pods are restarted with the rest: what they hold is free for it.
        PlacementCluster cluster = (*inputs)->clusterFor(*scheduler.engine);
        for (const RunningPod& running : pods)
            if (!running.lost) cluster.release(running.node, running.pod->requests, 1);
        if (std::string why = scheduler.engine->unavailableReason(cluster, failure.request); !why.empty()) {
            failure.message = why;
        } else {
            PlacementResult result = placeGang(*scheduler.engine, cluster, failure.request, options);
            failure.fits = result.feasible;
            failure.message = std::move(result.message);
            // Engines that assign domains (Kueue above hostname) have their counts spread as the
            // what-if does, so every answer names nodes.
            for (const PlacedPods& placed : placedPods(cluster, failure.request, result))
                failure.nodes.push_back({cluster.node(placed.node).name, placed.pods, placed.part});
        }
        report.broken.push_back(std::move(failure));
    }
    return report;
}

} // namespace topodeck
