// Change plans applied to a real kube-apiserver: 300 nodes in 10 racks, relabelled with
// `topodeckctl label`, `apply` and `undo` as an operator runs them, and the apply engine driven
// in-process behind the fault proxy for what only a race or a fault shows: an edit landing
// between the dry run and the patch, and a 403 in the middle of a batch.
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

#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <future>

using namespace topodeck;
using namespace kubetest;

namespace {

constexpr int kApplyNodes = 300;
constexpr int kRacks = 10;
const QString kRackKey = QStringLiteral("example.com/rack");

std::string applyNodeName(int i) {
    char name[16];
    std::snprintf(name, sizeof name, "node-%03d", i);
    return name;
}
std::string applyRackOf(int i) {
    char name[16];
    std::snprintf(name, sizeof name, "rack-%02d", (i - 1) / (kApplyNodes / kRacks) + 1);
    return name;
}

using LabelMap = NodeLabels;

} // namespace

class TestKubeApply : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QString why;
        m_cluster = KubeTestCluster::start(why);
        if (!m_cluster) {
            if (kubeTestsRequired()) QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
        std::vector<std::pair<std::string, std::string>> nodes;
        for (int i = 1; i <= kApplyNodes; ++i)
            nodes.emplace_back("/api/v1/nodes",
                               nodeJson(applyNodeName(i),
                                        {{"kubernetes.io/hostname", applyNodeName(i)},
                                         {kRackKey.toStdString(), applyRackOf(i)},
                                         {"pool", "gpu"}},
                                        8));
        const Status created = m_cluster->sendMany("POST", nodes, 8);
        QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        QVERIFY(m_dir.isValid());
        m_kubeconfig = QString::fromStdString(m_cluster->value("KUBECONFIG"));
        m_original = labels();
        QCOMPARE(m_original.size(), std::size_t(kApplyNodes));
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    void init() { m_proxy->resume(); }
    // Every test starts from the original labels.
    void cleanup() { QVERIFY(restoreOriginal()); }

    // The dry run answers for every node and changes nothing: same labels, same resourceVersions.
    void serverDryRunChangesNothing() {
        const QString plan = planAll(QStringLiteral("dry"));
        const std::map<std::string, std::string> versionsBefore = resourceVersions();
        const CtlRun run = runCtl(apply(plan, {QStringLiteral("--dry-run=server")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.out.contains("accepted 330 label changes on 300 nodes"), qPrintable(run.describe()));
        QVERIFY2(run.out.contains("Nothing was changed"), qPrintable(run.describe()));
        QCOMPARE(labels(), m_original);
        QCOMPARE(resourceVersions(), versionsBefore);
        QVERIFY(!QFile::exists(journalOf(plan))); // no apply, no journal
    }

    // Applied in batches under a field manager of its own; the journal's undo puts back exactly
    // what was there, and a preview of the undo changes nothing.
    void appliesInBatchesAndUndoesExactly() {
        const QString plan = planAll(QStringLiteral("all"));
        const CtlRun run = runCtl(apply(plan, {QStringLiteral("--batch-size"), QStringLiteral("64"),
                                               QStringLiteral("--field-manager"), QStringLiteral("topodeck-test")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.out.contains("applied 330 label changes on 300 nodes in 5 batches, field manager topodeck-test"),
                 qPrintable(run.describe()));
        const LabelMap after = labels();
        for (int i = 1; i <= kApplyNodes; ++i) {
            const std::map<std::string, std::string>& nodeLabels = after.at(applyNodeName(i));
            QCOMPARE(nodeLabels.at("topodeck.test/pool"), std::string("a"));
            QCOMPARE(nodeLabels.at(kRackKey.toStdString()), i <= 30 ? std::string("rack-01b") : applyRackOf(i));
        }
        // The server records the labels under the plan's field manager.
        const QJsonObject node = object("/api/v1/nodes/node-001");
        bool managed = false;
        for (const QJsonValue entry : node[QLatin1String("metadata")][QLatin1String("managedFields")].toArray())
            managed = managed || (entry[QLatin1String("manager")].toString() == QStringLiteral("topodeck-test") &&
                                  QJsonDocument(entry[QLatin1String("fieldsV1")].toObject()).toJson().contains(
                                      "topodeck.test/pool"));
        QVERIFY2(managed, QJsonDocument(node).toJson().constData());

        const QString journalFile = journalOf(plan);
        Result<std::string> text = readTextFile(journalFile.toStdString());
        QVERIFY(text.ok());
        Result<ChangeJournal> journal = readChangeJournal(*text, "journal");
        QVERIFY2(journal.ok(), journal.ok() ? "" : journal.error().message.c_str());
        QCOMPARE(journal->count(ChangeOutcome::Applied), std::size_t(330));
        QCOMPARE(journal->fieldManager, std::string("topodeck-test"));
        QVERIFY(!journal->finished.empty());

        // A second apply of the same plan would lose the first one's record.
        const CtlRun again = runCtl(apply(plan));
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("exists already"), qPrintable(again.describe()));

        const CtlRun preview = runCtl(live({QStringLiteral("undo"), journalFile}));
        QVERIFY2(preview.exitCode == 0, qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("Run again with --yes"), qPrintable(preview.describe()));
        QVERIFY2(preview.out.contains("rack-01b -> rack-01"), qPrintable(preview.describe()));
        QCOMPARE(labels(), after);

        const CtlRun undo = runCtl(live({QStringLiteral("undo"), journalFile, QStringLiteral("--yes")}));
        QVERIFY2(undo.exitCode == 0, qPrintable(undo.describe()));
        QCOMPARE(labels(), m_original);
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("all.journal.undo.yaml"))));
    }

    // An edit made after planning is found before anything is sent.
    void driftedPlanIsRefused() {
        const QString plan = planAll(QStringLiteral("drift"));
        QVERIFY(m_cluster->patch("/api/v1/nodes/node-007", R"({"metadata":{"labels":{"example.com/rack":"rack-99"}}})").ok());
        const LabelMap edited = labels();
        const CtlRun run = runCtl(apply(plan));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("node-007") && run.err.contains("rack-99") && run.err.contains("nothing was sent"),
                 qPrintable(run.describe()));
        QCOMPARE(labels(), edited);
        QVERIFY(!QFile::exists(journalOf(plan)));
    }

    // A user who may patch only some nodes: the dry run names the verb and resource for the
    // others, and nothing is applied, not even to the nodes it may patch.
    void partialPermissionIsNamedAndNothingApplied() {
        QVERIFY(m_cluster
                    ->expect("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                             R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",)"
                             R"("metadata":{"name":"label-rack-01"},"rules":[{"apiGroups":[""],"resources":["nodes"],)"
                             R"("verbs":["patch"],"resourceNames":["node-001","node-002","node-003"]}]})")
                    .ok());
        QVERIFY(m_cluster
                    ->expect("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                             R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
                             R"("metadata":{"name":"label-rack-01"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",)"
                             R"("kind":"ClusterRole","name":"label-rack-01"},"subjects":[{"apiGroup":)"
                             R"("rbac.authorization.k8s.io","kind":"User","name":"viewer"}]})")
                    .ok());
        const QString plan = planRack01(QStringLiteral("viewer"));
        // RBAC changes reach the authorizer's cache within a moment: wait until node-001 is allowed.
        CtlRun run;
        for (int attempt = 0; attempt < 50; ++attempt) {
            run = runCtl({QStringLiteral("apply"), QStringLiteral("-f"), plan, QStringLiteral("--kubeconfig"),
                          m_kubeconfig, QStringLiteral("--context"), QStringLiteral("viewer")});
            if (!run.err.contains("nodes \"node-001\" is forbidden")) break;
            QTest::qWait(100);
        }
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("refused 27 of 30 nodes; nothing was applied"), qPrintable(run.describe()));
        QVERIFY2(run.err.contains("node-004: forbidden: 403 Forbidden: nodes \"node-004\" is forbidden: User \"viewer\" "
                                  "cannot patch resource \"nodes\""),
                 qPrintable(run.describe()));
        QVERIFY(!run.err.contains("node-001:"));
        QCOMPARE(labels(), m_original);
        QVERIFY(!QFile::exists(journalOf(plan)));
    }

    // An edit that lands after the dry run, while the apply is under way: the node's patch
    // fails its test (422) and is never forced; the batch is the last; the journal says which
    // changes were applied, and undo puts back those alone.
    void concurrentEditStopsTheApply() {
        ChangePlan plan = loadPlan(planAll(QStringLiteral("race")));
        m_proxy->pauseNext("PATCH /api/v1/nodes/node-150?fieldManager");
        std::future<ApplyResult> running =
            std::async(std::launch::async, [&] { return applyProxied(plan, 100); });
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->count("PATCH /api/v1/nodes/node-150?fieldManager") == 1, 30000);
        QVERIFY(m_cluster->patch("/api/v1/nodes/node-150", R"({"metadata":{"labels":{"topodeck.test/pool":"b"}}})").ok());
        m_proxy->resume();
        const ApplyResult result = running.get();
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Stopped));
        QCOMPARE(result.batchesSent, std::size_t(2));
        const ChangeJournal& journal = result.journal;
        for (const JournalChange& entry : journal.changes) {
            const int index = std::stoi(entry.change.node.substr(5));
            const ChangeOutcome expected = index == 150 ? ChangeOutcome::Conflict
                                           : index <= 200 ? ChangeOutcome::Applied
                                                          : ChangeOutcome::NotAttempted;
            QVERIFY2(entry.outcome == expected, (entry.change.node + ": " + std::string(changeOutcomeName(entry.outcome))).c_str());
        }
        const JournalChange& conflict = *std::find_if(journal.changes.begin(), journal.changes.end(),
                                                      [](const JournalChange& e) { return e.change.node == "node-150"; });
        QVERIFY2(conflict.message.starts_with("422"), conflict.message.c_str());
        LabelMap now = labels();
        QCOMPARE(now.at("node-150").at("topodeck.test/pool"), std::string("b")); // the edit stands
        QCOMPARE(now.at("node-201"), m_original.at("node-201"));                  // never reached

        // Undo from the journal: every applied change back; node-150 keeps its own edit.
        const ApplyResult undone = applyProxied(undoPlan(journal), 100);
        QCOMPARE(int(undone.stage), int(ApplyResult::Stage::Applied));
        LabelMap expected = m_original;
        expected["node-150"]["topodeck.test/pool"] = "b";
        QCOMPARE(labels(), expected);
    }

    // A 403 in the middle of a batch (a policy webhook, an RBAC change between dry run and
    // apply): the node is recorded as forbidden with the server's words, the rest of that batch
    // still lands, and no later batch starts.
    void forbiddenMidBatchIsRecorded() {
        ChangePlan plan = loadPlan(planAll(QStringLiteral("forbidden")));
        m_proxy->failNext("PATCH /api/v1/nodes/node-120?fieldManager", 403);
        const ApplyResult result = applyProxied(plan, 100);
        QCOMPARE(int(result.stage), int(ApplyResult::Stage::Stopped));
        QCOMPARE(result.journal.count(ChangeOutcome::Forbidden), std::size_t(1)); // node-120 has one change
        QCOMPARE(result.journal.count(ChangeOutcome::Applied), std::size_t(330 - 1 - 100));
        QCOMPARE(result.journal.count(ChangeOutcome::NotAttempted), std::size_t(100));
        QCOMPARE(labels().at("node-120"), m_original.at("node-120"));
    }

    // A review bundle of a live plan, as a colleague applies it without topodeck: the server takes
    // its gang's batch/v1 Job and its partial Nodes (server-side apply), in a dry run that
    // changes nothing.
    void aBundleIsWhatTheServerTakes() {
        const QString plan = planRack01(QStringLiteral("bundled"));
        const QString folder = m_dir.filePath(QStringLiteral("review"));
        const CtlRun run = runCtl(live({QStringLiteral("export"), QStringLiteral("bundle"), QStringLiteral("--plan"), plan,
                                        QStringLiteral("--pods=4"), QStringLiteral("--request=nvidia.com/gpu=1"),
                                        QStringLiteral("--required=rack"), QStringLiteral("-o"), folder}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        Result<std::string> readme = readTextFile(QDir(folder).filePath(QStringLiteral("README.md")).toStdString());
        QVERIFY(readme.ok());
        QVERIFY2(readme->find("30 label changes on 30 nodes") != std::string::npos, readme->c_str());

        Result<std::string> job = readTextFile(QDir(folder).filePath(QStringLiteral("gang-kueue.yaml")).toStdString());
        QVERIFY(job.ok());
        const Status created =
            m_cluster->expect("POST", "/apis/batch/v1/namespaces/default/jobs?dryRun=All", *job, "application/yaml");
        QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());

        Result<std::string> nodes = readTextFile(QDir(folder).filePath(QStringLiteral("node-labels.yaml")).toStdString());
        QVERIFY(nodes.ok());
        const std::string first = nodes->substr(0, nodes->find("---\n"));
        QVERIFY(first.find("name: \"node-001\"") != std::string::npos);
        // The rack label was set by another manager, so server-side apply takes it over only when
        // forced, as the file's header says.
        const std::string apply = "/api/v1/nodes/node-001?dryRun=All&fieldManager=topodeck";
        const Status unforced = m_cluster->expect("PATCH", apply, first, "application/apply-patch+yaml");
        QVERIFY(!unforced.ok());
        QVERIFY2(unforced.error().message.find("409") != std::string::npos, unforced.error().message.c_str());
        QVERIFY(first.find("--force-conflicts") != std::string::npos);
        const Status forced = m_cluster->expect("PATCH", apply + "&force=true", first, "application/apply-patch+yaml");
        QVERIFY2(forced.ok(), forced.ok() ? "" : forced.error().message.c_str());
        QCOMPARE(labels(), m_original);
    }

    // Files that are not journals, and flags that do not fit, are refused with what is wrong.
    // A generated plan on the real server: labels from a topology.conf (the racks' leaf switches
    // under two spines) with the old rack key removed, applied, then every node carries exactly the
    // switch path the file gives it.
    void relabelFromTopologyConfApplies() {
        QString conf;
        for (int rack = 1; rack <= kRacks; ++rack) {
            const int first = (rack - 1) * (kApplyNodes / kRacks) + 1;
            conf += QStringLiteral("SwitchName=leaf-%1 Nodes=node-[%2-%3]\n")
                        .arg(rack, 2, 10, QLatin1Char('0'))
                        .arg(first, 3, 10, QLatin1Char('0'))
                        .arg(first + kApplyNodes / kRacks - 1, 3, 10, QLatin1Char('0'));
        }
        conf += QStringLiteral("SwitchName=spine-1 Switches=leaf-[01-05]\nSwitchName=spine-2 Switches=leaf-[06-10]\n");
        const QString confFile = m_dir.filePath(QStringLiteral("topology.conf"));
        QVERIFY(writeFileAtomically(confFile.toStdString(), conf.toStdString()).ok());
        const QString plan = m_dir.filePath(QStringLiteral("relabel.yaml"));
        const CtlRun relabel = runCtl({QStringLiteral("relabel"), QStringLiteral("--kubeconfig"), m_kubeconfig,
                                       QStringLiteral("--context"), QStringLiteral("admin"), QStringLiteral("--slurm-topology"),
                                       confFile, QStringLiteral("--to"), QStringLiteral("topodeck.test/spine,topodeck.test/leaf"),
                                       QStringLiteral("--remove"), kRackKey, QStringLiteral("-o"), plan});
        QVERIFY2(relabel.exitCode == 0, qPrintable(relabel.describe()));
        QVERIFY2(relabel.out.contains("900 label changes on 300 nodes"), qPrintable(relabel.describe()));
        const CtlRun run = runCtl(apply(plan));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const LabelMap after = labels();
        for (int i = 1; i <= kApplyNodes; ++i) {
            const int rack = (i - 1) / (kApplyNodes / kRacks) + 1;
            std::map<std::string, std::string> expected = m_original.at(applyNodeName(i));
            expected.erase(kRackKey.toStdString());
            expected["topodeck.test/leaf"] = QStringLiteral("leaf-%1").arg(rack, 2, 10, QLatin1Char('0')).toStdString();
            expected["topodeck.test/spine"] = rack <= 5 ? "spine-1" : "spine-2";
            QCOMPARE(after.at(applyNodeName(i)), expected);
        }
    }

    void badInputIsRefused() {
        const QString bad = m_dir.filePath(QStringLiteral("bad.journal.yaml"));
        QVERIFY(writeFileAtomically(bad.toStdString(),
                                    "apiVersion: topodeck.io/v1alpha1\nkind: ChangeJournal\nspec:\n  changes:\n"
                                    "  - {node: n1, key: a, after: b, outcome: maybe}\n")
                    .ok());
        const CtlRun run = runCtl(live({QStringLiteral("undo"), bad}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("bad.journal.yaml:5:") && run.err.contains("spec.changes[0].outcome"),
                 qPrintable(run.describe()));
        const CtlRun demo = runCtl({QStringLiteral("apply"), QStringLiteral("-f"), bad, QStringLiteral("--demo"),
                                    QStringLiteral("gb200")});
        QCOMPARE(demo.exitCode, 2); // apply writes to a live cluster only
        const CtlRun dryRun = runCtl(apply(bad, {QStringLiteral("--dry-run=client")}));
        QCOMPARE(dryRun.exitCode, 2);
        QVERIFY2(dryRun.err.contains("--dry-run: only server"), qPrintable(dryRun.describe()));
    }

private:
    QStringList live(QStringList args) const {
        return args << QStringLiteral("--kubeconfig") << m_kubeconfig << QStringLiteral("--context")
                    << QStringLiteral("admin") << QStringLiteral("--levels") << kRackKey;
    }
    QStringList apply(const QString& plan, const QStringList& more = {}) const {
        return live(QStringList{QStringLiteral("apply"), QStringLiteral("-f"), plan} + more);
    }
    QString journalOf(const QString& plan) const {
        QString stem = plan;
        stem.chop(5); // ".yaml"
        return stem + QStringLiteral(".journal.yaml");
    }

    // The plan the tests apply: every node gets topodeck.test/pool=a (300 changes), and rack-01
    // is renamed rack-01b (30 more).
    QString planAll(const QString& name) {
        const QString file = m_dir.filePath(name + QStringLiteral(".yaml"));
        QFile::remove(file);
        QFile::remove(journalOf(file));
        const CtlRun pool = runCtl(live({QStringLiteral("label"), QStringLiteral("-l"), kRackKey,
                                         QStringLiteral("topodeck.test/pool=a"), QStringLiteral("-o"), file}));
        if (pool.exitCode != 0) qWarning("%s", qPrintable(pool.describe()));
        Result<std::string> text = readTextFile(file.toStdString());
        Result<ChangePlan> plan = readChangePlan(text.ok() ? *text : std::string(), "plan");
        if (!plan) return file;
        for (int i = 1; i <= 30; ++i)
            plan->labelChanges.push_back({applyNodeName(i), kRackKey.toStdString(), "rack-01", "rack-01b"});
        std::sort(plan->labelChanges.begin(), plan->labelChanges.end(), labelChangeBefore);
        (void)writeFileAtomically(file.toStdString(), writeChangePlan(*plan));
        return file;
    }
    QString planRack01(const QString& name) {
        const QString file = m_dir.filePath(name + QStringLiteral(".yaml"));
        QFile::remove(file);
        const CtlRun run = runCtl(live({QStringLiteral("label"), QStringLiteral("-l"), kRackKey + QStringLiteral("=rack-01"),
                                        kRackKey + QStringLiteral("=rack-01b"), QStringLiteral("-o"), file}));
        if (run.exitCode != 0) qWarning("%s", qPrintable(run.describe()));
        return file;
    }
    ChangePlan loadPlan(const QString& file) {
        Result<std::string> text = readTextFile(file.toStdString());
        Result<ChangePlan> plan = readChangePlan(text.ok() ? *text : std::string(), file.toStdString());
        return plan.ok() ? *plan : ChangePlan{};
    }

    // The apply engine in-process, on the fault proxy.
    ApplyResult applyProxied(const ChangePlan& plan, std::size_t batchSize) {
        Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation{m_kubeconfig.toStdString(), {}, {}});
        Result<KubeConnection> connection = config ? resolveKubeContext(*config, "admin") : Result<KubeConnection>(config.error());
        if (!connection) return {};
        connection->server = m_proxy->url();
        ChangeJournal journal;
        journal.plan = plan.name;
        journal.fieldManager = "topodeck";
        ApplyOptions options;
        options.batchSize = batchSize;
        KubePatchOptions patch;
        patch.parallel = 4;
        return applyPlan(plan, journal, kubePatchSender(std::make_shared<KubeCredentials>(*connection, ExecEnvironment{}), patch),
                         options);
    }

    QJsonObject object(const std::string& path) {
        Result<HttpResponse> response = m_cluster->call("GET", path);
        return response.ok() ? QJsonDocument::fromJson(QByteArray::fromStdString(response->body)).object() : QJsonObject();
    }
    QJsonArray nodeItems() { return object("/api/v1/nodes")[QLatin1String("items")].toArray(); }
    LabelMap labels() { return serverNodeLabels(*m_cluster); }
    std::map<std::string, std::string> resourceVersions() {
        std::map<std::string, std::string> out;
        for (const QJsonValue node : nodeItems())
            out[node[QLatin1String("metadata")][QLatin1String("name")].toString().toStdString()] =
                node[QLatin1String("metadata")][QLatin1String("resourceVersion")].toString().toStdString();
        return out;
    }
    bool restoreOriginal() { return restoreNodeLabels(*m_cluster, m_original); }

    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    LabelMap m_original;
};

TOPODECK_TEST_GUILESS_MAIN(TestKubeApply)
#include "test_kube_apply.moc"
