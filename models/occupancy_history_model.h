#pragma once

#include "core/topology/occupancy_history.h"
#include "session/cluster_snapshot.h"

#include <QAbstractTableModel>
#include <QString>

namespace topodeck {

// The GPU occupancy of the cluster and of the selected domain over time, one row per point of an
// OccupancyHistory (oldest first) that it keeps from the snapshots it is given. A new point
// appends a row (and, once the day is full, removes the oldest first); the point still running
// changes in place. Another cluster (a new source epoch) starts the history again.
class OccupancyHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        ClusterUsedColumn,
        ClusterUnavailableColumn,
        ClusterTotalColumn,
        SelectedUsedColumn, // the selected domain's; empty without one, or where it did not exist
        SelectedUnavailableColumn,
        SelectedTotalColumn,
        ColumnCount
    };
    // Qt::UserRole: TimeColumn the point's time in ms since the epoch (qint64), the others the count (qint64).

    explicit OccupancyHistoryModel(QObject* parent = nullptr, OccupancyHistoryOptions options = {});
    ~OccupancyHistoryModel() override;

    // Records the snapshot at nowMs (ms since the epoch); the same snapshot again just moves the
    // running point's time, which is how a cluster that does not change still draws a line.
    void addSnapshot(const ClusterSnapshotPtr& snapshot, qint64 nowMs);
    // Keeps (and shows) the history of that domain of the latest snapshot from now on;
    // kRootDomain or kNoDomain: none.
    void setSelectedDomain(DomainId id);
    void setIntervalMs(qint64 ms) { m_history.setIntervalMs(ms); }
    qint64 intervalMs() const { return m_history.options().intervalMs; }

    const OccupancyHistory& history() const { return m_history; }
    // The selected domain's series (null without one or before its first point), and its path.
    const OccupancyHistory::Series* selectedSeries() const;
    QString selectedPath() const { return m_selectedPath; }
    ClusterSnapshotPtr snapshot() const { return m_snapshot; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    OccupancyHistory m_history;
    ClusterSnapshotPtr m_snapshot;
    QString m_selectedPath;
    int m_rows = 0;   // rows shown; lags the history while rows are being removed
    int m_offset = 0; // history points before row 0 (1 while the oldest row is being removed)
};

} // namespace topodeck
