#include "models/node_conditions_model.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>

namespace topodeck {

namespace {

// "2024-05-01 10:00" in the locale's short form, from an RFC 3339 time; the text itself otherwise.
QString sinceText(const std::string& since) {
    const QString text = QString::fromStdString(since);
    const QDateTime time = QDateTime::fromString(text, Qt::ISODate);
    return time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : text;
}

} // namespace

NodeConditionsModel::NodeConditionsModel(QObject* parent) : SnapshotTableModel(parent) {}

void NodeConditionsModel::setNode(const Node* node) {
    std::vector<Row> rows;
    if (node) {
        const bool listsReady = std::any_of(node->conditions.begin(), node->conditions.end(),
                                            [](const NodeCondition& c) { return c.type == "Ready"; });
        if (!listsReady) rows.push_back({tr("Ready"), node->ready ? tr("True") : tr("False"), {}, {}, {}, true});
        for (const NodeCondition& c : node->conditions)
            rows.push_back({QString::fromStdString(c.type), QString::fromStdString(c.status),
                            QString::fromStdString(c.reason), sinceText(c.since), QString::fromStdString(c.since),
                            false});
    }
    replaceRows(m_rows, std::move(rows));
}

int NodeConditionsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodeConditionsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeConditionsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TypeColumn:
            return row.type;
        case StatusColumn:
            return row.status;
        case ReasonColumn:
            return row.reason;
        case SinceColumn:
            return row.since;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == TypeColumn && row.fromReady) return tr("The source says only whether the node is ready");
        if (index.column() == SinceColumn && !row.fromReady) return row.sinceTip;
        return {};
    case Qt::TextAlignmentRole:
        return alignedLeft();
    default:
        return {};
    }
}

QVariant NodeConditionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TypeColumn:
        return tr("Type");
    case StatusColumn:
        return tr("Status");
    case ReasonColumn:
        return tr("Reason");
    case SinceColumn:
        return tr("Since");
    default:
        return {};
    }
}

} // namespace topodeck
