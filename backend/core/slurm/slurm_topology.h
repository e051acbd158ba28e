#pragma once

#include "core/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

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

} // namespace topodeck
