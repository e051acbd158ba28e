#include "core/slurm/slurm_topology.h"

#include "core/natural_order.h"
#include "core/topology_index.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace topodeck {

namespace {

// ---------------------------------------------------------------------------------------------
// Hostlists

constexpr std::uint64_t kMaxHostsPerRange = 65536;             // hostlist.c MAX_RANGE
constexpr std::size_t kMaxHostsPerList = std::size_t{1} << 22; // keeps a typo from eating memory
constexpr std::size_t kMaxNumberDigits = 19;                   // always fits an unsigned 64-bit value

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string formatNumber(std::uint64_t value, std::size_t width) {
    std::string digits = std::to_string(value);
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    return digits;
}

Error hostlistError(std::string_view hostlist, std::string_view why) {
    return Error{"invalid hostlist \"" + std::string(hostlist) + "\": " + std::string(why)};
}

// "1-3,07,10-12" -> the numbers, formatted with the width of each range's low end.
bool expandRanges(std::string_view text, std::vector<std::string>& out, std::string& why) {
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
        const std::size_t dash = item.find('-');
        const std::string_view lo = item.substr(0, dash);
        const std::string_view hi = dash == std::string_view::npos ? lo : item.substr(dash + 1);
        const auto numeric = [](std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), isDigit); };
        if (!numeric(lo) || !numeric(hi)) {
            why = "invalid range '" + std::string(item) + "'";
            return false;
        }
        if (lo.size() > kMaxNumberDigits || hi.size() > kMaxNumberDigits) {
            why = "number too large in '" + std::string(item) + "'";
            return false;
        }
        const std::uint64_t low = std::stoull(std::string(lo));
        const std::uint64_t high = std::stoull(std::string(hi));
        if (high < low) {
            why = "invalid range '" + std::string(item) + "'";
            return false;
        }
        if (high - low + 1 > kMaxHostsPerRange) {
            why = "too many hosts in range '" + std::string(item) + "'";
            return false;
        }
        for (std::uint64_t n = low; n <= high; ++n) out.push_back(formatNumber(n, lo.size()));
        if (comma == std::string_view::npos) return true;
        start = comma + 1;
    }
}

// One entry without top-level separators: "gpu-[001-004]", "r[1-2]n[1-3]" or "login1".
bool expandEntry(std::string_view entry, std::vector<std::string>& out, std::string& why) {
    std::vector<std::string> texts;               // P0, P1, ..., text between and before brackets
    std::vector<std::vector<std::string>> values; // the numbers of each bracket
    std::size_t pos = 0;
    while (true) {
        const std::size_t open = entry.find('[', pos);
        const std::size_t close = entry.find(']', pos);
        if (open == std::string_view::npos) {
            if (close != std::string_view::npos) {
                why = "unbalanced ']'";
                return false;
            }
            if (!values.empty() && pos < entry.size()) {
                // Slurm 22.05 rejects a suffix after the last bracket ("a[1-2]b").
                why = "text after the last ']'";
                return false;
            }
            texts.emplace_back(entry.substr(pos));
            break;
        }
        if (close != std::string_view::npos && close < open) {
            why = "unbalanced ']'";
            return false;
        }
        if (close == std::string_view::npos) {
            why = "missing ']'";
            return false;
        }
        if (entry.find('[', open + 1) < close) {
            why = "nested '['";
            return false;
        }
        texts.emplace_back(entry.substr(pos, open - pos));
        values.emplace_back();
        if (!expandRanges(entry.substr(open + 1, close - open - 1), values.back(), why)) return false;
        pos = close + 1;
    }
    if (values.empty()) {
        out.emplace_back(entry);
        return true;
    }
    std::size_t total = 1;
    for (const auto& v : values) {
        total *= v.size();
        if (total > kMaxHostsPerList) {
            why = "too many hosts";
            return false;
        }
    }
    // Slurm's order: the last bracket is the innermost loop; the others turn over like an
    // odometer read from the first bracket (fastest) to the last but one (slowest).
    const std::size_t k = values.size();
    std::vector<std::size_t> at(k, 0);
    for (std::size_t produced = 0; produced < total; ++produced) {
        std::string name;
        for (std::size_t i = 0; i < k; ++i) {
            name += texts[i];
            name += values[i][at[i]];
        }
        name += texts[k];
        out.push_back(std::move(name));
        if (++at[k - 1] < values[k - 1].size()) continue;
        at[k - 1] = 0;
        for (std::size_t i = 0; i + 1 < k; ++i) {
            if (++at[i] < values[i].size()) break;
            at[i] = 0;
        }
    }
    if (out.size() > kMaxHostsPerList) {
        why = "too many hosts";
        return false;
    }
    return true;
}

// A host name split as Slurm's hostname_create does: prefix + trailing number.
struct SplitName {
    std::string_view prefix;
    std::string_view digits; // empty when the name does not end in a number
    std::uint64_t value = 0;
};

SplitName splitName(std::string_view name) {
    std::size_t start = name.size();
    while (start > 0 && isDigit(name[start - 1])) --start;
    if (start == name.size() || name.size() - start > kMaxNumberDigits) return {name, {}, 0};
    const std::string_view digits = name.substr(start);
    return {name.substr(0, start), digits, std::stoull(std::string(digits))};
}

struct NumberRange {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::size_t width = 0; // expansion pads to the width of the low end as written
};

// ---------------------------------------------------------------------------------------------
// slurm.conf-style lines

std::string where(std::string_view source, int line) {
    std::string text(source);
    if (line > 0) text += ':' + std::to_string(line);
    return text + ": ";
}

