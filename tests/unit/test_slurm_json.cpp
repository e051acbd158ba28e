// Readers of Slurm's node and job JSON (sinfo/squeue --json, slurmrestd), GRES strings and node
// state names.
//
// Where each shape comes from:
//  - tests/data/slurm/live/*.json: captured from Debian 12's Slurm 22.05.8 (64 nodes, 5 jobs; see
//    the values checked below). v0.0.38 is `sinfo --json` / `squeue --json`; v0.0.36 and v0.0.37
//    are slurmrestd's older plugins on the same cluster.
//  - tests/data/slurm/json/*-v0.0.40.json (Slurm 23.11): hand-made, field for field after SchedMD's
//    src/plugins/data_parser/v0.0.40/parsers.c (PARSER_ARRAY(NODE), JOB_INFO, JOB_RES with
//    "allocated_nodes" from _dump_node_res: {"sockets": {"0": {"cores": {"0": "allocated" |
//    "allocated_and_in_use"}}}, "nodename", "cpus_used", "memory_used", "memory_allocated"},
//    OPENAPI_META/ERROR/WARNING) and on slurmrestd 23.11.10 replies published in
//    rackslab/Slurm-web tests/assets/slurmrestd/23.11/ (slurm-node-drain.json: "state":
//    ["MIXED", "DRAIN"], features/partitions lists, number objects, "last_update";
//    slurm-job-gpus-multi-nodes.json: "job_state": ["RUNNING"], gres_detail
//    "gpu:h100:2(IDX:0-1),gpu:h200:4(IDX:2-5)"; slurm-job-pending.json: "job_resources": {}).
//  - *-v0.0.41.json (Slurm 24.05): after v0.0.41/parsers.c (JOB_RES: "nodes": {"count",
//    "select_type", "list", "whole", "allocation": [JOB_RES_NODE {"index", "name", "cpus":
//    {"count", "used"}, "memory": {"used", "allocated"}, "sockets": [{"index", "cores":
//    [{"index", "status": ["ALLOCATED"]}]}]}]}; OPENAPI_NODES_RESP/JOB_INFO_RESP "last_update")
//    and Slurm-web's 24.05/0.0.41/slurm-job-gpus-multi-nodes.json.
//  - *-v0.0.43.json (Slurm 25.05): after Slurm-web's 25.05/0.0.43 replies (node fields
//    tls_cert_last_renewal, cert_flags, topology; "job_resources": null while pending;
//    slurm-node-unfound.json: an "errors" list and no "nodes").
//  - The 22.05 CLI error replies below are what sinfo/squeue --json print with slurmctld down.
#include "core/slurm/slurm_json.h"
#include "support/test_program.h"

#include <QRegularExpression>
#include <QtTest>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::string readData(const QString& relative) {
    const std::string path = std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/" + relative.toStdString();
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) qWarning("cannot read %s", path.c_str());
    return text.str();
}

const SlurmNode* findNode(const std::vector<SlurmNode>& nodes, const QString& name) {
    for (const SlurmNode& node : nodes)
        if (qs(node.name) == name) return &node;
    return nullptr;
}

const SlurmJob* findJob(const std::vector<SlurmJob>& jobs, std::uint32_t id) {
    for (const SlurmJob& job : jobs)
        if (job.id == id) return &job;
    return nullptr;
}

// "node:cpus:memory:gpus node:..." for comparison in one string.
QString allocationsText(const SlurmJob& job) {
    QStringList parts;
    for (const SlurmJobAllocation& a : job.allocations)
        parts << QStringLiteral("%1:%2:%3:%4").arg(qs(a.node)).arg(a.cpus).arg(a.memoryMiB).arg(a.gpus);
    return parts.join(QLatin1Char(' '));
}

QString joinedNames(const std::vector<std::string>& names) {
    QStringList parts;
    for (const std::string& name : names) parts << qs(name);
    return parts.join(QLatin1Char(','));
}

// Columns shared by the node tables.
void nodeColumns() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("state");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("schedulable");
    QTest::addColumn<qint64>("cpus");
    QTest::addColumn<qint64>("cpusAllocated");
    QTest::addColumn<qint64>("memoryMiB");
    QTest::addColumn<qint64>("memoryAllocatedMiB");
    QTest::addColumn<qint64>("gpus");
    QTest::addColumn<qint64>("gpusUsed");
    QTest::addColumn<QString>("gpuType");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("partitions");
    QTest::addColumn<QString>("features");
    QTest::addColumn<uint>("weight");
}

void checkNode() {
    QFETCH(QString, file);
    QFETCH(QString, node);
    std::string json = readData(file);
    const auto reply = readSlurmNodes(json, file.toStdString());
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    const SlurmNode* n = findNode(reply->nodes, node);
    QVERIFY2(n, qPrintable(node));
    QTEST(qs(n->stateName()), "state");
    QTEST(n->ready(), "ready");
    QTEST(n->schedulable(), "schedulable");
    QTEST(qint64(n->cpus), "cpus");
    QTEST(qint64(n->cpusAllocated), "cpusAllocated");
    QTEST(qint64(n->memoryMiB), "memoryMiB");
    QTEST(qint64(n->memoryAllocatedMiB), "memoryAllocatedMiB");
    QTEST(qint64(n->gpus), "gpus");
    QTEST(qint64(n->gpusUsed), "gpusUsed");
    QTEST(qs(n->gpuType), "gpuType");
    QTEST(qs(n->reason), "reason");
    QTEST(joinedNames(n->partitions), "partitions");
    QTEST(qs(n->features), "features");
    QTEST(uint(n->weight), "weight");
}

void jobColumns() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<uint>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("holds");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<qint64>("nodeCount");
    QTest::addColumn<QString>("tresPerNode");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<uint>("arrayJob");
    QTest::addColumn<int>("arrayTask"); // -1: none
    QTest::addColumn<QString>("allocations");
}

void checkJob() {
    QFETCH(QString, file);
    QFETCH(uint, id);
    std::string json = readData(file);
    const auto reply = readSlurmJobs(json, file.toStdString());
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    const SlurmJob* job = findJob(reply->jobs, id);
    QVERIFY(job);
    QTEST(qs(job->name), "name");
    QTEST(qs(job->user), "user");
    QTEST(qs(job->state), "state");
    QTEST(qs(job->stateReason), "reason");
    QTEST(job->holdsNodes(), "holds");
    QTEST(qs(job->nodes), "nodes");
    QTEST(qint64(job->nodeCount), "nodeCount");
    QTEST(qs(job->tresPerNode), "tresPerNode");
    QTEST(qint64(job->startTime), "start");
    QTEST(qint64(job->endTime), "end");
    QTEST(qint64(job->timeLimitMinutes), "limit");
    QTEST(uint(job->arrayJobId), "arrayJob");
    QTEST(job->arrayTaskId ? int(*job->arrayTaskId) : -1, "arrayTask");
    QTEST(allocationsText(*job), "allocations");
}

} // namespace

class TestSlurmJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void liveNodeList_data();
    void liveNodeList();
    void liveNodes_data();
    void liveNodes();
    void liveJobs_data();
    void liveJobs();
    void newerMeta_data();
    void newerMeta();
    void releaseInEveryShape_data();
    void releaseInEveryShape();
    void releaseFromVersionParts_data();
    void releaseFromVersionParts();
    void newerNodes_data();
    void newerNodes();
    void newerJobs_data();
    void newerJobs();
    void numberForms();
    void stateForms_data();
    void stateForms();
    void allocationForms_data();
    void allocationForms();
    void warnings();
    void errorReplies_data();
    void errorReplies();
    void textKeptAndPadded();
    void gres_data();
    void gres();
    void stateNames_data();
    void stateNames();
    void holdsNodes_data();
    void holdsNodes();
    void unknownStateNames();
};

void TestSlurmJson::liveNodeList_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("dataParser");
    QTest::newRow("v0.0.36") << "live/nodes-v0.0.36.json"
                             << "v0.0.36";
    QTest::newRow("v0.0.37") << "live/nodes-v0.0.37.json"
                             << "v0.0.37";
    QTest::newRow("v0.0.38 (sinfo --json)") << "live/nodes-v0.0.38.json"
                                            << "v0.0.38";
}

void TestSlurmJson::liveNodeList() {
    QFETCH(QString, file);
    std::string json = readData(file);
    const auto reply = readSlurmNodes(json, "sinfo --json");
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    QCOMPARE(reply->nodes.size(), std::size_t{64});
    for (std::size_t i = 0; i < reply->nodes.size(); ++i)
        QCOMPARE(qs(reply->nodes[i].name), QStringLiteral("gpu-%1").arg(i + 1, 3, 10, QLatin1Char('0')));
    QTEST(qs(reply->meta.dataParser), "dataParser");
    QCOMPARE(qs(reply->meta.slurmRelease), QStringLiteral("22.05.8"));
    QCOMPARE(reply->meta.lastUpdate, std::int64_t{0}); // not in 22.05's replies
    QVERIFY(reply->meta.warnings.empty());
    // Every node has 8 GPUs; 4 + 2 of them are in use (jobs 1 and 2).
    std::int64_t gpus = 0;
    std::int64_t used = 0;
    for (const SlurmNode& node : reply->nodes) {
        gpus += node.gpus;
        used += node.gpusUsed;
        QVERIFY(node.gpuType.empty());
    }
    QCOMPARE(gpus, std::int64_t{512});
    QCOMPARE(used, std::int64_t{4 * 8 + 2});
}

void TestSlurmJson::liveNodes_data() {
    nodeColumns();
    for (const char* version : {"v0.0.37", "v0.0.38"}) {
        const QString file = QStringLiteral("live/nodes-%1.json").arg(QLatin1String(version));
        const auto row = [&](const char* what) -> QTestData& { return QTest::addRow("%s %s", version, what); };
        row("gpu-009 mixed (jobs 1 and 4)") << file << "gpu-009"
                                            << "mixed" << true << true << qint64(64) << qint64(9) << qint64(512000)
                                            << qint64(36000) << qint64(8) << qint64(8) << ""
                                            << ""
                                            << "gpu"
                                            << "" << 1u;
        row("gpu-010 drained") << file << "gpu-010"
                               << "drained" << true << false << qint64(64) << qint64(0) << qint64(512000) << qint64(0)
                               << qint64(8) << qint64(0) << ""
                               << "xid-79"
                               << "gpu"
                               << "" << 1u;
        row("gpu-011 down") << file << "gpu-011"
                            << "down" << false << false << qint64(64) << qint64(0) << qint64(512000) << qint64(0)
                            << qint64(8) << qint64(0) << ""
                            << "dead"
                            << "gpu"
                            << "" << 1u;
        row("gpu-015 job 2") << file << "gpu-015"
                             << "mixed" << true << true << qint64(64) << qint64(1) << qint64(512000) << qint64(4000)
                             << qint64(8) << qint64(2) << ""
                             << ""
                             << "gpu"
                             << "" << 1u;
        row("gpu-001 idle") << file << "gpu-001"
                            << "idle" << true << true << qint64(64) << qint64(0) << qint64(512000) << qint64(0)
                            << qint64(8) << qint64(0) << ""
                            << ""
                            << "gpu"
                            << "" << 1u;
    }
    // v0.0.36 has no state_flags, alloc_cpus, alloc_memory or partitions: the drain of gpu-010
    // and the CPUs in use are invisible there (Slurm's choice, read as written).
    const QString file = QStringLiteral("live/nodes-v0.0.36.json");
    QTest::newRow("v0.0.36 gpu-009 allocated") << file << "gpu-009"
                                               << "allocated" << true << true << qint64(64) << qint64(0)
                                               << qint64(512000) << qint64(0) << qint64(8) << qint64(8) << ""
                                               << ""
                                               << ""
                                               << "" << 1u;
    QTest::newRow("v0.0.36 gpu-010 idle") << file << "gpu-010"
                                          << "idle" << true << true << qint64(64) << qint64(0) << qint64(512000)
                                          << qint64(0) << qint64(8) << qint64(0) << ""
                                          << "xid-79"
                                          << ""
                                          << "" << 1u;
    QTest::newRow("v0.0.36 gpu-011 down") << file << "gpu-011"
                                          << "down" << false << false << qint64(64) << qint64(0) << qint64(512000)
                                          << qint64(0) << qint64(8) << qint64(0) << ""
                                          << "dead"
                                          << ""
                                          << "" << 1u;
}

void TestSlurmJson::liveNodes() {
    checkNode();
}

