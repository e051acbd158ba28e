#pragma once

#include "core/cluster_state.h"
#include "core/demo_cluster.h"
#include "core/demo_simulator.h"
#include "core/live_target.h"
#include "core/placement/gangs_report.h"
#include "core/placement/plan_query.h"
#include "core/topology_index.h"
#include "core/topology_presets.h"
#include "net/kubeconfig.h"
#include "net/live_source.h"
#include "session/cluster_snapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace topodeck {

struct PlanAnswer;
struct NodePodsAnswer;
struct WhatIfAnswer;
struct ExportRequest;
struct ExportAnswer;
struct ChangePreviewRequest;
struct ChangePreview;
struct ApplyRequest;
struct ApplyAnswer;
struct TopologyObjectsAnswer;

// Lives on ClusterSession's worker thread and does all of its source work there: generating
// demos, reading files, applying events, ticking the simulator, taking snapshots.
// Internal to the session; use ClusterSession.
class SessionWorker : public QObject {
    Q_OBJECT
public:
    static constexpr int kPublishIntervalMs = 100; // at most ~10 snapshots per second
    static constexpr int kDefaultSimulationIntervalMs = 1000;
    // An applied what-if follows the live cluster this often at most (or twice as long as it took).
    static constexpr int kWhatIfIntervalMs = 500;

    // latestRequest is the session's open counter: an open whose request number is no longer the
    // latest has been superseded and is dropped at its next check.
    explicit SessionWorker(const std::atomic<std::uint64_t>& latestRequest);
    ~SessionWorker() override;

    void openDemo(std::uint64_t request, const QString& name, const HierarchyChoice& choice);
    void openFile(std::uint64_t request, const QString& path, const HierarchyChoice& choice);
    // Connects and lists; the cluster replaces the current source once it is synced, then
    // follows its watches. Until then the status says how the listing goes.
    void openKubernetes(std::uint64_t request, const KubeTarget& target, const HierarchyChoice& choice);
    // A live Slurm cluster, through slurmrestd or the Slurm commands; like openKubernetes.
    void openSlurm(std::uint64_t request, const SlurmTarget& target, const HierarchyChoice& choice);
    void setLiveSourceOptions(const KubeSourceOptions& options) { m_liveOptions = options; }
    void setSlurmSourceOptions(const SlurmSourceOptions& options) { m_slurmOptions = options; }
    void setSimulationEnabled(bool on);
    void setSimulationInterval(int ms);
    // The gangs report of the current state (empty with no source), sent with the request number.
    void computeGangsReport(std::uint64_t request);
    // A dry-run on the current state, sent with the request number.
    void computePlan(std::uint64_t request, PlanQuery query);
    // The pods on one node now, sent with the request number.
    void computeNodePods(std::uint64_t request, NodeId node);
    // Files for review from the current state, written; exportComputed follows.
    void computeExport(const ExportRequest& request);
    // A change plan against the current state, sent with the request number.
    void computeChangePreview(std::uint64_t request, const ChangePreviewRequest& change);
    void computeTopologyObjects(std::uint64_t request);
    // Checks the plan against the current state, then sends it on a thread of its own (the
    // worker keeps following the cluster meanwhile); applyFinished follows, always.
    void startApply(const ApplyRequest& request, std::shared_ptr<std::atomic<bool>> cancel);
    // Applies these steps to a copy of the current state now and after every publish, sending the
    // answers with the request number, until clearWhatIf().
    void setWhatIf(std::uint64_t request, std::vector<WhatIfStep> steps, EngineOptions options);
    void clearWhatIf();

Q_SIGNALS:
    void published(topodeck::ClusterSnapshotPtr snapshot);
    void planComputed(std::shared_ptr<const topodeck::PlanAnswer> answer, quint64 request);
    void gangsReportComputed(std::shared_ptr<const topodeck::GangsReport> report, quint64 request);
    void nodePodsComputed(std::shared_ptr<const topodeck::NodePodsAnswer> answer, quint64 request);
    void exportComputed(std::shared_ptr<const topodeck::ExportAnswer> answer);
    void changePreviewComputed(std::shared_ptr<const topodeck::ChangePreview> preview, quint64 request);
    void topologyObjectsComputed(std::shared_ptr<const topodeck::TopologyObjectsAnswer> objects, quint64 request);
    // From the apply's thread.
    void applyProgressed(quint64 changesDone, quint64 changesTotal);
    void applyFinished(std::shared_ptr<const topodeck::ApplyAnswer> answer);
    void whatIfComputed(std::shared_ptr<const topodeck::WhatIfAnswer> answer, quint64 request);
    void statusChanged(const topodeck::SourceStatus& status);

private:
    // A source that loaded completely; it replaces the current one only then.
    struct Loaded {
        ClusterState state;
        TopologyIndex index;
        std::unique_ptr<DemoSimulator> simulator;
        std::unique_ptr<LiveSource> live;
        std::optional<KubeConnection> kube; // a Kubernetes cluster's, for applies
        HierarchyChoice choice; // kept for a live source, whose Topology objects may change
        QString title;
        SourceStatus status;
    };
    // A live cluster that is still listing, with the state it has so far.
    struct Connecting {
        std::uint64_t request = 0;
        Loaded loaded;
        QString sourceName;
        std::vector<std::string> kubeconfigWarnings;
    };

