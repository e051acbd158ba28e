// The KubeSource (and topodeckctl) against a real kube-apiserver through FaultProxy: dropped
// watches, 410 Gone injected and from real etcd compaction (a watch from a compacted
// resourceVersion, an expired continue token), 5xx, slow answers, 403, the server gone for a
// while, and answers past the source's limits, stalled halfway or trickled. After each, the source's state must equal the server's, no event may be applied twice
// (a reconnect without changes emits nothing), and the status must say what happened.

#include "kube_test_support.h"

#include "net/kubeconfig.h"
#include "support/test_program.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <set>

using namespace topodeck;
using namespace kubetest;
using namespace std::chrono_literals;

namespace {

// What a ClusterState holds, comparable: nodes with labels and readiness, pods with their node
// and GPUs, topology objects by name.
std::set<std::string> contentOf(const ClusterState& state) {
    std::set<std::string> out;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        std::string line = "node " + record.node->name + (record.node->ready ? " ready" : " not-ready") +
                           (record.node->unschedulable ? " cordoned" : "");
        for (const auto& [key, value] : record.node->labels) line += ' ' + key + '=' + value;
        out.insert(line);
    }
    state.forEachPod([&](const Pod& pod) {
        out.insert("pod " + pod.nameSpace + '/' + pod.name + " on " + pod.nodeName + ' ' +
                   std::to_string(pod.requests.get("nvidia.com/gpu").value()));
    });
    for (const auto& [name, spec] : state.topologies()) out.insert("topology " + spec.origin + '/' + name);
    for (const auto& [name, hyperNode] : state.hyperNodes()) out.insert("hypernode " + name);
    for (const auto& [name, flavor] : state.resourceFlavors()) out.insert("flavor " + name);
    return out;
}

bool hasLabel(const ClusterState& state, std::string_view node, std::string_view key) {
    const std::optional<NodeId> id = state.findNode(node);
    if (!id || !state.record(*id).present) return false;
    for (const auto& [name, value] : state.record(*id).node->labels)
        if (name == key) return true;
    return false;
}

QString describe(const std::set<std::string>& a, const std::set<std::string>& b) {
    QString text;
    for (const std::string& line : a)
        if (!b.count(line)) text += QStringLiteral("\n  only followed: ") + QString::fromStdString(line);
    for (const std::string& line : b)
        if (!a.count(line)) text += QStringLiteral("\n  only on the server: ") + QString::fromStdString(line);
    return text;
}

} // namespace

class TestKubeFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        KUBETEST_START(m_cluster);
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        Result<AdminConnections> connections = adminConnections(*m_cluster, *m_proxy);
        QVERIFY2(connections.ok(), connections.ok() ? "" : connections.error().message.c_str());
        m_direct = connections->direct;
        m_proxied = connections->proxied;
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    void init() {
        m_proxy->refuseConnections(false);
        m_proxy->holdWatches(false);
        m_proxy->resume();
    }

    // Watches dropped mid-stream, again and again while the cluster changes: nothing is lost,
    // and a reconnect after which nothing changed applies nothing.
    void droppedWatchesLoseNothing() {
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        for (int round = 0; round < 5; ++round) {
            const std::string pod = "drop-" + std::to_string(round);
            QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", pod, "gpu-14", 1)).ok());
            m_proxy->dropWatches();
            QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", "{\"metadata\":{\"labels\":{\"round\":\"" + std::to_string(round) + "\"}}}").ok());
            if (round > 0) {
                const std::string gone = "drop-" + std::to_string(round - 1);
                QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/" + gone + "?gracePeriodSeconds=0").ok());
            }
        }
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_proxy->count("watch=1") >= 5 * 2);

        // Quiet now: drop again; the watches resume where they were and bring nothing new.
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        const std::size_t before = followed.events.size();
        const int watches = m_proxy->count("watch=1");
        m_proxy->dropWatches();
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count("watch=1") >= watches + 6, 20000); // all six back
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        followed.pump();
        QCOMPARE(followed.events.size(), before);
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/drop-4?gracePeriodSeconds=0").ok());
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", R"({"metadata":{"labels":{"round":null}}})").ok());
    }

    // A 410 on a watch (injected) makes the source relist: it emits exactly what changed while
    // it was away, and deletes what vanished.
    void injectedGoneRelistsExactlyTheChanges() {
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        m_proxy->refuseConnections(true);
        m_proxy->dropWatches();
        QTRY_COMPARE_WITH_TIMEOUT(m_proxy->watchesOpen(), 0, 10000);
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/debug-0?gracePeriodSeconds=0").ok());
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "gone-1", "gpu-16", 4)).ok());
        m_proxy->expireNextWatch("GET /api/v1/pods?watch=1");
        const int podLists = m_proxy->count("GET /api/v1/pods?limit=");
        const std::size_t before = followed.events.size();
        m_proxy->refuseConnections(false);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QCOMPARE(m_proxy->count("GET /api/v1/pods?limit="), podLists + 1); // one relist
        // The relist brought two pod events, not the other pods again.
        int podEvents = 0;
        for (std::size_t i = before; i < followed.events.size(); ++i)
            if (std::holds_alternative<PodUpserted>(followed.events[i]) || std::holds_alternative<PodDeleted>(followed.events[i]))
                ++podEvents;
        QCOMPARE(podEvents, 2);
        restoreDebugPod();
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/gone-1?gracePeriodSeconds=0").ok());
    }

    // A real 410: etcd compacted past the pod watch's resourceVersion while it was away (pods
    // are watched from etcd itself on the test server).
    void compactionGoneRelists() {
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        m_proxy->refuseConnections(true);
        m_proxy->dropWatches();
        QTRY_COMPARE_WITH_TIMEOUT(m_proxy->watchesOpen(), 0, 10000);
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "compacted-1", "gpu-16", 2)).ok());
        QVERIFY(m_cluster->patch("/api/v1/namespaces/default/pods/debug-0/status", R"({"status":{"phase":"Failed"}})").ok());
        const Status compacted = m_cluster->compact();
        QVERIFY2(compacted.ok(), compacted.ok() ? "" : compacted.error().message.c_str());
        const int podLists = m_proxy->count("GET /api/v1/pods?limit=");
        m_proxy->refuseConnections(false);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QCOMPARE(m_proxy->count("GET /api/v1/pods?limit="), podLists + 1);
        QVERIFY(followed.state.findPod("default", "compacted-1"));
        QVERIFY(!followed.state.findPod("default", "debug-0")); // Failed: no longer holds its GPUs
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/compacted-1?gracePeriodSeconds=0").ok());
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/debug-0?gracePeriodSeconds=0").ok());
        restoreDebugPod();
    }

    // A real expired continue token: the list of pods is paged two at a time, and etcd is
    // compacted between two pages. The source starts the list over and ends with the truth.
    void expiredContinueTokenRestartsTheList() {
        KubeSourceOptions options = fastOptions();
        options.pageSize = 2;
        m_proxy->pauseNext("GET /api/v1/pods?limit=2&fieldSelector");
        m_proxy->pauseNext("continue=");
        FollowedSource followed(m_proxied, options);
        // The first page is held back; let it through, then hold the second.
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count("GET /api/v1/pods?limit=2") >= 1, 10000);
        m_proxy->resume();
        m_proxy->pauseNext("continue=");
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count("continue=") >= 1, 10000);
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", R"({"metadata":{"labels":{"paged":"yes"}}})").ok());
        QVERIFY(m_cluster->compact().ok());
        m_proxy->resume();
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_proxy->count("GET /api/v1/pods?limit=2&fieldSelector") >= 2); // started over
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", R"({"metadata":{"labels":{"paged":null}}})").ok());
    }

    // 5xx on the first lists: Connecting with the reason, then synced.
    void serverErrorsAreRetried() {
        m_proxy->failNext("GET /api/v1/nodes?limit", 503, 3);
        m_proxy->failNext("GET /apis/kueue.x-k8s.io", 500, 2);
        FollowedSource followed(m_proxied, fastOptions());
        bool sawReason = false;
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            const LiveStatus status = followed.status();
            sawReason = sawReason || status.message.find("503 Service Unavailable") != std::string::npos;
            return status.state == LinkState::Synced;
        }));
        QVERIFY(sawReason);
        QVERIFY(m_proxy->count("GET /api/v1/nodes?limit") >= 4); // three 503s, then the list
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));

        // And a watch that fails to come back twice.
        m_proxy->failNext("watch=1", 500, 2);
        m_proxy->dropWatches();
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-14", R"({"metadata":{"labels":{"after5xx":"yes"}}})").ok());
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-14", R"({"metadata":{"labels":{"after5xx":null}}})").ok());
    }

    // A list answer slower than the request timeout is abandoned and asked again.
    void slowAnswersTimeOutAndRetry() {
        KubeSourceOptions options = fastOptions();
        options.requestTimeout = 1500ms;
        m_proxy->delayNext("GET /api/v1/nodes?limit", 4000ms);
        FollowedSource followed(m_proxied, options);
        QVERIFY(followed.waitForStatus(LinkState::Synced, 30s));
        QVERIFY(m_proxy->count("GET /api/v1/nodes?limit") >= 2);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
    }

    // 403 for one resource: that resource says so, the rest is synced.
    void forbiddenResourceIsAState() {
        m_proxy->failNext("GET /apis/kueue.x-k8s.io/v1beta2/resourceflavors?limit", 403, 1);
        FollowedSource followed(m_proxied, fastOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        const ResourceHealth flavors = followed.resource("resourceflavors.kueue.x-k8s.io");
        QCOMPARE(flavors.state, ResourceHealth::State::Forbidden);
        QCOMPARE(QString::fromStdString(flavors.message), QStringLiteral("no permission to list Kueue ResourceFlavors: flavors unknown"));
        QVERIFY(followed.state.resourceFlavors().empty());
        QVERIFY(followed.state.presentNodeCount() == std::size_t(kNodes));
    }

    // The server away: reconnecting, then stale since the moment it went; back: synced, with
    // what changed meanwhile.
    void serverAwayIsStaleThenRecovers() {
        KubeSourceOptions options = fastOptions();
        options.staleAfter = 1500ms;
        FollowedSource followed(m_proxied, options);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        const auto lost = std::chrono::system_clock::now();
        m_proxy->refuseConnections(true);
        m_proxy->dropWatches();
        QVERIFY(followed.waitForStatus(LinkState::Reconnecting, 5s));
        QVERIFY(followed.waitForStatus(LinkState::Stale, 10s));
        const LiveStatus stale = followed.status();
        QVERIFY(stale.since >= lost - 1s && stale.since <= lost + 2s);
        QVERIFY2(describeLinkState(stale).starts_with("stale since "), describeLinkState(stale).c_str());
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", R"({"spec":{"unschedulable":true}})").ok());
        m_proxy->refuseConnections(false);
        QVERIFY(followed.waitForStatus(LinkState::Synced, 30s));
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13", R"({"spec":{"unschedulable":false}})").ok());
    }

    // A list page larger than the limit is refused: the nodes say so, naming the limit and how to
    // raise it, and the next page (the fault gone) is read as usual.
    void oversizeListPageIsRefusedAndRetried() {
        KubeSourceOptions options = limitOptions();
        m_proxy->inflateNext("GET /api/v1/nodes?limit", 512 * 1024);
        FollowedSource followed(m_proxied, options);
        const std::string refusal = "refused the response to GET " + m_proxy->url() + "/api/v1/nodes?limit=";
        const std::string limit = ": its body is larger than the limit of 256 KiB; raise it with TOPODECK_MAX_KUBE_RESPONSE "
                                  "(e.g. TOPODECK_MAX_KUBE_RESPONSE=512KiB)";
        std::string said;
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            const ResourceHealth nodes = followed.resource("nodes");
            if (nodes.state == ResourceHealth::State::Failing && nodes.message.starts_with(refusal)) said = nodes.message;
            return !said.empty();
        }));
        QVERIFY2(said.find(limit) != std::string::npos, said.c_str());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY(m_proxy->count("GET /api/v1/nodes?limit") >= 2);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
    }

    // A watch event larger than the limit ends the watch with the reason (reconnecting, nothing
    // shown lost), and the source relists: the change that event carried arrives with the list.
    void oversizeWatchEventEndsTheWatchAndRelists() {
        FollowedSource followed(m_proxied, limitOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        const int nodeLists = m_proxy->count("GET /api/v1/nodes?limit");
        m_proxy->inflateNext("GET /api/v1/nodes?watch=1", 128 * 1024);
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-12", R"({"metadata":{"labels":{"inflated":"yes"}}})").ok());
        const std::string refusal = "watch ended: refused a line of the response to GET " + m_proxy->url() + "/api/v1/nodes?watch=1";
        const std::string limit = ": it is longer than the limit of 64 KiB; raise it with TOPODECK_MAX_KUBE_EVENT "
                                  "(e.g. TOPODECK_MAX_KUBE_EVENT=128KiB)";
        LiveStatus said;
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            const LiveStatus status = followed.status();
            if (status.state == LinkState::Reconnecting && status.message.find(refusal) != std::string::npos) said = status;
            return !said.message.empty();
        }));
        QVERIFY2(said.message.find(limit) != std::string::npos, said.message.c_str());
        QCOMPARE(followed.state.presentNodeCount(), std::size_t(kNodes)); // nothing already shown is lost
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return hasLabel(s, "gpu-12", "inflated"); }));
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QCOMPARE(m_proxy->count("GET /api/v1/nodes?limit"), nodeLists + 1); // one relist
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-12", R"({"metadata":{"labels":{"inflated":null}}})").ok());
    }

    // A list page that stalls halfway or trickles fails at the low-speed deadline, far sooner
    // than the request timeout, and is asked again.
    void slowListPageFailsAndIsRetried_data() {
        QTest::addColumn<bool>("trickle");
        QTest::addColumn<QString>("says");
        QTest::newRow("stall") << false << QStringLiteral("the server stalled in the middle of the response to GET ");
        QTest::newRow("trickle") << true << QStringLiteral("the server is too slow in the middle of the response to GET ");
    }
    void slowListPageFailsAndIsRetried() {
        QFETCH(bool, trickle);
        QFETCH(QString, says);
        if (trickle)
            m_proxy->trickleNext("GET /api/v1/pods?limit", 200);
        else
            m_proxy->stallNext("GET /api/v1/pods?limit");
        const auto started = std::chrono::steady_clock::now();
        FollowedSource followed(m_proxied, limitOptions());
        const std::string expected = says.toStdString() + m_proxy->url() + "/api/v1/pods?limit=";
        std::string said;
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            const ResourceHealth pods = followed.resource("pods");
            if (pods.message.starts_with(expected)) said = pods.message;
            return !said.empty();
        }));
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY(std::chrono::steady_clock::now() - started < 8s); // the request timeout is 10 s
        QVERIFY(m_proxy->count("GET /api/v1/pods?limit") >= 2);
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
    }

    // A watch event that stalls halfway or trickles loses the watch (reconnecting, with the
    // reason); the watch resumes where it was and the event comes again, whole.
    void slowWatchEventLosesTheWatch_data() {
        QTest::addColumn<bool>("trickle");
        QTest::addColumn<QString>("says");
        QTest::newRow("stall") << false << QStringLiteral("watch lost: the server stalled in the middle of the response to GET ");
        QTest::newRow("trickle") << true
                                 << QStringLiteral("watch lost: the server is too slow in the middle of the response to GET ");
    }
    void slowWatchEventLosesTheWatch() {
        QFETCH(bool, trickle);
        QFETCH(QString, says);
        FollowedSource followed(m_proxied, limitOptions());
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        const int nodeLists = m_proxy->count("GET /api/v1/nodes?limit");
        if (trickle)
            m_proxy->trickleNext("GET /api/v1/nodes?watch=1", 200);
        else
            m_proxy->stallNext("GET /api/v1/nodes?watch=1");
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-11", R"({"metadata":{"labels":{"slow":"yes"}}})").ok());
        const std::string expected = says.toStdString() + m_proxy->url() + "/api/v1/nodes?watch=1";
        LiveStatus said;
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            const LiveStatus status = followed.status();
            if (status.state == LinkState::Reconnecting && status.message.find(expected) != std::string::npos) said = status;
            return !said.message.empty();
        }));
        QCOMPARE(followed.state.presentNodeCount(), std::size_t(kNodes));
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return hasLabel(s, "gpu-11", "slow"); }));
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QCOMPARE(m_proxy->count("GET /api/v1/nodes?limit"), nodeLists); // resumed, not relisted
        QVERIFY2(converges(followed), qPrintable(m_lastDifference));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-11", R"({"metadata":{"labels":{"slow":null}}})").ok());
    }

    // A CRD installed while watching is found; one removed takes its objects with it.
    void crdsComeAndGo() {
        KubeSourceOptions options = fastOptions();
        options.rediscoverEvery = 500ms;
        FollowedSource followed(m_direct, options);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QCOMPARE(followed.state.hyperNodes().size(), std::size_t(2));
        QVERIFY(m_cluster->removeCrd("topology.volcano.sh", "hypernodes").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.hyperNodes().empty(); }));
        QVERIFY(followed.waitUntil([&](const ClusterState&) {
            return followed.resource("hypernodes.topology.volcano.sh").state == ResourceHealth::State::NotInstalled;
        }));
        QCOMPARE(followed.status().state, LinkState::Synced); // absent is not a problem
        QVERIFY(m_cluster->installCrd("topology.volcano.sh", "hypernodes", "HyperNode", {"v1alpha1"}).ok());
        QVERIFY(m_cluster->expect("POST", "/apis/topology.volcano.sh/v1alpha1/hypernodes", kHyperNodeB2).ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.hyperNodes().size() == 1; }));
    }

    // Pages, discovery and the watch of a resource share one connection (each watch thread keeps
    // its own): a list of 2 objects per page does not open a connection per page.
    void connectionsAreReused() {
        KubeSourceOptions options = fastOptions();
        options.pageSize = 2;
        const int before = m_proxy->connectionsAccepted();
        FollowedSource followed(m_proxied, options);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QVERIFY(m_proxy->count("continue=") >= 10);
        // One per resource followed (nodes, pods, 4 topology kinds, 4 DRA kinds, ComputeDomains).
        QCOMPARE(static_cast<std::size_t>(m_proxy->connectionsAccepted() - before), followed.status().resources.size());
        QCOMPARE(followed.status().resources.size(), std::size_t(11));
    }

    // `show --watch` rides out dropped watches and keeps drawing what changes.
    void showWatchSurvivesDrops() {
        QTemporaryDir dir;
        const std::string kubeconfig = m_cluster->writeKubeconfig(dir.path().toStdString(), "proxied", "admin", m_proxy->url());
        QProcess process;
        process.start(QStringLiteral(TOPODECKCTL_PATH),
                      {QStringLiteral("show"), QStringLiteral("--kubeconfig"), QString::fromStdString(kubeconfig),
                       QStringLiteral("--levels"), QStringLiteral("example.com/rack"), QStringLiteral("--watch"),
                       QStringLiteral("--interval"), QStringLiteral("0.2"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY(process.waitForStarted());
        QByteArray output;
        auto lastFrame = [&]() -> QJsonObject {
            output += process.readAllStandardOutput();
            const qsizetype end = output.lastIndexOf("\n}\n");
            if (end < 0) return {};
            const qsizetype start = output.lastIndexOf("\n{\n", end);
            return QJsonDocument::fromJson(output.mid(start < 0 ? 0 : start + 1, end + 3 - (start < 0 ? 0 : start + 1))).object();
        };
        QTRY_VERIFY_WITH_TIMEOUT((process.waitForReadyRead(100), lastFrame().contains(QStringLiteral("gpus_used"))), 20000);
        for (int i = 0; i < 3; ++i) {
            m_proxy->dropWatches();
            QTest::qWait(300);
        }
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "watched-0", "gpu-15", 8)).ok());
        QTRY_VERIFY_WITH_TIMEOUT((process.waitForReadyRead(100), lastFrame().value(QStringLiteral("gpus_used")).toInt() == kUsedGpus + 8),
                                 20000);
        QCOMPARE(process.state(), QProcess::Running);
        process.kill();
        process.waitForFinished();
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/watched-0?gracePeriodSeconds=0").ok());
    }

    // topodeckctl through the proxy shrugs off a failing first list too.
    void showThroughFaults() {
        QTemporaryDir dir;
        const std::string kubeconfig = m_cluster->writeKubeconfig(dir.path().toStdString(), "proxied", "admin", m_proxy->url());
        m_proxy->failNext("GET /api/v1/pods?limit", 502, 2);
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), QString::fromStdString(kubeconfig),
                                   QStringLiteral("--levels"), QStringLiteral("example.com/rack"), QStringLiteral("-o"),
                                   QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json().value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
        QVERIFY(m_proxy->count("GET /api/v1/pods?limit") >= 3);
    }

