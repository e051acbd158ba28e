#pragma once

#include "core/placement/engines/placement_engine.h"

namespace topodeck {

// Volcano's allocate action (pkg/scheduler/actions/allocate) with the network-topology-aware plugin:
// the HyperNode gradient tier by tier, a trial placement of the whole job in every eligible
// HyperNode of a tier, the HyperNode binpack score, partitions (subGroups) with their own
// gradients, and Volcano's FitError messages. A gang whose pods differ (a Job's tasks) is one
// job: all its tasks in each trial, in Volcano's task order, each pod with its own request,
// selector and tolerations, a task's partitionPolicy its own subJobs. The instance is volcanoEngine().
class VolcanoEngine final : public PlacementEngine {
public:
    std::string_view name() const override { return "volcano"; }
    std::string_view description() const override;
    DraTreatment draTreatment() const override { return DraTreatment::KubeScheduler; }
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
