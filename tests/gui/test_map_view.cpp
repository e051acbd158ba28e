// The topology map widget: it paints a 65,536-node cluster quickly at every zoom, keeps zoom and
// selection across live updates, and its interaction (zoom around the cursor, click, tooltips)
// works on the real geometry.
#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "session/cluster_snapshot.h"
#include "support/demo_loader.h"
#include "views/map/map_breadcrumbs.h"
#include "views/map/topology_map_view.h"
#include "support/test_program.h"

#include <QImageReader>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QToolTip>

#include <set>

using namespace topodeck;

namespace {

struct Source {
    ClusterState state;
    TopologyIndex index;
    std::unique_ptr<DemoSimulator> simulator;

    ClusterSnapshotPtr snapshot(std::uint64_t epoch = 1) const {
        return makeClusterSnapshot(state, index, SourceStatus{}, QStringLiteral("test"), epoch);
    }
    void step() {
        for (const ClusterEvent& event : simulator->step(state)) index.apply(state, state.apply(event));
    }
};

std::unique_ptr<Source> openDemo(const QString& name) {
    testing::LoadedDemo demo = testing::loadDemo(name.toStdString());
    auto source = std::make_unique<Source>();
    source->state = std::move(demo.state);
    source->index = std::move(demo.index);
    source->simulator = std::make_unique<DemoSimulator>(demo.demo, 7);
    return source;
}

// Shows the map at this size (offscreen) with the snapshot; false if it was never exposed.
bool showOnScreen(TopologyMapView& map, QSize size, const ClusterSnapshotPtr& snapshot) {
    map.resize(size);
    map.show();
    const bool exposed = QTest::qWaitForWindowExposed(&map);
    map.setSnapshot(snapshot);
    return exposed;
}

qint64 paintMs(TopologyMapView& map) {
    QElapsedTimer timer;
    timer.start();
    const QPixmap pixmap = map.grab();
    Q_UNUSED(pixmap);
    return timer.elapsed();
}

} // namespace

class TestMapView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void largeClusterPaintsQuickly();
    void liveUpdateKeepsViewAndSelection();
    void zoomKeepsPointUnderCursor();
    void tooltips();
    void computeDomainBadges();
    void newSourceResetsView();
    void keyboardMovesAmongSiblings();
    void enterZoomsInBackspaceOut();
    void breadcrumbsFollowTheFocus();
    void freeCapacityCountsPodsOfTheShape();
    void exportsPngAndSvg();
};

void TestMapView::largeClusterPaintsQuickly() {
    const auto source = openDemo(QStringLiteral("scale:65536"));
    TopologyMapView map;
    map.resize(1100, 850);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    QElapsedTimer timer;
    timer.start();
    map.setSnapshot(source->snapshot());
    const qint64 layout = timer.elapsed();

    paintMs(map); // the first paint also loads fonts
    const qint64 fit = paintMs(map);
    map.zoomToDomain(source->index.root().children.front());
    const qint64 domain = paintMs(map);
    // Close enough that GPU cells are drawn: only the visible part of the cluster is painted.
    for (int i = 0; i < 30 && map.mapLayout().collapsedAt(source->index.node(0).leaf, map.scale()); ++i) map.zoomIn();
    QVERIFY(!map.mapLayout().collapsedAt(source->index.node(0).leaf, map.scale()));
    const qint64 nodes = paintMs(map);
    qInfo("scale:65536: layout %lld ms; paint: fit %lld ms, one top-level domain %lld ms, nodes visible %lld ms",
          layout, fit, domain, nodes);
    // Generous for debug and sanitizer builds; a release build is several times faster.
    QVERIFY(fit < 400);
    QVERIFY(domain < 400);
    QVERIFY(nodes < 400);

    // A live update of occupancy reuses the layout (no rebuild): the signature holds.
    const std::uint64_t signature = map.mapLayout().signature();
    source->step();
    map.setSnapshot(source->snapshot());
    QCOMPARE(map.mapLayout().signature(), signature);
}

