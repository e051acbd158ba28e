#pragma once
// A demo cluster with its GPUs through DRA: the same nodes, gangs and occupancy as the
// device-plugin demo it is made from, with each node's GPUs published in a ResourceSlice of
// NVIDIA's driver (gpu.nvidia.com, devices gpu-<n>) and each pod's GPUs allocated to it through a
// ResourceClaim instead of an nvidia.com/gpu request. Some nodes also publish the MIG devices
// their GPUs could be cut into (static MIG: parentUUID), which fold into their GPU. So its totals
// are the device-plugin demo's, counted the other way.

#include "core/model/cluster_event.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace topodeck {

inline constexpr std::string_view kDraDemoSuffix = "-dra";

class DraDemoConverter {
public:
    // The device-plugin events, as the same cluster through DRA (stateful: a pod's claim is
    // remembered until the pod goes).
    std::vector<ClusterEvent> convert(std::vector<ClusterEvent> events);

private:
    struct NodeGpus {
        std::vector<bool> allocated; // by device gpu-<n>
    };
    struct PodClaim {
        std::string node;
        std::vector<int> devices;
    };
    void convertNode(Node node, std::vector<ClusterEvent>& out);
    void convertPod(Pod pod, std::vector<ClusterEvent>& out);
    void convertPodDeleted(PodDeleted deleted, std::vector<ClusterEvent>& out);
    static std::vector<ClusterEvent> deviceClasses();

    bool m_classesSent = false;
    std::map<std::string, NodeGpus, std::less<>> m_nodes;
    std::map<std::string, PodClaim, std::less<>> m_claims; // by pod key
};

} // namespace topodeck
