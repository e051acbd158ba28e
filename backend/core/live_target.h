#pragma once

// Which live cluster to follow and how: plain descriptions that the command line, the connect
// dialog and the session fill in, and that the network sources (backend/net) act on.

#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace topodeck {

// Mirrors the TLS fields of a kubeconfig cluster/user: each PEM given either as a file or in memory.
struct TlsOptions {
    std::string caFile{};
    std::string caData{};
    std::string clientCertFile{};
    std::string clientCertData{};
    std::string clientKeyFile{};
    std::string clientKeyData{};
    // `tls-server-name`: the name sent as SNI and checked against the certificate, while the
    // connection still goes to the URL's host.
    std::string serverName{};
    bool insecureSkipVerify = false;
};

// Which live Kubernetes cluster to open, by kubectl's rules.
struct KubeTarget {
    std::string context;    // empty: the kubeconfig's current-context
    std::string kubeconfig; // empty: $KUBECONFIG, else ~/.kube/config
    bool inCluster = false; // the pod's service account instead of a kubeconfig
};

struct KubeSourceOptions {
    // Objects per list page. The API server spends tens of ms on a request before its first
    // object, so pages larger than client-go's 500 list a big cluster faster (50,000 pods: 3.5 s
    // instead of 4.4 s on the test server), and more so over a WAN; 2,000 pods are some 5 MB of
    // JSON (a few hundred KB gzipped). Larger pages cost memory and gained nothing more.
    std::size_t pageSize = 2000;
    std::chrono::milliseconds requestTimeout{60000}; // one list page or discovery request
    // Each watch asks the server to end it after a time drawn from [watchTimeout, 2 * watchTimeout),
    // as client-go's reflector does, so reconnects spread out.
    std::chrono::seconds watchTimeout{300};
    std::chrono::milliseconds backoffInitial{500};
    std::chrono::milliseconds backoffMax{30000};
    // Reconnecting longer than this makes the data stale.
    std::chrono::milliseconds staleAfter{15000};
    // How often a CRD that is not installed is looked for again.
    std::chrono::milliseconds rediscoverEvery{60000};
    // How often a list that was forbidden (403) is tried again, in case RBAC changed.
    std::chrono::milliseconds forbiddenRetry{60000};
};

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

} // namespace topodeck
