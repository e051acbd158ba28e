// The "done when", as one operator session on the 65,536-node demo with the keyboard
// alone: find a rack (Ctrl+K), plan a 16 × 4-GPU gang under every engine (F2) and look at the
// Kueue and then the Slurm placement on the map, read why a larger gang does not fit, each trace
// line selecting its domain, and open the running gangs (F3), most spread first, one lit on the map.
#include "app/gui/main_window.h"
#include "models/gangs_model.h"
#include "models/plan_trace_model.h"
#include "views/chrome/command_palette.h"
#include "views/map/topology_map_view.h"
#include "views/pages/gangs_page.h"
#include "views/pages/planner_panel.h"

#include "gui_test_window.h"
#include "support/test_program.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace topodeck;

namespace {

// Tab until a widget accepted by `is` has the keyboard (false after a full round).
template <typename Predicate> bool tabTo(Predicate is) {
    for (int i = 0; i < 40; ++i) {
        if (QWidget* focus = QApplication::focusWidget(); focus && is(focus)) return true;
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    }
    return false;
}

// The child a screen reader knows by this name.
template <typename Widget> Widget* named(QWidget* parent, const char* accessibleName) {
    for (Widget* widget : parent->findChildren<Widget*>())
        if (widget->accessibleName() == QLatin1String(accessibleName)) return widget;
    return nullptr;
}

std::int64_t podsOutlined(const TopologyMapView& map) {
    std::int64_t pods = 0;
    for (const auto& [node, count] : map.highlight()) pods += count;
    return pods;
}

} // namespace

