#include "models/node_pods_model.h"

#include "core/slurm/slurm_cluster.h"

namespace topodeck {

namespace {

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

NodePodsModel::NodePodsModel(QObject* parent) : SnapshotTableModel(parent) {}

void NodePodsModel::setPods(const ClusterSnapshotPtr& snapshot, const NodePodsPtr& pods) {
    const bool wasSlurm = m_slurm;
    m_slurm = snapshot && snapshot->index.spec().origin == kSlurmOrigin;
    std::vector<Row> rows;
    if (snapshot && pods) {
        const GpuResources& gpus = snapshot->index.gpuResources();
        for (std::size_t i = 0; i < pods->pods.size(); ++i) {
            const Pod& pod = pods->pods[i];
            // Device-plugin GPUs from its requests, DRA GPUs from its claims.
            const std::int64_t claimed = i < pods->claimedGpus.size() ? pods->claimedGpus[i] : 0;
            const QString workload = QString::fromStdString(pod.workload);
            const std::string_view kind = workloadKindName(pod.workloadKind);
            rows.push_back({QString::fromStdString(m_slurm ? pod.name : pod.key()), workload,
                            kind.empty() ? workload : tr("%1 %2").arg(fromView(kind), workload), pod.phase,
                            gpus.count(pod.requests) + claimed});
        }
    }
    replaceRows(m_rows, std::move(rows));
    if (m_slurm != wasSlurm) Q_EMIT headerDataChanged(Qt::Horizontal, NameColumn, WorkloadColumn);
}

int NodePodsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodePodsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodePodsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return row.name;
        case WorkloadColumn:
            return row.workload;
        case PhaseColumn:
            return phaseName(row.phase);
        case GpusColumn:
            return row.gpus > 0 ? number(row.gpus) : QString();
        default:
            return {};
        }
    case Qt::ToolTipRole:
        // Names are elided in the middle in a narrow pane: whole in the tooltip.
        if (index.column() == NameColumn) return row.name;
        if (index.column() == WorkloadColumn) return row.workloadTip;
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == GpusColumn ? alignedRight() : alignedLeft();
    default:
        return {};
    }
}

QVariant NodePodsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return m_slurm ? tr("Job") : tr("Pod");
    case WorkloadColumn:
        return m_slurm ? tr("Name") : tr("Workload");
    case PhaseColumn:
        return tr("Phase");
    case GpusColumn:
        return tr("GPUs");
    default:
        return {};
    }
}

QString NodePodsModel::phaseName(PodPhase phase) const {
    switch (phase) {
    case PodPhase::Pending:
        return tr("Pending");
    case PodPhase::Running:
        return tr("Running");
    case PodPhase::Succeeded:
        return tr("Succeeded");
    case PodPhase::Failed:
        return tr("Failed");
    case PodPhase::Unknown:
        return tr("Unknown");
    }
    return {};
}

} // namespace topodeck
