#pragma once

#include "core/cluster_event.h"
#include "core/node.h"
#include "core/placement/hypernode.h"
#include "core/pod.h"
#include "core/resource_flavor.h"
#include "core/result.h"
#include "core/topology_spec.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

class ClusterState;

// What a snapshot file held: the objects topodeck understands, and a warning for everything it
// skipped (never silently).
struct Snapshot {
    std::vector<Node> nodes;
    std::vector<Pod> pods;
    std::vector<TopologySpec> topologies; // Kueue and KAI Topology objects
    std::vector<HyperNode> hyperNodes;     // Volcano
    std::vector<ResourceFlavor> resourceFlavors;
    std::shared_ptr<const SlurmTopology> slurmTopology; // a Slurm snapshot directory's
    std::vector<std::string> warnings;

    // Moves the objects out as events, nodes first, then pods, then the topology objects.
    std::vector<ClusterEvent> takeEvents();
    // Only the Topologies, HyperNodes and ResourceFlavors, as events.
    std::vector<ClusterEvent> takeTopologyEvents();
    // The same, applied straight to a state (no event list in between: cheaper at cluster size).
    void applyTo(ClusterState& state) &&;
};

// Reads a Kubernetes List (kind: List, or NodeList/PodList, or a single object) exactly as
// `kubectl get nodes,pods,topologies,resourceflavors,hypernodes -A -o yaml|json` prints it. JSON is parsed with an
// on-demand parser so that cluster-sized files (hundreds of MB) load in seconds; YAML through
// yaml-cpp. Errors name the object ("Node gpu-17") and the field ("status.allocatable[cpu]").
Result<Snapshot> readSnapshotText(std::string_view text, std::string_view sourceName = "input");
// A file as above, or a Slurm snapshot directory (see slurm_snapshot.h).
Result<Snapshot> readSnapshotFile(const std::string& path);

} // namespace topodeck
