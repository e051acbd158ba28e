#include "session/request_worker.h"

#include "core/model/node_gpus.h"

#include "core/text/natural_order.h"
#include "session/source_worker.h"
#include "usecases/apply_change.h"

#include <QElapsedTimer>

#include <algorithm>

namespace topodeck {

RequestWorker::RequestWorker(SourceWorker* source, const std::atomic<std::uint64_t>& changeCount,
                             std::atomic<bool>& applying)
    : m_source(source), m_changeCount(changeCount), m_applying(applying) {
    m_whatIfTimer.setSingleShot(true);
    m_whatIfTimer.setInterval(kWhatIfIntervalMs);
    connect(&m_whatIfTimer, &QTimer::timeout, this, [this] {
        if (m_whatIfActive) withCluster([this](const FrozenCluster& cluster) { computeWhatIf(cluster); });
    });
}

void RequestWorker::withCluster(Job job) {
    if (m_cluster && m_cluster->changeCount == m_changeCount.load()) {
        job(*m_cluster);
        return;
    }
    m_waiting.push_back(std::move(job));
    if (m_freezeAsked) return;
    m_freezeAsked = true;
    QMetaObject::invokeMethod(m_source, &SourceWorker::freeze, Qt::QueuedConnection);
}

void RequestWorker::takeFrozen(const FrozenClusterPtr& cluster) {
    m_freezeAsked = false;
    m_cluster = cluster;
    // Jobs that came while the copy was made run on it too: it is at most one change old.
    std::vector<Job> waiting = std::move(m_waiting);
    m_waiting.clear();
    for (Job& job : waiting) job(*cluster);
}

void RequestWorker::computeGangsReport(std::uint64_t request) {
    withCluster([this, request](const FrozenCluster& cluster) {
        auto report = std::make_shared<GangsReport>();
        if (cluster.hasSource) *report = buildGangsReport(cluster.state, cluster.index);
        Q_EMIT gangsReportComputed(std::move(report), request);
    });
}

void RequestWorker::computePlan(std::uint64_t request, PlanQuery query) {
    withCluster([this, request, query = std::move(query)](const FrozenCluster& cluster) mutable {
        // The Slurm engines follow the release the source says it runs (slurmctld's, slurmrestd's or
        // the snapshot's), unless the query names one.
        followSourceSlurmVersion(query.options, cluster.status.slurmVersion, cluster.status.slurmVersionOrigin);
        // Every dry-run of one copy of the cluster starts from the same base: a re-run after a
        // change of flags costs the engines only.
        if (cluster.hasSource && m_planBaseCluster.get() != &cluster) {
            m_planBase = preparePlanBase(cluster.state, cluster.index.spec(), cluster.index.gpuResources());
            m_planBaseCluster = m_cluster;
        }
        auto answer = std::make_shared<PlanAnswer>(
            dryRun(cluster.state, cluster.hasSource ? m_planBase : std::shared_ptr<const PlanBase>(), query));
        Q_EMIT planComputed(std::move(answer), request);
    });
}

void RequestWorker::computeNodePods(std::uint64_t request, NodeId node) {
    withCluster([this, request, node](const FrozenCluster& cluster) {
        auto answer = std::make_shared<NodePodsAnswer>();
        answer->node = node;
        answer->generation = cluster.state.generation();
        answer->sourceEpoch = cluster.sourceEpoch;
        if (cluster.hasSource) cluster.state.forEachPodOn(node, [&](const Pod& pod) { answer->pods.push_back(pod); });
        std::sort(answer->pods.begin(), answer->pods.end(), [](const Pod& a, const Pod& b) {
            if (a.nameSpace != b.nameSpace) return naturalLess(a.nameSpace, b.nameSpace);
            return naturalLess(a.name, b.name);
        });
        for (const Pod& pod : answer->pods) answer->claimedGpus.push_back(claimedGpus(cluster.state, pod));
        Q_EMIT nodePodsComputed(std::move(answer), request);
    });
}

void RequestWorker::computeExport(const ExportRequest& request) {
    withCluster([this, request](const FrozenCluster& cluster) {
        auto answer = std::make_shared<ExportAnswer>();
        auto files = cluster.hasSource ? exportFiles(cluster.state, cluster.index, request)
                                       : Result<ExportedFiles>(Error{"no cluster is open"});
        if (files) answer->warnings = std::move(files->warnings);
        auto written = files ? writeExportFolder(request.folder, files->files, request.bundle)
                             : Result<std::vector<std::string>>(files.error());
        if (written)
            answer->written = std::move(*written);
        else
            answer->error = written.error().message;
        Q_EMIT exportComputed(std::move(answer));
    });
}

void RequestWorker::computeChangePreview(std::uint64_t request, const ChangePreviewRequest& change) {
    withCluster([this, request, change](const FrozenCluster& cluster) {
        auto preview = std::make_shared<ChangePreview>();
        if (!cluster.hasSource) {
            preview->error = "no cluster is open";
        } else {
            *preview = previewChange(cluster.state, cluster.index, change, cluster.status.sourceName.toStdString());
            if (preview->error.empty()) {
                if (cluster.kube)
                    preview->target = "context " + cluster.kube->contextName;
                else
                    preview->cannotApply = cluster.cannotApply;
            }
        }
        Q_EMIT changePreviewComputed(std::move(preview), request);
    });
}

void RequestWorker::computeTopologyObjects(std::uint64_t request) {
    withCluster([this, request](const FrozenCluster& cluster) {
        auto answer = std::make_shared<TopologyObjectsAnswer>();
        answer->generation = cluster.state.generation();
        answer->sourceEpoch = cluster.sourceEpoch;
        if (!cluster.hasSource)
            answer->error = "no cluster is open";
        else
            static_cast<TopologyObjects&>(*answer) = topologyObjectsOf(cluster.state, cluster.index);
        Q_EMIT topologyObjectsComputed(std::move(answer), request);
    });
}

void RequestWorker::checkApply(const ApplyRequest& request, std::shared_ptr<std::atomic<bool>> cancel) {
    withCluster([this, request, cancel = std::move(cancel)](const FrozenCluster& cluster) {
        auto answer = std::make_shared<ApplyAnswer>();
        const auto refuse = [&](std::string why) {
            answer->refused = std::move(why);
            Q_EMIT applyFinished(std::move(answer));
        };
        if (m_applying.load()) return refuse("another apply is still running");
        if (!cluster.hasSource || !cluster.kube) return refuse("the cluster shown is not a Kubernetes cluster");
        answer->target = "context " + cluster.kube->contextName;
        const ApplyCheck check = topodeck::checkApply(cluster.state, request.plan);
        if (!check.drift.empty()) return refuse(check.line(answer->target));
        if (request.plan.empty()) return refuse("the plan changes nothing");
        if (!check.passed()) return refuse(check.line(answer->target));
        if (!request.dryRunOnly && request.journalFile.empty()) return refuse("no journal file");
        auto job = std::make_shared<ApplyJob>();
        job->request = request;
        job->plan = planToSend(cluster.state, request.plan);
        job->target = answer->target;
        job->connection = *cluster.kube;
        job->cancel = cancel;
        m_applying.store(true);
        Q_EMIT applyChecked(std::move(job));
    });
}

void RequestWorker::setWhatIf(std::uint64_t request, std::vector<WhatIfStep> steps, EngineOptions options) {
    m_whatIfActive = true;
    m_whatIfRequest = request;
    m_whatIfSteps = std::move(steps);
    m_whatIfOptions = std::move(options);
    withCluster([this](const FrozenCluster& cluster) { computeWhatIf(cluster); });
}

void RequestWorker::clearWhatIf() {
    m_whatIfActive = false;
    m_whatIfTimer.stop();
    m_whatIfSteps.clear();
}

void RequestWorker::livePublished() {
    // A what-if follows the live cluster it is applied to, at a slower pace than the live picture:
    // each answer copies the whole state and places the broken gangs again.
    if (m_whatIfActive && !m_whatIfTimer.isActive()) m_whatIfTimer.start();
}

namespace {

// "Fail su-1/rack-1-02", "Place trainer (16 pods)": a step as the hypothetical snapshot lists it.
QString describeStep(const WhatIfStep& step) {
    switch (step.kind) {
    case WhatIfStep::Kind::Drain:
        return RequestWorker::tr("Drain %1").arg(QString::fromStdString(step.target));
    case WhatIfStep::Kind::Fail:
        return RequestWorker::tr("Fail %1").arg(QString::fromStdString(step.target));
    case WhatIfStep::Kind::Place:
        break;
    }
    return RequestWorker::tr("Place %1 (%2 pods)").arg(QString::fromStdString(step.gang.name)).arg(step.gang.pods);
}

} // namespace

void RequestWorker::computeWhatIf(const FrozenCluster& cluster) {
    if (!m_whatIfActive) return; // cleared while the copy was made
    auto answer = std::make_shared<WhatIfAnswer>();
    answer->liveGeneration = cluster.state.generation();
    if (!cluster.hasSource) {
        answer->error = "no cluster is open";
        Q_EMIT whatIfComputed(std::move(answer), m_whatIfRequest);
        return;
    }
    QElapsedTimer took;
    took.start();
    ClusterState state = cluster.state;
    TopologyIndex index = cluster.index;
    EngineOptions options = m_whatIfOptions;
    followSourceSlurmVersion(options, cluster.status.slurmVersion, cluster.status.slurmVersionOrigin);
    answer->steps = applyWhatIfSteps(state, index, m_whatIfSteps, options);
    for (const WhatIfStepOutcome& outcome : answer->steps) {
        answer->failures.insert(answer->failures.end(), outcome.failure.broken.begin(), outcome.failure.broken.end());
        answer->changedNodes.insert(answer->changedNodes.end(), outcome.nodes.begin(), outcome.nodes.end());
    }
    auto snapshot = makeClusterSnapshot(state, index, cluster.status, cluster.title, cluster.sourceEpoch);
    auto hypothetical = std::const_pointer_cast<ClusterSnapshot>(snapshot);
    for (const WhatIfStep& step : m_whatIfSteps) hypothetical->hypotheticalSteps << describeStep(step);
    // No step at all is still a what-if the user applied: say so rather than pass for live.
    if (hypothetical->hypotheticalSteps.isEmpty()) hypothetical->hypotheticalSteps << tr("no steps");
    answer->snapshot = std::move(snapshot);
    // A what-if that takes long on a large cluster leaves the thread time for other requests.
    m_whatIfTimer.setInterval(std::max<int>(kWhatIfIntervalMs, static_cast<int>(2 * took.elapsed())));
    Q_EMIT whatIfComputed(std::move(answer), m_whatIfRequest);
}

} // namespace topodeck