void TestMapView::liveUpdateKeepsViewAndSelection() {
    const auto source = openDemo(QStringLiteral("gb200"));
    TopologyMapView map;
    map.resize(900, 700);
    map.setSnapshot(source->snapshot());
    const DomainId rack = source->index.node(40).leaf;
    map.setSelectedNode(40);
    map.zoomIn();
    map.zoomIn();
    const double scale = map.scale();
    const QPointF origin = map.worldToScreen(QPointF(0, 0));

    for (int i = 0; i < 5; ++i) {
        source->step();
        map.setSnapshot(source->snapshot());
    }
    QCOMPARE(map.selectedNode(), NodeId(40));
    QCOMPARE(map.selectedDomain(), rack);
    QCOMPARE(map.scale(), scale);
    QCOMPARE(map.worldToScreen(QPointF(0, 0)), origin);
}

void TestMapView::zoomKeepsPointUnderCursor() {
    const auto source = openDemo(QStringLiteral("h100"));
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(800, 600), source->snapshot()));
    const QPointF cursor(300, 200);
    const QPointF world = map.screenToWorld(cursor);
    const double before = map.scale();
    QWheelEvent wheel(cursor, map.mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&map, &wheel);
    QVERIFY(map.scale() > before);
    const QPointF after = map.worldToScreen(world);
    QVERIFY(qAbs(after.x() - cursor.x()) < 0.5 && qAbs(after.y() - cursor.y()) < 0.5);

    // Fit brings the whole cluster back into view.
    map.zoomToFit();
    const QRectF bounds = map.worldToScreen(map.mapLayout().bounds());
    QVERIFY(QRectF(map.rect()).adjusted(-1, -1, 1, 1).contains(bounds));
}

void TestMapView::tooltips() {
    const auto source = openDemo(QStringLiteral("gb200"));
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(1000, 800), source->snapshot()));

    const NodeId node = source->index.domain(source->index.node(3).leaf).nodes.front();
    const QPoint onNode = map.worldToScreen(map.mapLayout().nodeRect(node).center()).toPoint();
    QHelpEvent nodeHelp(QEvent::ToolTip, onNode, map.mapToGlobal(onNode));
    QApplication::sendEvent(&map, &nodeHelp);
    QVERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(QString::fromStdString(source->state.record(node).node->name)));
    QVERIFY(QToolTip::text().contains(QStringLiteral("NVLink")));

    const DomainId rack = source->index.node(node).leaf;
    const QPoint onHeader = map.worldToScreen(map.mapLayout().headerRect(rack).center()).toPoint();
    QHelpEvent domainHelp(QEvent::ToolTip, onHeader, map.mapToGlobal(onHeader));
    QApplication::sendEvent(&map, &domainHelp);
    QVERIFY(QToolTip::text().contains(QString::fromStdString(source->index.pathName(rack))));
    QVERIFY(QToolTip::text().contains(QStringLiteral("ready")));
    QToolTip::hideText();
}

