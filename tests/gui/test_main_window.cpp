// The main window keeps tree, map and details on the same selection, and live simulator updates
// change the figures without losing the selection, the tree's scroll position or the map's zoom.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "models/topology_tree_model.h"
#include "session/cluster_session.h"
#include "views/chrome/open_failure_banner.h"
#include "views/chrome/source_status_label.h"
#include "views/map/topology_map_view.h"
#include "views/pages/details_panel.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QScrollBar>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace topodeck;

namespace {

bool openDemo(MainWindow& window, const QString& demo, bool simulate) {
    QSignalSpy shown(&window, &MainWindow::dataShown);
    LaunchOptions options;
    options.demo = demo;
    options.simulate = simulate;
    window.open(options);
    return shown.wait(60000);
}

// Where TOPODECK_SCREENSHOT_DIR is set, the window as the operator sees it.
void saveScreenshotIfAsked(QWidget& window, const QByteArray& name) {
    const QString dir = qEnvironmentVariable("TOPODECK_SCREENSHOT_DIR");
    if (!dir.isEmpty()) window.grab().save(dir + QLatin1Char('/') + QString::fromUtf8(name) + QStringLiteral(".png"));
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void selectionSurvivesLiveUpdates();
    void mapClickSelectsInTree();
    void treeSelectionMovesMapAndDetails();
    void selectPath_data();
    void selectPath();
    void otherSourceResetsSelection();
    void failedOpenKeepsWhatIsShown_data();
    void failedOpenKeepsWhatIsShown();

private:
    MainWindow* m_window = nullptr;
};

void TestMainWindow::init() {
    m_window = new MainWindow;
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestMainWindow::cleanup() {
    delete m_window;
    m_window = nullptr;
}

void TestMainWindow::selectionSurvivesLiveUpdates() {
    m_window->session()->setSimulationInterval(40);
    QVERIFY(openDemo(*m_window, QStringLiteral("gb200"), true));
    QTreeView* tree = m_window->treeView();
    tree->expandAll();
    QVERIFY(m_window->selectPath(QStringLiteral("su-3/rack-3-05")));
    const DomainId rack = m_window->mapView()->selectedDomain();
    QVERIFY(rack != kNoDomain);
    QScrollBar* scroll = tree->verticalScrollBar();
    QVERIFY(scroll->maximum() > 0);
    scroll->setValue(scroll->maximum() / 2);
    const int scrollValue = scroll->value();
    m_window->mapView()->zoomIn();
    const double mapScale = m_window->mapView()->scale();

    const std::uint64_t firstGeneration = m_window->shownSnapshot()->generation;
    const std::int64_t firstUsed = m_window->shownSnapshot()->index.root().totals.gpusUsed;
    QSignalSpy updates(m_window, &MainWindow::snapshotShown);
    bool occupancyMoved = false;
    for (int i = 0; i < 200 && (updates.size() < 5 || !occupancyMoved); ++i) {
        QVERIFY(updates.wait(10000));
        occupancyMoved |= m_window->shownSnapshot()->index.root().totals.gpusUsed != firstUsed;
    }
    QVERIFY(m_window->shownSnapshot()->generation > firstGeneration);
    QVERIFY2(occupancyMoved, "the simulator never changed the occupancy");

    const QModelIndex current = tree->currentIndex();
    QVERIFY(current.isValid());
    QCOMPARE(current.data(TopologyTreeModel::DomainIdRole).value<DomainId>(), rack);
    QVERIFY(tree->selectionModel()->isRowSelected(current.row(), current.parent()));
    QCOMPARE(m_window->mapView()->selectedDomain(), rack);
    QCOMPARE(m_window->detailsPanel()->shownDomain(), rack);
    QCOMPARE(scroll->value(), scrollValue);
    QCOMPARE(m_window->mapView()->scale(), mapScale);
}

void TestMainWindow::mapClickSelectsInTree() {
    QVERIFY(openDemo(*m_window, QStringLiteral("h100"), false));
    TopologyMapView* map = m_window->mapView();
    const TopologyIndex& index = m_window->shownSnapshot()->index;
    NodeId node = 0;
    while (index.node(node).leaf == kNoDomain) ++node;
    node += 5;
    const QPoint at = map->worldToScreen(map->mapLayout().nodeRect(node).center()).toPoint();
    QCOMPARE(map->hitAt(at).node, node);

    QSignalSpy selected(map, &TopologyMapView::nodeSelected);
    QTest::mouseClick(map, Qt::LeftButton, {}, at);
    QCOMPARE(selected.size(), 1);
    const QModelIndex current = m_window->treeView()->currentIndex();
    QVERIFY(current.data(TopologyTreeModel::IsNodeRole).toBool());
    QCOMPARE(current.data(TopologyTreeModel::NodeIdRole).value<NodeId>(), node);
    QCOMPARE(m_window->detailsPanel()->shownNode(), node);
    QCOMPARE(map->selectedNode(), node);

    // Clicking the empty background clears everything.
    QTest::mouseClick(map, Qt::LeftButton, {}, QPoint(2, 2));
    QVERIFY(!m_window->treeView()->currentIndex().isValid());
    QCOMPARE(map->selectedDomain(), kNoDomain);
    QCOMPARE(m_window->detailsPanel()->shownNode(), DetailsPanel::kNoNode);
    QCOMPARE(m_window->detailsPanel()->shownDomain(), kRootDomain);
}

void TestMainWindow::treeSelectionMovesMapAndDetails() {
    QVERIFY(openDemo(*m_window, QStringLiteral("gb200"), false));
    // The rows the tree shows (through the filter, which keeps them all here).
    const QAbstractItemModel* model = m_window->treeView()->model();
    const QModelIndex su = model->index(1, 0);
    const QModelIndex rack = model->index(2, 0, su);
    m_window->treeView()->setCurrentIndex(rack);
    const auto id = rack.data(TopologyTreeModel::DomainIdRole).value<DomainId>();
    QCOMPARE(m_window->mapView()->selectedDomain(), id);
    QCOMPARE(m_window->detailsPanel()->shownDomain(), id);
}

void TestMainWindow::selectPath_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("found");
    QTest::addColumn<bool>("isNode");
    QTest::newRow("top level") << QStringLiteral("su-1") << true << false;
    QTest::newRow("rack") << QStringLiteral("su-4/rack-4-08") << true << false;
    QTest::newRow("cluster") << QString() << true << false;
    QTest::newRow("missing rack") << QStringLiteral("su-1/rack-9-99") << false << false;
    QTest::newRow("missing level") << QStringLiteral("su-7") << false << false;
}

void TestMainWindow::selectPath() {
    QFETCH(QString, path);
    QFETCH(bool, found);
    QFETCH(bool, isNode);
    QVERIFY(openDemo(*m_window, QStringLiteral("gb200"), false));
    QCOMPARE(m_window->selectPath(path), found);
    if (!found) return;
    const QModelIndex current = m_window->treeView()->currentIndex();
    if (path.isEmpty()) {
        QVERIFY(!current.isValid());
        QCOMPARE(m_window->detailsPanel()->shownDomain(), kRootDomain);
        return;
    }
    QCOMPARE(current.data(TopologyTreeModel::IsNodeRole).toBool(), isNode);
    QCOMPARE(current.data(TopologyTreeModel::PathRole).toString(), path);
}

void TestMainWindow::otherSourceResetsSelection() {
    QVERIFY(openDemo(*m_window, QStringLiteral("gb200"), false));
    QVERIFY(m_window->selectPath(QStringLiteral("su-1/rack-1-02")));
    QVERIFY(openDemo(*m_window, QStringLiteral("h100"), false));
    QCOMPARE(m_window->mapView()->selectedDomain(), kNoDomain);
    QCOMPARE(m_window->detailsPanel()->shownDomain(), kRootDomain);
    QVERIFY(!m_window->treeView()->currentIndex().isValid());
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("H100")));
}

