#include "core/slurm/slurm_text.h"

#include "core/text/hostlist.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <optional>
#include <set>
#include <utility>

namespace topodeck {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isKeyChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool isLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool startsWithKey(std::string_view text, std::string_view key) {
    return text.size() > key.size() && text[key.size()] == '=' && equalsIgnoreCase(text.substr(0, key.size()), key);
}

// The lines of a text, numbered from 1, without their line ends.
template <class F> void forEachLine(std::string_view text, F&& onLine) {
    int number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        ++number;
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        onLine(number, line);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
}

template <class Int> bool parseNumber(std::string_view text, Int& out) {
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

// ---------------------------------------------------------------------------------------------
// scontrol show topology

struct Pair {
    std::string_view key;
    std::string_view value;
};

Error topologyError(int line, std::string_view why) {
    return Error{"scontrol show topology: line " + std::to_string(line) + ": " + std::string(why)};
}

Result<std::vector<Pair>> splitTokens(std::string_view line, int number) {
    std::vector<Pair> pairs;
    while (true) {
        while (!line.empty() && isSpace(line.front())) line.remove_prefix(1);
        if (line.empty()) break;
        std::size_t end = 0;
        while (end < line.size() && !isSpace(line[end])) ++end;
        const std::string_view token = line.substr(0, end);
        line.remove_prefix(end);
        const std::size_t equals = token.find('=');
        if (equals == std::string_view::npos || equals == 0)
            return topologyError(number, inQuotes(token) + " is not Key=Value");
        pairs.push_back({token.substr(0, equals), token.substr(equals + 1)});
    }
    return pairs;
}

Result<std::vector<std::string>> expandField(std::string_view value, std::string_view key, int line,
                                             HostlistBounds& boundsLeft) {
    Result<std::vector<std::string>> names = expandHostlistOfFile(value, boundsLeft);
    if (!names) return topologyError(line, std::string(key) + ": " + names.error().message);
    return names;
}

// The fields of a switch or block line that matter: the rest (Level, LinkSpeed, BlockIndex)
// is only checked to be a number.
struct EntryFields {
    std::string_view nodes;
    std::string_view switches;
    std::int32_t blockSize = 0;
};

Result<EntryFields> entryFields(const std::vector<Pair>& pairs, int number) {
    EntryFields fields;
    for (std::size_t i = 1; i < pairs.size(); ++i) {
        const Pair& pair = pairs[i];
        std::int32_t numeric = 0;
        if (equalsIgnoreCase(pair.key, "Nodes")) {
            fields.nodes = pair.value;
        } else if (equalsIgnoreCase(pair.key, "Switches")) {
            fields.switches = pair.value;
        } else if (equalsIgnoreCase(pair.key, "Level") || equalsIgnoreCase(pair.key, "LinkSpeed") ||
                   equalsIgnoreCase(pair.key, "BlockIndex") || equalsIgnoreCase(pair.key, "BlockSize")) {
            if (!parseNumber(pair.value, numeric) || numeric < 0)
                return topologyError(number,
                                     std::string(pair.key) + ": expected a number, got " + inQuotes(pair.value));
            if (equalsIgnoreCase(pair.key, "BlockSize")) fields.blockSize = numeric;
        }
    }
    return fields;
}

// Builds the topology from scontrol's lines one at a time: switch lines (topology/tree) or block
// lines (topology/block), never both.
class ScontrolTopologyReader {
public:
    ScontrolTopologyReader() {
        m_topology.clusterDefault = true; // what scontrol shows is the topology the cluster uses
        m_topology.kind = SlurmTopology::Kind::Flat;
    }

    Status readLine(int number, std::string_view line) {
        line = trimWhitespace(line);
        // Empty for topology/flat; scontrol says so on stderr, which callers may have merged.
        if (line.empty() || line.find("No topology information available") != std::string_view::npos) return {};
        Result<std::vector<Pair>> pairs = splitTokens(line, number);
        if (!pairs) return pairs.error();
        const Pair& head = pairs->front();
        const bool isSwitch = equalsIgnoreCase(head.key, "SwitchName");
        const bool isBlock = equalsIgnoreCase(head.key, "BlockName") || equalsIgnoreCase(head.key, "AggregatedBlock");
        const bool isSizes = equalsIgnoreCase(head.key, "BlockSizes");
        if (!isSwitch && !isBlock && !isSizes)
            return topologyError(number, "expected SwitchName=, BlockName= or BlockSizes=, got " + inQuotes(line));
        if (isSwitch ? m_firstBlockLine != 0 : m_firstSwitchLine != 0)
            return topologyError(number, "switch and block lines mixed (line " +
                                             std::to_string(isSwitch ? m_firstBlockLine : m_firstSwitchLine) + ")");
        int& firstLine = isSwitch ? m_firstSwitchLine : m_firstBlockLine;
        if (firstLine == 0) firstLine = number;
        if (isSizes) return readBlockSizes(number, head.value);
        if (head.value.empty()) return topologyError(number, std::string(head.key) + " is empty");
        Result<EntryFields> fields = entryFields(*pairs, number);
        if (!fields) return fields.error();
        if (equalsIgnoreCase(head.key, "AggregatedBlock")) {
            // Unions of base blocks that slurmctld derives from BlockSizes: not configured blocks.
            if (fields->blockSize > 0) m_aggregatedSizes.push_back(fields->blockSize);
            return {};
        }
        if (isBlock) return addBlock(number, head.value, *fields);
        return addSwitch(number, head.value, *fields);
    }

    // The topology read, its kind from what the lines held.
    SlurmTopology finish() && {
        if (!m_topology.switches.empty()) {
            m_topology.kind = SlurmTopology::Kind::Tree;
        } else if (!m_topology.blocks.empty() || m_sawBlockSizes) {
            m_topology.kind = SlurmTopology::Kind::Block;
            // Without a BlockSizes line the sizes in use show in the aggregated blocks printed.
            if (!m_sawBlockSizes && !m_aggregatedSizes.empty() && m_baseBlockSize > 0) {
                m_aggregatedSizes.push_back(m_baseBlockSize);
                std::sort(m_aggregatedSizes.begin(), m_aggregatedSizes.end());
                m_aggregatedSizes.erase(std::unique(m_aggregatedSizes.begin(), m_aggregatedSizes.end()),
                                        m_aggregatedSizes.end());
                m_topology.blockSizes = std::move(m_aggregatedSizes);
            }
        }
        return std::move(m_topology);
    }

private:
    // BlockSizes=4,16,64: the last such line wins.
    Status readBlockSizes(int number, std::string_view list) {
        m_sawBlockSizes = true;
        m_topology.blockSizes.clear();
        while (true) {
            const std::size_t comma = list.find(',');
            std::int32_t size = 0;
            if (!parseNumber(list.substr(0, comma), size) || size <= 0)
                return topologyError(number, "BlockSizes: invalid size " + inQuotes(list.substr(0, comma)));
            m_topology.blockSizes.push_back(size);
            if (comma == std::string_view::npos) break;
            list.remove_prefix(comma + 1);
        }
        return {};
    }

    Status addBlock(int number, std::string_view name, const EntryFields& fields) {
        SlurmBlock block;
        block.name = std::string(name);
        Result<std::vector<std::string>> names = expandField(fields.nodes, "Nodes", number, m_boundsLeft);
        if (!names) return names.error();
        block.nodes = std::move(*names);
        if (m_baseBlockSize == 0) m_baseBlockSize = fields.blockSize;
        m_topology.blocks.push_back(std::move(block));
        return {};
    }

    Status addSwitch(int number, std::string_view name, const EntryFields& fields) {
        SlurmSwitch sw;
        sw.name = std::string(name);
        if (!m_switchNames.insert(sw.name).second)
            return topologyError(number, "switch " + inQuotes(sw.name) + " is listed twice");
        // A switch above leaves prints the union of its leaves' nodes too: keep its children only.
        const bool leaf = fields.switches.empty();
        Result<std::vector<std::string>> names = leaf ? expandField(fields.nodes, "Nodes", number, m_boundsLeft)
                                                      : expandField(fields.switches, "Switches", number, m_boundsLeft);
        if (!names) return names.error();
        (leaf ? sw.nodes : sw.switches) = std::move(*names);
        m_topology.switches.push_back(std::move(sw));
        return {};
    }

    SlurmTopology m_topology;
    std::set<std::string, std::less<>> m_switchNames;
    std::vector<std::int32_t> m_aggregatedSizes;
    std::int32_t m_baseBlockSize = 0; // the first block's BlockSize
    bool m_sawBlockSizes = false;
    int m_firstSwitchLine = 0;
    int m_firstBlockLine = 0;
    HostlistBounds m_boundsLeft = kOneFileHostlistBounds;
};

// ---------------------------------------------------------------------------------------------
// scontrol -o show nodes

Error nodesError(int line, std::string_view why) {
    return Error{"scontrol show nodes: line " + std::to_string(line) + ": " + std::string(why)};
}

struct NodeSegment {
    int line = 0;
    std::string_view text;
};

// Key=Value pairs of one line of scontrol's node output. Values may hold spaces ("OS=Linux 6.1.0
// #1 SMP ..."), so a key is a word followed by '=' that starts the line or follows a blank; the
// value runs to the next key. Reason= is free text to the end of the line.
std::vector<Pair> nodePairs(std::string_view text) {
    std::vector<Pair> pairs;
    const auto keyAt = [&](std::size_t at, std::size_t& equals) {
        if (at >= text.size() || !isLetter(text[at])) return false;
        if (at > 0 && !isSpace(text[at - 1])) return false;
        std::size_t end = at;
        while (end < text.size() && isKeyChar(text[end])) ++end;
        if (end >= text.size() || text[end] != '=') return false;
        equals = end;
        return true;
    };
    std::size_t at = 0;
    std::size_t equals = 0;
    while (at < text.size() && !keyAt(at, equals)) ++at;
    while (at < text.size()) {
        const std::string_view key = text.substr(at, equals - at);
        const std::size_t valueStart = equals + 1;
        std::size_t next = text.size();
        std::size_t nextEquals = 0;
        if (key != "Reason") {
            for (std::size_t i = valueStart; i < text.size(); ++i) {
                if (keyAt(i, nextEquals)) {
                    next = i;
                    break;
                }
            }
        }
        pairs.push_back({key, trimWhitespace(text.substr(valueStart, next - valueStart))});
        at = next;
        equals = nextEquals;
    }
    return pairs;
}

std::string_view withoutNull(std::string_view value) {
    return (value == "(null)" || value == "N/A") ? std::string_view() : value;
}

// "xid-79 [root@2026-12-01T11:29:45]" -> "xid-79".
std::string_view reasonText(std::string_view value) {
    if (!value.empty() && value.back() == ']') {
        const std::size_t open = value.rfind(" [");
        if (open != std::string_view::npos && value.find('@', open) != std::string_view::npos)
            return trimWhitespace(value.substr(0, open));
    }
    return value;
}

Result<SlurmNode> nodeFromSegments(const std::vector<NodeSegment>& segments) {
    SlurmNode node;
    std::string_view gres;
    std::string_view gresUsed;
    int gresLine = 0;
    int gresUsedLine = 0;
    for (const NodeSegment& segment : segments) {
        for (const Pair& pair : nodePairs(segment.text)) {
            const auto number = [&](std::int64_t& out) -> Status {
                if (parseNumber(pair.value, out)) return {};
                return nodesError(segment.line,
                                  std::string(pair.key) + ": expected a number, got " + inQuotes(pair.value));
            };
            Status s;
            if (pair.key == "NodeName") {
                node.name = std::string(pair.value);
            } else if (pair.key == "State") {
                addSlurmNodeState(node, pair.value);
            } else if (pair.key == "CPUTot") {
                s = number(node.cpus);
            } else if (pair.key == "CPUAlloc") {
                s = number(node.cpusAllocated);
            } else if (pair.key == "RealMemory") {
                s = number(node.memoryMiB);
            } else if (pair.key == "AllocMem") {
                s = number(node.memoryAllocatedMiB);
            } else if (pair.key == "Weight") {
                std::int64_t weight = 0;
                s = number(weight);
                if (s && (weight < 0 || weight > 0xffffffffLL))
                    s = nodesError(segment.line, "Weight: " + std::to_string(weight) + " is out of range");
                if (s) node.weight = static_cast<std::uint32_t>(weight);
            } else if (pair.key == "Gres") {
                gres = pair.value;
                gresLine = segment.line;
            } else if (pair.key == "GresUsed") {
                gresUsed = pair.value;
                gresUsedLine = segment.line;
            } else if (pair.key == "Partitions") {
                std::string_view list = withoutNull(pair.value);
                while (!list.empty()) {
                    const std::size_t comma = list.find(',');
                    if (comma != 0) node.partitions.emplace_back(list.substr(0, comma));
                    if (comma == std::string_view::npos) break;
                    list.remove_prefix(comma + 1);
                }
            } else if (pair.key == "Reason") {
                node.reason = std::string(reasonText(pair.value));
            } else if (pair.key == "AvailableFeatures") {
                node.features = std::string(withoutNull(pair.value));
            }
            if (!s) return s.error();
        }
    }
    Result<std::vector<SlurmGres>> configured = parseGresList(gres);
    if (!configured) return nodesError(gresLine, "Gres: " + configured.error().message);
    node.gpus = gresGpuCount(*configured);
    node.gpuType = gresGpuType(*configured);
    Result<std::vector<SlurmGres>> used = parseGresList(gresUsed);
    if (!used) return nodesError(gresUsedLine, "GresUsed: " + used.error().message);
    node.gpusUsed = gresGpuCount(*used);
    return node;
}

// ---------------------------------------------------------------------------------------------
// sbatch --test-only

// "2026-12-01T12:28:00" as local time.
std::int64_t localTime(std::string_view text) {
    std::tm tm{};
    int year = 0;
    int month = 0;
    int day = 0;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':')
        return 0;
    if (!parseNumber(text.substr(0, 4), year) || !parseNumber(text.substr(5, 2), month) ||
        !parseNumber(text.substr(8, 2), day) || !parseNumber(text.substr(11, 2), hour) ||
        !parseNumber(text.substr(14, 2), minute) || !parseNumber(text.substr(17, 2), second))
        return 0;
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    return t == static_cast<std::time_t>(-1) ? 0 : static_cast<std::int64_t>(t);
}

Error sbatchError(std::string_view text) {
    return Error{"sbatch --test-only: unexpected output " + inQuotes(trimWhitespace(text))};
}

// "sbatch: Job 6 to start at <time> using 4 processors on nodes gpu-[001-004] in partition gpu"
bool parseStartLine(std::string_view line, SbatchTestOnly& out) {
    constexpr std::string_view toStart = " to start at ";
    constexpr std::string_view using_ = " using ";
    constexpr std::string_view processors = " processors on nodes ";
    constexpr std::string_view inPartition = " in partition ";
    const std::size_t job = line.find("Job ");
    const std::size_t start = line.find(toStart);
    if (job == std::string_view::npos || start == std::string_view::npos || start < job) return false;
    std::uint32_t id = 0;
    if (!parseNumber(line.substr(job + 4, start - job - 4), id)) return false;
    std::string_view rest = line.substr(start + toStart.size());
    const std::size_t usingAt = rest.find(using_);
    if (usingAt == std::string_view::npos) return false;
    out.startText = std::string(rest.substr(0, usingAt));
    rest.remove_prefix(usingAt + using_.size());
    const std::size_t processorsAt = rest.find(processors);
    if (processorsAt == std::string_view::npos || !parseNumber(rest.substr(0, processorsAt), out.processors))
        return false;
    rest.remove_prefix(processorsAt + processors.size());
    const std::size_t partitionAt = rest.find(inPartition);
    if (partitionAt == std::string_view::npos) return false;
    out.nodes = std::string(trimWhitespace(rest.substr(0, partitionAt)));
    out.partition = std::string(trimWhitespace(rest.substr(partitionAt + inPartition.size())));
    out.startTime = localTime(out.startText);
    out.feasible = true;
    return !out.nodes.empty() && !out.partition.empty();
}

} // namespace

