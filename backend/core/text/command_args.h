#pragma once

#include "core/result.h"

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Command lines with kubectl's habits, for topodeckctl and for the GUI's options that take
// topodeckctl's flags in one string (topodeck --plan "--pods 16 ...").
namespace topodeck {

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

// A command line's words as parseArgs reads them, but never failing, for editors that rewrite one
// flag of a line and keep every other word as written (the GUI planner's form and its flags line).
struct FlagWords {
    const FlagSpec* flag = nullptr; // null: not a flag of the spec (an unknown flag, a stray word)
    std::size_t first = 0;          // its first word
    std::size_t count = 1;          // the words it takes (2 for "--pods 16", 1 for "--pods=16")
    std::string value;              // "" for a switch, or a value flag the line ends without
};
std::vector<FlagWords> scanFlagWords(const CommandSpec& spec, std::span<const std::string> words);
// The values given for a flag, in order, as ParsedArgs::values reads them.
std::vector<std::string> flagValues(const CommandSpec& spec, std::span<const std::string> words, std::string_view name);
// The words with every occurrence of the flag (any spelling) taken out, then given once per value
// ("--name VALUE", or "--name" alone for a switch's "") where its first occurrence was, else at the
// end. No values: the flag is removed.
std::vector<std::string> withFlagValues(const CommandSpec& spec, std::span<const std::string> words,
                                        std::string_view name, std::span<const std::string> values);
// The same on a line as written: the words not edited keep their spelling (quotes and all).
Result<std::string> lineWithFlagValues(const CommandSpec& spec, std::string_view line, std::string_view name,
                                       std::span<const std::string> values);

std::string helpText(const CommandSpec& spec);

// Flag values. Errors name the flag: "--depth wants a whole number >= 0, not \"x\"".
Result<int> parseIntValue(std::string_view flag, std::string_view text, int min, int max);
Result<double> parseSecondsValue(std::string_view flag, std::string_view text);
std::vector<std::string> splitList(std::string_view commaSeparated);
// The inverse: "a,b,c".
std::string joinList(const std::vector<std::string>& items);

// The words of one shell command line (quotes, backslashes, continuations and comments as sh
// reads them), up to an unescaped newline; `consumed` says where it ended.
Result<std::vector<std::string>> shellLineWords(std::string_view text, std::size_t& consumed);
// A command line written as one string, split as a POSIX shell would (quotes, backslashes), without
// expansions: "--sbatch \"-N 4\"" is two words.
Result<std::vector<std::string>> splitCommandWords(std::string_view text);
// The same words, each with the text it was written as (quotes and all), so that a line can be
// edited word by word and keep the user's spelling of the words not edited.
struct WrittenWord {
    std::string word;
    std::string_view written; // a view into the text split
};
Result<std::vector<WrittenWord>> splitCommandWordsAsWritten(std::string_view text);
// The words joined back into a line a shell reads as the same words (quoted where needed).
std::string joinCommandWords(const std::vector<std::string>& words);

} // namespace topodeck
