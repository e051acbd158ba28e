// The topology map widget: it paints a 65,536-node cluster quickly at every zoom, keeps zoom and
// selection across live updates, and its interaction (zoom around the cursor, click, tooltips)
// works on the real geometry.
#include "core/demo_cluster.h"
#include "core/demo_simulator.h"
#include "session/cluster_snapshot.h"
#include "views/topology_map_view.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

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
    auto demo = makeDemoCluster(name.toStdString());
    if (!demo) qFatal("%s", demo.error().message.c_str());
    auto source = std::make_unique<Source>();
    for (const ClusterEvent& event : demo->events) source->state.apply(event);
    source->index = TopologyIndex::build(source->state, demo->topology);
    source->simulator = std::make_unique<DemoSimulator>(*demo, 7);
    return source;
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
    void newSourceResetsView();
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
    map.resize(800, 600);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    map.setSnapshot(source->snapshot());
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
    map.resize(1000, 800);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    map.setSnapshot(source->snapshot());

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

QTEST_MAIN(TestMapView)
#include "test_map_view.moc"
