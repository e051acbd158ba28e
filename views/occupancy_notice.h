#pragma once

#include "session/cluster_snapshot.h"

#include <QLabel>

namespace topodeck {

// A band above the map, shown only when the picture cannot be trusted for occupancy (a live
// cluster whose pods cannot be listed): it says why, and that the GPUs drawn as free may be in use.
class OccupancyNotice : public QLabel {
    Q_OBJECT
public:
    explicit OccupancyNotice(QWidget* parent = nullptr);
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
};

} // namespace topodeck
