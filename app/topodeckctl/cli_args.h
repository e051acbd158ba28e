#pragma once

#include "core/result.h"

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace topodeck::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the command ran but something outside us failed
inline constexpr int kExitUsage = 2;   // bad flags or bad input

// One flag of a command, kubectl style: --name VALUE, --name=VALUE, -n VALUE, -nVALUE.
struct FlagSpec {
    std::string name;      // long name without dashes, e.g. "depth"
    char shortName = 0;    // e.g. 'o'; 0 when there is none
    std::string valueName; // what the value is called in --help, e.g. "N"; empty for a switch
    std::string help;
};

// What `--help` says about a command, and the flags it accepts (--help itself is implicit).
struct CommandSpec {
    std::string name;        // "show"
    std::string summary;     // one line, shown in `topodeckctl --help`
    std::string description; // a paragraph, shown in the command's --help
    std::string usage;       // e.g. "topodeckctl show (--demo NAME | -f FILE) [flags]"
    std::string examples;    // preformatted lines
    std::vector<FlagSpec> flags;
};

class ParsedArgs {
public:
    bool has(std::string_view name) const { return m_values.find(name) != m_values.end(); }
    // The last value given for a flag, or nullptr when it was not given.
    const std::string* value(std::string_view name) const;
    // Every value given for a repeatable flag, in order (empty when it was not given).
    std::vector<std::string> values(std::string_view name) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }
    bool helpRequested() const { return m_help; }

private:
    friend Result<ParsedArgs> parseArgs(const CommandSpec& spec, std::span<const std::string> args);
    std::map<std::string, std::string, std::less<>> m_values; // switches hold ""
    std::vector<std::pair<std::string, std::string>> m_given; // (flag, value) in command-line order
    std::vector<std::string> m_positionals;
    bool m_help = false;
};

// Errors say which flag is wrong, e.g. "unknown flag --colour".
Result<ParsedArgs> parseArgs(const CommandSpec& spec, std::span<const std::string> args);

std::string helpText(const CommandSpec& spec);

// What every command does first: its flags, or, when parsing already ends the command, its exit
// code (--help printed: kExitOk; a bad flag reported: kExitUsage).
std::variant<ParsedArgs, int> parseCommandLine(const CommandSpec& spec, std::span<const std::string> args);

// Flag values. Errors name the flag: "--depth wants a whole number >= 0, not \"x\"".
Result<int> parseIntValue(std::string_view flag, std::string_view text, int min, int max);
Result<double> parseSecondsValue(std::string_view flag, std::string_view text);
// -o table (the default) or -o json: true for JSON.
Result<bool> jsonOutputWanted(const ParsedArgs& args);
std::vector<std::string> splitList(std::string_view commaSeparated);

// "topodeckctl: error: <message>" on stderr; returns kExitUsage so callers can `return usageError(...)`.
int usageError(std::string_view message);
// The same for a failure outside topodeckctl (a server that cannot be reached); returns kExitFailure.
int runtimeError(std::string_view message);
void printWarning(std::string_view message);

} // namespace topodeck::cli
