#include "models/plan_result_model.h"

#include <QLocale>

namespace topodeck {

namespace {

QString chosenDomains(const PlacementResult& result) {
    QStringList parts;
    for (const ChosenDomain& chosen : result.chosen)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(chosen.level),
                                             QString::fromStdString(chosen.domain));
    return parts.join(QStringLiteral(" › "));
}

// The first line of the scheduler's message; the tooltip has all of it.
QString firstLine(const std::string& text) {
    const QString whole = QString::fromStdString(text);
    const qsizetype end = whole.indexOf(QLatin1Char('\n'));
    return end < 0 ? whole : whole.left(end) + QStringLiteral(" …");
}

} // namespace

PlanResultModel::PlanResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanResultModel::setAnswer(PlanAnswerPtr answer) {
    beginResetModel();
    m_answer = std::move(answer);
    endResetModel();
}

int PlanResultModel::ranCount() const {
    return m_answer && m_answer->error.empty() ? int(m_answer->outcome.results.size()) : 0;
}

const PlacementResult* PlanResultModel::result(int row) const {
    if (row < 0 || row >= ranCount()) return nullptr;
    return &m_answer->outcome.results[std::size_t(row)];
}

int PlanResultModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_answer || !m_answer->error.empty()) return 0;
    return ranCount() + int(m_answer->outcome.skipped.size());
}

int PlanResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanResultModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int row = index.row();
    const PlacementResult* r = result(row);
    if (!r) {
        const auto& [engine, why] = m_answer->outcome.skipped[std::size_t(row - ranCount())];
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case EngineColumn:
                return QString::fromStdString(engine);
            case VerdictColumn:
                return tr("not run");
            case MessageColumn:
                return firstLine(why);
            default:
                return QString();
            }
        case Qt::ToolTipRole:
            return index.column() == MessageColumn ? QString::fromStdString(why) : QVariant();
        case FeasibleRole:
            return false;
        case ResultRole:
            return -1;
        case PodsRole:
            return qlonglong(0);
        default:
            return {};
        }
    }
    qlonglong pods = 0;
    for (const NodePods& node : r->nodes) pods += node.pods;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case EngineColumn:
            return QString::fromStdString(r->engine);
        case VerdictColumn:
            return r->feasible ? tr("fits") : tr("does not fit");
        case DomainsColumn:
            return chosenDomains(*r);
        case NodesColumn:
            return r->nodes.empty()
                       ? QString()
                       : tr("%1 (%2 pods)")
                             .arg(QLocale().toString(qlonglong(r->nodes.size())), QLocale().toString(pods));
        case MessageColumn:
            return firstLine(r->message);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn || index.column() == VerdictColumn)
            return QString::fromStdString(r->message);
        if (index.column() == DomainsColumn) return chosenDomains(*r);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == NodesColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case FeasibleRole:
        return r->feasible;
    case ResultRole:
        return row;
    case PodsRole:
        return pods;
    default:
        return {};
    }
}

QVariant PlanResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
    switch (section) {
    case EngineColumn:
        return tr("Engine");
    case VerdictColumn:
        return tr("Verdict");
    case DomainsColumn:
        return tr("Domains");
    case NodesColumn:
        return tr("Nodes");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace topodeck
