#include "models/domain_children_model.h"

#include "models/cluster_terms.h"
#include "models/domain_names.h"
#include "models/topology_tree_model.h"

namespace topodeck {

DomainChildrenModel::DomainChildrenModel(QObject* parent) : SnapshotTableModel(parent) {}

void DomainChildrenModel::setDomain(const ClusterSnapshotPtr& snapshot, DomainId domainId) {
    const bool listedNodes = m_listsNodes;
    std::vector<Row> rows;
    m_total = 0;
    if (snapshot && domainId < snapshot->index.domainSlots()) {
        const TopologyIndex& index = snapshot->index;
        const Domain& domain = index.domain(domainId);
        m_listsNodes = domain.children.empty();
        if (m_listsNodes) {
            m_total = int(domain.nodes.size());
            rows = nodeRows(*snapshot, domain);
        } else {
            for (DomainId child : domain.children) m_total += index.domain(child).alive ? 1 : 0;
            rows = domainRows(index, domain);
        }
    }
    replaceRows(m_rows, std::move(rows));
    if (m_listsNodes != listedNodes) Q_EMIT headerDataChanged(Qt::Horizontal, StateColumn, StateColumn);
}

std::vector<DomainChildrenModel::Row> DomainChildrenModel::nodeRows(const ClusterSnapshot& snapshot,
                                                                    const Domain& domain) const {
    std::vector<Row> rows;
    for (NodeId id : domain.nodes) {
        if (int(rows.size()) == kMaxRows) break;
        const NodeStats& s = snapshot.index.node(id);
        const Node* node = snapshot.node(id);
        const qint64 rest = s.gpusTotal - s.gpusUsed;
        QString state;
        if (!s.ready)
            state = tr("NotReady");
        else if (!s.schedulable)
            state = tr("Cordoned");
        // A Slurm node says why in its own words (drained, down), where there is something to say.
        if (const QString slurm = slurmNodeState(node); !slurm.isEmpty() && !state.isEmpty()) state = slurm;
        rows.push_back({node ? QString::fromStdString(node->name) : QString(), true, id, s.gpusTotal, s.gpusUsed,
                        s.schedulable ? rest : 0, s.schedulable ? 0 : rest, state});
    }
    return rows;
}

std::vector<DomainChildrenModel::Row> DomainChildrenModel::domainRows(const TopologyIndex& index,
                                                                      const Domain& domain) const {
    std::vector<Row> rows;
    for (DomainId id : domain.children) {
        if (int(rows.size()) == kMaxRows) break;
        const Domain& child = index.domain(id);
        if (!child.alive) continue;
        const DomainTotals& t = child.totals;
        rows.push_back({domainNameOf(index, child), false, id, t.gpusTotal, t.gpusUsed, t.gpusFree, t.gpusUnavailable,
                        t.nodesTotal > t.nodesReady ? number(t.nodesTotal - t.nodesReady) : QString()});
    }
    return rows;
}

int DomainChildrenModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DomainChildrenModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DomainChildrenModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return row.name;
        case FreeColumn:
            return number(row.gpusFree);
        case StateColumn:
            return row.state;
        default:
            return {}; // the occupancy column is drawn by the delegate
        }
    case Qt::TextAlignmentRole:
        return index.column() >= FreeColumn ? alignedRight() : alignedLeft();
    case Qt::ToolTipRole:
        if (index.column() != OccupancyColumn) return {};
        return tr("%1 of %2 GPUs used").arg(number(row.gpusUsed), number(row.gpusTotal));
    default:
        return roleData(row, role);
    }
}

// TopologyTreeModel's roles, the same on every column of a row.
QVariant DomainChildrenModel::roleData(const Row& row, int role) const {
    switch (role) {
    case TopologyTreeModel::IsNodeRole:
        return row.isNode;
    case TopologyTreeModel::NodeIdRole:
        return row.isNode ? QVariant(row.id) : QVariant();
    case TopologyTreeModel::DomainIdRole:
        return row.isNode ? QVariant() : QVariant(row.id);
    case TopologyTreeModel::GpusTotalRole:
        return row.gpusTotal;
    case TopologyTreeModel::GpusUsedRole:
        return row.gpusUsed;
    case TopologyTreeModel::GpusFreeRole:
        return row.gpusFree;
    case TopologyTreeModel::GpusUnavailableRole:
        return row.gpusUnavailable;
    default:
        return {};
    }
}

QVariant DomainChildrenModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case OccupancyColumn:
        return tr("Used");
    case FreeColumn:
        return tr("Free");
    case StateColumn:
        return m_listsNodes ? tr("Status") : tr("Not ready");
    default:
        return {};
    }
}

} // namespace topodeck