bool sameKey(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

struct LogicalLine {
    int line = 0; // where it starts
    std::string text;
};

// parse_config.c's _get_next_line: strip comments ('#' not escaped), join lines that end in an
// odd number of backslashes, then drop the escapes ("\#" -> "#", "\\" -> "\").
std::vector<LogicalLine> logicalLines(std::string_view text) {
    std::vector<LogicalLine> lines;
    std::string pending;
    int pendingLine = 0;
    int number = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        std::string raw(text.substr(pos, end == std::string_view::npos ? text.npos : end - pos));
        pos = end == std::string_view::npos ? text.size() : end + 1;
        ++number;
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        int backslashes = 0;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '#' && backslashes % 2 == 0) {
                raw.resize(i);
                break;
            }
            backslashes = raw[i] == '\\' ? backslashes + 1 : 0;
        }
        std::size_t keep = raw.size();
        while (keep > 0 && isSpace(raw[keep - 1])) --keep;
        std::size_t trailing = 0;
        while (trailing < keep && raw[keep - 1 - trailing] == '\\') ++trailing;
        if (pending.empty()) pendingLine = number;
        if (trailing % 2 == 1) {
            pending += raw.substr(0, keep - 1);
            if (pos < text.size()) continue;
        } else {
            pending += raw;
        }
        std::string unescaped;
        for (std::size_t i = 0; i < pending.size(); ++i) {
            if (pending[i] == '\\') ++i;
            if (i < pending.size()) unescaped += pending[i];
        }
        lines.push_back({pendingLine, std::move(unescaped)});
        pending.clear();
    }
    return lines;
}

struct ConfPair {
    std::string key;
    std::string value;
};

// Key=value pairs as parse_config.c's regex reads them: key [A-Za-z0-9_.]+, '=', then a quoted
// value (may hold spaces) or a run of non-space characters.
Result<std::vector<ConfPair>> splitPairs(const std::string& text) {
    std::vector<ConfPair> pairs;
    std::size_t i = 0;
    const auto skipSpace = [&] {
        while (i < text.size() && isSpace(text[i])) ++i;
    };
    while (true) {
        skipSpace();
        if (i >= text.size()) return pairs;
        const std::size_t keyStart = i;
        while (i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.'))
            ++i;
        std::string key = text.substr(keyStart, i - keyStart);
        skipSpace();
        if (key.empty() || i >= text.size() || text[i] != '=')
            return Error{"Parse error: \"" + text.substr(keyStart) + "\" is not a Key=Value pair"};
        ++i;
        skipSpace();
        std::string value;
        if (i < text.size() && text[i] == '"') {
            const std::size_t close = text.find('"', i + 1);
            if (close == std::string::npos) return Error{"Parse error: unterminated quote after " + key + "="};
            value = text.substr(i + 1, close - i - 1);
            i = close + 1;
        } else {
            const std::size_t valueStart = i;
            while (i < text.size() && !isSpace(text[i])) ++i;
            value = text.substr(valueStart, i - valueStart);
            if (value.empty()) return Error{"Parse error: " + key + "= has no value"};
        }
        pairs.push_back({std::move(key), std::move(value)});
    }
}

// atoi(): leading blanks, a sign, digits; anything after them is ignored, nothing parses as 0.
std::int64_t atoiLike(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && isSpace(text[i])) ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    std::int64_t value = 0;
    for (; i < text.size() && isDigit(text[i]) && value < (std::int64_t{1} << 40); ++i)
        value = value * 10 + (text[i] - '0');
    return negative ? -value : value;
}

// The index of the first BlockSizes entry slurmctld rejects, or -1 (block_record.c's rules).
int firstInvalidBlockSize(const std::vector<std::int32_t>& sizes) {
    if (sizes.empty()) return -1;
    const std::int64_t base = sizes.front();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::int64_t size = sizes[i];
        if (size <= 0 || base <= 0 || size % base != 0) return static_cast<int>(i);
        const std::int64_t ratio = size / base;
        if ((ratio & (ratio - 1)) != 0 || ratio > (std::int64_t{1} << 15)) return static_cast<int>(i);
    }
    return -1;
}

int log2Exact(std::int64_t value) {
    int level = 0;
    while ((std::int64_t{1} << level) < value) ++level;
    return level;
}

// ---------------------------------------------------------------------------------------------
// Validation shared by topology.conf and topology.yaml (switch_record.c, block_record.c)

constexpr std::size_t kMaxSwitchNameLength = 64; // HOST_NAME_MAX

std::string sortedHostlist(std::vector<std::string> names) {
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
    return compressHostlist(names);
}

