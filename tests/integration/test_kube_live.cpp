// topodeckctl and the KubeSource against a real kube-apiserver 1.20 + etcd (kube-fixture.sh):
// a 16-node GPU cluster with Kueue, KAI and Volcano topology objects is listed, shown, frozen
// into a snapshot and planned on; changes made while watching (relabel, pod deleted, pod
// finished, node NotReady, cordon, topology objects) arrive; every way of logging in works and
// bad credentials or missing permissions give clear states.
//
// Needs etcd and the kube-apiserver built by kube/build-kube-apiserver.sh (the dev build does
// that); skipped without them unless TOPODECK_REQUIRE_KUBE=1 (CI).

#include "kube_test_support.h"

#include "core/formats/snapshot_reader.h"
#include "core/text/base64.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"
#include "net/kube_client.h"
#include "net/kubeconfig.h"
#include "support/test_program.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QStandardPaths>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <unistd.h>

using namespace topodeck;
using namespace kubetest;

namespace {

QJsonObject resourceState(const QJsonObject& show, const QString& resource) {
    for (const QJsonValue& value : show.value(QStringLiteral("live")).toObject().value(QStringLiteral("resources")).toArray())
        if (value.toObject().value(QStringLiteral("resource")).toString() == resource) return value.toObject();
    return {};
}

} // namespace

