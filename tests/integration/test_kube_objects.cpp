// Topology objects changed on a real kube-apiserver with the CRDs' structural schemas: HyperNodes
// made from label levels (created, the old tree pruned), a Kueue Topology and ResourceFlavor and a
// KAI Topology created, each undone from its journal; the server's dry run changes nothing; a
// Topology's immutable levels and an edit since planning are refused before anything is sent;
// an edit racing the apply (after its dry run) is refused by the server's resourceVersion
// precondition (409) and never overwritten; a user without the verb is told which verb on which
// resource. `topodeckctl objects`, `apply` and `undo` as an operator runs them, and the apply
// engine in-process behind the fault proxy for the race.
//
// Needs etcd and the kube-apiserver built by kube/build-kube-apiserver.sh (the dev build does
// that); skipped without them unless TOPODECK_REQUIRE_KUBE=1 (CI).

#include "kube_test_support.h"

#include "core/changes/change_journal.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_apply.h"
#include "core/text/text_file.h"
#include "net/kubeconfig.h"
#include "net/label_patch_sender.h"
#include "support/test_program.h"

#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <future>

using namespace topodeck;
using namespace kubetest;

namespace {

const char* const kHyperNodes = "/apis/topology.volcano.sh/v1alpha1/hypernodes";

// name -> the object as the server holds it, without what the server adds (metadata but the name).
using Objects = std::map<std::string, QJsonObject>;

} // namespace

