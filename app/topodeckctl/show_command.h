#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl show`: the topology tree with GPU occupancy, as a table or JSON, once or --watch.
const CommandSpec& showCommandSpec();
int runShowCommand(std::span<const std::string> args);

} // namespace topodeck::cli
