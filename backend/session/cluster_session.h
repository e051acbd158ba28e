#pragma once

#include "core/changes/change_journal.h"
#include "core/changes/change_plan.h"
#include "core/changes/plan_apply.h"
#include "core/changes/relabel_plan.h"
#include "core/changes/topology_diff.h"
#include "core/exports/topology_exports.h"
#include "core/live_target.h"
#include "core/placement/gangs_report.h"
#include "core/placement/plan_query.h"
#include "core/placement/review_bundle.h"
#include "core/placement/what_if_sequence.h"
#include "core/topology_presets.h"
#include "session/cluster_snapshot.h"

#include <QMutex>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <cstdint>

namespace topodeck {

class SessionWorker;

using GangsReportPtr = std::shared_ptr<const GangsReport>;

// A dry-run's answer on the state it ran on: the outcome, or why the request cannot run.
struct PlanAnswer {
    std::uint64_t generation = 0; // as ClusterSnapshot::generation
    std::string error;            // the request's fault, in topodeckctl plan's words; else ""
    PlanOutcome outcome;
    // Per result: the nodes it uses and the pods on each, for the map.
    std::vector<std::vector<std::pair<NodeId, std::int32_t>>> nodePods;
    std::string json; // what `topodeckctl plan -o json` prints for the same request
};
using PlanAnswerPtr = std::shared_ptr<const PlanAnswer>;

// The pods holding resources on one node (a Slurm cluster's: its jobs' allocations), read through
// the state's per-node index when asked: the snapshot carries no pods.
struct NodePodsAnswer {
    NodeId node = 0;
    std::uint64_t generation = 0; // as ClusterSnapshot::generation
    std::uint64_t sourceEpoch = 0;
    std::vector<Pod> pods; // by namespace, then name, in natural order
};
using NodePodsPtr = std::shared_ptr<const NodePodsAnswer>;
// A what-if applied to the current state: the hypothetical cluster and what each step did.
struct WhatIfAnswer {
    std::uint64_t liveGeneration = 0;     // the live state it was applied to (as ClusterSnapshot::generation)
    ClusterSnapshotPtr snapshot;          // hypothetical(); null when no cluster is open
    std::vector<WhatIfStepOutcome> steps; // one per step, in order
    std::vector<GangFailure> failures;    // every Fail step's broken gangs, in step order
    std::vector<NodeId> changedNodes;     // the nodes the steps drained, failed or placed pods on
    std::string error;                    // why nothing could be applied (no cluster open), else ""
};
using WhatIfAnswerPtr = std::shared_ptr<const WhatIfAnswer>;

// Files for review from the current state (the export dialog's choice), made and written on the
// worker thread: a review bundle, or some of the hierarchy's forms.
struct ExportRequest {
    std::string folder;
    bool bundle = false;
    // Without bundle: any of "kueue", "kai", "hypernodes", "topology.conf", "topology.yaml",
    // "labels", "map" (map.svg).
    std::vector<std::string> formats;
    std::string planFile;          // bundle: a change plan file to bundle, read on the worker; "" none
    std::optional<PlanQuery> gang; // bundle: a gang to dry-run before and after
    std::string source;            // bundle: where the cluster was read, for its README
    TopologyExportOptions options;
};
struct ExportAnswer {
    std::vector<std::string> written; // paths, in order
    std::vector<std::string> warnings; // forms left out, and why
    std::string error;                 // why nothing was written; else ""
};
using ExportAnswerPtr = std::shared_ptr<const ExportAnswer>;

// A change plan seen against the current state (the changes page's preview), on the worker thread.
struct ChangePreviewRequest {
    ChangePlan plan;
    // Resolve the plan's operations again on the current state, new preconditions and all (a
    // plan being made); otherwise the plan keeps the values it found (a file's, an undo's).
    bool resolve = true;
    std::string planFile;          // read the plan from this file instead (not resolved); "" none
    std::string undoJournal;       // or preview the plan that undoes this journal's apply; "" none
    std::string saveTo;            // also write the plan there; "" none
    std::optional<PlanQuery> gang; // dry-run before and after
    // The plan's operations made by the relabel generator on the hierarchy shown (then resolved).
    std::optional<RelabelRequest> relabel;
    // plan.objectChanges (HyperNodes, Topologies, ResourceFlavors) go with the labels or alone;
    // resolved, each is planned again on the current state (objectChangeTo of its `after`): its
    // precondition the object as it is now, dropped when the object already is what it asks.
};
struct ChangePreview {
    std::string error;          // the plan does not read, resolve or save: nothing else is set
    std::string saved;          // the file written, if asked
    ChangePlan plan;            // as resolved
    TopologyDiff diff;
    std::vector<std::string> drift; // planDrift: what an apply now would refuse
    std::string text;               // what `topodeckctl diff` prints
    std::optional<GangDryRuns> gang;
    std::string gangError;          // the gang's request is wrong; else ""
    std::string relabelCheck;       // for a relabel: whether its labels, read as levels, give the same tree
    bool relabelFaithful = true;
    std::vector<NodeId> nodes;      // the nodes it changes, for the map
    std::string target;             // where an apply goes ("context prod"); "" when it cannot
    std::string cannotApply;        // why this source takes no apply ("a demo"), else ""
};
using ChangePreviewPtr = std::shared_ptr<const ChangePreview>;

// The current state's topology objects, for the object editors (HyperNodes, Kueue and KAI
// Topologies, ResourceFlavors): taken on the worker thread, so the GUI thread reads no state.
struct TopologyObjectsAnswer {
    std::uint64_t generation = 0; // as ClusterSnapshot::generation
    std::uint64_t sourceEpoch = 0;
    // A state holding only the cluster's topology objects (no nodes, no pods): what the editors
    // plan their ObjectChanges against (objectChangeTo), as the worker's own state holds them.
    ClusterState objects;
    // The hierarchy shown, as Volcano HyperNodes (hyperNodesFromIndex): where a HyperNode tree
    // can start from when the cluster has none.
    std::vector<HyperNode> fromHierarchy;
    std::vector<std::string> labelKeys; // every label key the present nodes carry, sorted
    std::string error;                  // no cluster is open; else ""
};
using TopologyObjectsPtr = std::shared_ptr<const TopologyObjectsAnswer>;

// An apply of a change plan to the current Kubernetes cluster: the drift check on the state the
// worker holds, then the server's dry run and the batches on a thread of their own.
struct ApplyRequest {
    ChangePlan plan;
    bool dryRunOnly = false;
    std::string journalFile; // required unless dryRunOnly
    std::size_t batchSize = 200;
};
struct ApplyAnswer {
    std::string target;  // "context prod"
    std::string refused; // refused before anything was sent (drift, no cluster, the journal); else ""
    ApplyResult result;
    std::vector<std::pair<std::string, std::string>> refusals; // node, outcome: what the server said
    std::string journalFile;                                    // written (not for a dry run)
    std::string journalProblem;
};
using ApplyAnswerPtr = std::shared_ptr<const ApplyAnswer>;

// One cluster source seen from the GUI or the CLI. All source work (demo generation, file
// reading, a live cluster's list and watch, event application, the demo simulator) runs off the
// caller's thread: on a worker thread the session owns (and, for a live cluster, the source's own
// network threads); the
// results come back as immutable snapshots, at most one per 100 ms, delivered queued on the
// session's own thread. A failing open reports an Error status and keeps what was shown before.
class ClusterSession : public QObject {
    Q_OBJECT
public:
    explicit ClusterSession(QObject* parent = nullptr);
    ~ClusterSession() override;

