#include "core/placement/requests/sbatch_args.h"

#include "core/text/command_args.h"

#include "core/values/quantity.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"
#include "core/text/natural_order.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace topodeck {

namespace {

// One argument and where it came from, for messages ("sbatch", "job.sh:4").
struct Token {
    std::string text;
    std::string where;
};

enum class Arg { None, Required, Optional };

enum class Id {
    Nodes,
    Ntasks,
    NtasksPerNode,
    CpusPerTask,
    CpusPerGpu,
    Mem,
    MemPerCpu,
    MemPerGpu,
    Gres,
    TresPerNode,
    GpusPerNode,
    Gpus,
    GpusPerTask,
    Exclusive,
    Switches,
    Segment,
    SpreadSegments,
    ConsolidateSegments,
    Contiguous,
    Nodelist,
    Exclude,
    Partition,
    JobName,
    Time,
    Wrap,
    Nodefile,
    PrintsOnly,
    Ignored,
};

struct Option {
    std::string_view name; // long name
    char letter;           // short name, 0 if none
    Arg arg;
    Id id;
};

// sbatch's options (slurm_opt.c); the ignored ones are listed in sbatch_args.h.
constexpr Option kOptions[] = {
    {"nodes", 'N', Arg::Required, Id::Nodes},
    {"ntasks", 'n', Arg::Required, Id::Ntasks},
    {"ntasks-per-node", 0, Arg::Required, Id::NtasksPerNode},
    {"cpus-per-task", 'c', Arg::Required, Id::CpusPerTask},
    {"cpus-per-gpu", 0, Arg::Required, Id::CpusPerGpu},
    {"mem", 0, Arg::Required, Id::Mem},
    {"mem-per-cpu", 0, Arg::Required, Id::MemPerCpu},
    {"mem-per-gpu", 0, Arg::Required, Id::MemPerGpu},
    {"gres", 0, Arg::Required, Id::Gres},
    {"tres-per-node", 0, Arg::Required, Id::TresPerNode},
    {"gpus-per-node", 0, Arg::Required, Id::GpusPerNode},
    {"gpus", 'G', Arg::Required, Id::Gpus},
    {"gpus-per-task", 0, Arg::Required, Id::GpusPerTask},
    {"exclusive", 0, Arg::Optional, Id::Exclusive},
    {"switches", 0, Arg::Required, Id::Switches},
    {"segment", 0, Arg::Required, Id::Segment},
    {"spread-segments", 0, Arg::None, Id::SpreadSegments},
    {"consolidate-segments", 0, Arg::None, Id::ConsolidateSegments},
    {"nodelist", 'w', Arg::Required, Id::Nodelist},
    {"exclude", 'x', Arg::Required, Id::Exclude},
    {"partition", 'p', Arg::Required, Id::Partition},
    {"job-name", 'J', Arg::Required, Id::JobName},
    {"time", 't', Arg::Required, Id::Time},
    {"wrap", 0, Arg::Required, Id::Wrap},
    {"nodefile", 'F', Arg::Required, Id::Nodefile},
    {"help", 'h', Arg::None, Id::PrintsOnly},
    {"usage", 'u', Arg::None, Id::PrintsOnly},
    {"version", 'V', Arg::None, Id::PrintsOnly},
    // Accepted, ignored, with a value.
    {"account", 'A', Arg::Required, Id::Ignored},
    {"array", 'a', Arg::Required, Id::Ignored},
    {"begin", 'b', Arg::Required, Id::Ignored},
    {"extra-node-info", 'B', Arg::Required, Id::Ignored},
    {"constraint", 'C', Arg::Required, Id::Ignored},
    {"cluster-constraint", 0, Arg::Required, Id::Ignored},
    {"comment", 0, Arg::Required, Id::Ignored},
    {"dependency", 'd', Arg::Required, Id::Ignored},
    {"chdir", 'D', Arg::Required, Id::Ignored},
    {"error", 'e', Arg::Required, Id::Ignored},
    {"output", 'o', Arg::Required, Id::Ignored},
    {"input", 'i', Arg::Required, Id::Ignored},
    {"export", 0, Arg::Required, Id::Ignored},
    {"export-file", 0, Arg::Required, Id::Ignored},
    {"mail-type", 0, Arg::Required, Id::Ignored},
    {"mail-user", 0, Arg::Required, Id::Ignored},
    {"priority", 0, Arg::Required, Id::Ignored},
    {"open-mode", 0, Arg::Required, Id::Ignored},
    {"qos", 'q', Arg::Required, Id::Ignored},
    {"reservation", 0, Arg::Required, Id::Ignored},
    {"signal", 0, Arg::Required, Id::Ignored},
    {"time-min", 0, Arg::Required, Id::Ignored},
    {"wckey", 0, Arg::Required, Id::Ignored},
    {"gpu-bind", 0, Arg::Required, Id::Ignored},
    {"gpu-freq", 0, Arg::Required, Id::Ignored},
    {"cpu-bind", 0, Arg::Required, Id::Ignored},
    {"cpu-freq", 0, Arg::Required, Id::Ignored},
    {"mem-bind", 0, Arg::Required, Id::Ignored},
    {"hint", 0, Arg::Required, Id::Ignored},
    {"distribution", 'm', Arg::Required, Id::Ignored},
    {"threads-per-core", 0, Arg::Required, Id::Ignored},
    {"cores-per-socket", 0, Arg::Required, Id::Ignored},
    {"sockets-per-node", 0, Arg::Required, Id::Ignored},
    {"ntasks-per-socket", 0, Arg::Required, Id::Ignored},
    {"ntasks-per-core", 0, Arg::Required, Id::Ignored},
    {"ntasks-per-gpu", 0, Arg::Required, Id::Ignored},
    {"gpus-per-socket", 0, Arg::Required, Id::Ignored},
    {"mincpus", 0, Arg::Required, Id::Ignored},
    {"tmp", 0, Arg::Required, Id::Ignored},
    {"licenses", 'L', Arg::Required, Id::Ignored},
    {"clusters", 'M', Arg::Required, Id::Ignored},
    {"cluster", 0, Arg::Required, Id::Ignored},
    {"network", 0, Arg::Required, Id::Ignored},
    {"kill-on-invalid-dep", 0, Arg::Required, Id::Ignored},
    {"gres-flags", 0, Arg::Required, Id::Ignored},
    {"acctg-freq", 0, Arg::Required, Id::Ignored},
    {"profile", 0, Arg::Required, Id::Ignored},
    {"bb", 0, Arg::Required, Id::Ignored},
    {"bbf", 0, Arg::Required, Id::Ignored},
    {"delay-boot", 0, Arg::Required, Id::Ignored},
    {"deadline", 0, Arg::Required, Id::Ignored},
    {"mcs-label", 0, Arg::Required, Id::Ignored},
    {"container", 0, Arg::Required, Id::Ignored},
    {"core-spec", 'S', Arg::Required, Id::Ignored},
    {"thread-spec", 0, Arg::Required, Id::Ignored},
    {"wait-all-nodes", 0, Arg::Required, Id::Ignored},
    {"uid", 0, Arg::Required, Id::Ignored},
    {"gid", 0, Arg::Required, Id::Ignored},
    {"batch", 0, Arg::Required, Id::Ignored},
    {"prefer", 0, Arg::Required, Id::Ignored},
    {"tres-bind", 0, Arg::Required, Id::Ignored},
    {"tres-per-task", 0, Arg::Required, Id::Ignored},
    // Accepted, ignored, value optional (only as --name=value or -kvalue, as getopt does).
    {"nice", 0, Arg::Optional, Id::Ignored},
    {"no-kill", 'k', Arg::Optional, Id::Ignored},
    {"propagate", 0, Arg::Optional, Id::Ignored},
    {"get-user-env", 0, Arg::Optional, Id::Ignored},
    // Accepted, ignored, no value.
    {"hold", 'H', Arg::None, Id::Ignored},
    {"quiet", 'Q', Arg::None, Id::Ignored},
    {"verbose", 'v', Arg::None, Id::Ignored},
    {"wait", 'W', Arg::None, Id::Ignored},
    {"test-only", 0, Arg::None, Id::Ignored},
    {"parsable", 0, Arg::None, Id::Ignored},
    {"requeue", 0, Arg::None, Id::Ignored},
    {"no-requeue", 0, Arg::None, Id::Ignored},
    {"overcommit", 'O', Arg::None, Id::Ignored},
    {"oversubscribe", 's', Arg::None, Id::Ignored},
    {"contiguous", 0, Arg::None, Id::Contiguous},
    {"reboot", 0, Arg::None, Id::Ignored},
    {"spread-job", 0, Arg::None, Id::Ignored},
    {"use-min-nodes", 0, Arg::None, Id::Ignored},
    {"ignore-pbs", 0, Arg::None, Id::Ignored},
};

// What the options said, each kept as given until the end: later options overwrite earlier ones.
struct Options {
    std::optional<std::pair<std::int32_t, std::int32_t>> nodes;
    std::optional<std::int32_t> ntasks;
    std::optional<std::int32_t> ntasksPerNode;
    std::optional<std::int32_t> cpusPerTask;
    std::optional<std::int32_t> cpusPerGpu;
    std::optional<std::int64_t> mem;
    std::optional<std::int64_t> memPerCpu;
    std::optional<std::int64_t> memPerGpu;
    std::optional<std::int32_t> gpusPerNode;
    std::optional<std::int32_t> gpusTotal;
    std::optional<std::int32_t> gpusPerTask;
    bool exclusive = false;
    std::optional<std::int32_t> switches;
    std::int64_t switchesWaitSeconds = -1;
    std::int32_t segment = 0;
    bool spreadSegments = false;
    bool consolidateSegments = false;
    bool contiguous = false;
    std::vector<std::string> nodelist;
    std::vector<std::string> exclude;
    std::string partition;
    std::string jobName;
    std::string script;
    bool wrap = false;
};

Error fail(const std::string& where, std::string_view option, std::string_view message) {
    std::string out = where + ": ";
    if (!option.empty()) {
        out += option;
        out += ": ";
    }
    out += message;
    return Error{std::move(out)};
}

// A value of the wrong form: "want <want>, got "<value>"".
Error badValue(const std::string& where, std::string_view option, std::string_view want, std::string_view value) {
    return fail(where, option, "want " + std::string(want) + ", got " + inQuotes(value));
}

bool allDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A whole number in [minimum, int32 max], all of `text`.
std::optional<std::int32_t> parseInt(std::string_view text, std::int32_t minimum) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    if (value < minimum || value > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
    return static_cast<std::int32_t>(value);
}

// A node count as Slurm reads one (_str_to_nodes): digits with an optional k (x1024) or m
// (x1048576) suffix.
std::optional<std::int32_t> parseNodeCount(std::string_view text) {
    std::int64_t scale = 1;
    if (!text.empty() && (text.back() == 'k' || text.back() == 'K')) scale = 1024;
    if (!text.empty() && (text.back() == 'm' || text.back() == 'M')) scale = 1048576;
    if (scale != 1) text.remove_suffix(1);
    const std::optional<std::int32_t> count = parseInt(text, 1);
    if (!count || std::int64_t(*count) * scale > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
    return static_cast<std::int32_t>(*count * scale);
}

// str_to_mbytes: a whole number with an optional K, M, G or T (and an optional B after it);
// megabytes by default; kilobytes round up.
std::optional<std::int64_t> parseMegabytes(std::string_view text) {
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 12) return std::nullopt; // up to a million terabytes
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + digits, value);
    std::string_view unit = text.substr(digits);
    if (unit.size() == 2 && (unit[1] == 'B' || unit[1] == 'b')) unit.remove_suffix(1);
    if (unit.empty() || unit == "M" || unit == "m") return value;
    if (unit == "K" || unit == "k") return (value + 1023) / 1024;
    if (unit == "G" || unit == "g") return value * 1024;
    if (unit == "T" || unit == "t") return value * 1024 * 1024;
    return std::nullopt;
}

