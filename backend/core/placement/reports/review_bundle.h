#pragma once
// A review bundle: one folder a colleague reads and applies later without topodeck. The change
// plan and its preview, the node labels it sets as kubectl input, the hierarchy after it in every
// scheduler's form, the gang asked about as manifests and its dry-run before and after, SVG maps
// before and after, and a README.md that says what changes, what it risks and how to apply it.
// In the placement library because the bundle runs the dry-runs; everything else it writes
// comes from core/changes and core/exports.

#include "core/changes/change_plan.h"
#include "core/exports/topology_exports.h"
#include "core/placement/reports/plan_query.h"

#include <string>
#include <vector>

namespace topodeck {

struct ReviewBundleRequest {
    std::string source;                // "demo gb200", "context prod": where the cluster was read
    const ChangePlan* plan = nullptr;  // null: a bundle of the hierarchy as it is
    const PlanQuery* dryRun = nullptr; // a gang to dry-run before and after (every engine that applies)
    TopologyExportOptions exports;
    GpuResources gpus;
};

struct ReviewBundle {
    std::vector<ExportFile> files; // README.md first
    std::vector<std::string> warnings; // what was left out, and why
};

// A gang's dry-run under every engine that applies (or the query's own engines) on the cluster as
// it is and, when `after` is given, on the cluster with a change made (`index` is `before`'s).
struct GangDryRuns {
    GangRequest gang;
    std::vector<PlacementResult> before, after;
    std::vector<std::pair<std::string, std::string>> skipped; // engine, why it was not run
    const PlacementResult* afterOf(const std::string& engine) const; // null: not run after
};
Result<GangDryRuns> gangDryRuns(const ClusterState& before, const ClusterState* after, const TopologyIndex& index,
                                const GpuResources& gpus, PlanQuery query);

// "fits on 16 nodes: su su-1, rack su-1/rack-1-05", "does not fit: ...", "not run" for null; in
// Markdown, domain names as code.
std::string placementVerdict(const PlacementResult* result, bool markdown = false);

// `index` is the state's, in the hierarchy shown. Errors: the dry-run's request is wrong (as
// `topodeckctl plan` would say).
Result<ReviewBundle> reviewBundle(const ClusterState& state, const TopologyIndex& index,
                                  const ReviewBundleRequest& request);

} // namespace topodeck