Result<SlurmTopology> parseScontrolTopology(std::string_view text) {
    ScontrolTopologyReader reader;
    Status status;
    forEachLine(text, [&](int number, std::string_view line) {
        if (status) status = reader.readLine(number, line); // the first error ends the reading
    });
    if (!status) return status.error();
    return std::move(reader).finish();
}

Result<std::vector<SlurmNode>> parseScontrolNodes(std::string_view text) {
    std::vector<SlurmNode> nodes;
    std::vector<NodeSegment> current;
    Status status;
    const auto finish = [&]() {
        if (current.empty() || !status) return;
        Result<SlurmNode> node = nodeFromSegments(current);
        current.clear();
        if (!node) {
            status = node.error();
            return;
        }
        nodes.push_back(std::move(*node));
    };
    forEachLine(text, [&](int number, std::string_view line) {
        if (!status) return;
        const std::string_view content = trimWhitespace(line);
        if (content.empty()) {
            finish();
            return;
        }
        // -o prints a node per line; without it a node's further lines are indented.
        if (startsWithKey(content, "NodeName")) {
            finish();
        } else if (current.empty() || !isSpace(line.front())) {
            status = nodesError(number, "expected NodeName=..., got " + inQuotes(content));
            return;
        }
        current.push_back({number, content});
    });
    finish();
    if (!status) return status.error();
    return nodes;
}

