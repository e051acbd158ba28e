// The planner driven from the keyboard alone: open it, type topodeckctl plan's flags, Enter; the
// answer is the one `topodeckctl plan -o json` prints for the same request, and the map outlines
// its nodes. Ctrl+K finds a rack by name.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "core/command_args.h"
#include "models/topology_tree_model.h"
#include "views/command_palette.h"
#include "views/planner_panel.h"

#include <QJsonDocument>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace topodeck;

namespace {

QByteArray ctlPlanJson(const QString& flags) {
    QStringList args{QStringLiteral("plan"), QStringLiteral("--demo"), QStringLiteral("gb200"), QStringLiteral("-o"),
                     QStringLiteral("json")};
    const auto words = splitCommandWords(flags.toStdString());
    if (!words) return {};
    for (const std::string& word : *words) args << QString::fromStdString(word);
    QProcess process;
    process.start(QStringLiteral(TOPODECKCTL_PATH), args);
    if (!process.waitForFinished(60000)) return {};
    return process.readAllStandardOutput();
}

} // namespace

class TestPlanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<NodePodList>(); }
    void init() {
        m_window = std::make_unique<MainWindow>();
        QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
        LaunchOptions options;
        options.demo = QStringLiteral("gb200");
        m_window->resize(1600, 1000);
        m_window->show();
        QApplication::setActiveWindow(m_window.get());
        m_window->open(options);
        QVERIFY(shown.wait(60000));
    }
    void cleanup() { m_window.reset(); }

    void keyboardDryRunMatchesTheCli_data() {
        QTest::addColumn<QString>("flags");
        QTest::addColumn<bool>("fits");
        QTest::newRow("kueue 16 x 4 in a rack")
            << QStringLiteral("--pods 16 --request nvidia.com/gpu=4 --required rack --engine kueue-tas") << true;
        QTest::newRow("slurm tree") << QStringLiteral("--sbatch \"-N 16 --gres=gpu:4 --switches=1\"") << true;
        QTest::newRow("compare") << QStringLiteral("--pods 16 -r nvidia.com/gpu=4 --required rack --compare") << true;
        QTest::newRow("too big for a rack")
            << QStringLiteral("--pods 40 --request nvidia.com/gpu=4 --required rack") << false;
    }
    void keyboardDryRunMatchesTheCli() {
        QFETCH(QString, flags);
        QFETCH(bool, fits);
        PlannerPanel* planner = m_window->plannerPanel();
        QTest::keyClick(m_window.get(), Qt::Key_F2);
        QTRY_VERIFY(planner->isVisible());
        auto* edit = planner->findChild<QLineEdit*>();
        QTRY_COMPARE(QApplication::focusWidget(), edit);
        edit->clear();
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        QSignalSpy placed(planner, &PlannerPanel::placementShown);
        QTest::keyClicks(edit, flags);
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(answered.wait(30000));
        const PlanAnswerPtr answer = planner->answer();
        QVERIFY(answer);
        QVERIFY2(answer->error.empty(), answer->error.c_str());
        QCOMPARE(answer->outcome.allFeasible(), fits);
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(answer->json)),
                 QJsonDocument::fromJson(ctlPlanJson(flags)));
        // The first engine's nodes go to the map, the pods on them adding up to the gang.
        QVERIFY(!placed.isEmpty());
        const auto nodes = placed.last().at(0).value<NodePodList>();
        std::int64_t pods = 0;
        for (const auto& [node, count] : nodes) pods += count;
        QCOMPARE(pods, fits ? std::int64_t(answer->outcome.gang.pods) : std::int64_t(0));
        if (!fits) QVERIFY(!answer->outcome.results.front().trace.empty());
        QVERIFY(planner->commandLine().startsWith(QStringLiteral("topodeckctl plan --demo gb200 ")));
    }

    void badFlagsAreShownNotRun() {
        PlannerPanel* planner = m_window->plannerPanel();
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        planner->setFlags(QStringLiteral("--pods many"));
        planner->run();
        QTest::qWait(200);
        QCOMPARE(answered.count(), 0);
        QVERIFY(planner->answer() == nullptr);
    }

    void paletteFindsARack() {
        QTest::keyClick(m_window.get(), Qt::Key_K, Qt::ControlModifier);
        CommandPalette* palette = m_window->commandPalette();
        QTRY_VERIFY(palette->isVisible());
        auto* query = palette->findChild<QLineEdit*>();
        QTRY_COMPARE(QApplication::focusWidget(), query);
        QTest::keyClicks(query, QStringLiteral("rack-2-03"));
        QTest::keyClick(query, Qt::Key_Return);
        QTRY_VERIFY(!palette->isVisible());
        const QModelIndex current = m_window->treeView()->currentIndex();
        QCOMPARE(current.data().toString(), QStringLiteral("rack-2-03"));
    }

private:
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestPlanner)
#include "test_planner.moc"
