#include "views/map/compute_domain_marks.h"

#include "models/compute_domain_terms.h"

#include <QStringList>

namespace topodeck {

void ComputeDomainMarks::build(const ClusterSnapshotPtr& snapshot) {
    m_snapshot = snapshot;
    m_byNvlink.clear();
    m_byNode.clear();
    if (!snapshot || snapshot->computeDomains.empty()) return;
    m_byNvlink.resize(snapshot->index.nvlinkDomainCount());
    for (std::size_t i = 0; i < snapshot->computeDomains.size(); ++i) {
        const ComputeDomainUsage& domain = snapshot->computeDomains[i];
        const auto position = static_cast<std::uint32_t>(i);
        for (const std::int32_t nvlink : domain.nvlinkDomains)
            if (nvlink >= 0 && static_cast<std::size_t>(nvlink) < m_byNvlink.size())
                m_byNvlink[std::size_t(nvlink)].push_back(position);
        for (const ComputeDomainMember& member : domain.members) m_byNode[member.node].push_back(position);
    }
}

std::span<const std::uint32_t> ComputeDomainMarks::on(std::int32_t nvlinkDomain) const {
    if (nvlinkDomain < 0 || static_cast<std::size_t>(nvlinkDomain) >= m_byNvlink.size()) return {};
    return m_byNvlink[static_cast<std::size_t>(nvlinkDomain)];
}

std::span<const std::uint32_t> ComputeDomainMarks::ofNode(const std::string& node) const {
    const auto it = m_byNode.find(node);
    return it == m_byNode.end() ? std::span<const std::uint32_t>() : std::span<const std::uint32_t>(it->second);
}

bool ComputeDomainMarks::flagged(std::int32_t nvlinkDomain) const {
    for (const std::uint32_t i : on(nvlinkDomain))
        if (m_snapshot->computeDomains[i].spansCliques()) return true;
    return false;
}

QString ComputeDomainMarks::badgeText(std::int32_t nvlinkDomain, bool brief) const {
    const std::span<const std::uint32_t> domains = on(nvlinkDomain);
    const QString flag = flagged(nvlinkDomain) ? QStringLiteral(" ⚠") : QString();
    if (domains.size() == 1) {
        if (brief) return tr("CD") + flag;
        return tr("CD %1").arg(QString::fromStdString(m_snapshot->computeDomains[domains.front()].name)) + flag;
    }
    const QString count = QString::number(domains.size());
    return (brief ? count : tr("%n CDs", nullptr, static_cast<int>(domains.size()))) + flag;
}

QString ComputeDomainMarks::toolTip(std::int32_t nvlinkDomain) const {
    QStringList parts;
    for (const std::uint32_t i : on(nvlinkDomain))
        parts.push_back(ComputeDomainTerms::toolTip(m_snapshot->computeDomains[i]));
    if (parts.isEmpty()) return {};
    const QString clique = QString::fromStdString(m_snapshot->index.nvlinkName(nvlinkDomain)).toHtmlEscaped();
    return tr("<i>NVLink domain %1 holds nodes of</i>").arg(clique) + QStringLiteral("<br>") +
           parts.join(QStringLiteral("<hr>"));
}

QString ComputeDomainMarks::namesOfNode(const std::string& node) const {
    QStringList names;
    for (const std::uint32_t i : ofNode(node))
        names.push_back(QString::fromStdString(m_snapshot->computeDomains[i].qualifiedName()));
    return names.join(QStringLiteral(", "));
}

} // namespace topodeck