Result<SbatchTestOnly> parseSbatchTestOnly(std::string_view stderrText) {
    constexpr std::string_view allocationFailure = "allocation failure: ";
    constexpr std::string_view submissionFailed = "Batch job submission failed: ";
    std::optional<SbatchTestOnly> answer;
    forEachLine(stderrText, [&](int, std::string_view line) {
        if (answer) return;
        SbatchTestOnly result;
        if (parseStartLine(line, result)) {
            answer = std::move(result);
            return;
        }
        for (std::string_view marker : {allocationFailure, submissionFailed}) {
            const std::size_t at = line.find(marker);
            if (at == std::string_view::npos) continue;
            std::string_view message = trimWhitespace(line.substr(at + marker.size()));
            // "sbatch: error: Batch job submission failed: allocation failure: ..."
            if (message.substr(0, allocationFailure.size()) == allocationFailure)
                message.remove_prefix(allocationFailure.size());
            if (message.empty()) return;
            result.feasible = false;
            result.message = std::string(message);
            answer = std::move(result);
            return;
        }
    });
    if (!answer) return sbatchError(stderrText);
    return std::move(*answer);
}

Result<std::string> parseScontrolConfigVersion(std::string_view text) {
    // config_info.c prints every key padded to a column: "SLURM_VERSION           = 22.05.8".
    constexpr std::string_view key = "SLURM_VERSION";
    std::optional<std::string> version;
    forEachLine(text, [&](int, std::string_view line) {
        if (version) return;
        line = trimWhitespace(line);
        if (line.substr(0, key.size()) != key) return;
        std::string_view rest = trimWhitespace(line.substr(key.size()));
        if (rest.empty() || rest.front() != '=') return;
        rest = trimWhitespace(rest.substr(1));
        if (!rest.empty() && rest.size() <= 64) version = std::string(rest);
    });
    if (!version) return Error{"scontrol show config printed no SLURM_VERSION line"};
    return std::move(*version);
}

} // namespace topodeck