// gb200-dra: each NVLink domain a ComputeDomain's nodes sit in carries a badge, red where one of
// them spans cliques, and hovering it names them; gb200 (no ComputeDomains) has none.
void TestMapView::computeDomainBadges() {
    const auto source = openDemo(QStringLiteral("gb200-dra"));
    const ClusterSnapshotPtr snapshot = source->snapshot();
    QVERIFY(!snapshot->computeDomains.empty());
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(1600, 1000), snapshot));
    (void)map.grab();
    const auto& badges = map.computeDomainBadges();
    QVERIFY(!badges.empty());
    const ComputeDomainMarks& marks = map.computeDomainMarks();
    // Every NVLink domain some ComputeDomain occupies has its badge, and no other does.
    std::set<std::int32_t> marked;
    for (const auto& [rect, nvlink] : badges) {
        QVERIFY(map.rect().contains(rect.toAlignedRect())); // inside the view: nothing clipped
        QVERIFY(!marks.on(nvlink).empty());
        marked.insert(nvlink);
    }
    std::set<std::int32_t> occupied;
    for (const ComputeDomainUsage& domain : snapshot->computeDomains)
        occupied.insert(domain.nvlinkDomains.begin(), domain.nvlinkDomains.end());
    QCOMPARE(marked, occupied);

    // A flagged badge's tooltip names a ComputeDomain that spans cliques, in words.
    const auto flagged =
        std::find_if(badges.begin(), badges.end(), [&](const auto& badge) { return marks.flagged(badge.second); });
    QVERIFY(flagged != badges.end());
    const QPoint onBadge = flagged->first.center().toPoint();
    QHelpEvent help(QEvent::ToolTip, onBadge, map.mapToGlobal(onBadge));
    QApplication::sendEvent(&map, &help);
    QVERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("ComputeDomain team-")), qPrintable(QToolTip::text()));
    QVERIFY2(QToolTip::text().contains(QStringLiteral("IMEX shares GPU memory only inside each")),
             qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // A node of a ComputeDomain names it in its own tooltip.
    const ComputeDomainUsage& first = snapshot->computeDomains.front();
    const std::optional<NodeId> node = source->state.findNode(first.members.front().node);
    QVERIFY(node);
    const QPoint onNode = map.worldToScreen(map.mapLayout().nodeRect(*node).center()).toPoint();
    QHelpEvent nodeHelp(QEvent::ToolTip, onNode, map.mapToGlobal(onNode));
    QApplication::sendEvent(&map, &nodeHelp);
    QVERIFY2(QToolTip::text().contains(QString::fromStdString(first.qualifiedName())), qPrintable(QToolTip::text()));
    QToolTip::hideText();

    const auto plain = openDemo(QStringLiteral("gb200"));
    map.setSnapshot(plain->snapshot(2));
    (void)map.grab();
    QVERIFY(map.computeDomainBadges().empty());
    QVERIFY(map.computeDomainMarks().empty());
}

void TestMapView::newSourceResetsView() {
    const auto gb200 = openDemo(QStringLiteral("gb200"));
    const auto h100 = openDemo(QStringLiteral("h100"));
    TopologyMapView map;
    map.resize(900, 700);
    map.setSnapshot(gb200->snapshot(1));
    map.setSelectedDomain(gb200->index.node(0).leaf);
    map.zoomIn();
    map.setSnapshot(h100->snapshot(2));
    QCOMPARE(map.selectedDomain(), kNoDomain);
    const QRectF bounds = map.worldToScreen(map.mapLayout().bounds());
    QVERIFY(QRectF(map.rect()).adjusted(-1, -1, 1, 1).contains(bounds));
}

void TestMapView::keyboardMovesAmongSiblings() {
    // gb200: 4 SUs of 8 racks of 18 trays. From nothing selected, an arrow selects the first SU;
    // Right moves to the SU beside it, Left back; a node moves among its rack's nodes.
    const auto source = openDemo(QStringLiteral("gb200"));
    const TopologyIndex& index = source->index;
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(1200, 800), source->snapshot()));
    QSignalSpy domains(&map, &TopologyMapView::domainSelected);
    QSignalSpy nodes(&map, &TopologyMapView::nodeSelected);

    const std::vector<DomainId>& sus = index.root().children;
    QTest::keyClick(&map, Qt::Key_Right);
    QCOMPARE(map.selectedDomain(), sus[0]);
    QCOMPARE(domains.count(), 1);
    // Whatever the arrangement, Right then Left comes back, and every move lands on a sibling.
    const QPointF first = map.mapLayout().domainRect(sus[0]).center();
    QTest::keyClick(&map, Qt::Key_Right);
    QVERIFY(map.selectedDomain() != sus[0]);
    QCOMPARE(index.domain(map.selectedDomain()).parent, kRootDomain);
    QVERIFY(map.mapLayout().domainRect(map.selectedDomain()).center().x() > first.x());
    QTest::keyClick(&map, Qt::Key_Left);
    QCOMPARE(map.selectedDomain(), sus[0]);
    // Down from the top row lands below, or stays when there is no row below.
    QTest::keyClick(&map, Qt::Key_Down);
    QVERIFY(map.mapLayout().domainRect(map.selectedDomain()).center().y() >= first.y());

    // A node: its neighbour in the rack; Up from the top row stays put.
    const DomainId rack = index.domain(sus[0]).children.front();
    const NodeId tray = index.domain(rack).nodes.front();
    map.setSelectedNode(tray);
    QTest::keyClick(&map, Qt::Key_Up);
    QCOMPARE(map.selectedNode(), tray);
    QTest::keyClick(&map, Qt::Key_Right);
    QVERIFY(map.selectedNode() != tray);
    QCOMPARE(index.node(map.selectedNode()).leaf, rack);
    QCOMPARE(nodes.last().at(0).value<NodeId>(), map.selectedNode());
    QTest::keyClick(&map, Qt::Key_Left);
    QCOMPARE(map.selectedNode(), tray);
}

