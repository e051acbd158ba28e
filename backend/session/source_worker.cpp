#include "session/source_worker.h"

#include "core/formats/snapshot_reader.h"
#include "core/live/live_status.h"
#include "core/model/node_gpus.h"
#include "core/text/text_format.h"
#include "core/topology/hierarchy_sources.h"
#include "core/topology/topology_presets.h"
#include "net/kube_source.h"
#include "net/kubeconfig.h"
#include "net/slurm_source.h"

#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

namespace topodeck {

SourceWorker::SourceWorker(const std::atomic<std::uint64_t>& latestRequest, std::atomic<std::uint64_t>& changeCount)
    : m_latestRequest(latestRequest), m_changeCount(changeCount) {
    m_simulationTimer.setInterval(kDefaultSimulationIntervalMs);
    connect(&m_simulationTimer, &QTimer::timeout, this, &SourceWorker::tick);
    m_publishTimer.setSingleShot(true);
    connect(&m_publishTimer, &QTimer::timeout, this, &SourceWorker::publishNow);
}

// The sources stop (joining their threads) before the object their callbacks point at goes.
SourceWorker::~SourceWorker() {
    m_connecting.reset();
    m_live.reset();
}

bool SourceWorker::superseded(std::uint64_t request) const {
    return request != m_latestRequest.load();
}

void SourceWorker::openDemo(std::uint64_t request, const QString& name, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset(); // a live cluster still listing is given up
    const QString sourceName = QStringLiteral("demo ") + name;
    setStatus({sourceName, SourceHealth::Connecting, tr("generating the demo cluster"), {}});

    Result<DemoCluster> demo = makeDemoCluster(name.toStdString());
    if (!demo) return fail(request, sourceName, demo.error().message);
    Loaded loaded;
    // The simulator learns the demo's gangs from its events, so it is built before they are moved.
    loaded.simulator = std::make_unique<DemoSimulator>(*demo, demo->seed);
    if (choice.gpuClasses) (void)loaded.state.setGpuDeviceClasses(*choice.gpuClasses);
    for (ClusterEvent& event : demo->events) loaded.state.apply(std::move(event));
    if (superseded(request)) return;

    Result<TopologyIndex> index = choice.buildIndex(loaded.state, &demo->topology);
    if (!index) return fail(request, sourceName, index.error().message);
    loaded.index = std::move(*index);
    loaded.title = QString::fromStdString(demo->title);
    loaded.status = {sourceName, SourceHealth::Live, QString(), {}};
    install(request, std::move(loaded));
}

void SourceWorker::openFile(std::uint64_t request, const QString& path, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset();
    const QString sourceName = QStringLiteral("file ") + QFileInfo(path).fileName();
    setStatus({sourceName, SourceHealth::Connecting, tr("reading %1").arg(path), {}});

    Result<Snapshot> snapshot = readSnapshotFile(QFile::encodeName(path).toStdString());
    if (!snapshot) return fail(request, sourceName, snapshot.error().message);
    if (superseded(request)) return;
    Loaded loaded;
    if (choice.gpuClasses) (void)loaded.state.setGpuDeviceClasses(*choice.gpuClasses);
    std::string slurmVersion = std::move(snapshot->slurmVersion);
    std::move(*snapshot).applyTo(loaded.state);
    if (!choice.slurmTopologyFile.empty())
        if (Status added = addSlurmTopologyFile(choice.slurmTopologyFile, loaded.state, snapshot->warnings); !added)
            return fail(request, sourceName, added.error().message);
    for (std::string& warning : draWarnings(loaded.state)) snapshot->warnings.push_back(std::move(warning));

    Result<TopologyIndex> index = choice.buildIndex(loaded.state);
    if (!index) return fail(request, sourceName, index.error().message);
    if (superseded(request)) return;
    loaded.index = std::move(*index);
    loaded.title = path;
    loaded.status = {sourceName, SourceHealth::Live,
                     tr("%1 nodes, %2 pods").arg(loaded.state.presentNodeCount()).arg(loaded.state.podCount()),
                     std::move(snapshot->warnings)};
    if (!slurmVersion.empty()) {
        loaded.status.slurmVersion = std::move(slurmVersion);
        loaded.status.slurmVersionOrigin = "recorded in the snapshot";
    }
    install(request, std::move(loaded));
}

void SourceWorker::openKubernetes(std::uint64_t request, const KubeTarget& target, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset();
    const QString sourceName =
        target.inCluster
            ? tr("in-cluster")
            : tr("context %1").arg(target.context.empty() ? tr("(current)") : QString::fromStdString(target.context));
    setStatus({sourceName, SourceHealth::Connecting, tr("reading the kubeconfig"), {}});

    std::vector<std::string> warnings;
    Result<KubeConnection> connection = [&]() -> Result<KubeConnection> {
        if (target.inCluster) return inClusterConnection();
        Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation::fromEnvironment(target.kubeconfig));
        if (!config) return config.error();
        warnings = config->warnings;
        return resolveKubeContext(*config, target.context);
    }();
    if (!connection) return fail(request, sourceName, connection.error().message);