void TestSlurmJson::liveJobs_data() {
    jobColumns();
    const qint64 start = 1796124585;
    for (const char* version : {"v0.0.36", "v0.0.37", "v0.0.38"}) {
        const QString file = QStringLiteral("live/jobs-%1.json").arg(QLatin1String(version));
        const QString user = QLatin1String(version) == QLatin1String("v0.0.36") ? QString() : QStringLiteral("root");
        const auto row = [&](const char* what) -> QTestData& { return QTest::addRow("%s %s", version, what); };
        row("1 gang-a") << file << 1u << "gang-a" << user << "RUNNING"
                        << "None" << true << "gpu-[009,012-014]" << qint64(4) << "gres:gpu:8" << start << start + 3600
                        << qint64(60) << 0u << -1
                        << "gpu-009:1:4000:8 gpu-012:1:4000:8 gpu-013:1:4000:8 gpu-014:1:4000:8";
        row("2 small") << file << 2u << "small" << user << "RUNNING"
                       << "None" << true << "gpu-015" << qint64(1) << "gres:gpu:2" << start << start + 3600
                       << qint64(60) << 0u << -1 << "gpu-015:1:4000:2";
        row("3 failed") << file << 3u << "wrap" << user << "FAILED"
                        << "BadConstraints" << false << "" << qint64(2) << "gres:gpu:h100:1" << start << start
                        << qint64(60) << 0u << -1 << "";
        row("4 cpu only") << file << 4u << "cpu" << user << "RUNNING"
                          << "None" << true << "gpu-009" << qint64(1) << "" << start << start + 3600 << qint64(60) << 0u
                          << -1 << "gpu-009:8:32000:0";
        row("5 pending") << file << 5u << "pend" << user << "PENDING"
                         << "Resources" << false << "" << qint64(60) << "gres:gpu:8" << qint64(0) << qint64(0)
                         << qint64(60) << 0u << -1 << "";
    }
}

void TestSlurmJson::liveJobs() {
    checkJob();
}

void TestSlurmJson::newerMeta_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("dataParser");
    QTest::addColumn<QString>("release");
    QTest::addColumn<qint64>("lastUpdate");
    QTest::addColumn<int>("count");
    QTest::newRow("nodes v0.0.40") << "json/nodes-v0.0.40.json"
                                   << "data_parser/v0.0.40"
                                   << "23.11.10" << qint64(1796124590) << 8;
    QTest::newRow("nodes v0.0.41") << "json/nodes-v0.0.41.json"
                                   << "data_parser/v0.0.41"
                                   << "24.05.3" << qint64(1796124590) << 8;
    QTest::newRow("nodes v0.0.43") << "json/nodes-v0.0.43.json"
                                   << "data_parser/v0.0.43"
                                   << "25.05.4" << qint64(1796124590) << 3;
    QTest::newRow("jobs v0.0.40") << "json/jobs-v0.0.40.json"
                                  << "data_parser/v0.0.40"
                                  << "23.11.10" << qint64(1796124591) << 4;
    QTest::newRow("jobs v0.0.41") << "json/jobs-v0.0.41.json"
                                  << "data_parser/v0.0.41"
                                  << "24.05.3" << qint64(1796124591) << 4;
    QTest::newRow("jobs v0.0.43") << "json/jobs-v0.0.43.json"
                                  << "data_parser/v0.0.43"
                                  << "25.05.4" << qint64(1796124591) << 2;
}

void TestSlurmJson::newerMeta() {
    QFETCH(QString, file);
    QFETCH(int, count);
    std::string json = readData(file);
    SlurmReplyMeta meta;
    std::size_t read = 0;
    if (file.contains(QLatin1String("nodes"))) {
        const auto reply = readSlurmNodes(json, "slurmrestd");
        QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
        meta = reply->meta;
        read = reply->nodes.size();
    } else {
        const auto reply = readSlurmJobs(json, "slurmrestd");
        QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
        meta = reply->meta;
        read = reply->jobs.size();
    }
    QCOMPARE(read, std::size_t(count));
    QTEST(qs(meta.dataParser), "dataParser");
    QTEST(qs(meta.slurmRelease), "release");
    QTEST(qint64(meta.lastUpdate), "lastUpdate");
}

// meta.Slurm (v0.0.36-38) / meta.slurm (v0.0.40+) in every reply of tests/data: "release", and
// the same from "version" alone (numbers in 22.05, strings from 23.11) when "release" is taken out.
void TestSlurmJson::releaseInEveryShape_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("release");
    for (const char* kind : {"nodes", "jobs"}) {
        for (const char* version : {"v0.0.36", "v0.0.37", "v0.0.38"}) {
            const QString file = QStringLiteral("live/%1-%2.json").arg(QLatin1String(kind), QLatin1String(version));
            QTest::newRow(qPrintable(file)) << file << QStringLiteral("22.05.8");
        }
        const std::pair<const char*, const char*> newer[] = {
            {"v0.0.40", "23.11.10"}, {"v0.0.41", "24.05.3"}, {"v0.0.43", "25.05.4"}};
        for (const auto& [version, release] : newer) {
            const QString file = QStringLiteral("json/%1-%2.json").arg(QLatin1String(kind), QLatin1String(version));
            QTest::newRow(qPrintable(file)) << file << QString::fromLatin1(release);
        }
    }
}

void TestSlurmJson::releaseInEveryShape() {
    QFETCH(QString, file);
    QFETCH(QString, release);
    const auto metaOf = [&](std::string json, SlurmReplyMeta& meta) -> std::string {
        if (file.contains(QLatin1String("nodes"))) {
            auto reply = readSlurmNodes(json, "slurmrestd");
            if (!reply) return reply.error().message;
            meta = std::move(reply->meta);
        } else {
            auto reply = readSlurmJobs(json, "slurmrestd");
            if (!reply) return reply.error().message;
            meta = std::move(reply->meta);
        }
        return {};
    };
    const std::string json = readData(file);
    SlurmReplyMeta meta;
    std::string error = metaOf(json, meta);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(qs(meta.slurmRelease), release);

    QString withoutRelease = qs(json);
    QCOMPARE(withoutRelease.count(QStringLiteral("\"release\"")), 1);
    // With the comma before it (or after it, when it comes first).
    static const QRegularExpression releaseKey(
        QStringLiteral(R"((,\s*"release"\s*:\s*"[^"]*")|("release"\s*:\s*"[^"]*"\s*,))"));
    const QRegularExpressionMatch match = releaseKey.match(withoutRelease);
    QVERIFY(match.hasMatch());
    withoutRelease.remove(match.capturedStart(), match.capturedLength());
    SlurmReplyMeta fromParts;
    error = metaOf(withoutRelease.toStdString(), fromParts);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(qs(fromParts.slurmRelease), release);
}

