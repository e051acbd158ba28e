#pragma once

#include "core/model/node.h"
#include "models/snapshot_table_model.h"

namespace topodeck {

// A node's taints as the node lists them: key, value, effect.
class NodeTaintsModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, EffectColumn, ColumnCount };

    explicit NodeTaintsModel(QObject* parent = nullptr);

    void setNode(const Node* node); // null: none

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Taint> m_rows;
};

} // namespace topodeck
