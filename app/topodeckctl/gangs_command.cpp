#include "gangs_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/placement/reports/gangs_report.h"
#include "core/text/json_writer.h"
#include "core/text/text_format.h"
#include "core/topology/topology_index.h"

#include <algorithm>
#include <limits>
#include <variant>

namespace topodeck::cli {
namespace {

struct GangsSettings {
    ClusterArgs cluster;
    bool json = false;
    int limit = 0; // gangs shown; 0 = all
};

Result<GangsSettings> settingsFrom(const ParsedArgs& args) {
    GangsSettings s;
    auto common = ClusterArgs::fromArgs(args, "gangs");
    if (!common) return common.error();
    s.cluster = std::move(*common);
    auto json = jsonOutputWanted(args);
    if (!json) return json.error();
    s.json = *json;
    if (const std::string* limit = args.value("limit")) {
        auto value = parseIntValue("--limit", *limit, 1, std::numeric_limits<int>::max());
        if (!value) return value.error();
        s.limit = *value;
    }
    return s;
}

std::string upper(std::string text) {
    for (char& c : text)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return text;
}

void pad(std::string& out, const std::string& cell, std::size_t width, bool right) {
    const std::size_t w = displayWidth(cell);
    const std::size_t fill = width > w ? width - w : 0;
    if (right) out.append(fill, ' ');
    out += cell;
    if (!right) out.append(fill, ' ');
}

std::string renderTable(const GangsReport& report, std::size_t shown, const std::string& source) {
    std::string out = "Gangs on " + source + "\n" + groupThousands(static_cast<std::int64_t>(report.gangs.size())) +
                      " running with GPUs, " + groupThousands(static_cast<std::int64_t>(report.spreadCount())) +
                      " in more domains than they need\n";
    out += "Per level: domains the gang's pods are in / the fewest that could hold it by allocatable\n"
           "capacity (* = more than needed). Pods without GPUs are not counted.\n\n";
    if (report.gangs.empty()) return out + "No running gang holds GPUs.\n";

    std::vector<std::string> header = {"NAME", "KIND", "PODS", "GPUS"};
    for (const GangsLevel& level : report.levels) header.push_back(upper(level.name));
    std::vector<std::vector<std::string>> rows;
    for (std::size_t g = 0; g < shown; ++g) {
        const Gang& gang = report.gangs[g];
        std::vector<std::string> row = {gang.qualifiedName(), std::string(workloadKindName(gang.kind)),
                                        groupThousands(gang.pods), groupThousands(gang.gpus)};
        for (const GangSpread& spread : gang.levels)
            row.push_back(std::to_string(spread.spans) + '/' + std::to_string(spread.least) +
                          (spread.excess() > 0 ? "*" : " "));
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c) {
        widths[c] = displayWidth(header[c]);
        for (const auto& row : rows) widths[c] = std::max(widths[c], displayWidth(row[c]));
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c > 0) text += "  ";
            pad(text, cells[c], widths[c], c >= 2);
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out += text + '\n';
    };
    line(header);
    for (const auto& row : rows) line(row);
    if (shown < report.gangs.size())
        out += "... and " + groupThousands(static_cast<std::int64_t>(report.gangs.size() - shown)) +
               " more (--limit)\n";
    return out;
}

std::string renderJson(const GangsReport& report, std::size_t shown) {
    std::string out;
    JsonWriter json(out, kReadableJson);
    json.beginArray(JsonWriter::Layout::Block);
    for (std::size_t g = 0; g < shown; ++g) {
        const Gang& gang = report.gangs[g];
        json.beginObject()
            .field("name", gang.qualifiedName())
            .field("namespace", gang.nameSpace)
            .field("kind", workloadKindName(gang.kind))
            .field("pods", gang.pods)
            .field("gpus", gang.gpus)
            .key("levels")
            .beginArray();
        for (std::size_t level = 0; level < report.levels.size(); ++level) {
            const GangSpread& spread = gang.levels[level];
            json.beginObject()
                .field("level", report.levels[level].name)
                .field("spans", spread.spans)
                .field("least", spread.least)
                .endObject();
        }
        json.endArray().endObject();
    }
    json.endArray();
    out += '\n';
    return out;
}

} // namespace

const CommandSpec& gangsCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "gangs";
        s.summary = "List running gangs and the network boundaries each crosses";
        s.description =
            "Lists the running gangs (pods grouped by Kueue Workload, JobSet, LeaderWorkerSet group,\n"
            "training job, Volcano Job or PodGroup, Job, else owner; Slurm jobs) that hold GPUs, and\n"
            "per level of the hierarchy (NVLink domain last) how many domains the gang's pods are in\n"
            "against the fewest that could hold it by allocatable capacity: a gang's pods per node are\n"
            "the node's GPUs / the pod's GPUs, rounded down (GPUs when its pods differ in size). A\n"
            "node without a level's label counts as a domain of its own there. Gangs farthest from\n"
            "compact come first: the most extra domains at the top level, then the next level down.";
        s.usage = "topodeckctl gangs (--demo NAME | -f FILE | --context NAME | --kubeconfig FILE | --in-cluster |\n"
                  "                   --slurm URL|cli) [flags]";
        s.examples = "  # Which demo gangs are spread over more racks or NVLink domains than they need\n"
                     "  topodeckctl gangs --demo gb200\n"
                     "  # A live cluster, the ten widest, as JSON\n"
                     "  topodeckctl gangs --context prod --limit 10 -o json\n"
                     "  # A Slurm cluster's jobs against its switches\n"
                     "  topodeckctl gangs --slurm cli\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(s.flags.end(), {
            {"output", 'o', "FORMAT", "table (default) or json"},
            {"limit", 0, "N", "show the N widest gangs only"},
            gpuResourcesFlag(),
        });
        return s;
    }();
    return spec;
}

int runGangsCommand(std::span<const std::string> args) {
    const CommandSpec& spec = gangsCommandSpec();
    auto parsed = parseCommandLine(spec, args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    auto settings = settingsFrom(std::get<ParsedArgs>(parsed));
    if (!settings) return usageError(settings.error().message);
    auto cluster = loadCluster(settings->cluster.source);
    if (!cluster) return reportLoadError(settings->cluster.source, cluster.error());
    LoadedCluster& loaded = **cluster;
    auto topology = loaded.resolve(settings->cluster.hierarchy);
    if (!topology) return usageError(topology.error().message);
    const TopologyIndex index = TopologyIndex::build(loaded.state, std::move(*topology), settings->cluster.hierarchy.gpus);
    const GangsReport report = buildGangsReport(loaded.state, index);
    const std::size_t shown =
        settings->limit > 0 ? std::min(report.gangs.size(), static_cast<std::size_t>(settings->limit)) : report.gangs.size();
    loaded.live.reset(); // stops its threads before printing and exiting
    if (settings->json) {
        writeStdout(renderJson(report, shown));
    } else {
        writeStdout(renderTable(report, shown, settings->cluster.source.describe(loaded.demo, true)));
    }
    return kExitOk;
}

} // namespace topodeck::cli
