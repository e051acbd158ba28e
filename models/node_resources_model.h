#pragma once

#include "core/model/node.h"
#include "models/snapshot_table_model.h"

namespace topodeck {

// What a node offers the scheduler: each allocatable resource and its quantity as Kubernetes
// writes it ("4", "1536Gi").
class NodeResourcesModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { ResourceColumn, AllocatableColumn, ColumnCount };

    explicit NodeResourcesModel(QObject* parent = nullptr);

    void setNode(const Node* node); // null: none

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString resource;
        QString quantity;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

} // namespace topodeck