// "[type:]count" of --gpus, --gpus-per-node and --gpus-per-task.
std::optional<std::int32_t> parseGpuCount(std::string_view text) {
    const std::size_t colon = text.rfind(':');
    if (colon != std::string_view::npos) text = text.substr(colon + 1);
    return parseInt(text, 0);
}

// GPUs per node in a --gres (or --tres-per-node) list: "gpu[:type][:count]" entries, others
// ignored; nullopt when the list is malformed, 0 when it names no GPU.
std::optional<std::int32_t> parseGresGpus(std::string_view list, bool tresPrefix) {
    std::int32_t gpus = 0;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view entry = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        if (entry.starts_with("gres/")) {
            entry.remove_prefix(5);
        } else if (tresPrefix) {
            continue; // cpu=, mem=, license/... are not GPUs
        }
        const std::size_t colon = entry.find(':');
        if (entry.substr(0, colon) != "gpu") continue;
        if (colon == std::string_view::npos) {
            gpus = 1;
            continue;
        }
        std::string_view rest = entry.substr(colon + 1);
        const std::size_t last = rest.rfind(':');
        const std::string_view count = last == std::string_view::npos ? rest : rest.substr(last + 1);
        if (!allDigits(count)) {
            // "gpu:a100": a type and the default count of one.
            if (last != std::string_view::npos || count.empty()) return std::nullopt;
            gpus = 1;
            continue;
        }
        const std::optional<std::int32_t> value = parseInt(count, 0);
        if (!value) return std::nullopt;
        gpus = *value;
    }
    return gpus;
}

