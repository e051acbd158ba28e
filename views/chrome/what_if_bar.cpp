#include "views/chrome/what_if_bar.h"

#include "views/chrome/what_if_banner.h"

#include <QAction>

namespace topodeck {

WhatIfBar::WhatIfBar(QWidget* parent) : QToolBar(tr("What-If"), parent), m_banner(new WhatIfBanner(this)) {
    setObjectName(QStringLiteral("whatIfBar"));
    setMovable(false);
    setFloatable(false);
    toggleViewAction()->setVisible(false);
    addWidget(m_banner);
}

void WhatIfBar::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    m_banner->setSnapshot(snapshot);
    setVisible(m_banner->active());
}

} // namespace topodeck
