#pragma once

#include "core/result.h"
#include "core/slurm/slurm_topology.h"
#include "net/http_client.h"
#include "net/live_source.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace topodeck {

// Which Slurm cluster to follow, and how.
struct SlurmTarget {
    enum class Kind { Rest, Cli };
    Kind kind = Kind::Cli;
    // Rest: http(s)://host:port[/prefix], or unix:/path/to/slurmrestd.sock (rest_auth/local).
    std::string url{};
    // JWT for X-SLURM-USER-TOKEN: a file holding it (read again when it changes), else $SLURM_JWT.
    // Not needed on a unix socket.
    std::string tokenFile{};
    // X-SLURM-USER-NAME; empty: the token's own user (its "sun" claim), else this process's user.
    std::string userName{};
    // REST API version to use ("v0.0.38"); empty: the newest the server offers that we read.
    std::string apiVersion{};
    TlsOptions tls{};
    // topology.conf or topology.yaml. Empty: the CLI asks `scontrol show topology`; slurmrestd
    // has no topology endpoint, so a REST source then has none (said in its status).
    std::string topologyFile{};
    std::string topologyName{}; // of a topology.yaml; empty: its cluster default
    // Cli: SLURM_CONF for the commands; empty: theirs.
    std::string slurmConf{};

    // "cli", or a REST URL ("http://...", "https://...", "unix:/..."); anything else is an error.
    static Result<SlurmTarget> fromArgument(std::string_view argument);
    // "slurmrestd http://10.0.0.5:6820", "Slurm CLI" (with "SLURM_CONF=..." when set).
    std::string describe() const;
};

struct SlurmSourceOptions {
    std::chrono::milliseconds pollInterval{5000};
    std::chrono::milliseconds requestTimeout{30000}; // one HTTP request or one command
    std::chrono::milliseconds staleAfter{15000};     // failing this long: the data is stale
    std::chrono::milliseconds backoffInitial{500};
    std::chrono::milliseconds backoffMax{30000};
    std::chrono::milliseconds topologyEvery{60000}; // how often the topology is read again
};

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