    auto connecting = std::make_unique<Connecting>();
    connecting->request = request;
    connecting->sourceName = tr("context %1").arg(QString::fromStdString(connection->contextName));
    connecting->kubeconfigWarnings = std::move(warnings);
    connecting->loaded.choice = choice;
    if (choice.gpuClasses) (void)connecting->loaded.state.setGpuDeviceClasses(*choice.gpuClasses);
    connecting->loaded.title =
        connecting->sourceName + QStringLiteral(" · ") + QString::fromStdString(connection->server);
    ExecEnvironment exec;
    // A window has no terminal to hand a plugin; what it says (a device-login code, say) is shown.
    exec.onMessage = [this](std::string_view line) {
        const QString text = QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size()));
        QMetaObject::invokeMethod(
            this,
            [this, text] {
                m_pluginMessage = text;
                drainLive();
            },
            Qt::QueuedConnection);
    };
    connecting->loaded.kube = *connection;
    connecting->loaded.live = std::make_unique<KubeSource>(std::move(*connection), std::move(exec), m_liveOptions);
    m_connecting = std::move(connecting);
    m_pluginMessage.clear();
    m_connecting->loaded.live->start([this] { scheduleDrain(); });
}

void SourceWorker::openSlurm(std::uint64_t request, const SlurmTarget& target, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset();
    auto connecting = std::make_unique<Connecting>();
    connecting->request = request;
    connecting->sourceName = QString::fromStdString(target.describe());
    connecting->loaded.choice = choice;
    connecting->loaded.title = connecting->sourceName;
    connecting->loaded.live = std::make_unique<SlurmSource>(target, m_slurmOptions);
    setStatus({connecting->sourceName, SourceHealth::Connecting, tr("connecting"), {}});
    m_connecting = std::move(connecting);
    m_pluginMessage.clear();
    m_connecting->loaded.live->start([this] { scheduleDrain(); });
}

void SourceWorker::scheduleDrain() {
    if (!m_drainScheduled.exchange(true))
        QMetaObject::invokeMethod(this, &SourceWorker::drainLive, Qt::QueuedConnection);
}

