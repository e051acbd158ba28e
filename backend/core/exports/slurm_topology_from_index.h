#pragma once

#include "core/model/cluster_state.h"
#include "core/slurm/slurm_topology.h"

#include <cstddef>
#include <string>
#include <vector>

namespace topodeck {

class TopologyIndex;

// What an operator would configure for nodes labelled with a hierarchy (needs the state for the
// node names): a switch per labelled domain (leaves = lowest-level domains), plus a root switch
// when there are several top-level domains; or blocks = NVLink domains (else lowest-level
// domains). Nodes missing a level's label belong to no switch or block (a warning says how many).
// Names are the domain values, prefixed by the parent path with '-' only where values repeat.
// The label levels that become switches (or, the lowest of them, blocks): all of them except a
// lowest kubernetes.io/hostname level, which would make every node its own leaf switch.
int slurmSwitchLevels(const TopologyIndex& index);
SlurmTopology slurmTreeFromIndex(const ClusterState& state, const TopologyIndex& index);
// `perRack`: one block per lowest-level domain (an NVL72 rack, as SUNK configures it) even where
// NVLink domains are known; by default one per NVLink domain (clique, as Base Command Manager does).
SlurmTopology slurmBlocksFromIndex(const ClusterState& state, const TopologyIndex& index, bool perRack = false);

// The blocks of slurmBlocksFromIndex as node ids, without building name lists (for the engines,
// which run on every dry-run). Blocks follow the natural order of the lowest-level domain holding
// their first node, so config order follows the racks.
struct SlurmIndexBlocks {
    std::vector<std::string> names;
    std::vector<std::vector<NodeId>> nodes; // per block
    std::size_t nodesLeftOut = 0;           // present nodes in no block (label missing)
    bool fromNvlink = false;                // blocks are NVLink domains, not lowest-level domains
};
SlurmIndexBlocks slurmBlockNodesFromIndex(const TopologyIndex& index, bool perRack = false);

} // namespace topodeck
