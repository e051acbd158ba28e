#pragma once

#include "session/cluster_snapshot.h"

#include <QObject>

class QLabel;
class QStatusBar;
class QWidget;

namespace topodeck {

class ClusterTotalsLabel;
class OccupancyNotice;
class OpenFailureBanner;
class SourceStatusLabel;

// What a window says about its source around the views: in the status bar the source's state,
// the cluster's totals and its warnings; above the map what could not be opened and what the
// picture cannot be trusted for. It keeps the snapshot shown so that a source failing to open
// beside it does not replace what the status bar says about it.
class StatusWarnings : public QObject {
    Q_OBJECT
public:
    // The status bar gets its parts now; the bands are made in bandParent for the window to place.
    StatusWarnings(QStatusBar* statusBar, QWidget* bandParent, QObject* parent = nullptr);

    OpenFailureBanner* openFailureBanner() const { return m_openFailure; }
    OccupancyNotice* occupancyNotice() const { return m_notice; }

    // Every view shows this snapshot; a newly opened source clears what failed before it.
    void showSnapshot(const ClusterSnapshotPtr& snapshot, bool newSource);
    void showStatus(const SourceStatus& status);
    // `source` could not be opened because of `message`; the band says what is still shown.
    void showOpenFailure(const QString& source, const QString& message);

private:
    ClusterSnapshotPtr m_shown;
    SourceStatusLabel* m_stateLabel;
    ClusterTotalsLabel* m_totalsLabel;
    QLabel* m_warningsLabel;
    OpenFailureBanner* m_openFailure; // above the map: what could not be opened, and why
    OccupancyNotice* m_notice;        // above the map: what the picture cannot be trusted for
};

} // namespace topodeck
