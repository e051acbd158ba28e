// `topodeckctl plan --engine slurm-tree --slurm-version 22.05` against a real Slurm 22.05 (Debian
// 12): a 32-node cluster from slurm-fixture.sh (4 leaves x 8 nodes, 2 spines, 1 core, 8 fake GPUs
// per node), partly occupied by real jobs, one node down and two drained. The test turns the live
// cluster into a snapshot (Nodes and Pods, as topodeckctl reads clusters) and checks, request by
// request, that plan names the nodes Slurm names:
//  - `sbatch --test-only` is the oracle for requests without node Weights. Its answer is one of:
//    starts now on <nodes> (the start time is now: plan must be feasible, say nothing about
//    waiting, and name the same nodes); starts later (the start time is when running jobs end:
//    plan must say not feasible, or that the job would wait, e.g. for --switches); or
//    "allocation failure: <reason>" (plan must be not feasible and give Slurm's reason). For a
//    --switches request that failure means "never within that many switches", but a real job
//    waits max_switch_wait and then takes more (test-only does not model that fallback): plan
//    must say it would wait, and fallsBackAfterSwitchWait checks its fallback against a real job.
//  - test-only ignores node Weight, so weight-dependent requests are submitted for real on a
//    cluster with Weights; the job's NodeList (or its staying pending) is the answer, and the job
//    is cancelled before the next request.
// Rows marked "differs" are the cases where the tree rules of 22.05 and 26.x part (scheduler-
// semantics §2.2b); for those, plan with --slurm-version 26.05 must answer differently, which
// shows the row really tests a 22.05 rule. The expected column pins Slurm's answer, so a change in
// the occupancy that would make a row test nothing fails loudly.
//
// Needs root, munge and the Slurm daemons (installer/install-deps.sh --tests); skipped without them
// unless TOPODECK_REQUIRE_SLURM=1 (CI). The fixture's watchdog stops the cluster if this program
// dies; TOPODECK_SLURM_PORT moves its ports (default 16817..16849). The cluster runs with
// max_switch_wait=kSwitchWait (plan is told the same) so that the fallback is quick to watch.

#include "slurm_test_support.h"
#include "support/test_program.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include <tuple>

namespace {

using livetest::ProcessRun;
using Run = ProcessRun;

// What a scheduler (Slurm, or plan) answers for one request.
struct Answer {
    enum class Kind { Now, Later, Fails };
    Kind kind = Kind::Fails;
    QStringList nodes; // sorted; for Now
    QString message;   // Slurm's reason for Fails; plan's message

