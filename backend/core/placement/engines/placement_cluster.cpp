#include "core/placement/engines/placement_cluster.h"

#include "core/text/natural_order.h"

#include <algorithm>
#include <limits>

namespace topodeck {
namespace {

std::shared_ptr<const std::vector<NodeId>> presentNodesInOrder(const ClusterState& state) {
    auto order = std::make_shared<std::vector<NodeId>>();
    order->reserve(state.presentNodeCount());
    for (NodeId id = 0; id < state.nodeSlots(); ++id)
        if (state.record(id).present) order->push_back(id);
    std::sort(order->begin(), order->end(), [&state](NodeId a, NodeId b) {
        return naturalLess(state.record(a).node->name, state.record(b).node->name);
    });
    return order;
}

int findColumn(const std::vector<std::string>& resources, std::string_view resource) {
    const auto it = std::lower_bound(resources.begin(), resources.end(), resource,
                                     [](const std::string& a, std::string_view b) { return a < b; });
    return it != resources.end() && *it == resource ? static_cast<int>(it - resources.begin()) : -1;
}

} // namespace

std::shared_ptr<PlacementCluster::Capacity> PlacementCluster::buildCapacity(const ClusterState& state) {
    auto capacity = std::make_shared<Capacity>();
    const std::size_t nodes = state.nodeSlots();
    std::vector<std::string>& names = capacity->resources;
    for (NodeId id = 0; id < nodes; ++id) {
        const NodeRecord& record = state.record(id);
        for (const auto* list : {&record.node->allocatable, &record.usage.requested})
            for (const auto& [name, amount] : *list)
                if (findColumn(names, name) < 0) names.insert(std::upper_bound(names.begin(), names.end(), name), name);
    }
    capacity->free.assign(names.size(), std::vector<__int128>(nodes, 0));
    capacity->podSlots.assign(nodes, 0);
    capacity->pods.assign(nodes, 0);
    capacity->usable.assign(nodes, 0);
    for (NodeId id = 0; id < nodes; ++id) {
        const NodeRecord& record = state.record(id);
        // Both lists are sorted by name, like the columns: one merge-like pass each.
        std::size_t column = 0;
        for (const auto& [name, amount] : record.node->allocatable) {
            while (names[column] != name) ++column;
            capacity->free[column][id] += amount.nanos();
        }
        column = 0;
        for (const auto& [name, amount] : record.usage.requested) {
            while (names[column] != name) ++column;
            capacity->free[column][id] -= amount.nanos();
        }
        capacity->podSlots[id] = record.node->allocatable.get("pods").value() - record.usage.pods;
        capacity->pods[id] = record.usage.pods;
        capacity->usable[id] = record.present && record.node->schedulable() ? 1 : 0;
    }
    return capacity;
}

PlacementCluster::PlacementCluster(const ClusterState& state, const TopologyIndex& index)
    : m_state(&state), m_index(&index), m_order(presentNodesInOrder(state)), m_capacity(buildCapacity(state)) {}

int PlacementCluster::column(std::string_view resource) const {
    return findColumn(m_capacity->resources, resource);
}

PlacementCluster::Capacity& PlacementCluster::mutableCapacity() {
    // Copy on write: the first what-if change in a copy takes its own table.
    if (m_capacity.use_count() > 1) m_capacity = std::make_shared<Capacity>(*m_capacity);
    return const_cast<Capacity&>(*m_capacity);
}

bool PlacementCluster::idle(NodeId id) const {
    return m_capacity->pods[id] == 0;
}

PlacementCluster::FreeColumn PlacementCluster::freeColumn(std::string_view resource) const {
    const int c = column(resource);
    const bool standsAlone =
        std::find(m_standAloneColumns.begin(), m_standAloneColumns.end(), resource) != m_standAloneColumns.end();
    return FreeColumn(c < 0 ? nullptr : &m_capacity->free[static_cast<std::size_t>(c)], standsAlone);
}

Quantity PlacementCluster::free(NodeId id, std::string_view resource) const {
    return Quantity::fromNanos(freeColumn(resource).nanos(id));
}

std::int64_t PlacementCluster::podsThatFit(NodeId id, const ResourceList& perPod, bool countPodSlots) const {
    // A request of nothing at all fits without limit; callers cap it by the gang size.
    std::int64_t fit = std::numeric_limits<std::int64_t>::max();
    if (countPodSlots) fit = freePodSlots(id);
    for (const auto& [resource, amount] : perPod) {
        if (fit == 0) return 0;
        if (amount.nanos() <= 0) continue;
        const int c = column(resource);
        const __int128 available = c < 0 ? 0 : m_capacity->free[static_cast<std::size_t>(c)][id];
        if (available <= 0) return 0;
        fit = static_cast<std::int64_t>(std::min<__int128>(available / amount.nanos(), fit));
    }
    return fit;
}

std::string_view PlacementCluster::limitingResource(NodeId id, const ResourceList& perPod, bool countPodSlots) const {
    for (const auto& [resource, amount] : perPod)
        if (amount.nanos() > 0 && free(id, resource) < amount) return resource;
    if (countPodSlots && m_capacity->podSlots[id] <= 0) return "pods";
    return {};
}

void PlacementCluster::takeDevices(const std::vector<DeviceSlot>& devices) {
    if (devices.empty()) return;
    auto taken = m_takenDevices ? std::make_shared<TakenDevices>(*m_takenDevices) : std::make_shared<TakenDevices>();
    for (const DeviceSlot& device : devices) taken->take(device);
    m_takenDevices = std::move(taken);
}

void PlacementCluster::setFreeColumn(const std::string& resource, std::vector<__int128> nanos) {
    nanos.resize(m_state->nodeSlots(), 0);
    if (std::find(m_standAloneColumns.begin(), m_standAloneColumns.end(), resource) == m_standAloneColumns.end())
        m_standAloneColumns.push_back(resource);
    Capacity& capacity = mutableCapacity();
    const int c = column(resource);
    if (c >= 0) {
        capacity.free[static_cast<std::size_t>(c)] = std::move(nanos);
        return;
    }
    const auto at = std::upper_bound(capacity.resources.begin(), capacity.resources.end(), resource);
    capacity.free.insert(capacity.free.begin() + (at - capacity.resources.begin()), std::move(nanos));
    capacity.resources.insert(at, resource);
}

void PlacementCluster::drain(NodeId id) {
    if (m_drained.size() <= id) m_drained.resize(m_state->nodeSlots());
    m_drained[id] = true;
    mutableCapacity().usable[id] = 0;
}

void PlacementCluster::assume(NodeId id, const ResourceList& perPod, std::int32_t pods) {
    markFreeChanged(id);
    Capacity& capacity = mutableCapacity();
    for (const auto& [resource, amount] : perPod) {
        int c = column(resource);
        if (c < 0) {
            const auto at = std::upper_bound(capacity.resources.begin(), capacity.resources.end(), resource);
            c = static_cast<int>(at - capacity.resources.begin());
            capacity.resources.insert(at, resource);
            capacity.free.insert(capacity.free.begin() + c, std::vector<__int128>(m_state->nodeSlots(), 0));
        }
        capacity.free[static_cast<std::size_t>(c)][id] -= amount.nanos() * pods;
    }
    capacity.podSlots[id] -= pods;
    capacity.pods[id] += static_cast<std::uint32_t>(pods);
}

void PlacementCluster::release(NodeId id, const ResourceList& perPod, std::int32_t pods) {
    markFreeChanged(id);
    Capacity& capacity = mutableCapacity();
    for (const auto& [resource, amount] : perPod) {
        const int c = column(resource);
        if (c >= 0) capacity.free[static_cast<std::size_t>(c)][id] += amount.nanos() * pods;
    }
    capacity.podSlots[id] += pods;
    capacity.pods[id] -= std::min(capacity.pods[id], static_cast<std::uint32_t>(pods));
}

void PlacementCluster::markFreeChanged(NodeId id) {
    if (m_changedNodes.size() <= id) m_changedNodes.resize(m_state->nodeSlots());
    m_changedNodes[id] = true;
}

void PlacementCluster::setNodeWeight(NodeId id, std::uint32_t weight) {
    if (m_weights.size() <= id) m_weights.resize(m_state->nodeSlots(), 1);
    m_weights[id] = weight;
}

} // namespace topodeck
