// File › Export for Review on the gb200 demo, from the keyboard: a review bundle of a change plan
// with the planner's gang, written off the GUI thread into a new folder and listed; the same
// folder again is refused and says why; the hierarchy's files into another folder; a plan that
// does not read is an error naming it, and nothing is written.
#include "app/gui/main_window.h"
#include "core/changes/change_plan_file.h"
#include "core/demo/demo_cluster.h"
#include "core/text/text_file.h"
#include "support/demo_loader.h"
#include "views/dialogs/export_dialog.h"
#include "views/pages/planner_panel.h"

#include "gui_test_window.h"
#include "support/test_program.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace topodeck;

namespace {

// What `topodeckctl label --demo gb200 --domain su-1/rack-1-03 <rack label>=rack-1-02` writes.
std::string mergeRackPlan() {
    const testing::LoadedDemo demo = testing::loadDemo("gb200");
    ChangePlan plan;
    plan.name = "merge-rack-1-03";
    LabelOperation operation;
    operation.target.domain = "su-1/rack-1-03";
    operation.edits = {{"fabric.topograph.run/tier-0", std::string("rack-1-02")}};
    if (!addLabelOperation(plan, demo.state, demo.index, operation)) qFatal("plan");
    return writeChangePlan(plan);
}

QPushButton* exportButton(ExportDialog* dialog) {
    for (QPushButton* button : dialog->findChildren<QPushButton*>())
        if (button->text() == ExportDialog::tr("&Export")) return button;
    return nullptr;
}

} // namespace

class TestExportDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_window = testing::shownDemoWindow();
        QVERIFY(m_window);
    }
    void cleanup() { m_window.reset(); }

    void aBundleOfAPlanWithThePlannersGang() {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("move.yaml"));
        QVERIFY(writeFileAtomically(plan.toStdString(), mergeRackPlan()).ok());
        m_window->plannerPanel()->setFlags(QStringLiteral("--pods 8 --request nvidia.com/gpu=4 --required rack"));

        ExportDialog* dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->bundleChoice()->isChecked());
        QVERIFY(dialog->gangChoice()->isEnabled());
        QVERIFY(dialog->gangChoice()->isChecked());
        QPushButton* button = exportButton(dialog);
        QVERIFY(button);
        QVERIFY(!button->isEnabled()); // no folder yet
        const QString folder = dir.filePath(QStringLiteral("review"));
        dialog->folderField()->setText(folder);
        dialog->planField()->setText(plan);
        QVERIFY(button->isEnabled());

        QSignalSpy finished(dialog, &ExportDialog::finished);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        const QStringList files = QDir(folder).entryList(QDir::Files);
        for (const char* name : {"README.md", "change-plan.yaml", "map-before.svg", "map-after.svg", "gang-kueue.yaml",
                                 "gang-volcano.yaml", "hypernodes.yaml"})
            QVERIFY2(files.contains(QLatin1String(name)), qPrintable(files.join(QLatin1Char(' '))));
        const QString listed = dialog->resultView()->toPlainText();
        QVERIFY2(listed.contains(QStringLiteral("Wrote %1 file(s)").arg(files.size())), qPrintable(listed));
        QFile readme(folder + QStringLiteral("/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QByteArray text = readme.readAll();
        QVERIFY(text.contains("18 label changes on 18 nodes"));
        QVERIFY(text.contains("| kueue-tas | fits on 8 nodes"));
        m_window->grab().save(QDir::temp().filePath(QStringLiteral("topodeck-export-window.png")));
        dialog->grab().save(QDir::temp().filePath(QStringLiteral("topodeck-export-dialog.png")));

        // The same folder again: refused, and nothing changes in it.
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QVERIFY(dialog->resultView()->toPlainText().contains(QStringLiteral("is not empty")));
        QCOMPARE(QDir(folder).entryList(QDir::Files), files);
    }

    void theHierarchyAsFiles() {
        ExportDialog* dialog = openDialog();
        QVERIFY(dialog);
        dialog->findChildren<QRadioButton*>().last()->setChecked(true);
        QTemporaryDir dir;
        dialog->folderField()->setText(dir.path());
        QSignalSpy finished(dialog, &ExportDialog::finished);
        QTest::mouseClick(exportButton(dialog), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("hypernodes.yaml"), QStringLiteral("kai-topology.yaml"),
                              QStringLiteral("kubectl-label.sh"), QStringLiteral("kueue-topology.yaml"),
                              QStringLiteral("map.svg"), QStringLiteral("node-labels.yaml"),
                              QStringLiteral("topology.conf"), QStringLiteral("topology.yaml")}));
    }

    void aPlanThatDoesNotReadIsAnError() {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("bad.yaml"));
        QVERIFY(writeFileAtomically(plan.toStdString(), "apiVersion: topodeck.io/v1alpha1\nkind: Deployment\n").ok());
        ExportDialog* dialog = openDialog();
        QVERIFY(dialog);
        const QString folder = dir.filePath(QStringLiteral("review"));
        dialog->folderField()->setText(folder);
        dialog->planField()->setText(plan);
        QSignalSpy finished(dialog, &ExportDialog::finished);
        QTest::mouseClick(exportButton(dialog), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        const QString shown = dialog->resultView()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("Nothing written")) && shown.contains(QStringLiteral("bad.yaml")),
                 qPrintable(shown));
        QVERIFY(!QDir(folder).exists());
    }

private:
    // Ctrl+Shift+R, as File › Export for Review says.
    ExportDialog* openDialog() {
        QTest::keyClick(m_window.get(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        ExportDialog* dialog = nullptr;
        const bool shown = QTest::qWaitFor([&] {
            dialog = m_window->findChild<ExportDialog*>(QStringLiteral("exportDialog"));
            return dialog && dialog->isVisible();
        }, 5000);
        return shown ? dialog : nullptr;
    }

    std::unique_ptr<MainWindow> m_window;
};

TOPODECK_TEST_MAIN(TestExportDialog)
#include "test_export_dialog.moc"