// `lineOf(i)` is where switch i was written, for messages.
Status finishTree(SlurmTopology& topology, std::string_view source, const std::function<int(std::size_t)>& lineOf) {
    std::vector<SlurmSwitch>& switches = topology.switches;
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < switches.size(); ++i) {
        SlurmSwitch& sw = switches[i];
        if (sw.name.size() > kMaxSwitchNameLength)
            return Error{where(source, lineOf(i)) + "SwitchName (" + sw.name + ") must be shorter than " +
                         std::to_string(kMaxSwitchNameLength) + " chars"};
        if (!byName.emplace(sw.name, i).second)
            return Error{where(source, lineOf(i)) + "Switch (" + sw.name + ") has already been defined"};
        if (!sw.nodes.empty() && !sw.switches.empty()) {
            topology.warnings.push_back(where(source, lineOf(i)) + "Ignoring children switches for " + sw.name);
            sw.switches.clear();
        }
    }
    std::vector<std::vector<std::size_t>> children(switches.size());
    std::vector<std::vector<std::size_t>> parents(switches.size());
    for (std::size_t i = 0; i < switches.size(); ++i) {
        for (const std::string& child : switches[i].switches) {
            const auto found = byName.find(child);
            if (found == byName.end() || found->second == i)
                return Error{where(source, lineOf(i)) + "Switch configuration " + switches[i].name +
                             " has invalid child (" + child + ")"};
            children[i].push_back(found->second);
            parents[found->second].push_back(i);
        }
    }
    // A cycle is what makes slurmctld's level resolution give up.
    std::vector<int> state(switches.size(), 0); // 0 new, 1 on the stack, 2 done
    for (std::size_t start = 0; start < switches.size(); ++start) {
        if (state[start] != 0) continue;
        std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
        state[start] = 1;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next < children[node].size()) {
                const std::size_t child = children[node][next++];
                if (state[child] == 1) return Error{where(source, 0) + "Switch configuration is not a tree"};
                if (state[child] == 0) {
                    state[child] = 1;
                    stack.emplace_back(child, 0);
                }
            } else {
                state[node] = 2;
                stack.pop_back();
            }
        }
    }
    for (std::size_t i = 0; i < switches.size(); ++i) {
        if (parents[i].size() < 2) continue;
        std::string names;
        for (std::size_t p : parents[i]) names += (names.empty() ? "" : ", ") + switches[p].name;
        topology.warnings.push_back(where(source, lineOf(i)) + "Switch " + switches[i].name +
                                    " has more than one parent (" + names + "); slurmctld keeps the last");
    }
    std::unordered_set<std::string> seen;
    std::unordered_set<std::string> repeatedSet;
    std::vector<std::string> repeated;
    for (const SlurmSwitch& sw : switches)
        for (const std::string& node : sw.nodes)
            if (!seen.insert(node).second && repeatedSet.insert(node).second) repeated.push_back(node);
    if (!repeated.empty())
        topology.warnings.push_back(where(source, 0) +
                                    "Multiple leaf switches contain nodes: " + sortedHostlist(repeated));
    // "no switch can reach all nodes": no root whose subtree holds every leaf that has nodes.
    std::size_t leavesWithNodes = 0;
    for (const SlurmSwitch& sw : switches) leavesWithNodes += sw.nodes.empty() ? 0 : 1;
    bool haveRoot = leavesWithNodes == 0;
    std::vector<char> visited(switches.size(), 0);
    for (std::size_t root = 0; root < switches.size() && !haveRoot; ++root) {
        if (!parents[root].empty()) continue;
        std::fill(visited.begin(), visited.end(), 0);
        std::vector<std::size_t> todo{root};
        std::size_t reached = 0;
        while (!todo.empty()) {
            const std::size_t s = todo.back();
            todo.pop_back();
            if (visited[s]) continue;
            visited[s] = 1;
            reached += switches[s].nodes.empty() ? 0 : 1;
            for (std::size_t c : children[s]) todo.push_back(c);
        }
        haveRoot = reached == leavesWithNodes;
    }
    if (!haveRoot)
        topology.warnings.push_back(where(source, 0) +
                                    "TOPOLOGY: no switch can reach all nodes through its descendants. If this is "
                                    "not intentional, fix the topology.conf file.");
    return {};
}

Status finishBlocks(SlurmTopology& topology, std::string_view source, const std::function<int(std::size_t)>& lineOf) {
    if (topology.blocks.empty()) return Error{where(source, 0) + "No blocks configured"};
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < topology.blocks.size(); ++i)
        if (!names.insert(topology.blocks[i].name).second)
            return Error{where(source, lineOf(i)) + "Block (" + topology.blocks[i].name + ") has already been defined"};
    const bool anyNodes = std::any_of(topology.blocks.begin(), topology.blocks.end(),
                                      [](const SlurmBlock& b) { return !b.nodes.empty(); });
    if (!anyNodes && topology.blockSizes.empty())
        return Error{where(source, 0) + "Blocks do not contain any nodes and the BlockSizes are not set"};
    std::unordered_set<std::string> seen;
    std::unordered_set<std::string> repeatedSet;
    std::vector<std::string> repeated;
    for (const SlurmBlock& block : topology.blocks)
        for (const std::string& node : block.nodes)
            if (!seen.insert(node).second && repeatedSet.insert(node).second) repeated.push_back(node);
    if (!repeated.empty())
        topology.warnings.push_back(where(source, 0) + "Multiple blocks contain nodes: " + sortedHostlist(repeated));
    return {};
}

Result<std::vector<std::string>> expandAt(std::string_view value, std::string_view source, int line) {
    auto names = expandHostlist(value);
    if (!names) return Error{where(source, line) + names.error().message};
    return names;
}

// BlockSizes tokens as block_record.c reads them (strtok on ',', atoi).
Result<std::vector<std::int32_t>> parseBlockSizes(const std::vector<std::string>& tokens, std::string_view source,
                                                  int line) {
    std::vector<std::int32_t> sizes;
    for (const std::string& token : tokens) {
        const std::int64_t size = atoiLike(token);
        if (size <= 0 || size > INT32_MAX) return Error{where(source, line) + "Invalid BlockSizes value: " + token};
        sizes.push_back(static_cast<std::int32_t>(size));
    }
    if (sizes.empty()) return Error{where(source, line) + "Invalid BlockSizes value: (empty)"};
    if (const int bad = firstInvalidBlockSize(sizes); bad >= 0)
        return Error{where(source, line) + "Invalid BlockSizes value: " + tokens[static_cast<std::size_t>(bad)]};
    return sizes;
}

std::vector<std::string> splitOn(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find(separator, start);
        const std::string_view part = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
        if (!part.empty()) parts.emplace_back(part);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return parts;
}

// ---------------------------------------------------------------------------------------------
// topology.yaml

std::string yamlWhere(std::string_view source, const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    return where(source, mark.is_null() ? 0 : mark.line + 1);
}

