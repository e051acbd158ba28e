// The changes page on the gb200 demo, from the keyboard: a rack selected on the tree and
// Changes › Edit Labels (Ctrl+Shift+L) names it; a relabel that merges it into its neighbour is
// previewed off the GUI thread (the label diff, the hierarchy's diff, the risks, the planner's gang
// before and after) and outlined on the map; a demo takes no apply and says why; bad nodes and
// labels are refused naming what is wrong and leave the plan as it was; a plan saves and reopens
// with its preconditions; a journal's undo is previewed as the reverse plan. The same page
// against a real kube-apiserver (dry run, apply, cancel, undo, drift, 403) is
// integration.test_kube_changes. The page is built alone on a session, as MainWindow builds it,
// but for the selected rack's relabel, which goes through the window's tree, action and map.
#include "app/gui/main_window.h"
#include "core/changes/change_journal.h"
#include "core/changes/change_plan_file.h"
#include "core/text/text_file.h"
#include "models/label_changes_model.h"
#include "views/map/topology_map_view.h"
#include "views/pages/changes_page.h"
#include "views/pages/planner_panel.h"

#include "gui_test_window.h"
#include "page_on_session.h"
#include "widget_text.h"
#include "support/test_program.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <optional>

using namespace topodeck;
using topodeck::testing::anyContains;
using topodeck::testing::listed;

namespace {

constexpr const char* kRackLabel = "fabric.topograph.run/tier-0";

// Where TOPODECK_SCREENSHOT_DIR is set, the window as the operator sees it.
void saveScreenshot(QWidget* window, const char* name) {
    const QString dir = qEnvironmentVariable("TOPODECK_SCREENSHOT_DIR");
    if (!dir.isEmpty()) window->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

// The map outlines the nodes the page's plan changes, as MainWindow wires the two.
void outlineOnMap(ChangesPage* page, TopologyMapView* map) {
    QObject::connect(page, &ChangesPage::nodesChanged, map,
                     [map](const std::vector<NodeId>& nodes, const QString& meaning) {
                         std::vector<std::pair<NodeId, std::int32_t>> outline;
                         for (NodeId id : nodes) outline.emplace_back(id, 0);
                         map->setHighlight(outline, meaning);
                     });
}

} // namespace

class TestChangesPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() {
        m_page = nullptr;
        m_window.reset();
        m_onDemo.reset();
    }