void TestMapView::enterZoomsInBackspaceOut() {
    const auto source = openDemo(QStringLiteral("gb200"));
    const TopologyIndex& index = source->index;
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(1200, 800), source->snapshot()));
    QSignalSpy focus(&map, &TopologyMapView::focusChanged);
    const DomainId su = index.root().children[1];
    map.setSelectedDomain(su);

    const double fitted = map.scale();
    QTest::keyClick(&map, Qt::Key_Return);
    QCOMPARE(map.focusDomain(), su);
    // It fills the view one way or the other.
    const QRectF suOnScreen = map.worldToScreen(map.mapLayout().domainRect(su));
    QVERIFY(suOnScreen.width() > 0.9 * (map.width() - 40) || suOnScreen.height() > 0.9 * (map.height() - 40));
    QCOMPARE(focus.last().at(0).value<DomainId>(), su);
    // Inside, its first rack is selected and the whole SU is on screen.
    QCOMPARE(map.selectedDomain(), index.domain(su).children.front());
    QVERIFY(QRectF(map.rect()).adjusted(-1, -1, 1, 1).contains(map.worldToScreen(map.mapLayout().domainRect(su))));

    QTest::keyClick(&map, Qt::Key_Return); // into the rack: its first tray
    const DomainId rack = index.domain(su).children.front();
    QCOMPARE(map.focusDomain(), rack);
    QCOMPARE(map.selectedNode(), index.domain(rack).nodes.front());

    QTest::keyClick(&map, Qt::Key_Backspace); // out to the SU, the rack selected
    QCOMPARE(map.focusDomain(), su);
    QCOMPARE(map.selectedDomain(), rack);
    QCOMPARE(map.selectedNode(), TopologyMapLayout::kNoNode);
    QTest::keyClick(&map, Qt::Key_Backspace);
    QCOMPARE(map.focusDomain(), kRootDomain);
    QCOMPARE(map.selectedDomain(), su);
    QCOMPARE(map.scale(), fitted);

    // Home fits from anywhere.
    map.zoomToDomain(rack);
    QTest::keyClick(&map, Qt::Key_Home);
    QCOMPARE(map.focusDomain(), kRootDomain);
    QCOMPARE(map.scale(), fitted);
}

void TestMapView::breadcrumbsFollowTheFocus() {
    const auto source = openDemo(QStringLiteral("gb200"));
    const TopologyIndex& index = source->index;
    TopologyMapView map;
    MapBreadcrumbs crumbs;
    QObject::connect(&map, &TopologyMapView::focusChanged, &crumbs, &MapBreadcrumbs::setFocusDomain);
    QObject::connect(&crumbs, &MapBreadcrumbs::domainChosen, &map, &TopologyMapView::zoomToDomain);
    map.resize(1200, 800);
    const auto snapshot = source->snapshot();
    map.setSnapshot(snapshot);
    crumbs.setSnapshot(snapshot);
    QCOMPARE(crumbs.parts(), QStringList{QStringLiteral("Cluster")});

    const DomainId su = index.root().children[2];
    const DomainId rack = index.domain(su).children[3];
    map.zoomToDomain(rack);
    QCOMPARE(crumbs.parts(), (QStringList{QStringLiteral("Cluster"), QStringLiteral("su-3"), QStringLiteral("rack-3-04")}));
    // Wheeling out far enough moves the focus up by itself.
    for (int i = 0; i < 12; ++i) map.zoomOut();
    QCOMPARE(crumbs.parts().size(), 1);

    // A crumb zooms there.
    map.zoomToDomain(rack);
    auto buttons = crumbs.findChildren<QToolButton*>();
    QCOMPARE(buttons.size(), 3);
    buttons[1]->click();
    QCOMPARE(map.focusDomain(), su);
    QCOMPARE(crumbs.parts().size(), 2);
}

