#include "core/placement/reports/placement_report.h"

#include "core/text/hostlist.h"
#include "core/text/json_writer.h"
#include "core/text/natural_order.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <map>
#include <set>

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

// Nodes the result uses; a node holding pods of two parts counts once.
std::int64_t distinctNodes(const PlacementResult& result) {
    std::set<std::string_view> names;
    for (const NodePods& placed : result.nodes) names.insert(placed.node);
    return static_cast<std::int64_t>(names.size());
}

using DomainTable = std::map<std::string, DomainPods,
                             decltype([](const std::string& a, const std::string& b) { return naturalLess(a, b); })>;

DomainTable podsByDomain(const PlacementResult& result, const PlacementCluster& cluster) {
    DomainTable table;
    if (!result.nodes.empty()) {
        for (const NodePods& placed : result.nodes) {
            DomainPods& entry = table[domainPathOfNode(cluster, placed.node)];
            entry.pods += placed.pods;
            // Two parts of a heterogeneous gang may share a node.
            if (std::find(entry.nodes.begin(), entry.nodes.end(), placed.node) == entry.nodes.end())
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

} // namespace

namespace {

// "claim gpus (4 × gpu.nvidia.com, template four-gb200)": what a pod asks for by a DRA claim.
std::string describeClaim(const GangClaim& claim) {
    std::string requests;
    if (claim.spec)
        for (const DeviceRequest& request : claim.spec->requests) {
            if (!requests.empty()) requests += " + ";
            if (!request.exactly) {
                requests += "first of " + std::to_string(request.firstAvailable.size()) + " alternatives";
                continue;
            }
            const DeviceSubRequest& exactly = *request.exactly;
            requests += exactly.mode == DeviceSubRequest::Mode::All ? "all " + exactly.deviceClassName
                                                                    : std::to_string(exactly.count) + " × " +
                                                                          exactly.deviceClassName;
            if (!exactly.selectors.empty()) requests += " with a selector";
            if (!exactly.tolerations.empty())
                requests += exactly.tolerations.size() == 1
                                ? std::string(" with a toleration")
                                : " with " + std::to_string(exactly.tolerations.size()) + " tolerations";
        }
    const std::string from = claim.shared() ? "shared claim " + claim.claimName : "template " + claim.templateName;
    return "claim " + claim.name + " (" + (requests.empty() ? from : requests + ", " + from) + ')';
}

} // namespace

std::string describeGang(const GangRequest& request) {
    const auto describePods = [](std::int32_t pods, const ResourceList& perPod, const std::vector<GangClaim>& claims) {
        std::string shape;
        for (const auto& [name, amount] : perPod) {
            if (!shape.empty()) shape += ',';
            shape += name + '=' + amount.toString();
        }
        for (const GangClaim& claim : claims) shape += (shape.empty() ? "" : " + ") + describeClaim(claim);
        return plural(pods, "pod", "pods", CountDigits::Grouped) + (shape.empty() ? std::string() : " × " + shape);
    };
    if (!request.heterogeneous()) return describePods(request.pods, request.perPod, request.claims);
    // "master (1 pod × cpu=8) + worker (7 pods × nvidia.com/gpu=8)"
    std::string text;
    for (const GangPart& part : request.parts)
        text += (text.empty() ? "" : " + ") + part.name + " (" + describePods(part.pods, part.perPod, part.claims) + ')';
    return text;
}

namespace {

// The members of one result's object (without its braces).
void writeResultMembers(JsonWriter& json, const PlacementResult& result) {
    json.field("engine", result.engine)
        .field("feasible", result.feasible)
        .field("invalidRequest", result.invalidRequest)
        .field("message", result.message);
    json.key("nodes").beginArray();
    for (const NodePods& node : result.nodes) {
        json.beginObject().field("name", node.node).field("pods", node.pods);
        if (!node.part.empty()) json.field("part", node.part);
        json.endObject();
    }
    json.endArray();
    json.key("assignment").beginObject().key("levels").stringArray(result.assignment.levels);
    json.key("domains").beginArray();
    for (const auto& domain : result.assignment.domains)
        json.beginObject().key("values").stringArray(domain.values).field("count", domain.count).endObject();
    json.endArray().endObject();
    json.key("chosen").beginArray();
    for (const ChosenDomain& chosen : result.chosen)
        json.beginObject().field("level", chosen.level).field("domain", chosen.domain).endObject();
    json.endArray();
    json.key("trace").beginArray();
    for (const TraceEntry& entry : result.trace)
        json.beginObject()
            .field("level", entry.level)
            .field("domain", entry.domain)
            .field("taken", entry.taken)
            .field("reason", entry.reason)
            .endObject();
    json.endArray();
    json.key("tiedWith").stringArray(result.tiedWith).key("notes").stringArray(result.notes);
    if (!result.rulesVersion.empty())
        json.field("rulesVersion", result.rulesVersion).field("rulesVersionOrigin", result.rulesVersionOrigin);
}

void writeSlurmAnswer(JsonWriter& json, const SlurmAnswerCheck& check) {
    json.beginObject()
        .field("feasible", check.answer.feasible)
        .field("startsNow", check.startsNow)
        .field("start", check.answer.startText)
        .field("nodes", check.answer.nodes)
        .field("message", check.answer.message)
        .field("agrees", check.agrees)
        .field("verdict", check.verdict)
        .endObject();
}

} // namespace

void writePlacementResult(JsonWriter& json, const PlacementResult& result) {
    json.beginObject();
    writeResultMembers(json, result);
    json.endObject();
}

std::string placementResultJson(const PlacementResult& result) {
    std::string out;
    JsonWriter json(out);
    writePlacementResult(json, result);
    return out;
}

std::string renderPlanJson(const std::vector<PlacementResult>& results,
                           const std::vector<std::pair<std::string, std::string>>& skipped, bool compare,
                           const SlurmAnswerCheck* slurm, const FailureReport* failures) {
    std::string out;
    JsonWriter json(out);
    json.beginObject();
    if (compare || results.size() > 1) {
        json.key("results").beginArray();
        for (const PlacementResult& result : results) writePlacementResult(json, result);
        json.endArray().key("skipped").beginArray();
        for (const auto& [engine, reason] : skipped)
            json.beginObject().field("engine", engine).field("reason", reason).endObject();
        json.endArray();
    } else {
        writeResultMembers(json, results.front());
    }
    if (slurm) writeSlurmAnswer(json.key("askSlurm"), *slurm);
    if (failures && !failures->failedNodes.empty()) writeFailureReport(json, *failures);
    json.endObject();
    out += '\n';
    return out;
}

void writeFailureReport(JsonWriter& json, const FailureReport& report) {
    json.key("failedNodes").stringArray(report.failedNodeNames);
    json.field("gangsUntouched", report.gangsUntouched);
    json.key("failures").beginArray();
    for (const GangFailure& gang : report.broken) {
        json.beginObject()
            .field("gang", gang.gang)
            .field("kind", std::string(workloadKindName(gang.kind)))
            .field("engine", gang.engine)
            .field("engineReason", gang.engineReason)
            .field("pods", gang.pods)
            .field("lostPods", gang.lostPods)
            .field("fits", gang.fits)
            .field("placedAgain", gang.placedAgain)
            .field("message", gang.message);
        json.key("nodes").beginArray();
        for (const NodePods& node : gang.nodes)
            json.beginObject().field("name", node.node).field("pods", node.pods).endObject();
        json.endArray().endObject();
    }
    json.endArray();
}

std::string renderFailureReport(const FailureReport& report, const std::vector<std::string>& targets) {
    std::string out = "What-if: failed";
    for (const std::string& target : targets) out += ' ' + target;
    const std::size_t broken = report.broken.size();
    out += " (" + plural(report.failedNodes.size(), "node", "nodes") + "): " +
           (broken == 0 ? std::string("no running gang broken")
                        : plural(broken, "running gang broken", "running gangs broken")) +
           ", " + std::to_string(report.gangsUntouched) + " untouched\n";
    for (const GangFailure& gang : report.broken) {
        const std::string_view kind = workloadKindName(gang.kind);
        out += "  " + gang.gang + (kind.empty() ? "" : " (" + std::string(kind) + ")") + ": lost " +
               std::to_string(gang.lostPods) + " of " + std::to_string(gang.pods) + " pods; " + gang.engine + ": " +
               (!gang.placedAgain ? "not placed again"
                : gang.fits       ? "fits again now"
                                  : "does not fit again now") +
               (gang.message.empty() ? "" : " — " + gang.message) + '\n';
        out += "      " + gang.engineReason + '\n';
    }
    return out;
}

SlurmAnswerCheck checkAgainstSlurm(const std::vector<PlacementResult>& results, SbatchTestOnly answer,
                                   std::int64_t nowSeconds) {
    SlurmAnswerCheck check;
    // Slurm names a start a few seconds ahead even for an idle cluster.
    check.startsNow = answer.feasible && answer.startTime <= nowSeconds + 60;
    const auto slurmEngine = std::find_if(results.begin(), results.end(),
                                          [](const PlacementResult& r) { return r.engine.starts_with("slurm"); });
    if (slurmEngine == results.end()) {
        check.verdict = "no Slurm engine ran to compare with";
    } else {
        std::vector<std::string> predicted;
        for (const NodePods& node : slurmEngine->nodes) predicted.push_back(node.node);
        std::vector<std::string> named;
        if (answer.feasible)
            if (auto expanded = expandHostlist(answer.nodes)) named = std::move(*expanded);
        std::sort(predicted.begin(), predicted.end());
        std::sort(named.begin(), named.end());
        const bool waits = slurmEngine->message.find("wait") != std::string::npos;
        const std::string& engine = slurmEngine->engine;
        check.agrees = false;
        if (check.startsNow && !slurmEngine->feasible) {
            check.verdict = "DISAGREES: Slurm starts it now; " + engine + " says it does not fit";
        } else if (check.startsNow && named != predicted) {
            check.verdict =
                "DISAGREES: Slurm picks " + answer.nodes + ", " + engine + " " + compressHostlist(predicted);
        } else if (!check.startsNow && slurmEngine->feasible && !waits) {
            check.verdict = "DISAGREES: " + engine + " places it now; Slurm " +
                            (answer.feasible ? "would start it at " + answer.startText : "refuses it");
        } else {
            check.agrees = true;
            check.verdict = "agrees with " + engine;
        }
    }
    check.answer = std::move(answer);
    return check;
}

std::string renderSlurmAnswer(const SlurmAnswerCheck& check) {
    const SbatchTestOnly& answer = check.answer;
    std::string out = "Slurm's own answer (sbatch --test-only): ";
    if (answer.feasible)
        out += std::string(check.startsNow ? "starts now" : "starts later") + " (" + answer.startText + ") on " +
               answer.nodes + " in partition " + answer.partition;
    else
        out += "refused: " + answer.message;
    return out + "\n  " + check.verdict + "\n";
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
        if (!result.nodes.empty()) out += " on " + groupThousands(distinctNodes(result)) + " nodes";
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
                        result.nodes.empty() ? "-" : groupThousands(distinctNodes(result)),
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
