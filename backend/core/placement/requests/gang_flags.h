#pragma once

#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <string>
#include <vector>

namespace topodeck {

// One topology request in neutral terms (what `topodeckctl plan` flags say), before it is spelled
// in each scheduler's own constraint language.
struct GangFlags {
    std::int32_t pods = 0;
    ResourceList perPod;
    std::string required; // level key or short name
    std::string preferred;
    bool unconstrained = false;
    std::vector<SliceLayer> slices; // outermost first
    std::string topologyName;
};

// The same gang for every engine: Kueue annotations, KAI placement and segments, Volcano
// networkTopology and partitions, so that --compare asks each scheduler the same question.
// Errors say which flags clash (e.g. --unconstrained with --required).
Result<GangRequest> gangFromFlags(const GangFlags& flags);

} // namespace topodeck
