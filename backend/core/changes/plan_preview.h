#pragma once
// A change plan for people to review in a terminal: its label changes node by node (nodes with
// the same changes grouped), what it does to the hierarchy, and where the cluster has drifted
// from what the plan found.

#include "core/changes/change_plan.h"
#include "core/changes/topology_diff.h"

#include <cstddef>
#include <string>
#include <vector>

namespace topodeck {

struct PlanPreviewOptions {
    bool colour = false;        // ANSI: green sets, red removals, yellow changes and risks
    std::size_t maxGroups = 20; // groups of nodes listed, the rest counted
    std::size_t maxListed = 10; // names per list (nodes moved, domains added, ...)
};

std::string planPreviewText(const ChangePlan& plan, const TopologyDiff& diff, const std::vector<std::string>& drift,
                            const PlanPreviewOptions& options = {});

} // namespace topodeck
