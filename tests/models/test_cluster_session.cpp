#include "session/cluster_session.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <memory>

using namespace topodeck;

namespace {

constexpr int kTimeoutMs = 60000; // debug and sanitizer builds generate the demos slowly

SourceStatus statusAt(const QSignalSpy& spy, qsizetype i) {
    return spy.at(i).at(0).value<SourceStatus>();
}
ClusterSnapshotPtr snapshotAt(const QSignalSpy& spy, qsizetype i) {
    return spy.at(i).at(0).value<ClusterSnapshotPtr>();
}

// Waits until the session reports `health` (Connecting comes first on every open).
bool waitForHealth(QSignalSpy& spy, SourceHealth health) {
    QElapsedTimer timer;
    timer.start();
    while (spy.isEmpty() || statusAt(spy, spy.size() - 1).health != health) {
        if (timer.elapsed() > kTimeoutMs || !spy.wait(kTimeoutMs)) return false;
    }
    return true;
}

bool writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

// Two racks in one block, four GPUs in use, labelled with keys no preset knows, and an object
// topodeck does not read (a warning).
const char kSmallList[] = R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: gpu-a
    labels: {example.com/block: b1, example.com/rack: r1}
  status:
    allocatable: {cpu: "64", nvidia.com/gpu: "8"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Node
  metadata:
    name: gpu-b
    labels: {example.com/block: b1, example.com/rack: r2}
  status:
    allocatable: {cpu: "64", nvidia.com/gpu: "8"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Pod
  metadata: {name: trainer, namespace: default}
  spec:
    nodeName: gpu-a
    containers:
    - name: main
      resources:
        requests: {nvidia.com/gpu: "4"}
  status: {phase: Running}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings, namespace: default}
)";

} // namespace

class TestClusterSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void openDemoPublishes();
    void failedOpenKeepsSnapshot_data();
    void failedOpenKeepsSnapshot();
    void openFileFromTestData();
    void openFileWithLevelKeys();
    void topologyChoiceAppliesToDemo();
    void gpuClassesApplyToDemo();
    void supersededOpenIsDropped();
    void simulationIsCoalesced();
    void destroyWhileOpening();
    void nodePodsComeFromTheWorker();
    void snapshotsFlowDuringASlowRequest();

private:
    QTemporaryDir m_dir;
};

void TestClusterSession::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("small.yaml")), QByteArray(kSmallList)));
    QVERIFY(
        writeFile(m_dir.filePath(QStringLiteral("broken.yaml")), QByteArrayLiteral("items: [ {kind: Node\n  - ]:")));
}

void TestClusterSession::openDemoPublishes() {
    ClusterSession session;
    QVERIFY(!session.latestSnapshot());
    QVERIFY(!session.simulationEnabled());
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    QThread* receivedOn = nullptr;
    connect(&session, &ClusterSession::snapshotPublished, this,
            [&receivedOn] { receivedOn = QThread::currentThread(); });

    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    QCOMPARE(receivedOn, QThread::currentThread());
    const ClusterSnapshotPtr snapshot = snapshotAt(published, 0);
    QVERIFY(snapshot);
    QCOMPARE(session.latestSnapshot(), snapshot);
    QCOMPARE(snapshot->index.root().totals.gpusTotal, 4 * 4 * 8 * 8);
    QCOMPARE(snapshot->status.sourceName, QStringLiteral("demo h100"));
    QCOMPARE(snapshot->status.health, SourceHealth::Live);
    QVERIFY(!snapshot->title.isEmpty());
    QVERIFY(snapshot->podCount > 0);
    QCOMPARE(snapshot->nodes.size(), snapshot->index.nodeSlots());
    QVERIFY(snapshot->node(0));

    QVERIFY(waitForHealth(status, SourceHealth::Live));
    QCOMPARE(statusAt(status, 0).health, SourceHealth::Connecting);
    QCOMPARE(session.status().sourceName, QStringLiteral("demo h100"));
    QCOMPARE(session.status().health, SourceHealth::Live);
}

