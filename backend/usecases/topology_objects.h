#pragma once
// A cluster's topology objects for the object editors (HyperNodes, Kueue and KAI Topologies,
// ResourceFlavors), and what a new HyperNode tree can start from.

#include "core/model/cluster_state.h"
#include "core/model/hypernode.h"
#include "core/topology/topology_index.h"

#include <string>
#include <vector>

namespace topodeck {

struct TopologyObjects {
    // A state holding only the cluster's topology objects (no nodes, no pods): what the editors
    // plan their ObjectChanges against (objectChangeTo).
    ClusterState objects;
    // The hierarchy shown, as Volcano HyperNodes (hyperNodesFromIndex): where a HyperNode tree
    // can start from when the cluster has none.
    std::vector<HyperNode> fromHierarchy;
    std::vector<std::string> labelKeys; // every label key the present nodes carry, sorted
};

TopologyObjects topologyObjectsOf(const ClusterState& state, const TopologyIndex& index);

} // namespace topodeck
