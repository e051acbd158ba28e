// The changes page against a real kube-apiserver, as an operator drives it: a relabel of a rack
// under a running gang pinned there (Kueue's injected nodeSelector) is shown to strand it; the plan
// is changed, dry-run on the server (nothing changes), applied once writes are allowed for that
// cluster (the labels change, the journal is written) and undone (the labels are as they were).
// A cluster edited since the preview refuses the apply; Cancel stops before the next batch and
// the journal says exactly what went in; a user who may not patch nodes is told which verb on
// which resource is missing; a label a controller owns is flagged; writes are off for every other
// cluster.
//
// Needs etcd and the kube-apiserver built by kube/build-kube-apiserver.sh (the dev build does
// that); skipped without them unless TOPODECK_REQUIRE_KUBE=1 (CI).

#include "../gui/widget_text.h"
#include "kube_test_support.h"

#include "core/changes/change_journal.h"
#include "core/text/text_file.h"
#include "models/label_changes_model.h"
#include "session/cluster_session.h"
#include "views/pages/changes_page.h"
#include "support/test_program.h"

#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>

using namespace topodeck;
using topodeck::testing::anyContains;
using topodeck::testing::listed;
using namespace kubetest;
using namespace std::chrono_literals;

namespace {

constexpr int kWaitMs = 30000;
using LabelMap = NodeLabels;

// A pod of a gang Kueue TAS placed in rack r3, with the nodeSelector it injects when it ungates it.
std::string pinnedPodJson(const std::string& name, const std::string& node) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"" + name +
           "\",\"labels\":{\"batch.kubernetes.io/job-name\":\"pinned\",\"kueue.x-k8s.io/queue-name\":\"train\"}},"
           "\"spec\":{\"nodeName\":\"" + node +
           "\",\"nodeSelector\":{\"example.com/block\":\"b2\",\"example.com/rack\":\"r3\"},"
           R"("containers":[{"name":"train","image":"example.com/train:1","resources":{"requests":{"nvidia.com/gpu":"2"},)"
           R"("limits":{"nvidia.com/gpu":"2"}}}]}})";
}

// A pod that asks for rack r3 by required node affinity, as a hand-written training Job does.
std::string affinePodJson() {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"affine-0\","
           "\"labels\":{\"batch.kubernetes.io/job-name\":\"affine\"}},\"spec\":{\"nodeName\":\"gpu-10\",\"affinity\":"
           "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
           "[{\"key\":\"example.com/rack\",\"operator\":\"In\",\"values\":[\"r3\",\"r5\"]}]}]}}},"
           "\"containers\":[{\"name\":\"train\",\"image\":\"example.com/train:1\",\"resources\":{\"limits\":"
           "{\"nvidia.com/gpu\":\"1\"}}}]}}";
}

} // namespace

