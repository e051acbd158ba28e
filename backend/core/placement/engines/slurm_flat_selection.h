#pragma once

// Slurm's node selection when there is no topology (topology/flat): select/cons_tres' default
// best fit over runs of consecutive nodes in the node table, with node weights, -w, --contiguous,
// node ranges and CPU counts. Both Slurm engines (slurm-tree and slurm-block) place this way on a
// cluster that has no Slurm topology and no label level above the node, as Slurm does there.

#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/requests/gang_request.h"

#include <string_view>

namespace topodeck {

// Whether Slurm would see no topology here: the cluster's Slurm topology is topology/flat, or it
// has none and its hierarchy has no level above the node (no levels, or only
// kubernetes.io/hostname) to derive switches or blocks from. With nvlinkBlocks, NVLink domains
// count as a topology (slurm-block derives its blocks from them).
bool slurmTopologyIsFlat(const PlacementCluster& cluster, bool nvlinkBlocks = false);

// The job placed as topology/flat does (22.05 job_test.c _eval_nodes; 24.05+ eval_nodes.c
// _eval_nodes_consec, with choose_nodes' retries), in the result shape of the Slurm engines:
// nodes with one pod each in node-table order, assignment levels ["kubernetes.io/hostname"],
// chosen = the consecutive node sets the nodes were taken from (level "node set"), message =
// "would start now on N nodes: H", or what Slurm says of a job that does not fit now.
PlacementResult placeSlurmFlat(const PlacementCluster& cluster, const GangRequest& request,
                               const EngineOptions& options, std::string_view engine);

} // namespace topodeck
