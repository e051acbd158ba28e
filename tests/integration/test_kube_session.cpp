// The GUI's side of a live cluster against a real kube-apiserver (through FaultProxy): the
// session lists and watches it off the GUI thread, the tree model and the main window show it,
// changes arrive as dataChanged (never a reset), the status bar says Live, Reconnecting, Stale
// since T and Live again, a 403 on pods is shown as what it costs, and NVIDIA ComputeDomains (the
// chart's CRD) are listed and watched.
//
// TOPODECK_SCREENSHOT_DIR=dir saves the window at each step, for looking at.

#include "kube_test_support.h"
#include "session_test_support.h"

#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "models/topology_tree_model.h"
#include "session/cluster_session.h"
#include "views/chrome/source_status_label.h"
#include "support/test_program.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>

using namespace topodeck;
using namespace kubetest;
using namespace std::chrono_literals;

using topodeck::testing::waitForSnapshot;

namespace {

constexpr int kWaitMs = 30000;

bool waitForHealth(ClusterSession& session, SourceHealth health) {
    QElapsedTimer timer;
    timer.start();
    while (session.status().health != health) {
        if (timer.elapsed() > kWaitMs) return false;
        QTest::qWait(20);
    }
    return true;
}

// A window on the live cluster `context` of `kubeconfig`, shown once the data is there.
bool openLive(MainWindow& window, const QString& context, const QString& kubeconfig) {
    LaunchOptions launch;
    launch.contexts = QStringList{context};
    launch.kubeconfig = kubeconfig;
    launch.topology = QStringLiteral("gpu-topology");
    QSignalSpy shown(&window, &MainWindow::dataShown);
    window.resize(1400, 900);
    window.show();
    window.open(launch);
    return shown.wait(kWaitMs);
}

// A ComputeDomain's status: `domain`, its daemons on gpu-01 (rack r1, Ready) and gpu-05 (rack r2,
// `gpu05`), each in its rack's clique.
std::string computeDomainStatus(const std::string& domain, const std::string& gpu05) {
    const std::string gpu01 =
        R"({"name":"gpu-01","ipAddress":"10.0.0.1","cliqueID":"clique-r1","index":0,"status":"Ready"})";
    return "{\"status\":{\"status\":\"" + domain + "\",\"nodes\":[" + gpu01 +
           ",{\"name\":\"gpu-05\",\"ipAddress\":\"10.0.0.5\",\"cliqueID\":\"clique-r2\",\"index\":0,\"status\":\"" +
           gpu05 + "\"}]}}";
}

void saveScreenshot(QWidget& window, const char* name) {
    const QString dir = qEnvironmentVariable("TOPODECK_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    window.grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

} // namespace

class TestKubeSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        KUBETEST_START(m_cluster);
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        m_kubeconfig = QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "proxied", "admin",
                                                                         m_proxy->url()));
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    // The session and the tree model follow the live cluster; changes are dataChanged.
    void sessionAndModelFollowTheCluster() {
        ClusterSession session;
        session.setTopologyChoice(QStringLiteral("gpu-topology"), {});
        TopologyTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&session, &ClusterSession::snapshotPublished, &model, &TopologyTreeModel::setSnapshot);
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) { return s.status.health == SourceHealth::Live; }, &snapshot));
        QCOMPARE(snapshot->index.root().totals.gpusTotal, kNodes * kGpusPerNode);
        QCOMPARE(snapshot->index.root().totals.gpusUsed, kUsedGpus);
        QCOMPARE(snapshot->index.spec().name, std::string("gpu-topology"));
        QCOMPARE(snapshot->title, QStringLiteral("context proxied · ") + QString::fromStdString(m_proxy->url()));
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, kWaitMs); // two blocks
        // nodes, pods, 4 topology kinds, 4 DRA kinds, ComputeDomains
        QCOMPARE(snapshot->status.resources.size(), std::size_t(11));

        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "extra-0", "gpu-14", 8)).ok());
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) {
            return s.index.root().totals.gpusUsed == kUsedGpus + 8;
        }));
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), kWaitMs);
        QCOMPARE(resets.size(), 0);
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/extra-0?gracePeriodSeconds=0").ok());
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) { return s.index.root().totals.gpusUsed == kUsedGpus; }));
    }

    // With no hierarchy chosen, the session reads one of the cluster's Topology objects; when
    // that one goes, it reads the other, and the picture is rebuilt for it.
    void hierarchyFollowsTopologyObjects() {
        ClusterSession session;
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) { return s.status.health == SourceHealth::Live; }, &snapshot));
        const TopologySpec first = snapshot->index.spec();
        QVERIFY(first.origin == "kueue" || first.origin == "kai");
        const bool kueue = first.origin == "kueue";
        const std::string path = kueue ? "/apis/kueue.x-k8s.io/v1beta1/topologies/" : "/apis/kai.scheduler/v1alpha1/topologies/";
        Result<HttpResponse> saved = m_cluster->call("GET", path + first.name);
        QVERIFY(saved.ok() && saved->status == 200);
        QVERIFY(m_cluster->expect("DELETE", path + first.name).ok());
        QVERIFY(waitForSnapshot(session, [&](const ClusterSnapshot& s) {
            return s.index.spec().name != first.name && s.index.spec().origin == (kueue ? "kai" : "kueue");
        }, &snapshot));
        QCOMPARE(snapshot->index.root().totals.gpusUsed, kUsedGpus); // the same cluster, read anew
        // Put it back, as it was.
        std::string body = saved->body;
        const auto version = body.find("\"resourceVersion\"");
        QVERIFY(version != std::string::npos);
        body.erase(version, body.find(',', version) + 1 - version);
        QVERIFY(m_cluster->expect("POST", path.substr(0, path.size() - 1), body).ok());
        QVERIFY(waitForSnapshot(session, [&](const ClusterSnapshot& s) { return s.status.warnings.empty() && s.index.spec().depth() > 0; }));
    }

    // NVIDIA's ComputeDomain CRD (tests/data/crds, as the chart's; namespaced, status subresource): the session
    // lists and watches ComputeDomains, with their nodes' cliques, and drops one that is deleted.
    void computeDomainsFollowTheCluster() {
        const Status installed = m_cluster->installCrdFile(std::string(TOPODECK_TEST_DATA_DIR) +
                                                           "/crds/resource.nvidia.com_computedomains.yaml");
        QVERIFY2(installed.ok(), installed.ok() ? "" : installed.error().message.c_str());
        struct RemoveCrd {
            KubeTestCluster& cluster;
            ~RemoveCrd() { (void)cluster.removeCrd("resource.nvidia.com", "computedomains"); }
        } removeCrd{*m_cluster};
        const std::string domains = "/apis/resource.nvidia.com/v1beta1/namespaces/default/computedomains";
        QVERIFY(m_cluster->expect("POST", domains,
                                  R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain",)"
                                  R"("metadata":{"name":"train-a-cd"},)"
                                  R"("spec":{"channel":{"resourceClaimTemplate":{"name":"train-a-cd-channel"}}}})")
                    .ok());
        // The chart's schema refuses what the reader refuses too.
        Result<HttpResponse> refused =
            m_cluster->call("POST", domains,
                            R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"ComputeDomain",)"
                            R"("metadata":{"name":"bad"},"spec":{"numNodes":1}})");
        QVERIFY(refused.ok() && refused->status == 422);
        QVERIFY(m_cluster->patch(domains + "/train-a-cd/status", computeDomainStatus("Ready", "Ready")).ok());

        ClusterSession session;
        session.openKubernetes(QStringLiteral("proxied"), m_kubeconfig);
        ClusterSnapshotPtr snapshot;
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) { return s.computeDomains.size() == 1; }, &snapshot));
        const ComputeDomainUsage& cd = snapshot->computeDomains.front();
        QCOMPARE(cd.qualifiedName(), std::string("default/train-a-cd"));
        QCOMPARE(cd.channelTemplate, std::string("train-a-cd-channel"));
        QVERIFY(cd.allocationMode == ComputeDomain::ChannelAllocation::Single); // the CRD's default
        QCOMPARE(cd.cliques, (std::vector<std::string>{"clique-r1", "clique-r2"}));
        QVERIFY(cd.spansCliques());
        const auto followed =
            std::find_if(snapshot->status.resources.begin(), snapshot->status.resources.end(),
                         [](const ResourceHealth& r) { return r.resource == "computedomains.resource.nvidia.com"; });
        QVERIFY(followed != snapshot->status.resources.end());
        QCOMPARE(followed->title, std::string("NVIDIA ComputeDomains"));

        // A daemon no longer ready arrives by the watch; so does the deletion.
        QVERIFY(m_cluster->patch(domains + "/train-a-cd/status", computeDomainStatus("NotReady", "NotReady")).ok());
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) {
            return s.computeDomains.size() == 1 && s.computeDomains[0].status == ComputeDomainReadiness::NotReady &&
                   s.computeDomains[0].members.size() == 2 &&
                   s.computeDomains[0].members[1].status == ComputeDomainReadiness::NotReady;
        }));
        QVERIFY(m_cluster->expect("DELETE", domains + "/train-a-cd").ok());
        QVERIFY(waitForSnapshot(session, [](const ClusterSnapshot& s) { return s.computeDomains.empty(); }));
    }

    // The main window: status bar through Live, Reconnecting, Stale since T, and Live again.
    void statusBarSaysHowTheLinkIs() {
        MainWindow window;
        KubeSourceOptions options;
        options.staleAfter = 1500ms;
        options.backoffInitial = 100ms;
        options.backoffMax = 500ms;
        window.session()->setLiveSourceOptions(options);
        QVERIFY(openLive(window, QStringLiteral("proxied"), m_kubeconfig));
        auto* status = window.statusBar()->findChild<SourceStatusLabel*>();
        QVERIFY(status);
        QTRY_COMPARE_WITH_TIMEOUT(status->status().health, SourceHealth::Live, kWaitMs);
        QVERIFY2(status->text().contains(QStringLiteral("watching 16 nodes, 6 pods")), qPrintable(status->text()));
        QCOMPARE(window.windowTitle(), QStringLiteral("context proxied · %1 — topodeck").arg(QString::fromStdString(m_proxy->url())));
        saveScreenshot(window, "live-synced");

        m_proxy->refuseConnections(true);
        m_proxy->dropWatches();
        QTRY_COMPARE_WITH_TIMEOUT(status->status().health, SourceHealth::Reconnecting, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(status->status().health, SourceHealth::Stale, kWaitMs);
        QVERIFY2(status->text().contains(QStringLiteral("Stale since ")), qPrintable(status->text()));
        QVERIFY(window.shownSnapshot()); // the data stays shown
        QCOMPARE(window.shownSnapshot()->index.root().totals.gpusTotal, kNodes * kGpusPerNode);
        saveScreenshot(window, "live-stale");

        m_proxy->refuseConnections(false);
        QTRY_COMPARE_WITH_TIMEOUT(status->status().health, SourceHealth::Live, kWaitMs);
        saveScreenshot(window, "live-recovered");
    }

    // 403 on pods: the window shows the cluster and says plainly what it cannot show.
    void forbiddenPodsAreShownAsAWarning() {
        const QString viewer =
            QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "viewer", "viewer"));
        MainWindow window;
        QVERIFY(openLive(window, QStringLiteral("viewer"), viewer));
        QCOMPARE(window.shownSnapshot()->index.root().totals.gpusUsed, 0);
        bool found = false;
        for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
            found = found || label->text().contains(QStringLiteral("pods: no permission to list pods: occupancy unavailable"));
        QVERIFY(found);
        // And above the map, plainly: the GPUs drawn as free may not be.
        QLabel* notice = nullptr;
        for (QLabel* label : window.findChildren<QLabel*>())
            if (label->accessibleName() == QStringLiteral("Notice")) notice = label;
        QVERIFY(notice && notice->isVisible());
        QVERIFY2(notice->text().contains(QStringLiteral("GPU occupancy unknown")), qPrintable(notice->text()));
        saveScreenshot(window, "live-forbidden-pods");
    }

    // Two clusters at once, a window each, each with its own session and data.
    void twoClustersTwoWindows() {
        const QString viewer =
            QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "viewer", "viewer"));
        MainWindow admin;
        MainWindow other;
        LaunchOptions a;
        a.contexts = QStringList{QStringLiteral("proxied")};
        a.kubeconfig = m_kubeconfig;
        LaunchOptions b;
        b.contexts = QStringList{QStringLiteral("viewer")};
        b.kubeconfig = viewer;
        QSignalSpy shownA(&admin, &MainWindow::dataShown);
        QSignalSpy shownB(&other, &MainWindow::dataShown);
        admin.open(a);
        other.open(b);
        QTRY_VERIFY_WITH_TIMEOUT(!shownA.isEmpty() && !shownB.isEmpty(), kWaitMs);
        QCOMPARE(admin.shownSnapshot()->index.root().totals.gpusUsed, kUsedGpus);
        QCOMPARE(other.shownSnapshot()->index.root().totals.gpusUsed, 0); // may not list pods
        QVERIFY(admin.windowTitle().startsWith(QStringLiteral("context proxied")));
        QVERIFY(other.windowTitle().startsWith(QStringLiteral("context viewer")));
    }

    // A kubeconfig that cannot log in: an error in the status bar, and nothing replaced.
    void badCredentialsAreAnError() {
        ClusterSession session;
        const QString nobody =
            QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "nobody", "nobody"));
        session.openKubernetes(QStringLiteral("nobody"), nobody);
        QVERIFY(waitForHealth(session, SourceHealth::Error));
        QVERIFY2(session.status().detail.contains(QStringLiteral("no permission to list nodes")),
                 qPrintable(session.status().detail));
        QVERIFY(!session.latestSnapshot());
    }

private:
    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
};

TOPODECK_TEST_MAIN(TestKubeSession)
#include "test_kube_session.moc"
