#pragma once

#include "session/cluster_snapshot.h"

#include <QToolBar>

namespace topodeck {

class WhatIfBanner;

// A band across the window, above the tree and the map, while they show a what-if: the
// WhatIfBanner in a toolbar of its own, which cannot be moved, floated or hidden from a menu.
class WhatIfBar : public QToolBar {
    Q_OBJECT
public:
    explicit WhatIfBar(QWidget* parent = nullptr);

    WhatIfBanner* banner() const { return m_banner; }
    // Shown for a hypothetical snapshot only.
    void setSnapshot(const ClusterSnapshotPtr& snapshot);

private:
    WhatIfBanner* m_banner;
};

} // namespace topodeck
