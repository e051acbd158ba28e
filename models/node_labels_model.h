#pragma once

#include "core/model/node.h"
#include "models/snapshot_table_model.h"

#include <QList>

namespace topodeck {

// A node's labels, by key as the node keeps them; a value's tooltip holds it whole (hashes and
// ids are elided in a narrow pane).
class NodeLabelsModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, ColumnCount };

    explicit NodeLabelsModel(QObject* parent = nullptr);

    void setNode(const Node* node); // null: none
    // The rows as "key=value" lines, in row order (no rows: all of them), for kubectl or a bug report.
    QString keyValueLines(QList<int> rows) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString key;
        QString value;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

} // namespace topodeck
