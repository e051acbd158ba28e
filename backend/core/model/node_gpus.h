#pragma once
// A node's GPUs counted from both worlds: device-plugin extended resources (nvidia.com/gpu in
// allocatable and in its pods' requests) and DRA devices (ResourceSlices and claim allocations,
// see device_inventory.h). Physical GPUs, not devices or replicas: MIG slices, time-sliced
// replicas and KAI's GPU fractions count as the share of a GPU they take.
//
// Device plugin:
//  - time-slicing / MPS (GPU operator label nvidia.com/gpu.replicas = N > 1): allocatable and
//    requests count replicas, N to a GPU;
//  - MIG (resources nvidia.com/mig-<g>g.<memory>, when --gpu-resources counts them): physical GPUs
//    from the label nvidia.com/gpu.count; an instance takes g of the GPU's 7 compute slices (4 on
//    an A30, by nvidia.com/gpu.product);
//  - KAI GPU sharing: a reservation pod holds a whole GPU for its group, and the group's pods take
//    the fractions they ask for (gpu-fraction, or gpu-memory of nvidia.com/gpu.memory MiB), at
//    most the reserved GPUs; the reservation pod itself is not counted on top.
// A node whose GPUs both worlds publish is counted once: its total is the larger of the two, its
// use the sum of both, at most the total.

#include "core/model/cluster_state.h"
#include "core/model/gpu_resources.h"
#include "core/values/gpu_amount.h"

#include <cstdint>
#include <string_view>

namespace topodeck {

enum class GpuSource : std::uint8_t { None, DevicePlugin, Dra, Both };

// "device plugin", "DRA", "device plugin + DRA"; empty for None.
std::string_view gpuSourceName(GpuSource source);

struct NodeGpus {
    std::int64_t total = 0;          // physical GPUs
    GpuAmount used;                  // exact share in use
    std::int64_t busy = 0;           // GPUs not free whole: used or partly used
    std::int64_t partlyUsed = 0;     // GPUs of which only a share is in use (MIG, sharing)
    GpuSource source = GpuSource::None;
    friend bool operator==(const NodeGpus&, const NodeGpus&) = default;
};

NodeGpus countNodeGpus(const ClusterState& state, NodeId id, const GpuResources& gpus);

// The GPUs a pod holds through DRA: the GPU devices allocated to the claims it names (its own, the
// ones made from its templates, the one made for its extended resources). A claim shared by
// several pods counts for each of them.
std::int64_t claimedGpus(const ClusterState& state, const Pod& pod);

// What the DRA objects say that the counts cannot show, one line each for `show` and the status
// bar: GPU classes that could not be applied, slices of nodes the cluster has no Node for (their
// devices are counted nowhere), pools whose current generation is missing slices (the scheduler
// refuses `All` requests from them) or lists a device twice (invalid: it allocates nothing from
// them). O(slices + devices).
std::vector<std::string> draWarnings(const ClusterState& state);

} // namespace topodeck
