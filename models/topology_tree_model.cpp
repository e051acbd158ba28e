#include "models/topology_tree_model.h"

#include "models/cluster_terms.h"

#include <QColor>
#include <QLocale>

#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace topodeck {

namespace {

// internalId: a domain id, or a node id with the top bit set.
constexpr quintptr kNodeBit = quintptr(1) << (sizeof(quintptr) * 8 - 1);
constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

bool isNodeId(quintptr id) {
    return (id & kNodeBit) != 0;
}
NodeId nodeIdOf(quintptr id) {
    return static_cast<NodeId>(id & ~kNodeBit);
}

QVariant int64(std::int64_t value) {
    return QVariant::fromValue<qint64>(value);
}

// Counts as people read them ("16,123"); item views would drop the group separator from numbers.
QString count(std::int64_t value) {
    return QLocale().toString(static_cast<qint64>(value));
}

QString ratio(std::int64_t part, std::int64_t whole) {
    return count(part) + QLatin1Char('/') + count(whole);
}

double occupancy(std::int64_t used, std::int64_t total) {
    return total > 0 ? static_cast<double>(used) / static_cast<double>(total) : 0.0;
}

// The GPU count roles, the same for domains and nodes.
QVariant gpuRole(const DomainTotals& t, int role) {
    switch (role) {
    case TopologyTreeModel::GpusTotalRole:
        return int64(t.gpusTotal);
    case TopologyTreeModel::GpusUsedRole:
        return int64(t.gpusUsed);
    case TopologyTreeModel::GpusFreeRole:
        return int64(t.gpusFree);
    case TopologyTreeModel::GpusUnavailableRole:
        return int64(t.gpusUnavailable);
    default:
        return {};
    }
}

QVariant numberAlignment() {
    return QVariant::fromValue(int(Qt::AlignRight | Qt::AlignVCenter));
}

} // namespace

TopologyTreeModel::TopologyTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

TopologyTreeModel::~TopologyTreeModel() = default;

void TopologyTreeModel::setSnapshot(ClusterSnapshotPtr snapshot) {
    if (snapshot == m_snapshot) return;
    if (!m_snapshot || !snapshot || !(m_snapshot->index.spec() == snapshot->index.spec())) {
        beginResetModel();
        m_snapshot = std::move(snapshot);
        rebuildRows();
        endResetModel();
        return;
    }
    if (sameStructure(*m_snapshot, *snapshot)) {
        const ClusterSnapshotPtr before = std::exchange(m_snapshot, std::move(snapshot));
        // Slots of nodes known only from pods may have appeared; they have no row.
        m_nodeRow.resize(m_snapshot->index.nodeSlots(), -1);
        emitChangedRows(*before);
        return;
    }
    remapLayout(std::move(snapshot));
}

void TopologyTreeModel::rebuildRows() {
    m_domainRow.clear();
    m_nodeRow.clear();
    if (!m_snapshot) return;
    const TopologyIndex& index = m_snapshot->index;
    m_domainRow.assign(index.domainSlots(), -1);
    m_nodeRow.assign(index.nodeSlots(), -1);
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive) continue;
        int row = 0;
        for (DomainId child : domain.children) m_domainRow[child] = row++;
        for (NodeId node : domain.nodes) m_nodeRow[node] = row++;
    }
}

bool TopologyTreeModel::sameStructure(const ClusterSnapshot& a, const ClusterSnapshot& b) {
    // structureVersion alone is not enough: a node can move between existing domains, and another
    // source can reach the same version with a different tree.
    const TopologyIndex& ia = a.index;
    const TopologyIndex& ib = b.index;
    if (ia.domainSlots() != ib.domainSlots()) return false;
    for (DomainId id = 0; id < ia.domainSlots(); ++id) {
        const Domain& da = ia.domain(id);
        const Domain& db = ib.domain(id);
        if (da.alive != db.alive) return false;
        if (!da.alive) continue;
        if (da.level != db.level || da.unlabelled != db.unlabelled || da.value != db.value) return false;
        if (da.children != db.children || da.nodes != db.nodes) return false;
        for (NodeId node : da.nodes) {
            const Node* na = a.node(node);
            const Node* nb = b.node(node);
            if (na != nb && (!na || !nb || na->name != nb->name)) return false;
        }
    }
    return true;
}

