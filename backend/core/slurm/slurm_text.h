#pragma once

#include "core/result.h"
#include "core/slurm/slurm_inventory.h"
#include "core/slurm/slurm_topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// `scontrol show topology` (topology/tree): one "SwitchName=leaf01 Level=0 LinkSpeed=1
// Nodes=gpu-[001-008] Switches=..." line per switch. Switches that list child switches keep only
// those (their Nodes= is the union Slurm derives); leaves keep their nodes. Slurm 23.11+ prints
// "BlockName=b1 BlockIndex=0 Nodes=... Size=18" lines for topology/block, which become blocks
// (with BlockSizes from a "BlockSizes=" line when present). An empty output (topology/flat, or no
// topology plugin) is a Flat topology. Errors name the line.
Result<SlurmTopology> parseScontrolTopology(std::string_view text);

// `scontrol -o show nodes` (one node per line, key=value; add -d for GresUsed): the same fields
// as the JSON readers fill. State is "MIXED+DRAIN" and the like.
Result<std::vector<SlurmNode>> parseScontrolNodes(std::string_view text);

// What `sbatch --test-only` printed on stderr:
//   "sbatch: Job 11 to start at 2026-11-29T09:29:40 using 4 processors on nodes gpu-[033-036] in partition gpu"
// or "sbatch: error: ... allocation failure: Requested node configuration is not available".
struct SbatchTestOnly {
    bool feasible = false;
    std::int64_t startTime = 0; // epoch seconds (the local time sbatch printed, read as local time)
    std::string startText;      // as printed
    std::int64_t processors = 0;
    std::string nodes;          // hostlist
    std::string partition;
    std::string message;        // the failure, as Slurm worded it
};
Result<SbatchTestOnly> parseSbatchTestOnly(std::string_view stderrText);

// The release slurmctld runs, from `scontrol show config`: its "SLURM_VERSION = 22.05.8" line,
// which slurmctld fills with its own SLURM_VERSION_STRING (proc_req.c _fill_ctld_conf), unlike
// `scontrol version` / `sinfo --version`, which print the client's. An error when no such line.
Result<std::string> parseScontrolConfigVersion(std::string_view text);

} // namespace topodeck
