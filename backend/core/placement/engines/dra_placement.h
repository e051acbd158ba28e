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
#include "core/placement/requests/gang_request.h"

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

} // namespace topodeck
