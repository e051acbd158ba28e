#pragma once
// The DRA objects of a cluster and what they say per node: the devices its current slices
// publish, the physical GPUs among them (MIG slices and other partitions folded into the GPU they
// are cut from) and what of those claims have allocated. Kept by the ClusterState, updated per
// event in O(devices on the nodes the event touches).
//
// Rules, as the kube-scheduler reads the same objects (../shared/reference/dra.md 2-4):
//  - a pool's slices count only at the pool's highest generation;
//  - a device is in use when any claim's status.allocation holds it (reserved for a pod or not),
//    except results with adminAccess;
//  - a GPU is a device a GPU DeviceClass selects (by default NVIDIA's gpu.nvidia.com: its
//    selectors when the class object is known, else the chart's type == "gpu" on that driver);
//  - a device that is not a GPU but is cut from one (its parentUUID is a GPU's uuid, or it draws on
//    a counter set a GPU draws on) is a partition: allocated, it takes its share of that GPU, and
//    the GPU can no longer be handed out whole;
//  - a pool the scheduler holds invalid (poolInvalidReason) still counts its devices, a name listed
//    twice once: the node has them, though nothing is allocated from the pool (draWarnings says so).

#include "core/cel/device_selector.h"
#include "core/cel/selector_memo.h"
#include "core/model/dra.h"
#include "core/model/id_table.h"
#include "core/values/gpu_amount.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

using NodeId = std::uint32_t;

// What decides which devices are GPUs: the GPU DeviceClass names, and the classes' selectors.
class GpuDeviceClasses {
public:
    GpuDeviceClasses(); // gpu.nvidia.com
    explicit GpuDeviceClasses(std::vector<std::string> classNames);
    static GpuDeviceClasses fromList(std::string_view commaSeparated);
    const std::vector<std::string>& names() const { return m_names; }
    friend bool operator==(const GpuDeviceClasses&, const GpuDeviceClasses&) = default;

private:
    std::vector<std::string> m_names;
};

// One node's devices as DRA publishes and allocates them.
struct NodeDevices {
    std::int32_t devices = 0;          // in the node's current slices, every driver
    std::int32_t allocatedDevices = 0; // of those, held by a claim's allocation
    std::int32_t gpus = 0;             // physical GPUs (partitions folded in)
    GpuAmount gpusAllocated;           // whole GPUs allocated plus the shares of allocated partitions
    std::int32_t gpusPartlyAllocated = 0; // GPUs with some partitions allocated: not free whole
    friend bool operator==(const NodeDevices&, const NodeDevices&) = default;
};

class DeviceInventory {
public:
    DeviceInventory();
    // Sizes the tables for slices and devices still to come (a snapshot file): growing them one
    // by one would move every record several times.
    void reserve(std::size_t slices, std::size_t devices);

    // What the state's apply() is told back: the nodes whose figures may have changed, or that
    // every node's may have (a DeviceClass changed which devices are GPUs).
    struct Touched {
        std::vector<NodeId> nodes;
        bool allNodes = false;
    };
    // `nodeOf` gives (making it if need be) the id of a node by name, as the state numbers nodes.
    template <class NodeOf> void upsertSlice(ResourceSlice slice, NodeOf&& nodeOf, Touched& touched) {
        const NodeId node = slice.nodeName.empty() ? kNoNode : nodeOf(slice.nodeName);
        upsertSliceOn(std::move(slice), node, touched);
    }
    void deleteSlice(std::string_view name, Touched& touched);
    void upsertClaim(ResourceClaim claim, Touched& touched);
    void deleteClaim(std::string_view nameSpace, std::string_view name, Touched& touched);
    void upsertClaimTemplate(ResourceClaimTemplate claimTemplate);
    void deleteClaimTemplate(std::string_view nameSpace, std::string_view name);
    void upsertDeviceClass(DeviceClass deviceClass, Touched& touched);
    void deleteDeviceClass(std::string_view name, Touched& touched);
    void setGpuClasses(GpuDeviceClasses classes, Touched& touched);

    // The figures of one node; all zero for a node without DRA devices.
    const NodeDevices& node(NodeId id) const;
    bool empty() const { return m_slices.empty() && m_claims.empty(); }
    const GpuDeviceClasses& gpuClasses() const { return m_gpuClasses; }