    // The story up to the apply, on a demo: a rack relabelled into its neighbour.
    // On the window: the tree's selection, Edit Labels, the planner's gang and the map are its wiring.
    void relabelOfASelectedRackIsPreviewed() {
        QVERIFY(buildWindow());
        m_window->plannerPanel()->setFlags(QStringLiteral("--pods 16 --request nvidia.com/gpu=4 --required rack"));
        QVERIFY(m_window->selectPath(QStringLiteral("su-1/rack-1-03")));
        m_window->treeView()->setFocus();
        QTest::keyClick(m_window->treeView(), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(m_page->isVisible());
        QCOMPARE(m_page->targetEdit()->text(), QStringLiteral("--domain su-1/rack-1-03"));
        QVERIFY(m_page->labelsEdit()->hasFocus());

        QSignalSpy shown(m_page, &ChangesPage::previewShown);
        QTest::keyClicks(m_page->labelsEdit(), QString::fromLatin1(kRackLabel) + QStringLiteral("=rack-1-02"));
        QTest::keyClick(m_page->labelsEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(30000));
        QCOMPARE(listed(m_page->operationsList()),
                 QStringList{QStringLiteral("--domain su-1/rack-1-03: fabric.topograph.run/tier-0=rack-1-02")});

        // One row per node of the rack, from rack-1-03 to rack-1-02; the map outlines those nodes.
        const ClusterSnapshotPtr& snapshot = m_window->shownSnapshot();
        auto rack = findDomainByName(snapshot->index, "su-1/rack-1-03", "test");
        QVERIFY(rack.ok());
        const std::size_t rackNodes = snapshot->index.domain(*rack).nodes.size();
        QVERIFY(rackNodes > 0);
        LabelChangesModel* model = m_page->labelChanges();
        QCOMPARE(std::size_t(model->rowCount()), rackNodes);
        for (int row = 0; row < model->rowCount(); ++row) {
            QCOMPARE(model->index(row, LabelChangesModel::KeyColumn).data().toString(), QString::fromLatin1(kRackLabel));
            QCOMPARE(model->index(row, LabelChangesModel::BeforeColumn).data().toString(), QStringLiteral("rack-1-03"));
            QCOMPARE(model->index(row, LabelChangesModel::AfterColumn).data().toString(), QStringLiteral("rack-1-02"));
            QCOMPARE(model->index(row, 0).data(LabelChangesModel::KindRole).toString(), QStringLiteral("change"));
        }
        QCOMPARE(m_window->mapView()->highlight().size(), rackNodes);
        QVERIFY(m_window->mapView()->highlightCaption().contains(QStringLiteral("changed by the plan")));

        // The hierarchy: the rack goes, its neighbour takes its nodes.
        const ChangePreviewPtr& preview = m_page->preview();
        QCOMPARE(preview->diff.domainsRemoved, std::vector<std::string>{"su-1/rack-1-03"});
        QCOMPARE(preview->diff.moved.size(), rackNodes);
        QVERIFY(preview->text.find("su-1/rack-1-03") != std::string::npos);
        const QStringList risks = listed(m_page->risksList());
        QVERIFY2(anyContains(risks, QStringLiteral("merged: su-1/rack-1-02")), qPrintable(risks.join(QLatin1Char('\n'))));

        // The planner's gang, under every engine, now and after.
        QTableWidget* gang = m_page->gangTable();
        QVERIFY(gang->rowCount() >= 5);
        for (int row = 0; row < gang->rowCount(); ++row) {
            QVERIFY(!gang->item(row, ChangesPage::EngineColumn)->text().isEmpty());
            QVERIFY(!gang->item(row, ChangesPage::BeforeColumn)->text().isEmpty());
        }
        QVERIFY(preview->gang && preview->gang->afterOf("kueue-tas"));
        saveScreenshot(m_window.get(), "changes-labels");
        for (const char* tab : {"topology", "risks", "gang"}) {
            m_page->previewTabs()->setCurrentIndex(m_page->previewTabs()->currentIndex() + 1);
            saveScreenshot(m_window.get(), (std::string("changes-") + tab).c_str());
        }

        // A demo has no API server: previewed, never applied, and the page says so.
        QVERIFY(!m_page->applyButton()->isEnabled());
        QVERIFY(!m_page->dryRunButton()->isEnabled());
        QVERIFY(!m_page->writesAllowed()->isEnabled());
        QVERIFY(m_page->applyButton()->toolTip().contains(QStringLiteral("demo")));
        QVERIFY2(m_page->statusText().contains(QStringLiteral("on %1 node").arg(rackNodes)), qPrintable(m_page->statusText()));
    }

    // A relabel that takes every node out of Kueue TAS capacity: the gang that fits now does not
    // after, and the risks say both.
    void aGangThatNoLongerFitsIsARisk() {
        QVERIFY(buildPage());
        // The gang is the planner's flags, as the window provides them.
        m_page->setGangFlagsProvider(
            [] { return QStringLiteral("--pods 4 --request nvidia.com/gpu=4 --required rack --engine kueue-tas"); });
        QSignalSpy shown(m_page, &ChangesPage::previewShown);
        m_page->targetEdit()->setText(QStringLiteral("-l ") + QString::fromLatin1(kRackLabel));
        m_page->labelsEdit()->setText(QString::fromLatin1(kRackLabel) + QLatin1Char('-'));
        QVERIFY(m_page->addOperation());
        QVERIFY(shown.wait(30000));
        const ChangePreviewPtr& preview = m_page->preview();
        QVERIFY(preview->gang);
        QCOMPARE(preview->gang->before.size(), std::size_t(1));
        QVERIFY(preview->gang->before[0].feasible);
        QVERIFY(!preview->gang->afterOf("kueue-tas")->feasible);
        const QStringList risks = listed(m_page->risksList());
        QVERIFY(anyContains(risks, QStringLiteral("fits now under kueue-tas and would not after")));
        QVERIFY(anyContains(risks, QStringLiteral("leave Kueue TAS capacity")));
        QVERIFY(m_page->gangTable()->item(0, ChangesPage::AfterColumn)->text().startsWith(QStringLiteral("does not fit")));
        QCOMPARE(m_page->labelChanges()->index(0, 0).data(LabelChangesModel::KindRole).toString(), QStringLiteral("remove"));
    }

    // Bad nodes and labels are refused before anything is asked; a domain that is not there is
    // refused by the worker, and the plan stays as it was.
    void badInputIsRefusedAndThePlanKept() {
        QVERIFY(buildPage());
        QSignalSpy shown(m_page, &ChangesPage::previewShown);
        m_page->targetEdit()->setText(QStringLiteral("--domain su-1/rack-1-01"));
        m_page->labelsEdit()->setText(QStringLiteral("topodeck.io/maintenance=window-1"));
        QVERIFY(m_page->addOperation());
        QVERIFY(shown.wait(30000));
        const std::size_t changes = m_page->preview()->plan.labelChanges.size();

        const std::pair<QString, QString> refused[] = {
            {QStringLiteral("--bogus"), QStringLiteral("unknown flag --bogus")},
            {QStringLiteral("-l"), QStringLiteral("-l needs a value")},
            {QStringLiteral("-l a=b -l c=d"), QStringLiteral("given twice")},
            {QString(), QStringLiteral("name the nodes")},
            {QStringLiteral("'unclosed"), QStringLiteral("Nodes:")},
        };
        for (const auto& [target, why] : refused) {
            m_page->targetEdit()->setText(target);
            m_page->labelsEdit()->setText(QStringLiteral("a=b"));
            QVERIFY(!m_page->addOperation());
            QVERIFY2(m_page->statusText().contains(why), qPrintable(target + QStringLiteral(": ") + m_page->statusText()));
        }
        const QString badLabels[] = {QStringLiteral("a=b a-"), QStringLiteral("-bad=x"),
                                     QStringLiteral("k=") + QString(64, QLatin1Char('v')), QString()};
        for (const QString& labels : badLabels) {
            m_page->targetEdit()->setText(QStringLiteral("--domain su-1/rack-1-01"));
            m_page->labelsEdit()->setText(labels);
            QVERIFY2(!m_page->addOperation(), qPrintable(labels));
            QVERIFY2(m_page->statusText().startsWith(QStringLiteral("Labels:")), qPrintable(labels + QStringLiteral(": ") + m_page->statusText()));
        }
        QCOMPARE(m_page->operationsList()->count(), 1);

        m_page->targetEdit()->setText(QStringLiteral("--domain su-9/rack-9-99"));
        m_page->labelsEdit()->setText(QStringLiteral("a=b"));
        QVERIFY(m_page->addOperation());
        QTRY_VERIFY_WITH_TIMEOUT(m_page->statusText().startsWith(QStringLiteral("Not previewed")), 30000);
        QVERIFY(m_page->statusText().contains(QStringLiteral("su-9/rack-9-99")));
        QCOMPARE(m_page->operationsList()->count(), 1); // dropped again
        QCOMPARE(m_page->preview()->plan.labelChanges.size(), changes);
    }

    // Saved, the plan reads back with the values it found; opened, it keeps them; a journal's
    // undo is the applied changes reversed, and nothing is added to a plan that came from a file.
    void plansSaveAndReopenAndJournalsUndo() {
        QVERIFY(buildPage());
        TopologyMapView map;
        outlineOnMap(m_page, &map);
        QTemporaryDir dir;
        QSignalSpy shown(m_page, &ChangesPage::previewShown);
        m_page->targetEdit()->setText(QStringLiteral("--domain su-1/rack-1-02"));
        m_page->labelsEdit()->setText(QStringLiteral("topodeck.io/maintenance=window-1"));
        QVERIFY(m_page->addOperation());
        QVERIFY(shown.wait(30000));
        const ChangePlan made = m_page->preview()->plan;
        QVERIFY(!made.labelChanges.empty());

        const QString planFile = dir.filePath(QStringLiteral("plan.yaml"));
        m_page->savePlan(planFile);
        QVERIFY(shown.wait(30000));
        QVERIFY(m_page->statusText().contains(QStringLiteral("Saved to")));
        Result<std::string> text = readTextFile(planFile.toStdString());
        QVERIFY(text.ok());
        Result<ChangePlan> read = readChangePlan(*text, "plan.yaml");
        QVERIFY(read.ok());
        QCOMPARE(read->labelChanges, made.labelChanges);
        QCOMPARE(read->operations, made.operations);

        m_page->clearPlan();
        QCOMPARE(m_page->labelChanges()->rowCount(), 0);
        QVERIFY(map.highlight().empty());
        m_page->openPlan(planFile);
        QVERIFY(shown.wait(30000));
        QCOMPARE(m_page->preview()->plan.labelChanges, made.labelChanges);

        // A journal of an apply of which two changes went in and one was refused.
        ChangeJournal journal;
        journal.plan = "maintenance";
        journal.cluster = "context prod";
        journal.fieldManager = "topodeck";
        journal.started = "2026-12-01T10:00:00Z";
        journal.finished = "2026-12-01T10:00:02Z";
        for (std::size_t i = 0; i < 3; ++i) {
            LabelChange change = made.labelChanges[i];
            journal.changes.push_back({change, i < 2 ? ChangeOutcome::Applied : ChangeOutcome::Conflict, i < 2 ? "" : "422"});
        }
        const QString journalFile = dir.filePath(QStringLiteral("maintenance.journal.yaml"));
        QVERIFY(writeFileAtomically(journalFile.toStdString(), writeChangeJournal(journal)).ok());
        m_page->openJournal(journalFile);
        QVERIFY(shown.wait(30000));
        const ChangePlan& undo = m_page->preview()->plan;
        QCOMPARE(undo.labelChanges.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(undo.labelChanges[i].node, made.labelChanges[i].node);
            QCOMPARE(undo.labelChanges[i].before, made.labelChanges[i].after);
            QCOMPARE(undo.labelChanges[i].after, made.labelChanges[i].before);
        }
        // The demo never carried the label, so the undo's precondition does not hold: drift.
        QCOMPARE(m_page->preview()->drift.size(), std::size_t(2));
        QVERIFY(anyContains(listed(m_page->risksList()), QStringLiteral("Drift:")));
        m_page->targetEdit()->setText(QStringLiteral("--domain su-1/rack-1-01"));
        m_page->labelsEdit()->setText(QStringLiteral("a=b"));
        QVERIFY(!m_page->addOperation());
        QVERIFY(m_page->statusText().contains(QStringLiteral("Clear it")));

        m_page->openJournal(dir.filePath(QStringLiteral("missing.journal.yaml")));
        QTRY_VERIFY_WITH_TIMEOUT(m_page->statusText().startsWith(QStringLiteral("Not previewed")), 30000);
        QVERIFY(m_page->statusText().contains(QStringLiteral("missing.journal.yaml")));
    }

    // The relabel generator from the keyboard: the demo's hierarchy onto new keys, the old ones
    // removed. Every node gets both new labels and loses both old ones; the preview says the new
    // keys give the same tree, and that the levels read today lose every node. A key short is
    // refused by the levels' names, and the plan is kept.
    void relabelFromTheHierarchyShown() {
        QVERIFY(buildPage());
        QVERIFY(testing::showWithKeyboard(*m_page)); // where showPage("changes") leaves the window's
        QSignalSpy shown(m_page, &ChangesPage::previewShown);
        m_page->relabelKeysEdit()->setFocus();
        QTest::keyClicks(m_page->relabelKeysEdit(), QStringLiteral("example.com/su,example.com/rack"));
        QTest::keyClicks(m_page->relabelRemoveEdit(), QStringLiteral("fabric.topograph.run/*"));
        QTest::keyClick(m_page->relabelRemoveEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(30000));
        const auto nodes = std::size_t(m_onDemo->session()->latestSnapshot()->index.root().totals.nodesTotal);
        QCOMPARE(std::size_t(m_page->labelChanges()->rowCount()), 4 * nodes);
        const ChangePreviewPtr& preview = m_page->preview();
        QVERIFY(preview->relabelFaithful);
        QVERIFY2(preview->text.find("place every node where the demo hierarchy does") != std::string::npos, preview->text.c_str());
        QCOMPARE(preview->diff.leftLevelCapacity.size(), nodes);
        QVERIFY(m_page->operationsList()->count() > 1); // one per rack
        saveScreenshot(m_page, "changes-relabel");

        const std::size_t changes = preview->plan.labelChanges.size();
        m_page->relabelKeysEdit()->setText(QStringLiteral("example.com/rack"));
        QTest::keyClick(m_page->relabelKeysEdit(), Qt::Key_Return);
        QTRY_VERIFY2_WITH_TIMEOUT(m_page->statusText().contains(QStringLiteral("it has 2 (su, rack)")),
                                  qPrintable(m_page->statusText()), 30000);
        QCOMPARE(m_page->preview()->plan.labelChanges.size(), changes);
    }

private:
    // What a function builds first: the page alone on a session showing the demo, or the whole window.
    bool buildPage() {
        m_onDemo.emplace();
        m_page = m_onDemo->page();
        return m_page;
    }
    bool buildWindow() {
        m_window = testing::shownDemoWindow();
        m_page = m_window ? m_window->changesPage() : nullptr;
        return m_page;
    }

    std::optional<testing::PageOnDemo<ChangesPage>> m_onDemo;
    std::unique_ptr<MainWindow> m_window;
    ChangesPage* m_page = nullptr;
};

TOPODECK_TEST_MAIN(TestChangesPage)
#include "test_changes_page.moc"