TOPODECK_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"

// A file that cannot be read (yaml-cpp 0.7 loops on the first; the others are broken or hostile)
// is reported above the map with its place, at once, while the window goes on showing, and
// responding to, what it showed.
void TestMainWindow::failedOpenKeepsWhatIsShown_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("yaml-cpp loop") << QStringLiteral("fuzz-regressions/yaml-loops/comma.yaml") << QStringLiteral("comma.yaml:1:1: invalid YAML");
    QTest::newRow("bad quantity") << QStringLiteral("show-bad-quantity.yaml") << QStringLiteral("eight");
    QTest::newRow("missing") << QStringLiteral("no-such-file.yaml") << QStringLiteral("no-such-file.yaml");
}

void TestMainWindow::failedOpenKeepsWhatIsShown() {
    QFETCH(QString, file);
    QFETCH(QString, message);
    QVERIFY(openDemo(*m_window, QStringLiteral("h100"), false));
    const ClusterSnapshotPtr before = m_window->shownSnapshot();
    auto* banner = m_window->findChild<OpenFailureBanner*>();
    auto* status = m_window->statusBar()->findChild<SourceStatusLabel*>();
    QVERIFY(banner && status && !banner->isVisible());
    QElapsedTimer clock;
    clock.start();
    LaunchOptions options;
    options.file = QStringLiteral(TOPODECK_TEST_DATA_DIR "/") + file;
    m_window->open(options);
    QVERIFY(clock.elapsed() < 500); // the reading is the session's, off this thread
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
    QVERIFY2(banner->text().contains(message), qPrintable(banner->text()));
    QVERIFY2(banner->text().contains(QStringLiteral("Still showing demo")), qPrintable(banner->text()));
    QCOMPARE(m_window->shownSnapshot(), before);
    QCOMPARE(status->status().health, SourceHealth::Live);
    saveScreenshotIfAsked(*m_window, "open-failed-" + QByteArray(QTest::currentDataTag()).replace(' ', '-'));
    // Opening something that reads hides it.
    QVERIFY(openDemo(*m_window, QStringLiteral("gb200"), false));
    QVERIFY(!banner->isVisible());
}