    bool superseded(std::uint64_t request) const;
    void install(std::uint64_t request, Loaded loaded);
    void fail(std::uint64_t request, const QString& sourceName, const std::string& message);
    void setStatus(SourceStatus status);
    void tick();
    void requestPublish();
    void publishNow();
    void computeWhatIf();
    void updateSimulation();
    QString demoDetail() const;
    // From a live source's threads: drain its news on this thread, once however often asked.
    void scheduleDrain();
    void drainLive();
    void applyLiveEvents(std::vector<ClusterEvent>&& events);
    SourceStatus statusOf(const LiveStatus& live, const QString& sourceName,
                          const std::vector<std::string>& extraWarnings) const;

    const std::atomic<std::uint64_t>& m_latestRequest;
    bool m_hasSource = false;
    ClusterState m_state;
    TopologyIndex m_index;
    std::unique_ptr<DemoSimulator> m_simulator; // demo sources only
    std::unique_ptr<LiveSource> m_live;         // live sources only
    std::optional<KubeConnection> m_kube;       // a Kubernetes source's: where applies go
    std::thread m_applyThread;
    std::atomic<bool> m_applying{false};
    std::shared_ptr<std::atomic<bool>> m_applyCancel;
    HierarchyChoice m_liveChoice;
    std::vector<std::string> m_liveWarnings;    // the kubeconfig's
    std::unique_ptr<Connecting> m_connecting;   // a live cluster still listing
    std::atomic<bool> m_drainScheduled{false};
    KubeSourceOptions m_liveOptions;
    SlurmSourceOptions m_slurmOptions;
    QString m_pluginMessage;                    // what an exec credential plugin said last
    QString m_title;
    SourceStatus m_status;
    std::uint64_t m_sourceEpoch = 0;
    // The dry-runs' starting point for one state of m_state; dropped whenever m_index is rebuilt.
    std::shared_ptr<const PlanBase> m_planBase;
    std::uint64_t m_planBaseGeneration = 0;

    bool m_simulationEnabled = false;
    QTimer m_simulationTimer{this};
    QTimer m_publishTimer{this};
    QElapsedTimer m_sincePublish;
    bool m_dirty = false;

    // The what-if applied after each publish (ClusterSession::requestWhatIf).
    bool m_whatIfActive = false;
    std::uint64_t m_whatIfRequest = 0;
    std::vector<WhatIfStep> m_whatIfSteps;
    EngineOptions m_whatIfOptions;
    QTimer m_whatIfTimer{this};
};

} // namespace topodeck
