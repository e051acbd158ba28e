#pragma once

// What a caller does with a cluster a reader produced (topodeckctl show, the GUI): the state,
// its hierarchy (detected, or the HyperNode tree), the index over it, both show reports, and the
// DRA warnings `show` prints (pools incomplete or invalid).

#include "core/exports/show_report.h"
#include "core/model/cluster_state.h"
#include "core/model/node_gpus.h"
#include "core/model/snapshot.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"

#include <string>
#include <utility>
#include <vector>

namespace topodeck::fuzz {

inline void showState(const ClusterState& state) {
    std::vector<std::string> warnings = draWarnings(state);
    (void)hyperNodeHierarchy(state, &warnings);
    const HierarchyChoice choice;
    Result<TopologyIndex> index = choice.buildIndex(state);
    if (!index) return;
    ShowOptions options;
    options.showNodes = true;
    (void)renderShowTable(*index, state, options);
    (void)renderShowJson(*index, state, options);
}

inline void showSnapshot(Snapshot&& snapshot) {
    ClusterState state;
    std::move(snapshot).applyTo(state);
    showState(state);
}

} // namespace topodeck::fuzz
