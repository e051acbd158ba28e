#pragma once

#include "core/live/live_status.h"
#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"

#include <string>

namespace topodeck {

// What `topodeckctl show` renders and how. Rendering is pure: same index and options, same text.
struct ShowOptions {
    std::string source;     // where the data came from, e.g. "demo gb200" or a file path
    int depth = -1;         // hierarchy levels below the cluster to show; -1 = all, 0 = totals only
    bool color = false;     // ANSI colours (the caller decides whether the terminal wants them)
    int barWidth = 20;      // occupancy bar cells
    bool showNodes = false; // list nodes under the deepest domains shown
    const LiveStatus* live = nullptr; // a live source's connection state and problems; null otherwise
};

// The hierarchy as an aligned tree with occupancy bars, for people at a terminal.
std::string renderShowTable(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options);

// The same aggregates as one JSON object (cluster totals, then the domains as nested "children"),
// with a stable key order so that scripts and diffs can rely on it.
std::string renderShowJson(const TopologyIndex& index, const ClusterState& state, const ShowOptions& options);

} // namespace topodeck
