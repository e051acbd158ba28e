// The planner driven from the keyboard alone (the panel on a session, without the window): open
// it, type topodeckctl plan's flags, Enter; the answer is the one `topodeckctl plan -o json`
// prints for the same request, and the nodes go to the map. In the window, Ctrl+K finds a rack
// by name.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "core/text/command_args.h"
#include "models/plan_result_model.h"
#include "models/topology_tree_model.h"
#include "views/chrome/command_palette.h"
#include "views/pages/planner_panel.h"

#include "gui_test_window.h"
#include "page_on_session.h"
#include "support/test_program.h"

#include <QComboBox>
#include <QDropEvent>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
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

// The planner as MainWindow makes it on the demo, with the source flags its ClusterOpener gives
// it for Copy as Command.
struct PlannerOnDemo : testing::PageOnDemo<PlannerPanel> {
    PlannerOnDemo() {
        if (page()) page()->setSourceFlags(QStringLiteral("--demo gb200"));
    }
};

} // namespace

class TestPlanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<NodePodList>(); }

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
        PlannerOnDemo onDemo;
        PlannerPanel* planner = onDemo.page();
        QVERIFY(planner);
        QVERIFY(testing::showWithKeyboard(*planner)); // where F2 leaves the window's
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

    // The form and the flags line edit the same request: a field rewrites its own flag, typed flags
    // fill the fields, and flags the form does not know stay in the line.
    void formAndFlagsStayInSync() {
        PlannerOnDemo onDemo;
        PlannerPanel* planner = onDemo.page();
        QVERIFY(planner);
        QVERIFY(testing::showWithKeyboard(*planner)); // where F2 leaves the window's
        QTRY_VERIFY(planner->isVisible());
        planner->setFlags(QStringLiteral("--pods 4 -r nvidia.com/gpu=8 --future x --engine kai"));
        auto* pods = planner->findChild<QSpinBox*>();
        QComboBox* engine = nullptr;
        QComboBox* required = nullptr;
        for (QComboBox* combo : planner->findChildren<QComboBox*>()) {
            if (combo->accessibleName() == QLatin1String("Engine")) engine = combo;
            if (combo->accessibleName() == QLatin1String("Required level")) required = combo;
        }
        QVERIFY(pods && engine && required);
        QCOMPARE(pods->value(), 4);
        QCOMPARE(engine->currentData().toString(), QStringLiteral("kai"));
        QVERIFY(required->currentText().isEmpty());
        // The snapshot's levels are offered.
        QVERIFY(required->findText(QStringLiteral("rack")) >= 0);

        pods->setFocus();
        pods->selectAll();
        QTest::keyClicks(pods, QStringLiteral("16"));
        QCOMPARE(planner->flags(), QStringLiteral("--pods 16 -r nvidia.com/gpu=8 --future x --engine kai"));
        engine->setFocus();
        QTest::keyClick(engine, Qt::Key_End); // all engines
        QCOMPARE(planner->flags(), QStringLiteral("--pods 16 -r nvidia.com/gpu=8 --future x --compare"));
        QTest::keyClick(engine, Qt::Key_Home); // as written
        QCOMPARE(planner->flags(), QStringLiteral("--pods 16 -r nvidia.com/gpu=8 --future x"));
        required->setFocus();
        QTest::keyClicks(required->lineEdit(), QStringLiteral("rack"));
        QCOMPARE(planner->flags(), QStringLiteral("--pods 16 -r nvidia.com/gpu=8 --future x --required rack"));

        // Typed flags fill the fields.
        planner->setFlags(QStringLiteral("--compare --pods=8 -r nvidia.com/gpu=4 --required su"));
        QCOMPARE(pods->value(), 8);
        QCOMPARE(engine->currentData().toString(), QStringLiteral("compare"));
        QCOMPARE(required->currentText(), QStringLiteral("su"));

        // Enter in a field runs the dry-run of the line.
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        required->lineEdit()->setFocus();
        QTest::keyClick(required->lineEdit(), Qt::Key_Return);
        QVERIFY(answered.wait(30000));
        QVERIFY(planner->answer());
        QVERIFY2(planner->answer()->error.empty(), planner->answer()->error.c_str());
        QVERIFY(planner->answer()->outcome.results.size() > 1);
    }

    // A file dropped on the planner becomes the pasted manifest; one too large or not text is refused.
    void droppedFilesAreRead() {
        PlannerOnDemo onDemo;
        PlannerPanel* planner = onDemo.page();
        QVERIFY(planner);
        QVERIFY(testing::showWithKeyboard(*planner)); // where showPage("planner") leaves the window's
        QTRY_VERIFY(planner->isVisible());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::WriteOnly)) return QString();
            file.write(bytes);
            return file.fileName();
        };
        auto drop = [&](const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(planner, &enter);
            if (!enter.isAccepted()) return false;
            QDropEvent event(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QSignalSpy loaded(planner, &PlannerPanel::manifestLoaded);
            QApplication::sendEvent(planner, &event);
            // A refusal comes at once; a file read comes back from the thread pool.
            if (loaded.isEmpty() && !loaded.wait(10000)) return false;
            return loaded.last().at(0).toBool();
        };
        const QByteArray script("#!/bin/bash\n#SBATCH -N 4\n#SBATCH --gres=gpu:4\nsrun train\n");
        QVERIFY(drop(write(QStringLiteral("train.sbatch"), script)));
        QCOMPARE(planner->manifestText(), QString::fromUtf8(script));
        QVERIFY(!drop(write(QStringLiteral("huge.yaml"), QByteArray(PlannerPanel::kMaxManifestBytes + 1, 'x'))));
        QVERIFY(!drop(write(QStringLiteral("binary.yaml"), QByteArray("kind: Job\0\1", 11))));
        QVERIFY(!drop(dir.filePath(QStringLiteral("missing.yaml"))));
        QCOMPARE(planner->manifestText(), QString::fromUtf8(script)); // refusals leave it as it was

        // The dropped script is the gang: Slurm's rules, as for topodeckctl plan --manifest.
        planner->setFlags(QString());
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        planner->run();
        QVERIFY(answered.wait(30000));
        QVERIFY2(planner->answer()->error.empty(), planner->answer()->error.c_str());
        QVERIFY(planner->answer()->outcome.results.front().engine.starts_with("slurm-"));
        QCOMPARE(planner->resultModel()->rowCount(), 1);
    }

    void badFlagsAreShownNotRun() {
        PlannerOnDemo onDemo;
        PlannerPanel* planner = onDemo.page();
        QVERIFY(planner);
        QSignalSpy answered(planner, &PlannerPanel::answerShown);
        planner->setFlags(QStringLiteral("--pods many"));
        planner->run();
        QTest::qWait(200);
        QCOMPARE(answered.count(), 0);
        QVERIFY(planner->answer() == nullptr);
    }

    // On the window: the palette's domains and where a choice goes are the window's (its tree).
    void paletteFindsARack() {
        const std::unique_ptr<MainWindow> window = testing::shownDemoWindow();
        QVERIFY(window);
        QTest::keyClick(window.get(), Qt::Key_K, Qt::ControlModifier);
        CommandPalette* palette = window->commandPalette();
        QTRY_VERIFY(palette->isVisible());
        auto* query = palette->findChild<QLineEdit*>();
        QTRY_COMPARE(QApplication::focusWidget(), query);
        QTest::keyClicks(query, QStringLiteral("rack-2-03"));
        QTest::keyClick(query, Qt::Key_Return);
        QTRY_VERIFY(!palette->isVisible());
        const QModelIndex current = window->treeView()->currentIndex();
        QCOMPARE(current.data().toString(), QStringLiteral("rack-2-03"));
    }
};

TOPODECK_TEST_MAIN(TestPlanner)
#include "test_planner.moc"
