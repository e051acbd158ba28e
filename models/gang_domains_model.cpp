#include "models/gang_domains_model.h"

#include "core/text/natural_order.h"
#include "models/domain_names.h"
#include "models/topology_tree_model.h"

#include <algorithm>
#include <map>

namespace topodeck {

namespace {

struct Share {
    qint64 pods = 0;
    qint64 gpus = 0;
};

} // namespace

GangDomainsModel::GangDomainsModel(QObject* parent) : SnapshotTableModel(parent) {}

void GangDomainsModel::setGang(const ClusterSnapshotPtr& snapshot, const Gang* gang) {
    m_nodesGone = 0;
    std::vector<Row> rows = snapshot && gang ? rowsOf(snapshot->index, *gang) : std::vector<Row>();
    m_total = int(rows.size());
    if (m_total > kMaxRows) rows.resize(std::size_t(kMaxRows));
    replaceRows(m_rows, std::move(rows));
}

// Its pods per domain at each level of the hierarchy shown, then per NVLink domain, sorted.
std::vector<GangDomainsModel::Row> GangDomainsModel::rowsOf(const TopologyIndex& index, const Gang& gang) {
    std::map<DomainId, Share> domains;
    std::map<std::int32_t, Share> nvlink;
    for (std::size_t i = 0; i < gang.nodes.size(); ++i) {
        const NodeId id = gang.nodes[i];
        const qint64 pods = i < gang.nodePods.size() ? gang.nodePods[i] : 0;
        const qint64 gpus = i < gang.nodeGpus.size() ? gang.nodeGpus[i] : 0;
        if (id >= index.nodeSlots() || index.node(id).leaf == kNoDomain) {
            ++m_nodesGone;
            continue;
        }
        for (DomainId d : index.pathTo(index.node(id).leaf)) {
            if (d == kRootDomain) continue;
            domains[d].pods += pods;
            domains[d].gpus += gpus;
        }
        if (const std::int32_t nv = index.node(id).nvlinkDomain; nv != kNoNvlinkDomain) {
            nvlink[nv].pods += pods;
            nvlink[nv].gpus += gpus;
        }
    }
    std::vector<Row> rows;
    for (const auto& [id, share] : domains) {
        const Domain& domain = index.domain(id);
        // A path tells the rack-1 of one block from the rack-1 of another.
        rows.push_back({domain.level, levelNameOf(index, domain),
                        domain.unlabelled ? domainNameOf(index, domain) : QString::fromStdString(index.pathName(id)),
                        id, share.pods, share.gpus});
    }
    for (const auto& [nv, share] : nvlink)
        rows.push_back({index.spec().depth(), tr("NVLink"), QString::fromStdString(index.nvlinkName(nv)), kNoDomain,
                        share.pods, share.gpus});
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.level != b.level) return a.level < b.level;
        return naturalLess(a.name.toStdString(), b.name.toStdString());
    });
    return rows;
}

int GangDomainsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GangDomainsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GangDomainsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LevelColumn:
            return row.levelName;
        case DomainColumn:
            return row.name;
        case PodsColumn:
            return number(row.pods);
        case GpusColumn:
            return number(row.gpus);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return index.column() == DomainColumn ? QVariant(row.name) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= PodsColumn ? alignedRight() : alignedLeft();
    case TopologyTreeModel::DomainIdRole:
        return row.id == kNoDomain ? QVariant() : QVariant::fromValue(row.id);
    default:
        return {};
    }
}

QVariant GangDomainsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case LevelColumn:
        return tr("Level");
    case DomainColumn:
        return tr("Domain");
    case PodsColumn:
        return tr("Pods");
    case GpusColumn:
        return tr("GPUs");
    default:
        return {};
    }
}

} // namespace topodeck
