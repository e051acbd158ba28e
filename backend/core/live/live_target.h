#pragma once

// Which live cluster to follow and how: plain descriptions that the command line, the connect
// dialog and the session fill in, and that the network sources (backend/net) act on.

#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <optional>
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

// How much a live source accepts from a server or a command before it refuses the answer with an
// error that names the limit, instead of growing memory without bound; and how slow an answer may
// arrive once it has begun. Sized for clusters of 100,000 nodes. Every limit can be raised with an
// environment variable of the same meaning (a number of bytes, or with KiB/MiB/GiB: "512MiB"),
// read by fromEnvironment(), which the options below default to.
struct ReadLimits {
    // One Kubernetes response read whole: a list page or a discovery document. A page holds
    // KubeSourceOptions::pageSize objects (2,000): 2,000 pods are some 5 MB, and 2,000 fat GPU
    // nodes (status.images, managedFields, many labels; 20-50 KB each) up to about 100 MB. The
    // limit gives that 2.5 times room, and bounds what a hostile page could be: 2,000 objects of
    // the 1.5 MiB etcd allows each, 3 GB. TOPODECK_MAX_KUBE_RESPONSE.
    std::size_t kubeResponse = std::size_t{256} << 20;
    // One watch event, a line of the watch stream holding one object. etcd refuses objects larger
    // than 1.5 MiB (--max-request-bytes) and the API server request bodies above 3 MiB, so no
    // honest event is near this. An event above it ends the watch, and the source relists.
    // TOPODECK_MAX_KUBE_EVENT.
    std::size_t kubeEvent = std::size_t{16} << 20;
    // One Slurm reply: slurmrestd's /nodes or /jobs, or the output of sinfo/squeue --json or
    // scontrol. The replies of tests/data/slurm are 2.6-3.3 KB per node and 9-20 KB per job as
    // slurmrestd and the commands print them (indented JSON): 100,000 nodes are about 330 MB, and
    // 1 GiB holds three times that, or a queue of some 100,000 jobs. TOPODECK_MAX_SLURM_REPLY.
    std::size_t slurmReply = std::size_t{1} << 30;
    // What a kubeconfig's exec credential plugin prints: an ExecCredential with a token or a
    // client certificate and key, a few KB. TOPODECK_MAX_CREDENTIAL_OUTPUT.
    std::size_t credentialOutput = std::size_t{1} << 20;
    // An answer that has begun (a list page or a slurmrestd reply from its first header byte on;
    // a watch event from its first byte to its newline) must bring at least lowSpeedLimit bytes
    // a second, averaged over lowSpeedTime, or it fails: a server that stalls or trickles
    // mid-body. A working server sends a begun answer at network speed (the API server writes an
    // event or a page at once), so 1 KiB/s only catches one that has stopped; 30 s rides out a
    // garbage-collection pause or a congested link. A watch's silence between events is not
    // checked: the server's timeoutSeconds bounds it. Commands have their deadline.
    std::size_t lowSpeedLimit = 1024;
    std::chrono::milliseconds lowSpeedTime{30000};

    // The defaults, with each TOPODECK_MAX_* variable that is set (and valid) over its limit.
    static ReadLimits fromEnvironment();
};

// The environment variables that raise each limit.
inline constexpr const char* kMaxKubeResponseVariable = "TOPODECK_MAX_KUBE_RESPONSE";
inline constexpr const char* kMaxKubeEventVariable = "TOPODECK_MAX_KUBE_EVENT";
inline constexpr const char* kMaxSlurmReplyVariable = "TOPODECK_MAX_SLURM_REPLY";
inline constexpr const char* kMaxCredentialOutputVariable = "TOPODECK_MAX_CREDENTIAL_OUTPUT";

// "16 MiB", "1 GiB", "64 KiB", "1000 bytes".
std::string describeByteSize(std::size_t bytes);
// "512MiB", "512M", "2 GiB", "65536": bytes; nullopt when it is none of these.
std::optional<std::size_t> parseByteSize(std::string_view text);
// "; raise it with TOPODECK_MAX_KUBE_EVENT (e.g. TOPODECK_MAX_KUBE_EVENT=32MiB)", twice the limit.
std::string raiseLimitHint(std::string_view variable, std::size_t limit);

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
    ReadLimits limits = ReadLimits::fromEnvironment();
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
    ReadLimits limits = ReadLimits::fromEnvironment();
};

} // namespace topodeck
