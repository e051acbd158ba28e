// Each demo opened offscreen in the real main window, fitted and at several zooms, with and without
// a dry-run drawn on it: the screenshot is written, is not blank, its map shows both used and free
// GPUs, a plan's nodes are outlined, and the map is zoomed where asked. The images are kept in the
// build tree for people to look at.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot_capture.h"
#include "models/topology_tree_model.h"
#include "views/map/occupancy_palette.h"
#include "views/map/topology_map_view.h"
#include "views/pages/planner_panel.h"
#include "support/test_program.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace topodeck;

namespace {

// A typical dark desktop palette, to check that the map, bars and text stay readable on it.
QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2d));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x33, 0x36, 0x3b));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x33, 0x36, 0x3b));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9e, 0xa6));
    p.setColor(QPalette::Mid, QColor(0x45, 0x48, 0x4e));
    return p;
}

} // namespace

class TestScreenshots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void demo_data();
    void demo();
    void unknownDemoFails();
    void unknownSelectionFails();
};

void TestScreenshots::demo_data() {
    QTest::addColumn<QString>("demo");
    QTest::addColumn<QString>("select");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QString>("zoom"); // a domain path the map is zoomed to; empty: fitted
    QTest::addColumn<QString>("plan"); // topodeckctl plan's flags, drawn on the map
    QTest::addColumn<bool>("capacity");
    const QString gb200Plan = QStringLiteral("--pods 16 -r nvidia.com/gpu=4 --required rack --engine kueue-tas");
    const QString bigPlan = QStringLiteral("--pods 64 -r nvidia.com/gpu=8 --required agg --engine kueue-tas");
    QTest::newRow("gb200") << QStringLiteral("gb200") << QString() << false << QString() << QString() << false;
    QTest::newRow("gb200 rack selected") << QStringLiteral("gb200") << QStringLiteral("su-2/rack-2-03") << false
                                         << QString() << QString() << false;
    QTest::newRow("gb200 dark") << QStringLiteral("gb200") << QStringLiteral("su-1/rack-1-01/gb200-su1-r01-n04")
                                << true << QString() << QString() << false;
    QTest::newRow("gb200 su") << QStringLiteral("gb200") << QString() << false << QStringLiteral("su-2") << QString()
                              << false;
    QTest::newRow("gb200 rack") << QStringLiteral("gb200") << QString() << false << QStringLiteral("su-2/rack-2-03")
                                << QString() << false;
    QTest::newRow("gb200 plan") << QStringLiteral("gb200") << QString() << false << QString() << gb200Plan << false;
    QTest::newRow("gb200 plan su") << QStringLiteral("gb200") << QString() << false << QStringLiteral("su-1")
                                   << gb200Plan << false;
    QTest::newRow("gb200 plan capacity dark") << QStringLiteral("gb200") << QString() << true << QString()
                                              << gb200Plan << true;
    QTest::newRow("h100") << QStringLiteral("h100") << QString() << false << QString() << QString() << false;
    QTest::newRow("scale:4096") << QStringLiteral("scale:4096") << QString() << false << QString() << QString()
                                << false;
    QTest::newRow("scale:65536") << QStringLiteral("scale:65536") << QString() << false << QString() << QString()
                                 << false;
    QTest::newRow("scale:65536 spine") << QStringLiteral("scale:65536") << QString() << false
                                       << QStringLiteral("core-1/spine-01") << QString() << false;
    QTest::newRow("scale:65536 agg") << QStringLiteral("scale:65536") << QString() << false
                                     << QStringLiteral("core-1/spine-01/agg-002") << QString() << false;
    QTest::newRow("scale:65536 plan") << QStringLiteral("scale:65536") << QString() << false << QString() << bigPlan
                                      << false;
    QTest::newRow("scale:65536 plan capacity") << QStringLiteral("scale:65536") << QString() << false
                                               << QStringLiteral("core-1") << bigPlan << true;
}

