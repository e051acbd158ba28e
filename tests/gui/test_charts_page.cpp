// The charts page offscreen: fed by a ClusterSession with the demo simulator running, its series
// grow; redraws are bounded; the chart themes follow the palette; and the page is rendered to PNGs
// (light and dark, gb200 and scale:65536) in the build tree for people to look at.
#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "models/level_capacity_model.h"
#include "models/occupancy_history_model.h"
#include "session/cluster_session.h"
#include "support/demo_loader.h"
#include "views/chrome/theme.h"
#include "views/pages/charts_page.h"
#include "support/test_program.h"

#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QDir>
#include <QImage>
#include <QLineSeries>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <optional>

using namespace topodeck;

namespace {

// A demo cluster loaded the way a source holds it, stepped by its simulator.
struct Source : testing::LoadedDemo {
    explicit Source(const QString& name) : LoadedDemo(testing::loadDemo(name.toStdString())) {}
    void step(DemoSimulator& simulator) {
        for (ClusterEvent& event : simulator.step(state)) index.apply(state, state.apply(std::move(event)));
    }
    ClusterSnapshotPtr snapshot() const { return makeClusterSnapshot(state, index, {}, {}, 1); }
};

DomainId firstAtLevel(const TopologyIndex& index, int level) {
    for (DomainId id = 1; id < index.domainSlots(); ++id)
        if (index.domain(id).alive && index.domain(id).level == level) return id;
    return kNoDomain;
}

} // namespace

class TestChartsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void seriesGrowWithTheSimulator() {
        ClusterSession session;
        session.setSimulationInterval(40);
        session.setSimulationEnabled(true);
        ChartsPage page;
        QCOMPARE(page.sampleInterval(), 10'000); // the default
        page.setSampleInterval(60);
        page.setRedrawInterval(50);
        page.resize(900, 600);
        page.show();
        connect(&session, &ClusterSession::snapshotPublished, &page, &ChartsPage::setSnapshot);
        session.openDemo(QStringLiteral("gb200"));

        QTRY_VERIFY_WITH_TIMEOUT(page.clusterUsedSeries()->count() >= 4, 20000);
        QVERIFY(page.historyModel()->rowCount() >= 4);
        QVERIFY(!page.selectedUsedSeries()->isVisible());
        // The simulator changes occupancy: the line is not flat.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QList<QPointF> points = page.clusterUsedSeries()->points();
                return std::any_of(points.begin(), points.end(), [&](QPointF p) { return p.y() != points.front().y(); });
            }(),
            20000);

        // A rack (below the levels kept anyway) has its own line from its selection on.
        const ClusterSnapshotPtr latest = session.latestSnapshot();
        QVERIFY(latest);
        const DomainId rack = firstAtLevel(latest->index, 1);
        QVERIFY(rack != kNoDomain);
        page.setSelectedDomain(rack);
        QTRY_VERIFY(page.selectedUsedSeries()->isVisible());
        QVERIFY(page.selectedUsedSeries()->name().contains(QString::fromStdString(latest->index.pathName(rack))));
        const qsizetype before = page.selectedUsedSeries()->count();
        QTRY_VERIFY_WITH_TIMEOUT(page.selectedUsedSeries()->count() >= before + 3, 20000);

        // The bar charts have a category per level: su, rack, NVLink domain, node.
        QCOMPARE(page.capacityModel()->rowCount(), 4);
        const auto* slots = qobject_cast<QBarSeries*>(page.slotsChart()->series().value(0));
        QVERIFY(slots);
        QCOMPARE(slots->count(), 4);
        QCOMPARE(slots->barSets().front()->count(), 5);
        page.setSelectedDomain(kNoDomain);
        QTRY_VERIFY(!page.selectedUsedSeries()->isVisible());
        session.setSimulationEnabled(false);
    }

    void redrawsAtMostOncePerInterval() {
        Source source(QStringLiteral("h100"));
        DemoSimulator simulator(source.demo, 5);
        ChartsPage page;
        page.setRedrawInterval(300);
        page.resize(800, 500);
        page.show();
        QTRY_COMPARE(page.redraws(), 1); // shown: drawn once
        QTest::qWait(400);                // and the interval over
        const int start = page.redraws();
        for (int i = 0; i < 50; ++i) {
            source.step(simulator);
            page.setSnapshot(source.snapshot());
        }
        // The first drew at once; the other 49 wait for the interval, then draw once.
        QCOMPARE(page.redraws(), start + 1);
        QTRY_COMPARE_WITH_TIMEOUT(page.redraws(), start + 2, 2000);
        QTest::qWait(400);
        QCOMPARE(page.redraws(), start + 2);
        // All within one sample interval: one point, updated in place.
        QCOMPARE(page.historyModel()->rowCount(), 1);
        QCOMPARE(page.clusterUsedSeries()->count(), 1);
        QCOMPARE(page.clusterUsedSeries()->at(0).y(),
                 100.0 * double(source.index.root().totals.gpusUsed) / double(source.index.root().totals.gpusTotal));
    }

    void hiddenPageDrawsWhenShown() {
        Source source(QStringLiteral("h100"));
        ChartsPage page;
        page.setSnapshot(source.snapshot());
        QCOMPARE(page.redraws(), 0);
        QCOMPARE(page.historyModel()->rowCount(), 1);
        page.show();
        QCOMPARE(page.redraws(), 1);
        QCOMPARE(page.clusterUsedSeries()->count(), 1);
    }

    void themes() {
        Theme::captureSystemPalette();
        const QPalette system = QApplication::palette();
        const auto restore = qScopeGuard([] { Theme::apply(ThemeChoice::System); });
        ChartsPage page;
        Theme::apply(ThemeChoice::Dark);
        QCOMPARE(Theme::current(), ThemeChoice::Dark);
        QVERIFY(Theme::isDark(QApplication::palette()));
        QTRY_COMPARE(page.historyChart()->theme(), QChart::ChartThemeDark);
        QCOMPARE(page.slotsChart()->theme(), QChart::ChartThemeDark);
        Theme::apply(ThemeChoice::Light);
        QVERIFY(!Theme::isDark(QApplication::palette()));
        QTRY_COMPARE(page.fragmentationChart()->theme(), QChart::ChartThemeLight);
        Theme::apply(ThemeChoice::System);
        QCOMPARE(QApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
        QCOMPARE(Theme::systemIsDark(), Theme::isDark(system));
        // Text on the dark palette stays readable (a lightness gap of more than half the range).
        const QPalette dark = Theme::darkPalette();
        QVERIFY(dark.color(QPalette::Text).lightness() - dark.color(QPalette::Base).lightness() > 160);
        QVERIFY(dark.color(QPalette::WindowText).lightness() - dark.color(QPalette::Window).lightness() > 160);
        for (ThemeChoice choice : {ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark})
            QCOMPARE(Theme::fromKey(Theme::key(choice)), choice);
        QCOMPARE(Theme::fromKey(QStringLiteral("purple")), ThemeChoice::System);
    }

    void screenshot_data() {
        QTest::addColumn<QString>("demo");
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("points");
        QTest::newRow("gb200") << QStringLiteral("gb200") << false << 720;
        QTest::newRow("gb200 dark") << QStringLiteral("gb200") << true << 720;
        QTest::newRow("scale:65536") << QStringLiteral("scale:65536") << false << 60;
        QTest::newRow("scale:65536 dark") << QStringLiteral("scale:65536") << true << 60;
    }
    void screenshot() {
        QFETCH(QString, demo);
        QFETCH(bool, dark);
        QFETCH(int, points);
        Theme::captureSystemPalette();
        const auto restore = qScopeGuard([] { Theme::apply(ThemeChoice::System); });
        Theme::apply(dark ? ThemeChoice::Dark : ThemeChoice::Light);

        // A history of `points` samples 10 s apart, ending now, with the simulator moving gangs.
        Source source(demo);
        DemoSimulator simulator(source.demo, 11);
        ChartsPage page;
        page.resize(1000, 700);
        const DomainId selected = firstAtLevel(source.index, 1);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < points; ++i) {
            source.step(simulator);
            page.historyModel()->addSnapshot(source.snapshot(), now - qint64(points - i) * 10'000);
            if (i == points / 3) page.setSelectedDomain(selected);
        }
        page.setSnapshot(source.snapshot());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.clusterUsedSeries()->count(), points + 1);

        QString name = QStringLiteral("charts-") % demo % (dark ? QStringLiteral("-dark") : QString());
        name.replace(QLatin1Char(':'), QLatin1Char('-'));
        const QString path = QDir::current().absoluteFilePath(name % QStringLiteral(".png"));
        const QImage image = page.grab().toImage();
        QVERIFY(image.save(path));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 30, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
        qInfo("wrote %s", qPrintable(path));
    }
};

TOPODECK_TEST_MAIN(TestChartsPage)
#include "test_charts_page.moc"
