#pragma once
// Shared by the integration tests that follow a live cluster through a ClusterSession.

#include "session/cluster_session.h"

#include <QElapsedTimer>
#include <QtTest>

#include <functional>

namespace topodeck::testing {

// Waits (up to 30 s, the events flowing) for a snapshot that satisfies `done`; the last snapshot
// seen goes to `last`, whether or not one did.
inline bool waitForSnapshot(ClusterSession& session, const std::function<bool(const ClusterSnapshot&)>& done,
                            ClusterSnapshotPtr* last = nullptr) {
    constexpr int kWaitMs = 30000;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < kWaitMs) {
        const ClusterSnapshotPtr snapshot = session.latestSnapshot();
        if (snapshot && done(*snapshot)) {
            if (last) *last = snapshot;
            return true;
        }
        QTest::qWait(20);
    }
    if (last) *last = session.latestSnapshot();
    return false;
}

} // namespace topodeck::testing
