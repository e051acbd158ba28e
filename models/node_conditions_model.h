#pragma once

#include "core/model/node.h"
#include "models/snapshot_table_model.h"

namespace topodeck {

// A node's conditions: type, status, reason and since when (in the locale's short form; as
// written in the tooltip). Readiness is always known: a source that lists no Ready condition (a
// demo, Slurm) gets a first row saying what the node's `ready` says.
class NodeConditionsModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { TypeColumn, StatusColumn, ReasonColumn, SinceColumn, ColumnCount };

    explicit NodeConditionsModel(QObject* parent = nullptr);

    void setNode(const Node* node); // null: none

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString type;
        QString status;
        QString reason;
        QString since;          // as shown: the locale's short form
        QString sinceTip;       // as written (RFC 3339)
        bool fromReady = false; // said by `ready`, not listed by the source
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

} // namespace topodeck
