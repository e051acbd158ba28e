#pragma once

#include "core/topology/label_selector.h"
#include "models/topology_tree_model.h"

#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

namespace topodeck {

// The topology tree narrowed to the nodes a mask keeps (a label selector's matches, by NodeId) and
// the domains above them. Rows keep the figures of the whole domain: the filter says where to
// look, not what a domain holds. Without a mask every row shows.
class TopologyFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TopologyFilterModel(TopologyTreeModel* source, QObject* parent = nullptr);

    // Null: no filter. A mask equal to the one shown changes nothing, so a new snapshot's mask
    // costs a compare unless a node's labels changed.
    void setNodeMask(std::shared_ptr<const NodeMask> mask);
    const std::shared_ptr<const NodeMask>& nodeMask() const { return m_mask; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool domainShown(DomainId id) const;

    TopologyTreeModel* m_source;
    std::shared_ptr<const NodeMask> m_mask;
    // Matches below each domain, for the snapshot they were counted on (ids are per snapshot).
    mutable std::vector<std::uint32_t> m_matchesPerDomain;
    mutable std::weak_ptr<const ClusterSnapshot> m_countedFor;
};

} // namespace topodeck
