#include "core/placement/placement_report.h"

#include "core/json_text.h"
#include "core/natural_order.h"
#include "core/slurm/slurm_topology.h"
#include "core/text_format.h"

#include <algorithm>
#include <map>

namespace topodeck {
namespace {

// Pods per lowest-level domain path, with the nodes that hold them.
struct DomainPods {
    std::int64_t pods = 0;
    std::vector<std::string> nodes;
};

std::string domainPathOfNode(const PlacementCluster& cluster, const std::string& node) {
    const TopologyIndex& index = cluster.index();
    if (index.spec().levels.empty()) return "(cluster)";
    const auto id = cluster.state().findNode(node);
    if (!id || *id >= index.nodeSlots() || index.node(*id).leaf == kNoDomain) return "(not in the hierarchy)";
    DomainId domain = index.node(*id).leaf;
    // A hostname level makes every node its own domain: group by the level above it instead.
    const auto& levels = index.spec().levels;
    if (levels.size() > 1 && levels.back().nodeLabel == "kubernetes.io/hostname") domain = index.domain(domain).parent;
    return index.pathName(domain);
}

using DomainTable = std::map<std::string, DomainPods,
                             decltype([](const std::string& a, const std::string& b) { return naturalLess(a, b); })>;

DomainTable podsByDomain(const PlacementResult& result, const PlacementCluster& cluster) {
    DomainTable table;
    if (!result.nodes.empty()) {
        for (const NodePods& placed : result.nodes) {
            DomainPods& entry = table[domainPathOfNode(cluster, placed.node)];
            entry.pods += placed.pods;
            entry.nodes.push_back(placed.node);
        }
        return table;
    }
    for (const auto& domain : result.assignment.domains) {
        std::string path;
        for (const std::string& value : domain.values) path += (path.empty() ? "" : "/") + value;
        table[path].pods += domain.count;
    }
    return table;
}

std::string verdict(const PlacementResult& result) {
    if (result.invalidRequest) return "invalid request";
    return result.feasible ? "fits" : "does not fit";
}

// "su su-1 › rack su-1/rack-3"; several domains at one level (Slurm leaves) are listed once, with
// the rest counted, so the line stays readable when a job spans many.
std::string chosenLine(const PlacementResult& result) {
    std::string text;
    const auto& chosen = result.chosen;
    for (std::size_t i = 0; i < chosen.size();) {
        std::size_t sameLevel = i + 1;
        while (sameLevel < chosen.size() && chosen[sameLevel].level == chosen[i].level) ++sameLevel;
        if (!text.empty()) text += " › ";
        text += chosen[i].level.empty() ? chosen[i].domain : chosen[i].level + ' ' + chosen[i].domain;
        if (sameLevel - i > 1) text += " (+" + std::to_string(sameLevel - i - 1) + " more)";
        i = sameLevel;
    }
    return text;
}

std::int64_t totalPods(const PlacementResult& result) {
    std::int64_t pods = 0;
    for (const NodePods& placed : result.nodes) pods += placed.pods;
    if (result.nodes.empty())
        for (const auto& domain : result.assignment.domains) pods += domain.count;
    return pods;
}

void appendStringArray(std::string& out, const std::vector<std::string>& values) {
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        appendJsonString(out, values[i]);
    }
    out += ']';
}

} // namespace

std::string describeGang(const GangRequest& request) {
    std::string shape;
    for (const auto& [name, amount] : request.perPod) {
        if (!shape.empty()) shape += ',';
        shape += name + '=' + amount.toString();
    }
    return groupThousands(request.pods) + (request.pods == 1 ? " pod" : " pods") +
           (shape.empty() ? std::string() : " × " + shape);
}

std::string placementResultJson(const PlacementResult& result) {
    std::string out = "{\"engine\":";
    appendJsonString(out, result.engine);
    out += ",\"feasible\":";
    out += result.feasible ? "true" : "false";
    out += ",\"invalidRequest\":";
    out += result.invalidRequest ? "true" : "false";
    out += ",\"message\":";
    appendJsonString(out, result.message);
    out += ",\"nodes\":[";
    for (std::size_t i = 0; i < result.nodes.size(); ++i) {
        if (i) out += ',';
        out += "{\"name\":";
        appendJsonString(out, result.nodes[i].node);
        out += ",\"pods\":" + std::to_string(result.nodes[i].pods) + '}';
    }
    out += "],\"assignment\":{\"levels\":";
    appendStringArray(out, result.assignment.levels);
    out += ",\"domains\":[";
    for (std::size_t i = 0; i < result.assignment.domains.size(); ++i) {
        if (i) out += ',';
        out += "{\"values\":";
        appendStringArray(out, result.assignment.domains[i].values);
        out += ",\"count\":" + std::to_string(result.assignment.domains[i].count) + '}';
    }
    out += "]},\"chosen\":[";
    for (std::size_t i = 0; i < result.chosen.size(); ++i) {
        if (i) out += ',';
        out += "{\"level\":";
        appendJsonString(out, result.chosen[i].level);
        out += ",\"domain\":";
        appendJsonString(out, result.chosen[i].domain);
        out += '}';
    }
    out += "],\"trace\":[";
    for (std::size_t i = 0; i < result.trace.size(); ++i) {
        const TraceEntry& entry = result.trace[i];
        if (i) out += ',';
        out += "{\"level\":";
        appendJsonString(out, entry.level);
        out += ",\"domain\":";
        appendJsonString(out, entry.domain);
        out += ",\"taken\":";
        out += entry.taken ? "true" : "false";
        out += ",\"reason\":";
        appendJsonString(out, entry.reason);
        out += '}';
    }
    out += "],\"tiedWith\":";
    appendStringArray(out, result.tiedWith);
    out += ",\"notes\":";
    appendStringArray(out, result.notes);
    out += '}';
    return out;
}

