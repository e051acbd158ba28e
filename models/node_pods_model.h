#pragma once

#include "models/snapshot_table_model.h"
#include "session/cluster_session.h"

namespace topodeck {

// The pods holding resources on one node, as the session's answer lists them: name (namespace/name;
// a Slurm cluster's job id), workload, phase and GPUs. On a Slurm cluster the columns read Job and
// Name, as its allocations are jobs.
class NodePodsModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, WorkloadColumn, PhaseColumn, GpusColumn, ColumnCount };

    explicit NodePodsModel(QObject* parent = nullptr);

    // The answer's pods, counted by the snapshot's GPU resources (pods null: none yet).
    void setPods(const ClusterSnapshotPtr& snapshot, const NodePodsPtr& pods);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name;
        QString workload;
        QString workloadTip; // with the kind that named it: "JobSet trainer"
        PodPhase phase = PodPhase::Unknown;
        qint64 gpus = 0;
        friend bool operator==(const Row&, const Row&) = default;
    };
    QString phaseName(PodPhase phase) const;

    std::vector<Row> m_rows;
    bool m_slurm = false;
};

} // namespace topodeck
