#pragma once

#include "session/cluster_snapshot.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace topodeck {

// The path of the domain the map is zoomed to, "Cluster › su-1 › rack-1-04", each part a button
// that zooms there; on the right, what the keyboard does in the map.
class MapBreadcrumbs : public QWidget {
    Q_OBJECT
public:
    explicit MapBreadcrumbs(QWidget* parent = nullptr);

    void setSnapshot(ClusterSnapshotPtr snapshot);
    void setFocusDomain(topodeck::DomainId id);
    // The parts as shown, root first (tests).
    QStringList parts() const;

Q_SIGNALS:
    void domainChosen(topodeck::DomainId id);

private:
    void rebuild();

    ClusterSnapshotPtr m_snapshot;
    DomainId m_focus = kRootDomain;
    QHBoxLayout* m_crumbs = nullptr;
    QLabel* m_hint = nullptr;
};

} // namespace topodeck