void TestSlurmJson::releaseFromVersionParts_data() {
    QTest::addColumn<QString>("meta");
    QTest::addColumn<QString>("release");
    QTest::newRow("numbers") << R"({"Slurm":{"version":{"major":22,"minor":5,"micro":8}}})"
                             << "22.05.8";
    QTest::newRow("strings") << R"({"slurm":{"version":{"major":"24","minor":"11","micro":"1"}}})"
                             << "24.11.1";
    QTest::newRow("release wins")
        << R"({"slurm":{"release":"25.05.4","version":{"major":"25","minor":"05","micro":"3"}}})"
        << "25.05.4";
    QTest::newRow("no micro") << R"({"slurm":{"version":{"major":"23","minor":"02"}}})"
                              << "23.02";
    // A part of another kind, or none at all, is no version; the reply is still read.
    QTest::newRow("odd part") << R"({"slurm":{"version":{"major":true,"minor":"05","micro":"3"}}})"
                              << "";
    QTest::newRow("no minor") << R"({"slurm":{"version":{"major":"24"}}})"
                              << "";
    QTest::newRow("null") << R"({"Slurm":null})"
                          << "";
    QTest::newRow("no meta") << "null"
                             << "";
}

void TestSlurmJson::releaseFromVersionParts() {
    QFETCH(QString, meta);
    std::string json = R"({"meta":)" + meta.toStdString() + R"(,"errors":[],"nodes":[]})";
    const auto reply = readSlurmNodes(json, "slurmrestd");
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    QTEST(qs(reply->meta.slurmRelease), "release");
}

void TestSlurmJson::newerNodes_data() {
    nodeColumns();
    for (const char* version : {"v0.0.40", "v0.0.41", "v0.0.43"}) {
        const QString file = QStringLiteral("json/nodes-%1.json").arg(QLatin1String(version));
        const bool all = QLatin1String(version) != QLatin1String("v0.0.43");
        const auto row = [&](const char* what) -> QTestData& { return QTest::addRow("%s %s", version, what); };
        row("gpu-001 idle typed") << file << "gpu-001"
                                  << "idle" << true << true << qint64(64) << qint64(0) << qint64(512000) << qint64(0)
                                  << qint64(8) << qint64(0) << "h100"
                                  << ""
                                  << "gpu"
                                  << "h100,nvlink" << 1u;
        row("gpu-003 draining") << file << "gpu-003"
                                << "draining" << true << false << qint64(64) << qint64(8) << qint64(512000)
                                << qint64(32000) << qint64(8) << qint64(8) << "h100"
                                << "ECC memory error"
                                << "gpu"
                                << "h100,nvlink" << 1u;
        row("gpu-007 two GPU types") << file << "gpu-007"
                                     << "allocated" << true << true << qint64(64) << qint64(64) << qint64(512000)
                                     << qint64(256000) << qint64(8) << qint64(8) << ""
                                     << ""
                                     << "gpu"
                                     << "" << 1u;
        if (!all) continue;
        row("gpu-002 mixed weight 10") << file << "gpu-002"
                                       << "mixed" << true << true << qint64(64) << qint64(18) << qint64(512000)
                                       << qint64(72000) << qint64(8) << qint64(4) << "h100"
                                       << ""
                                       << "gpu"
                                       << "h100,nvlink" << 10u;
        row("gpu-004 drained") << file << "gpu-004"
                               << "drained" << true << false << qint64(64) << qint64(0) << qint64(512000) << qint64(0)
                               << qint64(8) << qint64(0) << "h100"
                               << "xid-79"
                               << "gpu"
                               << "h100,nvlink" << 1u;
        row("gpu-005 down not responding") << file << "gpu-005"
                                           << "down" << false << false << qint64(64) << qint64(0) << qint64(512000)
                                           << qint64(0) << qint64(8) << qint64(0) << "h100"
                                           << "Not responding"
                                           << "gpu"
                                           << "h100" << 1u;
        row("gpu-006 powered down") << file << "gpu-006"
                                    << "idle" << false << false << qint64(64) << qint64(0) << qint64(512000)
                                    << qint64(0) << qint64(8) << qint64(0) << "h100"
                                    << ""
                                    << "gpu"
                                    << "h100" << 1u;
        row("gpu-008 maintenance reservation") << file << "gpu-008"
                                               << "maint" << true << false << qint64(64) << qint64(0) << qint64(512000)
                                               << qint64(0) << qint64(8) << qint64(0) << "h100"
                                               << ""
                                               << "gpu"
                                               << "h100" << 1u;
    }
}

void TestSlurmJson::newerNodes() {
    checkNode();
}

void TestSlurmJson::newerJobs_data() {
    jobColumns();
    const qint64 start = 1796124585;
    for (const char* version : {"v0.0.40", "v0.0.41", "v0.0.43"}) {
        const QString file = QStringLiteral("json/jobs-%1.json").arg(QLatin1String(version));
        const bool all = QLatin1String(version) != QLatin1String("v0.0.43");
        const auto row = [&](const char* what) -> QTestData& { return QTest::addRow("%s %s", version, what); };
        // Infinite time limit and end time read as 0.
        row("102 two GPU types") << file << 102u << "multi"
                                 << "bob"
                                 << "RUNNING"
                                 << "None" << true << "gpu-007" << qint64(1) << "gres/gpu:8" << start << qint64(0)
                                 << qint64(0) << 0u << -1 << "gpu-007:64:256000:8";
        // An array task pending: job_resources {} (v0.0.40/41) or null (v0.0.43).
        row("107 pending array task") << file << 107u << "sweep"
                                      << "carol"
                                      << "PENDING"
                                      << "Priority" << false << "" << qint64(2) << "gres/gpu:8" << qint64(0)
                                      << qint64(0) << qint64(60) << 105u << 2 << "";
        if (!all) continue;
        row("101 two nodes") << file << 101u << "train"
                             << "alice"
                             << "RUNNING"
                             << "None" << true << "gpu-[002-003]" << qint64(2) << "gres/gpu:h100:4" << start
                             << start + 240 * 60 << qint64(240) << 0u << -1 << "gpu-002:16:64000:4 gpu-003:8:32000:8";
        row("104 completing") << file << 104u << "cleanup"
                              << "alice"
                              << "COMPLETING"
                              << "None" << true << "gpu-002" << qint64(1) << "" << qint64(1796124000)
                              << qint64(1796124580) << qint64(10) << 0u << -1 << "gpu-002:2:8000:0";
    }
}

void TestSlurmJson::newerJobs() {
    checkJob();
}