void TestClusterSession::failedOpenKeepsSnapshot_data() {
    QTest::addColumn<QString>("demo");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("sourceName");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("unknown demo") << QStringLiteral("nonsense") << QString() << QStringLiteral("demo nonsense")
                                  << QStringLiteral("nonsense");
    QTest::newRow("bad demo size") << QStringLiteral("scale:0") << QString() << QStringLiteral("demo scale:0")
                                   << QStringLiteral("scale");
    QTest::newRow("missing file") << QString() << QStringLiteral("no-such-file.yaml")
                                  << QStringLiteral("file no-such-file.yaml") << QStringLiteral("no-such-file.yaml");
    QTest::newRow("broken yaml") << QString() << QStringLiteral("broken.yaml") << QStringLiteral("file broken.yaml")
                                 << QString();
    QTest::newRow("bad quantity") << QString() << QStringLiteral(TOPODECK_TEST_DATA_DIR "/show-bad-quantity.yaml")
                                  << QStringLiteral("file show-bad-quantity.yaml") << QStringLiteral("gpu-1");
}

void TestClusterSession::failedOpenKeepsSnapshot() {
    QFETCH(QString, demo);
    QFETCH(QString, file);
    QFETCH(QString, sourceName);
    QFETCH(QString, messagePart);

    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    const ClusterSnapshotPtr before = session.latestSnapshot();
    QVERIFY(before);

    status.clear();
    if (!demo.isEmpty()) {
        session.openDemo(demo);
    } else {
        session.openFile(file.startsWith(QLatin1Char('/')) ? file : m_dir.filePath(file));
    }
    QVERIFY(waitForHealth(status, SourceHealth::Error));
    const SourceStatus error = statusAt(status, status.size() - 1);
    QCOMPARE(error.sourceName, sourceName);
    QVERIFY(!error.detail.isEmpty());
    QVERIFY2(error.detail.contains(messagePart), qPrintable(error.detail));
    QCOMPARE(session.status().health, SourceHealth::Error);

    // Nothing already shown is lost: no new snapshot, the previous one stays the latest.
    QTest::qWait(300);
    QCOMPARE(published.size(), 1);
    QCOMPARE(session.latestSnapshot(), before);
}

void TestClusterSession::openFileFromTestData() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    session.openFile(QStringLiteral(TOPODECK_TEST_DATA_DIR "/show-small.yaml"));
    QVERIFY(published.wait(kTimeoutMs));
    const ClusterSnapshotPtr snapshot = session.latestSnapshot();
    QCOMPARE(snapshot->status.sourceName, QStringLiteral("file show-small.yaml"));
    QCOMPARE(snapshot->status.health, SourceHealth::Live);
    // The file's Kueue Topology names the levels.
    QCOMPARE(snapshot->index.spec().depth(), 2);
    QCOMPARE(snapshot->index.spec().levels[0].nodeLabel, std::string("topology.example.com/block"));
    QCOMPARE(snapshot->index.root().totals.gpusTotal, 48);
    QVERIFY(snapshot->title.endsWith(QStringLiteral("show-small.yaml")));
    QVERIFY(waitForHealth(status, SourceHealth::Live));
}

void TestClusterSession::openFileWithLevelKeys() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    session.setTopologyChoice(QString(), {QStringLiteral("example.com/block"), QStringLiteral("example.com/rack")});
    session.openFile(m_dir.filePath(QStringLiteral("small.yaml")));
    QVERIFY(published.wait(kTimeoutMs));
    const ClusterSnapshotPtr snapshot = session.latestSnapshot();
    QCOMPARE(snapshot->status.sourceName, QStringLiteral("file small.yaml"));
    QCOMPARE(snapshot->index.spec().depth(), 2);
    const TopologyIndex& index = snapshot->index;
    QCOMPARE(index.root().totals.gpusTotal, 16);
    QCOMPARE(index.root().totals.gpusUsed, 4);
    QCOMPARE(index.root().children.size(), std::size_t(1));
    const Domain& block = index.domain(index.root().children[0]);
    QCOMPARE(block.value, std::string("b1"));
    QCOMPARE(block.children.size(), std::size_t(2));
    QCOMPARE(snapshot->podCount, std::size_t(1));
    QCOMPARE(snapshot->status.warnings.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(snapshot->status.warnings[0]).contains(QStringLiteral("ConfigMap")));
    QVERIFY(waitForHealth(status, SourceHealth::Live));
    QCOMPARE(session.status().warnings.size(), std::size_t(1));
}

