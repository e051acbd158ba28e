#include "models/level_capacity_model.h"

#include <QLocale>

namespace topodeck {

LevelCapacityModel::LevelCapacityModel(QObject* parent) : QAbstractTableModel(parent) {}

void LevelCapacityModel::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    std::vector<LevelCapacity> rows = snapshot ? levelCapacity(snapshot->index) : std::vector<LevelCapacity>{};
    const bool sameRows = std::equal(rows.begin(), rows.end(), m_rows.begin(), m_rows.end(),
                                     [](const LevelCapacity& a, const LevelCapacity& b) {
                                         return a.kind == b.kind && a.level == b.level && a.name == b.name;
                                     });
    if (!sameRows) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    m_rows = std::move(rows);
    if (!m_rows.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

QString LevelCapacityModel::levelName(int row) const {
    const LevelCapacity& level = m_rows[std::size_t(row)];
    switch (level.kind) {
    case LevelCapacity::Kind::Nvlink:
        return tr("NVLink domain");
    case LevelCapacity::Kind::Node:
        return tr("node");
    case LevelCapacity::Kind::Level:
        break;
    }
    return QString::fromStdString(level.name);
}

int LevelCapacityModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LevelCapacityModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstGangColumn + static_cast<int>(kSlotGangSizes.size());
}

QVariant LevelCapacityModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const LevelCapacity& level = m_rows[std::size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == LevelColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
    if (index.column() == LevelColumn) return levelName(index.row());
    if (index.column() == FragmentationColumn) {
        if (role == Qt::UserRole) return level.fragmentation();
        return QString(QLocale().toString(level.fragmentation() * 100.0, 'f', 0) + QLatin1Char('%'));
    }
    qint64 value = 0;
    switch (index.column()) {
    case DomainsColumn:
        value = level.domains;
        break;
    case FreeColumn:
        value = level.gpusFree;
        break;
    case FreeWholeColumn:
        value = level.gpusFreeWhole;
        break;
    case FreeScatteredColumn:
        value = level.gpusFreeScattered();
        break;
    default:
        value = level.gangs[std::size_t(index.column() - FirstGangColumn)];
        break;
    }
    if (role == Qt::UserRole) return value;
    return QLocale().toString(value);
}

QVariant LevelCapacityModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    switch (section) {
    case LevelColumn:
        return tr("Level");
    case DomainsColumn:
        return tr("Domains");
    case FreeColumn:
        return tr("Free GPUs");
    case FreeWholeColumn:
        return tr("Free in unused domains");
    case FreeScatteredColumn:
        return tr("Free in partly used domains");
    case FragmentationColumn:
        return tr("Fragmentation");
    default:
        if (section >= FirstGangColumn && section < columnCount())
            return tr("Gangs of %1 GPUs").arg(gangSize(section));
        return {};
    }
}

} // namespace topodeck
