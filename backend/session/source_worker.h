#pragma once

#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "core/live/live_target.h"
#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "net/kubeconfig.h"
#include "net/live_source.h"
#include "session/cluster_snapshot.h"
#include "session/frozen_cluster.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// Lives on ClusterSession's source thread and does all of its source work there: generating
// demos, reading files, applying events, ticking the simulator, taking snapshots, and copying the
// state for the request thread when it asks (freeze). Internal to the session; use ClusterSession.
class SourceWorker : public QObject {
    Q_OBJECT
public:
    static constexpr int kPublishIntervalMs = 100; // at most ~10 snapshots per second
    static constexpr int kDefaultSimulationIntervalMs = 1000;

    // latestRequest is the session's open counter: an open whose request number is no longer the
    // latest has been superseded and is dropped at its next check. changeCount counts every change
    // of the state (an event, a new source), for the request thread to know when its copy is old.
    SourceWorker(const std::atomic<std::uint64_t>& latestRequest, std::atomic<std::uint64_t>& changeCount);
    ~SourceWorker() override;

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
    // Sends frozen() with the state as it is now: a copy, made once per change however often asked.
    void freeze();

Q_SIGNALS:
    void published(topodeck::ClusterSnapshotPtr snapshot);
    void frozen(topodeck::FrozenClusterPtr cluster);
    void statusChanged(const topodeck::SourceStatus& status);

private:
    // A source that loaded completely; it replaces the current one only then.
    struct Loaded {
        ClusterState state;
        TopologyIndex index;
        std::unique_ptr<DemoSimulator> simulator;
        std::unique_ptr<LiveSource> live;
        std::optional<KubeConnection> kube; // a Kubernetes cluster's, for applies
        HierarchyChoice choice;             // kept for a live source, whose Topology objects may change
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
    void changed() { m_changeCount.fetch_add(1); }
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
    HierarchyChoice m_liveChoice;
    std::vector<std::string> m_liveWarnings;  // the kubeconfig's
    std::unique_ptr<Connecting> m_connecting; // a live cluster still listing
    std::atomic<bool> m_drainScheduled{false};
    KubeSourceOptions m_liveOptions;
    SlurmSourceOptions m_slurmOptions;
    QString m_pluginMessage; // what an exec credential plugin said last
    QString m_title;
    SourceStatus m_status;
    std::uint64_t m_sourceEpoch = 0;
    std::atomic<std::uint64_t>& m_changeCount;
    FrozenClusterPtr m_frozen; // the last copy, handed out again until the state changes

    bool m_simulationEnabled = false;
    QTimer m_simulationTimer{this};
    QTimer m_publishTimer{this};
    QElapsedTimer m_sincePublish;
    bool m_dirty = false;
};

} // namespace topodeck