void TestSlurmJson::numberForms() {
    // Either form wherever versions differ, null, unset and infinite.
    std::string json = R"({"nodes": [
        {"name": "n1", "cpus": {"set": true, "infinite": false, "number": 32}, "alloc_cpus": 4,
         "real_memory": 1000.0, "alloc_memory": {"set": false, "infinite": false, "number": 7},
         "weight": {"set": true, "infinite": false, "number": 5}, "state": "idle"},
        {"name": "n2", "cpus": null, "alloc_cpus": {"set": true, "infinite": true, "number": 9},
         "weight": null, "state": ["IDLE"]}
    ], "last_update": 1796000000})";
    const auto reply = readSlurmNodes(json, "test");
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    QCOMPARE(reply->meta.lastUpdate, std::int64_t{1796000000});
    QCOMPARE(reply->nodes.size(), std::size_t{2});
    const SlurmNode& n1 = reply->nodes[0];
    QCOMPARE(n1.cpus, std::int64_t{32});
    QCOMPARE(n1.cpusAllocated, std::int64_t{4});
    QCOMPARE(n1.memoryMiB, std::int64_t{1000});
    QCOMPARE(n1.memoryAllocatedMiB, std::int64_t{0}); // "set": false
    QCOMPARE(n1.weight, 5u);
    const SlurmNode& n2 = reply->nodes[1];
    QCOMPARE(n2.cpus, std::int64_t{0});
    QCOMPARE(n2.cpusAllocated, std::int64_t{0}); // infinite
    QCOMPARE(n2.weight, 1u);

    std::string jobs = R"({"jobs": [
        {"job_id": 7, "time_limit": {"set": false, "infinite": true, "number": 0},
         "start_time": {"set": true, "infinite": false, "number": 1796000100}, "end_time": 1796000200,
         "array_job_id": 6, "array_task_id": 0, "node_count": {"set": true, "infinite": false, "number": 3},
         "job_state": "RUNNING"},
        {"job_id": 8, "array_task_id": null, "job_state": ["PENDING", "REQUEUED"], "time_limit": 30}
    ]})";
    const auto jobReply = readSlurmJobs(jobs, "test");
    QVERIFY2(jobReply.ok(), jobReply.ok() ? "" : jobReply.error().message.c_str());
    const SlurmJob& j7 = jobReply->jobs[0];
    QCOMPARE(j7.timeLimitMinutes, std::int64_t{0});
    QCOMPARE(j7.startTime, std::int64_t{1796000100});
    QCOMPARE(j7.endTime, std::int64_t{1796000200});
    QCOMPARE(j7.arrayJobId, 6u);
    QVERIFY(j7.arrayTaskId.has_value());
    QCOMPARE(*j7.arrayTaskId, 0u); // task 0 is a task
    QCOMPARE(j7.nodeCount, std::int64_t{3});
    QCOMPARE(qs(j7.state), QStringLiteral("RUNNING"));
    const SlurmJob& j8 = jobReply->jobs[1];
    QVERIFY(!j8.arrayTaskId.has_value());
    QCOMPARE(qs(j8.state), QStringLiteral("REQUEUED"));
    QVERIFY(!j8.holdsNodes());
}

void TestSlurmJson::stateForms_data() {
    QTest::addColumn<QString>("state"); // the JSON of "state" (and "state_flags" when given)
    QTest::addColumn<QString>("stateName");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("schedulable");
    QTest::newRow("22.05 string") << R"("state": "mixed")"
                                  << "mixed" << true << true;
    QTest::newRow("22.05 string and flags") << R"("state": "mixed", "state_flags": ["DRAIN"])"
                                            << "draining" << true << false;
    QTest::newRow("flags before state") << R"("state_flags": ["DRAIN"], "state": "idle")"
                                        << "drained" << true << false;
    QTest::newRow("list") << R"("state": ["IDLE", "DRAIN"])"
                          << "drained" << true << false;
    QTest::newRow("list not responding") << R"("state": ["ALLOCATED", "NOT_RESPONDING"])"
                                         << "allocated" << false << false;
    QTest::newRow("list completing") << R"("state": ["MIXED", "COMPLETING"])"
                                     << "completing" << true << true;
    QTest::newRow("list fail") << R"("state": ["MIXED", "FAIL"])"
                               << "failing" << false << false;
    QTest::newRow("list planned") << R"("state": ["IDLE", "PLANNED"])"
                                  << "planned" << true << true;
    QTest::newRow("list future") << R"("state": ["FUTURE"])"
                                 << "future" << false << false;
    QTest::newRow("unknown names ignored") << R"("state": ["IDLE", "SOMETHING_NEW"])"
                                           << "idle" << true << true;
    QTest::newRow("none") << R"("cpus": 1)"
                          << "unknown" << false << false;
}

void TestSlurmJson::stateForms() {
    QFETCH(QString, state);
    std::string json = R"({"nodes": [{"name": "n1", )" + state.toStdString() + "}]}";
    const auto reply = readSlurmNodes(json, "test");
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    const SlurmNode& node = reply->nodes.front();
    QTEST(qs(node.stateName()), "stateName");
    QTEST(node.ready(), "ready");
    QTEST(node.schedulable(), "schedulable");
}

void TestSlurmJson::allocationForms_data() {
    QTest::addColumn<QString>("resources"); // the JSON of job_resources
    QTest::addColumn<QString>("gresDetail");
    QTest::addColumn<QString>("expected"); // allocations, or "error: ..."
    QTest::newRow("v0.0.36 object keyed by index") << R"({"nodes": "n[1-2]", "allocated_nodes": {
            "1": {"sockets": {"0": "unassigned"}, "cores": {"0": "unassigned"}, "memory": 200, "cpus": 3},
            "0": {"sockets": {"0": "unassigned"}, "cores": {"0": "unassigned"}, "memory": 100, "cpus": 2}}})"
                                                   << R"j(["gpu:1(IDX:0)", "gpu:2(IDX:0-1)"])j"
                                                   << "n1:2:100:1 n2:3:200:2";
    QTest::newRow("v0.0.38 list counts allocated cores") << R"({"nodes": "n1", "allocated_nodes": [
            {"sockets": {"0": {"cores": {"0": "allocated", "1": "allocated_and_in_use"}},
                         "1": {"cores": {"3": "allocated"}}},
             "nodename": "n1", "cpus_used": 0, "memory_used": 0, "memory_allocated": 300}]})"
                                                         << "[]"
                                                         << "n1:3:300:0";
    QTest::newRow("v0.0.41 cpus count wins") << R"({"nodes": {"count": 1, "list": "n1", "allocation": [
            {"index": 0, "name": "n1", "cpus": {"count": 4, "used": 0}, "memory": {"used": 1, "allocated": 500},
             "sockets": [{"index": 0, "cores": [{"index": 0, "status": ["ALLOCATED"]}]}]}]}})"
                                             << R"j(["gpu:h100:2(IDX:0-1)"])j"
                                             << "n1:4:500:2";
    QTest::newRow("v0.0.41 without cpus counts cores") << R"({"nodes": {"list": "n1", "allocation": [
            {"name": "n1", "memory": {"allocated": 10}, "sockets": [
                {"index": 0, "cores": [{"index": 0, "status": ["ALLOCATED", "IN_USE"]},
                                       {"index": 1, "status": ["UNALLOCATED"]}]},
                {"index": 1, "cores": [{"index": 0, "status": ["ALLOCATED"]}]}]}]}})"
                                                       << "[]"
                                                       << "n1:2:10:0";
    QTest::newRow("fewer gres_detail entries") << R"({"nodes": "n[1-2]", "allocated_nodes": [
            {"nodename": "n1", "memory_allocated": 1, "sockets": {}},
            {"nodename": "n2", "memory_allocated": 2, "sockets": {}}]})"
                                               << R"(["gpu:4"])"
                                               << "n1:0:1:4 n2:0:2:0";
    QTest::newRow("null") << "null"
                          << R"(["gpu:4"])"
                          << "";
    QTest::newRow("empty") << "{}"
                           << "[]"
                           << "";
    QTest::newRow("index past the hostlist") << R"({"nodes": "n1", "allocated_nodes": {"1": {"cpus": 1}}})"
                                             << "[]"
                                             << "error: jobs[0].job_resources: node 1 of an allocation of 1 nodes";
    QTest::newRow("bad hostlist") << R"({"nodes": "n[1-", "allocated_nodes": {"0": {"cpus": 1}}})"
                                  << "[]"
                                  << "error: jobs[0].job_resources.nodes: invalid hostlist";
    QTest::newRow("bad key") << R"({"nodes": "n1", "allocated_nodes": {"first": {"cpus": 1}}})"
                             << "[]"
                             << "error: expected node indexes as keys, got \"first\"";
    QTest::newRow("bad gres_detail") << R"({"nodes": "n1", "allocated_nodes": {"0": {"cpus": 1}}})"
                                     << R"(["gpu:h100:x"])"
                                     << "error: jobs[0].gres_detail[0]: invalid GRES entry \"gpu:h100:x\"";
    QTest::newRow("cpus of the wrong kind")
        << R"({"nodes": "n1", "allocated_nodes": [{"nodename": "n1", "cpus": "4"}]})"
        << "[]"
        << "error: jobs[0].job_resources.allocated_nodes[0].cpus: expected a "
           "number, got a string";
}