void TopologyTreeModel::emitChangedRows(const ClusterSnapshot& before) {
    const TopologyIndex& now = m_snapshot->index;
    const TopologyIndex& old = before.index;
    for (DomainId id = 0; id < now.domainSlots(); ++id) {
        const Domain& domain = now.domain(id);
        if (!domain.alive) continue;
        int first = -1;
        int last = -1;
        int row = 0;
        auto mark = [&](bool changed) {
            if (changed) {
                if (first < 0) first = row;
                last = row;
            }
            ++row;
        };
        for (DomainId child : domain.children) mark(!(old.domain(child).totals == now.domain(child).totals));
        for (NodeId node : domain.nodes)
            mark(!(old.node(node) == now.node(node)) || before.node(node) != m_snapshot->node(node));
        if (first < 0) continue;
        const QModelIndex parent = id == kRootDomain ? QModelIndex() : createIndex(m_domainRow[id], 0, quintptr(id));
        Q_EMIT dataChanged(index(first, 0, parent), index(last, ColumnCount - 1, parent));
    }
}

void TopologyTreeModel::remapLayout(ClusterSnapshotPtr snapshot) {
    Q_EMIT layoutAboutToBeChanged();
    const QModelIndexList from = persistentIndexList();
    const ClusterSnapshotPtr before = std::exchange(m_snapshot, std::move(snapshot));
    rebuildRows();

    const TopologyIndex& old = before->index;
    const TopologyIndex& now = m_snapshot->index;
    // Domains are matched by their path of values, nodes by name.
    std::unordered_map<DomainId, DomainId> domainMap;
    auto mapDomain = [&](DomainId oldId) {
        if (auto it = domainMap.find(oldId); it != domainMap.end()) return it->second;
        DomainId mapped = kRootDomain;
        for (DomainId step : old.pathTo(oldId)) {
            if (step == kRootDomain) continue;
            const Domain& d = old.domain(step);
            mapped = now.findChild(mapped, d.value, d.unlabelled);
            if (mapped == kNoDomain) break;
        }
        domainMap.emplace(oldId, mapped);
        return mapped;
    };
    std::unordered_map<std::string_view, NodeId> nodesByName; // built only if ids do not match
    auto mapNode = [&](NodeId oldId) -> NodeId {
        const Node* node = before->node(oldId);
        if (!node) return kNoNode;
        if (const Node* same = m_snapshot->node(oldId); same && same->name == node->name) return oldId;
        if (nodesByName.empty()) {
            for (NodeId id = 0; id < m_snapshot->nodes.size(); ++id)
                if (const Node* n = m_snapshot->node(id)) nodesByName.emplace(n->name, id);
        }
        auto it = nodesByName.find(node->name);
        return it == nodesByName.end() ? kNoNode : it->second;
    };

    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& index : from) {
        const quintptr id = index.internalId();
        QModelIndex mapped;
        if (isNodeId(id)) {
            const NodeId node = mapNode(nodeIdOf(id));
            if (node != kNoNode && node < m_nodeRow.size() && m_nodeRow[node] >= 0)
                mapped = createIndex(m_nodeRow[node], index.column(), kNodeBit | node);
        } else {
            const DomainId domain = mapDomain(static_cast<DomainId>(id));
            if (domain != kNoDomain && domain != kRootDomain && m_domainRow[domain] >= 0)
                mapped = createIndex(m_domainRow[domain], index.column(), quintptr(domain));
        }
        to.append(mapped);
    }
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged();
}

QModelIndex TopologyTreeModel::indexForDomain(DomainId id) const {
    if (id == kRootDomain || id >= m_domainRow.size() || m_domainRow[id] < 0) return {};
    return createIndex(m_domainRow[id], 0, quintptr(id));
}

QModelIndex TopologyTreeModel::indexForNode(NodeId id) const {
    if (id >= m_nodeRow.size() || m_nodeRow[id] < 0) return {};
    return createIndex(m_nodeRow[id], 0, kNodeBit | id);
}