    // Asynchronous; a newer open supersedes one still in progress.
    void openDemo(const QString& name);
    void openFile(const QString& path);
    // A live Kubernetes cluster: the kubeconfig context (empty: the current one) of `kubeconfig`
    // (empty: KUBECONFIG or ~/.kube/config, as kubectl finds it), or the pod's service account.
    // Shown once listed, then followed through its watches; the status says how it is doing.
    void openKubernetes(const QString& context, const QString& kubeconfig = QString(), bool inCluster = false);

    // A live Slurm cluster (slurmrestd or the Slurm commands), shown once polled, then followed.
    void openSlurm(const SlurmTarget& target);

    // Applies to the next open. Empty name and keys = automatic: a demo uses its own spec, a file
    // or a live cluster what resolveTopology() picks.
    // gpuResources: comma-separated resource names counted as GPUs (a trailing '*' matches a
    // prefix); empty = nvidia.com/gpu.
    // slurmTopologyFile: a topology.conf / topology.yaml read beside a snapshot file.
    void setTopologyChoice(const QString& topologyName, const QStringList& levelKeys,
                           const QString& gpuResources = QString(), const QString& slurmTopologyFile = QString());

    // Timings of the next live source (backoff, when reconnecting turns stale, ...).
    void setLiveSourceOptions(const KubeSourceOptions& options);
    void setSlurmSourceOptions(const SlurmSourceOptions& options);

    // The demo simulator (demo sources only; off by default).
    void setSimulationEnabled(bool on);
    bool simulationEnabled() const;
    void setSimulationInterval(int ms); // default 1000 ms; shorter in tests