void TestSlurmJson::allocationForms() {
    QFETCH(QString, resources);
    QFETCH(QString, gresDetail);
    QFETCH(QString, expected);
    std::string json = R"({"jobs": [{"job_id": 1, "job_state": "RUNNING", "gres_detail": )" + gresDetail.toStdString() +
                       R"(, "job_resources": )" + resources.toStdString() + "}]}";
    const auto reply = readSlurmJobs(json, "test");
    if (expected.startsWith(QLatin1String("error: "))) {
        QVERIFY(!reply.ok());
        QVERIFY2(qs(reply.error().message).contains(expected.mid(7)), reply.error().message.c_str());
        return;
    }
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    QCOMPARE(allocationsText(reply->jobs.front()), expected);
}

void TestSlurmJson::warnings() {
    // Hand-made: the warning form of OPENAPI_WARNING ({"description", "source"}) and a plain string.
    std::string json = R"({"nodes": [], "warnings": [
        {"description": "No nodes to dump", "source": "slurm_load_node"}, {"description": "plain"}, "text"],
        "errors": []})";
    const auto reply = readSlurmNodes(json, "test");
    QVERIFY2(reply.ok(), reply.ok() ? "" : reply.error().message.c_str());
    QVERIFY(reply->nodes.empty());
    QCOMPARE(reply->meta.warnings.size(), std::size_t{3});
    QCOMPARE(qs(reply->meta.warnings[0]), QStringLiteral("slurm_load_node: No nodes to dump"));
    QCOMPARE(qs(reply->meta.warnings[1]), QStringLiteral("plain"));
    QCOMPARE(qs(reply->meta.warnings[2]), QStringLiteral("text"));
}

void TestSlurmJson::errorReplies_data() {
    QTest::addColumn<bool>("jobs");
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message"); // part of the error
    QTest::newRow("sinfo 22.05 slurmctld down")
        << false << R"({"meta": {}, "errors": [{"error": "Unspecified error", "errno": -1}], "nodes": []})"
        << "src: Slurm reported an error: error -1: Unspecified error";
    QTest::newRow("squeue 22.05 slurmctld down")
        << true
        << R"({"errors": [{"description": "Failed while looking for jobs", "error_number": -1, "error": "Unspecified error", "source": "slurm_load_jobs"}], "jobs": []})"
        << "src: Slurm reported an error: slurm_load_jobs: Failed while looking for jobs (error -1: Unspecified error)";
    QTest::newRow("25.05 errors without nodes")
        << false
        << R"({"errors": [{"description": "Failure to query node unexisting-node", "error_number": 0, "error": "No error", "source": "_dump_nodes"}], "warnings": []})"
        << "_dump_nodes: Failure to query node unexisting-node (No error)";
    QTest::newRow("errors after the list")
        << false << R"({"nodes": [{"name": "n1"}], "errors": [{"error": "a"}, {"error": "b"}]})"
        << "Slurm reported 2 errors: a; b";
    QTest::newRow("empty") << false << "  \n"
                           << "src: empty reply";
    QTest::newRow("not an object") << false << "[1, 2]"
                                   << "src: expected a JSON object";
    QTest::newRow("truncated") << false << R"({"nodes": [{"name": "gpu-001", "cpus": 64}, {"name": "gpu-0)"
                               << "src: invalid JSON: A string is opened, but never closed.";
    QTest::newRow("truncated message") << true << R"({"jobs": [{"job_id": 1)"
                                       << "invalid JSON";
    QTest::newRow("malformed") << false << R"({"nodes": [{"name": "n1",, "cpus": 1}]})"
                               << "invalid JSON";
    QTest::newRow("misspelt null") << false << R"({"nodes": [{"name": "n1", "cpus": nul}]})"
                                   << "src: nodes[0].cpus: invalid JSON: malformed value nul";
    QTest::newRow("misspelt true") << true << R"({"jobs": [{"job_id": 1, "name": tru}]})"
                                   << "jobs[0].name: invalid JSON: malformed value tru";
    QTest::newRow("trailing content") << false << R"({"nodes": []} x)"
                                      << "unexpected content after the top-level value";
    QTest::newRow("cpus a string") << false << R"({"nodes": [{}, {}, {}, {"name": "n4", "cpus": "64"}]})"
                                   << "src: nodes[3].cpus: expected a number, got a string";
    QTest::newRow("cpus a fraction") << false << R"({"nodes": [{"cpus": 6.5}]})"
                                     << "nodes[0].cpus: expected an integer, got 6.5";
    QTest::newRow("number object of the wrong kind")
        << false << R"({"nodes": [{"alloc_memory": {"set": true, "number": "1"}}]})"
        << "nodes[0].alloc_memory.number: expected a number, got a string";
    QTest::newRow("set not a boolean") << false << R"({"nodes": [{"cpus": {"set": 1, "number": 1}}]})"
                                       << "nodes[0].cpus.set: expected true or false, got a number";
    QTest::newRow("name a list") << false << R"({"nodes": [{"name": ["n1"]}]})"
                                 << "nodes[0].name: expected a string, got a list";
    QTest::newRow("state a number") << false << R"({"nodes": [{"state": 3}]})"
                                    << "nodes[0].state: expected a string or a list of strings, got a number";
    QTest::newRow("nodes a map") << false << R"({"nodes": {"n1": {}}})"
                                 << "src: nodes: expected a list, got a map";
    QTest::newRow("node a string") << false << R"({"nodes": ["n1"]})"
                                   << "nodes[0]: expected a map, got a string";
    QTest::newRow("bad gres") << false << R"({"nodes": [{"name": "n1", "gres": "gpu:h100:8(S:0"}]})"
                              << "nodes[0].gres: invalid GRES entry";
    QTest::newRow("bad gres_used") << false << R"({"nodes": [{"name": "n1", "gres_used": "gpu:a:b:c:d"}]})"
                                   << "nodes[0].gres_used: invalid GRES entry \"gpu:a:b:c:d\"";
    QTest::newRow("job id negative") << true << R"({"jobs": [{"job_id": -4}]})"
                                     << "jobs[0].job_id: -4 is out of range";
    QTest::newRow("job id a string") << true << R"({"jobs": [{"job_id": "4"}]})"
                                     << "jobs[0].job_id: expected a number, got a string";
    QTest::newRow("errors a map") << false << R"({"errors": {"a": 1}, "nodes": []})"
                                  << "errors: expected a list, got a map";
    QTest::newRow("meta of the wrong kind") << false << R"({"meta": {"plugin": {"type": 38}}, "nodes": []})"
                                            << "meta.plugin.type: expected a string, got a number";
    QTest::newRow("jobs reply to the nodes reader") << false << R"({"jobs": []})"
                                                    << "src: the reply has no \"nodes\" list";
    QTest::newRow("nodes reply to the jobs reader") << true << R"({"nodes": []})"
                                                    << "src: the reply has no \"jobs\" list";
}

