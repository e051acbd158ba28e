#include "views/chrome/occupancy_notice.h"

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
    const QString hierarchy = snapshot ? QString::fromStdString(snapshot->index.spec().notice) : QString();
    QStringList parts;
    if (!problem.isEmpty())
        parts << tr("<b>GPU occupancy unknown</b> — %1. GPUs are drawn as free, but the cluster may be using any of "
                    "them.")
                     .arg(problem.toHtmlEscaped());
    if (!hierarchy.isEmpty()) parts << tr("<b>Hierarchy</b> — %1.").arg(hierarchy.toHtmlEscaped());
    setVisible(!parts.isEmpty());
    if (!parts.isEmpty()) setText(parts.join(QStringLiteral("<br>")));
}

} // namespace topodeck