class TestKubeLive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        KUBETEST_START(m_cluster);
        QVERIFY(m_dir.isValid());
        m_kubeconfig = QString::fromStdString(m_cluster->value("KUBECONFIG"));
    }

    void cleanupTestCase() { m_cluster.reset(); }

    // The live cluster as `show -o json` reports it: totals, the Kueue Topology's hierarchy,
    // every resource synced.
    void showListsTheCluster() {
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                   QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("--topology"),
                                   QStringLiteral("gpu-topology"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject show = run.json();
        QCOMPARE(show.value(QStringLiteral("source")).toString(), QStringLiteral("context:admin"));
        QCOMPARE(show.value(QStringLiteral("gpus_total")).toInt(), kNodes * kGpusPerNode);
        QCOMPARE(show.value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
        QCOMPARE(show.value(QStringLiteral("gpus_unavailable")).toInt(), kUnavailableGpus);
        QCOMPARE(show.value(QStringLiteral("nodes_not_ready")).toInt(), 1);
        QCOMPARE(show.value(QStringLiteral("nodes_cordoned")).toInt(), 1);
        QCOMPARE(show.value(QStringLiteral("pods")).toInt(), kPods);
        const QJsonObject topology = show.value(QStringLiteral("topology")).toObject();
        QCOMPARE(topology.value(QStringLiteral("name")).toString(), QStringLiteral("gpu-topology"));
        QCOMPARE(topology.value(QStringLiteral("levels")).toArray().size(), 3);
        QCOMPARE(topology.value(QStringLiteral("nvlinkLabel")).toString(), QStringLiteral("nvidia.com/gpu.clique"));
        const QJsonObject live = show.value(QStringLiteral("live")).toObject();
        QCOMPARE(live.value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
        for (const char* resource : {"nodes", "pods", "topologies.kueue.x-k8s.io", "resourceflavors.kueue.x-k8s.io",
                                     "topologies.kai.scheduler", "hypernodes.topology.volcano.sh"}) {
            const QJsonObject state = resourceState(show, QString::fromLatin1(resource));
            QCOMPARE(state.value(QStringLiteral("state")).toString(), QStringLiteral("synced"));
        }
        QCOMPARE(resourceState(show, QStringLiteral("hypernodes.topology.volcano.sh"))
                     .value(QStringLiteral("objects"))
                     .toInt(),
                 2);
        // Two blocks, two racks each, 4 nodes per rack.
        const QJsonArray blocks = show.value(QStringLiteral("children")).toArray();
        QCOMPARE(blocks.size(), 2);
        QCOMPARE(blocks[0].toObject().value(QStringLiteral("children")).toArray().size(), 2);
    }

    void showTableSaysItIsLive() {
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                   QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("--topology"),
                                   QStringLiteral("gpu-topology"), QStringLiteral("--depth"), QStringLiteral("1")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.contains(QStringLiteral("Source:   context admin · ") + QString::fromStdString(m_cluster->value("SERVER"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Live:     synced at ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Kueue Topology \"gpu-topology\"")), qPrintable(text));
        QVERIFY2(run.err.isEmpty(), run.err.constData());
    }

    // A snapshot of the live cluster reads back to the same picture.
    void snapshotReadsBackTheSame() {
        const QString file = m_dir.filePath(QStringLiteral("snapshot.json"));
        const CtlRun snapshot = runCtl({QStringLiteral("snapshot"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                        QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("-o"), file});
        QVERIFY2(snapshot.exitCode == 0, qPrintable(snapshot.describe()));
        QVERIFY2(snapshot.err.contains("16 nodes, 6 pods, 2 Topologies, 1 ResourceFlavor, 2 HyperNodes written to"),
                 snapshot.err.constData());
        const QStringList common = {QStringLiteral("--topology"), QStringLiteral("gpu-topology"), QStringLiteral("-o"),
                                    QStringLiteral("json")};
        const CtlRun fromFile = runCtl(QStringList{QStringLiteral("show"), QStringLiteral("-f"), file} + common);
        const CtlRun fromLive = runCtl(QStringList{QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                                   QStringLiteral("--context"), QStringLiteral("admin")} +
                                       common);
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.describe()));
        QVERIFY2(fromLive.exitCode == 0, qPrintable(fromLive.describe()));
        QJsonObject a = fromFile.json();
        QJsonObject b = fromLive.json();
        a.remove(QStringLiteral("source"));
        b.remove(QStringLiteral("source"));
        b.remove(QStringLiteral("live"));
        QCOMPARE(a, b);
        // The file holds the HyperNodes too: a Volcano dry-run on it uses them.
        const CtlRun plan = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), file, QStringLiteral("--engine"),
                                    QStringLiteral("volcano"), QStringLiteral("--pods"), QStringLiteral("2"),
                                    QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                    QStringLiteral("--required"), QStringLiteral("rack"), QStringLiteral("-o"),
                                    QStringLiteral("json")});
        QVERIFY2(plan.exitCode == 0 && plan.out.contains(R"({"level":"rack","domain":"hn-r4"})"), qPrintable(plan.describe()));
    }

    void planOnTheLiveCluster() {
        const CtlRun run = runCtl({QStringLiteral("plan"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                   QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("--topology"),
                                   QStringLiteral("gpu-topology"), QStringLiteral("--pods"), QStringLiteral("3"),
                                   QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                   QStringLiteral("--required"), QStringLiteral("example.com/rack"), QStringLiteral("-o"),
                                   QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        // r2 has gpu-05 busy and gpu-08 cordoned; r4 (gpu-13..16) and r3 (09, 10 partly used) remain.
        QVERIFY2(run.out.contains(R"("feasible":true)"), qPrintable(run.describe()));
    }

    // Every way of logging in that the test server can check: a token, a client certificate,
    // a tokenFile and an exec credential plugin (cached: it runs once per process).
    void everyLoginWorks_data() {
        QTest::addColumn<QString>("userYaml");
        const std::string token = m_cluster->value("ADMIN_TOKEN");
        const QString tokenFile = m_dir.filePath(QStringLiteral("token"));
        QFile file(tokenFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(token) + "\n");
        file.close();
        const QString plugin = m_dir.filePath(QStringLiteral("plugin.sh"));
        QFile script(plugin);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho run >> \"$RUNS\"\n"
                     "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                     "\"status\":{\"token\":\"%s\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}}' \"$TOKEN\"\n");
        script.close();
        QFile::setPermissions(plugin, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QTest::newRow("token") << QStringLiteral("token: %1").arg(QString::fromStdString(token));
        QTest::newRow("tokenFile") << QStringLiteral("tokenFile: %1").arg(tokenFile);
        QTest::newRow("client certificate")
            << QStringLiteral("client-certificate: %1\n    client-key: %2")
                   .arg(QString::fromStdString(m_cluster->value("CLIENT_CERT")),
                        QString::fromStdString(m_cluster->value("CLIENT_KEY")));
        QTest::newRow("client certificate data")
            << QStringLiteral("client-certificate-data: %1\n    client-key-data: %2")
                   .arg(QString::fromStdString(encodeBase64(readAll(m_cluster->value("CLIENT_CERT")))),
                        QString::fromStdString(encodeBase64(readAll(m_cluster->value("CLIENT_KEY")))));
        QTest::newRow("exec plugin v1")
            << QStringLiteral("exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: %1\n"
                              "      interactiveMode: Never\n      env:\n      - {name: TOKEN, value: %2}\n"
                              "      - {name: RUNS, value: %3}")
                   .arg(plugin, QString::fromStdString(token), m_dir.filePath(QStringLiteral("runs")));
    }

    void everyLoginWorks() {
        QFETCH(QString, userYaml);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString kubeconfig = m_dir.filePath(QStringLiteral("login-") + tag);
        QFile file(kubeconfig);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: login\nclusters:\n- name: c\n  cluster:\n"
                                  "    server: %1\n    certificate-authority-data: %2\ncontexts:\n"
                                  "- name: login\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n    %3\n")
                       .arg(QString::fromStdString(m_cluster->value("SERVER")),
                            QString::fromStdString(encodeBase64(readAll(m_cluster->value("CA")))), userYaml)
                       .toUtf8());
        file.close();
        QFile::remove(m_dir.filePath(QStringLiteral("runs")));
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), kubeconfig,
                                   QStringLiteral("--levels"), QStringLiteral("example.com/rack"), QStringLiteral("-o"),
                                   QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json().value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
        if (QByteArray(QTest::currentDataTag()).startsWith("exec")) {
            QFile runs(m_dir.filePath(QStringLiteral("runs")));
            QVERIFY(runs.open(QIODevice::ReadOnly));
            QCOMPARE(runs.readAll().count('\n'), 1); // six watch threads, one plugin run
        }
    }

    // How the server's certificate is checked: the kubeconfig's CA, tls-server-name (the
    // certificate names kube.test too), insecure-skip-tls-verify; a mismatch is a clear error.
    void serverIdentity_data() {
        QTest::addColumn<QString>("clusterYaml");
        QTest::addColumn<QString>("failure"); // empty: it works
        const QString server = QString::fromStdString(m_cluster->value("SERVER"));
        const QString ca = QString::fromStdString(m_cluster->value("CA"));
        QTest::newRow("tls-server-name") << QStringLiteral("server: %1\n    certificate-authority: %2\n    tls-server-name: kube.test")
                                                .arg(server, ca)
                                         << QString();
        QTest::newRow("insecure") << QStringLiteral("server: %1\n    insecure-skip-tls-verify: true").arg(server) << QString();
        QTest::newRow("wrong tls-server-name")
            << QStringLiteral("server: %1\n    certificate-authority: %2\n    tls-server-name: other.example").arg(server, ca)
            << QStringLiteral("no alternative certificate subject name matches target host name 'other.example'");
        QTest::newRow("no CA") << QStringLiteral("server: %1").arg(server) << QStringLiteral("TLS failure with ");
    }

    void serverIdentity() {
        QFETCH(QString, clusterYaml);
        QFETCH(QString, failure);
        const QString kubeconfig = m_dir.filePath(QStringLiteral("identity-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QFile file(kubeconfig);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: id\nclusters:\n- name: c\n  cluster:\n    %1\n"
                                  "contexts:\n- name: id\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n"
                                  "    token: %2\n")
                       .arg(clusterYaml, QString::fromStdString(m_cluster->value("ADMIN_TOKEN")))
                       .toUtf8());
        file.close();
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--levels"),
                                   QStringLiteral("example.com/rack"), QStringLiteral("-o"), QStringLiteral("json")});
        if (failure.isEmpty()) {
            QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
            QCOMPARE(run.json().value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
        } else {
            QVERIFY2(run.exitCode == 1 && QString::fromUtf8(run.err).contains(failure), qPrintable(run.describe()));
            QVERIFY(!run.err.contains(QByteArray::fromStdString(m_cluster->value("ADMIN_TOKEN"))));
        }
    }

    // A kubeconfig's proxy-url: every connection goes through the proxy's tunnel.
    void proxyUrlIsUsed() {
        TunnelProxy proxy;
        const QString kubeconfig = m_dir.filePath(QStringLiteral("via-proxy"));
        QFile file(kubeconfig);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: p\nclusters:\n- name: c\n  cluster:\n"
                                  "    server: %1\n    certificate-authority: %2\n    proxy-url: %3\n"
                                  "contexts:\n- name: p\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n"
                                  "    token: %4\n")
                       .arg(QString::fromStdString(m_cluster->value("SERVER")), QString::fromStdString(m_cluster->value("CA")),
                            QString::fromStdString(proxy.url()), QString::fromStdString(m_cluster->value("ADMIN_TOKEN")))
                       .toUtf8());
        file.close();
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--levels"),
                                   QStringLiteral("example.com/rack"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(run.json().value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
        // One connection per resource followed (4 of them DRA, 1 ComputeDomains), each through the proxy.
        QCOMPARE(proxy.tunnels(), 11);
    }

    // 403 on pods: the rest is live, and the state says what is missing.
    void noPermissionForPods() {
        const CtlRun run = runCtl({QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                   QStringLiteral("--context"), QStringLiteral("viewer"), QStringLiteral("--topology"),
                                   QStringLiteral("gpu-topology"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject show = run.json();
        QCOMPARE(show.value(QStringLiteral("gpus_total")).toInt(), kNodes * kGpusPerNode);
        QCOMPARE(show.value(QStringLiteral("gpus_used")).toInt(), 0);
        const QJsonObject pods = resourceState(show, QStringLiteral("pods"));
        QCOMPARE(pods.value(QStringLiteral("state")).toString(), QStringLiteral("forbidden"));
        QCOMPARE(pods.value(QStringLiteral("message")).toString(),
                 QStringLiteral("no permission to list pods: occupancy unavailable"));
        QCOMPARE(show.value(QStringLiteral("live")).toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("synced"));
        QVERIFY2(run.err.contains("warning: pods: no permission to list pods: occupancy unavailable"), run.err.constData());
    }

    void clearErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QStringList k = {QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                               QStringLiteral("--levels"), QStringLiteral("example.com/rack")};
        QTest::newRow("no rights") << (k + QStringList{QStringLiteral("--context"), QStringLiteral("nobody")}) << 1
                                   << QStringLiteral("context \"nobody\": nodes: no permission to list nodes");
        QTest::newRow("unknown context") << (k + QStringList{QStringLiteral("--context"), QStringLiteral("prod")}) << 1
                                         << QStringLiteral("context \"prod\" not found (known: admin, cert, nobody, viewer)");
        const QString badToken = QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "bad", "admin"));
        QFile file(badToken);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll().replace(QByteArray::fromStdString(m_cluster->value("ADMIN_TOKEN")), "not-a-token");
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        QTest::newRow("bad token") << QStringList{QStringLiteral("show"), QStringLiteral("--kubeconfig"), badToken,
                                                  QStringLiteral("--levels"), QStringLiteral("x")}
                                   << 1 << QStringLiteral("401 Unauthorized: the server does not accept the credentials of context \"bad\"");
        QTest::newRow("server down")
            << QStringList{QStringLiteral("show"), QStringLiteral("--kubeconfig"),
                           QString::fromStdString(m_cluster->writeKubeconfig(m_dir.path().toStdString(), "down", "admin",
                                                                             "https://127.0.0.1:1")),
                           QStringLiteral("--levels"), QStringLiteral("x"), QStringLiteral("--sync-timeout"),
                           QStringLiteral("2")}
            << 1 << QStringLiteral("context \"down\": nodes: cannot connect to https://127.0.0.1:1: Connection refused");
        QTest::newRow("missing kubeconfig") << QStringList{QStringLiteral("show"), QStringLiteral("--kubeconfig"),
                                                           QStringLiteral("/nonexistent/config")}
                                            << 1 << QStringLiteral("--kubeconfig /nonexistent/config: no such file");
    }

    void clearErrors() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CtlRun run = runCtl(args);
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.describe()));
        QVERIFY2(QString::fromUtf8(run.err).contains(message), qPrintable(run.describe()));
        // No credential ever reaches the output.
        QVERIFY(!run.err.contains(QByteArray::fromStdString(m_cluster->value("ADMIN_TOKEN"))));
    }

    // HTTP/2 where the server offers it (kube-apiserver does, over TLS), gzip for what it compresses.
    void talksHttp2AndGzip() {
        Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{m_kubeconfig.toStdString(), {}, {}});
        QVERIFY(config.ok());
        Result<KubeConnection> connection = resolveKubeContext(*config, "admin");
        QVERIFY(connection.ok());
        KubeClient client(std::make_shared<KubeCredentials>(*connection, ExecEnvironment{}));
        Result<HttpResponse> version = client.get("/version", std::chrono::seconds(10));
        QVERIFY(version.ok());
        QCOMPARE(version->status, 200L);
        QCOMPARE(version->httpVersion, 2);
        QVERIFY(version->body.find("\"gitVersion\": \"v1.20.2\"") != std::string::npos);
        // A list over 128 KiB comes gzipped (and is read back whole).
        Result<HttpResponse> pods = client.get("/api/v1/pods", std::chrono::seconds(10));
        QVERIFY(pods.ok());
        QVERIFY(pods->body.find("\"PodList\"") != std::string::npos);
    }

    // The pod's service account, as a real pod sees it: the token, CA and namespace mounted at
    // /var/run/secrets/kubernetes.io/serviceaccount and KUBERNETES_SERVICE_HOST/PORT set. The
    // mount is made in a mount namespace of its own (root), so the machine's /run is untouched.
    void inClusterServiceAccount() {
        if (QStandardPaths::findExecutable(QStringLiteral("unshare")).isEmpty() || ::geteuid() != 0)
            QSKIP("needs root and unshare for a private mount namespace");
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/serviceaccounts",
                                  R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"topodeck"}})").ok());
        QVERIFY(m_cluster->expect("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                                  R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
                                  R"("metadata":{"name":"topodeck-sa"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",)"
                                  R"("kind":"ClusterRole","name":"cluster-admin"},"subjects":[{"kind":"ServiceAccount",)"
                                  R"("name":"topodeck","namespace":"default"}]})").ok());
        Result<HttpResponse> issued = m_cluster->call(
            "POST", "/api/v1/namespaces/default/serviceaccounts/topodeck/token",
            // Not a raw string: moc reads the // of a URL in one as a comment.
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{\"audiences\":"
            "[\"https://kubernetes.default.svc.cluster.local\"],\"expirationSeconds\":3600}}");
        QVERIFY(issued.ok());
        QVERIFY2(issued->status == 201, issued->body.c_str());
        const QJsonObject request = QJsonDocument::fromJson(QByteArray::fromStdString(issued->body)).object();
        const QString token = request.value(QStringLiteral("status")).toObject().value(QStringLiteral("token")).toString();
        QVERIFY(!token.isEmpty());
        QDir(m_dir.path()).mkpath(QStringLiteral("sa"));
        QFile tokenFile(m_dir.filePath(QStringLiteral("sa/token")));
        QVERIFY(tokenFile.open(QIODevice::WriteOnly));
        tokenFile.write(token.toUtf8());
        tokenFile.close();
        QVERIFY(QFile::copy(QString::fromStdString(m_cluster->value("CA")), m_dir.filePath(QStringLiteral("sa/ca.crt"))));
        QFile ns(m_dir.filePath(QStringLiteral("sa/namespace")));
        QVERIFY(ns.open(QIODevice::WriteOnly));
        ns.write("default");
        ns.close();
        const QString script = QStringLiteral(
            "mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && "
            "cp %1/sa/* /run/secrets/kubernetes.io/serviceaccount/ && "
            "KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=%2 exec %3 show --in-cluster "
            "--levels example.com/rack -o json")
                                   .arg(m_dir.path())
                                   .arg(m_cluster->port())
                                   .arg(QStringLiteral(TOPODECKCTL_PATH));
        QProcess process;
        process.start(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"), script});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray out = process.readAllStandardOutput();
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QJsonObject show = QJsonDocument::fromJson(out).object();
        QCOMPARE(show.value(QStringLiteral("source")).toString(), QStringLiteral("context:in-cluster"));
        QCOMPARE(show.value(QStringLiteral("gpus_used")).toInt(), kUsedGpus);
    }

    // Changes made while watching arrive: relabel, pod deleted, pod finished, node NotReady,
    // and the topology objects.
    void changesWhileWatchingArrive() {
        Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{m_kubeconfig.toStdString(), {}, {}});
        QVERIFY(config.ok());
        Result<KubeConnection> connection = resolveKubeContext(*config, "admin");
        QVERIFY(connection.ok());
        FollowedSource followed(*connection);
        QVERIFY(followed.waitForStatus(LinkState::Synced));
        QCOMPARE(followed.state.presentNodeCount(), std::size_t(kNodes));
        QCOMPARE(usedGpus(followed.state), kUsedGpus);
        QCOMPARE(followed.state.podCount(), std::size_t(kPods));
        QCOMPARE(followed.state.topologies().size(), std::size_t(2));
        QCOMPARE(followed.state.resourceFlavors().size(), std::size_t(1));
        QCOMPARE(followed.state.hyperNodes().size(), std::size_t(2));
        Result<TopologySpec> spec = resolveTopology(followed.state, "gpu-topology", {});
        QVERIFY(spec.ok());

        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-16", R"({"metadata":{"labels":{"example.com/rack":"r3"}}})").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) {
            const Node& node = *s.record(*s.findNode("gpu-16")).node;
            return *node.label("example.com/rack") == "r3";
        }));
        TopologyIndex index = TopologyIndex::build(followed.state, *spec);
        const DomainId b2 = index.findChild(kRootDomain, "b2");
        QCOMPARE(index.domain(index.findChild(b2, "r3")).totals.nodesTotal, 5);

        // Without a kubelet a bound pod would stay Terminating (and hold its GPUs) for good:
        // delete it as the kubelet finally does.
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/infer-0?gracePeriodSeconds=0").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.findPod("default", "infer-0") == nullptr; }));
        QCOMPARE(usedGpus(followed.state), kUsedGpus - 4);

        // A pod that finishes leaves the field selector: the watch reports it deleted.
        QVERIFY(m_cluster->patch("/api/v1/namespaces/default/pods/train-a-3/status", R"({"status":{"phase":"Succeeded"}})").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.findPod("default", "train-a-3") == nullptr; }));
        QCOMPARE(usedGpus(followed.state), kUsedGpus - 12);

        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-12/status",
                                 R"({"status":{"conditions":[{"type":"Ready","status":"False"}]}})")
                    .ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return !s.record(*s.findNode("gpu-12")).node->ready; }));

        QVERIFY(m_cluster->expect("DELETE", "/apis/topology.volcano.sh/v1alpha1/hypernodes/hn-b2").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.hyperNodes().size() == 1; }));
        QVERIFY(m_cluster->expect("POST", "/apis/topology.volcano.sh/v1alpha1/hypernodes", kHyperNodeB2).ok());
        QVERIFY(m_cluster->expect("DELETE", "/apis/kai.scheduler/v1alpha1/topologies/kai-topology").ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return s.topologies().size() == 1; }));
        QVERIFY(s_topologyIsKueue(followed.state));

        // Put the cluster back for the tests after this one.
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-16", R"({"metadata":{"labels":{"example.com/rack":"r4"}}})").ok());
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-12/status",
                                 R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})")
                    .ok());
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "infer-0", "gpu-09", 4, "infer")).ok());
        QVERIFY(m_cluster->expect("DELETE", "/api/v1/namespaces/default/pods/train-a-3?gracePeriodSeconds=0").ok());
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", podJson("default", "train-a-3", "gpu-05", 8, "train-a")).ok());
        QVERIFY(followed.waitUntil([](const ClusterState& s) { return usedGpus(s) == kUsedGpus && s.podCount() == kPods; }));
        QCOMPARE(followed.status().state, LinkState::Synced);
    }

    // `show --watch` redraws when the cluster changes.
    void showWatchRedraws() {
        QProcess process;
        process.start(QStringLiteral(TOPODECKCTL_PATH),
                      {QStringLiteral("show"), QStringLiteral("--kubeconfig"), m_kubeconfig, QStringLiteral("--context"),
                       QStringLiteral("admin"), QStringLiteral("--levels"), QStringLiteral("example.com/rack"),
                       QStringLiteral("--watch"), QStringLiteral("--interval"), QStringLiteral("0.2"),
                       QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY(process.waitForStarted());
        // Frames are whole JSON objects, each ending with a "}" line.
        auto nextFrame = [&]() -> QJsonObject {
            QByteArray frame;
            QElapsedTimer timer;
            timer.start();
            while (timer.elapsed() < 20000) {
                if (!process.canReadLine() && !process.waitForReadyRead(500)) continue;
                while (process.canReadLine()) {
                    const QByteArray line = process.readLine();
                    frame += line;
                    if (line == "}\n") return QJsonDocument::fromJson(frame).object();
                }
            }
            return {};
        };
        const QJsonObject first = nextFrame();
        QCOMPARE(first.value(QStringLiteral("nodes_cordoned")).toInt(), 1);
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-15", R"({"spec":{"unschedulable":true}})").ok());
        QJsonObject frame;
        for (int i = 0; i < 20 && frame.value(QStringLiteral("nodes_cordoned")).toInt() != 2; ++i) frame = nextFrame();
        QCOMPARE(frame.value(QStringLiteral("nodes_cordoned")).toInt(), 2);
        process.kill();
        process.waitForFinished();
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-15", R"({"spec":{"unschedulable":false}})").ok());
    }

    // Every object export writes is what the real CRDs take: the server's dry-run create (its
    // structural schema: types, required fields, enums, bounds, pruning of unknown fields) gives
    // back objects that read as the same topology objects as the file. The schema is live: what
    // the CRDs refuse, the server refuses.
    void exportsAreWhatTheServerTakes() {
        const QString folder = m_dir.filePath(QStringLiteral("exports"));
        const CtlRun run = runCtl({QStringLiteral("export"), QStringLiteral("all"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                   QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("--levels"),
                                   QStringLiteral("example.com/block,example.com/rack"), QStringLiteral("--name"),
                                   QStringLiteral("exported"), QStringLiteral("-o"), folder});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        for (const char* file : {"kueue-topology.yaml", "kai-topology.yaml", "hypernodes.yaml"}) {
            const std::string path = QDir(folder).filePath(QLatin1String(file)).toStdString();
            const std::string text = readAll(path);
            QVERIFY2(!text.empty(), file);
            std::string items;
            std::size_t start = 0;
            while (start < text.size()) {
                std::size_t end = text.find("\n---\n", start);
                if (end == std::string::npos) end = text.size();
                const std::string document = text.substr(start, end - start);
                start = end + 5;
                const std::string collection = collectionPathOf(document);
                QVERIFY2(!collection.empty(), document.c_str());
                Result<HttpResponse> created = m_cluster->call("POST", collection + "?dryRun=All", document, "application/yaml");
                QVERIFY(created.ok());
                QVERIFY2(created->status == 201, (file + std::string(": ") + created->body).c_str());
                items += (items.empty() ? "" : ",") + created->body;
            }
            Result<Snapshot> sent = readSnapshotFile(path);
            Result<Snapshot> stored = readSnapshotText(R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}", "server");
            QVERIFY2(sent.ok(), sent.ok() ? "" : sent.error().message.c_str());
            QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
            QVERIFY(!sent->topologies.empty() || !sent->hyperNodes.empty());
            QVERIFY2(sent->topologies == stored->topologies, file);
            QVERIFY2(sent->hyperNodes == stored->hyperNodes, file);
            QVERIFY2(sent->resourceFlavors == stored->resourceFlavors, file);
        }

        std::string seventeen;
        for (int i = 0; i < 17; ++i) seventeen += (i ? "," : "") + std::string(R"({"nodeLabel":"example.com/l)") + std::to_string(i) + "\"}";
        const std::vector<std::pair<std::string, std::string>> refused = {
            {"/apis/kueue.x-k8s.io/v1beta2/topologies",
             R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Topology","metadata":{"name":"deep"},"spec":{"levels":[)" + seventeen + "]}}"},
            {"/apis/kueue.x-k8s.io/v1beta2/topologies",
             R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Topology","metadata":{"name":"none"},"spec":{"levels":[]}})"},
            {"/apis/kai.scheduler/v1alpha1/topologies",
             R"({"apiVersion":"kai.scheduler/v1alpha1","kind":"Topology","metadata":{"name":"bad"},"spec":{"levels":[{"nodeLabel":"a/b/c"}]}})"},
            {"/apis/topology.volcano.sh/v1alpha1/hypernodes",
             R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"below"},"spec":{"tier":-1}})"},
            {"/apis/topology.volcano.sh/v1alpha1/hypernodes",
             R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"rack"},"spec":{"tier":1,)"
             R"("members":[{"type":"Rack","selector":{"exactMatch":{"name":"gpu-01"}}}]}})"},
            {"/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
             R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"wide"},"spec":{"nodeLabels":)"
             R"({"a":"1","b":"1","c":"1","d":"1","e":"1","f":"1","g":"1","h":"1","i":"1"}}})"},
        };
        for (const auto& [collection, body] : refused) {
            Result<HttpResponse> answer = m_cluster->call("POST", collection + "?dryRun=All", body);
            QVERIFY(answer.ok());
            QVERIFY2(answer->status == 422, (body + " -> " + std::to_string(answer->status) + " " + answer->body).c_str());
        }
        // A field the CRD does not have is pruned, not kept.
        Result<HttpResponse> pruned = m_cluster->call(
            "POST", "/apis/topology.volcano.sh/v1alpha1/hypernodes?dryRun=All",
            R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":"odd"},"spec":{"tier":1,"rack":"r1"}})");
        QVERIFY(pruned.ok() && pruned->status == 201);
        QVERIFY2(pruned->body.find("\"rack\"") == std::string::npos, pruned->body.c_str());
    }

