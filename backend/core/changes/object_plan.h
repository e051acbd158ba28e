#pragma once
// Generators of object changes: make a cluster's HyperNodes, Kueue Topology and ResourceFlavor, or
// KAI Topology those of a hierarchy (label levels, a Slurm topology, ...), as the changes that get
// there from what the cluster holds now: created where missing, updated where different, and with
// `prune`, HyperNodes the hierarchy has no place for deleted (a stale tree mixed with a new one
// would give Volcano a wrong one).

#include "core/changes/object_change.h"
#include "core/exports/topology_exports.h"
#include "core/model/cluster_state.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <string>
#include <vector>

namespace topodeck {

struct ObjectPlanRequest {
    std::string format; // "hypernodes", "kueue" or "kai"
    KueueExportOptions kueue;
    std::string kaiName;
    bool prune = false; // hypernodes: delete those the hierarchy does not make
};

// The changes, in the order to apply them (HyperNodes lowest tier first, deletions last; a
// Topology before its flavor). Errors say why the hierarchy cannot take that form.
Result<std::vector<ObjectChange>> objectPlanChanges(const ClusterState& state, const TopologyIndex& index,
                                                    const ObjectPlanRequest& request);

// One line for the plan's description: what it makes, from which hierarchy.
std::string objectPlanDescription(const ObjectPlanRequest& request, const TopologySpec& spec);

} // namespace topodeck
