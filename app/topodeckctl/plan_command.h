#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

const CommandSpec& planCommandSpec();
// `topodeckctl plan`: dry-run a gang under each scheduler's rules. Exit 0 when it fits, 3 when it
// does not, 2 on bad input.
int runPlanCommand(std::span<const std::string> args);

inline constexpr int kExitDoesNotFit = 3;

} // namespace topodeck::cli
