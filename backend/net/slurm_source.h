#pragma once

#include "core/live/live_target.h"
#include "core/result.h"
#include "core/slurm/slurm_topology.h"
#include "net/http_client.h"
#include "net/live_source.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace topodeck {

// A live Slurm cluster as ClusterEvents (see SlurmClusterMapper for the model): one thread polls
// nodes and jobs every pollInterval, through slurmrestd (asking with update_time, so an unchanged
// list costs a 304 and no parsing) or the CLI (sinfo --json, else scontrol show nodes; squeue
// --json; scontrol show topology), and emits only what changed. Failures back off; a source that had synced turns
// Reconnecting, then Stale after staleAfter, and recovers by itself. Bad credentials are
// Unauthorized: slurmrestd 22.05 answers a token slurmctld rejects with 500 "Unspecified error",
// which before the first sync (or with a token past its exp) is read as that.
class SlurmSource : public LiveSource {
public:
    explicit SlurmSource(SlurmTarget target, SlurmSourceOptions options = {});
    ~SlurmSource() override;
    SlurmSource(const SlurmSource&) = delete;
    SlurmSource& operator=(const SlurmSource&) = delete;

    void start(std::function<void()> notify) override;
    void stop() override;
    std::vector<ClusterEvent> takeEvents() override;
    LiveStatus status() const override;

    // The last full replies, as Slurm sent them (sinfo --json / GET nodes, squeue --json / GET
    // jobs), and the topology in use: what `topodeckctl snapshot` writes. Empty before the first
    // sync; no nodes either where they came from `scontrol show nodes` (sinfo without --json).
    struct Replies {
        std::shared_ptr<const std::string> nodes;
        std::shared_ptr<const std::string> jobs;
        std::shared_ptr<const SlurmTopology> topology;
    };
    Replies replies() const;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace topodeck
