// The Slurm sources (slurmrestd over TCP with JWT, slurmrestd on a unix socket with
// rest_auth/local, and the Slurm CLI) and topodeckctl against a real Slurm 22.05 (Debian 12):
// slurm-fixture.sh with 64 nodes of 8 fake GPUs under 8 leaf and 4 spine switches, real jobs
// (`sleep`), a drained, a draining and a down node. Every check compares topodeck's view with
// what `sinfo` and `squeue` say at that moment; then the sources follow changes (new jobs,
// drains), bad tokens become a clear Unauthorized state, and a slurmctld stopped mid-poll makes
// the data stale until it is back.
//
// Needs root, munge and the Slurm daemons (installer/install-deps.sh --tests); skipped without them
// unless TOPODECK_REQUIRE_SLURM=1 (CI). The fixture's watchdog stops the cluster if this program dies.

#include "slurm_test_support.h"

#include "core/slurm/slurm_cluster.h"
#include "net/slurm_source.h"
#include "session/cluster_session.h"
#include "support/test_program.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QJsonArray>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>

#include <map>
#include <set>

using namespace topodeck;
using livetest::LiveFollower;
using livetest::ProcessRun;

namespace {

constexpr int kNodes = 64;

// What sinfo says of one node.
struct SinfoNode {
    QString state; // StateLong without the '*' of a node that does not respond
    bool responding = true;
    int gpus = 0;
    int gpusUsed = 0;
    int cpusAllocated = 0;
    qint64 memoryAllocatedMiB = 0;
};

int gresGpus(const QString& gres) {
    static const QRegularExpression count(QStringLiteral("gpu(?::[^:(,]+)?:(\\d+)"));
    int total = 0;
    for (QRegularExpressionMatchIterator it = count.globalMatch(gres); it.hasNext();) total += it.next().captured(1).toInt();
    return total;
}

QString jobTag(const QString& id) {
    return QStringLiteral("(job ") + id + QLatin1Char(')');
}

// The pods (job allocations) of the model by job tag -> node names.
std::map<QString, QStringList> jobsInModel(const ClusterState& state) {
    std::map<QString, QStringList> jobs;
    state.forEachPod([&](const Pod& pod) {
        const QString workload = QString::fromStdString(pod.workload);
        const qsizetype at = workload.lastIndexOf(QStringLiteral("(job "));
        if (at >= 0) jobs[workload.mid(at)] << QString::fromStdString(pod.nodeName);
    });
    for (auto& [tag, nodes] : jobs) nodes.sort();
    return jobs;
}

const Node* findNode(const ClusterState& state, const QString& name) {
    const auto id = state.findNode(name.toStdString());
    return id && state.record(*id).present ? state.record(*id).node.get() : nullptr;
}

} // namespace

class SlurmLiveTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();

    void sourceMatchesSlurm_data();
    void sourceMatchesSlurm();
    void pollsBringOnlyChanges();
    void badTopologyFile();
    void commandsWithoutJson();
    void sessionFollowsSlurm();
    void badCredentials_data();
    void badCredentials();
    void showMatchesSlurm_data();
    void showMatchesSlurm();
    void showWatchRedraws();
    void snapshotReadsBack();
    void planAsksSlurm_data();
    void planAsksSlurm();
    void rulesFollowSlurmctldNotTheClient();
    void controllerStoppedMidPoll(); // last: slurmctld restarted leaves nodes not responding a while

private:
    SlurmTarget target(const QString& kind) const;
    static SlurmSourceOptions fastOptions();
    std::map<QString, SinfoNode> sinfo() const;
    std::map<QString, QStringList> runningJobs() const;
    QString compareWithSlurm(const ClusterState& state, bool labelsFromTopology) const;

    slurmtest::SlurmFixture m_cluster;
    bool m_anyFailed = false;
};

