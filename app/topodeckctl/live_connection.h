#pragma once

#include "core/live/live_status.h"
#include "core/model/cluster_event.h"
#include "core/result.h"
#include "net/kube_credentials.h"
#include "net/kube_source.h"
#include "net/kubeconfig.h"
#include "net/slurm_source.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace topodeck::cli {

// Which live cluster: Kubernetes (--context, --kubeconfig, --in-cluster) or Slurm (--slurm).
struct LiveTarget {
    std::string context;    // empty: the kubeconfig's current-context
    std::string kubeconfig; // empty: $KUBECONFIG, else ~/.kube/config
    bool inCluster = false;
    std::optional<SlurmTarget> slurm; // set: a Slurm cluster, and the fields above do not apply
    std::chrono::milliseconds slurmPoll{5000};

    // The connection by kubectl's rules; kubeconfig warnings go to stderr.
    Result<KubeConnection> resolve() const;
};

// Credentials for a command that writes (apply, undo) on a connection a LiveConnection resolved;
// a credential plugin may ask the person at this terminal.
std::shared_ptr<KubeCredentials> kubeCredentials(const KubeConnection& connection);

// A running live source as a command sees it: wait for news, take the events, read the status.
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
            if (now.state == LinkState::Synced) {
                // Sources publish events before they say synced: what arrived between the take
                // above and the status is taken now, or a one-shot command would show less.
                for (ClusterEvent& event : takeEvents()) apply(std::move(event));
                outcome = Status{};
            } else if (now.state == LinkState::Error) {
                outcome = Status{Error{failureText(now)}};
            } else if (std::chrono::steady_clock::now() >= deadline) {
                outcome = Status{Error{"not synced after " + std::to_string(timeout.count() / 1000) +
                                       " s: " + failureText(now)}};
            } else {
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

    // "context prod · https://10.0.0.1:6443" / "slurmrestd http://..." for people; "context:prod"
    // / "slurm:cli" for JSON; what errors start with ("context \"prod\"").
    std::string describe(bool forPeople) const;
    std::string errorPrefix() const;
    // The Slurm source, for what only it has (its raw replies); nullptr for Kubernetes.
    const SlurmSource* slurmSource() const { return m_slurm; }
    const SlurmTarget* slurmTarget() const { return m_slurmTarget ? &*m_slurmTarget : nullptr; }
    // The Kubernetes connection as resolved (empty for Slurm).
    const KubeConnection& kubeConnection() const { return m_connection; }
    // Ends the watches; what was taken stays taken.
    void stop() { m_source->stop(); }

private:
    LiveConnection() = default;
    std::string failureText(const LiveStatus& status) const;
    void showProgress(const LiveStatus& status);
    void endProgress();

    KubeConnection m_connection; // Kubernetes only
    std::optional<SlurmTarget> m_slurmTarget;
    std::unique_ptr<LiveSource> m_source;
    const SlurmSource* m_slurm = nullptr;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_news = false;
    bool m_progressShown = false;
};

} // namespace topodeck::cli
