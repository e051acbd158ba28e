#pragma once
// NVIDIA's ComputeDomain (resource.nvidia.com/v1beta1, namespaced; the DRA driver's
// compute-domain.nvidia.com half): a set of nodes prepared for one multi-node workload, whose
// pods share GPU memory over NVLink through IMEX channels. Its controller creates the channel
// ResourceClaimTemplate the spec names; the workload's pods name that template in
// spec.resourceClaims; an IMEX daemon starts on each node where such a claim is prepared and
// reports the node, with the NVLink clique its GPUs are in, in status.nodes.
//
// A daemon writes into its IMEX config only the peers with its own cliqueID, so a ComputeDomain
// whose nodes sit in two cliques is two IMEX domains: memory is shared only inside each. A node
// without NVLink fabric reports cliqueID "" and starts no IMEX daemon.
// (../shared/reference/dra.md §7; NVIDIA api/nvidia.com/resource/v1beta1/computedomain.go.)
//
// ComputeDomainClique objects (gate ComputeDomainCliques: per-clique daemon lists in the driver's
// namespace) are not modelled: the controller copies their daemons into status.nodes
// (compute-domain-controller cdstatus.go), so the ComputeDomain alone says all of it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

inline constexpr std::string_view kComputeDomainApiVersion = "resource.nvidia.com/v1beta1";
inline constexpr std::string_view kComputeDomainGroup = "resource.nvidia.com";
// The node label GPU Feature Discovery writes: the same <ClusterUUID>.<CliqueId> value the
// compute-domain plugin reads from NVML and reports as status.nodes[].cliqueID.
inline constexpr std::string_view kGpuCliqueLabel = "nvidia.com/gpu.clique";

// status.status, and each status.nodes[].status: absent (not reported yet), Ready or NotReady.
enum class ComputeDomainReadiness : std::uint8_t { None, Ready, NotReady };

// "Ready", "NotReady"; empty for None.
constexpr std::string_view computeDomainReadinessName(ComputeDomainReadiness readiness) {
    switch (readiness) {
    case ComputeDomainReadiness::None: return {};
    case ComputeDomainReadiness::Ready: return "Ready";
    case ComputeDomainReadiness::NotReady: return "NotReady";
    }
    return {};
}

// One entry of status.nodes: a node whose IMEX daemon joined (or is joining) the domain.
struct ComputeDomainNode {
    std::string name;
    std::string ipAddress;
    std::string cliqueID; // "" on a node without NVLink fabric
    std::int32_t index = 0; // the daemon's number inside its clique
    ComputeDomainReadiness status = ComputeDomainReadiness::None;
    friend bool operator==(const ComputeDomainNode&, const ComputeDomainNode&) = default;
};

struct ComputeDomain {
    // spec.channel.allocationMode: one IMEX channel per claim, or all of them.
    enum class ChannelAllocation : std::uint8_t { Single, All };

    std::string nameSpace;
    std::string name;
    std::string uid;
    std::int32_t numNodes = 0;    // spec.numNodes (deprecated; 0 recommended): only gates Ready
    std::string channelTemplate;  // spec.channel.resourceClaimTemplate.name, in the same namespace
    ChannelAllocation allocationMode = ChannelAllocation::Single;
    ComputeDomainReadiness status = ComputeDomainReadiness::None; // status.status
    std::vector<ComputeDomainNode> nodes;                          // status.nodes, as listed
    std::string resourceVersion{}; // not part of what the object says

    std::string key() const { return nameSpace + '/' + name; }
    friend bool operator==(const ComputeDomain& a, const ComputeDomain& b) {
        return a.nameSpace == b.nameSpace && a.name == b.name && a.uid == b.uid && a.numNodes == b.numNodes &&
               a.channelTemplate == b.channelTemplate && a.allocationMode == b.allocationMode &&
               a.status == b.status && a.nodes == b.nodes;
    }
};

} // namespace topodeck
