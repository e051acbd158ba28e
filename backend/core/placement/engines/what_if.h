#pragma once

#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// Marks a feasible result's pods as running in the what-if, so the next gang sees them. Engines
// that assign domains rather than nodes (Kueue with non-hostname leaves) have their counts spread
// over the domain's usable nodes in name order, as many as fit on each.
void assumePlacement(PlacementCluster& cluster, const GangRequest& request, const PlacementResult& result);

// The pods assumePlacement assumes, node by node: each entry's pods hold perPod (their part's).
struct PlacedPods {
    NodeId node = 0;
    ResourceList perPod;
    std::int32_t pods = 0;
    std::string part; // GangPart::name, or "" for a uniform gang
    // The domain the engine assigned these pods to, when it assigned a domain rather than nodes:
    // the kube-scheduler may bind them to any of its nodes.
    DomainId domain = kNoDomain;
};
std::vector<PlacedPods> placedPods(const PlacementCluster& cluster, const GangRequest& request,
                                   const PlacementResult& result);

// The nodes `--drain TARGET` means: a node name, a domain path ("su-1/rack-3") or a domain value
// that names exactly one domain ("rack-3"). An ambiguous or unknown target is an error, which
// names the flag (`--fail` uses the same targets).
Result<std::vector<NodeId>> drainTargetNodes(const PlacementCluster& cluster, std::string_view target,
                                             std::string_view flag = "--drain");

} // namespace topodeck