std::optional<QModelIndex> TopologyTreeModel::indexForPath(const QString& path) const {
    if (!m_snapshot) return std::nullopt;
    const TopologyIndex& index = m_snapshot->index;
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    DomainId current = kRootDomain;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const std::string part = parts[i].toStdString();
        if (const DomainId child = index.findChild(current, part); child != kNoDomain) {
            current = child;
            continue;
        }
        // The last part may name a node of the lowest domain reached.
        if (i + 1 != parts.size()) return std::nullopt;
        for (NodeId node : index.domain(current).nodes)
            if (const Node* n = m_snapshot->node(node); n && n->name == part) return indexForNode(node);
        return std::nullopt;
    }
    return current == kRootDomain ? QModelIndex() : indexForDomain(current);
}

DomainId TopologyTreeModel::domainOf(const QModelIndex& index) const {
    if (!index.isValid()) return kRootDomain;
    const quintptr id = index.internalId();
    return isNodeId(id) || !knownId(id) ? kNoDomain : static_cast<DomainId>(id);
}

QModelIndex TopologyTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!m_snapshot || row < 0 || column < 0 || column >= ColumnCount) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const DomainId parentId = domainOf(parent);
    if (parentId == kNoDomain) return {};
    const Domain& domain = m_snapshot->index.domain(parentId);
    const auto r = static_cast<std::size_t>(row);
    if (r < domain.children.size()) return createIndex(row, column, quintptr(domain.children[r]));
    if (r - domain.children.size() < domain.nodes.size())
        return createIndex(row, column, kNodeBit | domain.nodes[r - domain.children.size()]);
    return {};
}

bool TopologyTreeModel::knownId(quintptr id) const {
    // Guards against indexes kept past a reset to a smaller tree.
    if (!m_snapshot) return false;
    return isNodeId(id) ? nodeIdOf(id) < m_snapshot->index.nodeSlots() : id < m_snapshot->index.domainSlots();
}

QModelIndex TopologyTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || !knownId(child.internalId())) return {};
    const quintptr id = child.internalId();
    const TopologyIndex& index = m_snapshot->index;
    const DomainId parentId =
        isNodeId(id) ? index.node(nodeIdOf(id)).leaf : index.domain(static_cast<DomainId>(id)).parent;
    if (parentId == kRootDomain || parentId == kNoDomain) return {};
    return createIndex(m_domainRow[parentId], 0, quintptr(parentId));
}

int TopologyTreeModel::rowCount(const QModelIndex& parent) const {
    if (!m_snapshot || (parent.isValid() && parent.column() != 0)) return 0;
    const DomainId id = domainOf(parent);
    if (id == kNoDomain) return 0;
    const Domain& domain = m_snapshot->index.domain(id);
    return static_cast<int>(domain.children.size() + domain.nodes.size());
}

int TopologyTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

Qt::ItemFlags TopologyTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (isNodeId(index.internalId())) flags |= Qt::ItemNeverHasChildren;
    return flags;
}

QVariant TopologyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::TextAlignmentRole && section != NameColumn) return numberAlignment();
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Domain");
    case OccupancyColumn:
        return tr("GPU occupancy");
    case FreeColumn:
        return tr("Free GPUs");
    case NodesColumn:
        return tr("Nodes");
    case NotReadyColumn:
        return tr("Not ready");
    default:
        return {};
    }
}

QVariant TopologyTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this || !knownId(index.internalId())) return {};
    const quintptr id = index.internalId();
    return isNodeId(id) ? nodeData(nodeIdOf(id), index.column(), role)
                        : domainData(static_cast<DomainId>(id), index.column(), role);
}

QString TopologyTreeModel::domainName(DomainId id) const {
    const TopologyIndex& index = m_snapshot->index;
    const Domain& domain = index.domain(id);
    if (!domain.unlabelled) return QString::fromStdString(domain.value);
    return tr("(no %1)").arg(QString::fromStdString(index.spec().levels[static_cast<std::size_t>(domain.level)].name));
}

