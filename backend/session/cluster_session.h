#pragma once

#include "core/live/live_target.h"
#include "core/topology/topology_presets.h"
#include "session/cluster_snapshot.h"
#include "session/session_requests.h"

#include <QMutex>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <cstdint>

namespace topodeck {

class SourceWorker;
class RequestWorker;
class ApplyWorker;

// One cluster source seen from the GUI or the CLI. All source work (demo generation, file
// reading, a live cluster's list and watch, event application, the demo simulator) runs off the
// caller's thread, on the session's source thread (and, for a live cluster, the source's own
// network threads); the results come back as immutable snapshots, at most one per 100 ms,
// delivered queued on the session's own thread. Requests (dry-runs, reports, previews, exports,
// what-ifs) run on a thread of their own over a copy of the cluster, so the two never wait for
// each other; an apply is sent from a third. A failing open reports an Error status and keeps
// what was shown before.
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
    // gpuClasses: comma-separated DRA DeviceClasses whose devices count as GPUs; empty = gpu.nvidia.com.
    void setTopologyChoice(const QString& topologyName, const QStringList& levelKeys,
                           const QString& gpuResources = QString(), const QString& slurmTopologyFile = QString(),
                           const QString& gpuClasses = QString());

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

    std::atomic<std::uint64_t> m_latestRequest{0};         // read by the worker; outlives it
    std::atomic<std::uint64_t> m_latestGangsRequest{0};    // likewise, for gangs reports
    std::atomic<std::uint64_t> m_latestPlanRequest{0};     // and for dry-runs
    std::atomic<std::uint64_t> m_latestNodePodsRequest{0}; // and for a node's pods
    std::atomic<std::uint64_t> m_latestWhatIfRequest{0};   // and for what-ifs (a clear counts as one)
    std::atomic<std::uint64_t> m_latestChangeRequest{0};   // and for change previews
    std::atomic<std::uint64_t> m_latestObjectsRequest{0};  // and for topology objects
    std::shared_ptr<std::atomic<bool>> m_applyCancel;      // the running apply's
    std::atomic<std::uint64_t> m_changeCount{0};           // the source's changes, as SourceWorker counts them
    std::atomic<bool> m_applying{false};                   // an apply runs on m_applyThread
    bool m_whatIfActive = false;
    // Each worker lives on its thread and is deleted there when it finishes.
    QThread m_sourceThread;
    QThread m_requestThread;
    QThread m_applyThread;
    SourceWorker* m_source = nullptr;
    RequestWorker* m_requests = nullptr;
    ApplyWorker* m_applier = nullptr;

    HierarchyChoice m_choice;
    bool m_simulationEnabled = false;

    mutable QMutex m_mutex; // guards the two below
    ClusterSnapshotPtr m_latest;
    SourceStatus m_status;
};

} // namespace topodeck