SourceStatus SourceWorker::statusOf(const LiveStatus& live, const QString& sourceName,
                                    const std::vector<std::string>& extraWarnings) const {
    SourceStatus status;
    status.sourceName = sourceName;
    if (!live.serverVersion.empty() && !live.serverVersionSource.empty()) {
        status.slurmVersion = live.serverVersion;
        status.slurmVersionOrigin = "the version " + live.serverVersionSource + " reports";
    }
    switch (live.state) {
    case LinkState::Connecting:
        status.health = SourceHealth::Connecting;
        break;
    case LinkState::Synced:
        status.health = SourceHealth::Live;
        break;
    case LinkState::Reconnecting:
        status.health = SourceHealth::Reconnecting;
        break;
    case LinkState::Stale:
        status.health = SourceHealth::Stale;
        break;
    case LinkState::Error:
        status.health = SourceHealth::Error;
        break;
    }
    if (live.since.time_since_epoch().count() != 0)
        status.since = QDateTime::fromMSecsSinceEpoch(
            std::chrono::duration_cast<std::chrono::milliseconds>(live.since.time_since_epoch()).count());
    if (live.state == LinkState::Connecting && live.message.empty()) {
        QStringList counts;
        for (const ResourceHealth& resource : live.resources)
            if (resource.objects > 0 || resource.state == ResourceHealth::State::Listing)
                counts << QStringLiteral("%1 %2").arg(
                    QString::fromStdString(groupThousands(static_cast<std::int64_t>(resource.objects))),
                    QString::fromStdString(resource.title));
        status.detail = counts.isEmpty() ? tr("connecting") : tr("listing: %1").arg(counts.join(QStringLiteral(", ")));
    } else if (live.state == LinkState::Synced) {
        std::size_t nodes = 0, pods = 0, jobs = 0;
        bool slurm = false;
        for (const ResourceHealth& resource : live.resources) {
            if (resource.resource == "nodes") nodes = resource.objects;
            if (resource.resource == "pods") pods = resource.objects;
            if (resource.resource == "jobs") {
                jobs = resource.objects;
                slurm = true;
            }
        }
        const auto count = [](std::size_t n) {
            return QString::fromStdString(groupThousands(static_cast<std::int64_t>(n)));
        };
        status.detail = slurm ? tr("polling %1 nodes, %2 running jobs").arg(count(nodes), count(jobs))
                              : tr("watching %1 nodes, %2 pods").arg(count(nodes), count(pods));
    } else {
        status.detail = QString::fromStdString(withRetry(live.message, live.retryIn));
    }
    if (!m_pluginMessage.isEmpty() && live.state != LinkState::Synced)
        status.detail += (status.detail.isEmpty() ? QString() : QStringLiteral(" — ")) +
                         tr("credential plugin: %1").arg(m_pluginMessage);
    status.warnings = resourceProblems(live);
    status.warnings.insert(status.warnings.end(), live.notes.begin(), live.notes.end());
    status.warnings.insert(status.warnings.end(), extraWarnings.begin(), extraWarnings.end());
    status.resources = live.resources;
    return status;
}

void SourceWorker::drainLive() {
    m_drainScheduled = false;
    if (m_connecting) {
        Connecting& c = *m_connecting;
        if (superseded(c.request)) {
            m_connecting.reset();
            return;
        }
        for (ClusterEvent& event : c.loaded.live->takeEvents()) (void)c.loaded.state.apply(std::move(event));
        const LiveStatus live = c.loaded.live->status();
        SourceStatus status = statusOf(live, c.sourceName, c.kubeconfigWarnings);
        if (live.state != LinkState::Synced) {
            // Still listing, or failing (and retrying); what was shown before stays.
            setStatus(std::move(status));
            return;
        }
        Result<TopologyIndex> index = c.loaded.choice.buildIndex(c.loaded.state);
        if (!index) {
            setStatus(
                {c.sourceName, SourceHealth::Error, QString::fromStdString(index.error().message), status.warnings});
            return;
        }
        c.loaded.index = std::move(*index);
        c.loaded.status = std::move(status);
        m_liveWarnings = std::move(c.kubeconfigWarnings);
        std::unique_ptr<Connecting> done = std::move(m_connecting);
        install(done->request, std::move(done->loaded));
        return;
    }
    if (!m_live) return;
    applyLiveEvents(m_live->takeEvents());
    SourceStatus status = statusOf(m_live->status(), m_status.sourceName, m_liveWarnings);
    // A new state is said at once; new counts and retry times travel with the next snapshot
    // (at most ten a second), not with every event.
    const bool stateChanged = status.health != m_status.health || status.warnings != m_status.warnings;
    const bool changed = stateChanged || status.detail != m_status.detail;
    m_status = std::move(status);
    if (changed) {
        m_dirty = true;
        requestPublish();
    }
    if (stateChanged) Q_EMIT statusChanged(m_status);
}

void SourceWorker::applyLiveEvents(std::vector<ClusterEvent>&& events) {
    if (events.empty()) return;
    changed();
    bool topologiesChanged = false;
    for (ClusterEvent& event : events) {
        const AppliedEvent applied = m_state.apply(std::move(event));
        topologiesChanged = topologiesChanged || mayChangeHierarchy(applied, m_index.spec());
        m_index.apply(m_state, applied);
    }
    // A Topology object or HyperNode that appeared, changed or went may change the hierarchy
    // itself, and a hierarchy that places nodes by name may hold a node that arrived.
    if (topologiesChanged) {
        Result<TopologySpec> spec = m_liveChoice.resolve(m_state);
        if (spec && !(*spec == m_index.spec())) {
            m_index = TopologyIndex::build(m_state, std::move(*spec), m_liveChoice.gpus);
        }
    }
    requestPublish();
}

