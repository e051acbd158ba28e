#include "gangs_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/placement/reports/gangs_report.h"
#include "core/text/hostlist.h"
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

std::string plural(std::int64_t count, std::string_view one, std::string_view many) {
    return groupThousands(count) + ' ' + std::string(count == 1 ? one : many);
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

// The two things the report flags about a gang's ComputeDomain, in words, one line each.
std::vector<std::string> computeDomainFlags(const Gang& gang, const ClusterState& state) {
    std::vector<std::string> lines;
    if (gang.computeDomainSpansCliques())
        lines.push_back(
            "ComputeDomain " + gang.computeDomain + " spans " +
            plural(static_cast<std::int64_t>(gang.computeDomainCliques.size()), "NVLink clique", "NVLink cliques") +
            " (" + joined(gang.computeDomainCliques) + "): IMEX shares GPU memory only inside each");
    if (!gang.outsideComputeDomain.empty()) {
        std::vector<std::string> where;
        for (const GangNodeOutside& outside : gang.outsideComputeDomain)
            where.push_back(state.record(outside.node).node->name + (outside.clique.empty()
                                                                         ? std::string(" (no NVLink clique)")
                                                                         : " (clique " + outside.clique + ')'));
        const std::string cliques =
            gang.computeDomainCliques.empty() ? std::string("none") : joined(gang.computeDomainCliques);
        lines.push_back(groupThousands(gang.podsOutsideComputeDomain()) + " of its " +
                        plural(gang.pods, "pod", "pods") + " outside the NVLink cliques of ComputeDomain " +
                        gang.computeDomain + " (" + cliques + "), on " + joined(where) +
                        ": no GPU memory shared with the rest over IMEX");
    }
    return lines;
}

// Every ComputeDomain: status, workload, and its nodes by NVLink clique.
void appendComputeDomains(std::string& out, const GangsReport& report) {
    const auto spanning = std::count_if(report.computeDomains.begin(), report.computeDomains.end(),
                                        [](const ComputeDomainUsage& d) { return d.spansCliques(); });
    out += "\nComputeDomains: " + groupThousands(static_cast<std::int64_t>(report.computeDomains.size())) + ", " +
           groupThousands(spanning) +
           " across more than one NVLink clique (! = IMEX shares GPU memory only inside each)\n";
    for (const ComputeDomainUsage& domain : report.computeDomains) {
        const std::string_view status = computeDomainReadinessName(domain.status);
        out += "  " + domain.qualifiedName() + "  " + (status.empty() ? std::string("no status") : std::string(status));
        if (domain.numNodes > 0) out += " (numNodes " + std::to_string(domain.numNodes) + ')';
        std::vector<std::string> workloads;
        for (const ComputeDomainWorkload& w : domain.workloads) {
            const std::string_view kind = workloadKindName(w.kind);
            workloads.push_back((kind.empty() ? std::string() : std::string(kind) + ' ') +
                                (w.name.empty() ? std::string("(no workload)") : w.name) + " (" +
                                plural(w.pods, "pod", "pods") + ')');
        }
        out += " · " + (workloads.empty() ? "no pod uses channel " + domain.channelTemplate : joined(workloads));
        if (domain.spansCliques())
            out += "  ! " + plural(static_cast<std::int64_t>(domain.cliques.size()), "clique", "cliques");
        out += '\n';
        // Its nodes by clique, then those in none; daemons not ready or not reported yet said apart.
        const auto nodesWhere = [&](const auto& keep) {
            std::vector<std::string> names;
            for (const ComputeDomainMember& m : domain.members)
                if (keep(m)) names.push_back(m.node);
            return names;
        };
        const auto line = [&](const std::string& what, const std::vector<std::string>& names) {
            if (!names.empty())
                out += "      " + what + ": " + plural(static_cast<std::int64_t>(names.size()), "node", "nodes") + ' ' +
                       compressHostlist(names) + '\n';
        };
        for (const std::string& clique : domain.cliques)
            line("clique " + clique, nodesWhere([&](const ComputeDomainMember& m) { return m.clique == clique; }));
        line("no NVLink clique (no IMEX daemon)",
             nodesWhere([](const ComputeDomainMember& m) { return m.clique.empty(); }));
        line("daemon not ready", nodesWhere([](const ComputeDomainMember& m) {
                 return m.listed && m.status == ComputeDomainReadiness::NotReady;
             }));
        line("not in its status yet (its pods run there)",
             nodesWhere([](const ComputeDomainMember& m) { return !m.listed; }));
    }
}

std::string renderTable(const GangsReport& report, std::size_t shown, const std::string& source,
                        const ClusterState& state) {
    std::string out = "Gangs on " + source + "\n" + groupThousands(static_cast<std::int64_t>(report.gangs.size())) +
                      " running with GPUs, " + groupThousands(static_cast<std::int64_t>(report.spreadCount())) +
                      " in more domains than they need\n";
    out += "Per level: domains the gang's pods are in / the fewest that could hold it by allocatable\n"
           "capacity (* = more than needed). Pods without GPUs are not counted.\n";
    const bool domains = !report.computeDomains.empty();
    if (domains && !report.gangs.empty())
        out += "COMPUTEDOMAIN: the ComputeDomain whose IMEX channel its pods use (! = flagged below).\n";
    out += '\n';
    if (report.gangs.empty()) {
        out += "No running gang holds GPUs.\n";
        if (domains) appendComputeDomains(out, report);
        return out;
    }

    std::vector<std::string> header = {"NAME", "KIND", "PODS", "GPUS"};
    for (const GangsLevel& level : report.levels) header.push_back(upper(level.name));
    if (domains) header.push_back("COMPUTEDOMAIN");
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> flags;
    for (std::size_t g = 0; g < shown; ++g) {
        const Gang& gang = report.gangs[g];
        std::vector<std::string> row = {gang.qualifiedName(), std::string(workloadKindName(gang.kind)),
                                        groupThousands(gang.pods), groupThousands(gang.gpus)};
        for (const GangSpread& spread : gang.levels)
            row.push_back(std::to_string(spread.spans) + '/' + std::to_string(spread.least) +
                          (spread.excess() > 0 ? "*" : " "));
        if (domains) {
            // The domain is in the gang's namespace: its name alone says which.
            const std::string name = gang.computeDomain.substr(gang.computeDomain.find('/') + 1);
            row.push_back(gang.computeDomain.empty() ? std::string("-")
                                                     : name + (gang.computeDomainFlagged() ? " !" : ""));
        }
        for (const std::string& flag : computeDomainFlags(gang, state))
            flags.push_back("! " + gang.qualifiedName() + ": " + flag);
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c) {
        widths[c] = displayWidth(header[c]);
        for (const auto& row : rows) widths[c] = std::max(widths[c], displayWidth(row[c]));
    }
    const std::size_t domainColumn = domains ? header.size() - 1 : header.size();
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c > 0) text += "  ";
            pad(text, cells[c], widths[c], c >= 2 && c != domainColumn);
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out += text + '\n';
    };
    line(header);
    for (const auto& row : rows) line(row);
    if (shown < report.gangs.size())
        out += "... and " + groupThousands(static_cast<std::int64_t>(report.gangs.size() - shown)) +
               " more (--limit)\n";
    if (!flags.empty()) {
        out += '\n';
        for (const std::string& flag : flags) out += flag + '\n';
    }
    if (domains) appendComputeDomains(out, report);
    return out;
}

