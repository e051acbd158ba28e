#pragma once

#include "core/placement/reports/gangs_report.h"
#include "core/topology/compute_domain_usage.h"

#include <QCoreApplication>
#include <QString>

namespace topodeck {

// The words the GUI uses for NVIDIA ComputeDomains (the gangs page, the map's badges), so that
// both say the same thing the same way; `topodeckctl gangs` words it alike in English.
class ComputeDomainTerms {
    Q_DECLARE_TR_FUNCTIONS(ComputeDomainTerms)
public:
    // "Ready", "NotReady", or "no status" while the controller has not reported one.
    static QString status(const ComputeDomainUsage& domain);
    // The workload using its channel: "Training job rlhf-bw7vc (16 pods)"; several joined by ", ";
    // "no pod uses its channel" when none.
    static QString workload(const ComputeDomainUsage& domain);
    // Flag (a): "Spans 2 NVLink cliques: IMEX shares GPU memory only inside each".
    static QString spans(std::size_t cliques);
    // Flag (b): "3 of its 16 pods outside its ComputeDomain's NVLink cliques: ...".
    static QString gangOutside(const Gang& gang);
    // Rich text for a tooltip: name, status, workload, flag (a), its nodes per clique.
    static QString toolTip(const ComputeDomainUsage& domain);
};

} // namespace topodeck
