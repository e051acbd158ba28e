#include "models/compute_domain_terms.h"

#include <QLocale>
#include <QStringList>

namespace topodeck {

QString ComputeDomainTerms::status(const ComputeDomainUsage& domain) {
    switch (domain.status) {
    case ComputeDomainReadiness::Ready: return tr("Ready");
    case ComputeDomainReadiness::NotReady: return tr("NotReady");
    case ComputeDomainReadiness::None: break;
    }
    return tr("no status");
}

QString ComputeDomainTerms::workload(const ComputeDomainUsage& domain) {
    QStringList parts;
    for (const ComputeDomainWorkload& w : domain.workloads) {
        const QString name = w.name.empty() ? tr("(no workload)") : QString::fromStdString(w.name);
        const std::string_view kind = workloadKindName(w.kind);
        const QString pods = tr("%n pod(s)", nullptr, w.pods);
        parts.push_back(kind.empty()
                            ? tr("%1 (%2)").arg(name, pods)
                            : tr("%1 %2 (%3)").arg(QString::fromUtf8(kind.data(), qsizetype(kind.size())), name, pods));
    }
    return parts.isEmpty() ? tr("no pod uses its channel") : parts.join(QStringLiteral(", "));
}

QString ComputeDomainTerms::spans(std::size_t cliques) {
    return tr("Spans %n NVLink clique(s): IMEX shares GPU memory only inside each", nullptr, static_cast<int>(cliques));
}

QString ComputeDomainTerms::gangOutside(const Gang& gang) {
    return tr("%1 of its %n pod(s) outside its ComputeDomain's NVLink cliques: no GPU memory shared with the rest "
              "over IMEX",
              nullptr, gang.pods)
        .arg(QLocale().toString(gang.podsOutsideComputeDomain()));
}

QString ComputeDomainTerms::toolTip(const ComputeDomainUsage& domain) {
    QString html = QStringLiteral("<b>") +
                   tr("ComputeDomain %1").arg(QString::fromStdString(domain.qualifiedName()).toHtmlEscaped()) +
                   QStringLiteral("</b> ") + status(domain).toHtmlEscaped() + QStringLiteral("<br>") +
                   workload(domain).toHtmlEscaped();
    if (domain.spansCliques())
        html += QStringLiteral("<br><b>") + spans(domain.cliques.size()).toHtmlEscaped() + QStringLiteral("</b>");
    // Its nodes per clique, as counts: the tooltip stays short at any size.
    for (const std::string& clique : domain.cliques) {
        int nodes = 0;
        for (const ComputeDomainMember& member : domain.members) nodes += member.clique == clique ? 1 : 0;
        html += QStringLiteral("<br>") +
                tr("clique %1: %n node(s)", nullptr, nodes).arg(QString::fromStdString(clique).toHtmlEscaped());
    }
    if (const int without = domain.membersWithoutClique(); without > 0)
        html += QStringLiteral("<br>") + tr("%n node(s) in no NVLink clique (no IMEX daemon)", nullptr, without);
    return html;
}

} // namespace topodeck
