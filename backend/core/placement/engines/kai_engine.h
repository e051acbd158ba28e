#pragma once

#include "core/placement/engines/placement_engine.h"

namespace topodeck {

// KAI-Scheduler's topology plugin (pkg/scheduler/plugins/topology): the
// lowest common domain of the candidate nodes is the search root; domains are packed by their
// dominant-resource ratio (least free first, ties by id); candidate levels run from the preferred
// level up to the required level (or to the root); the first domain, bottom-up, where every pod
// allocates wins. Inside it pods go node by node: the preferred-level subdomain with the most room
// first, then KAI's default GPU bin-packing (fewest free GPUs that fit). Segments (PyTorchJob /
// LWS `kai.scheduler/segment-size`) are subgroups `worker-<i>`, each placed with its own
// constraint inside the job's domain. Failure text is KAI's PodGroup fit-error text, word for word.
// A domain's allocatable pods count resources alone (job_filtering.go calcNodeAccommodation); the
// pods' nodeSelector and NoSchedule / NoExecute taints they do not tolerate rule nodes out when
// each task is allocated (Session.FittingNode: the predicates plugin's NodeAffinity and
// TaintToleration filters), for a uniform gang as for each part of one with parts.
//
// A gang with parts is one PodGroup whose parts are its subgroups (a PyTorchJob's master and
// worker): the job's constraint covers all its pods. A domain fits by KAI's representor pod (copies
// of the largest request its nodes hold) when all parts or none use GPUs and they request the same
// extended resources, else by the parts' summed requests against its free resources. Inside the
// chosen domain the parts are allocated in their order, each pod by its own request, nodeSelector
// and tolerations, packed by its own resource; segments split the part named "worker" (else the
// last part) and are allocated first, as KAI allocates a subgroup's child subgroups before its pod
// sets.
class KaiEngine : public PlacementEngine {
public:
    std::string_view name() const override { return "kai"; }
    std::string_view description() const override;
    DraTreatment draTreatment() const override { return DraTreatment::StableAllocator; }
    bool readsLabelLevelsOnly() const override { return true; }
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
