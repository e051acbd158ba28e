#include "models/topology_filter_model.h"

namespace topodeck {

TopologyFilterModel::TopologyFilterModel(TopologyTreeModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), m_source(source) {
    setSourceModel(source);
    // The mask already says which domains hold matches: no need for Qt to search below each row.
    setRecursiveFilteringEnabled(false);
}

void TopologyFilterModel::setNodeMask(std::shared_ptr<const NodeMask> mask) {
    const bool same = mask == m_mask || (mask && m_mask && *mask == *m_mask);
    m_mask = std::move(mask);
    if (same) return;
    m_countedFor.reset();
    invalidateFilter();
}

bool TopologyFilterModel::domainShown(DomainId id) const {
    const ClusterSnapshotPtr& snapshot = m_source->snapshot();
    if (!snapshot) return true;
    // A source change (a new snapshot) reaches the filter before the window hands over its mask;
    // counting again per snapshot keeps the domains consistent with the ids the rows carry.
    if (m_countedFor.lock() != snapshot) {
        m_matchesPerDomain = matchesPerDomain(snapshot->index, *m_mask);
        m_countedFor = snapshot;
    }
    return id < m_matchesPerDomain.size() && m_matchesPerDomain[id] > 0;
}

bool TopologyFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (!m_mask) return true;
    const QModelIndex row = m_source->index(sourceRow, 0, sourceParent);
    if (row.data(TopologyTreeModel::IsNodeRole).toBool()) {
        const auto id = row.data(TopologyTreeModel::NodeIdRole).value<NodeId>();
        return id < m_mask->size() && (*m_mask)[id] != 0;
    }
    return domainShown(row.data(TopologyTreeModel::DomainIdRole).value<DomainId>());
}

} // namespace topodeck