Result<std::vector<std::string>> expandNodes(const Token& token, std::string_view option, std::string_view value) {
    if (value.find('/') != std::string_view::npos)
        return fail(token.where, option, "names a node file (" + inQuotes(value) + "), which a dry-run does not read");
    Result<std::vector<std::string>> names = expandHostlist(value);
    if (!names) return fail(token.where, option, names.error().message);
    return names;
}

// -N N or -N MIN-MAX.
Status applyNodes(Options& o, std::string_view shown, const std::string& value, const std::string& where) {
    if (value.find(',') != std::string::npos || value.find(':') != std::string::npos)
        return fail(where, shown, "node count lists and steps are not supported; give N or MIN-MAX");
    const std::size_t dash = value.find('-');
    const std::optional<std::int32_t> low = parseNodeCount(std::string_view(value).substr(0, dash));
    const std::optional<std::int32_t> high =
        dash == std::string::npos ? low : parseNodeCount(std::string_view(value).substr(dash + 1));
    if (!low || !high) return badValue(where, shown, "a node count (N or MIN-MAX)", value);
    if (*high < *low)
        return fail(where, shown,
                    "maximum node count " + std::to_string(*high) + " is less than minimum node count " +
                        std::to_string(*low));
    o.nodes = std::pair(*low, *high);
    return {};
}

