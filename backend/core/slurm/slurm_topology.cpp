#include "core/slurm/slurm_topology.h"

#include "core/formats/yaml_document.h"
#include "core/text/hostlist.h"
#include "core/text/natural_order.h"
#include "core/text/text_file.h"
#include "core/text/text_format.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace topodeck {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// ---------------------------------------------------------------------------------------------
// slurm.conf-style lines

std::string where(std::string_view source, int line) {
    std::string text(source);
    if (line > 0) text += ':' + std::to_string(line);
    return text + ": ";
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
            // No name or hostlist holds a quote, and no value with one could be written back.
            if (value.find('"') != std::string::npos)
                return Error{"Parse error: a quote inside the value of " + key + "=" + value};
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

Result<std::vector<std::string>> expandAt(std::string_view value, std::string_view source, int line,
                                          HostlistBounds& boundsLeft) {
    auto names = expandHostlistOfFile(value, boundsLeft);
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
Result<std::vector<std::string>> yamlHostlist(const YAML::Node& node, std::string_view source, HostlistBounds& boundsLeft) {
    std::vector<std::string> names;
    const auto add = [&](const YAML::Node& item) -> Status {
        if (!item.IsScalar()) return Error{yamlWhere(source, item) + "expected a hostlist string"};
        auto expanded = expandAt(item.Scalar(), source, yamlLine(item), boundsLeft);
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

Status yamlTree(const YAML::Node& tree, SlurmTopology& topology, std::string_view source, HostlistBounds& boundsLeft) {
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
                    auto value = yamlHostlist(item.second, source, boundsLeft);
                    if (!value) return value.error();
                    sw.switches = std::move(*value);
                } else if (name == "nodes") {
                    auto value = yamlHostlist(item.second, source, boundsLeft);
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

Status yamlBlock(const YAML::Node& block, SlurmTopology& topology, std::string_view source, HostlistBounds& boundsLeft) {
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
                        auto value = yamlHostlist(item.second, source, boundsLeft);
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

// A quoted YAML string may spell any character ("\e"); names are shown on terminals.
Status checkNamesPrintable(const SlurmTopology& topology, const std::string& at) {
    std::vector<const std::string*> names{&topology.name};
    for (const SlurmSwitch& entry : topology.switches) {
        names.push_back(&entry.name);
        for (const std::string& name : entry.switches) names.push_back(&name);
        for (const std::string& name : entry.nodes) names.push_back(&name);
    }
    for (const SlurmBlock& block : topology.blocks) {
        names.push_back(&block.name);
        for (const std::string& name : block.nodes) names.push_back(&name);
    }
    for (const std::string* name : names)
        if (unprintableAt(*name) != std::string_view::npos)
            return Error{at + "the name " + inQuotes(*name) + " holds a control character"};
    return {};
}

Result<SlurmTopology> yamlTopology(const YAML::Node& entry, std::string_view source, HostlistBounds& boundsLeft) {
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
        if (Status s = yamlTree(*tree, topology, source, boundsLeft); !s) return s.error();
    } else if (block) {
        if (Status s = yamlBlock(*block, topology, source, boundsLeft); !s) return s.error();
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

} // namespace

Result<SlurmTopology> parseTopologyConf(std::string_view text, std::string_view sourceName) {
    SlurmTopology topology;
    topology.clusterDefault = true; // topology.conf is the cluster's only topology, "default"
    std::vector<int> switchLines;
    std::vector<int> blockLines;
    bool haveBlockSizes = false;
    HostlistBounds boundsLeft = kOneFileHostlistBounds;
    for (const LogicalLine& line : logicalLines(text)) {
        // Names from here are shown on terminals: no control characters, nothing but UTF-8.
        if (const std::size_t bad = unprintableAt(line.text, true); bad != std::string_view::npos)
            return Error{where(sourceName, line.line) + "holds " + std::string(unprintableKind(line.text, bad)) + ": " +
                         inQuotes(line.text)};
        auto pairs = splitPairs(line.text);
        if (!pairs) return Error{where(sourceName, line.line) + pairs.error().message};
        const std::string at = where(sourceName, line.line);
        for (std::size_t i = 0; i < pairs->size(); ++i) {
            const ConfPair& pair = (*pairs)[i];
            const bool isSwitch = equalsIgnoreCase(pair.key, "SwitchName");
            if (isSwitch || equalsIgnoreCase(pair.key, "BlockName")) {
                // The record's handler reads the rest of the line with its own keys.
                std::vector<std::string> nodes;
                std::vector<std::string> children;
                bool haveNodes = false;
                std::vector<std::string> given;
                for (std::size_t j = i + 1; j < pairs->size(); ++j) {
                    const ConfPair& option = (*pairs)[j];
                    std::string canonical;
                    if (equalsIgnoreCase(option.key, "Nodes")) {
                        auto expanded = expandAt(option.value, sourceName, line.line, boundsLeft);
                        if (!expanded) return expanded.error();
                        nodes = std::move(*expanded);
                        haveNodes = true;
                        canonical = "Nodes";
                    } else if (isSwitch && equalsIgnoreCase(option.key, "Switches")) {
                        auto expanded = expandAt(option.value, sourceName, line.line, boundsLeft);
                        if (!expanded) return expanded.error();
                        children = std::move(*expanded);
                        canonical = "Switches";
                    } else if (isSwitch && equalsIgnoreCase(option.key, "LinkSpeed")) {
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
            if (equalsIgnoreCase(pair.key, "BlockSizes")) {
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
    Result<YAML::Node> loaded = loadYamlDocument(text, sourceName);
    if (!loaded) return loaded.error();
    try {
        const YAML::Node& root = *loaded;
        if (!root || root.IsNull()) return Error{where(sourceName, 0) + "no topologies"};
        if (!root.IsSequence()) return Error{yamlWhere(sourceName, root) + "expected a list of topologies"};
        std::vector<SlurmTopology> topologies;
        std::unordered_set<std::string> names;
        HostlistBounds boundsLeft = kOneFileHostlistBounds;
        for (const YAML::Node& entry : root) {
            auto topology = yamlTopology(entry, sourceName, boundsLeft);
            if (!topology) return topology.error();
            if (Status s = checkNamesPrintable(*topology, yamlWhere(sourceName, entry)); !s) return s.error();
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
    Result<std::string> read = readTextFile(path);
    if (!read) return read.error();
    const std::string& text = *read;
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

namespace {

// A value as the reader above reads it back: '\\' and '#' escaped (the reader unescapes every
// backslash before it splits pairs, and '#' would start a comment), quoted when it holds blanks.
std::string confValue(std::string_view value) {
    std::string out;
    bool blank = value.empty();
    for (char c : value) {
        if (c == '\\' || c == '#') out += '\\';
        blank = blank || isSpace(c);
        out += c;
    }
    return blank ? '"' + out + '"' : out;
}

} // namespace

std::string writeTopologyConf(const SlurmTopology& topology) {
    std::string out;
    switch (topology.kind) {
    case SlurmTopology::Kind::Flat:
        return "# topology \"" + topology.name + "\" is flat: topology/flat needs no topology.conf\n";
    case SlurmTopology::Kind::Block:
        out = "# topology.conf for topology/block (topology \"" + topology.name + "\")\n";
        for (const SlurmBlock& block : topology.blocks)
            out += "BlockName=" + confValue(block.name) + " Nodes=" + confValue(compressHostlist(block.nodes)) + '\n';
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
        out += "SwitchName=" + confValue(sw.name);
        if (!sw.nodes.empty()) out += " Nodes=" + confValue(compressHostlist(sw.nodes));
        if (!sw.switches.empty()) out += " Switches=" + confValue(compressHostlist(sw.switches));
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

} // namespace topodeck
