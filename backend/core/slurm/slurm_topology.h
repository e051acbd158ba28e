#pragma once

#include "core/cluster_state.h"
#include "core/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

class TopologyIndex;

// One SwitchName line of topology.conf (or a tree.switches entry of topology.yaml), with its
// hostlists expanded. A switch has nodes (a leaf) or child switches, not both: when a line gives
// both, the children are dropped with a warning, as slurmctld does.
struct SlurmSwitch {
    std::string name;
    std::vector<std::string> switches;
    std::vector<std::string> nodes;
    friend bool operator==(const SlurmSwitch&, const SlurmSwitch&) = default;
};

struct SlurmBlock {
    std::string name;
    std::vector<std::string> nodes;
    friend bool operator==(const SlurmBlock&, const SlurmBlock&) = default;
};

// One Slurm topology: topology.conf is a single one named "default"; topology.yaml lists several.
struct SlurmTopology {
    enum class Kind { Tree, Block, Flat };
    std::string name = "default";
    Kind kind = Kind::Tree;
    bool clusterDefault = false;
    std::vector<SlurmSwitch> switches;    // config order, which decides ties
    std::vector<SlurmBlock> blocks;       // config order, which decides aggregated blocks
    std::vector<std::int32_t> blockSizes; // BlockSizes as written; empty when not set
    std::vector<std::string> warnings;    // what slurmctld would warn about (e.g. a node on two leaves)
    friend bool operator==(const SlurmTopology&, const SlurmTopology&) = default;
};

// Slurm hostlists: "gpu-[001-004,007],login1" <-> the names, in order. Expansion follows Slurm's
// hostlist_create (22.05, checked with `scontrol show hostnames`): ',' or whitespace separate
// entries, a range keeps the zero padding of its low end, at most 65,536 hosts per range, text
// after the last ']' is invalid, and with several brackets the last one varies fastest and the
// others from the first (faster) to the last but one (slowest): r[1-2]n[1-3] -> r1n1 r1n2 r1n3
// r2n1 ... Errors quote the input. Compression merges neighbours with the same prefix the way
// `scontrol show hostlist` does, keeping the input order: "n9,n10,n09" -> "n[9-10,09]".
Result<std::vector<std::string>> expandHostlist(std::string_view hostlist);
std::string compressHostlist(const std::vector<std::string>& names);

// topology.conf (tree or block plugin syntax, told apart by content; mixing both is an error).
// Keys are case-insensitive, '#' starts a comment, a trailing '\' continues the line, values may
// be double-quoted, as in every slurm.conf-style file. Errors name the source and line.
Result<SlurmTopology> parseTopologyConf(std::string_view text, std::string_view sourceName = "topology.conf");
// topology.yaml (Slurm 25.05+): every topology it lists, in file order.
Result<std::vector<SlurmTopology>> parseTopologyYaml(std::string_view text,
                                                     std::string_view sourceName = "topology.yaml");
// Either file, by name (.yaml/.yml, .conf) or else by content; for topology.yaml the first
// cluster_default one comes first (else the first listed).
Result<std::vector<SlurmTopology>> readSlurmTopologyFile(const std::string& path);

// topology.conf text: a tree as leaves first, then each higher level (config order kept within a
// level, the only order Slurm's tie-breaks read); blocks as BlockName lines, then BlockSizes.
std::string writeTopologyConf(const SlurmTopology& topology);

// BlockSizes as slurmctld reads them: the base-block node count and the configured levels (bit L
// set: aggregated blocks of 2^L base blocks may be chosen). Without sizes the base block is the
// first block's node count (baseNodes = 0 here: the caller knows which nodes exist) and the
// levels are 0-4. Error: "Invalid BlockSizes value: N".
struct SlurmBlockLevels {
    std::int32_t baseNodes = 0;
    std::uint32_t levels = 0;
};
Result<SlurmBlockLevels> slurmBlockLevels(const std::vector<std::int32_t>& blockSizes);

// What an operator would configure for nodes labelled with a hierarchy (needs the state for the
// node names): a switch per labelled domain (leaves = lowest-level domains), plus a root switch
// when there are several top-level domains; or blocks = NVLink domains (else lowest-level
// domains). Nodes missing a level's label belong to no switch or block (a warning says how many).
// Names are the domain values, prefixed by the parent path with '-' only where values repeat.
// The label levels that become switches (or, the lowest of them, blocks): all of them except a
// lowest kubernetes.io/hostname level, which would make every node its own leaf switch.
int slurmSwitchLevels(const TopologyIndex& index);
SlurmTopology slurmTreeFromIndex(const ClusterState& state, const TopologyIndex& index);
SlurmTopology slurmBlocksFromIndex(const ClusterState& state, const TopologyIndex& index);

// The blocks of slurmBlocksFromIndex as node ids, without building name lists (for the engines,
// which run on every dry-run). Blocks follow the natural order of the lowest-level domain holding
// their first node, so config order follows the racks.
struct SlurmIndexBlocks {
    std::vector<std::string> names;
    std::vector<std::vector<NodeId>> nodes; // per block
    std::size_t nodesLeftOut = 0;           // present nodes in no block (label missing)
    bool fromNvlink = false;                // blocks are NVLink domains, not lowest-level domains
};
SlurmIndexBlocks slurmBlockNodesFromIndex(const TopologyIndex& index);

} // namespace topodeck
