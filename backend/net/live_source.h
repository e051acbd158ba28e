#pragma once

#include "core/live/live_status.h"
#include "core/model/cluster_event.h"

#include <functional>
#include <vector>

namespace topodeck {

// A cluster followed live (a Kubernetes API server, a Slurm controller): it works on threads of
// its own and hands over what changed as ClusterEvents. The CLI drives one directly; the GUI's
// session drains it on its worker thread.
class LiveSource {
public:
    virtual ~LiveSource() = default;
    // Starts the source's threads. notify is called, from them, whenever events or the status
    // changed; it must be cheap and thread-safe (it typically wakes the consumer).
    virtual void start(std::function<void()> notify) = 0;
    // Stops every thread promptly (cancels requests in flight, interrupts waits) and joins them.
    virtual void stop() = 0;
    // The events since the last call, in order.
    virtual std::vector<ClusterEvent> takeEvents() = 0;
    virtual LiveStatus status() const = 0;
};

} // namespace topodeck
