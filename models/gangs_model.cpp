#include "models/gangs_model.h"

#include "models/compute_domain_terms.h"

#include <QFont>
#include <QLocale>

namespace topodeck {

GangsModel::GangsModel(QObject* parent) : QAbstractTableModel(parent) {}

void GangsModel::setReport(GangsReportPtr report) {
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

const Gang* GangsModel::gang(int row) const {
    if (!m_report || row < 0 || static_cast<std::size_t>(row) >= m_report->gangs.size()) return nullptr;
    return &m_report->gangs[static_cast<std::size_t>(row)];
}

int GangsModel::rowOf(const QString& qualifiedName) const {
    if (!m_report) return -1;
    const std::string wanted = qualifiedName.toStdString();
    for (std::size_t row = 0; row < m_report->gangs.size(); ++row)
        if (m_report->gangs[row].qualifiedName() == wanted) return static_cast<int>(row);
    return -1;
}

int GangsModel::computeDomainColumn() const {
    if (!m_report || m_report->computeDomains.empty()) return -1;
    return FirstLevelColumn + static_cast<int>(m_report->levels.size());
}

int GangsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_report) return 0;
    return static_cast<int>(m_report->gangs.size());
}

int GangsModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    return FirstLevelColumn + (m_report ? static_cast<int>(m_report->levels.size()) : 0) +
           (computeDomainColumn() >= 0 ? 1 : 0);
}

// The ComputeDomain cell: its name (the gang's namespace is the domain's), and what is flagged.
static QVariant computeDomainData(const GangsReport& report, const Gang& gang, int role) {
    const QString name = QString::fromStdString(gang.computeDomain.substr(gang.computeDomain.find('/') + 1));
    switch (role) {
    case Qt::DisplayRole:
        if (gang.computeDomain.empty()) return GangsModel::tr("none");
        return gang.computeDomainFlagged() ? GangsModel::tr("⚠ %1").arg(name) : name;
    case Qt::ToolTipRole: {
        if (gang.computeDomain.empty()) return GangsModel::tr("Its pods use no ComputeDomain's IMEX channel");
        const ComputeDomainUsage* domain = report.computeDomain(gang.computeDomain);
        QString html = domain ? ComputeDomainTerms::toolTip(*domain) : name.toHtmlEscaped();
        if (!gang.outsideComputeDomain.empty())
            html += QStringLiteral("<br><b>") + ComputeDomainTerms::gangOutside(gang).toHtmlEscaped() +
                    QStringLiteral("</b>");
        return html;
    }
    case Qt::FontRole:
        if (gang.computeDomainFlagged()) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant GangsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Gang* g = gang(index.row());
    if (!g) return {};
    const int column = index.column();
    if (role == ComputeDomainRole) return QString::fromStdString(g->computeDomain);
    if (role == ComputeDomainFlaggedRole) return g->computeDomainFlagged();
    if (column == computeDomainColumn() && role != NodeIdsRole && role != QualifiedNameRole && role != CompactRole)
        return computeDomainData(*m_report, *g, role);
    const int level = column - FirstLevelColumn;
    const GangSpread* spread = level >= 0 ? &g->levels[static_cast<std::size_t>(level)] : nullptr;
    const QLocale locale;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return QString::fromStdString(g->qualifiedName());
        case KindColumn: {
            const std::string_view kind = workloadKindName(g->kind);
            return QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size()));
        }
        case PodsColumn: return locale.toString(g->pods);
        case GpusColumn: return locale.toString(static_cast<qlonglong>(g->gpus));
        default: return tr("%1 / %2").arg(spread->spans).arg(spread->least);
        }
    case Qt::ToolTipRole:
        if (!spread) return QString::fromStdString(g->qualifiedName());
        {
            const QString levelName = QString::fromStdString(m_report->levels[static_cast<std::size_t>(level)].name);
            QString text = tr("Its pods are in %n %1 domain(s)", nullptr, spread->spans).arg(levelName);
            text += tr("; %n would hold it by capacity", nullptr, spread->least);
            if (spread->outside > 0) text += tr(" (%n of its nodes have no %1)", nullptr, spread->outside).arg(levelName);
            return text;
        }
    case Qt::TextAlignmentRole:
        return column >= PodsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (spread && spread->excess() > 0) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case NodeIdsRole: {
        QList<quint32> ids;
        ids.reserve(static_cast<qsizetype>(g->nodes.size()));
        for (NodeId id : g->nodes) ids.push_back(id);
        return QVariant::fromValue(ids);
    }
    case QualifiedNameRole: return QString::fromStdString(g->qualifiedName());
    case CompactRole: return g->compact();
    case SpansRole: return spread ? QVariant(spread->spans) : QVariant();
    case LeastRole: return spread ? QVariant(spread->least) : QVariant();
    default: return {};
    }
}

QVariant GangsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const int level = section - FirstLevelColumn;
    if (section == computeDomainColumn()) {
        if (role == Qt::DisplayRole) return tr("ComputeDomain");
        if (role == Qt::ToolTipRole)
            return tr("The NVIDIA ComputeDomain whose IMEX channel the gang's pods use. ⚠: its nodes sit in more "
                      "than one NVLink clique (IMEX shares GPU memory only inside each), or some of the gang's pods "
                      "run outside its cliques");
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn: return tr("Gang");
        case KindColumn: return tr("Kind");
        case PodsColumn: return tr("Pods");
        case GpusColumn: return tr("GPUs");
        default: {
            const GangsLevel& l = m_report->levels[static_cast<std::size_t>(level)];
            return l.nvlink ? tr("NVLink") : QString::fromStdString(l.name);
        }
        }
    }
    if (role == Qt::ToolTipRole && level >= 0)
        return tr("Domains of this level the gang is in / the fewest that could hold it (%1)")
            .arg(QString::fromStdString(m_report->levels[static_cast<std::size_t>(level)].key));
    return {};
}

} // namespace topodeck
