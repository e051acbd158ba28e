#pragma once

#include "core/cluster_event.h"
#include "core/live_status.h"
#include "core/result.h"
#include "net/kubeconfig.h"
#include "net/kube_source.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace topodeck::cli {

// Which live Kubernetes cluster: --context, --kubeconfig, --in-cluster.
struct LiveTarget {
    std::string context;    // empty: the kubeconfig's current-context
    std::string kubeconfig; // empty: $KUBECONFIG, else ~/.kube/config
    bool inCluster = false;

    // The connection by kubectl's rules; kubeconfig warnings go to stderr.
    Result<KubeConnection> resolve() const;
};

// A running KubeSource as a command sees it: wait for news, take the events, read the status.
class LiveConnection {
public:
    static Result<std::unique_ptr<LiveConnection>> open(const LiveTarget& target);
    ~LiveConnection();

    // Waits until every resource has been listed (Synced), handing events to apply() as they
    // come. Fails when the source reports Error, or when it is not synced within `timeout`
    // (the message then says what it is waiting for). Shows progress on stderr when it is a tty.
    template <class Apply> Status waitForSync(std::chrono::milliseconds timeout, Apply&& apply) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        std::optional<Status> outcome;
        while (!outcome) {
            for (ClusterEvent& event : takeEvents()) apply(std::move(event));
            const LiveStatus now = status();
            if (now.state == LinkState::Synced)
                outcome = Status{};
            else if (now.state == LinkState::Error)
                outcome = Status{Error{failureText(now)}};
            else if (std::chrono::steady_clock::now() >= deadline)
                outcome = Status{Error{"not synced after " + std::to_string(timeout.count() / 1000) +
                                       " s: " + failureText(now)}};
            else {
                showProgress(now);
                waitForNews(std::chrono::milliseconds(250));
            }
        }
        endProgress();
        return *outcome;
    }

    // Sleeps until the source has news or `timeout` passes; true when there is news.
    bool waitForNews(std::chrono::milliseconds timeout);
    std::vector<ClusterEvent> takeEvents() { return m_source->takeEvents(); }
    LiveStatus status() const { return m_source->status(); }

    const KubeConnection& connection() const { return m_connection; }
    // Ends the watches; what was taken stays taken.
    void stop() { m_source->stop(); }

private:
    explicit LiveConnection(KubeConnection connection);
    std::string failureText(const LiveStatus& status) const;
    void showProgress(const LiveStatus& status);
    void endProgress();

    KubeConnection m_connection;
    std::unique_ptr<KubeSource> m_source;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_news = false;
    bool m_progressShown = false;
};

} // namespace topodeck::cli
