#pragma once

#include "core/placement/engines/placement_engine.h"

namespace topodeck {

// Kueue Topology Aware Scheduling, as pkg/cache/scheduler/tas_flavor_snapshot.go places one PodSet:
// leaves are nodes when the lowest level is kubernetes.io/hostname, else
// level-value tuples with summed capacity; counts bubble up, the fit level and domains are chosen
// with BestFit or LeastFreeCapacity (TASProfileMixed by default), then pods descend level by level.
// Failure messages are Kueue's, word for word. Leader/worker groups, node affinity, ResourceFlavor
// node labels and tolerations, and the alpha gates (balanced placement, preferred affinity) are
// outside the request model and not reproduced.
class KueueTasEngine : public PlacementEngine {
public:
    std::string_view name() const override { return "kueue-tas"; }
    std::string_view description() const override;
    DraTreatment draTreatment() const override { return DraTreatment::AdmitThenBind; }
    bool readsLabelLevelsOnly() const override { return true; }
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
