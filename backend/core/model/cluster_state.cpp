#include "core/model/cluster_state.h"

#include <algorithm>
#include <type_traits>

namespace topodeck {

namespace {

std::size_t nameHash(std::string_view name) {
    return hashName(name);
}

std::size_t podHash(std::string_view nameSpace, std::string_view name) {
    return hashCombine(nameHash(nameSpace), nameHash(name));
}

} // namespace

std::optional<NodeId> ClusterState::findNode(std::string_view name) const {
    const std::uint32_t id = m_nodeIds.find(nameHash(name), [&](std::uint32_t i) { return m_nodeNames[i] == name; });
    if (id == IdTable::kNone) return std::nullopt;
    return id;
}

std::uint32_t ClusterState::podIndex(std::size_t hash, std::string_view nameSpace, std::string_view name) const {
    return m_podIds.find(hash,
                         [&](std::uint32_t i) { return m_pods[i].name == name && m_pods[i].nameSpace == nameSpace; });
}

const Pod* ClusterState::findPod(std::string_view nameSpace, std::string_view name) const {
    const std::uint32_t index = podIndex(podHash(nameSpace, name), nameSpace, name);
    return index == IdTable::kNone ? nullptr : &m_pods[index];
}

void ClusterState::reserve(std::size_t nodes, std::size_t pods) {
    m_nodes.reserve(nodes);
    m_nodeNames.reserve(nodes);
    m_nodeIds.reserve(nodes);
    m_pods.reserve(pods);
    m_podIds.reserve(pods);
}

NodeId ClusterState::slotFor(std::string_view name) {
    const std::size_t hash = nameHash(name);
    const std::uint32_t found = m_nodeIds.find(hash, [&](std::uint32_t i) { return m_nodeNames[i] == name; });
    if (found != IdTable::kNone) return found;
    const auto id = static_cast<NodeId>(m_nodes.size());
    m_nodeIds.insert(hash, id);
    m_nodeNames.emplace_back(name);
    auto placeholder = std::make_shared<Node>();
    placeholder->name = std::string(name);
    m_nodes.push_back(NodeRecord{std::move(placeholder), {}, false, {}});
    return id;
}

void ClusterState::upsertPods(std::vector<Pod>&& pods) {
    if (!m_pods.empty()) {
        for (Pod& pod : pods) (void)apply(PodUpserted{std::move(pod)});
        return;
    }
    m_generation += pods.size();
    m_pods = std::move(pods);
    m_podIds.reserve(m_pods.size());
    // A pod listed again replaces the earlier copy in place; the rest close up behind it.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_pods.size(); ++i) {
        AppliedEvent applied; // nobody asks which nodes changed
        const std::size_t hash = podHash(m_pods[i].nameSpace, m_pods[i].name);
        std::uint32_t index = podIndex(hash, m_pods[i].nameSpace, m_pods[i].name);
        if (index == IdTable::kNone) {
            index = static_cast<std::uint32_t>(kept++);
            m_podIds.insert(hash, index);
        } else {
            removePodUsage(m_pods[index], index, applied);
        }
        if (index != i) m_pods[index] = std::move(m_pods[i]);
        addPodUsage(m_pods[index], index, applied);
    }
    m_pods.erase(m_pods.begin() + static_cast<std::ptrdiff_t>(kept), m_pods.end());
}

void ClusterState::touch(AppliedEvent& applied, NodeId id) {
    for (int i = 0; i < applied.nodeCount; ++i)
        if (applied.nodes[i] == id) return;
    applied.nodes[applied.nodeCount++] = id;
}

void ClusterState::addPodUsage(const Pod& pod, std::uint32_t index, AppliedEvent& applied) {
    if (!pod.holdsResources()) return;
    const NodeId id = slotFor(pod.nodeName);
    NodeUsage& usage = m_nodes[id].usage;
    usage.requested.add(pod.requests);
    ++usage.pods;
    if (!pod.gpuShare.empty()) ++usage.gpuSharePods;
    m_nodes[id].pods.push_back(index);
    touch(applied, id);
}

void ClusterState::movePodIndex(const Pod& pod, std::uint32_t from, std::uint32_t to) {
    if (!pod.holdsResources()) return;
    const std::optional<NodeId> id = findNode(pod.nodeName);
    if (!id) return;
    std::vector<std::uint32_t>& pods = m_nodes[*id].pods;
    std::replace(pods.begin(), pods.end(), from, to);
}

void ClusterState::removePodUsage(const Pod& pod, std::uint32_t index, AppliedEvent& applied) {
    if (!pod.holdsResources()) return;
    const NodeId id = slotFor(pod.nodeName);
    std::vector<std::uint32_t>& pods = m_nodes[id].pods;
    if (const auto it = std::find(pods.begin(), pods.end(), index); it != pods.end()) {
        *it = pods.back();
        pods.pop_back();
    }
    NodeUsage& usage = m_nodes[id].usage;
    usage.requested.subtract(pod.requests);
    // Drop entries that returned to zero so that usage is independent of history.
    for (const auto& [name, quantity] : pod.requests)
        if (usage.requested.get(name).isZero()) usage.requested.erase(name);
    --usage.pods;
    if (!pod.gpuShare.empty()) --usage.gpuSharePods;
    touch(applied, id);
}

void ClusterState::touchDevices(AppliedEvent& applied, const DeviceInventory::Touched& touched) {
    if (touched.allNodes || touched.nodes.size() > std::size(applied.nodes)) {
        applied.allNodes = true;
        return;
    }
    for (const NodeId id : touched.nodes) touch(applied, id);
}