// --switches=COUNT[@MAX-TIME].
Status applySwitches(Options& o, std::string_view shown, const std::string& value, const std::string& where) {
    const std::size_t at = value.find('@');
    const std::optional<std::int32_t> count = parseInt(std::string_view(value).substr(0, at), 1);
    if (!count) return badValue(where, shown, "a switch count, optionally @max-time (e.g. 1@10:00)", value);
    o.switches = count;
    o.switchesWaitSeconds = -1;
    if (at != std::string::npos) {
        Result<std::int64_t> seconds = parseSlurmDuration(std::string_view(value).substr(at + 1));
        if (!seconds) return fail(where, shown, seconds.error().message);
        o.switchesWaitSeconds = *seconds;
    }
    return {};
}

Status apply(Options& o, const Option& option, std::string_view shown, const std::string& value, const Token& token) {
    const std::string& where = token.where;
    auto bad = [&](std::string_view want) { return badValue(where, shown, want, value); };
    switch (option.id) {
    case Id::Nodes:
        return applyNodes(o, shown, value, where);
    case Id::Ntasks:
    case Id::NtasksPerNode:
    case Id::CpusPerTask:
    case Id::CpusPerGpu:
    case Id::Segment: {
        const std::optional<std::int32_t> count = parseInt(value, 1);
        if (!count) return bad("a whole number of at least 1");
        if (option.id == Id::Ntasks) o.ntasks = count;
        if (option.id == Id::NtasksPerNode) o.ntasksPerNode = count;
        if (option.id == Id::CpusPerTask) o.cpusPerTask = count;
        if (option.id == Id::CpusPerGpu) o.cpusPerGpu = count;
        if (option.id == Id::Segment) o.segment = *count;
        return {};
    }
    case Id::Mem:
    case Id::MemPerCpu:
    case Id::MemPerGpu: {
        const std::optional<std::int64_t> mebibytes = parseMegabytes(value);
        if (!mebibytes) return bad("a size such as 512, 800M, 64G or 1T");
        (option.id == Id::Mem ? o.mem : option.id == Id::MemPerCpu ? o.memPerCpu : o.memPerGpu) = mebibytes;
        return {};
    }
    case Id::Gres:
    case Id::TresPerNode: {
        if (option.id == Id::Gres && value == "none") {
            o.gpusPerNode.reset();
            return {};
        }
        const std::optional<std::int32_t> gpus = parseGresGpus(value, option.id == Id::TresPerNode);
        if (!gpus) return bad(option.id == Id::Gres ? "gpu[:type][:count]" : "gres/gpu[:type]:count");
        o.gpusPerNode = gpus;
        o.gpusTotal.reset();
        o.gpusPerTask.reset();
        return {};
    }
    case Id::GpusPerNode:
    case Id::Gpus:
    case Id::GpusPerTask: {
        const std::optional<std::int32_t> gpus = parseGpuCount(value);
        if (!gpus) return bad("[type:]count");
        // One way of asking for GPUs holds at a time; the last one given wins.
        o.gpusPerNode.reset();
        o.gpusTotal.reset();
        o.gpusPerTask.reset();
        (option.id == Id::GpusPerNode ? o.gpusPerNode : option.id == Id::Gpus ? o.gpusTotal : o.gpusPerTask) = gpus;
        return {};
    }
    case Id::Exclusive:
        // =user, =mcs and =topo share nodes with the same user, MCS label or topology
        // segment: only the bare form reserves whole nodes.
        if (!value.empty() && value != "user" && value != "mcs" && value != "topo") return bad("user, mcs or topo");
        o.exclusive = value.empty();
        return {};
    case Id::Switches:
        return applySwitches(o, shown, value, where);
    case Id::SpreadSegments:
        o.spreadSegments = true;
        return {};
    case Id::ConsolidateSegments:
        o.consolidateSegments = true;
        return {};
    case Id::Contiguous:
        o.contiguous = true;
        return {};
    case Id::Nodelist:
    case Id::Exclude: {
        Result<std::vector<std::string>> names = expandNodes(token, shown, value);
        if (!names) return names.error();
        (option.id == Id::Nodelist ? o.nodelist : o.exclude) = std::move(*names);
        return {};
    }
    case Id::Partition:
        o.partition = value;
        return {};
    case Id::JobName:
        o.jobName = value;
        return {};
    case Id::Time: {
        Result<std::int64_t> seconds = parseSlurmDuration(value);
        if (!seconds) return fail(where, shown, seconds.error().message);
        return {};
    }
    case Id::Wrap:
        o.wrap = true;
        return {};
    case Id::Nodefile:
        return fail(where, shown, "reads the nodes from a file, which a dry-run does not; use -w/--nodelist");
    case Id::PrintsOnly:
        return fail(where, shown, "prints information instead of submitting a job");
    case Id::Ignored:
        return {};
    }
    return {};
}