void TestScreenshots::demo() {
    QFETCH(QString, demo);
    QFETCH(QString, select);
    QFETCH(bool, dark);
    QFETCH(QString, zoom);
    QFETCH(QString, plan);
    QFETCH(bool, capacity);
    QString name = QStringLiteral("screenshot-") % QString::fromLatin1(QTest::currentDataTag());
    name.replace(QLatin1Char(':'), QLatin1Char('-')).replace(QLatin1Char(' '), QLatin1Char('-'));
    const QString path = QDir::current().absoluteFilePath(name % QStringLiteral(".png"));
    QFile::remove(path);

    const QPalette lightPalette = QApplication::palette();
    if (dark) QApplication::setPalette(darkPalette());
    const auto restore = qScopeGuard([&] { QApplication::setPalette(lightPalette); });

    MainWindow window;
    auto* capture = new ScreenshotCapture(&window, path, CommandLine::kScreenshotSize);
    QSignalSpy finished(capture, &ScreenshotCapture::finished);
    capture->start(select);
    if (!plan.isEmpty()) {
        capture->waitFor(window.plannerPanel(), &PlannerPanel::answerShown);
        window.planOnceShown(plan);
    }
    window.setMapView(zoom, capacity);
    LaunchOptions options;
    options.demo = demo;
    window.open(options);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(1).toString(), QString());
    QCOMPARE(finished.first().at(0).toInt(), 0);

    const QImage image(path);
    QVERIFY2(!image.isNull(), qPrintable(path));
    QCOMPARE(image.size(), CommandLine::kScreenshotSize * window.devicePixelRatio());

    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));

    // The map, where it sits in the window, shows used and free GPU cells.
    const TopologyMapView* map = window.mapView();
    const QRect mapRect(map->mapTo(&window, QPoint(0, 0)), map->size());
    QVERIFY(mapRect.width() > 400 && mapRect.height() > 400);
    const OccupancyPalette palette = OccupancyPalette::forPalette(map->palette());
    int used = 0, free = 0;
    for (int y = mapRect.top(); y <= mapRect.bottom(); ++y)
        for (int x = mapRect.left(); x <= mapRect.right(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            used += pixel == palette.used.rgb();
            free += pixel == palette.free.rgb();
        }
    if (!capacity) { // free-capacity colours replace the free cells
        QVERIFY2(used > 1000, qPrintable(QStringLiteral("%1 used pixels").arg(used)));
        QVERIFY2(free > 1000, qPrintable(QStringLiteral("%1 free pixels").arg(free)));
    }
    if (!select.isEmpty()) QVERIFY(map->selectedDomain() != kNoDomain);

    if (!zoom.isEmpty()) {
        const std::optional<QModelIndex> zoomed = window.treeModel()->indexForPath(zoom);
        QVERIFY(zoomed);
        const auto id = zoomed->data(TopologyTreeModel::DomainIdRole).value<DomainId>();
        QCOMPARE(map->focusDomain(), id);
        // Fitted: the domain fills the map one way and is wholly on it.
        const QRectF domain = map->worldToScreen(map->mapLayout().domainRect(id));
        QVERIFY(QRectF(map->rect()).adjusted(-1, -1, 1, 1).contains(domain));
        QVERIFY(domain.width() > 0.85 * map->width() || domain.height() > 0.85 * map->height());
    }
    if (!plan.isEmpty()) {
        // The dry-run fits and its nodes are outlined in the plan colour.
        const PlanAnswerPtr& answer = window.plannerPanel()->answer();
        QVERIFY(answer && answer->error.empty());
        QVERIFY(answer->outcome.allFeasible());
        int accent = 0;
        for (int y = mapRect.top(); y <= mapRect.bottom(); ++y)
            for (int x = mapRect.left(); x <= mapRect.right(); ++x) accent += image.pixel(x, y) == QColor(214, 51, 132).rgb();
        QVERIFY2(accent > 100, qPrintable(QStringLiteral("%1 plan-coloured pixels").arg(accent)));
    }
    if (capacity) {
        QCOMPARE(map->colourMode(), TopologyMapView::ColourMode::FreeCapacity);
        QVERIFY(map->podsThatFitIn(kRootDomain) > 0);
        // The gang fits, so some domain has room for all of it: green (deep on a rack, a tint above).
        int green = 0;
        for (int y = mapRect.top(); y <= mapRect.bottom(); ++y)
            for (int x = mapRect.left(); x <= mapRect.right(); ++x) {
                const QColor pixel(image.pixel(x, y));
                green += pixel.green() > pixel.red() + 30 && pixel.green() > pixel.blue() + 30;
            }
        QVERIFY2(green > 1000, qPrintable(QStringLiteral("%1 green pixels").arg(green)));
    }
    qInfo("wrote %s", qPrintable(path));
}

void TestScreenshots::unknownDemoFails() {
    MainWindow window;
    auto* capture = new ScreenshotCapture(&window, QDir::temp().absoluteFilePath(QStringLiteral("never.png")),
                                          CommandLine::kScreenshotSize);
    QSignalSpy finished(capture, &ScreenshotCapture::finished);
    capture->start();
    LaunchOptions options;
    options.demo = QStringLiteral("no-such-demo");
    window.open(options);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toInt(), 1);
    QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("no-such-demo")),
             qPrintable(finished.first().at(1).toString()));
}

void TestScreenshots::unknownSelectionFails() {
    MainWindow window;
    auto* capture = new ScreenshotCapture(&window, QDir::temp().absoluteFilePath(QStringLiteral("never.png")),
                                          CommandLine::kScreenshotSize);
    QSignalSpy finished(capture, &ScreenshotCapture::finished);
    capture->start(QStringLiteral("su-9/rack-x"));
    LaunchOptions options;
    options.demo = QStringLiteral("gb200");
    window.open(options);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toInt(), 1);
    QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("su-9/rack-x")));
}

TOPODECK_TEST_MAIN(TestScreenshots)
#include "test_screenshots.moc"
