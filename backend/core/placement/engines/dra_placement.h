#pragma once
// Dry-runs of gangs whose pods ask for devices by DRA claims, each engine as its scheduler treats
// them (../shared/reference/dra.md 6 and 8):
//  - Volcano (predicates with DynamicResourceAllocationEnable) runs upstream's DynamicResources
//    filter on each node as it places each task, and later tasks see the devices earlier ones
//    took;
//  - KAI (its DynamicResourceAllocation gate) does the same with the "stable" allocator, every
//    optional DRA feature off;
//  - Kueue TAS admits without looking at devices (KEP-2941: TAS capacity ignores them); the
//    kube-scheduler then binds each pod where TAS put it, and a pod whose node cannot allocate its
//    claims stays Pending. Kueue's own DRA quota refuses shared claims, firstAvailable and All;
//  - the Slurm engines have no DRA.
// Per node, pods are allocated one after another (the scheduler places a gang's pods one at a
// time, each pod's claims all at once), so a node serves as many pods as that greedy order
// allows: a gang can be refused where a joint assignment exists, as the scheduler refuses it.

#include "core/placement/engines/dra_allocator.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/what_if.h"
#include "core/placement/requests/gang_request.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// The gang's claims with their specs: the manifest's own documents, else the cluster's
// ResourceClaimTemplate or ResourceClaim in the gang's namespace. The error says which is missing.
Result<std::vector<PodClaimSpec>> resolveGangClaims(const ClusterState& state, const std::string& nameSpace,
                                                    const std::vector<GangClaim>& claims);

// engine.place(), with the gang's claims treated as engine.draTreatment() says.
PlacementResult placeGang(const PlacementEngine& engine, const PlacementCluster& cluster, const GangRequest& gang,
                          const EngineOptions& options);

// A placed pod's claims as the scheduler leaves them once it has allocated them.
struct PlacedPodClaims {
    std::vector<PodResourceClaim> podClaims;                        // the pod's spec.resourceClaims
    std::vector<std::pair<std::string, std::string>> claimStatuses; // pod claim name -> claim name
    std::string extendedResourceClaim;                              // KEP-5004, when the node needs it
    std::vector<ResourceClaim> claims; // made or updated: allocated, reserved for the pod
    std::vector<DeviceSlot> inUse;     // the devices the claims make busy
    // Fits, or why the claims could not be allocated on the pod's node.
    DraNodeVerdict verdict = DraNodeVerdict::Fits;
    std::string detail;
};
struct BoundPod {
    std::optional<NodeId> node; // unset: the pod stays Pending, for `why`
    std::string why;
    PlacedPodClaims claims;
};
// One pod an engine placed (`entry`: its node, part and domain), bound as kube-scheduler binds it
// (what-if steps): on its node, or where the engine assigned a domain, the first node of the
// domain in name order with room left (`boundOn`: pods this step bound there so far) that can
// serve its claims; its DRA claims allocated there after every claim the state holds and every
// device the what-if took (cluster.takenDevices()), with the engine's DRA treatment. `pod` is
// named (claims from templates are named "<pod>-<claim>"). Errors are placeGang's refusals.
Result<BoundPod> bindPlacedPod(const PlacementCluster& cluster, const PlacementEngine& engine, const GangRequest& gang,
                              const PlacedPods& entry, Pod pod, const std::map<NodeId, std::int64_t>& boundOn,
                              const EngineOptions& options);

// After assumePlacement (what_if.h) of a gang a dry-run's what-if placed: the devices its pods'
// claims take, marked taken in the cluster, so the gangs placed after see them in use.
void assumePlacedClaims(PlacementCluster& cluster, const PlacementEngine& engine, const GangRequest& gang,
                        const PlacementResult& result, const EngineOptions& options);

} // namespace topodeck