const Option* findShort(char letter) {
    for (const Option& option : kOptions)
        if (option.letter == letter) return &option;
    return nullptr;
}

// Exact name, else a unique prefix, as getopt_long matches.
Result<const Option*> findLong(std::string_view name, const std::string& where) {
    const Option* match = nullptr;
    int matches = 0;
    std::string candidates;
    for (const Option& option : kOptions) {
        if (option.name == name) return &option;
        if (!name.empty() && option.name.starts_with(name)) {
            candidates += (candidates.empty() ? "--" : ", --") + std::string(option.name);
            match = &option;
            ++matches;
        }
    }
    if (matches == 0) return fail(where, {}, "unknown option --" + std::string(name));
    if (matches > 1) return fail(where, {}, "option --" + std::string(name) + " is ambiguous (" + candidates + ')');
    return match;
}

// Runs getopt_long over `tokens` in order. With `allowScript`, the first non-option argument is
// the script and ends the options; otherwise (#SBATCH directives) it is an error.
Status applyAll(Options& o, const std::vector<Token>& tokens, bool allowScript) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        const std::string& text = token.text;
        if (text == "--") {
            if (allowScript && i + 1 < tokens.size()) o.script = tokens[i + 1].text;
            return {};
        }
        auto takeNext = [&](std::string_view shown, std::string& value) -> Status {
            if (i + 1 >= tokens.size()) return fail(token.where, shown, "needs a value");
            value = tokens[++i].text;
            return {};
        };
        if (text.starts_with("--")) {
            const std::size_t equals = text.find('=');
            const std::string_view name =
                std::string_view(text).substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
            Result<const Option*> found = findLong(name, token.where);
            if (!found) return found.error();
            const Option& option = **found;
            const std::string shown = "--" + std::string(option.name);
            std::string value;
            if (equals != std::string::npos) {
                if (option.arg == Arg::None) return fail(token.where, shown, "takes no value");
                value = text.substr(equals + 1);
            } else if (option.arg == Arg::Required) {
                if (Status s = takeNext(shown, value); !s) return s;
            }
            if (Status s = apply(o, option, shown, value, token); !s) return s;
            continue;
        }
        if (text.size() > 1 && text[0] == '-') {
            // A cluster of short options: "-N4", "-N", "4", "-HN4".
            for (std::size_t k = 1; k < text.size(); ++k) {
                const Option* option = findShort(text[k]);
                const std::string shown = std::string("-") + text[k];
                if (option == nullptr) return fail(token.where, {}, "unknown option " + shown);
                std::string value;
                if (option->arg != Arg::None && k + 1 < text.size()) {
                    value = text.substr(k + 1);
                    k = text.size();
                } else if (option->arg == Arg::Required) {
                    if (Status s = takeNext(shown, value); !s) return s;
                }
                if (Status s = apply(o, *option, shown, value, token); !s) return s;
            }
            continue;
        }
        if (!allowScript) return fail(token.where, {}, "unexpected argument " + inQuotes(text) + " in a directive");
        o.script = text; // the script; what follows are its own arguments
        return {};
    }
    return {};
}

Result<std::vector<std::string>> shellWords(std::string_view text, std::size_t& consumed, const std::string& where) {
    Result<std::vector<std::string>> words = shellLineWords(text, consumed);
    if (!words) return fail(where, {}, words.error().message);
    return words;
}

// The arguments of one #SBATCH line as sbatch splits them (_get_argument): whitespace apart,
// ' and " quote, a backslash escapes any character, an unquoted # starts a comment.
Result<std::vector<std::string>> directiveWords(std::string_view line, const std::string& where) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        if (i >= line.size()) break;
        std::string word;
        bool produced = false;
        char quote = 0;
        bool comment = false;
        while (i < line.size() && (quote != 0 || (line[i] != ' ' && line[i] != '\t' && line[i] != '\r'))) {
            const char c = line[i];
            if (c == '\\' && i + 1 < line.size()) {
                word += line[i + 1];
                produced = true;
                i += 2;
                continue;
            }
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word += c;
                }
                ++i;
                continue;
            }
            if (c == '"' || c == '\'') {
                quote = c;
                produced = true;
                ++i;
                continue;
            }
            if (c == '#') {
                comment = true;
                break;
            }
            word += c;
            produced = true;
            ++i;
        }
        if (quote != 0) return fail(where, {}, std::string("unmatched ") + quote + " in #SBATCH line");
        if (produced) words.push_back(std::move(word));
        if (comment) break;
    }
    return words;
}