void TestSlurmJson::errorReplies() {
    QFETCH(bool, jobs);
    QFETCH(QString, json);
    QFETCH(QString, message);
    std::string text = json.toStdString();
    const std::string error = jobs ? [&] {
        const auto reply = readSlurmJobs(text, "src");
        return reply.ok() ? std::string() : reply.error().message;
    }()
                                   : [&] {
                                         const auto reply = readSlurmNodes(text, "src");
                                         return reply.ok() ? std::string() : reply.error().message;
                                     }();
    QVERIFY2(!error.empty(), "the reply was accepted");
    QVERIFY2(qs(error).contains(message), error.c_str());
}

void TestSlurmJson::textKeptAndPadded() {
    std::string json = readData(QStringLiteral("live/nodes-v0.0.38.json"));
    json.shrink_to_fit();
    const std::string copy = json;
    const auto reply = readSlurmNodes(json, "sinfo --json");
    QVERIFY(reply.ok());
    QCOMPARE(json, copy);
    // simdjson reads up to SIMDJSON_PADDING (64) bytes past the end: the reader reserves them.
    QVERIFY(json.capacity() >= json.size() + 64);
}

void TestSlurmJson::gres_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("entries"); // name/type/count/detail;..., or "error: ..."
    QTest::addColumn<qint64>("gpus");
    QTest::addColumn<QString>("gpuType");
    QTest::newRow("untyped") << "gpu:8"
                             << "gpu//8/" << qint64(8) << "";
    QTest::newRow("typed with sockets") << "gpu:h100:8(S:0-1)"
                                        << "gpu/h100/8/S:0-1" << qint64(8) << "h100";
    QTest::newRow("two types") << "gpu:h100:4(S:0),gpu:a100:4(S:1)"
                               << "gpu/h100/4/S:0;gpu/a100/4/S:1" << qint64(8) << "";
    QTest::newRow("indexes with a comma") << "gpu:a100:2(IDX:0,3)"
                                          << "gpu/a100/2/IDX:0,3" << qint64(2) << "a100";
    QTest::newRow("null type") << "gpu:(null):0(IDX:N/A)"
                               << "gpu//0/IDX:N/A" << qint64(0) << "";
    QTest::newRow("zero") << "gpu:0"
                          << "gpu//0/" << qint64(0) << "";
    QTest::newRow("N/A") << "N/A"
                         << "" << qint64(0) << "";
    QTest::newRow("(null)") << "(null)"
                            << "" << qint64(0) << "";
    QTest::newRow("empty") << ""
                           << "" << qint64(0) << "";
    QTest::newRow("shard and gpu") << "shard:4,gpu:2"
                                   << "shard//4/;gpu//2/" << qint64(2) << "";
    QTest::newRow("typed kept over untyped") << "gpu:8(IDX:0-7),gpu:h100:8(IDX:0-7)"
                                             << "gpu//8/IDX:0-7;gpu/h100/8/IDX:0-7" << qint64(8) << "h100";
    QTest::newRow("name only") << "gpu"
                               << "gpu//1/" << qint64(1) << "";
    QTest::newRow("type without count") << "gpu:tesla"
                                        << "gpu/tesla/1/" << qint64(1) << "tesla";
    QTest::newRow("MIG type") << "gpu:1g.10gb:7"
                              << "gpu/1g.10gb/7/" << qint64(7) << "1g.10gb";
    QTest::newRow("count multiplier") << "mps:1K"
                                      << "mps//1024/" << qint64(0) << "";
    QTest::newRow("spaces") << " gpu:2 , shard:1 "
                            << "gpu//2/;shard//1/" << qint64(2) << "";
    QTest::newRow("bad count") << "gpu:h100:x"
                               << "error: invalid GRES entry \"gpu:h100:x\": count \"x\" is not a number" << qint64(0)
                               << "";
    QTest::newRow("missing )") << "gpu:8(IDX:0-7"
                               << "error: missing ')'" << qint64(0) << "";
    QTest::newRow("stray )") << "gpu:8)"
                             << "error: unbalanced ')'" << qint64(0) << "";
    QTest::newRow("text after )") << "gpu:8(S:0)x"
                                  << "error: invalid GRES entry \"gpu:8(S:0)x\": text after ')'" << qint64(0) << "";
    QTest::newRow("no name") << ":8"
                             << "error: invalid GRES entry \":8\": no name" << qint64(0) << "";
    QTest::newRow("too many parts") << "gpu:a:b:4"
                                    << "error: expected name[:type][:count]" << qint64(0) << "";
}

