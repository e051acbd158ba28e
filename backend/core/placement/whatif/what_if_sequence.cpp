#include "core/placement/whatif/what_if_sequence.h"

#include "core/placement/engines/dra_placement.h"
#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/what_if.h"
#include "core/text/text_format.h"

#include <map>
#include <utility>

namespace topodeck {
namespace {

Result<std::vector<NodeId>> targetNodes(const ClusterState& state, const TopologyIndex& index, const WhatIfStep& step) {
    const PlacementCluster cluster(state, index);
    return drainTargetNodes(cluster, step.target, step.kind == WhatIfStep::Kind::Fail ? "fail" : "drain");
}

void drain(ClusterState& state, TopologyIndex& index, const std::vector<NodeId>& nodes) {
    for (NodeId id : nodes) {
        Node node = *state.record(id).node;
        node.unschedulable = true;
        index.apply(state, state.apply(NodeUpserted{std::move(node)}));
    }
}

// The constraint a placed pod carries, so that a later Fail step places its gang again alike.
PodTopologyRequest topologyOf(const KueueConstraint& kueue) {
    switch (kueue.mode) {
    case KueueConstraint::Mode::Required:
        return {PodTopologyRequest::Mode::Required, kueue.level};
    case KueueConstraint::Mode::Preferred:
        return {PodTopologyRequest::Mode::Preferred, kueue.level};
    case KueueConstraint::Mode::Unconstrained:
        return {PodTopologyRequest::Mode::Unconstrained, {}};
    case KueueConstraint::Mode::Implied:
        break;
    }
    return {};
}

WhatIfStepOutcome place(ClusterState& state, TopologyIndex& index, const WhatIfStep& step, std::size_t stepNumber,
                        const EngineOptions& options) {
    WhatIfStepOutcome outcome;
    const GangRequest& gang = step.gang;
    PlanQuery query;
    query.options = options;
    auto inputs = preparePlan(state, index.spec(), index.gpuResources(), query);
    if (!inputs) {
        outcome.text = inputs.error().message;
        return outcome;
    }
    const PlacementEngine* engine =
        step.engine.empty() ? &defaultEngine(gang, *(*inputs)->cluster) : findPlacementEngine(step.engine);
    if (!engine) {
        outcome.text = "unknown engine \"" + step.engine + "\" (engines: " + placementEngineNames() + ")";
        return outcome;
    }
    const PlacementCluster& cluster = (*inputs)->clusterFor(*engine);
    const std::string engineName(engine->name());
    if (std::string why = engine->unavailableReason(cluster, gang); !why.empty()) {
        outcome.text = engineName + ": " + why;
        return outcome;
    }
    const PlacementResult result = placeGang(*engine, cluster, gang, options);
    if (!result.feasible) {
        outcome.text = gang.name + " does not fit (" + engineName + "): " + result.message;
        return outcome;
    }
    // The engine's placement becomes running pods, named apart from any real pod.
    Pod pod;
    pod.nameSpace = gang.nameSpace;
    pod.phase = PodPhase::Running;
    pod.workload = gang.name;
    pod.workloadKind = gang.slurm ? WorkloadKind::SlurmJob : WorkloadKind::None;
    pod.scheduler = engine == &volcanoEngine() ? PodScheduler::Volcano
                    : engine == &kaiEngine()   ? PodScheduler::Kai
                                               : PodScheduler::Default;
    pod.topology = topologyOf(gang.kueue);
    std::size_t podNumber = 0;
    std::map<NodeId, std::int64_t> boundOn;
    std::map<std::string, int> pending; // pods whose claims no node could serve, by why
    for (const PlacedPods& entry : placedPods(cluster, gang, result)) {
        pod.requests = entry.perPod;
        for (std::int32_t i = 0; i < entry.pods; ++i) {
            pod.name = gang.name + "-what-if-" + std::to_string(stepNumber) + "-" + std::to_string(podNumber++);
            Result<BoundPod> bound = bindPlacedPod(cluster, *engine, gang, entry, pod, boundOn, options);
            if (!bound || !bound->node) {
                ++pending[bound ? bound->why : bound.error().message];
                continue;
            }
            ++boundOn[*bound->node];
            for (ResourceClaim& claim : bound->claims.claims)
                index.apply(state, state.apply(ResourceClaimUpserted{std::move(claim)}));
            Pod placedPod = pod;
            placedPod.nodeName = state.record(*bound->node).node->name;
            placedPod.resourceClaims = std::move(bound->claims.podClaims);
            placedPod.claimStatuses = std::move(bound->claims.claimStatuses);
            placedPod.extendedResourceClaim = std::move(bound->claims.extendedResourceClaim);
            index.apply(state, state.apply(PodUpserted{std::move(placedPod)}));
        }
    }
    for (const auto& [node, pods] : boundOn) outcome.nodes.push_back(node);
    int notBound = 0;
    for (const auto& [why, count] : pending) notBound += count;
    outcome.applied = true;
    outcome.text = gang.name + ": " + std::to_string(podNumber - static_cast<std::size_t>(notBound)) +
                   " pods placed on " + plural(boundOn.size(), "node", "nodes") + " (" + engineName + ")" +
                   (result.message.empty() ? "" : " — " + result.message);
    // The engine counted devices node by node; a pod whose claims no node can serve once the
    // pods before it hold theirs stays Pending, as kube-scheduler leaves it.
    for (const auto& [why, count] : pending) outcome.text += "; " + plural(count, "pod", "pods") + " left Pending: " + why;
    return outcome;
}

} // namespace

std::vector<WhatIfStepOutcome> applyWhatIfSteps(ClusterState& state, TopologyIndex& index,
                                                const std::vector<WhatIfStep>& steps, const EngineOptions& options) {
    std::vector<WhatIfStepOutcome> outcomes;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const WhatIfStep& step = steps[i];
        if (step.kind == WhatIfStep::Kind::Place) {
            outcomes.push_back(place(state, index, step, i + 1, options));
            continue;
        }
        WhatIfStepOutcome& outcome = outcomes.emplace_back();
        auto nodes = targetNodes(state, index, step);
        if (!nodes) {
            outcome.text = nodes.error().message;
            continue;
        }
        outcome.applied = true;
        outcome.nodes = std::move(*nodes);
        if (step.kind == WhatIfStep::Kind::Drain) {
            drain(state, index, outcome.nodes);
            outcome.text = plural(outcome.nodes.size(), "node", "nodes") + " drained";
            continue;
        }
        outcome.failure = assessFailure(state, index, outcome.nodes, options);
        failNodes(state, &index, outcome.nodes);
        std::size_t refit = 0;
        for (const GangFailure& gang : outcome.failure.broken) refit += gang.fits ? 1 : 0;
        const std::size_t broken = outcome.failure.broken.size();
        outcome.text = plural(outcome.nodes.size(), "node", "nodes") + " failed: " +
                       (broken == 0 ? std::string("no running gang broken")
                                    : plural(broken, "running gang", "running gangs") + " broken, " +
                                          std::to_string(refit) + " would fit again now");
    }
    return outcomes;
}

} // namespace topodeck
