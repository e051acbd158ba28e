#include "models/cluster_terms.h"

#include "core/slurm/slurm_cluster.h"

#include <QCoreApplication>

namespace topodeck {

QString slurmNodeState(const Node* node) {
    const std::string* state = node ? node->label(slurm_labels::kState) : nullptr;
    if (!state) return {};
    QString text = QString::fromStdString(*state);
    if (const std::string* reason = node->label(slurm_labels::kReason))
        text += QStringLiteral(" (") + QString::fromStdString(*reason) + QLatin1Char(')');
    return text;
}

QString podsTerm(const TopologySpec& spec) {
    return spec.origin == kSlurmOrigin ? QCoreApplication::translate("ClusterTerms", "Job allocations")
                                  : QCoreApplication::translate("ClusterTerms", "Pods");
}

} // namespace topodeck
