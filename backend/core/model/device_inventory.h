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
//    the GPU can no longer be handed out whole.

#include "core/cel/device_selector.h"
#include "core/model/dra.h"
#include "core/values/gpu_amount.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
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
        std::vector<bool> gpus; // by device: a GPU class selects it (isGpu), decided when it arrives
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
    // How many claims' allocations hold the device (0: free).
    int allocations(std::string_view driver, std::string_view pool, std::string_view device) const;
    // Whether the device is a GPU as the GPU classes select it.
    bool isGpu(const Device& device, std::string_view driver) const;
    // The same for a device by its identity, in its pool's current slices; false when unknown.
    bool isGpuDevice(std::string_view driver, std::string_view pool, std::string_view device) const;
    // Why a GPU class could not be applied (its selector does not compile, or failed on a
    // device): one line each, for the status bar and `show`; empty when all is well.
    const std::vector<std::string>& classWarnings() const { return m_classWarnings; }

private:
    struct Pool {
        std::int64_t generation = 0;
        std::vector<std::string> slices; // names, every generation
    };

    void upsertSliceOn(ResourceSlice slice, NodeId node, Touched& touched);
    void poolChanged(const std::string& poolKey, Touched& touched);
    void indexDevices(const PublishedSlice& published, bool add);
    void addAllocations(const ResourceClaim& claim, int sign, Touched& touched);
    void recompute(NodeId id);
    void classify(PublishedSlice& published) const;
    void compileGpuClasses();
    GpuAmount partitionShare(const Device& partition, const Device& gpu, const ResourceSlice& slice) const;
    const CounterSet* counterSet(const ResourceSlice& slice, std::string_view name) const;
    void recomputeAll(Touched& touched);
    static void touch(Touched& touched, NodeId id);
    static std::string deviceKey(std::string_view driver, std::string_view pool, std::string_view device);

    GpuDeviceClasses m_gpuClasses;
    // The selectors of each GPU class whose DeviceClass object is known, compiled; a class not
    // known uses the built-in rule of NVIDIA's chart.
    std::map<std::string, std::vector<cel::Program>, std::less<>> m_gpuSelectors;
    mutable std::vector<std::string> m_classWarnings;
    std::map<std::string, PublishedSlice, std::less<>> m_slices;
    std::map<std::string, Pool, std::less<>> m_pools; // driver NUL pool
    std::map<std::string, std::shared_ptr<const ResourceClaim>, std::less<>> m_claims;
    std::map<std::string, ResourceClaimTemplate, std::less<>> m_templates;
    std::map<std::string, DeviceClass, std::less<>> m_classes;
    std::unordered_map<std::string, int> m_allocated;      // device key -> allocations holding it
    std::unordered_map<std::string, NodeId> m_deviceNodes; // device key -> node, for current node-local slices
    std::vector<std::vector<std::string>> m_nodeSlices;    // by node id: slice names
    std::vector<NodeDevices> m_nodes;                      // by node id
};

} // namespace topodeck
