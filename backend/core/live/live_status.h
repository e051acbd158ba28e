#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// How a live source (a Kubernetes API server, Slurm) is doing as a whole, from good to bad: the
// whole is as bad as its worst part.
enum class LinkState {
    Synced,       // everything listed, every watch running
    Connecting,   // the first list of everything is not complete yet
    Reconnecting, // a watch was lost and is being re-established; the data may lag
    Stale,        // reconnecting for longer than the source's patience: the data is as of `since`
    Error,        // nothing usable: no connection, bad credentials, no permission to list nodes
};

// One kind of object a live source lists and watches.
struct ResourceHealth {
    enum class State {
        Waiting,      // not asked yet
        Listing,      // listing (again, after a 410 or a reconnect, when everSynced)
        Synced,       // listed and watched
        Reconnecting, // the watch was lost; retrying
        NotInstalled, // a CRD that the cluster does not have (404 on discovery): simply absent
        Forbidden,    // 403: no permission to list it
        Unauthorized, // 401: the server does not accept the credentials
        Unreachable,  // no answer at all (connection refused, TLS, timeout) before it ever synced; retrying
        Failing,      // the server answers with errors (5xx, 429, unreadable data); retrying
    };
    std::string resource; // "pods", "topologies.kueue.x-k8s.io"
    std::string title;    // for people: "pods", "Kueue Topologies"
    State state = State::Waiting;
    std::string message;  // what went wrong and what it means, e.g. "no permission to list pods: occupancy unavailable"
    std::chrono::milliseconds retryIn{0}; // failing, unreachable or reconnecting: the wait before the next try
    std::size_t objects = 0;
    bool required = false; // nothing can be shown without it (nodes)
    bool everSynced = false;
    // When the current state began; for a resource that had synced, when it stopped being live.
    std::chrono::system_clock::time_point since{};
};

struct LiveStatus {
    LinkState state = LinkState::Connecting;
    std::chrono::system_clock::time_point since{}; // when `state` began; for Stale, when the data stopped
    std::string message;                           // the main problem, or empty
    std::chrono::milliseconds retryIn{0};          // when the source tries again for it; 0: not retrying
    std::string origin;                            // e.g. "context prod (https://10.0.0.1:6443)"
    std::vector<ResourceHealth> resources;
    // What people should know about the data even when all is well, e.g. that a Slurm source
    // has no topology, or nodes the topology does not place.
    std::vector<std::string> notes;
    // The version the server says it runs, as it says it ("22.05.8" in slurmrestd's meta or
    // slurmctld's `scontrol show config`, "slurm-wlm 22.05.8" from sinfo --version), and where that
    // was read ("slurmrestd", "slurmctld (scontrol show config)", or the command's own when
    // slurmctld's could not be read); both empty when unknown.
    std::string serverVersion;
    std::string serverVersionSource;
};

// The whole from its parts (see LinkState): the most severe part, the earliest of equals. An
// unauthorized resource, or a required one that is forbidden or was never reachable, is an
// Error; one that never synced is Connecting; one that stopped being live is Reconnecting, then
// Stale once that lasted staleAfter. Sets state, since (syncedAt when all is well), message and
// retryIn from status.resources.
void aggregateResourceHealth(LiveStatus& status, std::chrono::system_clock::time_point syncedAt,
                             std::chrono::milliseconds staleAfter, std::chrono::system_clock::time_point now);
// A resource's new state; false when nothing changed. `since` moves when the resource becomes
// live or stops being live (or changes state before it ever synced), so that a reconnect that
// keeps failing is stale from when the data stopped.
bool updateResourceHealth(ResourceHealth& health, ResourceHealth::State state, std::string message,
                          std::chrono::milliseconds retryIn);

std::string_view linkStateName(LinkState state);              // "synced", "stale", ...
std::string_view resourceStateName(ResourceHealth::State state); // "forbidden", "not installed", ...
// "stale since 14:03:07 (UTC)" and the like, one line for people.
std::string describeLinkState(const LiveStatus& status);
// The message with when it is tried again: "nodes: watch lost: ...; retrying in 2.0 s".
std::string withRetry(const std::string& message, std::chrono::milliseconds retryIn);
// The resources with a lasting problem of their own (no permission, failing, unreachable), e.g.
// "pods: no permission to list pods: occupancy unavailable"; a lost watch is the link's state.
std::vector<std::string> resourceProblems(const LiveStatus& status);
// An RFC 3339 UTC timestamp, as Kubernetes writes them.
std::string formatUtc(std::chrono::system_clock::time_point time);

} // namespace topodeck
