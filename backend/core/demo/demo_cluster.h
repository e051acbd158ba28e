#pragma once

#include "core/model/cluster_event.h"
#include "core/model/cluster_state.h"
#include "core/model/topology_spec.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// An embedded demo cluster, generated in code from a fixed seed, so every run shows the same.
struct DemoCluster {
    std::string name;     // "gb200", "h100", "scale:4096"
    std::string title;    // one line for people, e.g. "GB200 NVL72 SuperPOD: 4 SU x 8 racks x 18 nodes x 4 GPUs"
    TopologySpec topology;
    std::vector<ClusterEvent> events; // nodes, then the running gangs' pods
    std::uint64_t seed = 0;
    // Its GPUs are published and allocated through DRA (a "<demo>-dra" demo, dra_demo.h).
    bool gpusThroughDra = false;
};

std::vector<std::string> demoClusterNames(); // {"gb200", "gb200-dra", "h100", "scale:N"}
// Errors name the unknown demo or the bad size (scale:N needs 1 <= N <= 65536). Any demo with
// "-dra" appended is the same cluster with its GPUs through DRA.
Result<DemoCluster> makeDemoCluster(std::string_view name);

} // namespace topodeck
