#pragma once

#include "core/live/live_status.h"
#include "core/model/cluster_state.h"
#include "core/model/node.h"
#include "core/topology/compute_domain_usage.h"
#include "core/topology/topology_index.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace topodeck {

// How the source behind a session is doing, as the status bar shows it.
enum class SourceHealth {
    Connecting,   // loading, or listing a live cluster for the first time
    Live,         // loaded; a live cluster is synced and watched
    Reconnecting, // a live cluster's watch was lost; the data may lag
    Stale,        // reconnecting for long: the data is as of `since`
    Error,        // the open failed (what was shown before stays)
};

struct SourceStatus {
    QString sourceName = {}; // e.g. "demo gb200", "file cluster.yaml", "context prod"
    SourceHealth health = SourceHealth::Connecting;
    QString detail = {};                        // e.g. the error text, or "simulator running"
    std::vector<std::string> warnings = {};     // things the source skipped, could not read or may not list
    QDateTime since = {};                       // when `health` began (for Stale: when the data stopped)
    std::vector<ResourceHealth> resources = {}; // a live source's resources, each with its own state
    // The Slurm release the source says it runs ("22.05.8": slurmctld's, slurmrestd's, or a
    // snapshot's slurm-version.txt) and where that comes from for people ("the version slurmctld
    // (scontrol show config) reports"); empty when it does not say. The Slurm engines follow it.
    std::string slurmVersion = {};
    std::string slurmVersionOrigin = {};

    // Why the GPUs in use are not known (a live source that may not, or cannot, list pods), or
    // empty when they are: every GPU then looks free though the cluster may be using it.
    QString occupancyProblem() const;
};

// An immutable picture of the cluster that the GUI thread reads while sources keep working.
struct ClusterSnapshot {
    std::uint64_t generation = 0; // ClusterState generation it was taken at
    // Counts successful opens in a session, so a consumer can tell "same source, newer data"
    // (equal epoch) from "another cluster" (the generation restarts with each source).
    std::uint64_t sourceEpoch = 0;
    QString title;                                  // what the data is, e.g. the demo's title or the file path
    TopologyIndex index;                            // the domain tree with aggregates
    std::vector<std::shared_ptr<const Node>> nodes; // by NodeId; null where the slot is not present
    std::size_t podCount = 0;
    // NVIDIA ComputeDomains with their nodes, cliques and NVLink domains (the map marks those).
    std::vector<ComputeDomainUsage> computeDomains;
    // The session's status when this was published; after a failed open it is that error while
    // the data (and title) still describe the source opened before.
    SourceStatus status;
    // Not the live cluster but a what-if on it (ClusterSession::requestWhatIf): the steps applied,
    // one line each ("Fail su-1/rack-1-02"). Empty for the live cluster.
    QStringList hypotheticalSteps;

    bool hypothetical() const { return !hypotheticalSteps.isEmpty(); }
    const Node* node(NodeId id) const { return id < nodes.size() ? nodes[id].get() : nullptr; }
};

using ClusterSnapshotPtr = std::shared_ptr<const ClusterSnapshot>;

// Takes a snapshot of a source's state and index. Cheap next to the source's own work: node
// objects are shared, not copied.
ClusterSnapshotPtr makeClusterSnapshot(const ClusterState& state, const TopologyIndex& index, SourceStatus status = {},
                                       QString title = {}, std::uint64_t sourceEpoch = 0);

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::ClusterSnapshotPtr)
Q_DECLARE_METATYPE(topodeck::SourceStatus)