void TestSlurmJson::gres() {
    QFETCH(QString, text);
    QFETCH(QString, entries);
    const auto list = parseGresList(text.toStdString());
    if (entries.startsWith(QLatin1String("error: "))) {
        QVERIFY(!list.ok());
        QVERIFY2(qs(list.error().message).contains(entries.mid(7)), list.error().message.c_str());
        return;
    }
    QVERIFY2(list.ok(), list.ok() ? "" : list.error().message.c_str());
    QStringList parts;
    for (const SlurmGres& g : *list)
        parts << qs(g.name) + QLatin1Char('/') + qs(g.type) + QLatin1Char('/') + QString::number(g.count) +
                     QLatin1Char('/') + qs(g.detail);
    QCOMPARE(parts.join(QLatin1Char(';')), entries);
    QTEST(qint64(gresGpuCount(*list)), "gpus");
    QTEST(qs(gresGpuType(*list)), "gpuType");
}

void TestSlurmJson::stateNames_data() {
    QTest::addColumn<QString>("states"); // names given to addSlurmNodeState, space-separated
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("schedulable");
    QTest::newRow("idle") << "idle"
                          << "idle" << true << true;
    QTest::newRow("mixed") << "MIXED"
                           << "mixed" << true << true;
    QTest::newRow("allocated") << "allocated"
                               << "allocated" << true << true;
    QTest::newRow("down") << "down"
                          << "down" << false << false;
    QTest::newRow("drained") << "IDLE+DRAIN"
                             << "drained" << true << false;
    QTest::newRow("draining mixed") << "MIXED DRAIN"
                                    << "draining" << true << false;
    QTest::newRow("draining allocated") << "ALLOCATED+DRAIN"
                                        << "draining" << true << false;
    QTest::newRow("draining completing") << "IDLE+DRAIN+COMPLETING"
                                         << "draining" << true << false;
    QTest::newRow("down and drained") << "DOWN+DRAIN"
                                      << "drained" << false << false;
    QTest::newRow("error drained") << "ERROR+DRAIN"
                                   << "error" << false << false;
    QTest::newRow("reserved") << "IDLE+RESERVED"
                              << "reserved" << true << false;
    QTest::newRow("reserved while busy") << "MIXED+RESERVED"
                                         << "mixed" << true << false;
    QTest::newRow("maint") << "IDLE+MAINTENANCE"
                           << "maint" << true << false;
    QTest::newRow("maint and drained") << "IDLE+MAINTENANCE+DRAIN"
                                       << "drained" << true << false;
    QTest::newRow("completing") << "ALLOCATED+COMPLETING"
                                << "completing" << true << true;
    QTest::newRow("idle completing") << "IDLE+COMPLETING"
                                     << "completing" << true << true;
    QTest::newRow("fail") << "IDLE+FAIL"
                          << "fail" << false << false;
    QTest::newRow("failing") << "ALLOCATED+FAIL"
                             << "failing" << false << false;
    QTest::newRow("future") << "FUTURE"
                            << "future" << false << false;
    QTest::newRow("unknown") << "UNKNOWN"
                             << "unknown" << false << false;
    QTest::newRow("nothing") << ""
                             << "unknown" << false << false;
    QTest::newRow("not responding") << "DOWN+NOT_RESPONDING"
                                    << "down" << false << false;
    QTest::newRow("idle not responding") << "IDLE+NOT_RESPONDING"
                                         << "idle" << false << false;
    QTest::newRow("powered down") << "IDLE+POWERED_DOWN"
                                  << "idle" << false << false;
    QTest::newRow("power down flag") << "IDLE POWER_DOWN"
                                     << "idle" << false << false;
    QTest::newRow("powering up") << "IDLE+POWERING_UP"
                                 << "idle" << true << true;
    QTest::newRow("planned") << "IDLE+PLANNED"
                             << "planned" << true << true;
    QTest::newRow("cloud") << "IDLE+CLOUD"
                           << "idle" << true << true;
    QTest::newRow("sinfo drained") << "drained"
                                   << "drained" << true << false;
    QTest::newRow("sinfo draining") << "draining"
                                    << "draining" << true << false;
    QTest::newRow("sinfo suffix *") << "idle*"
                                    << "idle" << false << false;
    QTest::newRow("sinfo suffix ~") << "idle~"
                                    << "idle" << false << false;
    QTest::newRow("sinfo short names") << "mix drng"
                                       << "draining" << true << false;
    QTest::newRow("sinfo resv") << "idle resv"
                                << "reserved" << true << false;
}

void TestSlurmJson::stateNames() {
    QFETCH(QString, states);
    SlurmNode node;
    for (const QString& state : states.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        QVERIFY2(addSlurmNodeState(node, state.toStdString()), qPrintable(state));
    QTEST(qs(node.stateName()), "name");
    QTEST(node.ready(), "ready");
    QTEST(node.schedulable(), "schedulable");
}

void TestSlurmJson::holdsNodes_data() {
    QTest::addColumn<QString>("state");
    QTest::addColumn<bool>("holds");
    QTest::newRow("running") << "RUNNING" << true;
    QTest::newRow("suspended") << "SUSPENDED" << true;
    QTest::newRow("completing") << "COMPLETING" << true;
    QTest::newRow("configuring") << "CONFIGURING" << true;
    QTest::newRow("pending") << "PENDING" << false;
    QTest::newRow("completed") << "COMPLETED" << false;
    QTest::newRow("failed") << "FAILED" << false;
    QTest::newRow("cancelled") << "CANCELLED" << false;
    QTest::newRow("empty") << "" << false;
}

void TestSlurmJson::holdsNodes() {
    QFETCH(QString, state);
    SlurmJob job;
    job.state = state.toStdString();
    QTEST(job.holdsNodes(), "holds");
}

void TestSlurmJson::unknownStateNames() {
    SlurmNode node;
    QVERIFY(!addSlurmNodeState(node, "NO_SUCH_STATE"));
    QVERIFY(!addSlurmNodeState(node, "IDLE+NO_SUCH_FLAG")); // the known part is kept
    QCOMPARE(qs(node.stateName()), QStringLiteral("idle"));
    QVERIFY(!addSlurmNodeState(node, ""));
    QVERIFY(addSlurmNodeState(node, "INVALID")); // next_state_after_reboot's "nothing"
    QCOMPARE(qs(node.stateName()), QStringLiteral("idle"));
}

TOPODECK_TEST_APPLESS_MAIN(TestSlurmJson)
#include "test_slurm_json.moc"