    // A slice and the node it publishes devices of (kNoNode: not node-local).
    static constexpr NodeId kNoNode = 0xFFFFFFFF;
    struct PublishedSlice {
        std::shared_ptr<const ResourceSlice> slice;
        NodeId node = kNoNode;
        std::uint32_t slot = 0; // the inventory's own number for it, for the per-device look-ups below
    };
    // The objects, by name (namespace/name for the namespaced kinds).
    const std::map<std::string, PublishedSlice, std::less<>>& slices() const { return m_slices; }
    const std::map<std::string, std::shared_ptr<const ResourceClaim>, std::less<>>& claims() const { return m_claims; }
    const std::map<std::string, ResourceClaimTemplate, std::less<>>& claimTemplates() const { return m_templates; }
    const std::map<std::string, DeviceClass, std::less<>>& deviceClasses() const { return m_classes; }
    // KEP-5004: the class that serves the extended resource `name` (its extendedResourceName, or
    // the implicit "deviceclass.resource.kubernetes.io/<class>"), or nullptr. Of two classes naming
    // one resource the newer wins, and between equally old ones the lower name.
    const DeviceClass* classForExtendedResource(std::string_view name) const;

    // Whether the slice counts: its pool is at its generation. False for an unknown slice.
    bool isCurrent(const ResourceSlice& slice) const;
    bool isCurrent(const PublishedSlice& published) const { return isCurrent(published.slot); }
    // How many claims' allocations hold the device (0: free).
    int allocations(std::string_view driver, std::string_view pool, std::string_view device) const;
    // The same for the device at `index` of a published slice, without looking its name up.
    int allocations(const PublishedSlice& published, std::size_t index) const {
        return allocations(published.slot, index);
    }

    // The slices by slot (PublishedSlice::slot), for readers that go node by node: the slices
    // publishing devices of one node and those of no one node (allNodes, a node selector), each
    // in arrival order, every generation; what a slot holds, whether it counts, and its
    // devices' allocations.
    const std::vector<std::uint32_t>& nodeSliceSlots(NodeId id) const;
    const std::vector<std::uint32_t>& sharedSliceSlots() const { return m_sharedSlices; }
    const ResourceSlice& sliceAt(std::uint32_t slot) const { return *m_sliceRecords[slot].slice; }
    bool isCurrent(std::uint32_t slot) const {
        const SliceRecord& record = m_sliceRecords[slot];
        return m_pools[record.pool].generation == record.slice->poolGeneration;
    }
    // Whether the slot's pool has, at its generation, the resourceSliceCount slices they announce;
    // the scheduler cannot tell what `All` takes from a pool that does not.
    bool isPoolComplete(std::uint32_t slot) const;
    // Why the slot's pool is invalid, as the scheduler of 1.35 judges a complete pool's current
    // slices (structured allocator, pools.go; it allocates nothing from such a pool): a device
    // name listed twice ("duplicate device name gpu-0") or, with PartitionableDevices, a counter
    // set named twice ("duplicate counter set name s") or a device drawing on a counter set or a
    // counter that no slice has ("counter set s not found", "counter c not found in counter set
    // s"). Empty for a valid pool, and for an incomplete one (being updated, not invalid). Judged
    // when slices arrive or leave. The scheduler judges device names among the slices that reach
    // the node it filters; this judges the pool's: the same for a node's own pool.
    std::string_view poolInvalidReason(std::uint32_t slot, bool partitionableDevices) const;
    // The counters' part of it alone: what the scheduler judges of a pool it reckons among a
    // node's only for its counter sets (not for devices that reach the node).
    std::string_view poolCountersInvalidReason(std::uint32_t slot) const;
    // Whether the slot's pool's current slices hold counter sets: the scheduler, with
    // PartitionableDevices, reckons such a pool among every node's pools.
    bool poolHasCounterSets(std::uint32_t slot) const { return m_pools[m_sliceRecords[slot].pool].counterSets; }
    int allocations(std::uint32_t slot, std::size_t index) const {
        return m_allocations[m_sliceRecords[slot].devices[index]];
    }
    // Whether the device is a GPU as the GPU classes select it.
    bool isGpu(const Device& device, std::string_view driver) const;
    // The same for a device by its identity, in its pool's current slices; false when unknown.
    bool isGpuDevice(std::string_view driver, std::string_view pool, std::string_view device) const;
    // Why a GPU class could not be applied (its selector does not compile, or failed on a
    // device): one line each, for the status bar and `show`; empty when all is well.
    const std::vector<std::string>& classWarnings() const { return m_classWarnings; }

private:
    // Device identities (driver, pool, device name) are interned: a claim's results and a slice's
    // devices resolve to the same DeviceId, which carries the allocation count and the node, so
    // that a claim event and a node's figures read flat arrays instead of building string keys.
    // An identity lives while a slice lists it or an allocation holds it; a pool while it has
    // slices or identities. Nothing is looked up by a string built for the purpose.
    using PoolId = std::uint32_t;
    using DeviceId = std::uint32_t;
    static constexpr std::uint32_t kNone = 0xFFFFFFFF;
    struct Pool {
        std::string driver;
        std::string name;
        std::int64_t generation = 0;
        std::vector<std::uint32_t> slices; // slots, every generation, in arrival order
        // Its device identities. A small pool (a node's GPUs) is searched in place: its records
        // were made together, so that is a few adjacent cache lines where a hash probe misses
        // twice; a large one is found through m_deviceIds as well.
        std::vector<DeviceId> identities;
        bool hashed = false; // its identities are in m_deviceIds
        bool live = false;   // false: a free slot
        // What judgePool() found wrong with its current slices (poolInvalidReason): device names,
        // counters; and whether they hold counter sets.
        std::string invalidDevices;
        std::string invalidCounters;
        bool counterSets = false;
    };
    struct SliceRecord {
        std::shared_ptr<const ResourceSlice> slice; // null: a free slot
        NodeId node = kNoNode;
        PoolId pool = kNone;
        std::vector<DeviceId> devices; // by device index
        std::vector<bool> gpus;        // by device: a GPU class selects it (isGpu), decided when it arrives
        // By device: it could be a partition of another (it consumes counters or names a
        // parentUUID), decided when it arrives so that recompute() need not search attributes.
        std::vector<bool> partitionLike;
    };
    struct DeviceRecord {
        PoolId pool = kNone;      // kNone: a free slot
        std::uint32_t inPool = 0; // its place in the pool's identities
        std::string name;
        std::uint32_t listings = 0; // slices (any generation) listing it
        NodeId node = kNoNode;      // the node of the current node-local slice listing it
    };

