#pragma once

#include "core/model/resource_list.h"

#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// The resource-relevant part of a container spec.
struct ContainerResources {
    std::string name;
    ResourceList requests;
    ResourceList limits;
    // Init containers only: restartPolicy: Always makes it a sidecar (KEP-753).
    bool restartAlways = false;
};

// The resource-relevant part of a pod spec.
struct PodResourceSpec {
    std::vector<ContainerResources> containers;
    std::vector<ContainerResources> initContainers;
    ResourceList overhead; // spec.overhead
};

// The pod's effective request exactly as kube-scheduler computes it (PodRequests in
// k8s.io/component-helpers/resource): limits stand in for absent requests and every quantity is
// rounded up to a whole milli-unit (API defaulting, as the API server stores them);
// sum of app containers plus sidecars; max with each regular init container plus the sidecars
// started before it; plus overhead.
ResourceList effectivePodRequests(const PodResourceSpec& spec);

} // namespace topodeck
