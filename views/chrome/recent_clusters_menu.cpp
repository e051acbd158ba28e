#include "views/chrome/recent_clusters_menu.h"

namespace topodeck {

RecentClustersMenu::RecentClustersMenu(QWidget* parent) : QMenu(tr("&Recent Clusters"), parent) {
    connect(this, &QMenu::aboutToShow, this, &RecentClustersMenu::refill);
    refill(); // its actions are listed (palette, shortcuts) before it first opens
}

void RecentClustersMenu::refill() {
    clear();
    const QList<RecentCluster> clusters = AppSettings().recentClusters();
    for (qsizetype i = 0; i < clusters.size(); ++i) {
        // "&1 Demo gb200": a digit to choose it by; an & in a path is not a mnemonic.
        QString label = clusters[i].label();
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        const RecentCluster cluster = clusters[i];
        addAction(tr("&%1 %2").arg(i + 1).arg(label), this, [this, cluster] { Q_EMIT chosen(cluster); });
    }
    if (clusters.isEmpty()) addAction(tr("No Recent Clusters"))->setEnabled(false);
    addSeparator();
    addAction(tr("&Clear Recent Clusters"), this, [] {
        AppSettings().clearRecentClusters();
    })->setEnabled(!clusters.isEmpty());
}

} // namespace topodeck