void TestMapView::freeCapacityCountsPodsOfTheShape() {
    const auto source = openDemo(QStringLiteral("h100"));
    const TopologyIndex& index = source->index;
    TopologyMapView map;
    map.resize(900, 700);
    map.setSnapshot(source->snapshot());
    QCOMPARE(map.podsThatFitIn(kRootDomain), -1); // no shape yet
    map.setCapacityShape(3, 16);
    map.setColourMode(TopologyMapView::ColourMode::FreeCapacity);
    // Each schedulable node takes floor(free / 3) pods; a domain the sum of its nodes.
    std::vector<std::int64_t> expected(index.domainSlots(), 0);
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& node = index.node(id);
        if (node.leaf == kNoDomain || !node.schedulable) continue;
        for (DomainId d = node.leaf; d != kNoDomain; d = index.domain(d).parent) expected[d] += node.gpusFree() / 3;
    }
    QVERIFY(expected[kRootDomain] > 0);
    for (DomainId id = 0; id < index.domainSlots(); ++id)
        if (index.domain(id).alive) QCOMPARE(map.podsThatFitIn(id), expected[id]);
    // It follows the occupancy.
    for (int i = 0; i < 5; ++i) source->step();
    map.setSnapshot(source->snapshot());
    std::int64_t free = 0;
    for (NodeId id = 0; id < index.nodeSlots(); ++id)
        if (index.node(id).leaf != kNoDomain && index.node(id).schedulable) free += index.node(id).gpusFree() / 3;
    QCOMPARE(map.podsThatFitIn(kRootDomain), free);
    // The picture differs from the occupancy colours.
    const QImage capacity = map.grab().toImage();
    map.setColourMode(TopologyMapView::ColourMode::Occupancy);
    QVERIFY(map.grab().toImage() != capacity);
}

void TestMapView::exportsPngAndSvg() {
    const auto source = openDemo(QStringLiteral("gb200"));
    TopologyMapView map;
    QVERIFY(showOnScreen(map, QSize(800, 500), source->snapshot()));
    const DomainId firstRack = source->index.domain(source->index.root().children.front()).children.front();
    map.zoomToDomain(firstRack); // close enough for the rack's name
    QTemporaryDir dir;
    QString error;
    QVERIFY2(map.exportView(dir.filePath(QStringLiteral("map.png")), &error), qPrintable(error));
    const QImage png(dir.filePath(QStringLiteral("map.png")));
    QCOMPARE(png.size() / png.devicePixelRatio(), QSize(800, 500));
    QVERIFY2(map.exportView(dir.filePath(QStringLiteral("map.svg")), &error), qPrintable(error));
    QSvgRenderer svg(dir.filePath(QStringLiteral("map.svg")));
    QVERIFY(svg.isValid());
    QCOMPARE(svg.viewBox(), QRect(0, 0, 800, 500));
    // The drawing names the domains, as the map does.
    QFile file(dir.filePath(QStringLiteral("map.svg")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("rack-1-01"));
    // Nowhere to write: a clear error, no crash.
    QVERIFY(!map.exportView(QStringLiteral("/nonexistent-dir/map.png"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/map.png")));
}

TOPODECK_TEST_MAIN(TestMapView)
#include "test_map_view.moc"
