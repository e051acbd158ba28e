#pragma once

#include "views/chrome/app_settings.h"

#include <QMenu>

namespace topodeck {

// File › Recent Clusters: what AppSettings remembers, newest first, numbered for the keyboard,
// read again each time the menu opens (another window may have added to it); and Clear.
class RecentClustersMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentClustersMenu(QWidget* parent = nullptr);
    // Reads the list again (it also does so each time it opens).
    void refill();

Q_SIGNALS:
    void chosen(const topodeck::RecentCluster& cluster);
};

} // namespace topodeck
