#pragma once

#include "core/model/cluster_state.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/whatif/failure_impact.h"
#include "core/topology/topology_index.h"

#include <string>
#include <vector>

namespace topodeck {

// What one what-if step did to the state.
struct WhatIfStepOutcome {
    bool applied = false;      // false: nothing changed (an unknown target, a gang that does not fit)
    std::string text;          // for people: "18 nodes failed: 2 running gangs broken", "does not fit: ..."
    std::vector<NodeId> nodes; // the nodes it drained, failed or placed pods on
    FailureReport failure;     // Fail steps: the gangs it broke, judged on the state before it
};

// Applies the steps to the state in order, the index following every change: Place runs the
// step's engine (or the gang's default one) and makes its pods running pods where the engine puts
// them; Drain cordons the nodes; Fail judges the gangs it breaks (assessFailure), then fails the
// nodes (failNodes). A step that cannot be applied says why and changes nothing; the rest go on.
std::vector<WhatIfStepOutcome> applyWhatIfSteps(ClusterState& state, TopologyIndex& index,
                                                const std::vector<WhatIfStep>& steps,
                                                const EngineOptions& options = {});

} // namespace topodeck
