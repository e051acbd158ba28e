#include "models/node_taints_model.h"

namespace topodeck {

NodeTaintsModel::NodeTaintsModel(QObject* parent) : SnapshotTableModel(parent) {}

void NodeTaintsModel::setNode(const Node* node) {
    replaceRows(m_rows, node ? node->taints : std::vector<Taint>());
}

int NodeTaintsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodeTaintsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTaintsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Taint& taint = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return QString::fromStdString(taint.key);
        case ValueColumn:
            return QString::fromStdString(taint.value);
        case EffectColumn:
            return QString::fromStdString(taint.effect);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return alignedLeft();
    default:
        return {};
    }
}

QVariant NodeTaintsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case EffectColumn:
        return tr("Effect");
    default:
        return {};
    }
}

} // namespace topodeck
