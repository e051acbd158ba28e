#include "models/label_changes_model.h"

#include <QBrush>

namespace topodeck {

LabelChangesModel::LabelChangesModel(QObject* parent) : QAbstractTableModel(parent) {}

void LabelChangesModel::setPreview(ChangePreviewPtr preview) {
    beginResetModel();
    m_preview = std::move(preview);
    endResetModel();
}

void LabelChangesModel::setDiffColours(const QColor& removed, const QColor& added) {
    m_removed = removed;
    m_added = added;
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, BeforeColumn), index(rowCount() - 1, AfterColumn), {Qt::ForegroundRole});
}

int LabelChangesModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_preview) return 0;
    return static_cast<int>(m_preview->plan.labelChanges.size());
}

int LabelChangesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LabelChangesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_preview || index.row() >= rowCount()) return {};
    const LabelChange& change = m_preview->plan.labelChanges[static_cast<std::size_t>(index.row())];
    const QString kind = !change.after ? QStringLiteral("remove") : change.before ? QStringLiteral("change")
                                                                                  : QStringLiteral("set");
    const auto text = [](const std::optional<std::string>& value) {
        return value ? QString::fromStdString(*value) : QString();
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NodeColumn: return QString::fromStdString(change.node);
        case KeyColumn:
            return change.annotation ? tr("%1 (annotation)").arg(QString::fromStdString(change.key))
                                     : QString::fromStdString(change.key);
        case BeforeColumn: return text(change.before);
        case AfterColumn: return text(change.after);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == BeforeColumn && !change.before) return tr("The node does not carry this label now");
        if (index.column() == AfterColumn && !change.after) return tr("The label is removed");
        return {};
    case Qt::ForegroundRole:
        // As the terminal's diff: what goes in red, what comes in green.
        if (index.column() == BeforeColumn && change.before) return QBrush(m_removed);
        if (index.column() == AfterColumn && change.after) return QBrush(m_added);
        return {};
    case KindRole: return kind;
    }
    return {};
}

QVariant LabelChangesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NodeColumn: return tr("Node");
    case KeyColumn: return tr("Label");
    case BeforeColumn: return tr("Now");
    case AfterColumn: return tr("After");
    }
    return {};
}

} // namespace topodeck
