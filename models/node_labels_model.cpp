#include "models/node_labels_model.h"

#include <algorithm>

namespace topodeck {

NodeLabelsModel::NodeLabelsModel(QObject* parent) : SnapshotTableModel(parent) {}

void NodeLabelsModel::setNode(const Node* node) {
    std::vector<Row> rows;
    if (node)
        for (const auto& [key, value] : node->labels)
            rows.push_back({QString::fromStdString(key), QString::fromStdString(value)});
    replaceRows(m_rows, std::move(rows));
}

QString NodeLabelsModel::keyValueLines(QList<int> rows) const {
    if (rows.isEmpty())
        for (int row = 0; row < rowCount(); ++row) rows << row;
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    for (int row : rows)
        if (row >= 0 && row < rowCount())
            lines << m_rows[std::size_t(row)].key + QLatin1Char('=') + m_rows[std::size_t(row)].value;
    return lines.join(QLatin1Char('\n'));
}

int NodeLabelsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodeLabelsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeLabelsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == KeyColumn ? row.key : row.value;
    case Qt::ToolTipRole:
        return index.column() == ValueColumn ? QVariant(row.value) : QVariant();
    case Qt::TextAlignmentRole:
        return alignedLeft();
    default:
        return {};
    }
}

QVariant NodeLabelsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    default:
        return {};
    }
}

} // namespace topodeck
