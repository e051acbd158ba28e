// The details pane on the gb200 demo: a node's pods (found through the state's per-node index,
// off the GUI thread), labels (copyable), conditions; a domain's largest free slot and its slots
// by gang size. The panel alone on a session, shown what the window's tree selects.
#include "core/topology/level_capacity.h"
#include "views/pages/details_panel.h"

#include "page_on_session.h"
#include "support/test_program.h"

#include <QAction>
#include <QClipboard>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace topodeck;

namespace {

// The details' tables are views on item models: a cell's text is the model's.
QString cellText(const QTableView* table, int row, int column) {
    return table->model()->index(row, column).data().toString();
}

qint64 number(const QTableView* table, int row, int column) {
    return cellText(table, row, column).remove(QLocale().groupSeparator()).toLongLong();
}

int rowCount(const QTableView* table) {
    return table->model()->rowCount();
}

} // namespace

class TestDetailsPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The panel as MainWindow makes it: its session, the snapshot shown (the demo is not simulated:
    // its first is the only one), its place's width.
    void init() {
        m_session = testing::demoSession();
        QVERIFY(m_session);
        m_details = std::make_unique<DetailsPanel>();
        m_details->setSession(m_session.get());
        m_details->setSnapshot(m_session->latestSnapshot());
        QVERIFY(testing::showWithKeyboard(*m_details, QSize(380, 900)));
    }
    void cleanup() {
        m_details.reset();
        m_session.reset();
    }

    void nodeListsItsPods() {
        const ClusterSnapshotPtr snapshot = m_session->latestSnapshot();
        const TopologyIndex& index = snapshot->index;
        // A node running several pods.
        NodeId busy = DetailsPanel::kNoNode;
        for (NodeId id = 0; id < index.nodeSlots() && busy == DetailsPanel::kNoNode; ++id)
            if (index.node(id).leaf != kNoDomain && index.node(id).pods >= 2) busy = id;
        QVERIFY(busy != DetailsPanel::kNoNode);
        const NodeStats stats = index.node(busy);
        const Node* node = snapshot->node(busy);
        DetailsPanel* details = m_details.get();
        details->showNode(busy); // as the window does when its tree selects the node
        QTRY_COMPARE(details->shownNode(), busy);

        auto* pods = details->findChild<QTableView*>(QStringLiteral("nodePods"));
        QVERIFY(pods);
        QTRY_COMPARE(rowCount(pods), int(stats.pods));
        qint64 gpus = 0;
        for (int row = 0; row < rowCount(pods); ++row) {
            QVERIFY(cellText(pods, row, 0).contains(QLatin1Char('/'))); // namespace/name
            QVERIFY(!cellText(pods, row, 2).isEmpty());                 // phase
            gpus += number(pods, row, 3);
        }
        QCOMPARE(gpus, qint64(stats.gpusUsed));

        // Labels, sorted, copied as key=value lines.
        auto* labels = details->findChild<QTableView*>(QStringLiteral("nodeLabels"));
        QVERIFY(labels);
        QCOMPARE(rowCount(labels), int(node->labels.size()));
        for (int row = 1; row < rowCount(labels); ++row)
            QVERIFY(cellText(labels, row - 1, 0) < cellText(labels, row, 0));
        labels->clearSelection();
        QVERIFY(!labels->actions().isEmpty());
        labels->actions().front()->trigger();
        const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), int(node->labels.size()));
        QCOMPARE(lines.front(), QString::fromStdString(node->labels.front().first + '=' + node->labels.front().second));

        // Conditions: the demo reports readiness only, which is still shown.
        auto* conditions = details->findChild<QTableView*>(QStringLiteral("nodeConditions"));
        QVERIFY(conditions);
        QVERIFY(rowCount(conditions) >= 1);
        QCOMPARE(cellText(conditions, 0, 0), QStringLiteral("Ready"));
        QCOMPARE(cellText(conditions, 0, 1), stats.ready ? QStringLiteral("True") : QStringLiteral("False"));

        // Another node, with fewer pods: its own pods, not the first one's.
        NodeId other = DetailsPanel::kNoNode;
        for (NodeId id = 0; id < index.nodeSlots(); ++id)
            if (index.node(id).leaf != kNoDomain && index.node(id).pods < stats.pods &&
                (other == DetailsPanel::kNoNode || index.node(id).pods < index.node(other).pods))
                other = id;
        QVERIFY(other != DetailsPanel::kNoNode);
        details->showNode(other);
        QTRY_COMPARE(details->shownNode(), other);
        QTRY_COMPARE(rowCount(pods), int(index.node(other).pods));
    }

    void domainShowsItsSlots() {
        const ClusterSnapshotPtr snapshot = m_session->latestSnapshot();
        const TopologyIndex& index = snapshot->index;
        const DomainId su = index.findChild(kRootDomain, "su-1");
        const DomainId rack = index.findChild(su, "rack-1-03");
        QVERIFY(rack != kNoDomain);
        DetailsPanel* details = m_details.get();
        details->showDomain(rack); // as the window does when its tree selects the rack
        QTRY_COMPARE(details->shownDomain(), rack);
        const DomainSlots slots = domainSlots(index.domain(rack), largestNodeGpus(index));
        QVERIFY(slots.largestGang > 0);
        QString slotsText;
        bool largest = false;
        for (const QLabel* label : details->findChildren<QLabel*>()) {
            if (!label->isVisible()) continue;
            if (label->text().startsWith(QLatin1String("<table"))) slotsText = label->text();
            largest = largest || label->text().startsWith(QLocale().toString(qlonglong(slots.largestGang)) +
                                                          QStringLiteral(" GPUs"));
        }
        QVERIFY(largest);
        QVERIFY(!slotsText.isEmpty());
        for (std::size_t i = 0; i < kSlotGangSizes.size(); ++i)
            QVERIFY2(
                slotsText.contains(QStringLiteral("&nbsp;%1</td>").arg(QLocale().toString(qlonglong(slots.gangs[i])))),
                qPrintable(slotsText));
        // The children table is still there: the rack's nodes.
        auto* children = details->findChildren<QTableView*>().front();
        QVERIFY(children);
    }

private:
    std::unique_ptr<ClusterSession> m_session;
    std::unique_ptr<DetailsPanel> m_details; // after the session: destroyed before it
};

TOPODECK_TEST_MAIN(TestDetailsPanel)
#include "test_details_panel.moc"
