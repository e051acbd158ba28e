#pragma once
// Internal to the session: the thread that answers requests (dry-runs, gangs reports, a node's
// pods, change previews, exports, topology objects, what-ifs, an apply's checks) on a frozen copy
// of the cluster, so that a slow request never holds up the source's events and the source's
// events never hold up a request. The operations are the use-cases (usecases/).

#include "core/placement/engines/placement_engine.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/whatif/what_if_sequence.h"
#include "session/apply_worker.h"
#include "session/frozen_cluster.h"
#include "session/session_requests.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace topodeck {

class SourceWorker;

class RequestWorker : public QObject {
    Q_OBJECT
public:
    // An applied what-if follows the live cluster this often at most (or twice as long as it took).
    static constexpr int kWhatIfIntervalMs = 500;

    // changeCount is the source worker's (SourceWorker): a frozen copy with another count is old.
    // applying is the session's: set here when an apply is sent, cleared by the ApplyWorker.
    RequestWorker(SourceWorker* source, const std::atomic<std::uint64_t>& changeCount, std::atomic<bool>& applying);

    // Each runs on a copy of the cluster as it is when the request is taken up (a newer copy is
    // asked of the source first when the cluster changed), answering with the request number.
    void computeGangsReport(std::uint64_t request);
    void computePlan(std::uint64_t request, PlanQuery query);
    void computeNodePods(std::uint64_t request, NodeId node);
    void computeExport(const ExportRequest& request);
    void computeChangePreview(std::uint64_t request, const ChangePreviewRequest& change);
    void computeTopologyObjects(std::uint64_t request);
    // Checks the plan against the cluster now (checkApply); a plan that passes goes on to the
    // apply thread with applyChecked, one that does not is answered with applyFinished.
    void checkApply(const ApplyRequest& request, std::shared_ptr<std::atomic<bool>> cancel);
    // Applies these steps to a copy of the cluster now and after every live snapshot (at most
    // every kWhatIfIntervalMs), answering with the request number, until clearWhatIf().
    void setWhatIf(std::uint64_t request, std::vector<WhatIfStep> steps, EngineOptions options);
    void clearWhatIf();

    // From the source worker.
    void takeFrozen(const FrozenClusterPtr& cluster);
    void livePublished();

Q_SIGNALS:
    void planComputed(std::shared_ptr<const topodeck::PlanAnswer> answer, quint64 request);
    void gangsReportComputed(std::shared_ptr<const topodeck::GangsReport> report, quint64 request);
    void nodePodsComputed(std::shared_ptr<const topodeck::NodePodsAnswer> answer, quint64 request);
    void exportComputed(std::shared_ptr<const topodeck::ExportAnswer> answer);
    void changePreviewComputed(std::shared_ptr<const topodeck::ChangePreview> preview, quint64 request);
    void topologyObjectsComputed(std::shared_ptr<const topodeck::TopologyObjectsAnswer> objects, quint64 request);
    void whatIfComputed(std::shared_ptr<const topodeck::WhatIfAnswer> answer, quint64 request);
    // The plan passed the checks: the ApplyWorker sends it.
    void applyChecked(topodeck::ApplyJobPtr job);
    void applyFinished(std::shared_ptr<const topodeck::ApplyAnswer> answer);

private:
    using Job = std::function<void(const FrozenCluster&)>;
    // Runs the job on a current copy: now, or when the source has sent a newer one.
    void withCluster(Job job);
    void computeWhatIf(const FrozenCluster& cluster);

    SourceWorker* m_source;
    const std::atomic<std::uint64_t>& m_changeCount;
    std::atomic<bool>& m_applying;
    FrozenClusterPtr m_cluster;
    std::vector<Job> m_waiting; // jobs for the copy asked of the source
    bool m_freezeAsked = false;

    // The dry-runs' starting point for one copy of the cluster (it points into that copy).
    std::shared_ptr<const PlanBase> m_planBase;
    FrozenClusterPtr m_planBaseCluster;

    bool m_whatIfActive = false;
    std::uint64_t m_whatIfRequest = 0;
    std::vector<WhatIfStep> m_whatIfSteps;
    EngineOptions m_whatIfOptions;
    QTimer m_whatIfTimer{this};
};

} // namespace topodeck
