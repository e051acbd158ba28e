// The topology object editors, offscreen. Changes › Edit HyperNodes… on the gb200 demo (which has
// no HyperNodes) starts from the hierarchy shown; a node moved to another rack there becomes part
// of the HyperNodes created, and Preview Changes shows them on the Changes page. On a snapshot
// with HyperNodes a move is an update of both parents, with its object diff. Changes › Edit
// Topology Levels… makes a new Kueue Topology from the nodes' label keys (a create), and a
// changed level list of an existing one is an update the preview refuses (levels are immutable).
// The editors and the Changes page are built on a session as MainWindow builds them, but for the
// first story, which goes through the window's menu to the Changes page it raises.
#include "app/gui/main_window.h"
#include "models/hypernode_tree_model.h"
#include "views/chrome/object_editors.h"
#include "views/chrome/palette_entries.h"
#include "views/dialogs/hypernode_editor.h"
#include "views/dialogs/topology_editor.h"
#include "views/pages/changes_page.h"

#include "gui_test_window.h"
#include "page_on_session.h"
#include "widget_text.h"
#include "support/test_program.h"

#include <QComboBox>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace topodeck;

namespace {

void saveScreenshot(QWidget* widget, const char* name) {
    const QString dir = qEnvironmentVariable("TOPODECK_SCREENSHOT_DIR");
    if (!dir.isEmpty()) widget->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

QAction* actionCalled(const QList<QAction*>& actions, const QString& text) {
    for (QAction* action : actions)
        if (action->text() == text) return action;
    return nullptr;
}

// The Changes page and the object editors on a session, as MainWindow's buildChanges makes them:
// the editors' actions in the Changes menu, an editor's Preview Changes to the page. No page when
// the session showed nothing in time.
class EditorsOnSession {
public:
    explicit EditorsOnSession(std::unique_ptr<ClusterSession> shown) : m_session(std::move(shown)) {
        if (!m_session) return;
        m_page = std::make_unique<ChangesPage>(m_session.get());
        m_editors = new ObjectEditors(m_session.get(), m_page.get()); // the dialogs' parent, as the window is
        m_editors->addToMenu(&m_changesMenu);
        QObject::connect(m_editors, &ObjectEditors::previewRequested, m_page.get(), &ChangesPage::previewObjectChanges);
    }

    ChangesPage* page() const { return m_page.get(); }
    ObjectEditors* editors() const { return m_editors; }
    QAction* menuAction(const QString& text) const { return actionCalled(m_changesMenu.actions(), text); }

private:
    std::unique_ptr<ClusterSession> m_session;
    std::unique_ptr<ChangesPage> m_page; // after the session: destroyed before it
    ObjectEditors* m_editors = nullptr;  // the page's
    QMenu m_changesMenu;
};

bool previewed(ChangesPage* page, const std::function<void()>& trigger) {
    QSignalSpy shown(page, &ChangesPage::previewShown);
    trigger();
    return shown.wait(30000);
}

} // namespace

class TestObjectEditors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // On the window: its Changes menu opens the editor, and the preview raises its Changes page.
    void hyperNodesFromTheHierarchyOnTheDemo() {
        auto window = testing::shownDemoWindow();
        QVERIFY(window);
        QAction* action = actionCalled(menuBarActions(window->menuBar()), QStringLiteral("Edit &HyperNodes…"));
        QVERIFY(action);
        action->trigger();
        HyperNodeEditor* editor = window->showHyperNodeEditor();
        QVERIFY(editor->isVisible());
        if (!editor->hasObjects()) {
            QSignalSpy objects(editor, &HyperNodeEditor::objectsShown);
            QVERIFY(objects.wait(30000));
        }
        QCOMPARE(editor->model()->rowCount(), 0); // the demo has none
        QVERIFY(editor->fromHierarchyButton()->isEnabled());
        QTest::mouseClick(editor->fromHierarchyButton(), Qt::LeftButton);
        QVERIFY(editor->model()->rowCount() > 0);
        const std::size_t created = editor->model()->edits().hyperNodes().size();

        // The first rack's first node, moved to the second rack of its parent.
        const HyperNode* rack = nullptr;
        const HyperNode* otherRack = nullptr;
        for (const HyperNode& hyperNode : editor->model()->edits().hyperNodes())
            if (!hyperNode.members.empty() && hyperNode.members.front().type == HyperNodeMember::Type::Node)
                (rack ? otherRack : rack) = &hyperNode;
        QVERIFY(rack && otherRack);
        const QString node = QString::fromStdString(rack->members.front().value);
        const QString from = QString::fromStdString(rack->name);
        const QString to = QString::fromStdString(otherRack->name);
        const QModelIndex nodeIndex = editor->model()->indexOf(HyperNodeTreeModel::ItemKind::Node, node);
        QVERIFY(nodeIndex.isValid());
        editor->treeView()->setCurrentIndex(nodeIndex);
        QVERIFY2(editor->moveSelectedTo(to), qPrintable(editor->statusText()));
        editor->treeView()->setCurrentIndex(editor->model()->indexOf(HyperNodeTreeModel::ItemKind::Node, node));
        saveScreenshot(editor, "hypernode-editor-gb200");

        const std::vector<ObjectChange> changes = editor->changes();
        QCOMPARE(changes.size(), created); // each one a create
        bool moved = false;
        for (const ObjectChange& change : changes) {
            QCOMPARE(change.action(), ObjectChange::Action::Create);
            const auto& members = std::get<HyperNode>(*change.after).members;
            const bool lists = std::any_of(members.begin(), members.end(),
                                           [&](const HyperNodeMember& m) { return m.value == node.toStdString(); });
            if (change.name == to.toStdString()) moved = lists;
            if (change.name == from.toStdString()) QVERIFY(!lists);
        }
        QVERIFY(moved);

        ChangesPage* page = window->changesPage();
        QVERIFY(previewed(page, [&] { QTest::mouseClick(editor->previewButton(), Qt::LeftButton); }));
        QVERIFY(page->isVisible());
        QVERIFY(page->preview());
        QCOMPARE(page->preview()->plan.objectChanges.size(), created);
        QVERIFY(page->objectsText()->toPlainText().contains(QStringLiteral("create HyperNode ") + to));
        QVERIFY(page->topologyText()->toPlainText().contains(QStringLiteral("Objects:")));
        QVERIFY(page->statusText().contains(QStringLiteral("object change")));
        QVERIFY(page->operationsList()->count() >= int(created));
        saveScreenshot(window.get(), "hypernode-preview-gb200");
    }

