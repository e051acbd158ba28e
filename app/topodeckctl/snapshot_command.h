#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl snapshot`: a live cluster (or any source) frozen into a file that -f reads back.
const CommandSpec& snapshotCommandSpec();
int runSnapshotCommand(std::span<const std::string> args);

} // namespace topodeck::cli
