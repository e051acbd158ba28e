// A real kube-apiserver that starts empty (no CRDs, no nodes) and grows the way a new cluster
// does: first nothing, then GPU nodes with no topology labels, then Volcano HyperNodes over them.
// At each step `topodeckctl show` and `plan` answer (exit 0, never "pass --levels"), and the
// GUI's session and main window show the same picture with the notice that says what is missing;
// HyperNodes that arrive while watching become the hierarchy.
//
// Needs etcd and the kube-apiserver built by kube/build-kube-apiserver.sh (the dev build does
// that); skipped without them unless TOPODECK_REQUIRE_KUBE=1 (CI).

#include "kube_test_support.h"
#include "session_test_support.h"

#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "session/cluster_session.h"
#include "views/chrome/occupancy_notice.h"
#include "support/test_program.h"

#include <QtCore/QJsonArray>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>

using namespace topodeck;
using namespace kubetest;

using topodeck::testing::waitForSnapshot;

namespace {

constexpr int kWaitMs = 30000;
constexpr int kPlainNodes = 4;

std::string hyperNodeJson(const std::string& name, int tier, const std::string& members) {
    return R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":")" + name +
           R"("},"spec":{"tier":)" + std::to_string(tier) + R"(,"members":[)" + members + "]}}";
}

std::string nodeMember(const std::string& selector) {
    return R"({"type":"Node","selector":)" + selector + "}";
}

} // namespace