// The DRA DeviceClasses counted as GPUs (--gpu-classes) apply to the next open: gb200-dra's 2,304
// GPUs are gpu.nvidia.com devices; counted by mig.nvidia.com alone, only the 576 GPUs its MIG
// devices are cut from remain.
void TestClusterSession::gpuClassesApplyToDemo() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    session.openDemo(QStringLiteral("gb200-dra"));
    QVERIFY(published.wait(kTimeoutMs));
    QCOMPARE(session.latestSnapshot()->index.root().totals.gpusTotal, 2304);
    session.setTopologyChoice(QString(), {}, QString(), QString(), QStringLiteral("mig.nvidia.com"));
    session.openDemo(QStringLiteral("gb200-dra"));
    QVERIFY(published.wait(kTimeoutMs));
    QCOMPARE(session.latestSnapshot()->index.root().totals.gpusTotal, 576);
}

void TestClusterSession::topologyChoiceAppliesToDemo() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    const TopologySpec own = session.latestSnapshot()->index.spec();
    QVERIFY(own.depth() >= 2);

    // Only the lowest level: the racks become the top rows.
    session.setTopologyChoice(QString(), {QString::fromStdString(own.levels.back().nodeLabel)});
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    const ClusterSnapshotPtr racks = session.latestSnapshot();
    QCOMPARE(racks->index.spec().depth(), 1);
    QCOMPARE(racks->index.spec().levels[0].nodeLabel, own.levels.back().nodeLabel);
    QVERIFY(racks->sourceEpoch > snapshotAt(published, 0)->sourceEpoch);

    // Back to automatic.
    session.setTopologyChoice(QString(), {});
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    QCOMPARE(session.latestSnapshot()->index.spec(), own);
    QCOMPARE(session.latestSnapshot()->index.root().totals.gpusTotal, 1024);

    // Other GPU resource names: the H100 demo has no AMD GPUs.
    session.setTopologyChoice(QString(), {}, QStringLiteral("amd.com/gpu"));
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    QCOMPARE(session.latestSnapshot()->index.root().totals.gpusTotal, 0);
    QCOMPARE(session.latestSnapshot()->index.gpuResources().patterns(), std::vector<std::string>{"amd.com/gpu"});
}

void TestClusterSession::supersededOpenIsDropped() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    session.openDemo(QStringLiteral("scale:8192"));
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    QTest::qWait(300);
    QCOMPARE(published.size(), 1);
    QCOMPARE(snapshotAt(published, 0)->status.sourceName, QStringLiteral("demo h100"));
    for (qsizetype i = 0; i < status.size(); ++i)
        QVERIFY(statusAt(status, i).health != SourceHealth::Live ||
                statusAt(status, i).sourceName == QStringLiteral("demo h100"));
}

void TestClusterSession::simulationIsCoalesced() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy status(&session, &ClusterSession::statusChanged);
    session.setSimulationInterval(10); // far faster than snapshots may be published
    session.setSimulationEnabled(true);
    QVERIFY(session.simulationEnabled());
    session.openDemo(QStringLiteral("gb200"));
    QVERIFY(published.wait(kTimeoutMs));
    QVERIFY(waitForHealth(status, SourceHealth::Live));
    QCOMPARE(statusAt(status, status.size() - 1).detail, QStringLiteral("simulator running"));

    published.clear();
    QElapsedTimer timer;
    timer.start();
    QTest::qWait(1500);
    const qint64 elapsed = timer.elapsed();
    const qsizetype count = published.size();
    QVERIFY2(count >= 3, qPrintable(QString::number(count)));
    // At most one per 100 ms, give or take the one in flight when the window opened.
    QVERIFY2(count <= elapsed / 100 + 2, qPrintable(QString::number(count)));
    for (qsizetype i = 1; i < count; ++i) {
        QVERIFY(snapshotAt(published, i)->generation > snapshotAt(published, i - 1)->generation);
        QCOMPARE(snapshotAt(published, i)->sourceEpoch, snapshotAt(published, 0)->sourceEpoch);
    }

    session.setSimulationEnabled(false);
    QVERIFY(!session.simulationEnabled());
    QVERIFY(status.wait(kTimeoutMs));
    QCOMPARE(statusAt(status, status.size() - 1).detail, QStringLiteral("simulator paused"));
    QTest::qWait(200); // let a publish already scheduled go out
    published.clear();
    QTest::qWait(400);
    QCOMPARE(published.size(), 0);
}

