#pragma once

#include "session/cluster_snapshot.h"

#include <QLabel>

namespace topodeck {

// The status bar's account of the source: a coloured state (Loading, Live, Reconnecting,
// Stale since 14:03:07, Error), the source's name and what it says; the tooltip lists a live
// cluster's resources one by one (synced, forbidden, not installed, ...).
class SourceStatusLabel : public QLabel {
    Q_OBJECT
public:
    explicit SourceStatusLabel(QWidget* parent = nullptr);

    void setStatus(const SourceStatus& status);
    const SourceStatus& status() const { return m_status; }

    // The state as shown, e.g. "Stale since 14:03:07" (local time).
    static QString stateText(const SourceStatus& status);

private:
    SourceStatus m_status;
};

} // namespace topodeck
