// The What-If page driven from the keyboard on the gb200 demo: fail a rack that runs gangs, apply,
// and the failure table lists them while the window shows a hypothetical cluster under a band;
// then steps are added, reordered, edited and removed, and Reset returns to the live cluster.
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "models/topology_tree_model.h"
#include "models/what_if_list_model.h"
#include "session/cluster_session.h"
#include "views/chrome/what_if_banner.h"
#include "views/map/topology_map_view.h"
#include "views/pages/planner_panel.h"
#include "views/pages/what_if_panel.h"

#include "gui_test_window.h"
#include "support/test_program.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

using namespace topodeck;

namespace {

// su-1/rack-1-02 is full of running gangs; this one has all its 16 pods there (topodeckctl plan
// --demo gb200 --fail su-1/rack-1-02 lists it).
const QString kRack = QStringLiteral("su-1/rack-1-02");
const QString kGang = QStringLiteral("team-inference/job-batch-infer-kpn6s-cwhv9");

QStringList failureGangs(const QTableWidget* table) {
    QStringList gangs;
    for (int row = 0; row < table->rowCount(); ++row) gangs << table->item(row, WhatIfPanel::GangColumn)->text();
    return gangs;
}

QString targetAt(const WhatIfPanel* panel, int row) {
    return panel->model()->index(row, WhatIfListModel::TargetColumn).data().toString();
}

} // namespace

class TestWhatIfPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_window = testing::shownDemoWindow();
        QVERIFY(m_window);
    }
    void cleanup() { m_window.reset(); }

    // On the window: the tree, map and band showing the hypothetical cluster are the window's wiring.
    void failARackApplyReorderRemoveReset() {
        WhatIfPanel* panel = m_window->whatIfPanel();
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QTRY_VERIFY(panel->isVisible());
        QTRY_COMPARE(QApplication::focusWidget(), panel->targetEdit());

        // Fail is the first kind: type the rack, Enter adds the step, Ctrl+Return applies it.
        QCOMPARE(panel->kindChooser()->currentText(), QStringLiteral("Fail"));
        QTest::keyClicks(panel->targetEdit(), kRack);
        QTest::keyClick(panel->targetEdit(), Qt::Key_Return);
        QCOMPARE(panel->model()->rowCount(), 1);
        QCOMPARE(targetAt(panel, 0), kRack);
        QSignalSpy answered(panel, &WhatIfPanel::answerShown);
        QTest::keyClick(panel->targetEdit(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(answered.wait(30000));
        QVERIFY(panel->answer());
        QVERIFY(panel->model()->index(0, 0).data(WhatIfListModel::AppliedRole).toBool());
        QVERIFY2(failureGangs(panel->failuresTable()).contains(kGang),
                 qPrintable(failureGangs(panel->failuresTable()).join(QLatin1Char(','))));
        const int gangRow = static_cast<int>(failureGangs(panel->failuresTable()).indexOf(kGang));
        QCOMPARE(panel->failuresTable()->item(gangRow, WhatIfPanel::LostColumn)->text(), QStringLiteral("16 of 16"));
        QCOMPARE(panel->failuresTable()->item(gangRow, WhatIfPanel::EngineColumn)->text(), QStringLiteral("kueue-tas"));

        // The window shows the hypothetical cluster: tree, map and the band say so.
        QTRY_VERIFY(m_window->shownSnapshot() && m_window->shownSnapshot()->hypothetical());
        QVERIFY(m_window->treeModel()->snapshot()->hypothetical());
        QVERIFY(m_window->mapView()->snapshot()->hypothetical());
        QVERIFY2(m_window->whatIfBanner()->text().contains(QStringLiteral("Hypothetical: 1 step applied")),
                 qPrintable(m_window->whatIfBanner()->text()));
        QVERIFY(m_window->whatIfBanner()->isVisible());
        // The failed rack's nodes are NotReady and hold no pods there.
        const std::optional<QModelIndex> rack = m_window->treeModel()->indexForPath(kRack);
        QVERIFY(rack);
        const DomainId rackId = rack->data(TopologyTreeModel::DomainIdRole).value<DomainId>();
        const DomainTotals& totals = m_window->shownSnapshot()->index.domain(rackId).totals;
        QCOMPARE(totals.nodesReady, std::int64_t(0));
        QCOMPARE(totals.gpusUsed, std::int64_t(0));

        // A second step, Drain, from the keyboard: Shift+Tab to the kind, Down, Tab back.
        QTest::keyClick(panel->targetEdit(), Qt::Key_Tab, Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::focusWidget(), panel->kindChooser());
        QTest::keyClick(panel->kindChooser(), Qt::Key_Down);
        QCOMPARE(panel->kindChooser()->currentText(), QStringLiteral("Drain"));
        QTest::keyClick(panel->kindChooser(), Qt::Key_Tab);
        QTRY_COMPARE(QApplication::focusWidget(), panel->targetEdit());
        QTest::keyClicks(panel->targetEdit(), QStringLiteral("su-1/rack-1-03"));
        QTest::keyClick(panel->targetEdit(), Qt::Key_Return);
        QCOMPARE(panel->model()->rowCount(), 2);

        // In the list: the new step is current; Alt+Up puts it first.
        panel->stepsView()->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), panel->stepsView());
        QCOMPARE(panel->stepsView()->currentIndex().row(), 1);
        QTest::keyClick(panel->stepsView(), Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(targetAt(panel, 0), QStringLiteral("su-1/rack-1-03"));
        QCOMPARE(targetAt(panel, 1), kRack);
        QCOMPARE(panel->stepsView()->currentIndex().row(), 0);
        QTest::keyClick(panel->stepsView(), Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(targetAt(panel, 1), QStringLiteral("su-1/rack-1-03"));
        QTest::keyClick(panel->stepsView(), Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(targetAt(panel, 0), QStringLiteral("su-1/rack-1-03"));

        // F2 edits the target in place (in the list, F2 is not the window's Planner key).
        QTest::keyClick(panel->stepsView(), Qt::Key_F2);
        auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor && editor != panel->targetEdit());
        QVERIFY(!m_window->plannerPanel()->isVisible());
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("su-1/rack-1-04"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(targetAt(panel, 0), QStringLiteral("su-1/rack-1-04")); // the delegate commits queued
        QTRY_COMPARE(QApplication::focusWidget(), panel->stepsView());

        // Applied in the new order: two steps, the failure still breaks the gang.
        answered.clear();
        QTest::keyClick(panel->stepsView(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(answered.wait(30000));
        QCOMPARE(panel->answer()->snapshot->hypotheticalSteps,
                 (QStringList{QStringLiteral("Drain su-1/rack-1-04"), QStringLiteral("Fail ") + kRack}));
        QVERIFY(failureGangs(panel->failuresTable()).contains(kGang));
        QTRY_VERIFY(m_window->whatIfBanner()->text().contains(QStringLiteral("2 steps applied")));

        // Delete removes the current step.
        QTest::keyClick(panel->stepsView(), Qt::Key_Delete);
        QCOMPARE(panel->model()->rowCount(), 1);
        QCOMPARE(targetAt(panel, 0), kRack);

        // Ctrl+Backspace: the live cluster again, the band gone, the table empty.
        QSignalSpy cleared(m_window->session(), &ClusterSession::whatIfCleared);
        QTest::keyClick(panel->stepsView(), Qt::Key_Backspace, Qt::ControlModifier);
        QCOMPARE(cleared.count(), 1);
        QTRY_VERIFY(m_window->shownSnapshot() && !m_window->shownSnapshot()->hypothetical());
        QVERIFY(!m_window->treeModel()->snapshot()->hypothetical());
        QVERIFY(!m_window->whatIfBanner()->isVisible());
        QVERIFY(m_window->whatIfBanner()->text().isEmpty());
        QCOMPARE(panel->failuresTable()->rowCount(), 0);
        QVERIFY(!panel->answer());
        QCOMPARE(m_window->shownSnapshot()->index.domain(rackId).totals.gpusUsed, std::int64_t(68));
    }

    // On the window: Mark Selected Failed is the window's action on its tree's selection.
    void markSelectedFailedFromTheTree() {
        QVERIFY(m_window->selectPath(kRack));
        QSignalSpy answered(m_window->whatIfPanel(), &WhatIfPanel::answerShown);
        m_window->treeView()->setFocus();
        QTest::keyClick(m_window->treeView(), Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(answered.wait(30000));
        QCOMPARE(targetAt(m_window->whatIfPanel(), 0), kRack);
        QVERIFY(failureGangs(m_window->whatIfPanel()->failuresTable()).contains(kGang));
        QTRY_VERIFY(m_window->shownSnapshot()->hypothetical());
    }

private:
    std::unique_ptr<MainWindow> m_window;
};

TOPODECK_TEST_MAIN(TestWhatIfPanel)
#include "test_what_if_panel.moc"