QVariant TopologyTreeModel::domainData(DomainId id, int column, int role) const {
    const TopologyIndex& index = m_snapshot->index;
    const Domain& domain = index.domain(id);
    const DomainTotals& t = domain.totals;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return domainName(id);
        case OccupancyColumn:
            return ratio(t.gpusUsed, t.gpusTotal);
        case FreeColumn:
            return count(t.gpusFree);
        case NodesColumn:
            return ratio(t.nodesReady, t.nodesTotal);
        case NotReadyColumn:
            return count(t.nodesTotal - t.nodesReady);
        default:
            return {};
        }
    case Qt::UserRole:
        if (column == OccupancyColumn) return occupancy(t.gpusUsed, t.gpusTotal);
        return {};
    case Qt::TextAlignmentRole:
        if (column != NameColumn) return numberAlignment();
        return {};
    case Qt::ToolTipRole: {
        const QString level = QString::fromStdString(index.spec().levels[static_cast<std::size_t>(domain.level)].name);
        return QString(level + QLatin1Char(' ') + domainName(id) + QLatin1Char('\n') +
                       tr("GPUs: %1 of %2 used, %3 free, %4 unavailable")
                           .arg(t.gpusUsed)
                           .arg(t.gpusTotal)
                           .arg(t.gpusFree)
                           .arg(t.gpusUnavailable) +
                       QLatin1Char('\n') +
                       tr("Nodes: %1 of %2 ready, %3 cordoned or not ready")
                           .arg(t.nodesReady)
                           .arg(t.nodesTotal)
                           .arg(t.nodesTotal - t.nodesSchedulable) +
                       QLatin1Char('\n') + tr("Most free GPUs on one node: %1").arg(domain.maxFreeGpusOnNode()));
    }
    case DomainIdRole:
        return QVariant::fromValue<quint32>(id);
    case IsNodeRole:
        return false;
    case GpusTotalRole:
    case GpusUsedRole:
    case GpusFreeRole:
    case GpusUnavailableRole:
        return gpuRole(t, role);
    case LevelNameRole:
        return QString::fromStdString(index.spec().levels[static_cast<std::size_t>(domain.level)].name);
    case PathRole:
        return QString::fromStdString(index.pathName(id));
    default:
        return {};
    }
}

QVariant TopologyTreeModel::nodeData(NodeId id, int column, int role) const {
    const TopologyIndex& index = m_snapshot->index;
    const NodeStats& stats = index.node(id);
    const Node* node = m_snapshot->node(id);
    const QString name = node ? QString::fromStdString(node->name) : QString();
    QString state = stats.ready ? tr("Ready") : tr("Not ready");
    if (node && node->unschedulable) state = stats.ready ? tr("Cordoned") : tr("Not ready, cordoned");
    if (const QString slurm = slurmNodeState(node); !slurm.isEmpty()) state = slurm;
    const DomainTotals t = stats.totals();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return name;
        case OccupancyColumn:
            return ratio(t.gpusUsed, t.gpusTotal);
        case FreeColumn:
            return count(t.gpusFree);
        case NodesColumn:
            return state;
        default:
            return {};
        }
    case Qt::UserRole:
        if (column == OccupancyColumn) return occupancy(t.gpusUsed, t.gpusTotal);
        return {};
    case Qt::TextAlignmentRole:
        if (column != NameColumn) return numberAlignment();
        return {};
    case Qt::ForegroundRole:
        if (!stats.schedulable) return QColor(Qt::gray);
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("Node %1 (%2)").arg(name, state) + QLatin1Char('\n') +
                      tr("GPUs: %1 of %2 used, %3 free").arg(t.gpusUsed).arg(t.gpusTotal).arg(t.gpusFree) +
                      QLatin1Char('\n') + podsTerm(index.spec()) + QStringLiteral(": ") + QString::number(t.pods);
        if (stats.nvlinkDomain != kNoNvlinkDomain)
            tip += QLatin1Char('\n') +
                   tr("NVLink domain: %1").arg(QString::fromStdString(index.nvlinkName(stats.nvlinkDomain)));
        return tip;
    }
    case NodeIdRole:
        return QVariant::fromValue<quint32>(id);
    case IsNodeRole:
        return true;
    case GpusTotalRole:
    case GpusUsedRole:
    case GpusFreeRole:
    case GpusUnavailableRole:
        return gpuRole(t, role);
    case LevelNameRole:
        return tr("node");
    case PathRole: {
        const std::string leafPath = stats.leaf == kNoDomain ? std::string() : index.pathName(stats.leaf);
        return leafPath.empty() ? name : QString(QString::fromStdString(leafPath) + QLatin1Char('/') + name);
    }
    default:
        return {};
    }
}

} // namespace topodeck
