#include "core/model/node_gpus.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace topodeck {
namespace {

constexpr std::string_view kReplicasLabel = "nvidia.com/gpu.replicas";
constexpr std::string_view kGpuCountLabel = "nvidia.com/gpu.count";
constexpr std::string_view kGpuProductLabel = "nvidia.com/gpu.product";
constexpr std::string_view kGpuMemoryLabel = "nvidia.com/gpu.memory"; // MiB
constexpr std::string_view kMigPrefix = "nvidia.com/mig-";

// Counts from files may be anything up to 2^63: sums saturate rather than overflow.
std::int64_t saturated(__int128 value) {
    constexpr __int128 kMax = std::numeric_limits<std::int64_t>::max() / GpuAmount::kUnits;
    return static_cast<std::int64_t>(std::clamp<__int128>(value, -kMax, kMax));
}

std::int64_t labelNumber(const Node& node, std::string_view key, std::int64_t fallback) {
    const std::string* text = node.label(key);
    if (text == nullptr) return fallback;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    return ec == std::errc() && end == text->data() + text->size() && value > 0 ? saturated(value) : fallback;
}

// "nvidia.com/mig-3g.40gb" -> 3 compute slices; 0 for a resource that is not a MIG profile.
std::int64_t migComputeSlices(std::string_view resource) {
    if (!resource.starts_with(kMigPrefix)) return 0;
    resource.remove_prefix(kMigPrefix.size());
    std::int64_t slices = 0;
    const auto [end, ec] = std::from_chars(resource.data(), resource.data() + resource.size(), slices);
    return ec == std::errc() && end != resource.data() + resource.size() && *end == 'g' && slices > 0 ? slices : 0;
}

std::int64_t ceilWhole(GpuAmount amount) {
    return (amount.unitCount() + GpuAmount::kUnits - 1) / GpuAmount::kUnits;
}

// KAI GPU sharing on one node: the reservation pods' whole GPUs come off the requests, and each
// group's sharers' fractions go on, at most the GPUs the group reserved here.
GpuAmount kaiSharingAdjustment(const ClusterState& state, NodeId id, const Node& node, const GpuResources& gpus) {
    struct Group {
        std::int64_t reserved = 0;
        GpuAmount shared;
    };
    std::map<std::string, Group, std::less<>> groups;
    const std::int64_t memoryMiB = labelNumber(node, kGpuMemoryLabel, 0);
    state.forEachPodOn(id, [&](const Pod& pod) {
        const PodGpuShare& share = pod.gpuShare;
        if (share.empty()) return;
        Group& group = groups[share.group];
        if (share.reservation) {
            group.reserved += gpus.count(pod.requests);
            return;
        }
        GpuAmount fraction;
        if (!share.fraction.empty() && GpuAmount::parseDecimal(share.fraction, fraction)) {
            group.shared += fraction * std::max<std::int32_t>(share.devices, 1);
        } else if (!share.memory.empty() && memoryMiB > 0) {
            std::int64_t mib = 0;
            const auto [end, ec] = std::from_chars(share.memory.data(), share.memory.data() + share.memory.size(), mib);
            if (ec == std::errc() && end == share.memory.data() + share.memory.size())
                group.shared += GpuAmount::fraction(std::min(mib, memoryMiB), memoryMiB);
        }
    });
    GpuAmount adjustment;
    for (const auto& [name, group] : groups) {
        if (group.reserved == 0) continue; // sharers without a reservation here hold nothing yet
        adjustment -= GpuAmount::whole(group.reserved);
        adjustment += std::min(group.shared, GpuAmount::whole(group.reserved));
    }
    return adjustment;
}

NodeGpus devicePluginGpus(const ClusterState& state, NodeId id, const GpuResources& gpus) {
    const NodeRecord& record = state.record(id);
    const Node& node = *record.node;
    const std::int64_t replicas = labelNumber(node, kReplicasLabel, 1);
    const std::string* product = node.label(kGpuProductLabel);
    const std::int64_t slicesPerGpu = product != nullptr && product->find("A30") != std::string::npos ? 4 : 7;
    __int128 wholeSum = 0;
    __int128 migSlicesSum = 0;
    for (const auto& [name, amount] : node.allocatable) {
        if (!gpus.matches(name)) continue;
        if (const std::int64_t slices = migComputeSlices(name); slices > 0)
            migSlicesSum += static_cast<__int128>(amount.value()) * slices;
        else
            wholeSum += amount.value();
    }
    // In GPUs, at most what a GpuAmount can hold.
    const std::int64_t wholeAllocatable = saturated(wholeSum);
    const std::int64_t migSlicesAllocatable = saturated(migSlicesSum);
    NodeGpus out;
    if (wholeAllocatable == 0 && migSlicesAllocatable == 0) return out;
    out.source = GpuSource::DevicePlugin;
    const std::int64_t wholeGpus = (wholeAllocatable + replicas - 1) / replicas;
    const std::int64_t migGpus = (migSlicesAllocatable + slicesPerGpu - 1) / slicesPerGpu;
    out.total = migGpus > 0 ? std::max(labelNumber(node, kGpuCountLabel, wholeGpus + migGpus), wholeGpus + migGpus)
                            : wholeGpus;
    for (const auto& [name, amount] : record.usage.requested) {
        if (!gpus.matches(name)) continue;
        const std::int64_t requested = saturated(amount.value());
        if (const std::int64_t slices = migComputeSlices(name); slices > 0)
            out.used += GpuAmount::fraction(saturated(static_cast<__int128>(requested) * slices), slicesPerGpu);
        else
            out.used += GpuAmount::fraction(requested, replicas);
        out.used = std::min(out.used, GpuAmount::whole(out.total));
    }
    if (record.usage.gpuSharePods > 0) out.used += kaiSharingAdjustment(state, id, node, gpus);
    out.used = std::clamp(out.used, GpuAmount(), GpuAmount::whole(out.total));
    out.busy = std::min(ceilWhole(out.used), out.total);
    out.partlyUsed = out.used.isWhole() ? 0 : 1;
    return out;
}

} // namespace

