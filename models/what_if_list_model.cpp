#include "models/what_if_list_model.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <iterator>

namespace topodeck {

WhatIfListModel::WhatIfListModel(QObject* parent) : QAbstractTableModel(parent) {}

bool WhatIfListModel::isStepIndex(const QModelIndex& index) const {
    return index.isValid() && index.model() == this && !index.parent().isValid() && index.row() < rowCount() &&
           index.column() < ColumnCount;
}

QString WhatIfListModel::kindName(WhatIfStep::Kind kind) {
    switch (kind) {
    case WhatIfStep::Kind::Place:
        return tr("Place");
    case WhatIfStep::Kind::Drain:
        return tr("Drain");
    case WhatIfStep::Kind::Fail:
        return tr("Fail");
    }
    return {};
}

int WhatIfListModel::addStep(WhatIfStep::Kind kind, const QString& text) {
    const int row = static_cast<int>(m_steps.size());
    beginInsertRows(QModelIndex(), row, row);
    m_steps.push_back({kind, text.trimmed(), {}, false, false});
    endInsertRows();
    return row;
}

void WhatIfListModel::clear() {
    if (m_steps.empty()) return;
    beginResetModel();
    m_steps.clear();
    endResetModel();
}

Result<std::vector<WhatIfStep>> WhatIfListModel::whatIfSteps() const {
    std::vector<WhatIfStep> out;
    for (std::size_t row = 0; row < m_steps.size(); ++row) {
        const Step& step = m_steps[row];
        const std::string prefix = tr("Step %1").arg(row + 1).toStdString() + ": ";
        if (step.text.isEmpty()) return Error{prefix + tr("names nothing").toStdString()};
        if (step.kind != WhatIfStep::Kind::Place) {
            out.push_back({step.kind, step.text.toStdString(), {}, {}});
            continue;
        }
        auto query = parsePlanQuery(step.text.toStdString());
        if (!query) return Error{prefix + query.error().message};
        if (!query->manifest.empty())
            return Error{prefix + tr("a Place step takes its gang by flags or --sbatch, not --manifest").toStdString()};
        auto gang = planGang(*query);
        if (!gang) return Error{prefix + gang.error().message};
        out.push_back({WhatIfStep::Kind::Place,
                       {},
                       std::move(*gang),
                       query->engines.empty() ? std::string() : query->engines.front()});
    }
    return out;
}

void WhatIfListModel::setOutcomes(const std::vector<WhatIfStepOutcome>& outcomes) {
    const std::size_t rows = std::min(outcomes.size(), m_steps.size());
    for (std::size_t row = 0; row < rows; ++row) {
        m_steps[row].outcome = QString::fromStdString(outcomes[row].text);
        m_steps[row].applied = outcomes[row].applied;
        m_steps[row].hasOutcome = true;
    }
    if (rows > 0) Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(rows) - 1, ColumnCount - 1));
}

void WhatIfListModel::clearOutcomes() {
    for (Step& step : m_steps) {
        step.outcome.clear();
        step.hasOutcome = false;
        step.applied = false;
    }
    if (!m_steps.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int WhatIfListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int WhatIfListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WhatIfListModel::data(const QModelIndex& index, int role) const {
    if (!isStepIndex(index)) return {};
    const Step& step = m_steps[static_cast<std::size_t>(index.row())];
    if (role == KindRole) return static_cast<int>(step.kind);
    if (role == AppliedRole) return step.hasOutcome ? QVariant(step.applied) : QVariant();
    switch (index.column()) {
    case KindColumn:
        if (role == Qt::DisplayRole) return kindName(step.kind);
        break;
    case TargetColumn:
        if (role == Qt::DisplayRole || role == Qt::EditRole) return step.text;
        if (role == Qt::ToolTipRole)
            return step.kind == WhatIfStep::Kind::Place ? tr("The gang, as the planner's flags (F2 edits)")
                                                        : tr("A node name or a domain path (F2 edits)");
        break;
    case OutcomeColumn:
        if (role == Qt::DisplayRole) return step.hasOutcome ? step.outcome : tr("not applied yet");
        if (role == Qt::ToolTipRole) return step.outcome;
        // A step that changed nothing is the one to look at.
        if (role == Qt::ForegroundRole && step.hasOutcome && !step.applied) return QBrush(QColor(0xc0, 0x39, 0x2b));
        break;
    default:
        break;
    }
    return {};
}

QVariant WhatIfListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    // Rows are numbered in the order they apply.
    if (orientation == Qt::Vertical) return section + 1;
    switch (section) {
    case KindColumn:
        return tr("Step");
    case TargetColumn:
        return tr("Target or gang");
    case OutcomeColumn:
        return tr("Outcome");
    default:
        return {};
    }
}

Qt::ItemFlags WhatIfListModel::flags(const QModelIndex& index) const {
    if (!isStepIndex(index)) return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (index.column() == TargetColumn) flags |= Qt::ItemIsEditable;
    return flags;
}

bool WhatIfListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || index.column() != TargetColumn || !isStepIndex(index)) return false;
    const QString text = value.toString().trimmed();
    if (text.isEmpty()) return false; // a step must name something; Delete removes it
    Step& step = m_steps[static_cast<std::size_t>(index.row())];
    if (text == step.text) return true;
    step.text = text;
    // What it did described the old target.
    step.hasOutcome = false;
    step.outcome.clear();
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

bool WhatIfListModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount()) return false;
    beginRemoveRows(QModelIndex(), row, row + count - 1);
    m_steps.erase(m_steps.begin() + row, m_steps.begin() + row + count);
    endRemoveRows();
    return true;
}

bool WhatIfListModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                               const QModelIndex& destinationParent, int destinationChild) {
    if (sourceParent.isValid() || destinationParent.isValid() || count <= 0 || sourceRow < 0 ||
        sourceRow + count > rowCount() || destinationChild < 0 || destinationChild > rowCount() ||
        (destinationChild >= sourceRow && destinationChild <= sourceRow + count))
        return false;
    if (!beginMoveRows(QModelIndex(), sourceRow, sourceRow + count - 1, QModelIndex(), destinationChild)) return false;
    const auto first = m_steps.begin() + sourceRow;
    const auto last = first + count;
    if (destinationChild < sourceRow)
        std::rotate(m_steps.begin() + destinationChild, first, last);
    else
        std::rotate(first, last, m_steps.begin() + destinationChild);
    endMoveRows();
    return true;
}

} // namespace topodeck