std::vector<Token> asTokens(std::vector<std::string> words, const std::string& where) {
    std::vector<Token> out;
    out.reserve(words.size());
    for (std::string& word : words) out.push_back({std::move(word), where});
    return out;
}

bool isSbatchCommand(const std::vector<std::string>& words) {
    if (words.empty()) return false;
    const std::string& first = words.front();
    return first == "sbatch" || first.ends_with("/sbatch");
}

// One command line's arguments (without "sbatch"); an error if anything but comments follows.
Result<std::vector<Token>> commandTokens(std::string_view text, const std::string& where) {
    std::size_t consumed = 0;
    Result<std::vector<std::string>> words = shellWords(text, consumed, where);
    if (!words) return words.error();
    // Blank and comment lines before the command.
    while (words->empty() && consumed < text.size()) {
        text.remove_prefix(consumed);
        words = shellWords(text, consumed, where);
        if (!words) return words.error();
    }
    std::string_view rest = text.substr(consumed);
    while (!rest.empty()) {
        std::size_t used = 0;
        Result<std::vector<std::string>> more = shellWords(rest, used, where);
        if (!more) return more.error();
        if (!more->empty()) return fail(where, {}, "expected one sbatch command, found another command after it");
        rest.remove_prefix(used);
    }
    if (isSbatchCommand(*words)) words->erase(words->begin());
    return asTokens(std::move(*words), where);
}