private:
    // Where an exported document is created: its apiVersion and kind as the collection's path.
    static std::string collectionPathOf(const std::string& document) {
        const std::string text = "\n" + document;
        const auto field = [&](const std::string& name) {
            const std::size_t at = text.find("\n" + name + ": ");
            if (at == std::string::npos) return std::string();
            std::string value = text.substr(at + name.size() + 3, text.find('\n', at + 1) - at - name.size() - 3);
            value.erase(std::remove(value.begin(), value.end(), '"'), value.end());
            return value;
        };
        const std::string apiVersion = field("apiVersion"), kind = field("kind");
        const std::string plural = kind == "Topology" ? "topologies" : kind == "ResourceFlavor" ? "resourceflavors"
                                                                   : kind == "HyperNode"      ? "hypernodes"
                                                                                              : "";
        return apiVersion.empty() || plural.empty() ? std::string() : "/apis/" + apiVersion + "/" + plural;
    }
    static std::string readAll(const std::string& path) {
        QFile file(QString::fromStdString(path));
        if (!file.open(QIODevice::ReadOnly)) return {};
        return file.readAll().toStdString();
    }
    static bool s_topologyIsKueue(const ClusterState& state) {
        return state.topologies().begin()->second.origin == "kueue";
    }

    std::unique_ptr<KubeTestCluster> m_cluster;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeLive)
#include "test_kube_live.moc"
