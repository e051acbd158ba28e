#include "session/session_worker.h"

#include "core/snapshot_reader.h"
#include "core/topology_presets.h"

#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <utility>

namespace topodeck {

SessionWorker::SessionWorker(const std::atomic<std::uint64_t>& latestRequest) : m_latestRequest(latestRequest) {
    m_simulationTimer.setInterval(kDefaultSimulationIntervalMs);
    connect(&m_simulationTimer, &QTimer::timeout, this, &SessionWorker::tick);
    m_publishTimer.setSingleShot(true);
    connect(&m_publishTimer, &QTimer::timeout, this, &SessionWorker::publishNow);
}

SessionWorker::~SessionWorker() = default;

bool SessionWorker::superseded(std::uint64_t request) const {
    return request != m_latestRequest.load();
}

void SessionWorker::openDemo(std::uint64_t request, const QString& name, const TopologyChoice& choice) {
    if (superseded(request)) return;
    const QString sourceName = QStringLiteral("demo ") + name;
    setStatus({sourceName, SourceHealth::Connecting, tr("generating the demo cluster"), {}});

    Result<DemoCluster> demo = makeDemoCluster(name.toStdString());
    if (!demo) return fail(request, sourceName, demo.error().message);
    Loaded loaded;
    // The simulator learns the demo's gangs from its events, so it is built before they are moved.
    loaded.simulator = std::make_unique<DemoSimulator>(*demo, demo->seed);
    for (ClusterEvent& event : demo->events) loaded.state.apply(std::move(event));
    if (superseded(request)) return;

    Result<TopologySpec> spec = resolveTopology(loaded.state, choice.topologyName, choice.levelKeys, &demo->topology);
    if (!spec) return fail(request, sourceName, spec.error().message);
    loaded.index = TopologyIndex::build(loaded.state, std::move(spec.value()), choice.gpus());
    loaded.title = QString::fromStdString(demo->title);
    loaded.status = {sourceName, SourceHealth::Live, QString(), {}};
    install(request, std::move(loaded));
}

void SessionWorker::openFile(std::uint64_t request, const QString& path, const TopologyChoice& choice) {
    if (superseded(request)) return;
    const QString sourceName = QStringLiteral("file ") + QFileInfo(path).fileName();
    setStatus({sourceName, SourceHealth::Connecting, tr("reading %1").arg(path), {}});

    Result<Snapshot> snapshot = readSnapshotFile(QFile::encodeName(path).toStdString());
    if (!snapshot) return fail(request, sourceName, snapshot.error().message);
    if (superseded(request)) return;
    Loaded loaded;
    std::move(*snapshot).applyTo(loaded.state);

    Result<TopologySpec> spec = resolveTopology(loaded.state, choice.topologyName, choice.levelKeys);
    if (!spec) return fail(request, sourceName, spec.error().message);
    if (superseded(request)) return;
    loaded.index = TopologyIndex::build(loaded.state, std::move(spec.value()), choice.gpus());
    loaded.title = path;
    loaded.status = {sourceName, SourceHealth::Live,
                     tr("%1 nodes, %2 pods").arg(loaded.state.presentNodeCount()).arg(loaded.state.podCount()),
                     std::move(snapshot->warnings)};
    install(request, std::move(loaded));
}

void SessionWorker::install(std::uint64_t request, Loaded loaded) {
    if (superseded(request)) return;
    m_state = std::move(loaded.state);
    m_index = std::move(loaded.index);
    m_simulator = std::move(loaded.simulator);
    m_title = std::move(loaded.title);
    m_status = std::move(loaded.status);
    if (m_simulator) m_status.detail = demoDetail();
    m_hasSource = true;
    ++m_sourceEpoch;
    updateSimulation();
    requestPublish();
    Q_EMIT statusChanged(m_status);
}

void SessionWorker::fail(std::uint64_t request, const QString& sourceName, const std::string& message) {
    if (superseded(request)) return;
    spdlog::warn("{}: {}", sourceName.toStdString(), message);
    // The current source, if any, stays as it was: nothing already shown is lost.
    setStatus({sourceName, SourceHealth::Error, QString::fromStdString(message), {}});
}

void SessionWorker::setStatus(SourceStatus status) {
    m_status = std::move(status);
    Q_EMIT statusChanged(m_status);
}

void SessionWorker::setSimulationEnabled(bool on) {
    m_simulationEnabled = on;
    updateSimulation();
    if (m_simulator && m_status.health == SourceHealth::Live) {
        m_status.detail = demoDetail();
        Q_EMIT statusChanged(m_status);
    }
}

void SessionWorker::setSimulationInterval(int ms) {
    m_simulationTimer.setInterval(ms);
}

void SessionWorker::updateSimulation() {
    if (m_simulationEnabled && m_simulator) {
        if (!m_simulationTimer.isActive()) m_simulationTimer.start();
    } else {
        m_simulationTimer.stop();
    }
}

QString SessionWorker::demoDetail() const {
    return m_simulationEnabled ? tr("simulator running") : tr("simulator paused");
}

void SessionWorker::tick() {
    if (!m_simulator) return;
    std::vector<ClusterEvent> events = m_simulator->step(m_state);
    if (events.empty()) return;
    for (ClusterEvent& event : events) m_index.apply(m_state, m_state.apply(std::move(event)));
    requestPublish();
}

void SessionWorker::requestPublish() {
    m_dirty = true;
    if (m_publishTimer.isActive()) return;
    const qint64 since = m_sincePublish.isValid() ? m_sincePublish.elapsed() : kPublishIntervalMs;
    if (since >= kPublishIntervalMs) {
        publishNow();
    } else {
        m_publishTimer.start(static_cast<int>(kPublishIntervalMs - since));
    }
}

void SessionWorker::publishNow() {
    if (!m_dirty || !m_hasSource) return;
    m_dirty = false;
    m_sincePublish.start();
    Q_EMIT published(makeClusterSnapshot(m_state, m_index, m_status, m_title, m_sourceEpoch));
}

} // namespace topodeck