template <class E> void ClusterState::applyDeviceEvent(E& e, AppliedEvent& applied) {
    DeviceInventory::Touched touched;
    if constexpr (std::is_same_v<E, ResourceSliceUpserted>) {
        m_devices.upsertSlice(std::move(e.slice), [this](std::string_view name) { return slotFor(name); }, touched);
    } else if constexpr (std::is_same_v<E, ResourceSliceDeleted>) {
        m_devices.deleteSlice(e.name, touched);
    } else if constexpr (std::is_same_v<E, ResourceClaimUpserted>) {
        m_devices.upsertClaim(std::move(e.claim), touched);
    } else if constexpr (std::is_same_v<E, ResourceClaimDeleted>) {
        m_devices.deleteClaim(e.nameSpace, e.name, touched);
    } else if constexpr (std::is_same_v<E, ResourceClaimTemplateUpserted>) {
        m_devices.upsertClaimTemplate(std::move(e.claimTemplate));
    } else if constexpr (std::is_same_v<E, ResourceClaimTemplateDeleted>) {
        m_devices.deleteClaimTemplate(e.nameSpace, e.name);
    } else if constexpr (std::is_same_v<E, DeviceClassUpserted>) {
        m_devices.upsertDeviceClass(std::move(e.deviceClass), touched);
    } else if constexpr (std::is_same_v<E, DeviceClassDeleted>) {
        m_devices.deleteDeviceClass(e.name, touched);
    } else {
        static_assert(sizeof(E) == 0, "every ClusterEvent is applied");
    }
    touchDevices(applied, touched);
}

AppliedEvent ClusterState::setGpuDeviceClasses(GpuDeviceClasses classes) {
    AppliedEvent applied;
    DeviceInventory::Touched touched;
    m_devices.setGpuClasses(std::move(classes), touched);
    touchDevices(applied, touched);
    ++m_generation;
    return applied;
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
                    applied.nodeAdded = true;
                }
                touch(applied, id);
            } else if constexpr (std::is_same_v<E, NodeDeleted>) {
                if (const std::optional<NodeId> id = findNode(e.name); id && m_nodes[*id].present) {
                    m_nodes[*id].present = false;
                    --m_presentNodes;
                    touch(applied, *id);
                }
            } else if constexpr (std::is_same_v<E, PodUpserted>) {
                const std::size_t hash = podHash(e.pod.nameSpace, e.pod.name);
                std::uint32_t index = podIndex(hash, e.pod.nameSpace, e.pod.name);
                if (index == IdTable::kNone) {
                    index = static_cast<std::uint32_t>(m_pods.size());
                    m_podIds.insert(hash, index);
                    m_pods.push_back(std::move(e.pod));
                } else {
                    removePodUsage(m_pods[index], index, applied);
                    m_pods[index] = std::move(e.pod);
                }
                addPodUsage(m_pods[index], index, applied);
            } else if constexpr (std::is_same_v<E, PodDeleted>) {
                const std::size_t hash = podHash(e.nameSpace, e.name);
                const std::uint32_t index = podIndex(hash, e.nameSpace, e.name);
                if (index != IdTable::kNone) {
                    removePodUsage(m_pods[index], index, applied);
                    m_podIds.erase(hash, index);
                    const auto last = static_cast<std::uint32_t>(m_pods.size() - 1);
                    if (index != last) {
                        m_podIds.replace(podHash(m_pods[last].nameSpace, m_pods[last].name), last, index);
                        movePodIndex(m_pods[last], last, index);
                        m_pods[index] = std::move(m_pods[last]);
                    }
                    m_pods.pop_back();
                }
            } else if constexpr (std::is_same_v<E, TopologyUpserted>) {
                m_topologies[e.spec.name] = std::move(e.spec);
                applied.topologiesChanged = true;
            } else if constexpr (std::is_same_v<E, TopologyDeleted>) {
                const auto it = m_topologies.find(e.name);
                if (it != m_topologies.end() && (e.origin.empty() || it->second.origin == e.origin)) {
                    m_topologies.erase(it);
                    applied.topologiesChanged = true;
                }
            } else if constexpr (std::is_same_v<E, HyperNodeUpserted>) {
                std::string name = e.hyperNode.name;
                m_hyperNodes[std::move(name)] = std::move(e.hyperNode);
                applied.hyperNodesChanged = true;
            } else if constexpr (std::is_same_v<E, HyperNodeDeleted>) {
                applied.hyperNodesChanged = m_hyperNodes.erase(e.name) > 0;
            } else if constexpr (std::is_same_v<E, ResourceFlavorUpserted>) {
                std::string name = e.flavor.name;
                m_flavors[std::move(name)] = std::move(e.flavor);
            } else if constexpr (std::is_same_v<E, ResourceFlavorDeleted>) {
                m_flavors.erase(e.name);
            } else if constexpr (std::is_same_v<E, SlurmTopologySet>) {
                m_slurmTopology = std::move(e.topology);
            } else if constexpr (std::is_same_v<E, ComputeDomainUpserted>) {
                // No node's figures change: a ComputeDomain holds no devices of its own (its
                // channels are claims), only says where its workload's IMEX domains are.
                std::string key = e.domain.key();
                m_computeDomains[std::move(key)] = std::move(e.domain);
            } else if constexpr (std::is_same_v<E, ComputeDomainDeleted>) {
                if (const auto it = m_computeDomains.find(e.nameSpace + '/' + e.name); it != m_computeDomains.end())
                    m_computeDomains.erase(it);
            } else {
                applyDeviceEvent(e, applied);
            }
        },
        event);
    ++m_generation;
    return applied;
}

} // namespace topodeck
