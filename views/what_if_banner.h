#pragma once

#include "session/cluster_snapshot.h"

#include <QFrame>

class QLabel;

namespace topodeck {

// A band across the window while the views show a what-if rather than the live cluster: how many
// steps are applied, and the way back. Hidden for live snapshots.
class WhatIfBanner : public QFrame {
    Q_OBJECT
public:
    explicit WhatIfBanner(QWidget* parent = nullptr);
    // Shows the band for a hypothetical snapshot, hides it for a live one (or none).
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
    QString text() const;

Q_SIGNALS:
    void resetRequested();

private:
    QLabel* m_text = nullptr;
};

} // namespace topodeck