int yamlLine(const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    return mark.is_null() ? 0 : mark.line + 1;
}

// A hostlist field: a string ("n[1-4]") or a list of them.
Result<std::vector<std::string>> yamlHostlist(const YAML::Node& node, std::string_view source) {
    std::vector<std::string> names;
    const auto add = [&](const YAML::Node& item) -> Status {
        if (!item.IsScalar()) return Error{yamlWhere(source, item) + "expected a hostlist string"};
        auto expanded = expandAt(item.Scalar(), source, yamlLine(item));
        if (!expanded) return expanded.error();
        names.insert(names.end(), expanded->begin(), expanded->end());
        return {};
    };
    if (node.IsSequence()) {
        for (const YAML::Node& item : node)
            if (Status s = add(item); !s) return s.error();
    } else if (!node.IsNull()) {
        if (Status s = add(node); !s) return s.error();
    }
    return names;
}

Result<std::string> yamlName(const YAML::Node& node, std::string_view source, std::string_view field) {
    if (!node.IsScalar() || node.Scalar().empty())
        return Error{yamlWhere(source, node) + std::string(field) + " must be a non-empty name"};
    return node.Scalar();
}

Status yamlTree(const YAML::Node& tree, SlurmTopology& topology, std::string_view source) {
    if (!tree.IsMap()) return Error{yamlWhere(source, tree) + "tree must be a mapping with switches"};
    std::vector<int> lines;
    for (const auto& field : tree) {
        const std::string key = field.first.as<std::string>();
        if (key != "switches") return Error{yamlWhere(source, field.first) + "unknown tree field \"" + key + "\""};
        if (!field.second.IsSequence()) return Error{yamlWhere(source, field.second) + "switches must be a list"};
        for (const YAML::Node& entry : field.second) {
            if (!entry.IsMap()) return Error{yamlWhere(source, entry) + "a switch must be a mapping"};
            SlurmSwitch sw;
            bool named = false;
            for (const auto& item : entry) {
                const std::string name = item.first.as<std::string>();
                if (name == "switch") {
                    auto value = yamlName(item.second, source, "switch");
                    if (!value) return value.error();
                    sw.name = std::move(*value);
                    named = true;
                } else if (name == "children") {
                    auto value = yamlHostlist(item.second, source);
                    if (!value) return value.error();
                    sw.switches = std::move(*value);
                } else if (name == "nodes") {
                    auto value = yamlHostlist(item.second, source);
                    if (!value) return value.error();
                    sw.nodes = std::move(*value);
                } else {
                    return Error{yamlWhere(source, item.first) + "unknown switch field \"" + name + "\""};
                }
            }
            if (!named) return Error{yamlWhere(source, entry) + "a switch needs a name (switch:)"};
            topology.switches.push_back(std::move(sw));
            lines.push_back(yamlLine(entry));
        }
    }
    if (topology.switches.empty())
        return Error{yamlWhere(source, tree) + "No switches configured in topology " + topology.name};
    return finishTree(topology, source, [&lines](std::size_t i) { return lines[i]; });
}

Status yamlBlock(const YAML::Node& block, SlurmTopology& topology, std::string_view source) {
    if (!block.IsMap()) return Error{yamlWhere(source, block) + "block must be a mapping with blocks"};
    std::vector<int> lines;
    for (const auto& field : block) {
        const std::string key = field.first.as<std::string>();
        if (key == "block_sizes") {
            std::vector<std::string> tokens;
            if (field.second.IsSequence()) {
                for (const YAML::Node& size : field.second) {
                    if (!size.IsScalar()) return Error{yamlWhere(source, size) + "block_sizes must list numbers"};
                    tokens.push_back(size.Scalar());
                }
            } else if (field.second.IsScalar()) {
                tokens = splitOn(field.second.Scalar(), ',');
            } else {
                return Error{yamlWhere(source, field.second) + "block_sizes must list numbers"};
            }
            auto sizes = parseBlockSizes(tokens, source, yamlLine(field.second));
            if (!sizes) return sizes.error();
            topology.blockSizes = std::move(*sizes);
        } else if (key == "blocks") {
            if (!field.second.IsSequence()) return Error{yamlWhere(source, field.second) + "blocks must be a list"};
            for (const YAML::Node& entry : field.second) {
                if (!entry.IsMap()) return Error{yamlWhere(source, entry) + "a block must be a mapping"};
                SlurmBlock b;
                bool named = false;
                for (const auto& item : entry) {
                    const std::string name = item.first.as<std::string>();
                    if (name == "block") {
                        auto value = yamlName(item.second, source, "block");
                        if (!value) return value.error();
                        b.name = std::move(*value);
                        named = true;
                    } else if (name == "nodes") {
                        auto value = yamlHostlist(item.second, source);
                        if (!value) return value.error();
                        b.nodes = std::move(*value);
                    } else {
                        return Error{yamlWhere(source, item.first) + "unknown block field \"" + name + "\""};
                    }
                }
                if (!named) return Error{yamlWhere(source, entry) + "a block needs a name (block:)"};
                topology.blocks.push_back(std::move(b));
                lines.push_back(yamlLine(entry));
            }
        } else {
            return Error{yamlWhere(source, field.first) + "unknown block field \"" + key + "\""};
        }
    }
    return finishBlocks(topology, source, [&lines](std::size_t i) { return i < lines.size() ? lines[i] : 0; });
}