std::string renderPlacementTable(const PlacementResult& result, const GangRequest& request,
                                 const PlacementCluster& cluster, const PlacementRenderOptions& options) {
    std::string out = result.engine + ": " + verdict(result) + " — " + describeGang(request);
    if (!options.source.empty()) out += " · " + options.source;
    out += '\n';
    out += "  " + result.message + '\n';
    if (!result.chosen.empty()) out += "  chosen: " + chosenLine(result) + '\n';
    if (result.tiedWith.size() > 1) {
        out += "  tied, the scheduler picks one at random:";
        for (const std::string& tied : result.tiedWith) out += ' ' + tied;
        out += '\n';
    }

    const DomainTable table = podsByDomain(result, cluster);
    if (!table.empty()) {
        out += "\n  Where the pods go (" + groupThousands(totalPods(result)) + " pods";
        if (!result.nodes.empty())
            out += " on " + groupThousands(static_cast<std::int64_t>(result.nodes.size())) + " nodes";
        out += "):\n";
        TextTable rows({"DOMAIN", "PODS", "NODES"});
        for (const auto& [path, entry] : table)
            rows.addRow({path, groupThousands(entry.pods),
                         entry.nodes.empty() ? std::string("-") : compressHostlist(entry.nodes)});
        out += rows.render("    ");
    }

    if (!result.trace.empty()) {
        out += "\n  Why:\n";
        const std::size_t shown = std::min(result.trace.size(), options.maxTraceLines);
        for (std::size_t i = 0; i < shown; ++i) {
            const TraceEntry& entry = result.trace[i];
            // Engine-wide steps (no candidate named) are context, neither taken nor rejected.
            out += entry.domain.empty() ? "    · " : entry.taken ? "    ✓ " : "    ✗ ";
            if (!entry.level.empty()) out += entry.level + ' ';
            out += entry.domain.empty() ? entry.reason : entry.domain + ": " + entry.reason;
            out += '\n';
        }
        if (shown < result.trace.size())
            out += "    … " + groupThousands(static_cast<std::int64_t>(result.trace.size() - shown)) +
                   " more (-o json has them all)\n";
    }
    for (const std::string& note : result.notes) out += "  note: " + note + '\n';
    return out;
}

std::string renderPlacementComparison(const std::vector<PlacementResult>& results, const GangRequest& request,
                                      const PlacementCluster& cluster, const PlacementRenderOptions& options) {
    std::string out = "Dry-run of " + describeGang(request);
    if (!options.source.empty()) out += " · " + options.source;
    out += "\n\n";

    TextTable summary({"ENGINE", "RESULT", "PODS", "NODES", "CHOSEN"});
    for (const PlacementResult& result : results) {
        summary.addRow({result.engine, verdict(result), result.feasible ? groupThousands(totalPods(result)) : "-",
                        result.nodes.empty() ? "-" : groupThousands(static_cast<std::int64_t>(result.nodes.size())),
                        result.chosen.empty() ? "-" : chosenLine(result)});
    }
    out += summary.render();

    // Pods per domain, one column per engine, so differences stand out row by row.
    std::vector<DomainTable> tables;
    DomainTable all;
    for (const PlacementResult& result : results) {
        tables.push_back(result.feasible ? podsByDomain(result, cluster) : DomainTable{});
        for (const auto& [path, entry] : tables.back()) all[path];
    }
    if (!all.empty()) {
        out += "\nPods per domain:\n";
        std::vector<std::string> headers = {"DOMAIN"};
        for (const PlacementResult& result : results) headers.push_back(result.engine);
        TextTable matrix(std::move(headers));
        for (const auto& [path, unused] : all) {
            std::vector<std::string> cells = {path};
            for (const DomainTable& table : tables) {
                const auto found = table.find(path);
                cells.push_back(found == table.end() ? "·" : groupThousands(found->second.pods));
            }
            matrix.addRow(std::move(cells));
        }
        out += matrix.render("  ");
    }

    out += "\nWhat each scheduler would say:\n";
    for (const PlacementResult& result : results) {
        out += "  " + result.engine + ": " + result.message + '\n';
        if (result.tiedWith.size() > 1)
            out += "  " + std::string(result.engine.size() + 2, ' ') + "one of " +
                   std::to_string(result.tiedWith.size()) + " tied candidates; the scheduler picks one at random\n";
    }
    out += "\n(--engine NAME shows one engine's reasons, trace and caveats)\n";
    return out;
}

} // namespace topodeck