    // The running gangs of the current source and the domains each spans (the snapshot has no
    // pods), computed on the worker thread; gangsReportReady follows. A newer request supersedes
    // one not yet answered, whose report is dropped. With no source the report is empty.
    void requestGangsReport();
    // A dry-run on the current state, on the worker thread; planAnswered follows. A newer request
    // supersedes one not yet run. The engines follow the newest Slurm rules unless the query says.
    void requestPlan(const PlanQuery& query);
    // The pods on one node, on the worker thread (O(pods on the node)); nodePodsReady follows. A
    // newer request supersedes one not yet answered.
    void requestNodePods(NodeId node);
    // Writes files for review from the current state, on the worker thread; exportFinished follows.
    void requestExport(const ExportRequest& request);

    // A change plan resolved on and compared with the current state, on the worker thread;
    // changePreviewReady follows. A newer request supersedes one not yet answered.
    void requestChangePreview(const ChangePreviewRequest& request);
    // The current state's topology objects, on the worker thread; topologyObjectsReady follows.
    // A newer request supersedes one not yet answered.
    void requestTopologyObjects();
    // Applies a plan to the current Kubernetes cluster (writing: the caller has the operator's
    // word for it); applyProgressed after each batch, applyFinished at the end. One at a time:
    // another request while one runs is refused in its answer.
    void requestApply(const ApplyRequest& request);
    // Stops a running apply before its next batch; what was applied stays in the journal.
    void cancelApply();

    // A what-if on the current state, on the worker thread: the steps applied in order to a copy
    // (applyWhatIfSteps); whatIfAnswered follows with a snapshot marked hypothetical, and again
    // whenever a newer live snapshot is published, until clearWhatIf(). snapshotPublished keeps
    // carrying the live cluster meanwhile. A newer request replaces the steps.
    void requestWhatIf(const std::vector<WhatIfStep>& steps, const EngineOptions& options = {});
    // Back to the live cluster: no more answers; whatIfCleared follows at once. Opening another
    // source clears it too.
    void clearWhatIf();
    bool whatIfActive() const { return m_whatIfActive; }

    // Safe to call from any thread.
    ClusterSnapshotPtr latestSnapshot() const;
    SourceStatus status() const;

Q_SIGNALS:
    void snapshotPublished(topodeck::ClusterSnapshotPtr snapshot);
    void statusChanged(const topodeck::SourceStatus& status);
    // generation: the ClusterState generation the report describes (as ClusterSnapshot::generation).
    void gangsReportReady(topodeck::GangsReportPtr report, quint64 generation);
    void planAnswered(topodeck::PlanAnswerPtr answer);
    void nodePodsReady(topodeck::NodePodsPtr answer);
    void exportFinished(topodeck::ExportAnswerPtr answer);
    void changePreviewReady(topodeck::ChangePreviewPtr preview);
    void topologyObjectsReady(topodeck::TopologyObjectsPtr objects);
    void applyProgressed(quint64 changesDone, quint64 changesTotal);
    void applyFinished(topodeck::ApplyAnswerPtr answer);
    void whatIfAnswered(topodeck::WhatIfAnswerPtr answer);
    void whatIfCleared();

private:
    void receiveSnapshot(const ClusterSnapshotPtr& snapshot);
    void receiveStatus(const SourceStatus& status);

    std::atomic<std::uint64_t> m_latestRequest{0}; // read by the worker; outlives it
    std::atomic<std::uint64_t> m_latestGangsRequest{0}; // likewise, for gangs reports
    std::atomic<std::uint64_t> m_latestPlanRequest{0};  // and for dry-runs
    std::atomic<std::uint64_t> m_latestNodePodsRequest{0}; // and for a node's pods
    std::atomic<std::uint64_t> m_latestWhatIfRequest{0}; // and for what-ifs (a clear counts as one)
    std::atomic<std::uint64_t> m_latestChangeRequest{0}; // and for change previews
    std::atomic<std::uint64_t> m_latestObjectsRequest{0}; // and for topology objects
    std::shared_ptr<std::atomic<bool>> m_applyCancel;    // the running apply's
    bool m_whatIfActive = false;
    QThread m_thread;
    SessionWorker* m_worker = nullptr; // lives on m_thread, deleted when it finishes

    HierarchyChoice m_choice;
    bool m_simulationEnabled = false;

    mutable QMutex m_mutex; // guards the two below
    ClusterSnapshotPtr m_latest;
    SourceStatus m_status;
};

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::GangsReportPtr)
Q_DECLARE_METATYPE(topodeck::PlanAnswerPtr)
Q_DECLARE_METATYPE(topodeck::NodePodsPtr)
Q_DECLARE_METATYPE(topodeck::WhatIfAnswerPtr)
Q_DECLARE_METATYPE(topodeck::ExportAnswerPtr)
Q_DECLARE_METATYPE(topodeck::ChangePreviewPtr)
Q_DECLARE_METATYPE(topodeck::ApplyAnswerPtr)
Q_DECLARE_METATYPE(topodeck::TopologyObjectsPtr)