Result<SlurmTopology> yamlTopology(const YAML::Node& entry, std::string_view source) {
    if (!entry.IsMap()) return Error{yamlWhere(source, entry) + "a topology must be a mapping"};
    SlurmTopology topology;
    bool named = false;
    int kinds = 0;
    std::optional<YAML::Node> tree;
    std::optional<YAML::Node> block;
    for (const auto& field : entry) {
        const std::string key = field.first.as<std::string>();
        if (key == "topology") {
            auto value = yamlName(field.second, source, "topology");
            if (!value) return value.error();
            topology.name = std::move(*value);
            named = true;
        } else if (key == "cluster_default") {
            bool value = false;
            if (!field.second.IsScalar() || !YAML::convert<bool>::decode(field.second, value))
                return Error{yamlWhere(source, field.second) + "cluster_default must be true or false"};
            topology.clusterDefault = value;
        } else if (key == "tree") {
            ++kinds;
            topology.kind = SlurmTopology::Kind::Tree;
            tree.emplace(field.second);
        } else if (key == "block") {
            ++kinds;
            topology.kind = SlurmTopology::Kind::Block;
            block.emplace(field.second);
        } else if (key == "flat") {
            bool value = false;
            const bool isBool = field.second.IsScalar() && YAML::convert<bool>::decode(field.second, value);
            if (!field.second.IsMap() && !(isBool && value))
                return Error{yamlWhere(source, field.second) + "flat must be true or a mapping"};
            ++kinds;
            topology.kind = SlurmTopology::Kind::Flat;
        } else if (key == "ring" || key == "torus3d") {
            return Error{yamlWhere(source, field.first) + key + " topologies (Slurm 26.05) are not supported"};
        } else {
            return Error{yamlWhere(source, field.first) + "unknown topology field \"" + key + "\""};
        }
    }
    if (!named) return Error{yamlWhere(source, entry) + "a topology needs a name (topology:)"};
    if (kinds != 1)
        return Error{yamlWhere(source, entry) + "topology " + topology.name +
                     " must define exactly one of tree, block or flat"};
    if (tree) {
        if (Status s = yamlTree(*tree, topology, source); !s) return s.error();
    } else if (block) {
        if (Status s = yamlBlock(*block, topology, source); !s) return s.error();
    }
    return topology;
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// topology.yaml starts with a list ("- topology: ..." or "---"); topology.conf with Key=Value.
bool looksLikeYaml(std::string_view text) {
    for (const LogicalLine& line : logicalLines(text)) {
        const std::size_t first = line.text.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        return line.text[first] == '-';
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// From the label hierarchy

// Every labelled domain under the root, depth first in children order (natural order), by level.
struct LabelledDomains {
    std::vector<std::vector<DomainId>> byLevel;
    std::vector<DomainId> all;
    std::size_t nodesLeftOut = 0; // nodes under an unlabelled domain
};

} // namespace

int slurmSwitchLevels(const TopologyIndex& index) {
    const auto& levels = index.spec().levels;
    const bool hostnameLowest = levels.size() > 1 && levels.back().nodeLabel == "kubernetes.io/hostname";
    return static_cast<int>(levels.size()) - (hostnameLowest ? 1 : 0);
}

namespace {

// Every node under a domain, in the index's (natural) order.
std::vector<NodeId> nodesUnder(const TopologyIndex& index, DomainId id) {
    std::vector<NodeId> nodes;
    std::vector<DomainId> stack{id};
    while (!stack.empty()) {
        const Domain& d = index.domain(stack.back());
        stack.pop_back();
        nodes.insert(nodes.end(), d.nodes.begin(), d.nodes.end());
        for (auto it = d.children.rbegin(); it != d.children.rend(); ++it) stack.push_back(*it);
    }
    return nodes;
}

// An NVLink domain's block is named after the rack (lowest switch-level domain) of its first
// node, which people can find, instead of the clique id (often a UUID); "-2", "-3", ... when a
// rack holds several domains. Without labels the clique id is all there is.
std::string nvlinkBlockName(const TopologyIndex& index, NodeId firstNode, std::int32_t nvlink,
                            std::unordered_set<std::string>& taken) {
    const int levels = slurmSwitchLevels(index);
    DomainId domain = index.node(firstNode).leaf;
    while (domain != kNoDomain && index.domain(domain).level >= levels) domain = index.domain(domain).parent;
    const bool named = domain != kNoDomain && index.domain(domain).level >= 0 && !index.domain(domain).unlabelled;
    const std::string base = named ? index.domain(domain).value : index.nvlinkName(nvlink);
    std::string name = base;
    for (int n = 2; !taken.insert(name).second; ++n) name = base + '-' + std::to_string(n);
    return name;
}

LabelledDomains labelledDomains(const TopologyIndex& index) {
    LabelledDomains result;
    const int depth = slurmSwitchLevels(index);
    result.byLevel.resize(static_cast<std::size_t>(depth));
    std::vector<DomainId> stack;
    const auto& top = index.root().children;
    for (auto it = top.rbegin(); it != top.rend(); ++it) stack.push_back(*it);
    while (!stack.empty()) {
        const DomainId id = stack.back();
        stack.pop_back();
        const Domain& d = index.domain(id);
        if (d.unlabelled) {
            result.nodesLeftOut += static_cast<std::size_t>(d.totals.nodesTotal);
            continue;
        }
        result.byLevel[static_cast<std::size_t>(d.level)].push_back(id);
        result.all.push_back(id);
        if (d.level + 1 < depth)
            for (auto it = d.children.rbegin(); it != d.children.rend(); ++it) stack.push_back(*it);
    }
    return result;
}

// Switch or block names: the value, or the path joined with '-' where values repeat. A name that
// still collides (a value containing '-') gets a numeric suffix.
std::unordered_map<DomainId, std::string> domainNames(const TopologyIndex& index, const std::vector<DomainId>& domains,
                                                      std::unordered_set<std::string>& taken) {
    std::unordered_map<std::string, int> counts;
    for (DomainId id : domains) ++counts[index.domain(id).value];
    std::unordered_map<DomainId, std::string> names;
    for (DomainId id : domains) {
        std::string name;
        if (counts[index.domain(id).value] == 1) {
            name = index.domain(id).value;
        } else {
            for (DomainId d : index.pathTo(id)) {
                if (index.domain(d).level < 0) continue;
                if (!name.empty()) name += '-';
                name += index.domain(d).value;
            }
        }
        std::string unique = name;
        for (int n = 2; !taken.insert(unique).second; ++n) unique = name + "-" + std::to_string(n);
        names.emplace(id, std::move(unique));
    }
    return names;
}

std::string levelList(const TopologyIndex& index) {
    std::string keys;
    for (const TopologyLevel& level : index.spec().levels) keys += (keys.empty() ? "" : ", ") + level.nodeLabel;
    return keys;
}

} // namespace

// ---------------------------------------------------------------------------------------------

Result<std::vector<std::string>> expandHostlist(std::string_view hostlist) {
    std::vector<std::string> names;
    std::string why;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= hostlist.size(); ++i) {
        const bool end = i == hostlist.size();
        if (!end && hostlist[i] == '[') ++depth;
        if (!end && hostlist[i] == ']') --depth;
        if (depth < 0) return hostlistError(hostlist, "unbalanced ']'");
        if (!end && (depth > 0 || (hostlist[i] != ',' && !isSpace(hostlist[i])))) continue;
        if (end && depth > 0) return hostlistError(hostlist, "missing ']'");
        if (i > start && !expandEntry(hostlist.substr(start, i - start), names, why))
            return hostlistError(hostlist, why);
        if (names.size() > kMaxHostsPerList) return hostlistError(hostlist, "too many hosts");
        start = i + 1;
    }
    return names;
}

std::string compressHostlist(const std::vector<std::string>& names) {
    std::string out;
    std::size_t i = 0;
    while (i < names.size()) {
        const SplitName first = splitName(names[i]);
        if (!out.empty()) out += ',';
        if (first.digits.empty()) {
            out += names[i++];
            continue;
        }
        // A run of neighbours with the same prefix shares one bracket; a number joins the last
        // range when it follows it and prints the same with that range's padding.
        std::vector<NumberRange> ranges{{first.value, first.value, first.digits.size()}};
        std::size_t hosts = 1;
        for (++i; i < names.size(); ++i) {
            const SplitName next = splitName(names[i]);
            if (next.digits.empty() || next.prefix != first.prefix) break;
            NumberRange& last = ranges.back();
            if (next.value == last.hi + 1 && formatNumber(next.value, last.width) == next.digits)
                last.hi = next.value;
            else
                ranges.push_back({next.value, next.value, next.digits.size()});
            ++hosts;
        }
        out += first.prefix;
        if (hosts == 1) {
            out += first.digits;
            continue;
        }
        out += '[';
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            if (r > 0) out += ',';
            out += formatNumber(ranges[r].lo, ranges[r].width);
            if (ranges[r].hi != ranges[r].lo) out += '-' + formatNumber(ranges[r].hi, ranges[r].width);
        }
        out += ']';
    }
    return out;
}

