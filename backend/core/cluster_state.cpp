#include "core/cluster_state.h"

#include <type_traits>

namespace topodeck {

namespace {

std::string podKey(std::string_view nameSpace, std::string_view name) {
    std::string key;
    key.reserve(nameSpace.size() + name.size() + 1);
    key.append(nameSpace).append(1, '/').append(name);
    return key;
}

} // namespace

std::optional<NodeId> ClusterState::findNode(std::string_view name) const {
    auto it = m_nodeIds.find(name);
    if (it == m_nodeIds.end()) return std::nullopt;
    return it->second;
}

const Pod* ClusterState::findPod(std::string_view nameSpace, std::string_view name) const {
    auto it = m_pods.find(podKey(nameSpace, name));
    return it == m_pods.end() ? nullptr : &it->second;
}

void ClusterState::reserve(std::size_t nodes, std::size_t pods) {
    m_nodes.reserve(nodes);
    m_nodeIds.reserve(nodes);
    m_pods.reserve(pods);
}

NodeId ClusterState::slotFor(std::string_view name) {
    if (auto it = m_nodeIds.find(name); it != m_nodeIds.end()) return it->second;
    const auto id = static_cast<NodeId>(m_nodes.size());
    m_nodeIds.emplace(std::string(name), id);
    auto placeholder = std::make_shared<Node>();
    placeholder->name = std::string(name);
    m_nodes.push_back(NodeRecord{std::move(placeholder), {}, false});
    return id;
}

void ClusterState::touch(AppliedEvent& applied, NodeId id) {
    for (int i = 0; i < applied.nodeCount; ++i)
        if (applied.nodes[i] == id) return;
    applied.nodes[applied.nodeCount++] = id;
}

void ClusterState::addPodUsage(const Pod& pod, AppliedEvent& applied) {
    if (!pod.holdsResources()) return;
    const NodeId id = slotFor(pod.nodeName);
    NodeUsage& usage = m_nodes[id].usage;
    usage.requested.add(pod.requests);
    ++usage.pods;
    touch(applied, id);
}

void ClusterState::removePodUsage(const Pod& pod, AppliedEvent& applied) {
    if (!pod.holdsResources()) return;
    const NodeId id = slotFor(pod.nodeName);
    NodeUsage& usage = m_nodes[id].usage;
    usage.requested.subtract(pod.requests);
    // Drop entries that returned to zero so that usage is independent of history.
    for (const auto& [name, quantity] : pod.requests)
        if (usage.requested.get(name).isZero()) usage.requested.erase(name);
    --usage.pods;
    touch(applied, id);
}

AppliedEvent ClusterState::apply(ClusterEvent event) {
    AppliedEvent applied;
    std::visit(
        [&](auto& e) {
            using E = std::remove_cvref_t<decltype(e)>;
            if constexpr (std::is_same_v<E, NodeUpserted>) {
                const NodeId id = slotFor(e.node.name);
                NodeRecord& record = m_nodes[id];
                record.node = std::make_shared<const Node>(std::move(e.node));
                if (!record.present) {
                    record.present = true;
                    ++m_presentNodes;
                }
                touch(applied, id);
            } else if constexpr (std::is_same_v<E, NodeDeleted>) {
                auto it = m_nodeIds.find(std::string_view(e.name));
                if (it != m_nodeIds.end() && m_nodes[it->second].present) {
                    m_nodes[it->second].present = false;
                    --m_presentNodes;
                    touch(applied, it->second);
                }
            } else if constexpr (std::is_same_v<E, PodUpserted>) {
                auto [it, inserted] = m_pods.try_emplace(podKey(e.pod.nameSpace, e.pod.name));
                if (!inserted) removePodUsage(it->second, applied);
                it->second = std::move(e.pod);
                addPodUsage(it->second, applied);
            } else if constexpr (std::is_same_v<E, PodDeleted>) {
                auto it = m_pods.find(podKey(e.nameSpace, e.name));
                if (it != m_pods.end()) {
                    removePodUsage(it->second, applied);
                    m_pods.erase(it);
                }
            } else if constexpr (std::is_same_v<E, TopologyUpserted>) {
                m_topologies[e.spec.name] = std::move(e.spec);
                applied.topologiesChanged = true;
            } else if constexpr (std::is_same_v<E, TopologyDeleted>) {
                applied.topologiesChanged = m_topologies.erase(e.name) > 0;
            }
        },
        event);
    ++m_generation;
    return applied;
}

} // namespace topodeck
