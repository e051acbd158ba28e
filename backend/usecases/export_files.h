#pragma once
// The files topodeck writes for review, once for every front-end: `topodeckctl export`, the
// console's File › Export for Review and (later) the daemon make them with exportFiles().

#include "core/changes/change_plan.h"
#include "core/exports/topology_exports.h"
#include "core/model/cluster_state.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/requests/gang_export.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// What to export from a state.
struct ExportRequest {
    std::string folder; // where the files go (writeExportFolder); the CLI may print one instead
    // A review bundle: the plan, its preview and labels, every hierarchy form after it, maps, the
    // gang before and after, a README. Then `formats` is not read.
    bool bundle = false;
    // Any of "kueue", "kai", "hypernodes", "topology.conf", "topology.yaml" (each, or "all" for
    // every one of them and the labels), "labels" (node-labels.yaml and kubectl-label.sh),
    // "map" (map.svg), "gang" (the gang's manifest or sbatch script, from `gang`).
    std::vector<std::string> formats;
    std::string planFile;          // labels, bundle: the labels this plan file sets (else the hierarchy's); "" none
    std::optional<PlanQuery> gang; // gang, bundle: the gang, as plan's flags give it
    GangExportOptions gangOptions; // gang: the queue and image
    // gang: the manifest's kind; none: a Volcano Job for Volcano, a JobSet for a gang of unlike
    // pods, else gangOptions.workload.
    std::optional<GangWorkload> gangKind;
    std::string source; // bundle, map: where the cluster was read, for the README and the title
    TopologyExportOptions options;
};

struct ExportedFiles {
    std::vector<ExportFile> files;
    std::vector<std::string> warnings; // forms left out, and why
};

// The files, in order. Errors: nothing could be exported (a single form refused, say, a Kueue
// Topology of a hierarchy read from HyperNodes), or the gang's request is wrong.
Result<ExportedFiles> exportFiles(const ClusterState& state, const TopologyIndex& index, const ExportRequest& request);

} // namespace topodeck
