#pragma once
// A demo cluster with its GPUs through DRA: the same nodes, gangs and occupancy as the
// device-plugin demo it is made from, with each node's GPUs published in a ResourceSlice of
// NVIDIA's driver (gpu.nvidia.com, devices gpu-<n>) and each pod's GPUs allocated to it through a
// ResourceClaim instead of an nvidia.com/gpu request. Some nodes also publish the MIG devices
// their GPUs could be cut into (static MIG: parentUUID), which fold into their GPU. So its totals
// are the device-plugin demo's, counted the other way.
//
// Its running multi-node gangs on nodes with an NVLink clique label (GB200's) get a ComputeDomain
// each, as NVIDIA's driver would run them: `<workload>-cd` with channel template
// `<workload>-cd-channel`, which every GPU pod of the gang names in spec.resourceClaims; its
// status.nodes are the gang's nodes with the cliques their nvidia.com/gpu.clique labels say (a gang
// across two NVLink domains gets a domain across two cliques), Ready while the node is. The channel
// claims themselves, and the compute-domain.nvidia.com slices they would be allocated from, are
// left out: they hold no GPUs.

#include "core/model/cluster_event.h"

#include <cstdint>
#include <map>
#include <set>
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
    // A gang's GPU pods that run (pod name -> node) and whether it has its ComputeDomain.
    struct Gang {
        std::string nameSpace;
        std::string workload;
        std::map<std::string, std::string, std::less<>> running;
        std::int32_t pods = 0;  // its GPU pods, running or not
        bool hasDomain = false; // its pods name the channel template
        bool announced = false; // its template and ComputeDomain were sent
    };
    struct NodeFacts {
        std::string clique; // nvidia.com/gpu.clique
        bool ready = true;
    };
    void convertNode(Node node, std::vector<ClusterEvent>& out);
    void convertPod(Pod pod, std::vector<ClusterEvent>& out);
    void convertPodDeleted(PodDeleted deleted, std::vector<ClusterEvent>& out);
    static std::vector<ClusterEvent> deviceClasses();
    // What a batch of events does to the gangs, before its pods are converted (a gang's pods come
    // in one batch, so a pod knows whether its gang has a ComputeDomain when it is converted).
    void learnGangs(const std::vector<ClusterEvent>& events);
    // The ComputeDomain events of the gangs the batch touched: created, updated or deleted.
    void updateComputeDomains(std::vector<ClusterEvent>& out);
    ComputeDomain computeDomainOf(const Gang& gang) const;

    bool m_classesSent = false;
    std::map<std::string, NodeGpus, std::less<>> m_nodes;
    std::map<std::string, PodClaim, std::less<>> m_claims; // by pod key
    std::map<std::string, NodeFacts, std::less<>> m_nodeFacts;
    std::map<std::string, Gang, std::less<>> m_gangs;       // by "namespace/workload"
    std::map<std::string, std::string, std::less<>> m_podGangs; // pod key -> gang key
    std::set<std::string, std::less<>> m_touchedGangs;      // in the batch being converted
};

} // namespace topodeck
