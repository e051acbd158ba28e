#pragma once

#include "core/model/cluster_event.h"
#include "core/model/hypernode.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/resource_flavor.h"
#include "core/model/topology_spec.h"

#include <memory>
#include <string>
#include <vector>

namespace topodeck {

class ClusterState;

// What a snapshot file held: the objects topodeck understands, and a warning for everything it
// skipped (never silently).
struct Snapshot {
    std::vector<Node> nodes;
    std::vector<Pod> pods;
    std::vector<TopologySpec> topologies; // Kueue and KAI Topology objects
    std::vector<HyperNode> hyperNodes;    // Volcano
    std::vector<ResourceFlavor> resourceFlavors;
    // DRA (resource.k8s.io), whatever version the file held.
    std::vector<ResourceSlice> resourceSlices;
    std::vector<ResourceClaim> resourceClaims;
    std::vector<ResourceClaimTemplate> resourceClaimTemplates;
    std::vector<DeviceClass> deviceClasses;
    std::vector<ComputeDomain> computeDomains; // resource.nvidia.com/v1beta1
    std::shared_ptr<const SlurmTopology> slurmTopology; // a Slurm snapshot directory's
    // A Slurm snapshot directory's: the Slurm version it was taken from, as that Slurm said it
    // ("22.05.8", "slurm-wlm 22.05.8"); empty when the directory does not say.
    std::string slurmVersion;
    std::vector<std::string> warnings;

    // Moves the objects out as events, nodes first, then pods, then the topology objects.
    std::vector<ClusterEvent> takeEvents();
    // Only the Topologies, HyperNodes, ResourceFlavors, DRA objects and ComputeDomains, as events.
    std::vector<ClusterEvent> takeTopologyEvents();
    // The same, applied straight to a state (no event list in between: cheaper at cluster size).
    void applyTo(ClusterState& state) &&;
};

} // namespace topodeck
