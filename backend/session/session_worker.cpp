#include "session/session_worker.h"

#include "core/placement/placement_report.h"
#include "session/cluster_session.h"

#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
#include "core/exports/map_svg.h"
#include "core/hierarchy_sources.h"
#include "core/live_status.h"
#include "core/natural_order.h"
#include "core/placement/review_bundle.h"
#include "core/snapshot_reader.h"
#include "core/text_file.h"
#include "core/text_format.h"
#include "core/topology_presets.h"
#include "net/kube_source.h"
#include "net/kubeconfig.h"
#include "net/label_patch_sender.h"
#include "net/slurm_source.h"

#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

namespace topodeck {

SessionWorker::SessionWorker(const std::atomic<std::uint64_t>& latestRequest) : m_latestRequest(latestRequest) {
    m_simulationTimer.setInterval(kDefaultSimulationIntervalMs);
    connect(&m_simulationTimer, &QTimer::timeout, this, &SessionWorker::tick);
    m_publishTimer.setSingleShot(true);
    connect(&m_publishTimer, &QTimer::timeout, this, &SessionWorker::publishNow);
    m_whatIfTimer.setSingleShot(true);
    m_whatIfTimer.setInterval(kWhatIfIntervalMs);
    connect(&m_whatIfTimer, &QTimer::timeout, this, [this] {
        if (m_whatIfActive) computeWhatIf();
    });
}

// The sources stop (joining their threads) before the object their callbacks point at goes.
SessionWorker::~SessionWorker() {
    if (m_applyCancel) m_applyCancel->store(true); // stops after the batch in flight
    if (m_applyThread.joinable()) m_applyThread.join();
    m_connecting.reset();
    m_live.reset();
}

bool SessionWorker::superseded(std::uint64_t request) const {
    return request != m_latestRequest.load();
}

void SessionWorker::openDemo(std::uint64_t request, const QString& name, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset(); // a live cluster still listing is given up
    const QString sourceName = QStringLiteral("demo ") + name;
    setStatus({sourceName, SourceHealth::Connecting, tr("generating the demo cluster"), {}});

    Result<DemoCluster> demo = makeDemoCluster(name.toStdString());
    if (!demo) return fail(request, sourceName, demo.error().message);
    Loaded loaded;
    // The simulator learns the demo's gangs from its events, so it is built before they are moved.
    loaded.simulator = std::make_unique<DemoSimulator>(*demo, demo->seed);
    for (ClusterEvent& event : demo->events) loaded.state.apply(std::move(event));
    if (superseded(request)) return;

    Result<TopologyIndex> index = choice.buildIndex(loaded.state, &demo->topology);
    if (!index) return fail(request, sourceName, index.error().message);
    loaded.index = std::move(*index);
    loaded.title = QString::fromStdString(demo->title);
    loaded.status = {sourceName, SourceHealth::Live, QString(), {}};
    install(request, std::move(loaded));
}

void SessionWorker::openFile(std::uint64_t request, const QString& path, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset();
    const QString sourceName = QStringLiteral("file ") + QFileInfo(path).fileName();
    setStatus({sourceName, SourceHealth::Connecting, tr("reading %1").arg(path), {}});

    Result<Snapshot> snapshot = readSnapshotFile(QFile::encodeName(path).toStdString());
    if (!snapshot) return fail(request, sourceName, snapshot.error().message);
    if (superseded(request)) return;
    Loaded loaded;
    std::move(*snapshot).applyTo(loaded.state);
    if (!choice.slurmTopologyFile.empty())
        if (Status added = addSlurmTopologyFile(choice.slurmTopologyFile, loaded.state, snapshot->warnings); !added)
            return fail(request, sourceName, added.error().message);

    Result<TopologyIndex> index = choice.buildIndex(loaded.state);
    if (!index) return fail(request, sourceName, index.error().message);
    if (superseded(request)) return;
    loaded.index = std::move(*index);
    loaded.title = path;
    loaded.status = {sourceName, SourceHealth::Live,
                     tr("%1 nodes, %2 pods").arg(loaded.state.presentNodeCount()).arg(loaded.state.podCount()),
                     std::move(snapshot->warnings)};
    install(request, std::move(loaded));
}

void SessionWorker::openKubernetes(std::uint64_t request, const KubeTarget& target, const HierarchyChoice& choice) {
    if (superseded(request)) return;
    m_connecting.reset();
    const QString sourceName =
        target.inCluster ? tr("in-cluster")
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
    connecting->loaded.title = connecting->sourceName + QStringLiteral(" · ") + QString::fromStdString(connection->server);
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

void SessionWorker::openSlurm(std::uint64_t request, const SlurmTarget& target, const HierarchyChoice& choice) {
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

void SessionWorker::scheduleDrain() {
    if (!m_drainScheduled.exchange(true)) QMetaObject::invokeMethod(this, &SessionWorker::drainLive, Qt::QueuedConnection);
}

SourceStatus SessionWorker::statusOf(const LiveStatus& live, const QString& sourceName,
                                     const std::vector<std::string>& extraWarnings) const {
    SourceStatus status;
    status.sourceName = sourceName;
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
                counts << QStringLiteral("%1 %2").arg(QString::fromStdString(groupThousands(static_cast<std::int64_t>(resource.objects))),
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
        const auto count = [](std::size_t n) { return QString::fromStdString(groupThousands(static_cast<std::int64_t>(n))); };
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

void SessionWorker::drainLive() {
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

void SessionWorker::applyLiveEvents(std::vector<ClusterEvent>&& events) {
    if (events.empty()) return;
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
            m_planBase.reset();
        }
    }
    requestPublish();
}

void SessionWorker::install(std::uint64_t request, Loaded loaded) {
    if (superseded(request)) return;
    m_planBase.reset(); // it points into the state replaced here
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

void SessionWorker::computeGangsReport(std::uint64_t request) {
    auto report = std::make_shared<GangsReport>();
    if (m_hasSource) *report = buildGangsReport(m_state, m_index);
    Q_EMIT gangsReportComputed(std::move(report), request);
}

void SessionWorker::computePlan(std::uint64_t request, PlanQuery query) {
    // The session does not yet learn a live Slurm's version: the newest rules, as the note says.
    followSourceSlurmVersion(query.options, {}, {});
    auto answer = std::make_shared<PlanAnswer>();
    answer->generation = m_state.generation();
    // Every dry-run of one state of the cluster starts from the same base: a re-run after a
    // change of flags costs the engines only.
    if (m_hasSource && (!m_planBase || m_planBaseGeneration != m_state.generation())) {
        m_planBase = preparePlanBase(m_state, m_index.spec(), m_index.gpuResources());
        m_planBaseGeneration = m_state.generation();
    }
    auto inputs = m_hasSource ? preparePlan(m_planBase, query)
                              : Result<std::unique_ptr<PlanInputs>>(Error{"no cluster is open"});
    auto outcome = inputs ? runPlanQuery(**inputs, query) : Result<PlanOutcome>(inputs.error());
    if (!outcome) {
        answer->error = outcome.error().message;
    } else {
        answer->outcome = std::move(*outcome);
        for (const PlacementResult& result : answer->outcome.results) {
            auto& nodes = answer->nodePods.emplace_back();
            for (const NodePods& placed : result.nodes)
                if (const auto id = m_state.findNode(placed.node)) nodes.emplace_back(*id, placed.pods);
        }
        answer->json = renderPlanJson(answer->outcome.results, answer->outcome.skipped, query.compare, nullptr,
                                      &(*inputs)->failures);
    }
    Q_EMIT planComputed(std::move(answer), request);
}

namespace {

Result<std::vector<ExportFile>> exportFilesOf(const ClusterState& state, const TopologyIndex& index,
                                              const ExportRequest& request, std::vector<std::string>& warnings) {
    if (request.bundle) {
        std::optional<ChangePlan> plan;
        if (!request.planFile.empty()) {
            auto text = readTextFile(request.planFile);
            if (!text) return text.error();
            auto read = readChangePlan(*text, request.planFile);
            if (!read) return read.error();
            plan = std::move(*read);
        }
        ReviewBundleRequest bundle;
        bundle.source = request.source;
        bundle.plan = plan ? &*plan : nullptr;
        bundle.dryRun = request.gang ? &*request.gang : nullptr;
        bundle.exports = request.options;
        bundle.gpus = index.gpuResources();
        auto made = reviewBundle(state, index, bundle);
        if (!made) return made.error();
        warnings = std::move(made->warnings);
        return std::move(made->files);
    }
    std::vector<ExportFile> files;
    for (const std::string& format : request.formats) {
        if (format == "labels") {
            NodeLabelsExport labels = nodeLabelsExport(state, index);
            files.push_back({"node-labels.yaml", std::move(labels.objects)});
            files.push_back({"kubectl-label.sh", std::move(labels.kubectlLines)});
        } else if (format == "map") {
            files.push_back({"map.svg", topologyMapSvg(state, index, {request.source, {}, {}})});
        } else {
            TopologyExportFiles exports = topologyExportFiles(state, index, request.options, format);
            warnings.insert(warnings.end(), exports.leftOut.begin(), exports.leftOut.end());
            for (ExportFile& file : exports.files) files.push_back(std::move(file));
        }
    }
    if (files.empty()) return Error{warnings.empty() ? std::string("nothing to export") : warnings.front()};
    return files;
}

} // namespace

void SessionWorker::computeExport(const ExportRequest& request) {
    auto answer = std::make_shared<ExportAnswer>();
    auto files = m_hasSource ? exportFilesOf(m_state, m_index, request, answer->warnings)
                             : Result<std::vector<ExportFile>>(Error{"no cluster is open"});
    auto written = files ? writeExportFolder(request.folder, *files, request.bundle)
                         : Result<std::vector<std::string>>(files.error());
    if (written) answer->written = std::move(*written);
    else answer->error = written.error().message;
    Q_EMIT exportComputed(std::move(answer));
}

void SessionWorker::computeChangePreview(std::uint64_t request, const ChangePreviewRequest& change) {
    auto preview = std::make_shared<ChangePreview>();
    const auto answer = [&](std::string error) {
        preview->error = std::move(error);
        Q_EMIT changePreviewComputed(std::move(preview), request);
    };
    if (!m_hasSource) return answer("no cluster is open");
    ChangePlan plan = change.plan;
    if (!change.planFile.empty()) {
        auto text = readTextFile(change.planFile);
        if (!text) return answer(text.error().message);
        auto read = readChangePlan(*text, change.planFile);
        if (!read) return answer(read.error().message);
        plan = std::move(*read);
    } else if (!change.undoJournal.empty()) {
        auto text = readTextFile(change.undoJournal);
        if (!text) return answer(text.error().message);
        auto journal = readChangeJournal(*text, change.undoJournal);
        if (!journal) return answer(journal.error().message);
        plan = undoPlan(*journal);
    } else if (change.resolve) {
        if (change.relabel) {
            auto generated = relabelOperations(m_state, m_index, *change.relabel);
            if (!generated) return answer(generated.error().message);
            plan.operations = std::move(*generated);
            plan.description = relabelDescription(*change.relabel, m_index.spec().origin);
        }
        // Every operation again, on the cluster as it is now.
        std::vector<LabelOperation> operations = std::move(plan.operations);
        plan.operations.clear();
        plan.labelChanges.clear();
        plan.cluster = m_status.sourceName.toStdString();
        // Its errors name the operation ("operation 2 (nodes a, b): ...").
        if (Status added = addLabelOperations(plan, m_state, m_index, std::move(operations)); !added)
            return answer(added.error().message);
        // Each object change again, on the objects as they are now.
        std::vector<ObjectChange> objects = std::move(plan.objectChanges);
        plan.objectChanges.clear();
        for (ObjectChange& object : objects) {
            std::optional<ObjectChange> again =
                objectChangeTo(m_state, object.kind, object.name, std::move(object.after));
            if (!again) continue;
            again->version = std::move(object.version);
            plan.objectChanges.push_back(std::move(*again));
        }
    }
    if (!change.saveTo.empty()) {
        if (Status written = writeFileAtomically(change.saveTo, writeChangePlan(plan)); !written)
            return answer(written.error().message);
        preview->saved = change.saveTo;
    }
    const ClusterState after = withPlanApplied(m_state, plan);
    const TopologyIndex afterIndex =
        TopologyIndex::build(after, specAfterPlan(m_index.spec(), after, plan), m_index.gpuResources());
    preview->diff = diffPlanTopology(m_state, m_index, after, afterIndex, plan);
    preview->drift = planDrift(m_state, plan);
    preview->text = planPreviewText(plan, preview->diff, preview->drift);
    if (change.relabel) {
        const std::vector<std::string> misplaced = relabelMismatches(after, m_index, *change.relabel);
        preview->relabelFaithful = misplaced.empty();
        preview->relabelCheck = relabelCheckText(misplaced, *change.relabel, m_index.spec().origin);
        preview->text += "\n" + preview->relabelCheck + "\n";
    }
    if (change.gang) {
        auto runs = gangDryRuns(m_state, &after, m_index, m_index.gpuResources(), *change.gang);
        if (runs) preview->gang = std::move(*runs);
        else preview->gangError = runs.error().message;
    }
    for (const LabelChange& labelChange : plan.labelChanges)
        if (const std::optional<NodeId> id = m_state.findNode(labelChange.node);
            id && (preview->nodes.empty() || preview->nodes.back() != *id))
            preview->nodes.push_back(*id);
    for (const ObjectChange& objectChange : plan.objectChanges)
        if (objectChange.kind == ObjectKind::HyperNode)
            for (const auto* object : {&objectChange.before, &objectChange.after})
                if (*object)
                    for (const HyperNodeMember& member : std::get<HyperNode>(**object).members)
                        if (member.type == HyperNodeMember::Type::Node &&
                            member.selector == HyperNodeMember::Selector::Exact)
                            if (const std::optional<NodeId> id = m_state.findNode(member.value))
                                preview->nodes.push_back(*id);
    std::sort(preview->nodes.begin(), preview->nodes.end());
    preview->nodes.erase(std::unique(preview->nodes.begin(), preview->nodes.end()), preview->nodes.end());
    if (m_kube) preview->target = "context " + m_kube->contextName;
    else preview->cannotApply = m_simulator ? "a demo cluster has no API server to write to"
                                            : m_live ? "a Slurm cluster's topology is not node labels"
                                                     : "a snapshot file has no API server to write to";
    preview->plan = std::move(plan);
    Q_EMIT changePreviewComputed(std::move(preview), request);
}

void SessionWorker::computeTopologyObjects(std::uint64_t request) {
    auto answer = std::make_shared<TopologyObjectsAnswer>();
    answer->generation = m_state.generation();
    answer->sourceEpoch = m_sourceEpoch;
    if (!m_hasSource) {
        answer->error = "no cluster is open";
        Q_EMIT topologyObjectsComputed(std::move(answer), request);
        return;
    }
    for (const auto& [name, hyperNode] : m_state.hyperNodes()) answer->objects.apply(HyperNodeUpserted{hyperNode});
    for (const auto& [name, spec] : m_state.topologies()) answer->objects.apply(TopologyUpserted{spec});
    for (const auto& [name, flavor] : m_state.resourceFlavors()) answer->objects.apply(ResourceFlavorUpserted{flavor});
    answer->fromHierarchy = hyperNodesFromIndex(m_state, m_index);
    std::set<std::string, std::less<>> keys;
    for (NodeId id = 0; id < m_state.nodeSlots(); ++id)
        if (const NodeRecord& record = m_state.record(id); record.present)
            for (const auto& label : record.node->labels) keys.insert(std::string(label.first));
    answer->labelKeys.assign(keys.begin(), keys.end());
    Q_EMIT topologyObjectsComputed(std::move(answer), request);
}

void SessionWorker::startApply(const ApplyRequest& request, std::shared_ptr<std::atomic<bool>> cancel) {
    auto answer = std::make_shared<ApplyAnswer>();
    const auto refuse = [&](std::string why) {
        answer->refused = std::move(why);
        Q_EMIT applyFinished(std::move(answer));
    };
    if (m_applying.load()) return refuse("another apply is still running");
    if (!m_hasSource || !m_kube) return refuse("the cluster shown is not a Kubernetes cluster");
    answer->target = "context " + m_kube->contextName;
    if (const std::vector<std::string> drift = planDrift(m_state, request.plan); !drift.empty())
        return refuse(answer->target + " no longer holds what the plan found (" + drift.front() +
                      (drift.size() > 1 ? " and " + std::to_string(drift.size() - 1) + " more" : std::string()) +
                      "): preview it again");
    if (request.plan.empty()) return refuse("the plan changes nothing");
    ChangePlan plan = request.plan;
    if (!plan.objectChanges.empty()) {
        const std::vector<std::string> problems =
            objectChangeProblems(plan.objectChanges, m_state, withPlanApplied(m_state, plan));
        if (!problems.empty())
            return refuse(
                "the cluster would refuse the plan's objects (" + problems.front() +
                (problems.size() > 1 ? " and " + std::to_string(problems.size() - 1) + " more" : std::string()) + ")");
        // A demo's or a file's objects came without resourceVersions: the cluster's are the
        // preconditions, where its objects still say what the plan found.
        takeResourceVersions(plan.objectChanges, m_state);
    }
    if (!request.dryRunOnly && request.journalFile.empty()) return refuse("no journal file");
    if (m_applyThread.joinable()) m_applyThread.join(); // the last one, finished
    m_applying.store(true);
    m_applyCancel = cancel;
    m_applyThread = std::thread([this, request, plan = std::move(plan), cancel, answer,
                                 connection = *m_kube]() mutable {
        ExecEnvironment exec;
        exec.cancelled = cancel.get(); // the thread keeps `cancel` alive
        KubePatchOptions patch;
        const auto credentials = std::make_shared<KubeCredentials>(std::move(connection), std::move(exec));
        const PatchSender send = kubePatchSender(credentials, patch);
        ChangeJournal journal;
        journal.plan = request.plan.name;
        journal.cluster = answer->target;
        journal.fieldManager = patch.fieldManager;
        journal.started = formatUtc(std::chrono::system_clock::now());
        ApplyOptions options;
        options.batchSize = request.batchSize;
        options.dryRunOnly = request.dryRunOnly;
        options.sendObject = kubeObjectSender(credentials, patch);
        options.cancelled = [&cancel] { return cancel->load(); };
        const auto total = static_cast<quint64>(plan.labelChanges.size() + plan.objectChanges.size());
        options.progress = [this, total](const ChangeJournal& sofar) {
            Q_EMIT applyProgressed(total - sofar.count(ChangeOutcome::NotAttempted), total);
        };
        if (!request.dryRunOnly) {
            std::error_code ignored; // an unwritable folder is the journal's error, below
            std::filesystem::create_directories(std::filesystem::path(request.journalFile).parent_path(), ignored);
        }
        auto applied = applyPlanJournaled(plan, std::move(journal), request.journalFile, send, options);
        if (!applied) {
            answer->refused = applied.error().message;
        } else {
            answer->result = std::move(applied->result);
            answer->journalProblem = std::move(applied->journalProblem);
            if (!request.dryRunOnly && answer->result.stage != ApplyResult::Stage::DryRunRefused)
                answer->journalFile = request.journalFile;
            const std::vector<NodePatch> patches = nodePatches(plan);
            for (const auto& [index, said] : answer->result.dryRunRefusals)
                answer->refusals.emplace_back(patches[index].node,
                                              std::string(changeOutcomeName(outcomeOf(said))) + ": " + said.message);
            for (const JournalChange& entry : answer->result.journal.changes)
                if (entry.outcome != ChangeOutcome::Applied && entry.outcome != ChangeOutcome::NotAttempted &&
                    (answer->refusals.empty() || answer->refusals.back().first != entry.change.node))
                    answer->refusals.emplace_back(entry.change.node,
                                                  std::string(changeOutcomeName(entry.outcome)) + ": " + entry.message);
            const auto objectTitle = [](const ObjectChange& change) {
                return std::string(objectKindTitle(change.kind)) + " " + change.name;
            };
            for (const auto& [index, said] : answer->result.objectDryRunRefusals)
                if (index < plan.objectChanges.size())
                    answer->refusals.emplace_back(objectTitle(plan.objectChanges[index]),
                                                  std::string(changeOutcomeName(outcomeOf(said))) + ": " +
                                                      said.message);
            for (const JournalObjectChange& entry : answer->result.journal.objectChanges)
                if (entry.outcome != ChangeOutcome::Applied && entry.outcome != ChangeOutcome::NotAttempted)
                    answer->refusals.emplace_back(objectTitle(entry.change),
                                                  std::string(changeOutcomeName(entry.outcome)) + ": " + entry.message);
        }
        m_applying.store(false);
        Q_EMIT applyFinished(std::move(answer));
    });
}

void SessionWorker::computeNodePods(std::uint64_t request, NodeId node) {
    auto answer = std::make_shared<NodePodsAnswer>();
    answer->node = node;
    answer->generation = m_state.generation();
    answer->sourceEpoch = m_sourceEpoch;
    if (m_hasSource) m_state.forEachPodOn(node, [&](const Pod& pod) { answer->pods.push_back(pod); });
    std::sort(answer->pods.begin(), answer->pods.end(), [](const Pod& a, const Pod& b) {
        if (a.nameSpace != b.nameSpace) return naturalLess(a.nameSpace, b.nameSpace);
        return naturalLess(a.name, b.name);
    });
    Q_EMIT nodePodsComputed(std::move(answer), request);
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
    // A what-if follows the live cluster it is applied to, at a slower pace than the live picture:
    // each answer copies the whole state and places the broken gangs again.
    if (m_whatIfActive && !m_whatIfTimer.isActive()) m_whatIfTimer.start();
}

void SessionWorker::setWhatIf(std::uint64_t request, std::vector<WhatIfStep> steps, EngineOptions options) {
    m_whatIfActive = true;
    m_whatIfRequest = request;
    m_whatIfSteps = std::move(steps);
    m_whatIfOptions = std::move(options);
    followSourceSlurmVersion(m_whatIfOptions, {}, {});
    computeWhatIf();
}

void SessionWorker::clearWhatIf() {
    m_whatIfActive = false;
    m_whatIfTimer.stop();
    m_whatIfSteps.clear();
}

namespace {

// "Fail su-1/rack-1-02", "Place trainer (16 pods)": a step as the hypothetical snapshot lists it.
QString describeStep(const WhatIfStep& step) {
    switch (step.kind) {
    case WhatIfStep::Kind::Drain:
        return SessionWorker::tr("Drain %1").arg(QString::fromStdString(step.target));
    case WhatIfStep::Kind::Fail:
        return SessionWorker::tr("Fail %1").arg(QString::fromStdString(step.target));
    case WhatIfStep::Kind::Place:
        break;
    }
    return SessionWorker::tr("Place %1 (%2 pods)").arg(QString::fromStdString(step.gang.name)).arg(step.gang.pods);
}

} // namespace

void SessionWorker::computeWhatIf() {
    auto answer = std::make_shared<WhatIfAnswer>();
    answer->liveGeneration = m_state.generation();
    if (!m_hasSource) {
        answer->error = "no cluster is open";
        Q_EMIT whatIfComputed(std::move(answer), m_whatIfRequest);
        return;
    }
    QElapsedTimer took;
    took.start();
    ClusterState state = m_state;
    TopologyIndex index = m_index;
    answer->steps = applyWhatIfSteps(state, index, m_whatIfSteps, m_whatIfOptions);
    for (const WhatIfStepOutcome& outcome : answer->steps) {
        answer->failures.insert(answer->failures.end(), outcome.failure.broken.begin(), outcome.failure.broken.end());
        answer->changedNodes.insert(answer->changedNodes.end(), outcome.nodes.begin(), outcome.nodes.end());
    }
    auto snapshot = makeClusterSnapshot(state, index, m_status, m_title, m_sourceEpoch);
    auto hypothetical = std::const_pointer_cast<ClusterSnapshot>(snapshot);
    for (const WhatIfStep& step : m_whatIfSteps) hypothetical->hypotheticalSteps << describeStep(step);
    // No step at all is still a what-if the user applied: say so rather than pass for live.
    if (hypothetical->hypotheticalSteps.isEmpty()) hypothetical->hypotheticalSteps << tr("no steps");
    answer->snapshot = std::move(snapshot);
    // A what-if that takes long on a large cluster leaves the worker time for the live cluster.
    m_whatIfTimer.setInterval(std::max<int>(kWhatIfIntervalMs, static_cast<int>(2 * took.elapsed())));
    Q_EMIT whatIfComputed(std::move(answer), m_whatIfRequest);
}

} // namespace topodeck
