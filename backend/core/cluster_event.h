#pragma once

#include "core/node.h"
#include "core/pod.h"
#include "core/topology_spec.h"

#include <string>
#include <variant>

namespace topodeck {

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
};

// What every source (API watch, Slurm poll, snapshot file, demo simulator) turns the world into.
using ClusterEvent =
    std::variant<NodeUpserted, NodeDeleted, PodUpserted, PodDeleted, TopologyUpserted, TopologyDeleted>;

} // namespace topodeck
