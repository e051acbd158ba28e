#include "session/cluster_session.h"

#include "session/session_worker.h"

#include <QMutexLocker>

namespace topodeck {

namespace {

TopologyChoice toChoice(const QString& topologyName, const QStringList& levelKeys, const QString& gpuResources) {
    TopologyChoice choice;
    choice.topologyName = topologyName.toStdString();
    choice.gpuResources = gpuResources.toStdString();
    choice.levelKeys.reserve(static_cast<std::size_t>(levelKeys.size()));
    for (const QString& key : levelKeys) choice.levelKeys.push_back(key.toStdString());
    return choice;
}

} // namespace

ClusterSession::ClusterSession(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ClusterSnapshotPtr>("topodeck::ClusterSnapshotPtr");
    qRegisterMetaType<SourceStatus>("topodeck::SourceStatus");

    m_worker = new SessionWorker(m_latestRequest);
    m_worker->moveToThread(&m_thread);
    // Deleted on its own thread as the thread finishes, so its timers stop where they run.
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SessionWorker::published, this, &ClusterSession::receiveSnapshot);
    connect(m_worker, &SessionWorker::statusChanged, this, &ClusterSession::receiveStatus);
    m_thread.setObjectName(QStringLiteral("topodeck-session"));
    m_thread.start();
}

ClusterSession::~ClusterSession() {
    ++m_latestRequest; // an open in progress gives up at its next check instead of finishing
    m_thread.quit();
    m_thread.wait();
}

void ClusterSession::openDemo(const QString& name) {
    const std::uint64_t request = ++m_latestRequest;
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, request, name, choice = toChoice(m_topologyName, m_levelKeys, m_gpuResources)] {
            worker->openDemo(request, name, choice);
        },
        Qt::QueuedConnection);
}

void ClusterSession::openFile(const QString& path) {
    const std::uint64_t request = ++m_latestRequest;
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, request, path, choice = toChoice(m_topologyName, m_levelKeys, m_gpuResources)] {
            worker->openFile(request, path, choice);
        },
        Qt::QueuedConnection);
}

void ClusterSession::openKubernetes(const QString& context, const QString& kubeconfig, bool inCluster) {
    const std::uint64_t request = ++m_latestRequest;
    SessionWorker* worker = m_worker;
    const KubeTarget target{context.toStdString(), kubeconfig.toStdString(), inCluster};
    QMetaObject::invokeMethod(
        worker,
        [worker, request, target, choice = toChoice(m_topologyName, m_levelKeys, m_gpuResources)] {
            worker->openKubernetes(request, target, choice);
        },
        Qt::QueuedConnection);
}

void ClusterSession::openSlurm(const SlurmTarget& target) {
    const std::uint64_t request = ++m_latestRequest;
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, request, target, choice = toChoice(m_topologyName, m_levelKeys, m_gpuResources)] {
            worker->openSlurm(request, target, choice);
        },
        Qt::QueuedConnection);
}

void ClusterSession::setSlurmSourceOptions(const SlurmSourceOptions& options) {
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, options] { worker->setSlurmSourceOptions(options); }, Qt::QueuedConnection);
}

void ClusterSession::setLiveSourceOptions(const KubeSourceOptions& options) {
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, options] { worker->setLiveSourceOptions(options); }, Qt::QueuedConnection);
}

void ClusterSession::setTopologyChoice(const QString& topologyName, const QStringList& levelKeys,
                                       const QString& gpuResources) {
    m_topologyName = topologyName;
    m_levelKeys = levelKeys;
    m_gpuResources = gpuResources;
}

void ClusterSession::setSimulationEnabled(bool on) {
    m_simulationEnabled = on;
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, on] { worker->setSimulationEnabled(on); }, Qt::QueuedConnection);
}

bool ClusterSession::simulationEnabled() const {
    return m_simulationEnabled;
}

void ClusterSession::setSimulationInterval(int ms) {
    SessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, ms] { worker->setSimulationInterval(ms); }, Qt::QueuedConnection);
}

ClusterSnapshotPtr ClusterSession::latestSnapshot() const {
    QMutexLocker lock(&m_mutex);
    return m_latest;
}

SourceStatus ClusterSession::status() const {
    QMutexLocker lock(&m_mutex);
    return m_status;
}

void ClusterSession::receiveSnapshot(const ClusterSnapshotPtr& snapshot) {
    {
        QMutexLocker lock(&m_mutex);
        m_latest = snapshot;
    }
    Q_EMIT snapshotPublished(snapshot);
}

void ClusterSession::receiveStatus(const SourceStatus& status) {
    {
        QMutexLocker lock(&m_mutex);
        m_status = status;
    }
    Q_EMIT statusChanged(status);
}

} // namespace topodeck
