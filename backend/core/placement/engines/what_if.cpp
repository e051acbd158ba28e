#include "core/placement/engines/what_if.h"

#include <algorithm>

namespace topodeck {
namespace {

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
        const std::vector<NodeId> nodes = nodesUnder(index, leaf);
        std::int64_t remaining = assigned.count;
        for (NodeId id : nodes) {
            if (remaining == 0) break;
            if (!cluster.usable(id)) continue;
            const std::int64_t take = std::min(remaining, cluster.podsThatFit(id, request.perPod, true));
            if (take <= 0) continue;
            out.push_back({id, request.perPod, static_cast<std::int32_t>(take), {}, leaf});
            remaining -= take;
        }
    }
    return out;
}

Result<std::vector<NodeId>> drainTargetNodes(const PlacementCluster& cluster, std::string_view target,
                                             std::string_view flag) {
    if (auto id = cluster.state().findNode(target); id && cluster.present(*id)) return std::vector<NodeId>{*id};

    const TopologyIndex& index = cluster.index();
    const Result<DomainId> domain =
        findDomainByName(index, target, std::string(flag) + " " + std::string(target), "node or topology domain");
    if (!domain) return domain.error();
    return nodesUnder(index, *domain);
}

} // namespace topodeck
