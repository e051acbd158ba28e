#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl diff -f PLAN`: a change plan against the cluster as it is now: its label changes,
// what they do to the hierarchy, and where the cluster has drifted from what the plan found.
// kubectl diff's exit codes: 0 nothing to change, 1 changes, 2 an error.
const CommandSpec& diffCommandSpec();
int runDiffCommand(std::span<const std::string> args);

} // namespace topodeck::cli
