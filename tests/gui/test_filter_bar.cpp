// The filter bar, driven from the keyboard: a label selector narrows the tree to the matching
// nodes and the domains above them and dims the rest of the map; text that does not parse shows
// its error and leaves the last valid filter in effect; Esc clears it; live updates keep it. The
// tree pane (the bar over the tree) and the map are built on a session as MainWindow builds and
// feeds them; what the window adds (its shortcut, the map following the tree's selection) is
// tested on the window.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "models/topology_filter_model.h"
#include "models/topology_tree_model.h"
#include "session/cluster_session.h"
#include "views/chrome/filter_bar.h"
#include "views/chrome/tree_pane.h"
#include "views/map/occupancy_palette.h"
#include "views/map/topology_map_view.h"

#include "page_on_session.h"
#include "support/test_program.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace topodeck;

namespace {

// Two racks of the gb200 demo (4 SUs x 8 racks x 18 nodes): 36 nodes under su-1 and su-3.
const QString kTwoRacks = QStringLiteral("fabric.topograph.run/tier-0 in (rack-1-02, rack-3-05)");

std::size_t kept(const std::shared_ptr<const NodeMask>& mask) {
    return mask ? std::size_t(std::count(mask->begin(), mask->end(), 1)) : 0;
}

QStringList rowNames(const QAbstractItemModel* model, const QModelIndex& parent = {}) {
    QStringList names;
    for (int row = 0; row < model->rowCount(parent); ++row) names << model->index(row, 0, parent).data().toString();
    return names;
}

// The tree pane beside the map, as MainWindow's buildPages lays them out and connects them, each
// snapshot the session publishes shown on both as showSnapshot shows it.
class TreeAndMap : public QWidget {
public:
    explicit TreeAndMap(ClusterSession* session) : pane(new TreePane(this)), map(new TopologyMapView(this)) {
        auto* layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(pane);
        layout->addWidget(map, 1);
        connect(pane, &TreePane::nodeFilterChanged, map, &TopologyMapView::setNodeFilter);
        connect(session, &ClusterSession::snapshotPublished, this, &TreeAndMap::showSnapshot);
        showSnapshot(session->latestSnapshot());
        pane->expandForNewCluster();
    }

    void showSnapshot(const ClusterSnapshotPtr& snapshot) {
        pane->setSnapshot(snapshot);
        map->setSnapshot(snapshot);
        pane->applyNodeFilter(); // after the map has the snapshot: the filter's mask goes to it
    }

    TreePane* const pane;
    TopologyMapView* const map;
};

} // namespace

