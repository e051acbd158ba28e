#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl export FORMAT`: the hierarchy as Kueue / KAI Topology, Volcano HyperNodes, Slurm
// topology.conf / topology.yaml, or node labels (of the hierarchy, or of a change plan).
const CommandSpec& exportCommandSpec();
int runExportCommand(std::span<const std::string> args);

} // namespace topodeck::cli
