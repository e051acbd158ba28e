// What the window remembers between runs, in a real INI file in a temporary folder: File › Recent
// Clusters lists what showed data (not what failed to open), newest first, and reopens it; the
// first window comes back where it was closed, with its docks; other windows leave that alone.
#include "gui_test_window.h"

#include "views/chrome/app_settings.h"
#include "views/chrome/open_failure_banner.h"
#include "views/chrome/recent_clusters_menu.h"
#include "support/test_program.h"

#include <QDockWidget>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>

using namespace topodeck;

namespace {

// The menu as it is when it opens (it is filled then).
QStringList recentMenuTexts(MainWindow& window) {
    Q_EMIT window.recentClustersMenu()->aboutToShow();
    QStringList texts;
    for (QAction* action : window.recentClustersMenu()->actions())
        if (!action->isSeparator()) texts << action->text();
    return texts;
}

QAction* recentMenuAction(MainWindow& window, const QString& text) {
    Q_EMIT window.recentClustersMenu()->aboutToShow();
    for (QAction* action : window.recentClustersMenu()->actions())
        if (action->text() == text) return action;
    return nullptr;
}

QList<RecentCluster> recent() {
    return AppSettings().recentClusters();
}

QString dataFile(const char* name) {
    return QStringLiteral(TOPODECK_TEST_DATA_DIR "/") + QLatin1String(name);
}

} // namespace

class TestWindowMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationDomain(QStringLiteral("topodeck.io"));
        QCoreApplication::setApplicationName(QStringLiteral("topodeck-test"));
        QVERIFY(m_dir.isValid());
        AppSettings::useLocationForTests(m_dir.path());
    }

    void init() {
        AppSettings settings;
        settings.clearRecentClusters();
        settings.setWindowGeometry({});
        settings.setWindowState({});
    }

    void recentClustersAreWhatShowedData() {
        std::unique_ptr<MainWindow> window = testing::shownDemoWindow(QStringLiteral("h100"));
        QVERIFY(window);
        const RecentCluster demo{RecentCluster::Kind::Demo, QStringLiteral("h100"), {}};
        QCOMPARE(recent(), QList<RecentCluster>{demo});

        QSignalSpy shown(window.get(), &MainWindow::dataShown);
        LaunchOptions options;
        options.file = dataFile("show-small.yaml");
        window->open(options);
        QVERIFY(shown.wait(30000));
        const RecentCluster file{RecentCluster::Kind::File, dataFile("show-small.yaml"), {}};
        QCOMPARE(recent(), (QList<RecentCluster>{file, demo}));

        // A file that cannot be read is reported, and not remembered.
        auto* banner = window->findChild<OpenFailureBanner*>();
        options.file = dataFile("show-bad-quantity.yaml");
        window->open(options);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QCOMPARE(recent(), (QList<RecentCluster>{file, demo}));

        const QStringList texts = recentMenuTexts(*window);
        QCOMPARE(texts.size(), 3);
        QCOMPARE(texts[0], QStringLiteral("&1 ") + file.label());
        QCOMPARE(texts[1], QStringLiteral("&2 Demo h100"));
        QCOMPARE(texts[2], QStringLiteral("&Clear Recent Clusters"));

        // Choosing an entry reopens it, and moves it to the front.
        QAction* again = recentMenuAction(*window, QStringLiteral("&2 Demo h100"));
        QVERIFY(again);
        shown.clear();
        again->trigger();
        QVERIFY(shown.wait(30000));
        QCOMPARE(window->shownSnapshot()->status.sourceName.contains(QStringLiteral("h100")), true);
        QCOMPARE(recent(), (QList<RecentCluster>{demo, file}));

        recentMenuAction(*window, QStringLiteral("&Clear Recent Clusters"))->trigger();
        QVERIFY(recent().isEmpty());
        const QStringList empty = recentMenuTexts(*window);
        QCOMPARE(empty, (QStringList{QStringLiteral("No Recent Clusters"), QStringLiteral("&Clear Recent Clusters")}));
        QVERIFY(!recentMenuAction(*window, QStringLiteral("No Recent Clusters"))->isEnabled());
    }

    // An entry written by hand (or for a build that read more Slurm URLs) is reported where the
    // user looked, and what is shown stays.
    void badRecentSlurmTargetIsReported() {
        std::unique_ptr<MainWindow> window = testing::shownDemoWindow(QStringLiteral("h100"));
        QVERIFY(window);
        const ClusterSnapshotPtr before = window->shownSnapshot();
        window->openRecent({RecentCluster::Kind::Slurm, QStringLiteral("gopher://slurm:6820"), {}});
        auto* banner = window->findChild<OpenFailureBanner*>();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("gopher://slurm:6820")), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QStringLiteral("Still showing")), qPrintable(banner->text()));
        QCOMPARE(window->shownSnapshot(), before);
    }

    void firstWindowComesBackAsClosed() {
        {
            std::unique_ptr<MainWindow> window = testing::shownDemoWindow(QStringLiteral("h100"));
            QVERIFY(window);
            window->restoreLayout(); // nothing saved yet: as built
            window->resize(1234, 777);
            QVERIFY(window->showPage(QStringLiteral("gangs")));
            QVERIFY(window->close());
        }
        QVERIFY(!AppSettings().windowGeometry().isEmpty());
        QVERIFY(!AppSettings().windowState().isEmpty());
        {
            // A window that does not restore (a second one, a test, a screenshot) saves nothing.
            std::unique_ptr<MainWindow> other = testing::shownDemoWindow(QStringLiteral("h100"));
            QVERIFY(other);
            QVERIFY(!other->findChild<QDockWidget*>(QStringLiteral("gangsDock"))->isVisible());
            other->resize(900, 600);
            QVERIFY(other->close());
        }
        auto window = std::make_unique<MainWindow>();
        window->restoreLayout();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(window->size(), QSize(1234, 777));
        QVERIFY(window->findChild<QDockWidget*>(QStringLiteral("gangsDock"))->isVisible());
        QVERIFY(!window->findChild<QDockWidget*>(QStringLiteral("plannerDock"))->isVisible());
    }

    // Settings a newer or broken build left behind are ignored, not fatal.
    void garbageLayoutIsIgnored() {
        AppSettings settings;
        settings.setWindowGeometry(QByteArray("not a geometry"));
        settings.setWindowState(QByteArray("\x00\x01garbage", 9));
        settings.sync();
        auto window = std::make_unique<MainWindow>();
        window->restoreLayout();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(window->size(), QSize(1400, 900)); // as built
        // Not held larger than its pages need while nothing was shown (a laptop's screen).
        QVERIFY(window->minimumSize().height() < 768);
    }

private:
    QTemporaryDir m_dir;
};

TOPODECK_TEST_MAIN(TestWindowMemory)
#include "test_window_memory.moc"
