#pragma once
// Slinky (Slurm on Kubernetes) learns where each node sits from a node annotation,
// topology.slinky.slurm.net/spec = "topo-tree:leaf-3,topo-block:b2": for each topology of Slurm's
// topology.yaml, the switch or block that holds the node. This generator writes those annotations
// for the hierarchy the source flags choose (label levels, HyperNodes, ...) as a change plan, and
// the topology.yaml that defines the same switches and blocks under the same names.

#include "core/changes/change_plan.h"
#include "core/model/cluster_state.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <string>
#include <vector>

namespace topodeck {

struct SlinkyRequest {
    std::string treeTopology;  // the tree topology's name in topology.yaml; empty: none
    std::string blockTopology; // the block topology's name; empty: none
    bool blockPerRack = false; // blocks per lowest-level domain, not per NVLink domain
};

// Every present node's annotation as it should be, as changes from the value it has (annotation
// changes: LabelChange::annotation). A node in no switch and no block loses it. Refused without a
// topology name, or with one Slurm would not take.
Result<std::vector<LabelChange>> slinkyAnnotationChanges(const ClusterState& state, const TopologyIndex& index,
                                                         const SlinkyRequest& request);

// topology.yaml (Slurm 25.05) with the requested topologies under their names, the first the
// cluster default: what the annotations name.
std::string slinkyTopologyYaml(const ClusterState& state, const TopologyIndex& index, const SlinkyRequest& request);

} // namespace topodeck