Result<SlurmTopology> parseTopologyConf(std::string_view text, std::string_view sourceName) {
    SlurmTopology topology;
    topology.clusterDefault = true; // topology.conf is the cluster's only topology, "default"
    std::vector<int> switchLines;
    std::vector<int> blockLines;
    bool haveBlockSizes = false;
    for (const LogicalLine& line : logicalLines(text)) {
        auto pairs = splitPairs(line.text);
        if (!pairs) return Error{where(sourceName, line.line) + pairs.error().message};
        const std::string at = where(sourceName, line.line);
        for (std::size_t i = 0; i < pairs->size(); ++i) {
            const ConfPair& pair = (*pairs)[i];
            const bool isSwitch = sameKey(pair.key, "SwitchName");
            if (isSwitch || sameKey(pair.key, "BlockName")) {
                // The record's handler reads the rest of the line with its own keys.
                std::vector<std::string> nodes;
                std::vector<std::string> children;
                bool haveNodes = false;
                std::vector<std::string> given;
                for (std::size_t j = i + 1; j < pairs->size(); ++j) {
                    const ConfPair& option = (*pairs)[j];
                    std::string canonical;
                    if (sameKey(option.key, "Nodes")) {
                        auto expanded = expandAt(option.value, sourceName, line.line);
                        if (!expanded) return expanded.error();
                        nodes = std::move(*expanded);
                        haveNodes = true;
                        canonical = "Nodes";
                    } else if (isSwitch && sameKey(option.key, "Switches")) {
                        auto expanded = expandAt(option.value, sourceName, line.line);
                        if (!expanded) return expanded.error();
                        children = std::move(*expanded);
                        canonical = "Switches";
                    } else if (isSwitch && sameKey(option.key, "LinkSpeed")) {
                        if (option.value.empty() || !std::all_of(option.value.begin(), option.value.end(), isDigit) ||
                            option.value.size() > 10 || std::stoull(option.value) > UINT32_MAX)
                            return Error{at + "LinkSpeed value \"" + option.value + "\" is not a valid number"};
                        canonical = "LinkSpeed";
                    } else {
                        return Error{at + "Parsing error at unrecognized key: " + option.key};
                    }
                    if (std::find(given.begin(), given.end(), canonical) != given.end())
                        topology.warnings.push_back(at + canonical + " specified more than once, latest value used");
                    given.push_back(canonical);
                }
                if (isSwitch) {
                    topology.switches.push_back({pair.value, std::move(children), std::move(nodes)});
                    switchLines.push_back(line.line);
                } else {
                    if (!haveNodes) return Error{at + "block " + pair.value + " hasn't got nodes"};
                    topology.blocks.push_back({pair.value, std::move(nodes)});
                    blockLines.push_back(line.line);
                }
                break;
            }
            if (sameKey(pair.key, "BlockSizes")) {
                if (haveBlockSizes)
                    topology.warnings.push_back(at + "BlockSizes specified more than once, latest value used");
                haveBlockSizes = true;
                auto sizes = parseBlockSizes(splitOn(pair.value, ','), sourceName, line.line);
                if (!sizes) return sizes.error();
                topology.blockSizes = std::move(*sizes);
                continue;
            }
            return Error{at + "Parsing error at unrecognized key: " + pair.key};
        }
    }
    const bool tree = !topology.switches.empty();
    const bool block = !topology.blocks.empty() || haveBlockSizes;
    if (tree && block)
        return Error{where(sourceName, 0) +
                     "mixes SwitchName lines (topology/tree) with BlockName/BlockSizes lines (topology/block)"};
    if (!tree && !block) return Error{where(sourceName, 0) + "no SwitchName or BlockName lines"};
    if (tree) {
        topology.kind = SlurmTopology::Kind::Tree;
        if (Status s = finishTree(topology, sourceName, [&switchLines](std::size_t i) { return switchLines[i]; }); !s)
            return s.error();
    } else {
        topology.kind = SlurmTopology::Kind::Block;
        if (Status s = finishBlocks(topology, sourceName, [&blockLines](std::size_t i) { return blockLines[i]; }); !s)
            return s.error();
    }
    return topology;
}

