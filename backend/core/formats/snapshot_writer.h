#pragma once

#include "core/model/cluster_event.h"
#include "core/model/cluster_state.h"

#include <string>

namespace topodeck {

// Writes nodes, pods, the topology objects (Kueue and KAI Topologies, ResourceFlavors, Volcano
// HyperNodes) and the DRA objects (DeviceClasses, ResourceSlices, ResourceClaimTemplates and
// ResourceClaims, as resource.k8s.io/v1; NVIDIA's ComputeDomains) as a Kubernetes List in JSON, the shape `kubectl get
// nodes,pods,... -A -o json` prints (fields topodeck does not need are left out).
// readSnapshotText() reads it back to the same ClusterState.
std::string writeSnapshotJson(const ClusterState& state);

// The object an upsert event carries, as writeSnapshotJson writes it among the List's items;
// empty for a deletion and for a Slurm topology (which is no Kubernetes object).
std::string writeObjectJson(const ClusterEvent& event);

} // namespace topodeck