class TestOperatorJourney : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        m_window = testing::shownDemoWindow(QStringLiteral("scale:65536"));
        QVERIFY(m_window);
    }
    void cleanupTestCase() { m_window.reset(); }

    void findARack() {
        QTest::keyClick(m_window.get(), Qt::Key_K, Qt::ControlModifier);
        CommandPalette* palette = m_window->commandPalette();
        QTRY_VERIFY(palette->isVisible());
        auto* query = palette->findChild<QLineEdit*>();
        QTRY_COMPARE(QApplication::focusWidget(), query);
        QTest::keyClicks(query, QString::fromLatin1(kRack));
        QTest::keyClick(query, Qt::Key_Return);
        QTRY_VERIFY(!palette->isVisible());
        QCOMPARE(m_window->treeView()->currentIndex().data().toString(), QString::fromLatin1(kRack));
        // The window has the keyboard again, on the map, where the arrows go on from the rack.
        QTRY_COMPARE(QApplication::activeWindow(), m_window.get());
        QTRY_COMPARE(QApplication::focusWidget(), m_window->mapView());
    }

    void planUnderKueueThenSlurm() {
        PlannerPanel* planner = m_window->plannerPanel();
        QTest::keyClick(keyboard(), Qt::Key_F2);
        QTRY_VERIFY(planner->isVisible());
        typeFlags(QStringLiteral("--pods 16 --request nvidia.com/gpu=4 --required rack --compare"));
        const PlanAnswerPtr answer = planner->answer();
        QVERIFY(answer && answer->error.empty());
        QVERIFY(answer->outcome.results.size() > 1);

        // The first engine's placement is on the map: Kueue's.
        TopologyMapView* map = m_window->mapView();
        QVERIFY2(map->highlightCaption().startsWith(QStringLiteral("kueue-tas: ")),
                 qPrintable(map->highlightCaption()));
        QCOMPARE(podsOutlined(*map), 16);

        // Down the engines list to Slurm's: the map follows.
        QTreeView* engines = named<QTreeView>(planner, "Engines");
        QVERIFY(engines);
        QVERIFY(tabTo([&](QWidget* w) { return w == engines; }));
        for (int row = 0; row < 8 && !map->highlightCaption().startsWith(QStringLiteral("slurm-")); ++row)
            QTest::keyClick(engines, Qt::Key_Down);
        QVERIFY2(map->highlightCaption().startsWith(QStringLiteral("slurm-")), qPrintable(map->highlightCaption()));
        QCOMPARE(podsOutlined(*map), 16);
        const PlacementResult* slurm = nullptr;
        for (const PlacementResult& result : answer->outcome.results)
            if (map->highlightCaption().startsWith(QString::fromStdString(result.engine) + QLatin1Char(':')))
                slurm = &result;
        QVERIFY(slurm && slurm->feasible);
    }

    void readWhyALargerGangDoesNotFit() {
        PlannerPanel* planner = m_window->plannerPanel();
        // A rack is 32 nodes of 8 GPUs: 80 pods of 4 cannot be in one.
        typeFlags(QStringLiteral("--pods 80 --request nvidia.com/gpu=4 --required rack --engine kueue-tas"));
        const PlanAnswerPtr answer = planner->answer();
        QVERIFY(answer && answer->error.empty());
        QVERIFY(!answer->outcome.allFeasible());
        QCOMPARE(podsOutlined(*m_window->mapView()), 0);

        // The trace says why, domain by domain; moving along it selects each line's domain.
        QTreeView* trace = named<QTreeView>(planner, "Trace");
        QVERIFY(trace);
        auto* lines = qobject_cast<PlanTraceModel*>(trace->model());
        QVERIFY(lines && lines->rowCount() > 1);
        QVERIFY(tabTo([&](QWidget* w) { return w == trace; }));
        int selected = 0;
        for (int row = 0; row < std::min(lines->rowCount(), 12); ++row) {
            QTest::keyClick(trace, Qt::Key_Down);
            const QString path = lines->pathAt(trace->currentIndex().row());
            if (path.isEmpty()) continue;
            QTRY_COMPARE(m_window->treeView()->currentIndex().data().toString(), path.section(QLatin1Char('/'), -1));
            const QString why = lines->index(trace->currentIndex().row(), PlanTraceModel::WhyColumn).data().toString();
            QVERIFY2(!why.isEmpty(), qPrintable(path));
            ++selected;
        }
        QVERIFY(selected > 0);
    }

    void seeTheGangsSpreadWiderThanTheyNeed() {
        QTest::keyClick(keyboard(), Qt::Key_F3);
        GangsPage* page = m_window->gangsPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->isVisible() && page->model()->rowCount() > 0, 30000);
        QTableView* table = page->table();
        QTRY_VERIFY(table->hasFocus() || table->isAncestorOf(QApplication::focusWidget()) ||
                    page->isAncestorOf(QApplication::focusWidget()));
        if (!table->hasFocus()) QVERIFY(tabTo([&](QWidget* w) { return w == table; }));
        // Most spread first, and the demo has gangs spread wider than they need.
        QVERIFY(!page->model()->index(0, 0).data(GangsModel::CompactRole).toBool());
        QSignalSpy selected(page, &GangsPage::gangSelected);
        QTest::keyClick(table, Qt::Key_Home);
        if (selected.isEmpty()) QTest::keyClick(table, Qt::Key_Down);
        QTRY_VERIFY(!selected.isEmpty());
        const int row = table->currentIndex().row();
        QVERIFY(!page->model()->index(row, 0).data(GangsModel::CompactRole).toBool() || row > 0);
        const QList<quint32> nodes = page->model()->index(row, 0).data(GangsModel::NodeIdsRole).value<QList<quint32>>();
        QVERIFY(!nodes.isEmpty());
        QCOMPARE(m_window->mapView()->highlight().size(), std::size_t(nodes.size()));
    }

private:
    // Where a key goes: the widget with the keyboard, else the window.
    QWidget* keyboard() const {
        QWidget* focus = QApplication::focusWidget();
        return focus ? focus : m_window.get();
    }
    // Alt+G puts the keyboard in the planner's flags line; select all, type, Enter, the answer.
    void typeFlags(const QString& flags) {
        PlannerPanel* planner = m_window->plannerPanel();
        auto* edit = planner->findChild<QLineEdit*>();
        QTest::keyClick(keyboard(), Qt::Key_G, Qt::AltModifier);
        QTRY_COMPARE(QApplication::focusWidget(), edit);
        QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        QTest::keyClicks(edit, flags);
        QCOMPARE(edit->text(), flags);
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(answered.wait(60000));
    }

    static constexpr const char* kRack = "rack-0413";
    std::unique_ptr<MainWindow> m_window;
};

TOPODECK_TEST_MAIN(TestOperatorJourney)
#include "test_operator_journey.moc"