void TestClusterSession::destroyWhileOpening() {
    auto session = std::make_unique<ClusterSession>();
    session->setSimulationEnabled(true);
    session->openDemo(QStringLiteral("gb200"));
    session->openDemo(QStringLiteral("h100"));
    session.reset(); // joins the worker thread; must neither hang nor crash
    QVERIFY(!session);
}

// A node's pods, asked of the worker: exactly those the index counts there, in name order, and
// only the newest request answered.
void TestClusterSession::nodePodsComeFromTheWorker() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    session.openDemo(QStringLiteral("h100"));
    QVERIFY(published.wait(kTimeoutMs));
    const ClusterSnapshotPtr snapshot = session.latestSnapshot();
    const TopologyIndex& index = snapshot->index;
    NodeId busy = 0;
    for (NodeId id = 0; id < index.nodeSlots(); ++id)
        if (index.node(id).pods > index.node(busy).pods) busy = id;
    QVERIFY(index.node(busy).pods >= 2);

    QSignalSpy answered(&session, &ClusterSession::nodePodsReady);
    session.requestNodePods(busy == 0 ? 1 : 0); // superseded by the next request
    session.requestNodePods(busy);
    QVERIFY(answered.wait(kTimeoutMs));
    QTest::qWait(50);
    QCOMPARE(answered.count(), 1);
    const auto pods = answered.last().at(0).value<NodePodsPtr>();
    QCOMPARE(pods->node, busy);
    QCOMPARE(pods->sourceEpoch, snapshot->sourceEpoch);
    QCOMPARE(pods->pods.size(), std::size_t(index.node(busy).pods));
    std::int64_t gpus = 0;
    for (const Pod& pod : pods->pods) {
        QCOMPARE(pod.nodeName, snapshot->node(busy)->name);
        gpus += index.gpuResources().count(pod.requests);
    }
    QCOMPARE(gpus, index.node(busy).gpusUsed);
    for (std::size_t i = 1; i < pods->pods.size(); ++i) QVERIFY(pods->pods[i - 1].key() != pods->pods[i].key());
}

// Requests run on a thread of their own, over a copy of the cluster: while a slow one (a review
// bundle, every engine before and after, on 8,192 nodes) runs, the simulator's changes go on being
// applied and published, at the session's pace (one snapshot per 100 ms at most).
void TestClusterSession::snapshotsFlowDuringASlowRequest() {
    ClusterSession session;
    QSignalSpy published(&session, &ClusterSession::snapshotPublished);
    QSignalSpy exported(&session, &ClusterSession::exportFinished);
    session.setSimulationInterval(20);
    session.setSimulationEnabled(true);
    session.openDemo(QStringLiteral("scale:8192"));
    QVERIFY(published.wait(kTimeoutMs));
    QTemporaryDir dir;
    ExportRequest request;
    request.folder = QString(dir.path() + QStringLiteral("/bundle")).toStdString();
    request.bundle = true;
    auto gang = parsePlanQuery("--pods 256 --request nvidia.com/gpu=8 --preferred agg --compare");
    QVERIFY(gang.ok());
    request.gang = *gang;
    QElapsedTimer took;
    took.start();
    published.clear();
    session.requestExport(request);
    QVERIFY(exported.wait(kTimeoutMs));
    const qint64 ms = took.elapsed();
    const qsizetype during = published.size();
    const auto answer = exported.at(0).at(0).value<ExportAnswerPtr>();
    QVERIFY2(answer->error.empty(), answer->error.c_str());
    QVERIFY(!answer->written.empty());
    // The bundle takes a second or more in this build; a source that waited for it would publish
    // nothing meanwhile.
    QVERIFY2(ms >= 500, qPrintable(QStringLiteral("the request took only %1 ms: make it slower").arg(ms)));
    QVERIFY2(during >= std::max<qint64>(2, ms / 400),
             qPrintable(QStringLiteral("%1 snapshots in %2 ms").arg(during).arg(ms)));
}

TOPODECK_TEST_GUILESS_MAIN(TestClusterSession)
#include "test_cluster_session.moc"
