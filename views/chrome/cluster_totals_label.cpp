#include "views/chrome/cluster_totals_label.h"

#include <QLocale>

namespace topodeck {

ClusterTotalsLabel::ClusterTotalsLabel(QWidget* parent) : QLabel(parent) {
    setAccessibleName(tr("Cluster totals"));
}

void ClusterTotalsLabel::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    if (!snapshot) return clear();
    const DomainTotals& t = snapshot->index.root().totals;
    const QLocale locale;
    // Without the pods there is no telling what is used: say so rather than count it all as free.
    if (!snapshot->status.occupancyProblem().isEmpty())
        return setText(tr("GPUs %1 · occupancy unknown").arg(locale.toString(t.gpusTotal)));
    const int percent = t.gpusTotal > 0 ? int(100.0 * double(t.gpusUsed) / double(t.gpusTotal) + 0.5) : 0;
    QString text = tr("GPUs %1 / %2 used (%3%) · %4 free")
                       .arg(locale.toString(t.gpusUsed), locale.toString(t.gpusTotal), QString::number(percent),
                            locale.toString(t.gpusFree));
    const qint64 notReady = t.nodesTotal - t.nodesReady;
    text += QStringLiteral(" · ") % (notReady == 0   ? tr("all nodes ready")
                                     : notReady == 1 ? tr("1 node not ready")
                                                     : tr("%1 nodes not ready").arg(locale.toString(notReady)));
    setText(text);
}

} // namespace topodeck