std::string_view gpuSourceName(GpuSource source) {
    switch (source) {
    case GpuSource::None: return {};
    case GpuSource::DevicePlugin: return "device plugin";
    case GpuSource::Dra: return "DRA";
    case GpuSource::Both: return "device plugin + DRA";
    }
    return {};
}

NodeGpus countNodeGpus(const ClusterState& state, NodeId id, const GpuResources& gpus) {
    NodeGpus plugin = devicePluginGpus(state, id, gpus);
    const NodeDevices& dra = state.devices().node(id);
    if (dra.gpus == 0) return plugin;
    NodeGpus out;
    out.total = std::max<std::int64_t>(plugin.total, dra.gpus);
    out.used = std::min(plugin.used + dra.gpusAllocated, GpuAmount::whole(out.total));
    const std::int64_t draBusy = dra.gpusAllocated.wholeGpus() + dra.gpusPartlyAllocated;
    out.busy = std::min(plugin.busy + draBusy, out.total);
    out.partlyUsed = std::min(plugin.partlyUsed + dra.gpusPartlyAllocated, out.total);
    out.source = plugin.source == GpuSource::None ? GpuSource::Dra : GpuSource::Both;
    return out;
}

std::int64_t claimedGpus(const ClusterState& state, const Pod& pod) {
    std::vector<std::string_view> names;
    for (const PodResourceClaim& claim : pod.resourceClaims)
        if (!claim.claimName.empty()) names.push_back(claim.claimName);
    for (const auto& [podClaim, claim] : pod.claimStatuses)
        if (!claim.empty()) names.push_back(claim);
    if (!pod.extendedResourceClaim.empty()) names.push_back(pod.extendedResourceClaim);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    const DeviceInventory& devices = state.devices();
    std::int64_t count = 0;
    for (const std::string_view name : names) {
        const auto found = devices.claims().find(pod.nameSpace + '/' + std::string(name));
        if (found == devices.claims().end() || !found->second->allocated) continue;
        for (const DeviceAllocation& result : found->second->devices)
            if (!result.adminAccess && devices.isGpuDevice(result.driver, result.pool, result.device)) ++count;
    }
    return count;
}

std::vector<std::string> draWarnings(const ClusterState& state) {
    const DeviceInventory& inventory = state.devices();
    std::vector<std::string> warnings = inventory.classWarnings();
    struct PoolSeen {
        std::int64_t slices = 0;
        std::int64_t expected = 0;
        std::uint32_t slot = 0; // one of its current slices
    };
    std::map<std::pair<std::string_view, std::string_view>, PoolSeen> pools;
    std::set<std::string_view> absentNodes;
    std::size_t absentSlices = 0;
    for (const auto& [name, published] : inventory.slices()) {
        const ResourceSlice& slice = *published.slice;
        if (!inventory.isCurrent(slice)) continue;
        if (published.node != DeviceInventory::kNoNode &&
            (published.node >= state.nodeSlots() || !state.record(published.node).present)) {
            ++absentSlices;
            absentNodes.insert(slice.nodeName);
        }
        PoolSeen& pool = pools[{slice.driver, slice.pool}];
        ++pool.slices;
        pool.expected = slice.poolSliceCount;
        pool.slot = published.slot;
    }
    if (absentSlices > 0) {
        constexpr std::size_t kNamed = 3;
        std::string names;
        std::size_t named = 0;
        for (std::string_view node : absentNodes)
            if (named++ < kNamed) names += (names.empty() ? "" : ", ") + std::string(node);
        if (absentNodes.size() > kNamed) names += ", ...";
        warnings.push_back(std::to_string(absentSlices) +
                           (absentSlices == 1 ? " ResourceSlice publishes" : " ResourceSlices publish") +
                           " devices of " + std::to_string(absentNodes.size()) +
                           (absentNodes.size() == 1 ? " node" : " nodes") + " the cluster has no Node for (" + names +
                           "): they are counted nowhere");
    }
    for (const auto& [key, pool] : pools) {
        const std::string name = "pool " + std::string(key.second) + " of " + std::string(key.first);
        // Invalid whatever the gates (a device name twice), or only with PartitionableDevices on
        // (its counters): the devices are counted as published all the same.
        const std::string_view invalid = inventory.poolInvalidReason(pool.slot, false);
        const std::string_view counters = inventory.poolInvalidReason(pool.slot, true);
        if (!invalid.empty())
            warnings.push_back(name + " is invalid (" + std::string(invalid) +
                               "): counted as published; the scheduler allocates nothing from it");
        else if (!counters.empty())
            warnings.push_back(name + " is invalid with DRAPartitionableDevices on (" + std::string(counters) +
                               "): counted as published; with the gate the scheduler allocates nothing from it");
        else if (pool.slices < pool.expected)
            warnings.push_back(name + " is incomplete (" + std::to_string(pool.slices) + " of " +
                               std::to_string(pool.expected) +
                               " slices at its generation): counted as published; the scheduler refuses `All` requests "
                               "from it until the rest arrive");
    }
    return warnings;
}

} // namespace topodeck
