#pragma once

#include "core/model/hypernode.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/resource_flavor.h"
#include "core/model/topology_spec.h"

#include <memory>
#include <string>
#include <variant>

namespace topodeck {

struct SlurmTopology; // core/slurm/slurm_topology.h

struct NodeUpserted {
    Node node;
};
struct NodeDeleted {
    std::string name;
};
struct PodUpserted {
    Pod pod;
};
struct PodDeleted {
    std::string nameSpace;
    std::string name;
};
struct TopologyUpserted {
    TopologySpec spec;
};
struct TopologyDeleted {
    std::string name;
    std::string origin{}; // "kueue" or "kai" (a Kueue and a KAI Topology may share a name); empty: either
};
struct HyperNodeUpserted {
    HyperNode hyperNode;
};
struct HyperNodeDeleted {
    std::string name;
};
struct ResourceFlavorUpserted {
    ResourceFlavor flavor;
};
struct ResourceFlavorDeleted {
    std::string name;
};

// The Slurm topology (topology.conf / topology.yaml / `scontrol show topology`) the Slurm
// placement engines read; nullptr when the source has none.
struct SlurmTopologySet {
    std::shared_ptr<const SlurmTopology> topology;
};
// What every source (API watch, Slurm poll, snapshot file, demo simulator) turns the world into.
using ClusterEvent = std::variant<NodeUpserted, NodeDeleted, PodUpserted, PodDeleted, TopologyUpserted, TopologyDeleted,
                                  HyperNodeUpserted, HyperNodeDeleted, ResourceFlavorUpserted, ResourceFlavorDeleted,
                                  SlurmTopologySet>;

} // namespace topodeck