class TestKubeChanges : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        KUBETEST_START(m_cluster);
        for (const auto& [name, node] : {std::pair{"pinned-0", "gpu-11"}, std::pair{"pinned-1", "gpu-12"}}) {
            QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", pinnedPodJson(name, node)).ok());
            QVERIFY(m_cluster->patch(std::string("/api/v1/namespaces/default/pods/") + name + "/status",
                                     R"({"status":{"phase":"Running"}})")
                        .ok());
        }
        QVERIFY(m_cluster->expect("POST", "/api/v1/namespaces/default/pods", affinePodJson()).ok());
        QVERIFY(m_cluster->patch("/api/v1/namespaces/default/pods/affine-0/status", R"({"status":{"phase":"Running"}})").ok());
        m_proxy = proxyFor(*m_cluster);
        QVERIFY(m_proxy->ok());
        QVERIFY(m_dir.isValid());
        const std::string dir = m_dir.path().toStdString();
        m_kubeconfig = QString::fromStdString(m_cluster->writeKubeconfig(dir, "proxied", "admin", m_proxy->url()));
        m_viewerKubeconfig = QString::fromStdString(m_cluster->writeKubeconfig(dir, "viewer", "viewer", m_proxy->url()));
        m_original = labels();
        QCOMPARE(m_original.size(), std::size_t(kNodes));
    }

    void cleanupTestCase() {
        m_proxy.reset();
        m_cluster.reset();
    }

    void init() {
        m_proxy->resume();
        m_session = std::make_unique<ClusterSession>();
        m_session->setTopologyChoice(QStringLiteral("gpu-topology"), {});
        m_page = std::make_unique<ChangesPage>(m_session.get());
        m_page->setJournalFolder(m_dir.filePath(QStringLiteral("journals")));
        m_page->setConfirmation([this](const QString& question) {
            m_questions << question;
            return true;
        });
        m_page->resize(700, 800);
        m_page->show();
    }
    void cleanup() {
        m_page.reset();
        m_session.reset();
        m_questions.clear();
        QVERIFY(restoreOriginal());
    }

    // The issue's story, end to end on the server.
    void relabelUnderAGangPreviewDryRunApplyUndo() {
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        QVERIFY(!m_page->writesAllowed()->isChecked());

        // Rack r3 relabelled into r4 strands the gang pinned to r3.
        QVERIFY(preview(QStringLiteral("--domain b2/r3"), QStringLiteral("example.com/rack=r4")));
        QCOMPARE(m_page->labelChanges()->rowCount(), 4);
        const QStringList risks = listed(m_page->risksList());
        QVERIFY2(anyContains(risks, QStringLiteral("Strands default/pinned")), qPrintable(risks.join(QLatin1Char('\n'))));
        QVERIFY(anyContains(risks, QStringLiteral("2 running pod(s)")));
        // The pod that asks for r3 by node affinity, read from the server's JSON, is stranded too.
        QVERIFY2(anyContains(risks, QStringLiteral("Strands default/affine (Job)")) &&
                     anyContains(risks, QStringLiteral("gpu-10 no longer matches the required node affinity example.com/rack In (r3, r5)")),
                 qPrintable(risks.join(QLatin1Char('\n'))));

        // The operator changes the plan: the rack keeps its name, its nodes get a maintenance label.
        m_page->operationsList()->setCurrentRow(0);
        m_page->removeOperation();
        QCOMPARE(m_page->operationsList()->count(), 0);
        QVERIFY(preview(QStringLiteral("--domain b2/r3"), QStringLiteral("topodeck.test/maintenance=2026-12-05")));
        QVERIFY(listed(m_page->risksList()).front().startsWith(QStringLiteral("No risk found")));
        QCOMPARE(m_page->labelChanges()->rowCount(), 4);

        // Writing is off: the dry run is there, the apply is not, and says why.
        QVERIFY(m_page->dryRunButton()->isEnabled());
        QVERIFY(!m_page->applyButton()->isEnabled());
        QVERIFY(m_page->applyButton()->toolTip().contains(QStringLiteral("Writes to context proxied are off")));
        QVERIFY(serverAnswer([&] { m_page->dryRunButton()->click(); }).contains(QStringLiteral("dry run passed")));
        QCOMPARE(labels(), m_original);

        m_page->writesAllowed()->setChecked(true);
        QVERIFY(m_page->applyButton()->isEnabled());
        QCOMPARE(m_page->applyButton()->text(), QStringLiteral("&Apply to context proxied"));
        const QString applied = serverAnswer([&] { m_page->applyButton()->click(); });
        QVERIFY2(applied.contains(QStringLiteral("Applied 4 label change(s) to context proxied")), qPrintable(applied));
        QCOMPARE(m_questions.size(), 1);
        QVERIFY(m_questions.front().contains(QStringLiteral("on 4 node(s) to context proxied")));
        LabelMap expected = m_original;
        for (int i = 9; i <= 12; ++i) expected[nodeName(i)]["topodeck.test/maintenance"] = "2026-12-05";
        QCOMPARE(labels(), expected);
        // The journal is on disk, and listed; the plan is done.
        QCOMPARE(m_page->journalList()->count(), 1);
        const QString journalFile = m_page->journalList()->item(0)->toolTip();
        QVERIFY(journalFile.startsWith(m_dir.filePath(QStringLiteral("journals"))));
        Result<std::string> text = readTextFile(journalFile.toStdString());
        QVERIFY(text.ok());
        Result<ChangeJournal> journal = readChangeJournal(*text, "journal");
        QVERIFY(journal.ok());
        QCOMPARE(journal->count(ChangeOutcome::Applied), std::size_t(4));
        QVERIFY(!journal->finished.empty());
        QCOMPARE(m_page->labelChanges()->rowCount(), 0);

        // Undo, once the watch has brought the change in: the reverse plan, previewed, applied.
        QVERIFY(waitForLabel("gpu-12", "topodeck.test/maintenance", "2026-12-05"));
        QSignalSpy shown(m_page.get(), &ChangesPage::previewShown);
        m_page->journalList()->setCurrentRow(0);
        m_page->undoButton()->click();
        QVERIFY(shown.wait(kWaitMs));
        QCOMPARE(m_page->labelChanges()->rowCount(), 4);
        QVERIFY(m_page->preview()->drift.empty());
        QCOMPARE(m_page->labelChanges()->index(0, 0).data(LabelChangesModel::KindRole).toString(), QStringLiteral("remove"));
        const QString undone = serverAnswer([&] { m_page->applyButton()->click(); });
        QVERIFY2(undone.contains(QStringLiteral("Applied 4 label change(s)")), qPrintable(undone));
        QCOMPARE(labels(), m_original);
        QCOMPARE(m_page->journalList()->count(), 2);
    }

    // A HyperNode change as the HyperNode editor hands it over: a new rack HyperNode for r3 under
    // hn-b2. Its diff on the Objects tab, the server's dry run changes nothing, the apply creates
    // and updates, and undo from the journal puts the tree back as it was.
    void hyperNodeEditPreviewDryRunApplyUndo() {
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        const std::string hyperNodes = "/apis/topology.volcano.sh/v1alpha1/hypernodes";
        const std::string original = hyperNodeSpecs(hyperNodes);
        HyperNode r3;
        r3.name = "hn-r3";
        r3.tier = 1;
        r3.tierName = "rack";
        for (int i = 9; i <= 12; ++i) {
            HyperNodeMember member;
            member.value = nodeName(i);
            r3.members.push_back(member);
        }
        HyperNode b2;
        b2.name = "hn-b2";
        b2.tier = 2;
        b2.tierName = "block";
        for (const char* child : {"hn-r3", "hn-r4"}) {
            HyperNodeMember member;
            member.type = HyperNodeMember::Type::HyperNode;
            member.value = child;
            b2.members.push_back(member);
        }
        std::vector<ObjectChange> changes(2);
        changes[0].kind = changes[1].kind = ObjectKind::HyperNode;
        changes[0].name = "hn-r3";
        changes[0].after = r3;
        changes[1].name = "hn-b2";
        changes[1].after = b2;
        QSignalSpy shown(m_page.get(), &ChangesPage::previewShown);
        m_page->previewObjectChanges({ObjectKind::HyperNode}, changes);
        QVERIFY(shown.wait(kWaitMs));
        const QString diff = m_page->objectsText()->toPlainText();
        QVERIFY2(diff.contains(QStringLiteral("create HyperNode hn-r3")) &&
                     diff.contains(QStringLiteral("update HyperNode hn-b2 (resourceVersion ")) &&
                     diff.contains(QStringLiteral(
                         "+   - {\"type\": \"HyperNode\", \"selector\": {\"exactMatch\": {\"name\": \"hn-r3\"}}}")),
                 qPrintable(diff));
        QVERIFY(serverAnswer([&] { m_page->dryRunButton()->click(); }).contains(QStringLiteral("dry run passed")));
        QCOMPARE(hyperNodeSpecs(hyperNodes), original);

        m_page->writesAllowed()->setChecked(true);
        const QString applied = serverAnswer([&] { m_page->applyButton()->click(); });
        QVERIFY2(applied.contains(QStringLiteral("Applied")), qPrintable(applied));
        QVERIFY(m_cluster->call("GET", hyperNodes + "/hn-r3")->status == 200);
        QVERIFY(hyperNodeSpecs(hyperNodes).find("hn-r3") != std::string::npos);

        // Undo, once the watch has brought the new HyperNode in.
        bool seen = false;
        for (int attempt = 0; attempt < 100 && !seen; ++attempt) {
            QSignalSpy objects(m_session.get(), &ClusterSession::topologyObjectsReady);
            m_session->requestTopologyObjects();
            QVERIFY(objects.wait(kWaitMs));
            const auto answer = objects.front().front().value<TopologyObjectsPtr>();
            seen = answer->objects.hyperNodes().contains("hn-r3");
            if (!seen) QTest::qWait(50);
        }
        QVERIFY(seen);
        m_page->journalList()->setCurrentRow(m_page->journalList()->count() - 1);
        m_page->undoButton()->click();
        QVERIFY(shown.wait(kWaitMs));
        QVERIFY2(m_page->objectsText()->toPlainText().contains(QStringLiteral("delete HyperNode hn-r3")),
                 qPrintable(m_page->objectsText()->toPlainText()));
        const QString undone = serverAnswer([&] { m_page->applyButton()->click(); });
        QVERIFY2(undone.contains(QStringLiteral("Applied")), qPrintable(undone));
        QCOMPARE(hyperNodeSpecs(hyperNodes), original);
    }

    // The cluster moved on between the preview and the apply: refused, nothing sent.
    void anEditSinceThePreviewIsRefused() {
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        QVERIFY(preview(QStringLiteral("-l example.com/rack=r1"), QStringLiteral("pool=cpu")));
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-02", R"({"metadata":{"labels":{"pool":"gpu-spare"}}})").ok());
        QVERIFY(waitForLabel("gpu-02", "pool", "gpu-spare"));
        const LabelMap edited = labels();
        m_page->writesAllowed()->setChecked(true);
        const QString answer = serverAnswer([&] { m_page->applyButton()->click(); });
        QVERIFY2(answer.contains(QStringLiteral("Nothing was sent")) && answer.contains(QStringLiteral("gpu-02")),
                 qPrintable(answer));
        QCOMPARE(labels(), edited);
        QCOMPARE(m_page->journalList()->count(), 0);
        // Previewed again, the plan finds the edit and the apply goes through.
        QSignalSpy shown(m_page.get(), &ChangesPage::previewShown);
        m_page->previewAgain();
        QVERIFY(shown.wait(kWaitMs));
        QVERIFY(serverAnswer([&] { m_page->applyButton()->click(); }).contains(QStringLiteral("Applied 4 label change(s)")));
        for (int i = 1; i <= 4; ++i) QCOMPARE(labels().at(nodeName(i)).at("pool"), std::string("cpu"));
    }

    // Cancel stops before the next batch: what went in is what the journal says went in.
    void cancelStopsBetweenBatches() {
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        m_page->setBatchSize(2);
        QVERIFY(preview(QStringLiteral("-l pool=gpu"), QStringLiteral("topodeck.test/wave=1")));
        QCOMPARE(m_page->labelChanges()->rowCount(), kNodes);
        m_page->writesAllowed()->setChecked(true);
        m_proxy->delayNext("PATCH /api/v1/nodes/", 300ms, 1000);
        QSignalSpy progressed(m_session.get(), &ClusterSession::applyProgressed);
        QSignalSpy done(m_page.get(), &ChangesPage::applyDone);
        m_page->applyButton()->click();
        QVERIFY(m_page->cancelButton()->isEnabled());
        QVERIFY(progressed.wait(kWaitMs));
        m_page->cancelButton()->click();
        QVERIFY(done.wait(kWaitMs));
        m_proxy->resume();
        const QString answer = m_page->serverAnswer()->toPlainText();
        QVERIFY2(answer.startsWith(QStringLiteral("Cancelled:")), qPrintable(answer));
        Result<std::string> text = readTextFile(m_page->journalList()->item(0)->toolTip().toStdString());
        QVERIFY(text.ok());
        Result<ChangeJournal> journal = readChangeJournal(*text, "journal");
        QVERIFY(journal.ok());
        const std::size_t went = journal->count(ChangeOutcome::Applied);
        QVERIFY2(went >= 2 && went < std::size_t(kNodes), qPrintable(QString::number(went)));
        QCOMPARE(journal->count(ChangeOutcome::NotAttempted), kNodes - went);
        const LabelMap now = labels();
        for (const JournalChange& entry : journal->changes)
            QCOMPARE(now.at(entry.change.node).contains("topodeck.test/wave"), entry.outcome == ChangeOutcome::Applied);
    }

    // A label that a controller set (its field manager in the node's managedFields) is flagged:
    // the controller is likely to put it back.
    void aLabelAControllerOwnsIsFlagged() {
        QVERIFY(m_cluster->patch("/api/v1/nodes/gpu-13?fieldManager=nfd-master",
                                 R"({"metadata":{"labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3"}}})")
                    .ok());
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        QVERIFY(waitForLabel("gpu-13", "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"));
        QVERIFY(preview(QStringLiteral("gpu-13 gpu-14"), QStringLiteral("nvidia.com/gpu.product=H100")));
        const QStringList risks = listed(m_page->risksList());
        QVERIFY2(anyContains(risks, QStringLiteral("Label nvidia.com/gpu.product on 1 node(s) is managed by nfd-master")),
                 qPrintable(risks.join(QLatin1Char('\n'))));
        QVERIFY(m_page->preview()->text.find("managed by nfd-master") != std::string::npos);
    }

    // A user who may read but not patch nodes: the server's dry run already says so, naming the
    // verb and the resource; writes allowed for one cluster stay off for another.
    void forbiddenAndWritesPerCluster() {
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        m_page->writesAllowed()->setChecked(true);
        QVERIFY(open(QStringLiteral("viewer"), m_viewerKubeconfig));
        QVERIFY(!m_page->writesAllowed()->isChecked());
        QVERIFY(preview(QStringLiteral("gpu-01 gpu-02"), QStringLiteral("pool=cpu")));
        const QString answer = serverAnswer([&] { m_page->dryRunButton()->click(); });
        QVERIFY2(answer.contains(QStringLiteral("refused 2 node(s)")) && answer.contains(QStringLiteral("forbidden")) &&
                     answer.contains(QStringLiteral("patch")) && answer.contains(QStringLiteral("nodes")),
                 qPrintable(answer));
        QCOMPARE(labels(), m_original);
        QVERIFY(open(QStringLiteral("proxied"), m_kubeconfig));
        QVERIFY(m_page->writesAllowed()->isChecked()); // remembered for this window
        QCOMPARE(m_page->operationsList()->count(), 0); // a plan is of the cluster it was made on
    }

