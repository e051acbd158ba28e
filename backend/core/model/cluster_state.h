#pragma once

#include "core/model/cluster_event.h"
#include "core/model/device_inventory.h"
#include "core/model/id_table.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/resource_list.h"
#include "core/model/topology_spec.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace topodeck {

using NodeId = std::uint32_t;

// What the pods bound to a node hold there.
struct NodeUsage {
    ResourceList requested;
    std::uint32_t pods = 0;
    std::uint32_t gpuSharePods = 0; // pods taking part in KAI's GPU sharing (node_gpus.h)
    friend bool operator==(const NodeUsage&, const NodeUsage&) = default;
};

struct NodeRecord {
    std::shared_ptr<const Node> node; // shared so that snapshots copy cheaply; never null
    NodeUsage usage;
    // False for a deleted node, or a name only known from pods bound to it. Ids are never reused,
    // so a node that comes back keeps its id and the pods that were bound to it.
    bool present = false;
    // The pods holding resources here (positions in the state's pod table, in no order), so that
    // one node's pods are found without reading every pod of the cluster.
    std::vector<std::uint32_t> pods;
};

// Which nodes one event touched, so that indexes update only those.
struct AppliedEvent {
    NodeId nodes[2] = {0, 0};
    int nodeCount = 0;
    bool topologiesChanged = false; // a Kueue/KAI Topology, which may change the hierarchy
    bool hyperNodesChanged = false;
    bool nodeAdded = false; // a node that was not present: a hierarchy placing nodes by name may now hold it
    // More than `nodes` holds may have changed (a DeviceClass that changes which devices are GPUs, a
    // pool moving to a new generation across many nodes): every node's figures are read again.
    bool allNodes = false;
};

// Everything the sources told us: nodes (dense ids), per-node usage from bound pods, topology
// objects (Kueue and KAI Topologies, Kueue ResourceFlavors, Volcano HyperNodes). Applying one pod
// event is O(resources of that pod).
class ClusterState {
public:
    // Takes the event by value: sources hand over their objects with std::move.
    AppliedEvent apply(ClusterEvent event);
    // Sizes the tables up front when a source knows how much is coming (a snapshot file).
    void reserve(std::size_t nodes, std::size_t pods);
    // The same for DRA slices and the devices they publish.
    void reserveDevices(std::size_t slices, std::size_t devices) { m_devices.reserve(slices, devices); }
    // The same as applying PodUpserted for each pod in order, but a state without pods takes the
    // vector over instead of moving half a million pods one by one into a new one.
    void upsertPods(std::vector<Pod>&& pods);

    std::size_t nodeSlots() const { return m_nodes.size(); } // ids are 0..nodeSlots()-1
    const NodeRecord& record(NodeId id) const { return m_nodes[id]; }
    std::optional<NodeId> findNode(std::string_view name) const;
    std::size_t presentNodeCount() const { return m_presentNodes; }

    std::size_t podCount() const { return m_pods.size(); }
    const Pod* findPod(std::string_view nameSpace, std::string_view name) const;
    template <class F>
    void forEachPod(F&& f) const {
        for (const Pod& pod : m_pods) f(pod);
    }
    // The pods holding resources on one node (bound and not terminated), in no particular order.
    // O(pods on the node).
    template <class F> void forEachPodOn(NodeId id, F&& f) const {
        if (id >= m_nodes.size()) return;
        for (const std::uint32_t index : m_nodes[id].pods) f(m_pods[index]);
    }

    const std::map<std::string, TopologySpec, std::less<>>& topologies() const { return m_topologies; }
    const std::map<std::string, HyperNode, std::less<>>& hyperNodes() const { return m_hyperNodes; }
    const std::map<std::string, ResourceFlavor, std::less<>>& resourceFlavors() const { return m_flavors; }
    // A Slurm source's topology, for the Slurm engines; nullptr for other sources.
    const std::shared_ptr<const SlurmTopology>& slurmTopology() const { return m_slurmTopology; }
    // DRA: ResourceSlices, ResourceClaims, templates and DeviceClasses, and the devices and GPUs
    // they give each node.
    const DeviceInventory& devices() const { return m_devices; }
    // NVIDIA's ComputeDomains, by "namespace/name".
    const std::map<std::string, ComputeDomain, std::less<>>& computeDomains() const { return m_computeDomains; }
    // Which DeviceClasses count as GPUs (default: gpu.nvidia.com); every node is read again.
    AppliedEvent setGpuDeviceClasses(GpuDeviceClasses classes);
    std::uint64_t generation() const { return m_generation; }

private:
    NodeId slotFor(std::string_view name);
    std::uint32_t podIndex(std::size_t hash, std::string_view nameSpace, std::string_view name) const;
    // `index`: the pod's position in m_pods, which the node's pod list records.
    void removePodUsage(const Pod& pod, std::uint32_t index, AppliedEvent& applied);
    void addPodUsage(const Pod& pod, std::uint32_t index, AppliedEvent& applied);
    // The pod at `from` moved to `to` (a deleted pod's place is taken by the last one).
    void movePodIndex(const Pod& pod, std::uint32_t from, std::uint32_t to);
    static void touch(AppliedEvent& applied, NodeId id);
    static void touchDevices(AppliedEvent& applied, const DeviceInventory::Touched& touched);
    template <class E> void applyDeviceEvent(E& e, AppliedEvent& applied);

    std::vector<NodeRecord> m_nodes;
    std::vector<std::string> m_nodeNames; // by id, next to each other for the lookups' key compares
    IdTable m_nodeIds;                    // dense ids by name hash (id_table.h)
    // Pods side by side, in no particular order (a deleted pod's place goes to the last one),
    // found by (namespace, name) through m_podIds.
    std::vector<Pod> m_pods;
    IdTable m_podIds;
    std::map<std::string, TopologySpec, std::less<>> m_topologies;
    std::map<std::string, HyperNode, std::less<>> m_hyperNodes;
    std::map<std::string, ResourceFlavor, std::less<>> m_flavors;
    std::shared_ptr<const SlurmTopology> m_slurmTopology;
    DeviceInventory m_devices;
    std::map<std::string, ComputeDomain, std::less<>> m_computeDomains;
    std::size_t m_presentNodes = 0;
    std::uint64_t m_generation = 0;
};

} // namespace topodeck
