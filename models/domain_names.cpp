#include "models/domain_names.h"

#include <QCoreApplication>

namespace topodeck {

QString levelNameOf(const TopologyIndex& index, const Domain& domain) {
    if (domain.level < 0 || domain.level >= index.spec().depth()) return QString();
    return QString::fromStdString(index.spec().levels[std::size_t(domain.level)].name);
}

QString domainNameOf(const TopologyIndex& index, const Domain& domain) {
    if (domain.unlabelled) return QCoreApplication::translate("DomainNames", "(no %1)").arg(levelNameOf(index, domain));
    return QString::fromStdString(domain.value);
}

} // namespace topodeck