class TestKubeObjects : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        KUBETEST_START(m_cluster);
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        QVERIFY(m_dir.isValid());
        const std::string dir = m_dir.path().toStdString();
        m_kubeconfig = QString::fromStdString(m_cluster->writeKubeconfig(dir, "proxied", "admin", m_proxy->url()));
        m_viewerKubeconfig =
            QString::fromStdString(m_cluster->writeKubeconfig(dir, "viewer", "viewer", m_proxy->url()));
        m_original = objects(kHyperNodes);
        QCOMPARE(m_original.size(), std::size_t(2)); // hn-r4, hn-b2
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    void init() { m_proxy->resume(); }

    // HyperNodes from the block and rack labels, the old tree pruned: the dry run changes nothing;
    // the apply leaves exactly the generated tree; undo brings back the old one, spec for spec.
    void hyperNodesFromLabelsApplyAndUndo() {
        const QString plan =
            makePlan(QStringLiteral("hypernodes"), {QStringLiteral("hypernodes"), QStringLiteral("--prune")});
        Result<ChangePlan> read = readPlan(plan);
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        // 2 blocks + 4 racks created, hn-r4 and hn-b2 deleted (each with the version it had).
        QCOMPARE(read->objectChanges.size(), std::size_t(8));
        QCOMPARE(read->objectChanges.back().action(), ObjectChange::Action::Delete);
        QVERIFY(!read->objectChanges.back().resourceVersion.empty());

        const std::map<std::string, std::string> versions = resourceVersionsOf(kHyperNodes);
        const CtlRun dry = runCtl(apply(plan, {QStringLiteral("--dry-run=server")}));
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.describe()));
        QVERIFY2(dry.out.contains("accepted 8 object changes") && dry.out.contains("Nothing was changed"),
                 qPrintable(dry.describe()));
        QCOMPARE(resourceVersionsOf(kHyperNodes), versions);

        const CtlRun run = runCtl(apply(plan));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const Objects after = objects(kHyperNodes);
        QStringList names;
        for (const auto& [name, object] : after) names << QString::fromStdString(name);
        QCOMPARE(names.join(QLatin1Char(',')), QStringLiteral("block-b1,block-b2,rack-r1,rack-r2,rack-r3,rack-r4"));
        // rack-r1 holds gpu-01..04 by name; block-b1 holds its two racks.
        QCOMPARE(memberNames(after.at("rack-r1")), QStringLiteral("gpu-01,gpu-02,gpu-03,gpu-04"));
        QCOMPARE(memberNames(after.at("block-b1")), QStringLiteral("rack-r1,rack-r2"));
        QCOMPARE(after.at("block-b1")[QLatin1String("spec")][QLatin1String("tier")].toInt(), 2);

        // Undo: preview first (the server's dry run), then for real.
        const QString journal = journalOf(plan);
        const CtlRun preview = runCtl(live({QStringLiteral("undo"), journal}));
        QVERIFY2(preview.exitCode == 0 && preview.out.contains("Run again with --yes"), qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("delete HyperNode rack-r1"), qPrintable(preview.describe()));
        QCOMPARE(objects(kHyperNodes), after);
        const CtlRun undo = runCtl(live({QStringLiteral("undo"), journal, QStringLiteral("--yes")}));
        QVERIFY2(undo.exitCode == 0, qPrintable(undo.describe()));
        QCOMPARE(objects(kHyperNodes), m_original);
    }

    // A Kueue Topology and ResourceFlavor (v1beta2) and a KAI Topology, created and undone; the
    // server stores what the plan says.
    void topologiesCreateAndUndo() {
        const QString kueue = makePlan(QStringLiteral("kueue"),
                                       {QStringLiteral("kueue"), QStringLiteral("--name"), QStringLiteral("racks"),
                                        QStringLiteral("--flavor"), QStringLiteral("racks-flavor")});
        CtlRun run = runCtl(apply(kueue));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject topology = object("/apis/kueue.x-k8s.io/v1beta2/topologies/racks");
        const QJsonArray levels = topology[QLatin1String("spec")][QLatin1String("levels")].toArray();
        QCOMPARE(levels.size(), 2);
        QCOMPARE(levels[1][QLatin1String("nodeLabel")].toString(), QStringLiteral("example.com/rack"));
        const QJsonObject flavor = object("/apis/kueue.x-k8s.io/v1beta2/resourceflavors/racks-flavor");
        QCOMPARE(flavor[QLatin1String("spec")][QLatin1String("topologyName")].toString(), QStringLiteral("racks"));
        QCOMPARE(flavor[QLatin1String("spec")][QLatin1String("nodeLabels")][QLatin1String("pool")].toString(),
                 QStringLiteral("gpu"));

        const QString kai = makePlan(QStringLiteral("kai"),
                                     {QStringLiteral("kai"), QStringLiteral("--name"), QStringLiteral("kai-racks")});
        run = runCtl(apply(kai));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY(!object("/apis/kai.scheduler/v1alpha1/topologies/kai-racks").isEmpty());

        for (const QString& plan : {kai, kueue}) {
            const CtlRun undo = runCtl(live({QStringLiteral("undo"), journalOf(plan), QStringLiteral("--yes")}));
            QVERIFY2(undo.exitCode == 0, qPrintable(undo.describe()));
        }
        QVERIFY(object("/apis/kueue.x-k8s.io/v1beta2/topologies/racks").isEmpty());
        QVERIFY(object("/apis/kueue.x-k8s.io/v1beta2/resourceflavors/racks-flavor").isEmpty());
        QVERIFY(object("/apis/kai.scheduler/v1alpha1/topologies/kai-racks").isEmpty());
        QVERIFY(!object("/apis/kueue.x-k8s.io/v1beta2/topologies/gpu-topology").isEmpty()); // untouched
    }

    // What the 1.20 server cannot check (Kueue's CEL rule: levels are immutable; a node in two
    // HyperNodes of one tier) is refused before anything is sent; so is a plan whose object was
    // edited since it was made.
    void refusedBeforeSending() {
        const QString immutable =
            makePlan(QStringLiteral("immutable"),
                     {QStringLiteral("kueue"), QStringLiteral("--name"), QStringLiteral("gpu-topology"),
                      QStringLiteral("--flavor"), QStringLiteral("h100")},
                     QStringLiteral("example.com/rack"));
        const std::string before = objectText("/apis/kueue.x-k8s.io/v1beta2/topologies/gpu-topology");
        CtlRun run = runCtl(apply(immutable));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("Kueue Topology gpu-topology: spec.levels are immutable") &&
                     run.err.contains("nothing was sent"),
                 qPrintable(run.describe()));
        QCOMPARE(objectText("/apis/kueue.x-k8s.io/v1beta2/topologies/gpu-topology"), before);
        QVERIFY(!QFile::exists(journalOf(immutable)));

        const QString plan =
            makePlan(QStringLiteral("drifted"), {QStringLiteral("hypernodes"), QStringLiteral("--prune")});
        QVERIFY(m_cluster->patch(std::string(kHyperNodes) + "/hn-r4", R"({"spec":{"tierName":"edited"}})").ok());
        run = runCtl(apply(plan));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("HyperNode hn-r4: resourceVersion is") && run.err.contains("nothing was sent"),
                 qPrintable(run.describe()));
        QCOMPARE(objects(kHyperNodes).size(), std::size_t(2));
        QVERIFY(m_cluster->patch(std::string(kHyperNodes) + "/hn-r4", R"({"spec":{"tierName":"rack"}})").ok());
        QCOMPARE(objects(kHyperNodes), m_original);

        // A new tree beside the old one (no --prune): gpu-13..16 would sit in hn-r4 and rack-r4.
        const QString overlapping = makePlan(QStringLiteral("overlapping"), {QStringLiteral("hypernodes")});
        run = runCtl(apply(overlapping));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("node gpu-13 is in HyperNodes hn-r4 and rack-r4 of tier 1"),
                 qPrintable(run.describe()));
        QCOMPARE(objects(kHyperNodes), m_original);
    }

    // An edit landing after the dry run, while the apply is under way: the delete of hn-b2 carries the
    // version found as its precondition, the server answers 409, the object keeps the edit, the
    // apply stops there, and undo puts back only what was applied.
    void concurrentEditIsAConflict() {
        const QString file =
            makePlan(QStringLiteral("race"), {QStringLiteral("hypernodes"), QStringLiteral("--prune")});
        Result<ChangePlan> plan = readPlan(file);
        QVERIFY(plan);
        // The first create sent for real (a dry run's query starts with dryRun) waits for the edit.
        const std::string target = "POST /apis/topology.volcano.sh/v1alpha1/hypernodes?fieldManager";
        const int sentBefore = m_proxy->count(target); // the earlier tests' applies went through the proxy too
        m_proxy->pauseNext(target);
        std::future<ApplyResult> running = std::async(std::launch::async, [&] { return applyProxied(*plan); });
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count(target) == sentBefore + 1, 30000);
        QVERIFY(m_cluster->patch(std::string(kHyperNodes) + "/hn-b2", R"({"spec":{"tierName":"edited"}})").ok());
        m_proxy->resume();
        const ApplyResult result = running.get();
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Stopped));
        const JournalObjectChange& conflict = result.journal.objectChanges[6];
        QCOMPARE(conflict.change.describe(), std::string("delete HyperNode hn-b2"));
        QCOMPARE(int(conflict.outcome), int(ChangeOutcome::Conflict));
        QVERIFY2(conflict.message.starts_with("409"), conflict.message.c_str());
        QCOMPARE(int(result.journal.objectChanges[7].outcome), int(ChangeOutcome::NotAttempted));
        QCOMPARE(
            object(std::string(kHyperNodes) + "/hn-b2")[QLatin1String("spec")][QLatin1String("tierName")].toString(),
            QStringLiteral("edited"));
        const ApplyResult undone = applyProxied(undoPlan(result.journal));
        QCOMPARE(int(undone.stage), int(ApplyResult::Stage::Applied));
        Objects expected = m_original;
        QJsonObject spec = expected["hn-b2"][QLatin1String("spec")].toObject();
        spec[QLatin1String("tierName")] = QStringLiteral("edited");
        expected["hn-b2"][QLatin1String("spec")] = spec;
        QCOMPARE(objects(kHyperNodes), expected);
        QVERIFY(m_cluster->patch(std::string(kHyperNodes) + "/hn-b2", R"({"spec":{"tierName":"block"}})").ok());
    }

    // A user who may read but not write topology objects is told which verb on which resource, by
    // the dry run, and nothing is applied.
    void forbiddenNamesVerbAndResource() {
        QVERIFY(m_cluster
                    ->expect("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                             R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",)"
                             R"("metadata":{"name":"read-all"},"rules":[{"apiGroups":["*"],"resources":["*"],)"
                             R"("verbs":["get","list","watch"]}]})")
                    .ok());
        QVERIFY(m_cluster
                    ->expect("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                             R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
                             R"("metadata":{"name":"read-all"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",)"
                             R"("kind":"ClusterRole","name":"read-all"},"subjects":[{"apiGroup":)"
                             R"("rbac.authorization.k8s.io","kind":"User","name":"viewer"}]})")
                    .ok());
        const QString plan = makePlan(QStringLiteral("viewer"),
                                      {QStringLiteral("kai"), QStringLiteral("--name"), QStringLiteral("kai-viewer")});
        CtlRun run;
        for (int attempt = 0; attempt < 50; ++attempt) { // RBAC reaches the authorizer within a moment
            run = runCtl({QStringLiteral("apply"), QStringLiteral("-f"), plan, QStringLiteral("--kubeconfig"),
                          m_viewerKubeconfig, QStringLiteral("--context"), QStringLiteral("viewer"),
                          QStringLiteral("--levels"), QStringLiteral("example.com/block,example.com/rack")});
            if (!run.err.contains("cannot list")) break;
            QTest::qWait(100);
        }
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("refused 1 of 1 object; nothing was applied") &&
                     run.err.contains("create KAI Topology kai-viewer: forbidden: 403 Forbidden") &&
                     run.err.contains("User \"viewer\" cannot create resource \"topologies\" in API group "
                                      "\"kai.scheduler\""),
                 qPrintable(run.describe()));
        QVERIFY(object("/apis/kai.scheduler/v1alpha1/topologies/kai-viewer").isEmpty());
    }

    // Slinky's topology annotation on every node, applied as JSON Patches that test the value found,
    // and undone. Real nodes carry annotations (the kubelet's); these get one first, as a patch
    // cannot add a member to a map the node does not have.
    void slinkyAnnotationsApplyAndUndo() {
        for (int i = 1; i <= kNodes; ++i)
            QVERIFY(m_cluster
                        ->patch("/api/v1/nodes/" + nodeName(i),
                                R"({"metadata":{"annotations":{"node.alpha.kubernetes.io/ttl":"0"}}})")
                        .ok());
        const QString plan = m_dir.filePath(QStringLiteral("slinky.yaml"));
        const QString topologyYaml = m_dir.filePath(QStringLiteral("topology.yaml"));
        CtlRun run = runCtl(live({QStringLiteral("slinky"), QStringLiteral("--tree"), QStringLiteral("topo-tree"),
                                  QStringLiteral("--block"), QStringLiteral("topo-block"),
                                  QStringLiteral("--block-per"), QStringLiteral("rack"),
                                  QStringLiteral("--topology-yaml"), topologyYaml, QStringLiteral("-o"), plan}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        run = runCtl(apply(plan));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString key = QStringLiteral("topology.slinky.slurm.net/spec");
        for (int i = 1; i <= kNodes; ++i) {
            const QJsonObject node = object("/api/v1/nodes/" + nodeName(i));
            const QString rack = QString::fromStdString(rackOf(i));
            QCOMPARE(node[QLatin1String("metadata")][QLatin1String("annotations")][key].toString(),
                     QStringLiteral("topo-tree:%1,topo-block:%1").arg(rack));
        }
        Result<std::string> yaml = readTextFile(topologyYaml.toStdString());
        QVERIFY(yaml && yaml->find("topology: \"topo-tree\"") != std::string::npos &&
                yaml->find("topology: \"topo-block\"") != std::string::npos);
        run = runCtl(live({QStringLiteral("undo"), journalOf(plan), QStringLiteral("--yes")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        for (int i = 1; i <= kNodes; ++i)
            QVERIFY(!object("/api/v1/nodes/" + nodeName(i))[QLatin1String("metadata")][QLatin1String("annotations")]
                         .toObject()
                         .contains(key));
    }

private:
    QStringList live(QStringList args,
                     const QString& levels = QStringLiteral("example.com/block,example.com/rack")) const {
        return args << QStringLiteral("--kubeconfig") << m_kubeconfig << QStringLiteral("--context")
                    << QStringLiteral("proxied") << QStringLiteral("--levels") << levels;
    }
    QStringList apply(const QString& plan, const QStringList& more = {}) const {
        return live(QStringList{QStringLiteral("apply"), QStringLiteral("-f"), plan} + more);
    }
    QString journalOf(const QString& plan) const {
        QString stem = plan;
        stem.chop(5); // ".yaml"
        return stem + QStringLiteral(".journal.yaml");
    }
    // `topodeckctl objects ARGS -o NAME.yaml` on the live cluster, read from the levels given.
    QString makePlan(const QString& name, const QStringList& args,
                     const QString& levels = QStringLiteral("example.com/block,example.com/rack")) {
        const QString file = m_dir.filePath(name + QStringLiteral(".yaml"));
        QFile::remove(file);
        QFile::remove(journalOf(file));
        const CtlRun run = runCtl(
            live(QStringList{QStringLiteral("objects")} + args + QStringList{QStringLiteral("-o"), file}, levels));
        if (run.exitCode != 0) qWarning("%s", qPrintable(run.describe()));
        return file;
    }
    Result<ChangePlan> readPlan(const QString& file) {
        Result<std::string> text = readTextFile(file.toStdString());
        if (!text) return text.error();
        return readChangePlan(*text, file.toStdString());
    }

    // The apply engine in-process, on the fault proxy.
    ApplyResult applyProxied(const ChangePlan& plan) {
        Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{m_kubeconfig.toStdString(), {}, {}});
        Result<KubeConnection> connection =
            config ? resolveKubeContext(*config, "proxied") : Result<KubeConnection>(config.error());
        if (!connection) return {};
        auto credentials = std::make_shared<KubeCredentials>(*connection, ExecEnvironment{});
        ChangeJournal journal;
        journal.plan = plan.name;
        ApplyOptions options;
        options.sendObject = kubeObjectSender(credentials);
        return applyPlan(plan, journal, kubePatchSender(credentials), options);
    }

    QJsonObject object(const std::string& path) {
        Result<HttpResponse> response = m_cluster->call("GET", path);
        return response.ok() && response->status == 200
                   ? QJsonDocument::fromJson(QByteArray::fromStdString(response->body)).object()
                   : QJsonObject();
    }
    std::string objectText(const std::string& path) {
        QJsonObject found = object(path);
        return QJsonDocument(found[QLatin1String("spec")].toObject()).toJson().toStdString() +
               found[QLatin1String("metadata")][QLatin1String("resourceVersion")].toString().toStdString();
    }
    // Every object of a collection by name: its spec and name alone.
    Objects objects(const char* collection) {
        Objects out;
        for (const QJsonValue item : object(collection)[QLatin1String("items")].toArray()) {
            const QString name = item[QLatin1String("metadata")][QLatin1String("name")].toString();
            out[name.toStdString()] =
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("spec"), item[QLatin1String("spec")]}};
        }
        return out;
    }
    std::map<std::string, std::string> resourceVersionsOf(const char* collection) {
        std::map<std::string, std::string> out;
        for (const QJsonValue item : object(collection)[QLatin1String("items")].toArray())
            out[item[QLatin1String("metadata")][QLatin1String("name")].toString().toStdString()] =
                item[QLatin1String("metadata")][QLatin1String("resourceVersion")].toString().toStdString();
        return out;
    }
    static QString memberNames(const QJsonObject& hyperNode) {
        QStringList names;
        for (const QJsonValue member : hyperNode[QLatin1String("spec")][QLatin1String("members")].toArray())
            names << member[QLatin1String("selector")][QLatin1String("exactMatch")][QLatin1String("name")].toString();
        return names.join(QLatin1Char(','));
    }

    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    QString m_viewerKubeconfig;
    Objects m_original;
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeObjects)
#include "test_kube_objects.moc"