// A gang's ComputeDomain and what is flagged about it.
void writeGangComputeDomain(JsonWriter& json, const GangsReport& report, const Gang& gang, const ClusterState& state) {
    const ComputeDomainUsage* domain = report.computeDomain(gang.computeDomain);
    json.key("compute_domain").beginObject().field("name", gang.computeDomain).key("status");
    if (const std::string_view status = domain ? computeDomainReadinessName(domain->status) : std::string_view();
        status.empty())
        json.null(); // not reported yet
    else
        json.value(status);
    json.key("cliques").stringArray(gang.computeDomainCliques);
    json.field("spans_cliques", gang.computeDomainSpansCliques());
    json.field("pods_outside", gang.podsOutsideComputeDomain());
    json.key("nodes_outside").beginArray();
    for (const GangNodeOutside& outside : gang.outsideComputeDomain) {
        json.beginObject().field("node", state.record(outside.node).node->name).key("clique");
        if (outside.clique.empty())
            json.null();
        else
            json.value(outside.clique);
        json.field("pods", outside.pods).endObject();
    }
    json.endArray().endObject();
}

std::string renderJson(const GangsReport& report, std::size_t shown, const ClusterState& state) {
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
        json.endArray();
        if (!gang.computeDomain.empty()) writeGangComputeDomain(json, report, gang, state);
        json.endObject();
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
            "compact come first: the most extra domains at the top level, then the next level down.\n"
            "On a cluster with NVIDIA ComputeDomains (multi-node NVLink through IMEX), each gang says\n"
            "the ComputeDomain whose channel its pods use, and is flagged when that domain's nodes sit\n"
            "in more than one NVLink clique (IMEX shares GPU memory only inside each) or when some of\n"
            "its pods run outside the domain's cliques; every ComputeDomain is listed after the gangs\n"
            "with its status, workload and nodes by clique (JSON: each gang's \"compute_domain\"; the\n"
            "whole list is `show -o json`'s \"compute_domains\").";
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
        writeStdout(renderJson(report, shown, loaded.state));
    } else {
        writeStdout(renderTable(report, shown, settings->cluster.source.describe(loaded.demo, true), loaded.state));
    }
    return kExitOk;
}

} // namespace topodeck::cli
