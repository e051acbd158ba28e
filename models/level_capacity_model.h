#pragma once

#include "core/topology/level_capacity.h"
#include "session/cluster_snapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace topodeck {

// The capacity per level (core/level_capacity.h) of the latest snapshot as a table: one row per
// level (top first, then NVLink domains, then nodes), columns for fragmentation and for how
// many gangs of 8, 16, 32, 64 and 128 GPUs fit. A snapshot with the same levels only changes data.
class LevelCapacityModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        LevelColumn,
        DomainsColumn,
        FreeColumn,          // usable free GPUs (the same on every row)
        FreeWholeColumn,     // in domains of the level with no GPU in use
        FreeScatteredColumn, // in partly used (or unlabelled) domains
        FragmentationColumn, // scattered / free; Qt::UserRole: a double in [0, 1]
        FirstGangColumn,     // then one column per gang size
    };
    // Qt::UserRole on the count columns: the count as qint64.

    explicit LevelCapacityModel(QObject* parent = nullptr);

    void setSnapshot(const ClusterSnapshotPtr& snapshot);
    const std::vector<LevelCapacity>& rows() const { return m_rows; }
    static std::int64_t gangSize(int column) { return kSlotGangSizes[std::size_t(column - FirstGangColumn)]; }
    // "rack", or "NVLink domain" / "node" in the user's language.
    QString levelName(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<LevelCapacity> m_rows;
};

} // namespace topodeck
