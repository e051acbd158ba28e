#pragma once

#include "session/cluster_snapshot.h"

#include <QLabel>

namespace topodeck {

// The status bar's one-line summary of the whole cluster: GPUs used of total, free, and how many
// nodes are not ready; "occupancy unknown" when the source cannot tell what is used.
class ClusterTotalsLabel : public QLabel {
    Q_OBJECT
public:
    explicit ClusterTotalsLabel(QWidget* parent = nullptr);
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
};

} // namespace topodeck
