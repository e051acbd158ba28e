#pragma once
// A demo cluster loaded once per benchmark run: its state and the index of its own hierarchy.

#include "core/cluster_state.h"
#include "core/demo_cluster.h"
#include "core/topology_index.h"

#include <stdexcept>
#include <string>

namespace topodeck::bench {

struct LoadedDemo {
    ClusterState state;
    TopologyIndex index;
};

inline LoadedDemo loadDemo(const std::string& name) {
    auto demo = makeDemoCluster(name);
    if (!demo) throw std::runtime_error(demo.error().message);
    LoadedDemo loaded;
    for (const ClusterEvent& event : demo->events) (void)loaded.state.apply(event);
    loaded.index = TopologyIndex::build(loaded.state, demo->topology);
    return loaded;
}

} // namespace topodeck::bench
