#pragma once

#include "core/model/snapshot.h"
#include "core/result.h"

#include <string>
#include <string_view>

namespace topodeck {

// Reads a Kubernetes List (kind: List, or NodeList/PodList, or a single object) exactly as
// `kubectl get nodes,pods,topologies,resourceflavors,hypernodes -A -o yaml|json` prints it, and
// the DRA objects (resourceslices, resourceclaims, resourceclaimtemplates, deviceclasses of
// resource.k8s.io, every served version). JSON is parsed with an on-demand parser so that
// cluster-sized files (hundreds of MB) load in seconds; YAML through yaml-cpp. Errors name the
// object ("Node gpu-17") and the field ("status.allocatable[cpu]").
Result<Snapshot> readSnapshotText(std::string_view text, std::string_view sourceName = "input");
// A file as above, or a Slurm snapshot directory (see slurm_snapshot.h).
Result<Snapshot> readSnapshotFile(const std::string& path);

} // namespace topodeck
