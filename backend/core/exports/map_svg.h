#pragma once
// The occupancy map as an SVG picture, for review bundles and anything else that is read away
// from the console: the lowest domains (racks) as boxes grouped under their parents, each node a
// cell coloured as the console colours it (free, used, fragmented, not available), the nodes a
// change touches outlined. Past kMapSvgNodeCells nodes a cell per node stops being readable, so
// each rack becomes one cell split by its GPUs' states.

#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"

#include <cstddef>
#include <string>
#include <vector>

namespace topodeck {

inline constexpr std::size_t kMapSvgNodeCells = 4096;

struct MapSvgOptions {
    std::string title;
    std::vector<bool> marked; // by NodeId; marked nodes (and the racks holding them) are outlined
    std::string markedMeaning = "changed";
};

std::string topologyMapSvg(const ClusterState& state, const TopologyIndex& index, const MapSvgOptions& options = {});

} // namespace topodeck
