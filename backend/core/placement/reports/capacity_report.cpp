#include "core/placement/reports/capacity_report.h"

#include "core/text/json_writer.h"
#include "core/text/text_format.h"

#include <algorithm>

namespace topodeck {
namespace {

struct Counts {
    std::int64_t usableNodes = 0;
    std::int64_t nodesWithRoom = 0;
    std::int64_t podsFit = 0;
};

std::string describeShape(const ResourceList& perPod) {
    std::string text;
    for (const auto& [name, amount] : perPod) {
        if (!text.empty()) text += ',';
        text += name + '=' + amount.toString();
    }
    return text.empty() ? std::string("(no resources)") : text;
}

} // namespace

CapacityReport buildCapacityReport(const PlacementCluster& cluster, const ResourceList& perPod, std::int32_t gangSize) {
    const TopologyIndex& index = cluster.index();
    CapacityReport report;
    report.perPod = perPod;
    report.gangSize = gangSize;

    std::vector<Counts> counts(index.domainSlots());
    CapacityReport::LevelSummary nodeLevel{"node"};
    for (NodeId id : cluster.nodesInOrder()) {
        if (!cluster.usable(id)) continue;
        const auto& taints = cluster.node(id).taints;
        if (std::any_of(taints.begin(), taints.end(), [](const Taint& t) { return t.effect != "PreferNoSchedule"; })) {
            ++report.taintedNodesSkipped;
            continue;
        }
        const DomainId leaf = index.node(id).leaf;
        if (leaf == kNoDomain) continue;
        // A shape with no resources at all is limited by pod slots alone.
        const std::int64_t fit = cluster.podsThatFit(id, perPod, true);
        ++nodeLevel.domains;
        nodeLevel.podsFit += fit;
        if (gangSize > 0) {
            nodeLevel.gangsFit += fit / gangSize;
            if (fit >= gangSize) ++nodeLevel.domainsFittingGang;
        }
        for (DomainId d = leaf; d != kNoDomain; d = index.domain(d).parent) {
            Counts& c = counts[d];
            ++c.usableNodes;
            c.podsFit += fit;
            if (fit > 0) ++c.nodesWithRoom;
        }
    }

    const int depth = index.spec().depth();
    report.levels.resize(static_cast<std::size_t>(depth) + 1);
    report.levels[0].level = "cluster";
    for (int l = 0; l < depth; ++l)
        report.levels[static_cast<std::size_t>(l) + 1].level = index.spec().levels[static_cast<std::size_t>(l)].name;

    auto visit = [&](auto&& self, DomainId id) -> void {
        const Domain& domain = index.domain(id);
        const Counts& c = counts[id];
        CapacityReport::Row row;
        row.domain = id;
        row.level = domain.level;
        row.path = domain.level < 0 ? std::string() : index.pathName(id);
        row.usableNodes = c.usableNodes;
        row.nodesWithRoom = c.nodesWithRoom;
        row.podsFit = c.podsFit;
        row.gangsFit = gangSize > 0 ? c.podsFit / gangSize : 0;
        CapacityReport::LevelSummary& summary = report.levels[static_cast<std::size_t>(domain.level + 1)];
        ++summary.domains;
        summary.podsFit += row.podsFit;
        summary.gangsFit += row.gangsFit;
        if (gangSize > 0 && row.podsFit >= gangSize) ++summary.domainsFittingGang;
        report.rows.push_back(std::move(row));
        for (DomainId child : domain.children) self(self, child);
    };
    visit(visit, kRootDomain);
    // A hostname level already is the per-node row.
    const auto& levels = index.spec().levels;
    if (levels.empty() || levels.back().nodeLabel != "kubernetes.io/hostname") report.levels.push_back(nodeLevel);
    return report;
}

std::string renderCapacityTable(const CapacityReport& report, const CapacityRenderOptions& options) {
    std::string out = "Capacity for pods of " + describeShape(report.perPod);
    if (report.gangSize > 0) out += " in gangs of " + groupThousands(report.gangSize);
    if (!options.source.empty()) out += " · " + options.source;
    out += '\n';
    if (report.taintedNodesSkipped > 0)
        out += "Left out: " + plural(report.taintedNodesSkipped, "usable node", "usable nodes", CountDigits::Grouped) +
               " with NoSchedule/NoExecute taints (a pod without tolerations cannot use them)\n";
    out += '\n';

    TextTable summary({"LEVEL", "DOMAINS", "PODS FIT"});
    if (report.gangSize > 0) {
        summary.addColumn("GANGS (EACH IN ONE DOMAIN)");
        summary.addColumn("DOMAINS WITH A GANG");
    }
    for (const auto& level : report.levels) {
        std::vector<std::string> cells = {level.level, groupThousands(level.domains), groupThousands(level.podsFit)};
        if (report.gangSize > 0) {
            cells.push_back(groupThousands(level.gangsFit));
            cells.push_back(groupThousands(level.domainsFittingGang));
        }
        summary.addRow(std::move(cells));
    }
    out += summary.render();

    if (options.depth == 0) return out;
    out += '\n';
    TextTable tree({"DOMAIN", "USABLE NODES", "NODES WITH ROOM", "PODS FIT"});
    if (report.gangSize > 0) tree.addColumn("GANGS");
    for (const auto& row : report.rows) {
        if (row.level < 0 || (options.depth > 0 && row.level >= options.depth)) continue;
        const std::size_t slash = row.path.rfind('/');
        std::string name(static_cast<std::size_t>(row.level) * 2, ' ');
        name += slash == std::string::npos ? row.path : row.path.substr(slash + 1);
        std::vector<std::string> cells = {std::move(name), groupThousands(row.usableNodes),
                                          groupThousands(row.nodesWithRoom), groupThousands(row.podsFit)};
        if (report.gangSize > 0) cells.push_back(groupThousands(row.gangsFit));
        tree.addRow(std::move(cells));
    }
    out += tree.render();
    return out;
}

std::string renderCapacityJson(const CapacityReport& report, const CapacityRenderOptions& options) {
    std::string out;
    JsonWriter json(out);
    json.beginObject().field("source", options.source).key("perPod").beginObject();
    for (const auto& [name, amount] : report.perPod) json.field(name, amount.toString());
    json.endObject().field("gangSize", report.gangSize).field("taintedNodesSkipped", report.taintedNodesSkipped);
    json.key("levels").beginArray();
    for (const auto& level : report.levels)
        json.beginObject()
            .field("level", level.level)
            .field("domains", level.domains)
            .field("podsFit", level.podsFit)
            .field("gangsFit", level.gangsFit)
            .field("domainsFittingGang", level.domainsFittingGang)
            .endObject();
    json.endArray().key("domains").beginArray();
    for (const auto& row : report.rows) {
        if (row.level < 0 || (options.depth > 0 && row.level >= options.depth)) continue;
        json.beginObject()
            .field("path", row.path)
            .field("level", row.level)
            .field("usableNodes", row.usableNodes)
            .field("nodesWithRoom", row.nodesWithRoom)
            .field("podsFit", row.podsFit)
            .field("gangsFit", row.gangsFit)
            .endObject();
    }
    json.endArray().endObject();
    out += '\n';
    return out;
}

} // namespace topodeck
