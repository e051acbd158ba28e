#include "session/cluster_session.h"

#include <QFile>

#include "session/apply_worker.h"
#include "session/request_worker.h"
#include "session/source_worker.h"

#include <QMutexLocker>

namespace topodeck {

namespace {

// Calls f(worker) on the worker's thread.
template <class W, class F> void onWorker(W* worker, F f) {
    QMetaObject::invokeMethod(
        worker, [worker, f = std::move(f)] { f(*worker); }, Qt::QueuedConnection);
}

// Starts a worker on its thread; it is deleted there as the thread finishes, so its timers stop
// where they run.
template <class W> W* startOn(QThread& thread, W* worker, const char* name) {
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.setObjectName(QString::fromLatin1(name));
    thread.start();
    return worker;
}

} // namespace

ClusterSession::ClusterSession(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ClusterSnapshotPtr>("topodeck::ClusterSnapshotPtr");
    qRegisterMetaType<SourceStatus>("topodeck::SourceStatus");
    qRegisterMetaType<GangsReportPtr>("topodeck::GangsReportPtr");
    qRegisterMetaType<PlanAnswerPtr>("topodeck::PlanAnswerPtr");
    qRegisterMetaType<NodePodsPtr>("topodeck::NodePodsPtr");
    qRegisterMetaType<WhatIfAnswerPtr>("topodeck::WhatIfAnswerPtr");
    qRegisterMetaType<ExportAnswerPtr>("topodeck::ExportAnswerPtr");
    qRegisterMetaType<ChangePreviewPtr>("topodeck::ChangePreviewPtr");
    qRegisterMetaType<ApplyAnswerPtr>("topodeck::ApplyAnswerPtr");
    qRegisterMetaType<TopologyObjectsPtr>("topodeck::TopologyObjectsPtr");
    qRegisterMetaType<FrozenClusterPtr>("topodeck::FrozenClusterPtr");
    qRegisterMetaType<ApplyJobPtr>("topodeck::ApplyJobPtr");

    m_source = new SourceWorker(m_latestRequest, m_changeCount);
    m_requests = new RequestWorker(m_source, m_changeCount, m_applying);
    m_applier = new ApplyWorker(m_applying);
    connect(m_source, &SourceWorker::published, this, &ClusterSession::receiveSnapshot);
    connect(m_source, &SourceWorker::statusChanged, this, &ClusterSession::receiveStatus);
    connect(m_source, &SourceWorker::frozen, m_requests, &RequestWorker::takeFrozen);
    connect(m_source, &SourceWorker::published, m_requests, &RequestWorker::livePublished);
    connect(m_requests, &RequestWorker::applyChecked, m_applier, &ApplyWorker::run);
    connect(m_requests, &RequestWorker::gangsReportComputed, this,
            [this](const GangsReportPtr& report, quint64 request) {
                if (request != m_latestGangsRequest.load()) return; // a newer request is on its way
                Q_EMIT gangsReportReady(report, report->generation);
            });
    connect(m_requests, &RequestWorker::exportComputed, this, &ClusterSession::exportFinished);
    connect(m_requests, &RequestWorker::changePreviewComputed, this,
            [this](const ChangePreviewPtr& preview, quint64 request) {
                if (request == m_latestChangeRequest.load()) Q_EMIT changePreviewReady(preview);
            });
    connect(m_requests, &RequestWorker::topologyObjectsComputed, this,
            [this](const TopologyObjectsPtr& objects, quint64 request) {
                if (request == m_latestObjectsRequest.load()) Q_EMIT topologyObjectsReady(objects);
            });
    connect(m_requests, &RequestWorker::applyFinished, this, &ClusterSession::applyFinished);
    connect(m_applier, &ApplyWorker::applyProgressed, this, &ClusterSession::applyProgressed);
    connect(m_applier, &ApplyWorker::applyFinished, this, &ClusterSession::applyFinished);
    connect(m_requests, &RequestWorker::planComputed, this, [this](const PlanAnswerPtr& answer, quint64 request) {
        if (request == m_latestPlanRequest.load()) Q_EMIT planAnswered(answer);
    });
    connect(m_requests, &RequestWorker::nodePodsComputed, this, [this](const NodePodsPtr& answer, quint64 request) {
        if (request == m_latestNodePodsRequest.load()) Q_EMIT nodePodsReady(answer);
    });
    connect(m_requests, &RequestWorker::whatIfComputed, this, [this](const WhatIfAnswerPtr& answer, quint64 request) {
        // A reset or a newer what-if since: this answer describes steps no longer asked for.
        if (m_whatIfActive && request == m_latestWhatIfRequest.load()) Q_EMIT whatIfAnswered(answer);
    });
    startOn(m_sourceThread, m_source, "topodeck-source");
    startOn(m_requestThread, m_requests, "topodeck-requests");
    startOn(m_applyThread, m_applier, "topodeck-apply");
}

ClusterSession::~ClusterSession() {
    ++m_latestRequest; // an open in progress gives up at its next check instead of finishing
    if (m_applyCancel) m_applyCancel->store(true); // an apply stops after the batch in flight
    // The request worker asks the source for copies: it stops first.
    for (QThread* thread : {&m_requestThread, &m_applyThread, &m_sourceThread}) {
        thread->quit();
        thread->wait();
    }
}

// Each open takes a new request number (superseding any open still in progress) and the
// hierarchy choice as it is now.
void ClusterSession::openDemo(const QString& name) {
    clearWhatIf(); // a what-if describes the cluster it was made on
    onWorker(m_source, [request = ++m_latestRequest, name, choice = m_choice](SourceWorker& worker) {
        worker.openDemo(request, name, choice);
    });
}

void ClusterSession::openFile(const QString& path) {
    clearWhatIf(); // a what-if describes the cluster it was made on
    onWorker(m_source, [request = ++m_latestRequest, path, choice = m_choice](SourceWorker& worker) {
        worker.openFile(request, path, choice);
    });
}

void ClusterSession::openKubernetes(const QString& context, const QString& kubeconfig, bool inCluster) {
    clearWhatIf(); // a what-if describes the cluster it was made on
    const KubeTarget target{context.toStdString(), kubeconfig.toStdString(), inCluster};
    onWorker(m_source, [request = ++m_latestRequest, target, choice = m_choice](SourceWorker& worker) {
        worker.openKubernetes(request, target, choice);
    });
}

void ClusterSession::openSlurm(const SlurmTarget& target) {
    clearWhatIf(); // a what-if describes the cluster it was made on
    onWorker(m_source, [request = ++m_latestRequest, target, choice = m_choice](SourceWorker& worker) {
        worker.openSlurm(request, target, choice);
    });
}

void ClusterSession::setSlurmSourceOptions(const SlurmSourceOptions& options) {
    onWorker(m_source, [options](SourceWorker& worker) { worker.setSlurmSourceOptions(options); });
}

void ClusterSession::setLiveSourceOptions(const KubeSourceOptions& options) {
    onWorker(m_source, [options](SourceWorker& worker) { worker.setLiveSourceOptions(options); });
}

void ClusterSession::setTopologyChoice(const QString& topologyName, const QStringList& levelKeys,
                                       const QString& gpuResources, const QString& slurmTopologyFile,
                                       const QString& gpuClasses) {
    m_choice = HierarchyChoice();
    m_choice.slurmTopologyFile = QFile::encodeName(slurmTopologyFile).toStdString();
    m_choice.topologyName = topologyName.toStdString();
    for (const QString& key : levelKeys) m_choice.levelKeys.push_back(key.toStdString());
    if (!gpuResources.isEmpty()) m_choice.gpus = GpuResources::fromList(gpuResources.toStdString());
    if (!gpuClasses.isEmpty()) m_choice.gpuClasses = GpuDeviceClasses::fromList(gpuClasses.toStdString());
}

void ClusterSession::setSimulationEnabled(bool on) {
    m_simulationEnabled = on;
    onWorker(m_source, [on](SourceWorker& worker) { worker.setSimulationEnabled(on); });
}

bool ClusterSession::simulationEnabled() const {
    return m_simulationEnabled;
}

void ClusterSession::setSimulationInterval(int ms) {
    onWorker(m_source, [ms](SourceWorker& worker) { worker.setSimulationInterval(ms); });
}

void ClusterSession::requestGangsReport() {
    const std::uint64_t request = ++m_latestGangsRequest;
    onWorker(m_requests, [request, latest = &m_latestGangsRequest](RequestWorker& worker) {
        // Requests queue up while the worker is busy: only the newest is worth computing.
        if (request != latest->load()) return;
        worker.computeGangsReport(request);
    });
}

void ClusterSession::requestPlan(const PlanQuery& query) {
    const std::uint64_t request = ++m_latestPlanRequest;
    onWorker(m_requests, [request, query, latest = &m_latestPlanRequest](RequestWorker& worker) {
        if (request == latest->load()) worker.computePlan(request, query);
    });
}

void ClusterSession::requestNodePods(NodeId node) {
    const std::uint64_t request = ++m_latestNodePodsRequest;
    onWorker(m_requests, [request, node, latest = &m_latestNodePodsRequest](RequestWorker& worker) {
        if (request == latest->load()) worker.computeNodePods(request, node);
    });
}

void ClusterSession::requestExport(const ExportRequest& request) {
    // Every export asked for is written: each names its own folder.
    onWorker(m_requests, [request](RequestWorker& worker) { worker.computeExport(request); });
}

void ClusterSession::requestChangePreview(const ChangePreviewRequest& request) {
    const std::uint64_t number = ++m_latestChangeRequest;
    onWorker(m_requests, [this, number, request](RequestWorker& worker) {
        if (number == m_latestChangeRequest.load()) worker.computeChangePreview(number, request);
    });
}

void ClusterSession::requestTopologyObjects() {
    const std::uint64_t number = ++m_latestObjectsRequest;
    onWorker(m_requests, [this, number](RequestWorker& worker) {
        if (number == m_latestObjectsRequest.load()) worker.computeTopologyObjects(number);
    });
}

void ClusterSession::requestApply(const ApplyRequest& request) {
    m_applyCancel = std::make_shared<std::atomic<bool>>(false);
    onWorker(m_requests,
             [request, cancel = m_applyCancel](RequestWorker& worker) { worker.checkApply(request, cancel); });
}

void ClusterSession::cancelApply() {
    if (m_applyCancel) m_applyCancel->store(true);
}

void ClusterSession::requestWhatIf(const std::vector<WhatIfStep>& steps, const EngineOptions& options) {
    m_whatIfActive = true;
    const std::uint64_t request = ++m_latestWhatIfRequest;
    onWorker(m_requests,
             [request, steps, options](RequestWorker& worker) { worker.setWhatIf(request, steps, options); });
}

void ClusterSession::clearWhatIf() {
    if (!m_whatIfActive) return;
    m_whatIfActive = false;
    ++m_latestWhatIfRequest;
    onWorker(m_requests, [](RequestWorker& worker) { worker.clearWhatIf(); });
    Q_EMIT whatIfCleared();
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
