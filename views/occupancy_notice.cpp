#include "views/occupancy_notice.h"

namespace topodeck {

OccupancyNotice::OccupancyNotice(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setContentsMargins(10, 6, 10, 6);
    setStyleSheet(QStringLiteral("background:#fef3c7; color:#78350f; border-bottom:1px solid #f59e0b;"));
    setAccessibleName(tr("Notice"));
    hide();
}

void OccupancyNotice::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    const QString problem = snapshot ? snapshot->status.occupancyProblem() : QString();
    setVisible(!problem.isEmpty());
    if (problem.isEmpty()) return;
    setText(tr("<b>GPU occupancy unknown</b> — %1. GPUs are drawn as free, but the cluster may be using any of them.")
                .arg(problem.toHtmlEscaped()));
}

} // namespace topodeck
