#pragma once

#include "core/placement/reports/gangs_report.h"
#include "models/snapshot_table_model.h"
#include "session/cluster_snapshot.h"

namespace topodeck {

// Where a running gang's pods are: its pods and GPUs in each domain of each level of the
// hierarchy shown, top level first, then in each NVLink domain; at most kMaxRows rows. A domain
// row answers TopologyTreeModel::DomainIdRole (an NVLink row does not: it is no domain of the tree).
class GangDomainsModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { LevelColumn, DomainColumn, PodsColumn, GpusColumn, ColumnCount };
    static constexpr int kMaxRows = 1000;

    explicit GangDomainsModel(QObject* parent = nullptr);

    // The gang's nodes placed in the snapshot's hierarchy (gang null: none).
    void setGang(const ClusterSnapshotPtr& snapshot, const Gang* gang);
    int total() const { return m_total; }         // rows in all, those past kMaxRows too
    int nodesGone() const { return m_nodesGone; } // the gang's nodes no longer in the cluster

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int level = 0; // the NVLink rows come after the hierarchy's lowest level
        QString levelName;
        QString name;
        DomainId id = kNoDomain;
        qint64 pods = 0;
        qint64 gpus = 0;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> rowsOf(const TopologyIndex& index, const Gang& gang);

    std::vector<Row> m_rows;
    int m_total = 0;
    int m_nodesGone = 0;
};

} // namespace topodeck
