#pragma once

#include "core/cluster_event.h"
#include "core/node.h"
#include "core/pod.h"
#include "core/resource_list.h"
#include "core/topology_spec.h"

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
    friend bool operator==(const NodeUsage&, const NodeUsage&) = default;
};

struct NodeRecord {
    std::shared_ptr<const Node> node; // shared so that snapshots copy cheaply; never null
    NodeUsage usage;
    // False for a deleted node, or a name only known from pods bound to it. Ids are never reused,
    // so a node that comes back keeps its id and the pods that were bound to it.
    bool present = false;
};

// Which nodes one event touched, so that indexes update only those.
struct AppliedEvent {
    NodeId nodes[2] = {0, 0};
    int nodeCount = 0;
    bool topologiesChanged = false;
};

// Everything the sources told us: nodes (dense ids), per-node usage from bound pods, topology
// objects. Applying one pod event is O(resources of that pod).
class ClusterState {
public:
    // Takes the event by value: sources hand over their objects with std::move.
    AppliedEvent apply(ClusterEvent event);
    // Sizes the tables up front when a source knows how much is coming (a snapshot file).
    void reserve(std::size_t nodes, std::size_t pods);

    std::size_t nodeSlots() const { return m_nodes.size(); } // ids are 0..nodeSlots()-1
    const NodeRecord& record(NodeId id) const { return m_nodes[id]; }
    std::optional<NodeId> findNode(std::string_view name) const;
    std::size_t presentNodeCount() const { return m_presentNodes; }

    std::size_t podCount() const { return m_pods.size(); }
    const Pod* findPod(std::string_view nameSpace, std::string_view name) const;
    template <class F>
    void forEachPod(F&& f) const {
        for (const auto& entry : m_pods) f(entry.second);
    }

    const std::map<std::string, TopologySpec, std::less<>>& topologies() const { return m_topologies; }
    std::uint64_t generation() const { return m_generation; }

private:
    NodeId slotFor(std::string_view name);
    void removePodUsage(const Pod& pod, AppliedEvent& applied);
    void addPodUsage(const Pod& pod, AppliedEvent& applied);
    static void touch(AppliedEvent& applied, NodeId id);

    std::vector<NodeRecord> m_nodes;
    // Transparent hashing, so looking a name up from a string_view allocates nothing.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
    };
    std::unordered_map<std::string, NodeId, NameHash, std::equal_to<>> m_nodeIds;
    std::unordered_map<std::string, Pod> m_pods; // key "namespace/name"
    std::map<std::string, TopologySpec, std::less<>> m_topologies;
    std::size_t m_presentNodes = 0;
    std::uint64_t m_generation = 0;
};

} // namespace topodeck