void SourceWorker::install(std::uint64_t request, Loaded loaded) {
    if (superseded(request)) return;
    changed();
    m_state = std::move(loaded.state);
    m_index = std::move(loaded.index);
    m_simulator = std::move(loaded.simulator);
    m_live = std::move(loaded.live);
    m_kube = std::move(loaded.kube);
    m_liveChoice = std::move(loaded.choice);
    m_title = std::move(loaded.title);
    m_status = std::move(loaded.status);
    if (m_simulator) m_status.detail = demoDetail();
    m_hasSource = true;
    ++m_sourceEpoch;
    updateSimulation();
    requestPublish();
    Q_EMIT statusChanged(m_status);
}

void SourceWorker::fail(std::uint64_t request, const QString& sourceName, const std::string& message) {
    if (superseded(request)) return;
    spdlog::warn("{}: {}", sourceName.toStdString(), message);
    // The current source, if any, stays as it was: nothing already shown is lost.
    setStatus({sourceName, SourceHealth::Error, QString::fromStdString(message), {}});
}

void SourceWorker::setStatus(SourceStatus status) {
    m_status = std::move(status);
    Q_EMIT statusChanged(m_status);
}

void SourceWorker::setSimulationEnabled(bool on) {
    m_simulationEnabled = on;
    updateSimulation();
    if (m_simulator && m_status.health == SourceHealth::Live) {
        m_status.detail = demoDetail();
        Q_EMIT statusChanged(m_status);
    }
}

void SourceWorker::setSimulationInterval(int ms) {
    m_simulationTimer.setInterval(ms);
}

void SourceWorker::updateSimulation() {
    if (m_simulationEnabled && m_simulator) {
        if (!m_simulationTimer.isActive()) m_simulationTimer.start();
    } else {
        m_simulationTimer.stop();
    }
}

QString SourceWorker::demoDetail() const {
    return m_simulationEnabled ? tr("simulator running") : tr("simulator paused");
}

void SourceWorker::tick() {
    if (!m_simulator) return;
    std::vector<ClusterEvent> events = m_simulator->step(m_state);
    if (events.empty()) return;
    changed();
    for (ClusterEvent& event : events) m_index.apply(m_state, m_state.apply(std::move(event)));
    requestPublish();
}

void SourceWorker::freeze() {
    const std::uint64_t count = m_changeCount.load();
    if (!m_frozen || m_frozen->changeCount != count) {
        auto copy = std::make_shared<FrozenCluster>();
        copy->changeCount = count;
        copy->hasSource = m_hasSource;
        if (m_hasSource) {
            copy->state = m_state;
            copy->index = m_index;
        }
        copy->sourceEpoch = m_sourceEpoch;
        copy->status = m_status;
        copy->title = m_title;
        copy->kube = m_kube;
        if (!m_kube)
            copy->cannotApply = m_simulator ? "a demo cluster has no API server to write to"
                                : m_live    ? "a Slurm cluster's topology is not node labels"
                                            : "a snapshot file has no API server to write to";
        m_frozen = std::move(copy);
    }
    Q_EMIT frozen(m_frozen);
}

void SourceWorker::requestPublish() {
    m_dirty = true;
    if (m_publishTimer.isActive()) return;
    const qint64 since = m_sincePublish.isValid() ? m_sincePublish.elapsed() : kPublishIntervalMs;
    if (since >= kPublishIntervalMs) {
        publishNow();
    } else {
        m_publishTimer.start(static_cast<int>(kPublishIntervalMs - since));
    }
}

void SourceWorker::publishNow() {
    if (!m_dirty || !m_hasSource) return;
    m_dirty = false;
    m_sincePublish.start();
    Q_EMIT published(makeClusterSnapshot(m_state, m_index, m_status, m_title, m_sourceEpoch));
}

} // namespace topodeck
