#pragma once
// The demo clusters as the tests and benchmarks load them: the demo (its spec, seed and events,
// kept for a DemoSimulator), the state its events build and the index of its own hierarchy.

#include "core/demo/demo_cluster.h"
#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"

#include <string_view>

namespace topodeck::testing {

struct LoadedDemo {
    DemoCluster demo;
    ClusterState state;
    TopologyIndex index;
};

// Ends the program with the error on stderr when the demo cannot be made (a test's own typo).
LoadedDemo loadDemo(std::string_view name);

} // namespace topodeck::testing
