#pragma once
// A gang's dry-run for a front-end that shows it on a map: the engines' outcome (runPlanQuery),
// the nodes each result uses, and what `topodeckctl plan -o json` prints for the same request.
// `topodeckctl plan` renders the same outcome as text or JSON itself.

#include "core/model/cluster_state.h"
#include "core/placement/reports/plan_query.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// A dry-run's answer on the state it ran on: the outcome, or why the request cannot run.
struct PlanAnswer {
    std::uint64_t generation = 0; // the ClusterState's
    std::string error;            // the request's fault, in topodeckctl plan's words; else ""
    PlanOutcome outcome;
    // Per result: the nodes it uses and the pods on each, for the map.
    std::vector<std::vector<std::pair<NodeId, std::int32_t>>> nodePods;
    std::string json; // what `topodeckctl plan -o json` prints for the same request
};

// `base` is preparePlanBase of `state` (null: no cluster is open).
PlanAnswer dryRun(const ClusterState& state, const std::shared_ptr<const PlanBase>& base, const PlanQuery& query);

} // namespace topodeck
