#pragma once

#include "models/snapshot_table_model.h"
#include "session/cluster_snapshot.h"

namespace topodeck {

// What a domain holds, one row each: its child domains, or on a lowest-level domain its nodes, at
// most kMaxRows of them (a flat hierarchy with thousands under one parent is browsed in the
// tree). The rows answer TopologyTreeModel's roles, so that its occupancy bar delegate draws the
// occupancy column and an activated row says which domain or node it is. The state column says
// why a node takes no pods (NotReady, cordoned, its Slurm state), or how many of a domain's nodes
// are not ready.
class DomainChildrenModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, OccupancyColumn, FreeColumn, StateColumn, ColumnCount };
    static constexpr int kMaxRows = 1000;

    explicit DomainChildrenModel(QObject* parent = nullptr);

    // The children of `domain` in `snapshot` (null: none).
    void setDomain(const ClusterSnapshotPtr& snapshot, DomainId domain);
    bool listsNodes() const { return m_listsNodes; }
    int total() const { return m_total; } // children in all, the rows past kMaxRows too

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name;
        bool isNode = false;
        quint32 id = 0;
        qint64 gpusTotal = 0;
        qint64 gpusUsed = 0;
        qint64 gpusFree = 0;
        qint64 gpusUnavailable = 0;
        QString state;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> nodeRows(const ClusterSnapshot& snapshot, const Domain& domain) const;
    std::vector<Row> domainRows(const TopologyIndex& index, const Domain& domain) const;
    QVariant roleData(const Row& row, int role) const;

    std::vector<Row> m_rows;
    bool m_listsNodes = false;
    int m_total = 0;
};

} // namespace topodeck