Result<std::vector<SlurmTopology>> parseTopologyYaml(std::string_view text, std::string_view sourceName) {
    try {
        const YAML::Node root = YAML::Load(std::string(text));
        if (!root || root.IsNull()) return Error{where(sourceName, 0) + "no topologies"};
        if (!root.IsSequence()) return Error{yamlWhere(sourceName, root) + "expected a list of topologies"};
        std::vector<SlurmTopology> topologies;
        std::unordered_set<std::string> names;
        for (const YAML::Node& entry : root) {
            auto topology = yamlTopology(entry, sourceName);
            if (!topology) return topology.error();
            if (!names.insert(topology->name).second)
                return Error{yamlWhere(sourceName, entry) + "topology " + topology->name + " is defined twice"};
            topologies.push_back(std::move(*topology));
        }
        if (topologies.empty()) return Error{where(sourceName, 0) + "no topologies"};
        return topologies;
    } catch (const YAML::Exception& e) {
        return Error{where(sourceName, e.mark.is_null() ? 0 : e.mark.line + 1) + e.msg};
    }
}

Result<std::vector<SlurmTopology>> readSlurmTopologyFile(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    std::ostringstream buffer;
    buffer << file.rdbuf();
    const std::string text = buffer.str();
    const bool yaml =
        endsWith(path, ".yaml") || endsWith(path, ".yml") || (!endsWith(path, ".conf") && looksLikeYaml(text));
    if (!yaml) {
        auto topology = parseTopologyConf(text, path);
        if (!topology) return topology.error();
        return std::vector<SlurmTopology>{std::move(*topology)};
    }
    auto topologies = parseTopologyYaml(text, path);
    if (!topologies) return topologies.error();
    auto first =
        std::find_if(topologies->begin(), topologies->end(), [](const SlurmTopology& t) { return t.clusterDefault; });
    if (first != topologies->end()) std::rotate(topologies->begin(), first, first + 1);
    return topologies;
}

std::string writeTopologyConf(const SlurmTopology& topology) {
    std::string out;
    switch (topology.kind) {
    case SlurmTopology::Kind::Flat:
        return "# topology \"" + topology.name + "\" is flat: topology/flat needs no topology.conf\n";
    case SlurmTopology::Kind::Block:
        out = "# topology.conf for topology/block (topology \"" + topology.name + "\")\n";
        for (const SlurmBlock& block : topology.blocks)
            out += "BlockName=" + block.name + " Nodes=" + compressHostlist(block.nodes) + '\n';
        if (!topology.blockSizes.empty()) {
            out += "BlockSizes=";
            for (std::size_t i = 0; i < topology.blockSizes.size(); ++i)
                out += (i > 0 ? "," : "") + std::to_string(topology.blockSizes[i]);
            out += '\n';
        }
        return out;
    case SlurmTopology::Kind::Tree:
        break;
    }
    // Levels: leaf = 0, else 1 + the highest child (a valid topology has no cycles).
    const std::vector<SlurmSwitch>& switches = topology.switches;
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < switches.size(); ++i) byName.emplace(switches[i].name, i);
    std::vector<int> level(switches.size(), -1);
    const std::function<int(std::size_t, std::size_t)> levelOf = [&](std::size_t i, std::size_t depth) {
        if (level[i] >= 0 || depth > switches.size()) return std::max(level[i], 0);
        int highest = -1;
        for (const std::string& child : switches[i].switches)
            if (auto found = byName.find(child); found != byName.end())
                highest = std::max(highest, levelOf(found->second, depth + 1));
        level[i] = highest + 1;
        return level[i];
    };
    for (std::size_t i = 0; i < switches.size(); ++i) levelOf(i, 0);
    std::vector<std::size_t> order(switches.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&level](std::size_t a, std::size_t b) { return level[a] < level[b]; });
    out = "# topology.conf for topology/tree (topology \"" + topology.name + "\"): leaf switches first\n";
    for (std::size_t i : order) {
        const SlurmSwitch& sw = switches[i];
        out += "SwitchName=" + sw.name;
        if (!sw.nodes.empty()) out += " Nodes=" + compressHostlist(sw.nodes);
        if (!sw.switches.empty()) out += " Switches=" + compressHostlist(sw.switches);
        out += '\n';
    }
    return out;
}