private:
    // Every HyperNode's name and spec as the server holds them (no versions), one per line.
    std::string hyperNodeSpecs(const std::string& collection) {
        Result<HttpResponse> response = m_cluster->call("GET", collection);
        if (!response) return {};
        std::string out;
        for (const QJsonValue item : QJsonDocument::fromJson(QByteArray::fromStdString(response->body))
                                         .object()[QLatin1String("items")]
                                         .toArray())
            out += item[QLatin1String("metadata")][QLatin1String("name")].toString().toStdString() + " " +
                   QJsonDocument(item[QLatin1String("spec")].toObject()).toJson(QJsonDocument::Compact).toStdString() +
                   "\n";
        return out;
    }
    bool open(const QString& context, const QString& kubeconfig) {
        m_session->openKubernetes(context, kubeconfig);
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < kWaitMs) {
            const ClusterSnapshotPtr snapshot = m_session->latestSnapshot();
            if (snapshot && snapshot->status.health == SourceHealth::Live &&
                snapshot->status.sourceName == QStringLiteral("context ") + context)
                return true;
            QTest::qWait(20);
        }
        return false;
    }
    bool preview(const QString& nodes, const QString& edits) {
        QSignalSpy shown(m_page.get(), &ChangesPage::previewShown);
        m_page->targetEdit()->setText(nodes);
        m_page->labelsEdit()->setText(edits);
        if (!m_page->addOperation()) return false;
        return shown.wait(kWaitMs);
    }
    // Runs `act` (a dry run or an apply) and returns what the page shows of the server's answer.
    QString serverAnswer(const std::function<void()>& act) {
        QSignalSpy done(m_page.get(), &ChangesPage::applyDone);
        act();
        if (!done.wait(kWaitMs)) return QStringLiteral("(no answer)");
        return m_page->serverAnswer()->toPlainText();
    }
    bool waitForLabel(const std::string& node, const std::string& key, const std::string& value) {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < kWaitMs) {
            if (const ClusterSnapshotPtr snapshot = m_session->latestSnapshot())
                for (const std::shared_ptr<const Node>& found : snapshot->nodes)
                    if (found && found->name == node && found->label(key) && *found->label(key) == value)
                        return true;
            QTest::qWait(20);
        }
        return false;
    }

    LabelMap labels() { return serverNodeLabels(*m_cluster); }
    bool restoreOriginal() { return restoreNodeLabels(*m_cluster, m_original); }

    std::unique_ptr<KubeTestCluster> m_cluster;
    std::unique_ptr<FaultProxy> m_proxy;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    QString m_viewerKubeconfig;
    LabelMap m_original;
    std::unique_ptr<ClusterSession> m_session;
    std::unique_ptr<ChangesPage> m_page;
    QStringList m_questions;
};

TOPODECK_TEST_MAIN(TestKubeChanges)
#include "test_kube_changes.moc"
