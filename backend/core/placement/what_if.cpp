#include "core/placement/what_if.h"

#include <algorithm>

namespace topodeck {
namespace {

// Every node under a domain, in the index's order.
void collectNodes(const TopologyIndex& index, DomainId id, std::vector<NodeId>& out) {
    const Domain& domain = index.domain(id);
    out.insert(out.end(), domain.nodes.begin(), domain.nodes.end());
    for (DomainId child : domain.children) collectNodes(index, child, out);
}

// The lowest-level domain with these values on every level, or kNoDomain.
DomainId domainWithValues(const TopologyIndex& index, const std::vector<std::string>& values) {
    DomainId id = kRootDomain;
    for (const std::string& value : values) {
        id = index.findChild(id, value);
        if (id == kNoDomain) return kNoDomain;
    }
    return id;
}

} // namespace

void assumePlacement(PlacementCluster& cluster, const GangRequest& request, const PlacementResult& result) {
    for (const PlacedPods& placed : placedPods(cluster, request, result))
        cluster.assume(placed.node, placed.perPod, placed.pods);
}

std::vector<PlacedPods> placedPods(const PlacementCluster& cluster, const GangRequest& request,
                                   const PlacementResult& result) {
    std::vector<PlacedPods> out;
    if (!result.feasible) return out;
    if (!result.nodes.empty()) {
        const std::vector<GangPart> parts = request.partsOrWhole();
        for (const NodePods& placed : result.nodes) {
            // Each part's pods hold that part's requests; a uniform gang's entries name no part.
            const auto part =
                std::find_if(parts.begin(), parts.end(), [&](const GangPart& p) { return p.name == placed.part; });
            const ResourceList& perPod = part == parts.end() ? request.perPod : part->perPod;
            if (auto id = cluster.state().findNode(placed.node)) out.push_back({*id, perPod, placed.pods, placed.part});
        }
        return out;
    }
    const TopologyIndex& index = cluster.index();
    for (const TopologyAssignment::Domain& assigned : result.assignment.domains) {
        const DomainId leaf = domainWithValues(index, assigned.values);
        if (leaf == kNoDomain) continue;
        std::vector<NodeId> nodes;
        collectNodes(index, leaf, nodes);
        std::int64_t remaining = assigned.count;
        for (NodeId id : nodes) {
            if (remaining == 0) break;
            if (!cluster.usable(id)) continue;
            const std::int64_t take = std::min(remaining, cluster.podsThatFit(id, request.perPod, true));
            if (take <= 0) continue;
            out.push_back({id, request.perPod, static_cast<std::int32_t>(take), {}});
            remaining -= take;
        }
    }
    return out;
}

Result<std::vector<NodeId>> drainTargetNodes(const PlacementCluster& cluster, std::string_view target,
                                             std::string_view flag) {
    if (auto id = cluster.state().findNode(target); id && cluster.present(*id)) return std::vector<NodeId>{*id};

    const TopologyIndex& index = cluster.index();
    std::vector<DomainId> matches;
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.level < 0 || domain.unlabelled) continue;
        if (domain.value == target || index.pathName(id) == target) matches.push_back(id);
    }
    if (matches.empty())
        return Error{std::string(flag) + " " + std::string(target) + ": no node or topology domain has that name"};
    if (matches.size() > 1) {
        std::string names;
        for (std::size_t i = 0; i < matches.size() && i < 5; ++i) names += (i ? ", " : "") + index.pathName(matches[i]);
        return Error{std::string(flag) + " " + std::string(target) + " names " + std::to_string(matches.size()) +
                     " domains (" + names + (matches.size() > 5 ? ", ..." : "") + "): give the full path"};
    }
    std::vector<NodeId> nodes;
    collectNodes(index, matches.front(), nodes);
    return nodes;
}

} // namespace topodeck
