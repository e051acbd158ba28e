// The Running Gangs page on the gb200 demo, from the keyboard: shown, it lists the gangs most
// spread first (the page alone, on a session); in the window F3 opens it, and selecting one
// outlines its nodes on the map and shows it in the details pane: its pods per domain at each
// level and the boundaries it crosses.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "models/gangs_model.h"
#include "views/map/topology_map_view.h"
#include "views/pages/details_panel.h"
#include "views/pages/gangs_page.h"

#include "gui_test_window.h"
#include "page_on_session.h"
#include "support/test_program.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace topodeck;

class TestGangsPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { m_window.reset(); }

    void listsGangsMostSpreadFirst() {
        testing::PageOnDemo<GangsPage> onDemo;
        QVERIFY(onDemo.page());
        // Shown, as F3 shows the window's, the page asks for its report.
        QVERIFY(testing::showWithKeyboard(*onDemo.page()));
        GangsPage* page = shownWithReport(onDemo.page());
        QVERIFY(page);
        const GangsReportPtr report = page->model()->report();
        QVERIFY(report->gangs.size() > 1);
        QCOMPARE(page->model()->rowCount(), int(report->gangs.size()));
        for (std::size_t i = 1; i < report->gangs.size(); ++i)
            QVERIFY(!gangMoreSpread(report->gangs[i], report->gangs[i - 1]));
        // The demo has gangs spread wider than they need: one of them is first.
        QVERIFY(!report->gangs.front().compact());
        QVERIFY(!page->model()->index(0, 0).data(GangsModel::CompactRole).toBool());
    }

    // On the window: the map and the details pane following the selected gang is the window's wiring.
    void selectingAGangShowsIt() {
        m_window = testing::shownDemoWindow();
        QVERIFY(m_window);
        GangsPage* page = openPage();
        QVERIFY(page);
        QTableView* table = page->table();
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QSignalSpy selected(page, &GangsPage::gangSelected);
        QTest::keyClick(table, Qt::Key_Down);
        if (selected.isEmpty()) QTest::keyClick(table, Qt::Key_Down);
        QTRY_VERIFY(!selected.isEmpty());
        const int row = table->currentIndex().row();
        const Gang* gang = page->model()->gang(row);
        QVERIFY(gang);
        checkShown(*gang);

        // The next gang, the same way.
        QTest::keyClick(table, Qt::Key_Down);
        QTRY_COMPARE(table->currentIndex().row(), row + 1);
        const Gang* next = page->model()->gang(row + 1);
        QVERIFY(next);
        checkShown(*next);

        // Choosing a domain in the tree puts the details back on it.
        QVERIFY(m_window->selectPath(QStringLiteral("su-1")));
        QTRY_VERIFY(m_window->detailsPanel()->shownGang().isEmpty());
    }

private:
    // The page once it shows its first report; null when it did not within 30 s.
    static GangsPage* shownWithReport(GangsPage* page) {
        if (!QTest::qWaitFor([&] { return page->isVisible() && page->model()->rowCount() > 0; }, 30000)) return nullptr;
        return page;
    }

    // The window's page, opened with F3 as the operator opens it.
    GangsPage* openPage() {
        QTest::keyClick(m_window.get(), Qt::Key_F3);
        return shownWithReport(m_window->gangsPage());
    }

    void checkShown(const Gang& gang) {
        const QString name = QString::fromStdString(gang.qualifiedName());
        // The map outlines its nodes.
        TopologyMapView* map = m_window->mapView();
        QTRY_COMPARE(map->highlight().size(), gang.nodes.size());
        for (std::size_t i = 0; i < gang.nodes.size(); ++i) QCOMPARE(map->highlight()[i].first, gang.nodes[i]);
        QVERIFY(map->highlightCaption().contains(name));

        // The details pane shows it: its pods per domain, adding up at each level.
        DetailsPanel* details = m_window->detailsPanel();
        QTRY_COMPARE(details->shownGang(), name);
        // The details' tables are views on item models (GangDomainsModel): a cell's text is the model's.
        auto* domains = details->findChild<QTableView*>(QStringLiteral("gangDomains"));
        QVERIFY(domains);
        QTRY_VERIFY(domains->isVisible());
        const QAbstractItemModel* cells = domains->model();
        const auto text = [cells](int row, int column) { return cells->index(row, column).data().toString(); };
        QVERIFY(cells->rowCount() > 0);
        std::map<QString, qint64> podsPerLevel;
        for (int row = 0; row < cells->rowCount(); ++row)
            podsPerLevel[text(row, 0)] += text(row, 2).remove(QLocale().groupSeparator()).toLongLong();
        QVERIFY(podsPerLevel.count(QStringLiteral("rack")) == 1);
        for (const auto& [level, pods] : podsPerLevel) QCOMPARE(pods, qint64(gang.pods));
        // A rack row reads "su-N/rack-N-NN".
        bool rackRow = false;
        for (int row = 0; row < cells->rowCount(); ++row)
            rackRow =
                rackRow || (text(row, 0) == QLatin1String("rack") && text(row, 1).startsWith(QLatin1String("su-")));
        QVERIFY(rackRow);
        // The boundaries it crosses, level by level.
        bool boundaries = false;
        for (const QLabel* label : details->findChildren<QLabel*>())
            boundaries = boundaries || (label->isVisible() && label->text().contains(QStringLiteral("would hold it")));
        QVERIFY(boundaries);
    }

    std::unique_ptr<MainWindow> m_window;
};

TOPODECK_TEST_MAIN(TestGangsPage)
#include "test_gangs_page.moc"