class TestFilterBar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() {
        delete m_window;
        m_window = nullptr;
        m_views.reset();
        m_session.reset();
    }

    void typedSelectorFiltersTreeAndDimsMap() {
        QVERIFY(buildViews());
        FilterBar* bar = m_views->pane->filterBar();
        const QAbstractItemModel* tree = m_views->pane->view()->model();
        QCOMPARE(rowNames(tree), (QStringList{QStringLiteral("su-1"), QStringLiteral("su-2"), QStringLiteral("su-3"),
                                              QStringLiteral("su-4")}));

        bar->focusFilter(); // what the window's Ctrl+L does (shortcutIsListedInTheMenus finds it there)
        QTRY_COMPARE(QApplication::focusWidget(), bar->lineEdit());
        QTest::keyClicks(bar->lineEdit(), kTwoRacks);
        QVERIFY2(!bar->selector(), "applied only after the pause");
        QTRY_VERIFY(bar->selector() != nullptr);

        QCOMPARE(rowNames(tree), (QStringList{QStringLiteral("su-1"), QStringLiteral("su-3")}));
        const QModelIndex su1 = tree->index(0, 0);
        QCOMPARE(rowNames(tree, su1), QStringList{QStringLiteral("rack-1-02")});
        const QModelIndex rack = tree->index(0, 0, su1);
        QCOMPARE(tree->rowCount(rack), 18);
        QVERIFY(tree->index(0, 0, rack).data(TopologyTreeModel::IsNodeRole).toBool());
        // Domains keep their own figures: the rack's 18 nodes, su-1's 8 racks' worth.
        QCOMPARE(tree->index(0, 0).data(TopologyTreeModel::GpusTotalRole).toLongLong(), 8 * 18 * 4);

        TopologyMapView* map = m_views->map;
        QCOMPARE(map->nodeFilter(), m_views->pane->filterModel()->nodeMask());
        QCOMPARE(kept(map->nodeFilter()), std::size_t(36));
        QCOMPARE(map->filterCaption(), QStringLiteral("Filter: 36 of 576 nodes"));
    }

    void mapDrawsExcludedNodesDimmed() {
        QVERIFY(buildViews());
        TopologyMapView* map = m_views->map;
        const ClusterSnapshot& snapshot = *m_session->latestSnapshot();
        const DomainId su1 = snapshot.index.findChild(kRootDomain, "su-1");
        const NodeId keptNode = snapshot.index.domain(snapshot.index.findChild(su1, "rack-1-02")).nodes.front();
        const NodeId leftOut = snapshot.index.domain(snapshot.index.findChild(su1, "rack-1-05")).nodes.front();
        auto pixelAt = [map](NodeId id) {
            const QPoint at = map->worldToScreen(map->mapLayout().nodeRect(id).center()).toPoint();
            return map->grab().toImage().pixelColor(at * map->devicePixelRatioF());
        };
        // The tree opens to the matches, which may resize the map: compare in the geometry the
        // filter left, with and without the map's mask.
        m_views->pane->filterBar()->setFilterText(kTwoRacks);
        QCoreApplication::processEvents();
        const std::shared_ptr<const NodeMask> mask = map->nodeFilter();
        QVERIFY(mask);
        const QColor keptAfter = pixelAt(keptNode);
        const QColor leftOutAfter = pixelAt(leftOut);
        map->setNodeFilter(nullptr);
        const QColor keptBefore = pixelAt(keptNode);
        const QColor leftOutBefore = pixelAt(leftOut);
        map->setNodeFilter(mask);
        QCOMPARE(keptAfter, keptBefore);
        QVERIFY(leftOutAfter != leftOutBefore);
        // Faded towards the map's background (light or dark alike): nearer to it than before.
        const QColor background = OccupancyPalette::forPalette(map->palette()).background;
        auto distance = [&background](const QColor& c) {
            return std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                   std::abs(c.blue() - background.blue());
        };
        QVERIFY2(distance(leftOutAfter) < distance(leftOutBefore), qPrintable(leftOutAfter.name()));
    }

    void invalidSelectorKeepsThePreviousFilter() {
        QVERIFY(buildViews());
        FilterBar* bar = m_views->pane->filterBar();
        QLineEdit* edit = bar->lineEdit();
        edit->setFocus();
        QTest::keyClicks(edit, kTwoRacks);
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY2(bar->selector() != nullptr, "Enter applies at once");
        const std::shared_ptr<const NodeMask> mask = m_views->map->nodeFilter();
        QCOMPARE(kept(mask), std::size_t(36));

        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("rack in (a"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(bar->errorText(), QStringLiteral("at 11: expected ')' after the values of 'in'"));
        auto* message = bar->findChild<QLabel*>();
        QVERIFY(message && message->isVisible());
        QVERIFY2(message->text().contains(QStringLiteral("still filtering by fabric.topograph.run/tier-0 in")),
                 qPrintable(message->text()));
        QCOMPARE(edit->text(), QStringLiteral("rack in (a"));
        QCOMPARE(m_views->map->nodeFilter(), mask);
        QCOMPARE(rowNames(m_views->pane->view()->model()).size(), 2);

        // A key Kubernetes would refuse is an error too, with where it is.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("rack=ok, bad_/key"));
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY2(bar->errorText().startsWith(QStringLiteral("at 10: invalid label key 'bad_/key'")),
                 qPrintable(bar->errorText()));
        QCOMPARE(m_views->map->nodeFilter(), mask);

        // Fixing the text hides the message.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("!nvidia.com/gpu.present"));
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(bar->errorText().isEmpty());
        QVERIFY(!message->isVisible());
        QCOMPARE(kept(m_views->map->nodeFilter()), std::size_t(0));
        QCOMPARE(m_views->pane->view()->model()->rowCount(), 0);
        QCOMPARE(m_views->map->filterCaption(), QStringLiteral("Filter: 0 of 576 nodes"));
    }

    void escapeClears() {
        QVERIFY(buildViews());
        FilterBar* bar = m_views->pane->filterBar();
        bar->setFilterText(kTwoRacks);
        QVERIFY(m_views->map->nodeFilter() != nullptr);
        bar->lineEdit()->setFocus();
        QTest::keyClick(bar->lineEdit(), Qt::Key_Escape);
        QVERIFY(bar->lineEdit()->text().isEmpty());
        QVERIFY(!bar->selector());
        QVERIFY(!m_views->map->nodeFilter());
        QVERIFY(!m_views->pane->filterModel()->nodeMask());
        QVERIFY(m_views->map->filterCaption().isEmpty());
        QCOMPARE(m_views->pane->view()->model()->rowCount(), 4);
    }

    void filterFollowsLiveUpdates() {
        QVERIFY(buildViews());
        m_views->pane->filterBar()->setFilterText(kTwoRacks);
        m_session->setSimulationInterval(40);
        m_session->setSimulationEnabled(true);
        // Connected after the views: each snapshot counted is shown on them already.
        QSignalSpy updates(m_session.get(), &ClusterSession::snapshotPublished);
        for (int i = 0; i < 3; ++i) QVERIFY(updates.wait(10000));
        QCOMPARE(kept(m_views->map->nodeFilter()), std::size_t(36));
        QCOMPARE(rowNames(m_views->pane->view()->model()),
                 (QStringList{QStringLiteral("su-1"), QStringLiteral("su-3")}));
        QCOMPARE(m_views->pane->view()->model()->rowCount(m_views->pane->view()->model()->index(1, 0)), 1);
    }

    // On the window: the map following the tree's selection, hidden or not, is the window's wiring.
    void selectingAHiddenNodeStillShowsIt() {
        QVERIFY(buildWindow());
        m_window->filterBar()->setFilterText(kTwoRacks);
        QVERIFY(m_window->selectPath(QStringLiteral("su-2/rack-2-01")));
        QVERIFY(!m_window->treeView()->currentIndex().isValid());
        const ClusterSnapshot& snapshot = *m_window->shownSnapshot();
        const DomainId rack = snapshot.index.findChild(snapshot.index.findChild(kRootDomain, "su-2"), "rack-2-01");
        QCOMPARE(m_window->mapView()->selectedDomain(), rack);
        QVERIFY(m_window->selectPath(QStringLiteral("su-1/rack-1-02")));
        QCOMPARE(m_window->treeView()->currentIndex().data().toString(), QStringLiteral("rack-1-02"));
    }

    // On the window: its menus.
    void shortcutIsListedInTheMenus() {
        QVERIFY(buildWindow());
        bool listed = false;
        for (QAction* menu : m_window->menuBar()->actions())
            if (menu->menu())
                for (QAction* action : menu->menu()->actions())
                    listed |= action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_L);
        QVERIFY(listed);
    }

private:
    // What a function builds first: the tree pane and the map on a session showing the demo, at
    // the window's size, or the whole window.
    bool buildViews() {
        m_session = testing::demoSession();
        if (!m_session) return false;
        m_views = std::make_unique<TreeAndMap>(m_session.get());
        return testing::showWithKeyboard(*m_views, QSize(1400, 900));
    }
    bool buildWindow() {
        m_window = new MainWindow;
        m_window->resize(1400, 900);
        m_window->show();
        if (!QTest::qWaitForWindowExposed(m_window)) return false;
        QSignalSpy shown(m_window, &MainWindow::dataShown);
        LaunchOptions options;
        options.demo = QStringLiteral("gb200");
        m_window->open(options);
        return shown.wait(60000);
    }

    MainWindow* m_window = nullptr;
    std::unique_ptr<ClusterSession> m_session;
    std::unique_ptr<TreeAndMap> m_views; // after the session: destroyed before it
};

TOPODECK_TEST_MAIN(TestFilterBar)
#include "test_filter_bar.moc"