    void upsertSliceOn(ResourceSlice slice, NodeId node, Touched& touched);
    void poolChanged(PoolId pool, Touched& touched);
    void judgePool(Pool& pool);
    void indexDevices(const SliceRecord& record, bool add);
    void addAllocations(const ResourceClaim& claim, int sign, Touched& touched);
    void releaseUnheld(const ResourceClaim& claim);
    void recompute(NodeId id);
    // The selectors' answers per GPU class, remembered by the values they read
    // (cel/selector_memo.h): a cluster's GPUs are a few models, so a slice's devices are classed
    // by look-ups rather than evaluations.
    struct GpuMemos {
        std::map<std::string, cel::SelectorMemo, std::less<>> byClass;
        cel::SelectorMemo::Probe probe;
    };
    void classify(SliceRecord& record);
    bool selectsGpu(const Device& device, std::string_view driver, GpuMemos* memos) const;
    void compileGpuClasses();
    GpuAmount partitionShare(const Device& partition, const Device& gpu, const ResourceSlice& slice) const;
    const CounterSet* counterSet(const ResourceSlice& slice, std::string_view name) const;
    void recomputeAll(Touched& touched);
    static void touch(Touched& touched, NodeId id);

    PoolId findPool(std::string_view driver, std::string_view pool) const;
    PoolId internPool(std::string_view driver, std::string_view pool);
    void releasePoolIfUnused(PoolId id);
    DeviceId findDevice(PoolId pool, std::string_view device) const;
    DeviceId internDevice(PoolId pool, std::string_view device);
    void releaseDeviceIfUnused(DeviceId id);
    void hashPool(Pool& pool, bool hashed);
    std::size_t poolHash(std::string_view driver, std::string_view pool) const;
    static std::size_t deviceHash(PoolId pool, std::string_view device);

    GpuDeviceClasses m_gpuClasses;
    // The selectors of each GPU class whose DeviceClass object is known, compiled; a class not
    // known uses the built-in rule of NVIDIA's chart.
    std::map<std::string, std::vector<cel::Program>, std::less<>> m_gpuSelectors;
    GpuMemos m_gpuMemos;
    mutable std::vector<std::string> m_classWarnings;
    std::map<std::string, PublishedSlice, std::less<>> m_slices;
    std::map<std::string, std::shared_ptr<const ResourceClaim>, std::less<>> m_claims;
    std::map<std::string, ResourceClaimTemplate, std::less<>> m_templates;
    std::map<std::string, DeviceClass, std::less<>> m_classes;
    std::vector<SliceRecord> m_sliceRecords; // by slot
    std::vector<std::uint32_t> m_freeSlices;
    std::vector<Pool> m_pools; // by PoolId
    std::vector<PoolId> m_freePools;
    IdTable m_poolIds;                   // (driver, pool) -> PoolId
    std::vector<DeviceRecord> m_devices; // by DeviceId
    // By DeviceId: claims' allocations holding it, apart from the records so that a node's
    // devices are one cache line of counts.
    std::vector<std::int32_t> m_allocations;
    std::vector<DeviceId> m_freeDevices;
    // By DeviceId: the judgePool() pass that last met it, to find a name listed twice in one pass.
    std::vector<std::uint32_t> m_deviceSeen;
    std::uint32_t m_judgePass = 0;
    IdTable m_deviceIds; // (PoolId, device name) -> DeviceId, for the identities of large pools
    std::vector<std::vector<std::uint32_t>> m_nodeSlices; // by node id: slice slots, in arrival order
    std::vector<std::uint32_t> m_sharedSlices;            // slots of the slices of no one node
    std::vector<NodeDevices> m_nodes;                     // by node id
};

} // namespace topodeck
