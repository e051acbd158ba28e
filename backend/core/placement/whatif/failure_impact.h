#pragma once

#include "core/model/cluster_state.h"
#include "core/model/pod.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/requests/gang_request.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/topology_index.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

// Failure what-if: nodes fail (NotReady, their pods gone), and each running gang with pods there
// is broken. Would it fit again now? The whole gang is placed again on what is left, its own
// surviving pods freed first (its controller restarts all of them), under the scheduler its pods
// say it runs under.

// One running gang that lost pods.
struct GangFailure {
    std::string gang; // namespace/name, as GangsReport names it
    WorkloadKind kind = WorkloadKind::None;
    std::string engine;        // the engine it was placed again with ("kueue-tas", "slurm-tree", ...)
    std::string engineReason;  // why that engine, and what was assumed about its request
    std::int32_t pods = 0;     // its GPU pods (Slurm: nodes)
    std::int32_t lostPods = 0; // of them, on the failed nodes
    bool fits = false;
    // False when it was not placed again (more gangs broke than kMaxGangsPlacedAgain): fits and
    // engine say nothing then, the message says so.
    bool placedAgain = true;
    std::string message;         // the engine's own words: why not, or what it would do
    std::vector<NodePods> nodes; // where it would run again (when it fits and the engine says)
    GangRequest request;         // what was placed again
};

// Each broken gang is placed again on the whole cluster (a tenth of a second at 65,536 nodes), so a
// failure breaking thousands of gangs (a whole spine) has only the ones that lost the most pods
// placed again; the others are listed with what they lost.
inline constexpr std::size_t kMaxGangsPlacedAgain = 64;

struct FailureReport {
    std::vector<NodeId> failedNodes;          // ascending, unique
    std::vector<std::string> failedNodeNames; // the same, by name
    // Most pods lost first, then by name.
    std::vector<GangFailure> broken;
    std::size_t gangsUntouched = 0; // running gangs with no pod on a failed node
};

// What the failure does to the state: every node NotReady, the pods bound to it gone (as after
// the node lifecycle controller evicts them). The index, when given, follows.
void failNodes(ClusterState& state, TopologyIndex* index, const std::vector<NodeId>& nodes);

// The running gangs (as buildGangsReport counts them) the failure of these nodes breaks, each
// placed again on the state after the failure. `shown` is the hierarchy the operator reads the
// cluster through; the engines see it as the planner does (preparePlan).
FailureReport assessFailure(const ClusterState& state, const TopologyIndex& shown, std::vector<NodeId> failed,
                            const EngineOptions& options = {});

// The engine a running gang is placed under, and why (see GangFailure::engineReason); the request
// gets the constraint its pods carry.
struct RunningGangScheduler {
    const PlacementEngine* engine = nullptr;
    std::string reason;
};
RunningGangScheduler schedulerForRunningGang(WorkloadKind kind, PodScheduler scheduler,
                                             const PodTopologyRequest& topology, const SlurmTopology* slurmTopology);

} // namespace topodeck
