#pragma once

#include "core/model/cluster_state.h"
#include "core/placement/engines/taken_devices.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/hypernode_tree.h"
#include "core/topology/topology_index.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace topodeck {

// The pseudo-resource a gang that asks for devices by claims requests one of per pod: its column
// holds, per node, how many of the gang's pods the node's devices serve (dra_placement.h). One per
// kind of pod: "resource.k8s.io/claims", "resource.k8s.io/claims#1", ...
inline constexpr std::string_view kDraPodsResource = "resource.k8s.io/claims";
inline bool isDraPodsResource(std::string_view name) { return name.starts_with(kDraPodsResource); }

// What every placement engine reads: the cluster (state + its label hierarchy) plus what-if
// changes on top (nodes drained, gangs assumed placed) and the scheduler-specific topology
// objects. Cheap to copy the overlay; the state and index are borrowed and must outlive it.
class PlacementCluster {
public:
    PlacementCluster(const ClusterState& state, const TopologyIndex& index);

    const ClusterState& state() const { return *m_state; }
    const TopologyIndex& index() const { return *m_index; }
    const TopologySpec& spec() const { return m_index->spec(); }

    std::size_t nodeSlots() const { return m_state->nodeSlots(); }
    bool present(NodeId id) const { return m_state->record(id).present; }
    const Node& node(NodeId id) const { return *m_state->record(id).node; }
    // Present, Ready, not cordoned and not drained in the what-if.
    bool usable(NodeId id) const { return m_capacity->usable[id] != 0; }
    bool drained(NodeId id) const { return id < m_drained.size() && m_drained[id]; }
    // No pod holds anything on it (Slurm's --exclusive needs this).
    bool idle(NodeId id) const;

    // One resource's free amount on every node, in nanos: allocatable - requested by bound pods -
    // assumed by the what-if + released by it, may be negative; 0 for a resource no node or pod
    // carries. Engines that read a few resources on each of 100,000 nodes look each column up
    // once, not per node. Valid while the cluster is not changed.
    class FreeColumn {
    public:
        __int128 nanos(NodeId id) const { return m_free != nullptr ? (*m_free)[id] : 0; }
        // Set by setFreeColumn: no node's allocatable or requests hold the resource, so an engine
        // that reads those lists directly must read this column instead.
        bool standsAlone() const { return m_standsAlone; }

    private:
        friend class PlacementCluster;
        FreeColumn(const std::vector<__int128>* free, bool standsAlone) : m_free(free), m_standsAlone(standsAlone) {}
        const std::vector<__int128>* m_free;
        bool m_standsAlone;
    };
    FreeColumn freeColumn(std::string_view resource) const;
    // One node's free amount of a resource, as freeColumn(resource) has it.
    Quantity free(NodeId id, std::string_view resource) const;
    // Allocatable `pods` minus the pods bound or assumed on the node, at least 0.
    std::int64_t freePodSlots(NodeId id) const { return std::max<std::int64_t>(m_capacity->podSlots[id], 0); }
    // How many pods of perPod fit on the node by resources alone (0 when one does not); with
    // countPodSlots the node's `pods` allocatable counts too, one per pod (Kueue, kube-scheduler).
    // Resources requested as zero are ignored. Does not look at usable().
    std::int64_t podsThatFit(NodeId id, const ResourceList& perPod, bool countPodSlots) const;
    // The first resource (by name) that stops even one pod fitting, or "" when one fits.
    std::string_view limitingResource(NodeId id, const ResourceList& perPod, bool countPodSlots) const;

    // Present nodes in natural name order: Slurm's node-table order and every engine's tie-break.
    const std::vector<NodeId>& nodesInOrder() const { return *m_order; }

    // Sets (or adds) the free amount of `resource` on every node, in nanos (by node id).
    void setFreeColumn(const std::string& resource, std::vector<__int128> nanos);

    // What-if. Assuming a resource no node or pod has yet adds a column for it.
    // Whether the what-if assumed or released pods on the node, so that its free resources differ
    // from what the state's own lists say.
    bool freeChanged(NodeId id) const { return id < m_changedNodes.size() && m_changedNodes[id]; }
    void drain(NodeId id);
    void assume(NodeId id, const ResourceList& perPod, std::int32_t pods);
    // The opposite: pods bound there are gone in the what-if (a gang taken off to be placed again).
    void release(NodeId id, const ResourceList& perPod, std::int32_t pods);

    // Slurm node Weight (slurm.conf); 1 unless set. Lower weights are used first.
    std::uint32_t nodeWeight(NodeId id) const { return id < m_weights.size() ? m_weights[id] : 1; }
    void setNodeWeight(NodeId id, std::uint32_t weight);

    // The Slurm topology (topology.conf / topology.yaml), or nullptr when none was given.
    const SlurmTopology* slurmTopology() const { return m_slurmTopology.get(); }
    void setSlurmTopology(std::shared_ptr<const SlurmTopology> topology) { m_slurmTopology = std::move(topology); }
    // The Volcano HyperNodes of the cluster, or nullptr when it has none.
    const std::vector<HyperNode>* hyperNodes() const { return m_hyperNodes.get(); }
    void setHyperNodes(std::shared_ptr<const std::vector<HyperNode>> hyperNodes) {
        m_hyperNodes = std::move(hyperNodes);
    }

    // DRA devices what-if steps took (nullptr: none), which the DRA allocator treats as in use.
    const std::shared_ptr<const TakenDevices>& takenDevices() const { return m_takenDevices; }
    void takeDevices(const std::vector<DeviceSlot>& devices);

private:
    // Free capacity as dense columns (one per resource name any node or pod carries, plus pod
    // slots), so that engines scanning 100,000 nodes read arrays instead of chasing each node's
    // resource lists. Shared between copies until a what-if changes it.
    struct Capacity {
        std::vector<std::string> resources;      // sorted
        std::vector<std::vector<__int128>> free; // [resource][node], in nanos
        std::vector<std::int64_t> podSlots;      // allocatable pods - pods bound/assumed
        std::vector<std::uint32_t> pods;         // pods holding resources, bound or assumed
        std::vector<std::uint8_t> usable;        // present, Ready, not cordoned, not drained
    };
    static std::shared_ptr<Capacity> buildCapacity(const ClusterState& state);
    int column(std::string_view resource) const;
    Capacity& mutableCapacity();
    void markFreeChanged(NodeId id);

    const ClusterState* m_state;
    const TopologyIndex* m_index;
    std::shared_ptr<const std::vector<NodeId>> m_order;
    std::shared_ptr<const Capacity> m_capacity;
    std::vector<bool> m_drained;
    std::vector<bool> m_changedNodes; // freeChanged()
    std::vector<std::uint32_t> m_weights;
    std::vector<std::string> m_standAloneColumns; // names setFreeColumn set
    std::shared_ptr<const SlurmTopology> m_slurmTopology;
    std::shared_ptr<const std::vector<HyperNode>> m_hyperNodes;
    std::shared_ptr<const TakenDevices> m_takenDevices; // shared between copies until one takes more
};

} // namespace topodeck