// The request the options describe, with Slurm's own derivations.
Result<GangRequest> finish(const Options& o, const std::string& where, std::string source) {
    SlurmRequest slurm;
    const std::int32_t required = static_cast<std::int32_t>(o.nodelist.size());
    std::vector<std::string> nodelist = o.nodelist;
    if (o.nodes) {
        // sbatch's _opt_verify (src/sbatch/opt.c): the -w list raises the minimum, and a minimum
        // above the maximum is refused before anything is sent.
        slurm.minNodes = std::max(o.nodes->first, required);
        slurm.maxNodes = o.nodes->second;
        if (slurm.minNodes > slurm.maxNodes)
            return fail(where, "-w/--nodelist",
                        "names " + std::to_string(required) + " nodes (sbatch: error: invalid number of nodes (-N " +
                            std::to_string(slurm.minNodes) + "-" + std::to_string(slurm.maxNodes) + "))");
    } else {
        // Without -N, sbatch derives the count from the tasks, and slurmctld raises it to the
        // required nodes.
        std::int32_t nodes = 1;
        if (o.ntasks && o.ntasksPerNode) nodes = (*o.ntasks + *o.ntasksPerNode - 1) / *o.ntasksPerNode;
        slurm.minNodes = slurm.maxNodes = std::max(nodes, required);
    }
    // Then sbatch "massages the numbers" for -n with -N or -w: fewer tasks than the maximum lower
    // it; fewer than the minimum set both to the task count ("Warning: can't run 2 processes on 4
    // nodes, setting nnodes to 2") and drop the last names of the (sorted, unique) -w list.
    if (o.ntasks && (o.nodes || required > 0)) {
        const std::int32_t ntasks = *o.ntasks;
        if (o.nodes && ntasks < slurm.maxNodes) slurm.maxNodes = ntasks;
        if (ntasks < slurm.minNodes) {
            slurm.minNodes = slurm.maxNodes = ntasks;
            std::sort(nodelist.begin(), nodelist.end(), naturalLess);
            nodelist.erase(std::unique(nodelist.begin(), nodelist.end()), nodelist.end());
            if (nodelist.size() > static_cast<std::size_t>(ntasks)) nodelist.resize(static_cast<std::size_t>(ntasks));
        }
    }
    for (const std::string& name : o.exclude)
        if (std::find(o.nodelist.begin(), o.nodelist.end(), name) != o.nodelist.end())
            return fail(where, "-x/--exclude", "excludes " + name + ", which -w/--nodelist requires");

    // Tasks per node, at its worst (most tasks) over the minimum node count.
    const std::int32_t tasksPerNode =
        o.ntasksPerNode ? *o.ntasksPerNode : (o.ntasks ? (*o.ntasks + slurm.minNodes - 1) / slurm.minNodes : 1);

    std::int64_t gpus = o.gpusPerNode.value_or(0);
    if (o.gpusTotal) {
        if (slurm.minNodes != slurm.maxNodes)
            return fail(where, "-G/--gpus",
                        "a GPU total over a node range has no per-node count; give --gpus-per-node");
        if (*o.gpusTotal % slurm.minNodes != 0)
            return fail(where, "-G/--gpus",
                        std::to_string(*o.gpusTotal) + " GPUs do not split evenly over " +
                            std::to_string(slurm.minNodes) + " nodes; give --gpus-per-node");
        gpus = *o.gpusTotal / slurm.minNodes;
    }
    if (o.gpusPerTask) gpus = std::int64_t(*o.gpusPerTask) * tasksPerNode;
    if (gpus > std::numeric_limits<std::int32_t>::max()) return fail(where, {}, "asks for too many GPUs per node");
    slurm.gpusPerNode = static_cast<std::int32_t>(gpus);

    std::int64_t cpus = 0;
    if (o.cpusPerGpu) {
        if (o.cpusPerTask) return fail(where, "--cpus-per-gpu", "is mutually exclusive with -c/--cpus-per-task");
        if (gpus == 0) return fail(where, "--cpus-per-gpu", "needs GPUs (--gres=gpu:G, --gpus-per-node, -G)");
        cpus = std::int64_t(*o.cpusPerGpu) * gpus;
    } else if (o.ntasks || o.ntasksPerNode || o.cpusPerTask) {
        cpus = std::int64_t(tasksPerNode) * o.cpusPerTask.value_or(1);
    }
    if (cpus > std::numeric_limits<std::int32_t>::max()) return fail(where, {}, "asks for too many CPUs per node");
    slurm.cpusPerNode = static_cast<std::int32_t>(cpus);
    // The task count as slurmctld keeps it (num_tasks, min_cpus = ntasks x cpus_per_task), for the
    // engines that spread tasks over nodes by their free CPUs.
    if (o.ntasks && !o.ntasksPerNode && !o.gpusPerTask && !o.cpusPerGpu) slurm.ntasks = *o.ntasks;
    slurm.cpusPerTask = o.cpusPerTask.value_or(1);
    slurm.nodeCountGiven = o.nodes.has_value();

    if (int(o.mem.has_value()) + int(o.memPerCpu.has_value()) + int(o.memPerGpu.has_value()) > 1)
        return fail(where, {}, "--mem, --mem-per-cpu and --mem-per-gpu are mutually exclusive");
    // --mem=0 asks for all of each node's memory, which leaves which nodes fit unchanged.
    // Per-unit sizes (at most 10^12 MiB) times counts (at most 2^31) fit in 64 bits.
    if (o.mem) slurm.memoryPerNodeMiB = *o.mem;
    if (o.memPerCpu) slurm.memoryPerNodeMiB = *o.memPerCpu * std::max<std::int64_t>(cpus, 1);
    if (o.memPerGpu) {
        if (gpus == 0) return fail(where, "--mem-per-gpu", "needs GPUs (--gres=gpu:G, --gpus-per-node, -G)");
        slurm.memoryPerNodeMiB = *o.memPerGpu * gpus;
    }
    if (slurm.memoryPerNodeMiB > (std::int64_t(1) << 40))
        return fail(where, {}, "asks for more than an exbibyte of memory per node");

    slurm.exclusive = o.exclusive;
    slurm.switches = o.switches;
    slurm.switchesWaitSeconds = o.switchesWaitSeconds;
    slurm.segment = o.segment;
    slurm.spreadSegments = o.spreadSegments;
    slurm.consolidateSegments = o.consolidateSegments;
    slurm.contiguous = o.contiguous;
    if (o.spreadSegments && o.consolidateSegments)
        return fail(where, {}, "--spread-segments and --consolidate-segments are mutually exclusive");
    slurm.requiredNodes = std::move(nodelist);
    slurm.excludedNodes = o.exclude;
    slurm.partition = o.partition;

    GangRequest gang;
    if (!o.jobName.empty()) {
        gang.name = o.jobName;
    } else if (!o.script.empty()) {
        const std::size_t slash = o.script.rfind('/');
        gang.name = slash == std::string::npos ? o.script : o.script.substr(slash + 1);
    } else {
        gang.name = o.wrap ? "wrap" : "sbatch"; // sbatch's own defaults
    }
    gang.pods = slurm.maxNodes;
    if (slurm.gpusPerNode > 0) gang.perPod.set("nvidia.com/gpu", Quantity::fromUnits(slurm.gpusPerNode));
    if (slurm.cpusPerNode > 0) gang.perPod.set("cpu", Quantity::fromUnits(slurm.cpusPerNode));
    if (slurm.memoryPerNodeMiB > 0) {
        Result<Quantity> memory = Quantity::parse(std::to_string(slurm.memoryPerNodeMiB) + "Mi");
        if (!memory) return fail(where, "--mem", memory.error().message);
        gang.perPod.set("memory", *memory);
    }
    gang.slurm = std::move(slurm);
    gang.source = std::move(source);
    return gang;
}

} // namespace

