#pragma once

#include "core/placement/placement_engine.h"

namespace topodeck {

// KAI-Scheduler's topology plugin (pkg/scheduler/plugins/topology): the
// lowest common domain of the candidate nodes is the search root; domains are packed by their
// dominant-resource ratio (least free first, ties by id); candidate levels run from the preferred
// level up to the required level (or to the root); the first domain, bottom-up, where every pod
// allocates wins. Inside it pods go node by node: the preferred-level subdomain with the most room
// first, then KAI's default GPU bin-packing (fewest free GPUs that fit). Segments (PyTorchJob /
// LWS `kai.scheduler/segment-size`) are subgroups `worker-<i>`, each placed with its own
// constraint inside the job's domain. Failure text is KAI's PodGroup fit-error text, word for word.
class KaiEngine : public PlacementEngine {
public:
    std::string_view name() const override { return "kai"; }
    std::string_view description() const override;
    bool readsLabelLevelsOnly() const override { return true; }
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