class TestKubeHierarchies : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QString why;
        m_cluster = KubeTestCluster::start(why);
        if (!m_cluster) {
            if (kubeTestsRequired()) QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
        m_kubeconfig = QString::fromStdString(m_cluster->value("KUBECONFIG"));
    }

    void cleanupTestCase() { m_cluster.reset(); }

    // No nodes yet, no scheduler CRDs: shown as empty, not refused.
    void emptyClusterShowsEmpty() {
        const CtlRun run = runCtl(live({QStringLiteral("show"), QStringLiteral("-o"), QStringLiteral("json")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject show = run.json();
        QCOMPARE(show.value(QStringLiteral("nodes_total")).toInt(), 0);
        QCOMPARE(show[QLatin1String("topology")][QLatin1String("notice")].toString(),
                 QStringLiteral("the cluster has no nodes"));
        QVERIFY(show.value(QStringLiteral("children")).toArray().isEmpty());

        ClusterSession session;
        session.openKubernetes(QStringLiteral("admin"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(
            session, [](const ClusterSnapshot& s) { return s.status.health == SourceHealth::Live; }, &snapshot));
        QCOMPARE(snapshot->index.root().totals.nodesTotal, 0);
        QCOMPARE(snapshot->index.spec().notice, std::string("the cluster has no nodes"));
    }

    // GPU nodes with nothing but their hostname: flat under the cluster, with the notice; every
    // engine still places (by hostname, as schedulers without topology do).
    void unlabelledClusterShowsFlat() {
        for (int i = 1; i <= kPlainNodes; ++i)
            QVERIFY(m_cluster
                        ->expect("POST", "/api/v1/nodes",
                                 nodeJson(nodeName(i), {{"kubernetes.io/hostname", nodeName(i)}}, kGpusPerNode))
                        .ok());
        const CtlRun show = runCtl(live({QStringLiteral("show"), QStringLiteral("--no-color")}));
        QVERIFY2(show.exitCode == 0, qPrintable(show.describe()));
        QVERIFY2(show.out.contains("Notice:   no topology found"), show.out.constData());
        QVERIFY2(show.out.contains("nodes shown flat under the cluster"), show.out.constData());

        const CtlRun plan =
            runCtl(live({QStringLiteral("plan"), QStringLiteral("--compare"), QStringLiteral("--pods"),
                         QStringLiteral("2"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                         QStringLiteral("-o"), QStringLiteral("json")}));
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.describe()));
        QVERIFY2(plan.err.contains("no topology found"), plan.err.constData());
        const QJsonArray results = plan.json().value(QStringLiteral("results")).toArray();
        QVERIFY(results.size() >= 3);
        for (const QJsonValue& result : results)
            QVERIFY2(result[QLatin1String("feasible")].toBool(),
                     qPrintable(result[QLatin1String("engine")].toString()));

        // The GUI: the map's notice band says the same.
        MainWindow window;
        LaunchOptions launch;
        launch.contexts = QStringList{QStringLiteral("admin")};
        launch.kubeconfig = m_kubeconfig;
        QSignalSpy shown(&window, &MainWindow::dataShown);
        window.resize(1200, 800);
        window.show();
        window.open(launch);
        QVERIFY(shown.wait(kWaitMs));
        const auto* notice = window.findChild<OccupancyNotice*>();
        QVERIFY(notice);
        QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible(), kWaitMs);
        QVERIFY2(notice->text().contains(QStringLiteral("no topology found")), qPrintable(notice->text()));
    }

    // HyperNodes installed and created while the session watches: the hierarchy becomes their
    // tree (tier 2 over two tier-1 racks; gpu-04 in none), for the session, show and plan alike.
    void hyperNodesBecomeTheHierarchy() {
        ClusterSession session;
        KubeSourceOptions options;
        options.rediscoverEvery = std::chrono::milliseconds(500); // finds the CRD installed below soon
        session.setLiveSourceOptions(options);
        session.openKubernetes(QStringLiteral("admin"), m_kubeconfig);
        QVERIFY(waitForSnapshot(
            session, [](const ClusterSnapshot& s) { return s.index.root().totals.nodesTotal == kPlainNodes; }));

        QVERIFY(m_cluster->installCrd("topology.volcano.sh", "hypernodes", "HyperNode", {"v1alpha1"}).ok());
        const std::string hypernodes = "/apis/topology.volcano.sh/v1alpha1/hypernodes";
        QVERIFY(m_cluster
                    ->expect("POST", hypernodes,
                             hyperNodeJson("rack-a", 1,
                                           nodeMember(R"({"exactMatch":{"name":"gpu-01"}})") + "," +
                                               nodeMember(R"({"exactMatch":{"name":"gpu-02"}})")))
                    .ok());
        QVERIFY(m_cluster
                    ->expect("POST", hypernodes,
                             hyperNodeJson("rack-b", 1, nodeMember(R"({"regexMatch":{"pattern":"^gpu-03$"}})")))
                    .ok());
        QVERIFY(m_cluster
                    ->expect("POST", hypernodes,
                             hyperNodeJson("spine", 2,
                                           R"({"type":"HyperNode","selector":{"exactMatch":{"name":"rack-a"}}},)"
                                           R"({"type":"HyperNode","selector":{"exactMatch":{"name":"rack-b"}}})"))
                    .ok());

        // The session finds the HyperNode resource when it looks again, then the tree.
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(
            session,
            [](const ClusterSnapshot& s) {
                return s.index.spec().origin == "hypernodes" && s.index.root().children.size() == 2;
            },
            &snapshot));
        QCOMPARE(snapshot->index.spec().depth(), 2);
        QVERIFY(snapshot->index.spec().notice.empty());

        const CtlRun show = runCtl(live({QStringLiteral("show"), QStringLiteral("--no-color")}));
        QVERIFY2(show.exitCode == 0, qPrintable(show.describe()));
        QVERIFY2(show.out.contains("(Volcano HyperNodes)") && show.out.contains("rack-b"), show.out.constData());
        const CtlRun plan = runCtl(live({QStringLiteral("plan"), QStringLiteral("-e"), QStringLiteral("volcano"),
                                         QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--request"),
                                         QStringLiteral("nvidia.com/gpu=8"), QStringLiteral("--required"),
                                         QStringLiteral("tier-1"), QStringLiteral("-o"), QStringLiteral("json")}));
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.describe()));
        QVERIFY2(plan.out.contains(R"({"level":"tier-1","domain":"rack-a"})"), plan.out.constData());
    }

private:
    QStringList live(QStringList args) const {
        return args + QStringList{QStringLiteral("--kubeconfig"), m_kubeconfig, QStringLiteral("--context"),
                                  QStringLiteral("admin")};
    }

    std::unique_ptr<KubeTestCluster> m_cluster;
    QString m_kubeconfig;
};

TOPODECK_TEST_MAIN(TestKubeHierarchies)
#include "test_kube_hierarchies.moc"
