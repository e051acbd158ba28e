#pragma once

#include "session/cluster_snapshot.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace topodeck {

// The topology index as a tree: the cluster's domains level by level (the root itself is the
// invisible parent), and under each lowest-level domain its nodes. Built over an immutable
// snapshot; a newer snapshot of the same tree only emits dataChanged for the rows whose figures
// moved, so selection and scroll position survive live updates.
class TopologyTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, OccupancyColumn, FreeColumn, NodesColumn, NotReadyColumn, ColumnCount };
    enum Role {
        DomainIdRole = Qt::UserRole + 1, // quint32; invalid on node rows
        NodeIdRole,                      // quint32; invalid on domain rows
        IsNodeRole,                      // bool
        GpusTotalRole,                   // qint64, same on every column
        GpusUsedRole,
        GpusFreeRole,
        GpusUnavailableRole,
        LevelNameRole, // the level's short name ("rack"), or "node"
        PathRole,      // "su-1/rack-3", or "su-1/rack-3/node-7"
    };
    // OccupancyColumn also answers Qt::UserRole with used/total as a double in [0, 1].

    explicit TopologyTreeModel(QObject* parent = nullptr);
    ~TopologyTreeModel() override;

    void setSnapshot(ClusterSnapshotPtr snapshot);
    ClusterSnapshotPtr snapshot() const { return m_snapshot; }

    // Column 0 of the row showing that domain or node; invalid for the root or when absent.
    QModelIndex indexForDomain(DomainId id) const;
    QModelIndex indexForNode(NodeId id) const;
    // The row of the domain ("su-1/rack-3") or node ("su-1/rack-3/gb200-0042") at path: an invalid
    // index for the root (an empty path), nullopt when nothing is there.
    std::optional<QModelIndex> indexForPath(const QString& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    void rebuildRows();
    static bool sameStructure(const ClusterSnapshot& a, const ClusterSnapshot& b);
    void emitChangedRows(const ClusterSnapshot& before);
    void remapLayout(ClusterSnapshotPtr snapshot);
    bool knownId(quintptr id) const;
    DomainId domainOf(const QModelIndex& index) const; // the root for an invalid index; kNoDomain on node rows
    QVariant domainData(DomainId id, int column, int role) const;
    QVariant nodeData(NodeId id, int column, int role) const;
    QString domainName(DomainId id) const;

    ClusterSnapshotPtr m_snapshot;
    // Row of each domain under its parent and of each node under its domain, so parent() is O(1).
    std::vector<int> m_domainRow;
    std::vector<int> m_nodeRow;
};

} // namespace topodeck