    // One line for comparisons and failure output.
    QString summary() const {
        switch (kind) {
        case Kind::Now:
            return QStringLiteral("now on ") + nodes.join(QLatin1Char(','));
        case Kind::Later:
            return QStringLiteral("later");
        case Kind::Fails:
            return QStringLiteral("fails: ") + message;
        }
        return {};
    }
};

// One occupying job: its nodes and its sbatch options.
struct Occupier {
    QString nodes;
    QStringList args;
};

// The occupancy every request sees. Nodes that can take --gres=gpu:8 per leaf: leaf01 2
// (004,007), leaf02 3 (009,012,015), leaf03 4 (017,019,022,024), leaf04 5 (025,026,028,029,032);
// partly used GPUs on 002 (4 of 8), 006 (1), 016 (7), 020 (2); 008 is held whole (--exclusive);
// 028 runs a CPU-only job (so it is not idle for --exclusive but has all 8 GPUs free).
const QList<Occupier> kOccupiers = {
    {QStringLiteral("gpu-001"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-002"), {QStringLiteral("--gres=gpu:4")}},
    {QStringLiteral("gpu-005"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-006"), {QStringLiteral("--gres=gpu:1")}},
    {QStringLiteral("gpu-008"), {QStringLiteral("--gres=gpu:8"), QStringLiteral("--exclusive")}},
    {QStringLiteral("gpu-010"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-011"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-014"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-016"), {QStringLiteral("--gres=gpu:7")}},
    {QStringLiteral("gpu-018"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-020"), {QStringLiteral("--gres=gpu:2")}},
    {QStringLiteral("gpu-021"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-027"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-[030-031]"), {QStringLiteral("--gres=gpu:8")}},
    {QStringLiteral("gpu-028"), {QStringLiteral("--cpus-per-task=8")}},
};
const QString kDrained = QStringLiteral("gpu-003,gpu-023");
const QString kDown = QStringLiteral("gpu-013");
// The weighted cluster: leaf04 keeps Slurm's default Weight 1, everything else is heavier.
const QString kWeights = QStringLiteral("gpu-[001-024]=10");

const QString kTimeLimit = QStringLiteral(" -t 60");
const int kSwitchWait = 15; // seconds

bool contains(const QString& haystack, const QString& needle) {
    return haystack.contains(needle, Qt::CaseInsensitive);
}

} // namespace

class SlurmTreeRealTest : public QObject {
    Q_OBJECT

public:
    ~SlurmTreeRealTest() override { stopCluster(); }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    void matchesTestOnly_data();
    void matchesTestOnly();
    void liveSourcesFollowTheirVersion_data();
    void liveSourcesFollowTheirVersion();
    void fallsBackAfterSwitchWait();
    void matchesWeightedJobs_data();
    void matchesWeightedJobs();
    void matchesTaskCounts();
    void requiredNodesAsSlurmSettlesThem_data();
    void requiredNodesAsSlurmSettlesThem();
    void listLongerThanNodeCount();

private:
    QString startCluster(bool weighted);
    void stopCluster();
    QString occupy();
    QString writeSnapshot();
    QString waitUntilSettled(const QString& what) { return m_cluster.waitUntilSettled(what); }

    Run slurm(const QString& tool, const QStringList& args) const { return m_cluster.slurm(tool, args); }
    QStringList expandHostlist(const QString& hostlist) const { return m_cluster.expandHostlist(hostlist); }
    Answer testOnly(const QString& args, QString* error) const;
    Answer submitted(const QString& args, QString* error, int runWithinMs = 0);
    Answer plan(const QString& args, const QString& version, bool weighted, QString* error) const;
    Answer planWith(const QString& engine, const QString& topology, const QString& args, const QString& version,
                    bool weighted, QString* error) const;
    Answer planLive(const QString& args, const QStringList& source, bool askSlurm, QJsonObject* json,
                    QString* error) const;
    void compareRow(const QString& args, const Answer& slurmAnswer, const QString& expected, bool differs,
                    bool weighted);

    slurmtest::SlurmFixture m_cluster;
    QString m_topology;
    QString m_snapshot;
    bool m_running = false;
    bool m_weighted = false;
    bool m_anyFailed = false;
};

void SlurmTreeRealTest::initTestCase() {
    SLURMTEST_REQUIRE_SLURM();
    QElapsedTimer timer;
    timer.start();
    const QString error = startCluster(false);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    qInfo("cluster up and occupied in %lld ms (%s)", static_cast<long long>(timer.elapsed()), qPrintable(m_cluster.path()));
}

void SlurmTreeRealTest::cleanup() {
    if (QTest::currentTestFailed()) m_anyFailed = true;
}

void SlurmTreeRealTest::cleanupTestCase() {
    stopCluster();
    if (m_anyFailed) m_cluster.keep();
}

// Starts (or restarts) the fixture with or without Weights, occupies it and writes the snapshot.
// Returns an error message, or "" on success.
QString SlurmTreeRealTest::startCluster(bool weighted) {
    stopCluster();
    if (m_anyFailed) m_cluster.keep(); // the cluster before, for a look
    QStringList options = {QStringLiteral("-s"), QString::number(kSwitchWait)};
    if (weighted) options << QStringLiteral("-W") << kWeights;
    m_running = true; // even a failed start may have left something to stop
    if (QString error = m_cluster.start(options); !error.isEmpty()) return error;
    m_topology = m_cluster.value("TOPODECK_SLURM_TOPOLOGY");
    m_weighted = weighted;

    if (QString error = occupy(); !error.isEmpty()) return error;
    return writeSnapshot();
}

void SlurmTreeRealTest::stopCluster() {
    if (!m_running) return;
    m_running = false;
    m_cluster.stop();
}

QString SlurmTreeRealTest::occupy() {
    for (const Occupier& occupier : kOccupiers) {
        const QStringList nodes = expandHostlist(occupier.nodes);
        QStringList args = {
            QStringLiteral("--parsable"),  QStringLiteral("-J"), QStringLiteral("occupy"), QStringLiteral("-N"),
            QString::number(nodes.size()), QStringLiteral("-w"), occupier.nodes,           QStringLiteral("-t"),
            QStringLiteral("60")};
        args << occupier.args << QStringLiteral("--wrap") << QStringLiteral("sleep 3600");
        const Run submit = slurm(QStringLiteral("sbatch"), args);
        if (submit.exitCode != 0) return QStringLiteral("sbatch of an occupying job failed:\n") + submit.describe();
    }
    const Run drain =
        slurm(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("NodeName=") + kDrained,
                                           QStringLiteral("State=DRAIN"), QStringLiteral("Reason=gpu-xid-79")});
    if (drain.exitCode != 0) return QStringLiteral("scontrol drain failed:\n") + drain.describe();
    const Run down = slurm(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("NodeName=") + kDown,
                                                        QStringLiteral("State=DOWN"), QStringLiteral("Reason=dead")});
    if (down.exitCode != 0) return QStringLiteral("scontrol down failed:\n") + down.describe();
    return waitUntilSettled(QStringLiteral("the occupying jobs to run"));
}

// The live cluster as topodeckctl reads clusters: a Node per Slurm node (GPUs, CPUs, memory; a
// drained node is cordoned, a down node NotReady) labelled with its spine and leaf from
// topology.conf, a Kueue Topology naming those levels, and one Pod per node holding what Slurm has
// allocated there. 22.05's scontrol has no --json, so `scontrol -d -o show node` is parsed.
QString SlurmTreeRealTest::writeSnapshot() {
    QFile topologyFile(m_topology);
    if (!topologyFile.open(QIODevice::ReadOnly)) return QStringLiteral("cannot read ") + m_topology;
    QMap<QString, QString> parentOf; // leaf -> spine, spine -> core
    QMap<QString, QString> leafOf;   // node -> leaf
    const QRegularExpression switchLine(QStringLiteral("^SwitchName=(\\S+)\\s+(Nodes|Switches)=(\\S+)"));
    for (const QString& line : QString::fromUtf8(topologyFile.readAll()).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = switchLine.match(line);
        if (!match.hasMatch()) continue;
        for (const QString& child : expandHostlist(match.captured(3))) {
            if (match.captured(2) == QLatin1String("Nodes"))
                leafOf[child] = match.captured(1);
            else
                parentOf[child] = match.captured(1);
        }
    }

    const Run show = slurm(QStringLiteral("scontrol"), {QStringLiteral("-d"), QStringLiteral("-o"),
                                                        QStringLiteral("show"), QStringLiteral("node")});
    if (show.exitCode != 0) return QStringLiteral("scontrol show node failed:\n") + show.describe();
    const QRegularExpression field(QStringLiteral("(\\w+)=(\\S*)"));
    const QRegularExpression gpuCount(QStringLiteral("^gpu(?::[^:(,]+)?:(\\d+)"));
    const auto gpus = [&](const QString& gres) {
        const QRegularExpressionMatch match = gpuCount.match(gres);
        return match.hasMatch() ? match.captured(1).toInt() : 0;
    };

    QString yaml =
        QStringLiteral("# The live Slurm cluster, written by test_slurm_tree_real.cpp.\n"
                       "apiVersion: v1\nkind: List\nitems:\n"
                       "- apiVersion: kueue.x-k8s.io/v1beta1\n  kind: Topology\n  metadata: {name: slurm-tree}\n"
                       "  spec:\n    levels:\n    - nodeLabel: topology.example.com/spine\n"
                       "    - nodeLabel: topology.example.com/leaf\n    - nodeLabel: kubernetes.io/hostname\n");
    int nodes = 0;
    for (const QString& line : QString::fromUtf8(show.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QMap<QString, QString> values;
        for (QRegularExpressionMatchIterator it = field.globalMatch(line); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            if (!values.contains(match.captured(1))) values.insert(match.captured(1), match.captured(2));
        }
        const QString name = values.value(QStringLiteral("NodeName"));
        if (name.isEmpty() || !leafOf.contains(name)) return QStringLiteral("node not in topology.conf: ") + line;
        const QString leaf = leafOf.value(name);
        const QStringList state = values.value(QStringLiteral("State")).split(QLatin1Char('+'));
        const bool down =
            state.first().startsWith(QLatin1String("DOWN")) || state.contains(QStringLiteral("NOT_RESPONDING"));
        const bool drained = state.contains(QStringLiteral("DRAIN"));
        yaml += QStringLiteral("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: %1\n    labels:\n"
                               "      kubernetes.io/hostname: %1\n      topology.example.com/spine: %2\n"
                               "      topology.example.com/leaf: %3\n")
                    .arg(name, parentOf.value(leaf), leaf);
        if (drained) yaml += QStringLiteral("  spec:\n    unschedulable: true\n");
        yaml += QStringLiteral(
                    "  status:\n    allocatable: {cpu: \"%1\", memory: %2Mi, nvidia.com/gpu: \"%3\", pods: \"110\"}\n"
                    "    conditions:\n    - {type: Ready, status: \"%4\"}\n")
                    .arg(values.value(QStringLiteral("CPUTot")), values.value(QStringLiteral("RealMemory")))
                    .arg(gpus(values.value(QStringLiteral("Gres"))))
                    .arg(down ? QStringLiteral("False") : QStringLiteral("True"));
        const int cpusUsed = values.value(QStringLiteral("CPUAlloc")).toInt();
        const qint64 memoryUsed = values.value(QStringLiteral("AllocMem")).toLongLong();
        const int gpusUsed = gpus(values.value(QStringLiteral("GresUsed")));
        if (cpusUsed > 0 || memoryUsed > 0 || gpusUsed > 0) {
            const QString gpuRequest =
                gpusUsed > 0 ? QStringLiteral(", nvidia.com/gpu: \"%1\"").arg(gpusUsed) : QString();
            const QString gpuLimit =
                gpusUsed > 0 ? QStringLiteral("        limits: {nvidia.com/gpu: \"%1\"}\n").arg(gpusUsed) : QString();
            yaml +=
                QStringLiteral("- apiVersion: v1\n  kind: Pod\n  metadata: {name: slurm-jobs-%1, namespace: slurm}\n"
                               "  spec:\n    nodeName: %1\n    containers:\n    - name: jobs\n      resources:\n"
                               "        requests: {cpu: \"%2\", memory: %3Mi%4}\n%5  status: {phase: Running}\n")
                    .arg(name, QString::number(cpusUsed), QString::number(memoryUsed), gpuRequest, gpuLimit);
        }
        ++nodes;
    }
    if (nodes != leafOf.size())
        return QStringLiteral("scontrol showed %1 nodes, topology.conf has %2").arg(nodes).arg(leafOf.size());

    m_snapshot =
        m_cluster.path() + (m_weighted ? QStringLiteral("/snapshot-weighted.yaml") : QStringLiteral("/snapshot.yaml"));
    QFile out(m_snapshot);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(yaml.toUtf8()) < 0)
        return QStringLiteral("cannot write ") + m_snapshot;
    return {};
}

// `sbatch --test-only`: "sbatch: Job N to start at T using P processors on nodes H in partition
// P" on stderr, or "allocation failure: <reason>" with exit code 1.
Answer SlurmTreeRealTest::testOnly(const QString& args, QString* error) const {
    const QDateTime asked = QDateTime::currentDateTime();
    QStringList argv = {QStringLiteral("--test-only")};
    argv << QString(args + kTimeLimit).split(QLatin1Char(' '), Qt::SkipEmptyParts) << QStringLiteral("--wrap")
         << QStringLiteral("true");
    const Run test = slurm(QStringLiteral("sbatch"), argv);
    const QString text = QString::fromUtf8(test.err);
    Answer answer;
    static const QRegularExpression starts(
        QStringLiteral("to start at (\\S+) using \\d+ processors on nodes (\\S+) in partition"));
    static const QRegularExpression failure(QStringLiteral("allocation failure: ([^\\n]+)"));
    if (const QRegularExpressionMatch match = starts.match(text); test.exitCode == 0 && match.hasMatch()) {
        const QDateTime start = QDateTime::fromString(match.captured(1), Qt::ISODate);
        if (!start.isValid()) *error = QStringLiteral("unreadable start time in: ") + text;
        // The occupying jobs end an hour from now, so "later" is far from this margin.
        answer.kind = start <= asked.addSecs(120) ? Answer::Kind::Now : Answer::Kind::Later;
        answer.nodes = expandHostlist(match.captured(2));
    } else if (const QRegularExpressionMatch failed = failure.match(text); failed.hasMatch()) {
        answer.kind = Answer::Kind::Fails;
        answer.message = failed.captured(1).trimmed();
    } else {
        *error = QStringLiteral("unexpected sbatch --test-only output:\n") + test.describe();
    }
    return answer;
}

// A real job: it runs now (its NodeList is the answer) or stays pending (later); cancelled after.
// With runWithinMs, a pending job is watched until it runs (its nodes are then the answer).
Answer SlurmTreeRealTest::submitted(const QString& args, QString* error, int runWithinMs) {
    QStringList argv = {QStringLiteral("--parsable"), QStringLiteral("-J"), QStringLiteral("probe")};
    argv << QString(args + kTimeLimit).split(QLatin1Char(' '), Qt::SkipEmptyParts) << QStringLiteral("--wrap")
         << QStringLiteral("sleep 3600");
    const Run submit = slurm(QStringLiteral("sbatch"), argv);
    const QString id = QString::fromUtf8(submit.out).trimmed().section(QLatin1Char(';'), 0, 0);
    if (submit.exitCode != 0 || id.isEmpty()) {
        *error = QStringLiteral("sbatch failed:\n") + submit.describe();
        return {};
    }
    Answer answer;
    QString status;
    QElapsedTimer timer;
    timer.start();
    while (true) {
        const Run queue = slurm(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-j"), id,
                                                           QStringLiteral("-o"), QStringLiteral("%T|%N|%r")});
        status = QString::fromUtf8(queue.out).trimmed();
        const QStringList parts = status.split(QLatin1Char('|'));
        if (parts.size() == 3 && parts[0] == QLatin1String("RUNNING")) {
            answer.kind = Answer::Kind::Now;
            answer.nodes = expandHostlist(parts[1]);
            break;
        }
        // Pending with a reason means the scheduler looked at it and could not start it.
        if (parts.size() == 3 && parts[0] == QLatin1String("PENDING") && parts[2] != QLatin1String("None")) {
            answer.kind = Answer::Kind::Later;
            answer.message = parts[2];
            if (runWithinMs == 0) break;
        }
        if (timer.elapsed() > 30000 + runWithinMs) {
            if (answer.kind != Answer::Kind::Later || runWithinMs == 0)
                *error = QStringLiteral("job %1 neither ran nor was held back within 30 s: %2").arg(id, status);
            else
                *error = QStringLiteral("job %1 still pending after %2 s: %3")
                             .arg(id)
                             .arg(timer.elapsed() / 1000)
                             .arg(status);
            break;
        }
        QThread::msleep(100);
    }
    const Run cancel = slurm(QStringLiteral("scancel"), {id});
    if (cancel.exitCode != 0 && error->isEmpty()) *error = QStringLiteral("scancel failed:\n") + cancel.describe();
    if (const QString settled = waitUntilSettled(QStringLiteral("job ") + id + QStringLiteral(" to end"));
        !settled.isEmpty() && error->isEmpty())
        *error = settled;
    return answer;
}

// plan's JSON: {"engine","feasible","message","nodes":[{"name","pods"}],...} (an array of such
// objects is read too). A feasible answer whose message speaks of waiting is "later".
Answer SlurmTreeRealTest::plan(const QString& args, const QString& version, bool weighted, QString* error) const {
    return planWith(QStringLiteral("slurm-tree"), m_topology, args, version, weighted, error);
}

Answer SlurmTreeRealTest::planWith(const QString& engine, const QString& topology, const QString& args,
                                   const QString& version, bool weighted, QString* error) const {
    QStringList argv = {QStringLiteral("plan"),
                        QStringLiteral("-f"),
                        m_snapshot,
                        QStringLiteral("--engine"),
                        engine,
                        QStringLiteral("--slurm-version"),
                        version,
                        QStringLiteral("--slurm-topology"),
                        topology,
                        QStringLiteral("--sbatch"),
                        args + kTimeLimit,
                        QStringLiteral("--max-switch-wait"),
                        QString::number(kSwitchWait),
                        QStringLiteral("-o"),
                        QStringLiteral("json")};
    if (weighted) argv << QStringLiteral("--node-weight") << kWeights;
    const Run planned = livetest::runCtl(argv);
    Answer answer;
    if (planned.exitCode != 0 && planned.exitCode != 3) {
        *error = QStringLiteral("topodeckctl %1 failed:\n%2").arg(argv.join(QLatin1Char(' ')), planned.describe());
        return answer;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(planned.out, &parseError);
    const QJsonObject object = !document.isArray()          ? document.object()
                               : document.array().isEmpty() ? QJsonObject()
                                                            : document.array().first().toObject();
    if (parseError.error != QJsonParseError::NoError || !object.contains(QStringLiteral("feasible"))) {
        *error = QStringLiteral("topodeckctl plan printed no result object:\n") + planned.describe();
        return answer;
    }
    const bool feasible = object.value(QStringLiteral("feasible")).toBool();
    if (feasible != (planned.exitCode == 0))
        *error = QStringLiteral("exit code %1 disagrees with feasible=%2").arg(planned.exitCode).arg(feasible);
    answer.message = object.value(QStringLiteral("message")).toString();
    for (const QJsonValue& node : object.value(QStringLiteral("nodes")).toArray())
        answer.nodes << node.toObject().value(QStringLiteral("name")).toString();
    answer.nodes.sort();
    answer.kind = !feasible                                          ? Answer::Kind::Fails
                  : contains(answer.message, QStringLiteral("wait")) ? Answer::Kind::Later
                                                                     : Answer::Kind::Now;
    return answer;
}

// Slurm's answer against the pinned expectation, plan 22.05 against Slurm, and for "differs"
// rows plan 26.05 against plan 22.05.
void SlurmTreeRealTest::compareRow(const QString& args, const Answer& slurmAnswer, const QString& expected,
                                   bool differs, bool weighted) {
    // The pinned answer: a hostlist, "later", or "fails".
    if (expected == QLatin1String("later") || expected == QLatin1String("fails")) {
        QCOMPARE(slurmAnswer.summary().section(QLatin1Char(':'), 0, 0), expected);
    } else {
        QVERIFY2(slurmAnswer.kind == Answer::Kind::Now,
                 qPrintable(
                     QStringLiteral("Slurm answered \"%1\", the row expects %2").arg(slurmAnswer.summary(), expected)));
        QCOMPARE(slurmAnswer.nodes, expandHostlist(expected));
    }

    QString error;
    const Answer old = plan(args, QStringLiteral("22.05"), weighted, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString context = QStringLiteral("sbatch %1\n   Slurm 22.05: %2\n   plan 22.05:  %3 (message: %4)")
                                .arg(args, slurmAnswer.summary(), old.summary(), old.message);
    switch (slurmAnswer.kind) {
    case Answer::Kind::Now:
        QVERIFY2(old.kind == Answer::Kind::Now && old.nodes == slurmAnswer.nodes, qPrintable(context));
        break;
    case Answer::Kind::Later:
        // Slurm would start it only when running jobs end (or after waiting for switches):
        // plan must not place it now.
        QVERIFY2(old.kind != Answer::Kind::Now, qPrintable(context));
        break;
    case Answer::Kind::Fails:
        if (args.contains(QLatin1String("--switches")))
            QVERIFY2(old.kind == Answer::Kind::Later, qPrintable(context));
        else
            QVERIFY2(old.kind == Answer::Kind::Fails && contains(old.message, slurmAnswer.message),
                     qPrintable(context));
        break;
    }

    if (differs) {
        const Answer current = plan(args, QStringLiteral("26.05"), weighted, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(current.summary() != old.summary(),
                 qPrintable(context + QStringLiteral("\n   plan 26.05:  %1 — the row should tell the versions apart")
                                          .arg(current.summary())));
    }
}

void SlurmTreeRealTest::requiredNodesAsSlurmSettlesThem_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<bool>("submit"); // a submitted job's nodes, not --test-only's (see below)
    // leaf03 (gpu-[017-024]) has gpu:8 on 017, 019, 022 and 024 (see kOccupiers).
    QTest::newRow("-w alone") << "-w gpu-[017,019,022] --gres=gpu:8" << false;
    // sbatch: "Warning: can't run 2 processes on 4 nodes, setting nnodes to 2", and the list's
    // first two names are kept.
    QTest::newRow("-n below the list") << "-n 2 -w gpu-[017,019,022,024] --gres=gpu:8" << false;
    QTest::newRow("-N and -n below the list") << "-N 4 -n 2 -w gpu-[017,019,022,024] --gres=gpu:8" << false;
    // -N above the list: --test-only looks at the -w nodes alone (job_start_data) and refuses, a
    // submitted job takes two more nodes by topology.
    QTest::newRow("-N above the list") << "-N 4 -w gpu-[017,019] --gres=gpu:8" << true;
    QTest::newRow("-w node busy") << "-N 2 -w gpu-[017,018] --gres=gpu:8" << false;
}

// -N with -w as sbatch and slurmctld settle them before any topology plugin runs: slurm-tree and
// slurm-block (on blocks that are the fixture's leaves) both answer as Slurm 22.05 does.
void SlurmTreeRealTest::requiredNodesAsSlurmSettlesThem() {
    QFETCH(QString, args);
    QFETCH(bool, submit);
    if (m_weighted || !m_running) {
        const QString error = startCluster(false);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    // The leaves as base blocks of 8 nodes.
    const QString blocks = m_cluster.path() + QStringLiteral("/leaves-as-blocks.conf");
    {
        QFile tree(m_topology);
        QVERIFY(tree.open(QIODevice::ReadOnly));
        QString text;
        for (const QString& line : QString::fromUtf8(tree.readAll()).split(QLatin1Char('\n')))
            if (line.startsWith(QLatin1String("SwitchName=")) && line.contains(QLatin1String("Nodes=")))
                text += QString(line).replace(QLatin1String("SwitchName="), QLatin1String("BlockName=")) +
                        QLatin1Char('\n');
        text += QStringLiteral("BlockSizes=8\n");
        QFile out(blocks);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(text.toUtf8());
    }
    QString error;
    const Answer slurmAnswer = submit ? submitted(args, &error) : testOnly(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    if (submit) {
        const Answer test = testOnly(args, &error);
        QVERIFY2(test.kind == Answer::Kind::Fails &&
                     contains(test.message, QStringLiteral("Requested node configuration is not available")),
                 qPrintable(QStringLiteral("--test-only should look at the -w nodes alone: ") + test.summary()));
    }
    for (const auto& [engine, topology, version] :
         {std::tuple{QStringLiteral("slurm-tree"), m_topology, QStringLiteral("22.05")},
          std::tuple{QStringLiteral("slurm-block"), blocks, QStringLiteral("26.05")}}) {
        const Answer planned = planWith(engine, topology, args, version, false, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString context = QStringLiteral("sbatch %1\n   Slurm 22.05: %2\n   %3: %4 (message: %5)")
                                    .arg(args, slurmAnswer.summary(), engine, planned.summary(), planned.message);
        // Slurm starting it later (a busy required node) is plan not placing it now, as in compareRow.
        if (slurmAnswer.kind == Answer::Kind::Fails)
            QVERIFY2(planned.kind == Answer::Kind::Fails, qPrintable(context));
        else if (slurmAnswer.kind == Answer::Kind::Later)
            QVERIFY2(planned.kind != Answer::Kind::Now, qPrintable(context));
        else
            QVERIFY2(planned.kind == Answer::Kind::Now && planned.nodes == slurmAnswer.nodes, qPrintable(context));
    }
}

// sbatch itself refuses a -w list longer than -N, before slurmctld sees the job; plan refuses it
// in sbatch's words.
void SlurmTreeRealTest::listLongerThanNodeCount() {
    if (m_weighted || !m_running) {
        const QString error = startCluster(false);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    const QString args = QStringLiteral("-N 2 -w gpu-[017,019,022,024] --gres=gpu:8");
    QStringList argv = {QStringLiteral("--test-only")};
    argv << args.split(QLatin1Char(' ')) << QStringLiteral("--wrap") << QStringLiteral("true");
    const Run sbatch = slurm(QStringLiteral("sbatch"), argv);
    const QString words = QStringLiteral("invalid number of nodes (-N 4-2)");
    QVERIFY2(sbatch.exitCode != 0 && QString::fromUtf8(sbatch.err).contains(words), qPrintable(sbatch.describe()));
    for (const QString& engine : {QStringLiteral("slurm-tree"), QStringLiteral("slurm-block")}) {
        const Run planned = livetest::runCtl({QStringLiteral("plan"), QStringLiteral("-f"), m_snapshot,
                                              QStringLiteral("--engine"), engine, QStringLiteral("--slurm-topology"),
                                              m_topology, QStringLiteral("--sbatch"), args});
        QVERIFY2(planned.exitCode == 2 && QString::fromUtf8(planned.err).contains(words), qPrintable(planned.describe()));
    }
}

void SlurmTreeRealTest::matchesTestOnly_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("differs");
    // gpu:8-capable nodes per leaf: 2, 3, 4, 5 (see kOccupiers); spine01 5, spine02 9.
    QTest::newRow("one node: tightest leaf") << "-N 1 --gres=gpu:8"
                                             << "gpu-004" << false;
    // gpu:4 fits 4 nodes of leaf01, 3 of leaf02: 22.05 best-fits leaf02, 26.05 takes the first node.
    QTest::newRow("one node: best fit vs first (26.05)") << "-N 1 --gres=gpu:4"
                                                         << "gpu-009" << true;
    QTest::newRow("one node, one GPU: leaf tie") << "-N 1 --gres=gpu:1"
                                                 << "gpu-002" << false;
    QTest::newRow("one leaf fits exactly") << "-N 4 --gres=gpu:8"
                                           << "gpu-[017,019,022,024]" << false;
    // leaf04 first; 1 left: 22.05 keeps the farther, tighter leaf01, 26.x the closer leaf03.
    QTest::newRow("closer leaf: tighter far leaf kept (22.05)") << "-N 6 --gres=gpu:8"
                                                                << "gpu-[004,025-026,028-029,032]" << true;
    // leaf04, then 6 left: 22.05 still counts leaf04's nodes in spine02, so leaf03 wins the
    // parent climb; 26.x sees spine02 with 4 and takes leaf02 first.
    QTest::newRow("ancestor counts not reduced (22.05)") << "-N 11 --gres=gpu:8"
                                                         << "gpu-[004,007,017,019,022,024-026,028-029,032]" << true;
    QTest::newRow("every free node") << "-N 14 --gres=gpu:8"
                                     << "gpu-[004,007,009,012,015,017,019,022,024-026,028-029,032]" << false;
    QTest::newRow("one node too many: later") << "-N 15 --gres=gpu:8"
                                              << "later" << false;
    QTest::newRow("exclusive: idle nodes only") << "-N 2 --exclusive"
                                                << "gpu-[004,007]" << false;
    // Idle nodes per leaf: 2, 3, 4, 4 (gpu-028 runs a CPU-only job).
    QTest::newRow("exclusive: closer leaf (22.05)") << "-N 6 --exclusive"
                                                    << "gpu-[004,007,017,019,022,024]" << true;
    QTest::newRow("switches=1: tightest leaf") << "-N 4 --switches=1 --gres=gpu:8"
                                               << "gpu-[017,019,022,024]" << false;
    QTest::newRow("switches=1: largest leaf") << "-N 5 --switches=1 --gres=gpu:8"
                                              << "gpu-[025-026,028-029,032]" << false;
    QTest::newRow("switches=1: waits for a leaf") << "-N 6 --switches=1 --gres=gpu:8"
                                                  << "later" << false;
    QTest::newRow("switches=1: larger than any leaf") << "-N 9 --switches=1 --gres=gpu:8"
                                                      << "fails" << false;
    // 22.05 waits out the switch wait; 26.x lowers the node count to 5 and fits leaf04 now.
    QTest::newRow("switches=1 with a node range (22.05 waits)") << "-N 4-6 --switches=1 --gres=gpu:8"
                                                                << "later" << true;
    QTest::newRow("switches=2") << "-N 9 --switches=2 --gres=gpu:8"
                                << "gpu-[017,019,022,024-026,028-029,032]" << false;
    QTest::newRow("node range: the maximum in one leaf") << "-N 2-4 --gres=gpu:8"
                                                         << "gpu-[017,019,022,024]" << false;
    QTest::newRow("named nodes on two leaves, switches=1") << "-N 2 -w gpu-[004,009] --switches=1 --gres=gpu:8"
                                                           << "fails" << false;
    QTest::newRow("named busy node: later") << "-N 1 -w gpu-001 --gres=gpu:8"
                                            << "later" << false;
    QTest::newRow("excluded nodes") << "-N 3 -x gpu-[025-026] --gres=gpu:8"
                                    << "gpu-[009,012,015]" << false;
    // gpu:4 adds the partly used 002, 006 and 020: per leaf 4, 3, 5, 5.
    QTest::newRow("four GPUs: closer leaf (22.05)") << "-N 8 --gres=gpu:4"
                                                    << "gpu-[009,012,015,017,019-020,022,024]" << true;
    QTest::newRow("two GPUs: a whole spine") << "-N 10 --gres=gpu:2"
                                             << "gpu-[017,019-020,022,024-026,028-029,032]" << false;
}

void SlurmTreeRealTest::matchesTestOnly() {
    QFETCH(QString, args);
    QFETCH(QString, expected);
    QFETCH(bool, differs);
    if (m_weighted || !m_running) {
        const QString error = startCluster(false);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QString error;
    const Answer slurmAnswer = testOnly(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    compareRow(args, slurmAnswer, expected, differs, false);
}

// plan on the live cluster (no snapshot, no --node-weight) without --slurm-version: its JSON, read
// as plan() reads it. `source` is --slurm and its flags.
Answer SlurmTreeRealTest::planLive(const QString& args, const QStringList& source, bool askSlurm, QJsonObject* json,
                                   QString* error) const {
    QStringList argv = {QStringLiteral("plan"), QStringLiteral("--engine"), QStringLiteral("slurm-tree")};
    argv << source << QStringLiteral("--sbatch") << args + kTimeLimit << QStringLiteral("--max-switch-wait")
         << QString::number(kSwitchWait) << QStringLiteral("-o") << QStringLiteral("json");
    if (askSlurm) argv << QStringLiteral("--ask-slurm");
    const Run planned = m_cluster.ctl(argv);
    Answer answer;
    *json = planned.json();
    if ((planned.exitCode != 0 && planned.exitCode != 3) || !json->contains(QStringLiteral("feasible"))) {
        *error = QStringLiteral("topodeckctl %1 failed:\n%2").arg(argv.join(QLatin1Char(' ')), planned.describe());
        return answer;
    }
    answer.message = json->value(QStringLiteral("message")).toString();
    for (const QJsonValue& node : json->value(QStringLiteral("nodes")).toArray())
        answer.nodes << node.toObject().value(QStringLiteral("name")).toString();
    answer.nodes.sort();
    answer.kind = !json->value(QStringLiteral("feasible")).toBool()  ? Answer::Kind::Fails
                  : contains(answer.message, QStringLiteral("wait")) ? Answer::Kind::Later
                                                                     : Answer::Kind::Now;
    return answer;
}

void SlurmTreeRealTest::liveSourcesFollowTheirVersion_data() {
    matchesTestOnly_data();
}

// The same requests planned on the live cluster itself, through the Slurm commands and through
// slurmrestd, without --slurm-version: each source says it runs 22.05.8 (slurmctld through the
// commands, slurmrestd its own), so plan must apply 22.05's rules, say why, and name Slurm's nodes
// (on the "differs" rows 26.05's rules would not). Through the commands, --ask-slurm's own
// comparison with sbatch --test-only must agree too.
void SlurmTreeRealTest::liveSourcesFollowTheirVersion() {
    QFETCH(QString, args);
    QFETCH(QString, expected);
    QFETCH(bool, differs);
    if (m_weighted || !m_running) {
        const QString error = startCluster(false);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QString error;
    const Answer slurmAnswer = testOnly(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(
        expected == QLatin1String("later") || expected == QLatin1String("fails") ||
            (slurmAnswer.kind == Answer::Kind::Now && slurmAnswer.nodes == expandHostlist(expected)),
        qPrintable(QStringLiteral("Slurm answered \"%1\", the row expects %2").arg(slurmAnswer.summary(), expected)));

    const QList<QPair<QStringList, QString>> sources = {
        {{QStringLiteral("--slurm"), QStringLiteral("cli")},
         QStringLiteral("the version slurmctld (scontrol show config) reports")},
        {{QStringLiteral("--slurm"), m_cluster.value("TOPODECK_SLURM_REST_URL"), QStringLiteral("--slurm-token-file"),
          m_cluster.value("TOPODECK_SLURM_JWT_FILE"), QStringLiteral("--slurm-topology"), m_topology},
         QStringLiteral("the version slurmrestd reports")},
    };
    for (const auto& [source, origin] : sources) {
        const bool cli = source.at(1) == QLatin1String("cli");
        QJsonObject json;
        const Answer live = planLive(args, source, cli, &json, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString context =
            QStringLiteral("sbatch %1 (%2)\n   Slurm 22.05: %3\n   plan:        %4 (message: %5)\n   notes: %6")
                .arg(args, source.at(1), slurmAnswer.summary(), live.summary(), live.message,
                     QString::fromUtf8(QJsonDocument(json.value(QStringLiteral("notes")).toArray()).toJson()));
        QCOMPARE(json.value(QStringLiteral("rulesVersion")).toString(), QStringLiteral("22.05.8"));
        QCOMPARE(json.value(QStringLiteral("rulesVersionOrigin")).toString(), origin);
        const QJsonArray notes = json.value(QStringLiteral("notes")).toArray();
        const QString note = notes.isEmpty() ? QString() : notes.first().toString();
        QVERIFY2(note.startsWith(QStringLiteral("Slurm 22.05.8 topology/tree rules (") + origin +
                                 QStringLiteral("): switches compared by node counts only")),
                 qPrintable(context));
        switch (slurmAnswer.kind) {
        case Answer::Kind::Now:
            QVERIFY2(live.kind == Answer::Kind::Now && live.nodes == slurmAnswer.nodes, qPrintable(context));
            break;
        case Answer::Kind::Later:
            QVERIFY2(live.kind != Answer::Kind::Now, qPrintable(context));
            break;
        case Answer::Kind::Fails:
            if (args.contains(QLatin1String("--switches")))
                QVERIFY2(live.kind == Answer::Kind::Later, qPrintable(context));
            else
                QVERIFY2(live.kind == Answer::Kind::Fails && contains(live.message, slurmAnswer.message),
                         qPrintable(context));
            break;
        }
        if (cli) {
            const QJsonObject asked = json.value(QStringLiteral("askSlurm")).toObject();
            QVERIFY2(asked.value(QStringLiteral("agrees")).toBool(),
                     qPrintable(context + QStringLiteral("\n   --ask-slurm: ") +
                                asked.value(QStringLiteral("verdict")).toString()));
        }
        if (differs) {
            // The row tells the rule sets apart on this source too.
            const Answer current =
                planLive(args, source + QStringList{QStringLiteral("--slurm-version"), QStringLiteral("26.05")}, false,
                         &json, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(json.value(QStringLiteral("rulesVersionOrigin")).toString(),
                     QStringLiteral("as --slurm-version asked"));
            QVERIFY2(current.summary() != live.summary(),
                     qPrintable(context + QStringLiteral("\n   plan 26.05:  %1").arg(current.summary())));
        }
    }
}

// A job that can never fit one leaf but asks for --switches=1 pends for max_switch_wait, then
// runs on more leaves; plan must name those nodes (and say it would wait first).
void SlurmTreeRealTest::fallsBackAfterSwitchWait() {
    if (m_weighted || !m_running) {
        const QString error = startCluster(false);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    const QString args = QStringLiteral("-N 9 --switches=1 --gres=gpu:8");
    QString error;
    QElapsedTimer timer;
    timer.start();
    const Answer slurmAnswer = submitted(args, &error, 120000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(slurmAnswer.kind == Answer::Kind::Now && timer.elapsed() >= kSwitchWait * 1000,
             qPrintable(QStringLiteral("the job should pend %1 s, then run: %2 after %3 ms")
                            .arg(kSwitchWait)
                            .arg(slurmAnswer.summary())
                            .arg(timer.elapsed())));
    qInfo("ran after %lld ms on %s", static_cast<long long>(timer.elapsed()),
          qPrintable(slurmAnswer.nodes.join(QLatin1Char(','))));
    const Answer old = plan(args, QStringLiteral("22.05"), false, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(old.kind == Answer::Kind::Later && old.nodes == slurmAnswer.nodes,
             qPrintable(
                 QStringLiteral("sbatch %1\n   Slurm 22.05: pending, then %2\n   plan 22.05:  %3 on %4 (message: %5)")
                     .arg(args, slurmAnswer.summary(), old.summary(), old.nodes.join(QLatin1Char(',')), old.message)));
}

void SlurmTreeRealTest::matchesWeightedJobs_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("differs");
    // Same occupancy; leaf04 (5 gpu:8-capable nodes) has Weight 1, the rest Weight 10.
    QTest::newRow("light nodes first") << "-N 2 --gres=gpu:8"
                                       << "gpu-[025-026]" << false;
    QTest::newRow("one node in the light group") << "-N 1 --gres=gpu:4"
                                                 << "gpu-025" << false;
    // 22.05 stops adding weight groups once the minimum (3) is covered: only leaf04's 5 nodes;
    // 26.x adds the heavier group until the maximum (8).
    QTest::newRow("node range: weight groups up to the minimum (22.05)") << "-N 3-8 --gres=gpu:8"
                                                                         << "gpu-[025-026,028-029,032]" << true;
    // leaf04 forced, 2 more from the heavy group: 22.05 keeps the farther, tighter leaf01.
    QTest::newRow("forced light nodes, then closer leaf (22.05)") << "-N 7 --gres=gpu:8"
                                                                  << "gpu-[004,007,025-026,028-029,032]" << true;
    QTest::newRow("forced light nodes, then the closer leaf fits exactly")
        << "-N 9 --gres=gpu:8"
        << "gpu-[017,019,022,024-026,028-029,032]" << false;
}

void SlurmTreeRealTest::matchesWeightedJobs() {
    QFETCH(QString, args);
    QFETCH(QString, expected);
    QFETCH(bool, differs);
    if (!m_weighted || !m_running) {
        const QString error = startCluster(true);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QString error;
    const Answer slurmAnswer = submitted(args, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    compareRow(args, slurmAnswer, expected, differs, true);
}

// Task counts (-n) over nodes of unequal free CPUs, the shapes of tests/placement/
// test_slurm_tree_tasks.cpp: one cluster of 39 nodes with 16 CPUs and no GPUs, each shape its own
// subtree, and each request kept to its subtree with -x. plan --slurm-version 22.05 must name the
// nodes Slurm names (sbatch --test-only; a real job for the two rows with Weights), and 26.05
// must answer otherwise where that table says the rules part. The cluster is this function's own:
// it is stopped at the end, so a later function starts its cluster again.
void SlurmTreeRealTest::matchesTaskCounts() {
    struct Shape {
        const char* switches;      // topology.conf lines, "|"-separated
        std::vector<int> freeCpus; // per node, in order
    };
    // Nodes are numbered on from gpu-001 in shape order.
    const std::vector<Shape> shapes = {
        // 1-6: two leaves without a common switch (Y, then X at the same level).
        {"SwitchName=Y Nodes=gpu-[001-003]|SwitchName=X Nodes=gpu-[004-006]|SwitchName=PY Switches=Y|"
         "SwitchName=PX Switches=X",
         {2, 8, 8, 2, 2, 2}},
        // 7-9: spine S1 over L1 (x1) and L2 (x2), spine S2 over L3 (y1), L3 first in the file.
        {"SwitchName=L3 Nodes=gpu-009|SwitchName=L1 Nodes=gpu-007|SwitchName=L2 Nodes=gpu-008|"
         "SwitchName=S1 Switches=L1,L2|SwitchName=S2 Switches=L3|SwitchName=R2 Switches=S1,S2",
         {4, 4, 6}},
        // 10-13: leaf B3 (2, 2) before leaf A3 (8, 8).
        {"SwitchName=B3 Nodes=gpu-[012-013]|SwitchName=A3 Nodes=gpu-[010-011]|SwitchName=R3 Switches=A3,B3",
         {8, 8, 2, 2}},
        // 14-17: A4 (1, 1, 8), B4 (4).
        {"SwitchName=A4 Nodes=gpu-[014-016]|SwitchName=B4 Nodes=gpu-017|SwitchName=R4 Switches=A4,B4", {1, 1, 8, 4}},
        // 18-21: A5 (2, 6), B5 (4, 4).
        {"SwitchName=A5 Nodes=gpu-[018-019]|SwitchName=B5 Nodes=gpu-[020-021]|SwitchName=R5 Switches=A5,B5",
         {2, 6, 4, 4}},
        // 22-24 and 25-27: A (8, 8, Weight=10), B (4, then 8).
        {"SwitchName=A6 Nodes=gpu-[022-023]|SwitchName=B6 Nodes=gpu-024|SwitchName=R6 Switches=A6,B6", {8, 8, 4}},
        {"SwitchName=A7 Nodes=gpu-[025-026]|SwitchName=B7 Nodes=gpu-027|SwitchName=R7 Switches=A7,B7", {8, 8, 8}},
        // 28-39: leaf A (2 nodes) and leaf B (1 node) under a root: examples 1, 2, 3 and odd counts.
        {"SwitchName=A8 Nodes=gpu-[028-029]|SwitchName=B8 Nodes=gpu-030|SwitchName=R8 Switches=A8,B8", {4, 4, 8}},
        {"SwitchName=A9 Nodes=gpu-[031-032]|SwitchName=B9 Nodes=gpu-033|SwitchName=R9 Switches=A9,B9", {8, 8, 4}},
        {"SwitchName=A10 Nodes=gpu-[034-035]|SwitchName=B10 Nodes=gpu-036|SwitchName=R10 Switches=A10,B10", {4, 4, 10}},
        {"SwitchName=A11 Nodes=gpu-[037-038]|SwitchName=B11 Nodes=gpu-039|SwitchName=R11 Switches=A11,B11", {5, 3, 7}},
    };
    struct Row {
        const char* args;
        int first, last; // the subtree's nodes
        const char* expected;
        bool differs;
        bool submit; // a real job: the row depends on Weight, which --test-only ignores
    };
    const std::vector<Row> rows = {
        {"-n 8", 28, 30, "gpu-030", false, false},             // example 1
        {"-N 1 -n 8", 28, 30, "gpu-030", false, false},        // one node holds every task
        {"-n 8", 31, 33, "gpu-[031,033]", true, false},        // example 2
        {"-n 1", 31, 33, "gpu-033", true, false},              // 26.05: the first usable node
        {"-n 12", 34, 36, "gpu-[034,036]", true, false},       // example 3
        {"-n 20", 34, 36, "later", true, false},               // the root is short
        {"-n 100", 34, 36, "fails", false, false},             // more than the nodes have
        {"-n 4 -c 2", 37, 39, "gpu-[037,039]", true, false},   // whole tasks
        {"-n 10", 1, 6, "gpu-[002-003]", true, false},         // top switch short: the retry
        {"-n 20", 1, 6, "later", true, false},                 // no switch has the CPUs
        {"-n 8", 7, 9, "gpu-[007,009]", true, false},          // 26.05 climbs to the spines
        {"-N 2 -n 16", 10, 13, "gpu-[010-011]", false, false}, // 22.05 by its retry
        {"-N 2 -n 10", 14, 17, "gpu-[016-017]", false, false}, // both retry after max_nodes
        {"-N 2 -n 8", 18, 21, "gpu-[018-019]", false, false},  // one task per node suffices
        {"-n 8", 22, 24, "gpu-[022,024]", false, true},        // the light node is forced
        {"-N 1-3 -n 8", 25, 27, "gpu-027", true, true},        // 22.05: weights to the minimum
    };
    const int nodeCount = 39;
    const auto node = [](int i) { return QStringLiteral("gpu-%1").arg(i, 3, 10, QLatin1Char('0')); };

    stopCluster();
    struct StopAtEnd {
        SlurmTreeRealTest* test;
        ~StopAtEnd() { test->stopCluster(); }
    } stopAtEnd{this};
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString topology;
    for (const Shape& shape : shapes)
        topology +=
            QString::fromLatin1(shape.switches).replace(QLatin1Char('|'), QLatin1Char('\n')) + QLatin1Char('\n');
    const QString topologyFile = dir.filePath(QStringLiteral("topology.conf"));
    QFile file(topologyFile);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(topology.toUtf8()) > 0);
    file.close();
    m_running = true;
    m_weighted = false;
    QString error =
        m_cluster.start({QStringLiteral("-T"), topologyFile, QStringLiteral("-N"),
                         QStringLiteral("gpu-[001-%1]").arg(nodeCount, 3, 10, QLatin1Char('0')), QStringLiteral("-g"),
                         QStringLiteral("0"), QStringLiteral("-c"), QStringLiteral("16"), QStringLiteral("-W"),
                         QStringLiteral("gpu-[022-023]=10"), QStringLiteral("-W"), QStringLiteral("gpu-[025-026]=10"),
                         QStringLiteral("-s"), QString::number(kSwitchWait)});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_topology = m_cluster.value("TOPODECK_SLURM_TOPOLOGY");

    // Busy CPUs: one job per node holding 16 - free of them.
    int index = 0;
    for (const Shape& shape : shapes)
        for (const int free : shape.freeCpus) {
            ++index;
            if (free == 16) continue;
            const Run submit = slurm(QStringLiteral("sbatch"),
                                     {QStringLiteral("--parsable"), QStringLiteral("-J"), QStringLiteral("occupy"),
                                      QStringLiteral("-N"), QStringLiteral("1"), QStringLiteral("-w"), node(index),
                                      QStringLiteral("-n"), QString::number(16 - free), QStringLiteral("-t"),
                                      QStringLiteral("60"), QStringLiteral("--wrap"), QStringLiteral("sleep 3600")});
            QVERIFY2(submit.exitCode == 0, qPrintable(submit.describe()));
        }
    QCOMPARE(index, nodeCount);
    error = waitUntilSettled(QStringLiteral("the occupying jobs to run"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = writeSnapshot();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The snapshot carries the Weights as topodeck's Slurm sources do, in a node label.
    QFile snapshot(m_snapshot);
    QVERIFY(snapshot.open(QIODevice::ReadOnly));
    QString yaml = QString::fromUtf8(snapshot.readAll());
    snapshot.close();
    for (const int heavy : {22, 23, 25, 26}) {
        const QString hostname = QStringLiteral("      kubernetes.io/hostname: %1\n").arg(node(heavy));
        QVERIFY(yaml.contains(hostname));
        yaml.replace(hostname, hostname + QStringLiteral("      slurm.topodeck.io/weight: \"10\"\n"));
    }
    QVERIFY(snapshot.open(QIODevice::WriteOnly | QIODevice::Truncate) && snapshot.write(yaml.toUtf8()) > 0);
    snapshot.close();

    for (const Row& row : rows) {
        QStringList outside;
        if (row.first > 1)
            outside
                << QStringLiteral("%1-%2").arg(1, 3, 10, QLatin1Char('0')).arg(row.first - 1, 3, 10, QLatin1Char('0'));
        if (row.last < nodeCount)
            outside << QStringLiteral("%1-%2")
                           .arg(row.last + 1, 3, 10, QLatin1Char('0'))
                           .arg(nodeCount, 3, 10, QLatin1Char('0'));
        const QString args =
            QStringLiteral("-x gpu-[%1] %2").arg(outside.join(QLatin1Char(',')), QLatin1String(row.args));
        const Answer slurmAnswer = row.submit ? submitted(args, &error) : testOnly(args, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        compareRow(args, slurmAnswer, QString::fromLatin1(row.expected), row.differs, false);
        if (QTest::currentTestFailed()) return;
    }
}

TOPODECK_TEST_GUILESS_MAIN(SlurmTreeRealTest)
#include "test_slurm_tree_real.moc"
