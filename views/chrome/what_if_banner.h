#pragma once

#include "session/cluster_snapshot.h"

#include <QFrame>

class QLabel;

namespace topodeck {

// A band across the window while the views show a what-if rather than the live cluster: how many
// steps are applied, and the way back. The window shows it while active() (it sits in a toolbar,
// whose layout owns its visibility).
class WhatIfBanner : public QFrame {
    Q_OBJECT
public:
    explicit WhatIfBanner(QWidget* parent = nullptr);
    // Active for a hypothetical snapshot, not for a live one (or none).
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
    bool active() const { return m_active; }
    QString text() const; // empty when not active

Q_SIGNALS:
    void resetRequested();

private:
    QLabel* m_text = nullptr;
    bool m_active = false;
};

} // namespace topodeck
