// The typed settings: every value round-trips through a real INI file in a temporary folder,
// recent clusters keep their order and cap, and what a newer version wrote is skipped.
#include "views/chrome/app_settings.h"
#include "support/test_program.h"

#include <QCoreApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace topodeck;

class TestAppSettings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationDomain(QStringLiteral("topodeck.io"));
        QCoreApplication::setApplicationName(QStringLiteral("topodeck-test"));
        QVERIFY(m_dir.isValid());
        AppSettings::useLocationForTests(m_dir.path());
    }

    void defaults() {
        AppSettings settings;
        QVERIFY(settings.fileName().startsWith(m_dir.path()));
        QVERIFY(settings.fileName().endsWith(QStringLiteral(".ini")));
        QVERIFY(settings.windowGeometry().isEmpty());
        QVERIFY(settings.windowState().isEmpty());
        QCOMPARE(settings.theme(), ThemeChoice::System);
        QVERIFY(settings.recentClusters().isEmpty());
        QVERIFY(settings.plannerInputs().isEmpty());
    }

    void roundTrip() {
        const QByteArray geometry("\x01\xd9\xd0\xcb\x00\x03", 6);
        {
            AppSettings settings;
            settings.setWindowGeometry(geometry);
            settings.setWindowState(QByteArray("state"));
            settings.setTheme(ThemeChoice::Dark);
            settings.setPlannerInputs(QStringLiteral("--engine kueue-tas --pods 16 --gpus 8 --required rack"));
            settings.sync();
        }
        AppSettings again;
        QCOMPARE(again.windowGeometry(), geometry);
        QCOMPARE(again.windowState(), QByteArray("state"));
        QCOMPARE(again.theme(), ThemeChoice::Dark);
        QCOMPARE(again.plannerInputs(), QStringLiteral("--engine kueue-tas --pods 16 --gpus 8 --required rack"));
    }

    void recentClusters() {
        AppSettings settings;
        settings.clearRecentClusters();
        const RecentCluster demo{RecentCluster::Kind::Demo, QStringLiteral("gb200"), {}};
        const RecentCluster file{RecentCluster::Kind::File, QStringLiteral("/data/cluster.yaml"), {}};
        const RecentCluster context{RecentCluster::Kind::Context, QStringLiteral("prod"), QStringLiteral("/k/lab.yaml")};
        const RecentCluster slurm{RecentCluster::Kind::Slurm, QStringLiteral("cli"), {}};
        settings.addRecentCluster(demo);
        settings.addRecentCluster(file);
        settings.addRecentCluster(context);
        settings.addRecentCluster(slurm);
        settings.addRecentCluster(demo); // again: to the front, not twice
        settings.sync();
        const QList<RecentCluster> expected{demo, slurm, context, file};
        QCOMPARE(AppSettings().recentClusters(), expected);
        QCOMPARE(context.label(), QStringLiteral("Context prod (lab.yaml)"));
        QCOMPARE(demo.label(), QStringLiteral("Demo gb200"));
        QCOMPARE(slurm.label(), QStringLiteral("Slurm (local commands)"));

        for (int i = 0; i < 20; ++i)
            settings.addRecentCluster({RecentCluster::Kind::Demo, QStringLiteral("scale:%1").arg(i + 1), {}});
        const QList<RecentCluster> capped = AppSettings().recentClusters();
        QCOMPARE(capped.size(), AppSettings::kMaxRecentClusters);
        QCOMPARE(capped.front().target, QStringLiteral("scale:20"));
        QCOMPARE(capped.back().target, QStringLiteral("scale:13"));
    }

    void unknownKindsAreSkipped() {
        AppSettings settings;
        settings.clearRecentClusters();
        settings.addRecentCluster({RecentCluster::Kind::Demo, QStringLiteral("h100"), {}});
        settings.sync();
        {
            // As a newer topodeck might write it.
            QSettings raw;
            raw.beginWriteArray(QStringLiteral("recentClusters"));
            raw.setArrayIndex(1);
            raw.setValue(QStringLiteral("kind"), QStringLiteral("hologram"));
            raw.setValue(QStringLiteral("target"), QStringLiteral("x"));
            raw.endArray();
        }
        const QList<RecentCluster> clusters = AppSettings().recentClusters();
        QCOMPARE(clusters.size(), 1);
        QCOMPARE(clusters.front().target, QStringLiteral("h100"));
    }

private:
    QTemporaryDir m_dir;
};

TOPODECK_TEST_GUILESS_MAIN(TestAppSettings)
#include "test_app_settings.moc"