Result<SlurmBlockLevels> slurmBlockLevels(const std::vector<std::int32_t>& blockSizes) {
    SlurmBlockLevels result;
    if (blockSizes.empty()) {
        result.levels = 0x1F; // levels 0-4: 1, 2, 4, 8 and 16 base blocks
        return result;
    }
    if (const int bad = firstInvalidBlockSize(blockSizes); bad >= 0)
        return Error{"Invalid BlockSizes value: " + std::to_string(blockSizes[static_cast<std::size_t>(bad)])};
    result.baseNodes = blockSizes.front();
    for (std::int32_t size : blockSizes) result.levels |= 1u << log2Exact(size / result.baseNodes);
    return result;
}

SlurmTopology slurmTreeFromIndex(const ClusterState& state, const TopologyIndex& index) {
    SlurmTopology topology;
    topology.kind = SlurmTopology::Kind::Tree;
    topology.clusterDefault = true;
    const int depth = slurmSwitchLevels(index);
    if (depth == 0) return topology;
    const LabelledDomains domains = labelledDomains(index);
    std::unordered_set<std::string> taken;
    const auto names = domainNames(index, domains.all, taken);
    for (int level = depth - 1; level >= 0; --level) {
        for (DomainId id : domains.byLevel[static_cast<std::size_t>(level)]) {
            SlurmSwitch sw;
            sw.name = names.at(id);
            if (level == depth - 1) {
                for (NodeId node : nodesUnder(index, id)) sw.nodes.push_back(state.record(node).node->name);
            } else {
                for (DomainId child : index.domain(id).children)
                    if (!index.domain(child).unlabelled) sw.switches.push_back(names.at(child));
            }
            topology.switches.push_back(std::move(sw));
        }
    }
    const std::vector<DomainId>& top = domains.byLevel.front();
    if (top.size() > 1) {
        SlurmSwitch root;
        root.name = "root";
        for (int n = 2; !taken.insert(root.name).second; ++n) root.name = "root-" + std::to_string(n);
        for (DomainId id : top) root.switches.push_back(names.at(id));
        topology.switches.push_back(std::move(root));
    }
    if (domains.nodesLeftOut > 0)
        topology.warnings.push_back(std::to_string(domains.nodesLeftOut) + " nodes lack a label of the hierarchy (" +
                                    levelList(index) + ") and are under no switch");
    return topology;
}

SlurmIndexBlocks slurmBlockNodesFromIndex(const TopologyIndex& index) {
    SlurmIndexBlocks blocks;
    const int depth = index.spec().depth();
    if (!index.spec().nvlinkLabel.empty() && index.nvlinkDomainCount() > 0) {
        // NVLink domains, met in the order of the lowest-level domains (unlabelled ones too: the
        // NVLink fabric does not need the scale-out labels).
        blocks.fromNvlink = true;
        std::unordered_set<std::string> taken;
        std::vector<std::int32_t> blockOf(index.nvlinkDomainCount(), -1);
        std::vector<DomainId> stack{kRootDomain};
        while (!stack.empty()) {
            const Domain& d = index.domain(stack.back());
            stack.pop_back();
            for (auto it = d.children.rbegin(); it != d.children.rend(); ++it) stack.push_back(*it);
            for (NodeId node : d.nodes) {
                const std::int32_t nvlink = index.node(node).nvlinkDomain;
                if (nvlink == kNoNvlinkDomain) {
                    ++blocks.nodesLeftOut;
                    continue;
                }
                std::int32_t& block = blockOf[static_cast<std::size_t>(nvlink)];
                if (block < 0) {
                    block = static_cast<std::int32_t>(blocks.names.size());
                    blocks.names.push_back(nvlinkBlockName(index, node, nvlink, taken));
                    blocks.nodes.emplace_back();
                }
                blocks.nodes[static_cast<std::size_t>(block)].push_back(node);
            }
        }
        return blocks;
    }
    if (depth == 0) return blocks;
    const LabelledDomains domains = labelledDomains(index);
    const std::vector<DomainId>& lowest = domains.byLevel.back();
    std::unordered_set<std::string> taken;
    const auto names = domainNames(index, lowest, taken);
    for (DomainId id : lowest) {
        blocks.names.push_back(names.at(id));
        blocks.nodes.push_back(nodesUnder(index, id));
    }
    blocks.nodesLeftOut = domains.nodesLeftOut;
    return blocks;
}

SlurmTopology slurmBlocksFromIndex(const ClusterState& state, const TopologyIndex& index) {
    SlurmTopology topology;
    topology.kind = SlurmTopology::Kind::Block;
    topology.clusterDefault = true;
    const SlurmIndexBlocks blocks = slurmBlockNodesFromIndex(index);
    for (std::size_t b = 0; b < blocks.names.size(); ++b) {
        SlurmBlock block{blocks.names[b], {}};
        for (NodeId node : blocks.nodes[b]) block.nodes.push_back(state.record(node).node->name);
        std::sort(block.nodes.begin(), block.nodes.end(),
                  [](const std::string& a, const std::string& b2) { return naturalLess(a, b2); });
        topology.blocks.push_back(std::move(block));
    }
    if (blocks.nodesLeftOut > 0) {
        const std::string missing = blocks.fromNvlink ? "an NVLink domain label (" + index.spec().nvlinkLabel + ")"
                                                      : "a label of the hierarchy (" + levelList(index) + ")";
        topology.warnings.push_back(std::to_string(blocks.nodesLeftOut) + " nodes lack " + missing +
                                    " and are in no block");
    }
    return topology;
}

} // namespace topodeck
