#include "models/node_resources_model.h"

namespace topodeck {

NodeResourcesModel::NodeResourcesModel(QObject* parent) : SnapshotTableModel(parent) {}

void NodeResourcesModel::setNode(const Node* node) {
    std::vector<Row> rows;
    if (node)
        for (const auto& [resource, quantity] : node->allocatable.entries())
            rows.push_back({QString::fromStdString(resource), QString::fromStdString(quantity.toString())});
    replaceRows(m_rows, std::move(rows));
}

int NodeResourcesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodeResourcesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeResourcesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == ResourceColumn ? row.resource : row.quantity;
    case Qt::TextAlignmentRole:
        return index.column() == AllocatableColumn ? alignedRight() : alignedLeft();
    default:
        return {};
    }
}

QVariant NodeResourcesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case ResourceColumn:
        return tr("Resource");
    case AllocatableColumn:
        return tr("Allocatable");
    default:
        return {};
    }
}

} // namespace topodeck