void SlurmLiveTest::initTestCase() {
    SLURMTEST_REQUIRE_SLURM();
    QElapsedTimer timer;
    timer.start();
    QString error = m_cluster.start({QStringLiteral("-n"), QString::number(kNodes)});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Pinned with -w, so that every run sees the same occupancy.
    const QList<QStringList> jobs = {
        {QStringLiteral("-J"), QStringLiteral("gang-a"), QStringLiteral("-N"), QStringLiteral("4"), QStringLiteral("-w"),
         QStringLiteral("gpu-[001-004]"), QStringLiteral("--gres=gpu:8")},
        {QStringLiteral("-J"), QStringLiteral("small"), QStringLiteral("-N"), QStringLiteral("1"), QStringLiteral("-w"),
         QStringLiteral("gpu-005"), QStringLiteral("--gres=gpu:3")},
        {QStringLiteral("-J"), QStringLiteral("cpu-only"), QStringLiteral("-N"), QStringLiteral("2"), QStringLiteral("-w"),
         QStringLiteral("gpu-[006-007]"), QStringLiteral("-c"), QStringLiteral("16")},
        {QStringLiteral("-J"), QStringLiteral("wide"), QStringLiteral("-N"), QStringLiteral("8"), QStringLiteral("-w"),
         QStringLiteral("gpu-[017-024]"), QStringLiteral("--gres=gpu:2")},
    };
    for (QStringList args : jobs) {
        args << QStringLiteral("-t") << QStringLiteral("60") << QStringLiteral("--wrap") << QStringLiteral("sleep 3600");
        m_cluster.submit(args, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    error = m_cluster.waitUntilSettled(QStringLiteral("the jobs to run"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Drained while idle, draining with a job on it, and down.
    for (const auto& [nodes, state, reason] :
         {std::tuple{QStringLiteral("gpu-010"), QStringLiteral("DRAIN"), QStringLiteral("xid-79")},
          std::tuple{QStringLiteral("gpu-005"), QStringLiteral("DRAIN"), QStringLiteral("ecc")},
          std::tuple{QStringLiteral("gpu-011"), QStringLiteral("DOWN"), QStringLiteral("dead")}}) {
        const ProcessRun update = m_cluster.slurm(QStringLiteral("scontrol"),
                                                  {QStringLiteral("update"), QStringLiteral("NodeName=") + nodes,
                                                   QStringLiteral("State=") + state, QStringLiteral("Reason=") + reason});
        QVERIFY2(update.exitCode == 0, qPrintable(update.describe()));
    }
    qInfo("cluster up and occupied in %lld ms (%s)", static_cast<long long>(timer.elapsed()), qPrintable(m_cluster.path()));
}

void SlurmLiveTest::cleanup() {
    if (QTest::currentTestFailed()) m_anyFailed = true;
}

void SlurmLiveTest::cleanupTestCase() {
    m_cluster.stop();
    if (m_anyFailed) m_cluster.keep();
}

SlurmTarget SlurmLiveTest::target(const QString& kind) const {
    SlurmTarget target;
    if (kind == QLatin1String("cli")) {
        target.slurmConf = m_cluster.value("SLURM_CONF").toStdString();
    } else if (kind == QLatin1String("rest-jwt")) {
        target.kind = SlurmTarget::Kind::Rest;
        target.url = m_cluster.value("TOPODECK_SLURM_REST_URL").toStdString();
        target.tokenFile = m_cluster.value("TOPODECK_SLURM_JWT_FILE").toStdString();
        target.topologyFile = m_cluster.value("TOPODECK_SLURM_TOPOLOGY").toStdString();
    } else if (kind == QLatin1String("rest-unix")) {
        target.kind = SlurmTarget::Kind::Rest;
        target.url = "unix:" + m_cluster.value("TOPODECK_SLURM_REST_SOCKET").toStdString();
    } else if (kind == QLatin1String("rest-v0.0.37")) {
        target = this->target(QStringLiteral("rest-jwt"));
        target.apiVersion = "v0.0.37";
    }
    return target;
}

SlurmSourceOptions SlurmLiveTest::fastOptions() {
    SlurmSourceOptions options;
    options.pollInterval = std::chrono::milliseconds(300);
    options.backoffInitial = std::chrono::milliseconds(100);
    options.backoffMax = std::chrono::milliseconds(500);
    options.staleAfter = std::chrono::seconds(2);
    return options;
}

std::map<QString, SinfoNode> SlurmLiveTest::sinfo() const {
    const ProcessRun run = m_cluster.slurm(
        QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-O"),
                                  QStringLiteral("NodeList:20,StateLong:20,Gres:40,GresUsed:60,CPUsState:24,AllocMem:16")});
    std::map<QString, SinfoNode> nodes;
    for (const QString& line : QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() < 6) continue;
        SinfoNode node;
        node.state = QString(f[1]).remove(QLatin1Char('*'));
        node.responding = !f[1].endsWith(QLatin1Char('*'));
        node.gpus = gresGpus(f[2]);
        node.gpusUsed = gresGpus(f[3]);
        node.cpusAllocated = f[4].section(QLatin1Char('/'), 0, 0).toInt();
        node.memoryAllocatedMiB = f[5].toLongLong();
        nodes[f[0]] = node;
    }
    return nodes;
}

std::map<QString, QStringList> SlurmLiveTest::runningJobs() const {
    const ProcessRun run = m_cluster.slurm(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("R"),
                                                                      QStringLiteral("-o"), QStringLiteral("%i|%N")});
    std::map<QString, QStringList> jobs;
    for (const QString& line : QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        jobs[jobTag(line.section(QLatin1Char('|'), 0, 0))] = m_cluster.expandHostlist(line.section(QLatin1Char('|'), 1));
    return jobs;
}

// Node by node and job by job: "" when the model says what Slurm says.
QString SlurmLiveTest::compareWithSlurm(const ClusterState& state, bool labelsFromTopology) const {
    const std::map<QString, SinfoNode> truth = sinfo();
    if (truth.size() != kNodes) return QStringLiteral("sinfo listed %1 nodes").arg(truth.size());
    if (state.presentNodeCount() != truth.size())
        return QStringLiteral("the model has %1 nodes, sinfo %2").arg(state.presentNodeCount()).arg(truth.size());
    for (const auto& [name, slurm] : truth) {
        const auto id = state.findNode(name.toStdString());
        if (!id) return name + QStringLiteral(" is missing");
        const Node& node = *state.record(*id).node;
        const ResourceList& used = state.record(*id).usage.requested;
        const auto label = [&](std::string_view key) {
            const std::string* value = node.label(key);
            return value ? QString::fromStdString(*value) : QString();
        };
        const QString where = name + QLatin1String(": ");
        if (label(slurm_labels::kState) != slurm.state)
            return where + QStringLiteral("state %1, sinfo says %2").arg(label(slurm_labels::kState), slurm.state);
        if (node.allocatable.get("nvidia.com/gpu").value() != slurm.gpus)
            return where + QStringLiteral("%1 GPUs, sinfo says %2").arg(node.allocatable.get("nvidia.com/gpu").value()).arg(slurm.gpus);
        if (used.get("nvidia.com/gpu").value() != slurm.gpusUsed)
            return where + QStringLiteral("%1 GPUs used, sinfo says %2").arg(used.get("nvidia.com/gpu").value()).arg(slurm.gpusUsed);
        if (used.get("cpu").value() != slurm.cpusAllocated)
            return where + QStringLiteral("%1 CPUs used, sinfo says %2").arg(used.get("cpu").value()).arg(slurm.cpusAllocated);
        if (used.get("memory").value() != slurm.memoryAllocatedMiB * 1024 * 1024)
            return where + QStringLiteral("memory used %1 B, sinfo says %2 MiB").arg(used.get("memory").value()).arg(slurm.memoryAllocatedMiB);
        const bool down = slurm.state.startsWith(QLatin1String("down")) || !slurm.responding;
        const bool drain = slurm.state.startsWith(QLatin1String("drain"));
        if (node.ready == down) return where + QStringLiteral("ready=%1 for a %2 node").arg(node.ready).arg(slurm.state);
        if (node.unschedulable != drain) return where + QStringLiteral("unschedulable=%1 for a %2 node").arg(node.unschedulable).arg(slurm.state);
        const QString leaf = label(std::string(slurm_labels::kPrefix) + "leaf");
        const int index = name.mid(4).toInt();
        const QString wantLeaf = labelsFromTopology ? QStringLiteral("leaf%1").arg((index - 1) / 8 + 1, 2, 10, QLatin1Char('0')) : QString();
        if (leaf != wantLeaf) return where + QStringLiteral("leaf \"%1\", topology.conf says \"%2\"").arg(leaf, wantLeaf);
    }
    const std::map<QString, QStringList> jobs = runningJobs();
    if (jobs.empty()) return QStringLiteral("squeue shows no running job");
    const std::map<QString, QStringList> modelled = jobsInModel(state);
    for (const auto& [tag, nodes] : jobs) {
        const auto it = modelled.find(tag);
        if (it == modelled.end()) return tag + QStringLiteral(" is running but not in the model");
        if (it->second != nodes)
            return tag + QStringLiteral(" runs on %1, the model has %2").arg(nodes.join(QLatin1Char(',')), it->second.join(QLatin1Char(',')));
    }
    for (const auto& [tag, nodes] : modelled)
        if (!jobs.contains(tag)) return tag + QStringLiteral(" is in the model but squeue shows it not running");
    return {};
}

void SlurmLiveTest::sourceMatchesSlurm_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("topology");
    QTest::addColumn<QStringList>("levels");
    QTest::newRow("cli") << QStringLiteral("cli") << true << QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")};
    QTest::newRow("slurmrestd jwt") << QStringLiteral("rest-jwt") << true
                                    << QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")};
    QTest::newRow("slurmrestd unix socket") << QStringLiteral("rest-unix") << false << QStringList{QStringLiteral("partition")};
    QTest::newRow("slurmrestd v0.0.37") << QStringLiteral("rest-v0.0.37") << true
                                        << QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")};
}

void SlurmLiveTest::sourceMatchesSlurm() {
    QFETCH(QString, kind);
    QFETCH(bool, topology);
    QFETCH(QStringList, levels);
    LiveFollower followed(std::make_unique<SlurmSource>(target(kind), fastOptions()));
    QVERIFY2(followed.waitForStatus(LinkState::Synced), followed.status().message.c_str());
    const auto spec = followed.state.topologies().find(std::string(kSlurmTopologyName));
    QVERIFY(spec != followed.state.topologies().end());
    QStringList names;
    for (const TopologyLevel& level : spec->second.levels) names << QString::fromStdString(level.name);
    QCOMPARE(names, levels);
    QCOMPARE(followed.state.slurmTopology() != nullptr, topology);
    const LiveStatus status = followed.status();
    // Without a topology the source says so, rather than showing a flat map without a word.
    const bool saysNoTopology = !status.notes.empty() && status.notes.front().find("does not serve the topology") != std::string::npos;
    QCOMPARE(saysNoTopology, !topology);
    // Slurm's own counters move while jobs start; compare again until both agree (a poll later).
    QString difference;
    for (int attempt = 0; attempt < 20; ++attempt) {
        followed.pump();
        difference = compareWithSlurm(followed.state, topology);
        if (difference.isEmpty()) break;
        QThread::msleep(300);
    }
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// A poll that finds nothing new says nothing; a job that starts touches its nodes only.
void SlurmLiveTest::pollsBringOnlyChanges() {
    LiveFollower followed(std::make_unique<SlurmSource>(target(QStringLiteral("cli")), fastOptions()));
    QVERIFY(followed.waitForStatus(LinkState::Synced));
    QThread::msleep(1200); // four polls
    followed.pump();
    followed.events.clear();
    QThread::msleep(1200);
    followed.pump();
    QVERIFY2(followed.events.empty(), qPrintable(QStringLiteral("%1 events from unchanged polls").arg(followed.events.size())));

    QString error;
    const QString id = m_cluster.submit({QStringLiteral("-J"), QStringLiteral("probe"), QStringLiteral("-N"), QStringLiteral("2"),
                                         QStringLiteral("-w"), QStringLiteral("gpu-[025-026]"), QStringLiteral("--gres=gpu:4"),
                                         QStringLiteral("-t"), QStringLiteral("10"), QStringLiteral("--wrap"), QStringLiteral("sleep 600")},
                                        &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString tag = jobTag(id);
    QVERIFY2(followed.waitUntil([&](const ClusterState& state) {
                 const auto jobs = jobsInModel(state);
                 return jobs.contains(tag) && jobs.at(tag).size() == 2;
             }),
             "the new job never appeared");
    std::set<std::string> touched;
    for (const ClusterEvent& event : followed.events) {
        if (const auto* node = std::get_if<NodeUpserted>(&event)) touched.insert(node->node.name);
        else if (const auto* pod = std::get_if<PodUpserted>(&event)) touched.insert(pod->pod.nodeName);
        else if (std::holds_alternative<PodDeleted>(event)) touched.insert("(a pod deleted)");
        else touched.insert("(another event)");
    }
    QCOMPARE(touched, (std::set<std::string>{"gpu-025", "gpu-026"}));
    // sinfo may have been asked just before the job started: a poll later it says so too.
    QVERIFY(followed.waitUntil([](const ClusterState& s) {
        const std::string* state = findNode(s, QStringLiteral("gpu-025"))->label(slurm_labels::kState);
        return state && *state == "mixed";
    }));

    const ProcessRun cancel = m_cluster.slurm(QStringLiteral("scancel"), {id});
    QVERIFY2(cancel.exitCode == 0, qPrintable(cancel.describe()));
    QVERIFY2(followed.waitUntil([&](const ClusterState& s) { return !jobsInModel(s).contains(tag); }), "the job never left");
    error = m_cluster.waitUntilSettled(QStringLiteral("the probe to end"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

// A topology file that does not parse: the cluster still shows (by partition), the error says
// which line to fix, and the fixed file is picked up by the running source.
void SlurmLiveTest::badTopologyFile() {
    const QString file = m_cluster.path() + QStringLiteral("/broken-topology.conf");
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write("SwitchName=leaf01 Nodes=gpu-[001-008]\nSwitchName=leaf02 Nodes=gpu-[009-\n");
    out.close();
    SlurmTarget broken = target(QStringLiteral("rest-jwt"));
    broken.topologyFile = file.toStdString();
    LiveFollower followed(std::make_unique<SlurmSource>(broken, fastOptions()));
    QVERIFY2(followed.waitForStatus(LinkState::Synced), followed.status().message.c_str());
    QCOMPARE(followed.state.presentNodeCount(), std::size_t{kNodes});
    const LiveStatus status = followed.status();
    QVERIFY(!status.notes.empty());
    const QString note = QString::fromStdString(status.notes.front());
    QVERIFY2(note.contains(QStringLiteral("cannot use --slurm-topology")) && note.contains(QStringLiteral("broken-topology.conf:2: ")),
             qPrintable(note));
    QCOMPARE(followed.state.topologies().at(std::string(kSlurmTopologyName)).levels.front().name, std::string("partition"));

    QFile fixed(file);
    QVERIFY(fixed.open(QIODevice::WriteOnly | QIODevice::Truncate));
    fixed.write("SwitchName=leaf01 Nodes=gpu-[001-032]\nSwitchName=leaf02 Nodes=gpu-[033-064]\n"
                "SwitchName=top Switches=leaf[01-02]\n");
    fixed.close();
    QVERIFY2(followed.waitUntil([](const ClusterState& state) { return state.slurmTopology() != nullptr; }),
             "the fixed topology was not picked up");
    QCOMPARE(followed.state.topologies().at(std::string(kSlurmTopologyName)).levels.back().name, std::string("leaf"));
    followed.pump();
    const std::vector<std::string> notes = followed.status().notes;
    QVERIFY2(notes.empty(), notes.empty() ? "" : notes.front().c_str());
}

// A Slurm whose sinfo and squeue have no --json (before 21.08, or without a data_parser plugin):
// the nodes come from `scontrol show nodes`, jobs are said to be unavailable, occupancy stays right.
void SlurmLiveTest::commandsWithoutJson() {
    const QString bin = m_cluster.path() + QStringLiteral("/old-slurm-bin");
    QVERIFY(QDir().mkpath(bin));
    for (const char* tool : {"sinfo", "squeue"}) {
        QFile script(bin + QLatin1Char('/') + QLatin1String(tool));
        QVERIFY(script.open(QIODevice::WriteOnly | QIODevice::Truncate));
        script.write(QByteArray("#!/bin/sh\necho \"") + tool + ": unrecognized option '--json'\" >&2\nexit 1\n");
        script.close();
        QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    }
    QProcessEnvironment env = m_cluster.environment();
    env.insert(QStringLiteral("PATH"), bin + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    const ProcessRun show = livetest::runCtl({QStringLiteral("show"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                              QStringLiteral("-o"), QStringLiteral("json")},
                                             60000, env);
    QVERIFY2(show.exitCode == 0, qPrintable(show.describe()));
    QVERIFY2(show.err.contains("squeue has no --json here"), qPrintable(show.describe()));
    std::int64_t used = 0;
    for (const auto& [name, node] : sinfo()) used += node.gpusUsed;
    QCOMPARE(show.json().value(QStringLiteral("nodes_total")).toInt(), kNodes);
    QCOMPARE(show.json().value(QStringLiteral("gpus_used")).toInt(), int(used));
    QCOMPARE(show.json().value(QStringLiteral("topology")).toObject().value(QStringLiteral("levels")).toArray().size(), 3);
    // A snapshot needs sinfo's JSON, and says so.
    const ProcessRun snapshot = livetest::runCtl({QStringLiteral("snapshot"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                                  QStringLiteral("-o"), m_cluster.path() + QStringLiteral("/old-snapshot")},
                                                 60000, env);
    QCOMPARE(snapshot.exitCode, 1);
    QVERIFY2(snapshot.err.contains("no --json"), qPrintable(snapshot.describe()));
}

// The GUI's session opens a Slurm cluster as it opens a Kubernetes one: a snapshot once polled,
// with a status that names the source.
void SlurmLiveTest::sessionFollowsSlurm() {
    ClusterSession session;
    session.setSlurmSourceOptions(fastOptions());
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    session.openSlurm(target(QStringLiteral("cli")));
    QVERIFY(published.wait(20000));
    const ClusterSnapshotPtr snapshot = session.latestSnapshot();
    QVERIFY(snapshot);
    QCOMPARE(snapshot->status.health, SourceHealth::Live);
    QVERIFY2(snapshot->status.sourceName.contains(QStringLiteral("Slurm CLI")), qPrintable(snapshot->status.sourceName));
    QVERIFY2(snapshot->status.detail.contains(QStringLiteral("polling 64 nodes")), qPrintable(snapshot->status.detail));
    const std::map<QString, SinfoNode> truth = sinfo();
    std::int64_t used = 0;
    for (const auto& [name, node] : truth) used += node.gpusUsed;
    QCOMPARE(snapshot->index.root().totals.gpusUsed, used);
    QCOMPARE(snapshot->index.spec().levels.size(), std::size_t{3});
    // The session knows which Slurm it reads, and its dry-runs follow slurmctld's rules (the GUI's
    // planner and what-ifs), unasked.
    QCOMPARE(QString::fromStdString(snapshot->status.slurmVersion), QStringLiteral("22.05.8"));
    const QString origin = QStringLiteral("the version slurmctld (scontrol show config) reports");
    QCOMPARE(QString::fromStdString(snapshot->status.slurmVersionOrigin), origin);
    QSignalSpy answered(&session, &ClusterSession::planAnswered);
    auto query = parsePlanQuery("--engine slurm-tree --sbatch '-N 2 --gres=gpu:8'");
    QVERIFY2(query.ok(), query ? "" : query.error().message.c_str());
    session.requestPlan(*query);
    QVERIFY(answered.wait(20000));
    const auto answer = answered.at(0).at(0).value<PlanAnswerPtr>();
    QVERIFY2(answer->error.empty(), answer->error.c_str());
    QCOMPARE(answer->outcome.results.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(answer->outcome.results.front().rulesVersion), QStringLiteral("22.05.8"));
    QCOMPARE(QString::fromStdString(answer->outcome.results.front().rulesVersionOrigin), origin);
}

void SlurmLiveTest::badCredentials_data() {
    QTest::addColumn<QString>("token"); // what the token file holds; "-" for no token at all
    QTest::addColumn<QString>("says");
    QTest::newRow("garbage") << QStringLiteral("not-a-token") << QStringLiteral("not a JWT");
    QTest::newRow("wrong signature") << QStringLiteral("tampered") << QStringLiteral("rejected the token");
    QTest::newRow("expired") << QStringLiteral("expired") << QStringLiteral("expired at");
    QTest::newRow("none") << QStringLiteral("-") << QStringLiteral("no token");
}

void SlurmLiveTest::badCredentials() {
    QFETCH(QString, token);
    QFETCH(QString, says);
    SlurmTarget bad = target(QStringLiteral("rest-jwt"));
    const QString file = m_cluster.path() + QStringLiteral("/bad.token");
    QString content = token;
    if (token == QLatin1String("tampered")) {
        QFile real(m_cluster.value("TOPODECK_SLURM_JWT_FILE"));
        QVERIFY(real.open(QIODevice::ReadOnly));
        content = QString::fromUtf8(real.readAll()).trimmed();
        // Another signature of the same length: slurmctld's check fails, the claims still read.
        const qsizetype dot = content.lastIndexOf(QLatin1Char('.'));
        content = content.left(dot + 1) + QString(content.size() - dot - 1, QLatin1Char('A'));
    } else if (token == QLatin1String("expired")) {
        const ProcessRun made = m_cluster.slurm(QStringLiteral("scontrol"),
                                                {QStringLiteral("token"), QStringLiteral("username=root"), QStringLiteral("lifespan=1")});
        QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
        content = QString::fromUtf8(made.out).trimmed().section(QLatin1Char('='), 1);
        QThread::msleep(2100);
    }
    if (token == QLatin1String("-")) {
        bad.tokenFile.clear();
        qunsetenv("SLURM_JWT");
    } else {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(content.toUtf8() + '\n');
        out.close();
        bad.tokenFile = file.toStdString();
    }
    LiveFollower followed(std::make_unique<SlurmSource>(bad, fastOptions()));
    QVERIFY2(followed.waitForStatus(LinkState::Error), followed.status().message.c_str());
    QCOMPARE(followed.resource("nodes").state, ResourceHealth::State::Unauthorized);
    const QString message = QString::fromStdString(followed.status().message);
    QVERIFY2(message.contains(says), qPrintable(message));
    QVERIFY2(!content.isEmpty() && (token == QLatin1String("-") || !message.contains(content)), "the token reached the message");
    QCOMPARE(followed.state.presentNodeCount(), std::size_t{0});

    // topodeckctl says the same and exits 1 (a live cluster out of reach), naming the token.
    if (token != QLatin1String("-")) {
        const ProcessRun show = m_cluster.ctl({QStringLiteral("show"), QStringLiteral("--slurm"), QString::fromStdString(bad.url),
                                               QStringLiteral("--slurm-token-file"), file, QStringLiteral("--sync-timeout"), QStringLiteral("20")});
        QCOMPARE(show.exitCode, 1);
        QVERIFY2(show.err.contains(says.toUtf8()), qPrintable(show.describe()));
        QVERIFY2(!show.err.contains(content.toUtf8()), "the token reached stderr");
    }
}

// slurmctld goes away while both kinds of source poll: they keep what they had, turn
// Reconnecting, then Stale, and recover by themselves once it is back.
void SlurmLiveTest::controllerStoppedMidPoll() {
    LiveFollower rest(std::make_unique<SlurmSource>(target(QStringLiteral("rest-jwt")), fastOptions()));
    LiveFollower cli(std::make_unique<SlurmSource>(target(QStringLiteral("cli")), fastOptions()));
    QVERIFY(rest.waitForStatus(LinkState::Synced));
    QVERIFY(cli.waitForStatus(LinkState::Synced));
    const long long gpusBefore = livetest::usedGpus(rest.state);
    QVERIFY(gpusBefore > 0);

    QString error = m_cluster.controller(QStringLiteral("ctld-stop"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Slurm's clients retry slurmctld for about 10 s before they give up.
    for (LiveFollower* followed : {&rest, &cli}) {
        QVERIFY2(followed->waitForStatus(LinkState::Stale, std::chrono::seconds(40)), followed->status().message.c_str());
        QVERIFY2(followed->status().message.find("nodes") != std::string::npos, followed->status().message.c_str());
        QCOMPARE(followed->state.presentNodeCount(), std::size_t{kNodes});
        QCOMPARE(livetest::usedGpus(followed->state), gpusBefore);
    }
    error = m_cluster.controller(QStringLiteral("ctld-start"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    for (LiveFollower* followed : {&rest, &cli}) {
        QVERIFY2(followed->waitForStatus(LinkState::Synced, std::chrono::seconds(40)), followed->status().message.c_str());
        QCOMPARE(livetest::usedGpus(followed->state), gpusBefore);
    }
    error = m_cluster.waitUntilSettled(QStringLiteral("slurmctld to settle"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void SlurmLiveTest::showMatchesSlurm_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("levels");
    QTest::newRow("cli") << QStringList{QStringLiteral("--slurm"), QStringLiteral("cli")}
                         << QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")};
    QTest::newRow("slurmrestd") << QStringList{QStringLiteral("--slurm"), QStringLiteral("$TOPODECK_SLURM_REST_URL"),
                                               QStringLiteral("--slurm-token-file"), QStringLiteral("$TOPODECK_SLURM_JWT_FILE"),
                                               QStringLiteral("--slurm-topology"), QStringLiteral("$TOPODECK_SLURM_TOPOLOGY")}
                                << QStringList{QStringLiteral("core"), QStringLiteral("spine"), QStringLiteral("leaf")};
    QTest::newRow("slurmrestd unix socket") << QStringList{QStringLiteral("--slurm"), QStringLiteral("unix:$TOPODECK_SLURM_REST_SOCKET")}
                                            << QStringList{QStringLiteral("partition")};
}

void SlurmLiveTest::showMatchesSlurm() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, levels);
    for (QString& arg : args)
        for (const char* name : {"TOPODECK_SLURM_REST_URL", "TOPODECK_SLURM_JWT_FILE", "TOPODECK_SLURM_TOPOLOGY",
                                 "TOPODECK_SLURM_REST_SOCKET"})
            arg.replace(QLatin1Char('$') + QLatin1String(name), m_cluster.value(name));
    const std::map<QString, SinfoNode> truth = sinfo();
    int gpus = 0, used = 0, notReady = 0, drained = 0;
    for (const auto& [name, node] : truth) {
        gpus += node.gpus;
        used += node.gpusUsed;
        const bool ready = !node.state.startsWith(QLatin1String("down")) && node.responding;
        notReady += ready ? 0 : 1;
        drained += ready && node.state.startsWith(QLatin1String("drain")) ? 1 : 0;
    }
    const ProcessRun show = m_cluster.ctl(QStringList{QStringLiteral("show"), QStringLiteral("-o"), QStringLiteral("json")} + args);
    QVERIFY2(show.exitCode == 0, qPrintable(show.describe()));
    const QJsonObject json = show.json();
    QCOMPARE(json.value(QStringLiteral("live")).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
    QCOMPARE(json.value(QStringLiteral("nodes_total")).toInt(), kNodes);
    QCOMPARE(json.value(QStringLiteral("gpus_total")).toInt(), gpus);
    QCOMPARE(json.value(QStringLiteral("gpus_used")).toInt(), used);
    QCOMPARE(json.value(QStringLiteral("nodes_not_ready")).toInt(), notReady);
    QCOMPARE(json.value(QStringLiteral("nodes_cordoned")).toInt(), drained);
    QStringList names;
    for (const QJsonValue level : json.value(QStringLiteral("topology")).toObject().value(QStringLiteral("levels")).toArray())
        names << level.toObject().value(QStringLiteral("name")).toString();
    QCOMPARE(names, levels);
    if (levels == QStringList{QStringLiteral("partition")})
        QVERIFY2(show.err.contains("does not serve the topology"), qPrintable(show.describe()));

    // The table names the source and where each leaf stands.
    const ProcessRun table = m_cluster.ctl(QStringList{QStringLiteral("show")} + args);
    QVERIFY2(table.exitCode == 0, qPrintable(table.describe()));
    QVERIFY2(table.out.contains(args.at(1) == QLatin1String("cli") ? "Slurm CLI" : "slurmrestd"), qPrintable(table.describe()));
}

// --watch redraws when the cluster changes: a job that starts is the next frame.
void SlurmLiveTest::showWatchRedraws() {
    QProcess watch;
    watch.setProcessEnvironment(m_cluster.environment());
    watch.setStandardInputFile(QProcess::nullDevice());
    watch.start(QStringLiteral(TOPODECKCTL_PATH),
                {QStringLiteral("show"), QStringLiteral("--slurm"), QStringLiteral("cli"), QStringLiteral("--watch"),
                 QStringLiteral("--ticks"), QStringLiteral("2"), QStringLiteral("--interval"), QStringLiteral("0.2"),
                 QStringLiteral("--poll"), QStringLiteral("0.3")});
    QVERIFY(watch.waitForStarted());
    QByteArray frames;
    QElapsedTimer timer;
    timer.start();
    while (!frames.contains("Source:   Slurm CLI")) {
        QVERIFY2(timer.elapsed() < 30000, "no first frame");
        watch.waitForReadyRead(200);
        frames += watch.readAllStandardOutput();
    }
    QString error;
    const QString id = m_cluster.submit({QStringLiteral("-J"), QStringLiteral("watched"), QStringLiteral("-N"), QStringLiteral("1"),
                                         QStringLiteral("-w"), QStringLiteral("gpu-030"), QStringLiteral("--gres=gpu:1"),
                                         QStringLiteral("-t"), QStringLiteral("10"), QStringLiteral("--wrap"), QStringLiteral("sleep 600")},
                                        &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const bool finished = watch.waitForFinished(30000);
    if (!finished) watch.kill();
    (void)m_cluster.slurm(QStringLiteral("scancel"), {id});
    QVERIFY2(finished && watch.exitCode() == 0, watch.readAllStandardError().constData());
    frames += watch.readAllStandardOutput();
    QCOMPARE(frames.count("Source:   Slurm CLI"), 2);
    QVERIFY2(m_cluster.waitUntilSettled(QStringLiteral("the watched job to end")).isEmpty(), "the job did not end");
}

// snapshot writes Slurm's own files; -f DIR shows the same cluster.
void SlurmLiveTest::snapshotReadsBack() {
    const QString dir = m_cluster.path() + QStringLiteral("/snapshot");
    const ProcessRun snapshot = m_cluster.ctl({QStringLiteral("snapshot"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                               QStringLiteral("-o"), dir});
    QVERIFY2(snapshot.exitCode == 0, qPrintable(snapshot.describe()));
    for (const char* name : {"nodes.json", "jobs.json", "topology.conf"})
        QVERIFY2(QFileInfo::exists(dir + QLatin1Char('/') + QLatin1String(name)), name);
    const ProcessRun live = m_cluster.ctl({QStringLiteral("show"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                           QStringLiteral("-o"), QStringLiteral("json")});
    const ProcessRun frozen = m_cluster.ctl({QStringLiteral("show"), QStringLiteral("-f"), dir, QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(frozen.exitCode == 0, qPrintable(frozen.describe()));
    for (const char* key : {"gpus_total", "gpus_used", "gpus_free", "nodes_not_ready", "nodes_cordoned", "pods"})
        QCOMPARE(frozen.json().value(QLatin1String(key)).toInt(), live.json().value(QLatin1String(key)).toInt());
    QCOMPARE(frozen.json().value(QStringLiteral("topology")).toObject(), live.json().value(QStringLiteral("topology")).toObject());
    QCOMPARE(frozen.json().value(QStringLiteral("children")).toArray(), live.json().value(QStringLiteral("children")).toArray());
    // The version slurmctld reported is kept, and plan on the frozen cluster follows it.
    QFile version(dir + QStringLiteral("/slurm-version.txt"));
    QVERIFY(version.open(QIODevice::ReadOnly));
    QCOMPARE(version.readAll(), QByteArray("22.05.8\n"));
    const ProcessRun plan =
        m_cluster.ctl({QStringLiteral("plan"), QStringLiteral("-f"), dir, QStringLiteral("--sbatch"),
                       QStringLiteral("-N 2 --gres=gpu:8"), QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.describe()));
    QCOMPARE(plan.json().value(QStringLiteral("rulesVersion")).toString(), QStringLiteral("22.05.8"));
    QCOMPARE(plan.json().value(QStringLiteral("rulesVersionOrigin")).toString(),
             QStringLiteral("recorded in the snapshot"));
}

void SlurmLiveTest::planAsksSlurm_data() {
    QTest::addColumn<QString>("sbatch");
    QTest::addColumn<bool>("feasible");      // topodeck: it can be placed (now, or after the switch wait)
    QTest::addColumn<bool>("slurmFeasible"); // sbatch --test-only names nodes
    // Whole leaves are free from leaf04 up; leaf02 lost 010 (drained) and 011 (down).
    QTest::newRow("one leaf") << QStringLiteral("-N 8 --gres=gpu:8 --switches=1") << true << true;
    // No leaf has 12 nodes: test-only refuses; a real job would wait max_switch_wait, then spread.
    QTest::newRow("too big for a leaf") << QStringLiteral("-N 12 --switches=1") << true << false;
    QTest::newRow("partial GPUs") << QStringLiteral("-N 2 --gres=gpu:5") << true << true;
    QTest::newRow("more GPUs than a node has") << QStringLiteral("-N 1 --gres=gpu:9") << false << false;
}

// plan on the live state, beside Slurm's own answer (sbatch --test-only): they must agree, with the
// rules of the Slurm slurmctld reports (22.05.8), unasked.
void SlurmLiveTest::planAsksSlurm() {
    QFETCH(QString, sbatch);
    QFETCH(bool, feasible);
    QFETCH(bool, slurmFeasible);
    const ProcessRun plan =
        m_cluster.ctl({QStringLiteral("plan"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                       QStringLiteral("--sbatch"), sbatch + QStringLiteral(" -t 60"), QStringLiteral("--ask-slurm"),
                       QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(plan.exitCode == (feasible ? 0 : 3), qPrintable(plan.describe()));
    const QJsonObject json = plan.json();
    QCOMPARE(json.value(QStringLiteral("feasible")).toBool(), feasible);
    QCOMPARE(json.value(QStringLiteral("rulesVersion")).toString(), QStringLiteral("22.05.8"));
    QCOMPARE(json.value(QStringLiteral("rulesVersionOrigin")).toString(),
             QStringLiteral("the version slurmctld (scontrol show config) reports"));
    const QJsonObject asked = json.value(QStringLiteral("askSlurm")).toObject();
    QCOMPARE(asked.value(QStringLiteral("feasible")).toBool(), slurmFeasible);
    QVERIFY2(asked.value(QStringLiteral("agrees")).toBool(), qPrintable(plan.describe()));
    // The same in the table, for people.
    const ProcessRun table =
        m_cluster.ctl({QStringLiteral("plan"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                       QStringLiteral("--sbatch"), sbatch + QStringLiteral(" -t 60"), QStringLiteral("--ask-slurm")});
    QVERIFY2(table.out.contains("Slurm's own answer (sbatch --test-only)") && table.out.contains("agrees with slurm-tree"),
             qPrintable(table.describe()));
    QVERIFY2(table.out.contains(
                 "note: Slurm 22.05.8 topology/tree rules (the version slurmctld (scontrol show config) reports): "),
             qPrintable(table.describe()));
}

// Clients older than slurmctld (Slurm serves clients up to two releases older): commands that say
// they are 21.08 (sinfo --version, scontrol version) in front of the real ones. The rules are
// slurmctld's 22.05, which `scontrol show config` reports, not the clients'; the snapshot records
// slurmctld's too.
void SlurmLiveTest::rulesFollowSlurmctldNotTheClient() {
    QTemporaryDir bin;
    QVERIFY(bin.isValid());
    for (const char* tool : {"sinfo", "scontrol"}) {
        const QString real = QStandardPaths::findExecutable(QLatin1String(tool));
        QVERIFY2(!real.isEmpty(), tool);
        QFile wrapper(bin.path() + QLatin1Char('/') + QLatin1String(tool));
        QVERIFY(wrapper.open(QIODevice::WriteOnly));
        wrapper.write(QStringLiteral("#!/bin/sh\necho \"%1 $*\" >> '%2/calls.log'\n"
                                     "case \"$*\" in\n  --version|version|-V) echo 'slurm-wlm 21.08.8' ;;\n"
                                     "  *) exec '%3' \"$@\" ;;\nesac\n")
                          .arg(QLatin1String(tool), bin.path(), real)
                          .toUtf8());
        wrapper.close();
        QVERIFY(wrapper.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    }
    QProcessEnvironment env = m_cluster.environment();
    env.insert(QStringLiteral("PATH"), bin.path() + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    const ProcessRun client =
        livetest::runProcess(bin.path() + QStringLiteral("/sinfo"), {QStringLiteral("--version")}, env);
    QCOMPARE(client.out, QByteArray("slurm-wlm 21.08.8\n"));
    QVERIFY(QFile::remove(bin.path() + QStringLiteral("/calls.log")));

    const ProcessRun plan = livetest::runCtl({QStringLiteral("plan"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                              QStringLiteral("--sbatch"), QStringLiteral("-N 2 --gres=gpu:8 -t 60"),
                                              QStringLiteral("-o"), QStringLiteral("json")},
                                             60000, env);
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.describe()));
    QCOMPARE(plan.json().value(QStringLiteral("rulesVersion")).toString(), QStringLiteral("22.05.8"));
    QCOMPARE(plan.json().value(QStringLiteral("rulesVersionOrigin")).toString(),
             QStringLiteral("the version slurmctld (scontrol show config) reports"));
    // topodeckctl ran the old clients: their own version was not what it asked.
    QFile calls(bin.path() + QStringLiteral("/calls.log"));
    QVERIFY(calls.open(QIODevice::ReadOnly));
    const QByteArray log = calls.readAll();
    QVERIFY2(log.contains("scontrol show config") && log.contains("sinfo --json"), log.constData());
    QVERIFY2(!log.contains("--version"), log.constData());

    const QString dir = m_cluster.path() + QStringLiteral("/snapshot-old-clients");
    const ProcessRun snapshot = livetest::runCtl(
        {QStringLiteral("snapshot"), QStringLiteral("--slurm"), QStringLiteral("cli"), QStringLiteral("-o"), dir}, 60000,
        env);
    QVERIFY2(snapshot.exitCode == 0, qPrintable(snapshot.describe()));
    QFile version(dir + QStringLiteral("/slurm-version.txt"));
    QVERIFY(version.open(QIODevice::ReadOnly));
    QCOMPARE(version.readAll(), QByteArray("22.05.8\n"));
}

TOPODECK_TEST_GUILESS_MAIN(SlurmLiveTest)
#include "test_slurm_live.moc"
