#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl gangs`: the running gangs and, per level, the domains each spans against the
// fewest that could hold it; widest first, as a table or JSON.
const CommandSpec& gangsCommandSpec();
int runGangsCommand(std::span<const std::string> args);

} // namespace topodeck::cli
