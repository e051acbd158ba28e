#pragma once

#include "core/result.h"
#include "core/text/command_args.h"

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace topodeck::cli {

using topodeck::CommandSpec;
using topodeck::FlagSpec;
using topodeck::ParsedArgs;

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the command ran but something outside us failed
inline constexpr int kExitUsage = 2;   // bad flags or bad input

// What every command does first: its flags, or, when parsing already ends the command, its exit
// code (--help printed: kExitOk; a bad flag reported: kExitUsage).
std::variant<ParsedArgs, int> parseCommandLine(const CommandSpec& spec, std::span<const std::string> args);

// -o table (the default) or -o json: true for JSON.
Result<bool> jsonOutputWanted(const ParsedArgs& args);

// "topodeckctl: error: <message>" on stderr; returns kExitUsage so callers can `return usageError(...)`.
int usageError(std::string_view message);
// The same for a failure outside topodeckctl (a server that cannot be reached); returns kExitFailure.
int runtimeError(std::string_view message);
void printWarning(std::string_view message);

} // namespace topodeck::cli
