#include "models/occupancy_history_model.h"

#include <QDateTime>
#include <QLocale>

namespace topodeck {

OccupancyHistoryModel::OccupancyHistoryModel(QObject* parent, OccupancyHistoryOptions options)
    : QAbstractTableModel(parent), m_history(options) {}

OccupancyHistoryModel::~OccupancyHistoryModel() = default;

void OccupancyHistoryModel::addSnapshot(const ClusterSnapshotPtr& snapshot, qint64 nowMs) {
    if (!snapshot) return;
    if (m_snapshot && m_snapshot->sourceEpoch != snapshot->sourceEpoch) {
        // Another cluster: its history has nothing to do with this one's.
        beginResetModel();
        m_history.clear();
        m_rows = 0;
        m_selectedPath.clear();
        m_snapshot = snapshot;
        endResetModel();
    }
    m_snapshot = snapshot;
    if (!m_history.wouldAdd(nowMs)) {
        (void)m_history.record(snapshot->index, nowMs);
    } else {
        if (m_history.size() == m_history.options().capacity) {
            // The new point pushes out the oldest: rows read the old points until it is announced.
            beginRemoveRows(QModelIndex(), 0, 0);
            m_offset = 1;
            --m_rows;
            endRemoveRows();
        }
        beginInsertRows(QModelIndex(), m_rows, m_rows);
        (void)m_history.record(snapshot->index, nowMs);
        m_offset = 0;
        ++m_rows;
        endInsertRows();
    }
    if (m_rows > 0) Q_EMIT dataChanged(index(m_rows - 1, 0), index(m_rows - 1, ColumnCount - 1));
}

void OccupancyHistoryModel::setSelectedDomain(DomainId id) {
    QString path;
    if (m_snapshot && id != kRootDomain && id != kNoDomain && m_history.track(m_snapshot->index, id))
        path = QString::fromStdString(m_snapshot->index.pathName(id));
    if (path == m_selectedPath) return;
    m_selectedPath = path;
    Q_EMIT headerDataChanged(Qt::Horizontal, SelectedUsedColumn, SelectedTotalColumn);
    if (m_rows > 0) Q_EMIT dataChanged(index(0, SelectedUsedColumn), index(m_rows - 1, SelectedTotalColumn));
}

const OccupancyHistory::Series* OccupancyHistoryModel::selectedSeries() const {
    return m_selectedPath.isEmpty() ? nullptr : m_history.find(m_selectedPath.toStdString());
}

int OccupancyHistoryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }

int OccupancyHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OccupancyHistoryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role != Qt::DisplayRole && role != Qt::UserRole && role != Qt::TextAlignmentRole) return {};
    const auto point = std::size_t(index.row() + m_offset);
    if (role == Qt::TextAlignmentRole)
        return index.column() == TimeColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (index.column() == TimeColumn) {
        const qint64 ms = m_history.timeAt(point);
        if (role == Qt::UserRole) return ms;
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
    }
    const bool selected = index.column() >= SelectedUsedColumn;
    const OccupancyHistory::Series* series = selected ? selectedSeries() : m_history.cluster();
    if (!series) return {};
    const OccupancySample sample = m_history.at(*series, point);
    if (!sample.present()) return {};
    qint64 value = 0;
    switch (selected ? index.column() - SelectedUsedColumn + ClusterUsedColumn : index.column()) {
    case ClusterUsedColumn:
        value = sample.used;
        break;
    case ClusterUnavailableColumn:
        value = sample.unavailable;
        break;
    default:
        value = sample.total;
        break;
    }
    if (role == Qt::UserRole) return value;
    return QLocale().toString(value);
}

QVariant OccupancyHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    const QString selected = m_selectedPath.isEmpty() ? tr("Selected") : m_selectedPath;
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ClusterUsedColumn:
        return tr("Cluster GPUs used");
    case ClusterUnavailableColumn:
        return tr("Cluster GPUs unavailable");
    case ClusterTotalColumn:
        return tr("Cluster GPUs");
    case SelectedUsedColumn:
        return tr("%1 GPUs used").arg(selected);
    case SelectedUnavailableColumn:
        return tr("%1 GPUs unavailable").arg(selected);
    case SelectedTotalColumn:
        return tr("%1 GPUs").arg(selected);
    default:
        return {};
    }
}

} // namespace topodeck