private:
    static KubeSourceOptions fastOptions() {
        KubeSourceOptions options;
        options.backoffInitial = 100ms;
        options.backoffMax = 1000ms;
        options.requestTimeout = 10000ms;
        return options;
    }

    // Small limits and a short low-speed window, so that a fault shows in a second; a backoff
    // long enough that the state it leaves is seen by a test that looks every 20 ms.
    static KubeSourceOptions limitOptions() {
        KubeSourceOptions options = fastOptions();
        options.backoffInitial = 1200ms;
        options.backoffMax = 1200ms;
        options.limits.kubeResponse = 256 * 1024;
        options.limits.kubeEvent = 64 * 1024;
        options.limits.lowSpeedTime = 600ms;
        return options;
    }

    // The followed state ends equal to a fresh list of the server (within 20 s).
    bool converges(FollowedSource& followed) {
        FollowedSource truth(m_direct);
        if (!truth.waitForStatus(LinkState::Synced)) {
            m_lastDifference = QStringLiteral("the direct source did not sync");
            return false;
        }
        const std::set<std::string> expected = contentOf(truth.state);
        const bool same = followed.waitUntil([&](const ClusterState& s) { return contentOf(s) == expected; });
        m_lastDifference = same ? QString() : describe(contentOf(followed.state), expected);
        return same;
    }

    void restoreDebugPod() {
        Result<HttpResponse> pod = m_cluster->call("GET", "/api/v1/namespaces/default/pods/debug-0");
        QVERIFY(pod.ok());
        if (pod->status == 404)
            QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "debug-0", "gpu-10", 2)).ok());
    }

    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    KubeConnection m_direct;
    KubeConnection m_proxied;
    QString m_lastDifference;
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeFaults)
#include "test_kube_faults.moc"