Result<std::int64_t> parseSlurmDuration(std::string_view text) {
    auto bad = [&]() {
        return Error{"want a time as MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC, got " + inQuotes(text)};
    };
    std::string upper(text);
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    if (upper == "-1" || upper == "INFINITE" || upper == "UNLIMITED") return kSlurmInfiniteSeconds;

    std::int64_t days = 0;
    std::string_view rest = text;
    const std::size_t dash = text.find('-');
    if (dash != std::string_view::npos) {
        const std::optional<std::int32_t> d =
            allDigits(text.substr(0, dash)) ? parseInt(text.substr(0, dash), 0) : std::nullopt;
        if (!d) return bad();
        days = *d;
        rest = text.substr(dash + 1);
    }
    std::vector<std::int64_t> parts;
    while (true) {
        const std::size_t colon = rest.find(':');
        const std::string_view part = rest.substr(0, colon);
        if (!allDigits(part) || part.size() > 9) return bad();
        parts.push_back(*parseInt(part, 0));
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    std::int64_t seconds = 0;
    if (dash != std::string_view::npos) {
        // days-hours[:minutes[:seconds]]
        if (parts.size() > 3) return bad();
        const std::int64_t scale[] = {3600, 60, 1};
        for (std::size_t k = 0; k < parts.size(); ++k) seconds += parts[k] * scale[k];
    } else if (parts.size() == 3) {
        seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
    } else if (parts.size() <= 2) {
        // minutes[:seconds]
        seconds = parts[0] * 60 + (parts.size() == 2 ? parts[1] : 0);
    } else {
        return bad();
    }
    return days * 86400 + seconds;
}

Result<std::vector<std::string>> sbatchArguments(std::string_view text) {
    Result<std::vector<Token>> tokens = commandTokens(text, "sbatch");
    if (!tokens) return tokens.error();
    std::vector<std::string> words;
    for (Token& token : *tokens) words.push_back(std::move(token.text));
    return words;
}

Result<GangRequest> parseSbatchLine(std::string_view text) {
    const std::string where = "sbatch";
    Result<std::vector<Token>> args = commandTokens(text, where);
    if (!args) return args.error();
    Options options;
    if (Status s = applyAll(options, *args, true); !s) return s.error();
    return finish(options, where, "sbatch");
}

Result<GangRequest> parseSbatchScript(std::string_view text, std::string_view sourceName,
                                      std::string_view commandLine) {
    const std::string source(sourceName);
    std::vector<Token> directives;
    std::vector<Token> sbatchLine;
    bool sbatchCommand = false;
    std::size_t offset = 0;
    int lineNumber = 0;
    while (offset < text.size()) {
        const std::size_t end = std::min(text.find('\n', offset), text.size());
        const std::string_view line = text.substr(offset, end - offset);
        ++lineNumber;
        const std::string where = source + ':' + std::to_string(lineNumber);
        offset = end + 1;
        if (line.starts_with("#SBATCH")) {
            Result<std::vector<std::string>> words = directiveWords(line.substr(7), where);
            if (!words) return words.error();
            std::vector<Token> more = asTokens(std::move(*words), where);
            directives.insert(directives.end(), more.begin(), more.end());
            continue;
        }
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#') continue;
        // The first command ends the directives. When it is an sbatch command, its options
        // come after (and win over) the directives; what follows it is not read.
        std::size_t consumed = 0;
        Result<std::vector<std::string>> words = shellWords(text.substr(end - line.size()), consumed, where);
        if (!words) return words.error();
        if (isSbatchCommand(*words)) {
            sbatchCommand = true;
            words->erase(words->begin());
            sbatchLine = asTokens(std::move(*words), where);
        }
        break;
    }

    // A file that says nothing to sbatch is more likely the wrong file than a one-node job.
    if (directives.empty() && !sbatchCommand && commandLine.empty())
        return Error{source + ": no #SBATCH directive and no sbatch command"};

    Options options;
    if (Status s = applyAll(options, directives, false); !s) return s.error();
    if (Status s = applyAll(options, sbatchLine, true); !s) return s.error();
    if (!commandLine.empty()) {
        Result<std::vector<Token>> extra = commandTokens(commandLine, "command line");
        if (!extra) return extra.error();
        if (Status s = applyAll(options, *extra, true); !s) return s.error();
    }
    return finish(options, source, source);
}

Result<GangRequest> readSbatchFile(const std::string& path, std::string_view commandLine) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error{"cannot open " + path + ": " + std::strerror(errno)};
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    return parseSbatchScript(text.str(), path, commandLine);
}

} // namespace topodeck