    void aMoveUpdatesBothParents() {
        EditorsOnSession onFile(
            testing::fileSession(QStringLiteral(TOPODECK_TEST_DATA_DIR "/volcano/hypernodes.yaml")));
        QVERIFY(onFile.page());
        HyperNodeEditor* editor = onFile.editors()->showHyperNodeEditor();
        QSignalSpy objects(editor, &HyperNodeEditor::objectsShown);
        QVERIFY(objects.wait(30000));
        QVERIFY(editor->model()->rowCount() > 0);
        const QModelIndex a1 = editor->model()->indexOf(HyperNodeTreeModel::ItemKind::Node, QStringLiteral("gpu-a1"));
        QVERIFY(a1.isValid());
        QCOMPARE(a1.data(HyperNodeTreeModel::ParentNameRole).toString(), QStringLiteral("s0"));
        editor->treeView()->setCurrentIndex(a1);
        QVERIFY2(editor->moveSelectedTo(QStringLiteral("s1")), qPrintable(editor->statusText()));
        QVERIFY(editor->renameTier(1, QStringLiteral("rack")));
        const std::vector<ObjectChange> changes = editor->changes();
        QVERIFY(changes.size() >= 2);
        for (const ObjectChange& change : changes) QCOMPARE(change.action(), ObjectChange::Action::Update);
        ChangesPage* page = onFile.page();
        QVERIFY(previewed(page, [&] { editor->previewChanges(); }));
        const QString diff = page->objectsText()->toPlainText();
        QVERIFY2(diff.contains(QStringLiteral("update HyperNode s0")), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("update HyperNode s1")), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("gpu-a1")), qPrintable(diff));
        // Undo, and the copy is the cluster's again: nothing to preview.
        QVERIFY(editor->model()->undo());
        QVERIFY(editor->model()->undo());
        QVERIFY(editor->changes().empty());
    }

    void aNewKueueTopologyOnTheDemo() {
        EditorsOnSession onDemo(testing::demoSession());
        QVERIFY(onDemo.page());
        QAction* action = onDemo.menuAction(QStringLiteral("Edit &Topology Levels…"));
        QVERIFY(action);
        TopologyEditor* editor = onDemo.editors()->showTopologyEditor();
        if (!editor->hasObjects()) {
            QSignalSpy objects(editor, &TopologyEditor::objectsShown);
            QVERIFY(objects.wait(30000));
        }
        editor->choose(false, QStringLiteral("gb200-tas"));
        QVERIFY(editor->keyBox()->count() > 0); // the nodes' label keys
        editor->setLevels({});
        QVERIFY(editor->addLevel(QStringLiteral("fabric.topograph.run/tier-0")));
        QVERIFY(editor->addLevel(QStringLiteral("fabric.topograph.run/tier-1")));
        QVERIFY(!editor->addLevel(QStringLiteral("fabric.topograph.run/tier-1")));
        QVERIFY(editor->addLevel(QStringLiteral("kubernetes.io/hostname")));
        editor->levelList()->setCurrentRow(1);
        editor->moveSelectedLevel(-1); // tier-1 above tier-0
        QCOMPARE(editor->levels(), (QStringList{QStringLiteral("fabric.topograph.run/tier-1"),
                                                QStringLiteral("fabric.topograph.run/tier-0"),
                                                QStringLiteral("kubernetes.io/hostname")}));
        editor->setFlavor(QStringLiteral("gb200"), QStringLiteral("pool=gb200"));
        saveScreenshot(editor, "topology-editor-gb200");
        const std::vector<ObjectChange> changes = editor->changes();
        QCOMPARE(changes.size(), std::size_t(2));
        QCOMPARE(changes[0].describe(), std::string("create Kueue Topology gb200-tas"));
        QCOMPARE(std::get<TopologySpec>(*changes[0].after).levels.front().nodeLabel,
                 std::string("fabric.topograph.run/tier-1"));
        QCOMPARE(changes[1].describe(), std::string("create ResourceFlavor gb200"));

        ChangesPage* page = onDemo.page();
        QVERIFY(previewed(page, [&] { QTest::mouseClick(editor->previewButton(), Qt::LeftButton); }));
        const QString diff = page->objectsText()->toPlainText();
        QVERIFY2(diff.contains(QStringLiteral("create Kueue Topology gb200-tas")), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("fabric.topograph.run/tier-1")), qPrintable(diff));
        QCOMPARE(page->preview()->plan.objectChanges.size(), std::size_t(2));
    }

    void changedLevelsOfAnExistingTopologyAreRefused() {
        EditorsOnSession onFile(testing::fileSession(QStringLiteral(TOPODECK_TEST_DATA_DIR "/reader-cluster.yaml")));
        QVERIFY(onFile.page());
        TopologyEditor* editor = onFile.editors()->showTopologyEditor();
        QSignalSpy objects(editor, &TopologyEditor::objectsShown);
        QVERIFY(objects.wait(30000));
        editor->choose(false, QStringLiteral("default"));
        QCOMPARE(editor->levels().size(), 3);
        // The two upper levels swapped. (Removing one trips diffTopology on a spec of another depth:
        // a core bug, reported, not this editor's.)
        editor->levelList()->setCurrentRow(0);
        editor->moveSelectedLevel(1);
        const std::vector<ObjectChange> changes = editor->changes();
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].describe(), std::string("update Kueue Topology default"));
        ChangesPage* page = onFile.page();
        QVERIFY(previewed(page, [&] { editor->previewChanges(); }));
        QVERIFY(!page->preview()->diff.objectProblems.empty());
        QVERIFY(testing::anyContains(testing::listed(page->risksList()), QStringLiteral("Refused")));
        QVERIFY(!page->dryRunButton()->isEnabled());
    }
};

TOPODECK_TEST_MAIN(TestObjectEditors)
#include "test_object_editors.moc"
