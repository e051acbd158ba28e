#pragma once

#include "session/cluster_snapshot.h"

#include <QLabel>

namespace topodeck {

// A band above the map, shown only when the picture needs a word: when it cannot be trusted for
// occupancy (a live cluster whose pods cannot be listed: the GPUs drawn as free may be in use), or
// when the hierarchy is not the cluster's own (no topology found: what was looked for).
class OccupancyNotice : public QLabel {
    Q_OBJECT
public:
    explicit OccupancyNotice(QWidget* parent = nullptr);
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
};

} // namespace topodeck
