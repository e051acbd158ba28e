// NodeConditionsModel under QAbstractItemModelTester: a node's conditions with since-when in the
// locale's short form (as written in the tooltip), and the Ready row a source without conditions
// (a demo, Slurm) still gets from the node's readiness.
#include "models/node_conditions_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QLocale>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

Node withConditions(bool listsReady) {
    Node node = detailsNode("n1", "b1", "r1", 4);
    if (listsReady) node.conditions.push_back({"Ready", "False", "KubeletNotReady", "2026-12-01T10:00:00Z"});
    node.conditions.push_back({"MemoryPressure", "False", "KubeletHasSufficientMemory", "2026-11-30T08:15:00Z"});
    return node;
}

} // namespace

class TestNodeConditionsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rows_data() {
        QTest::addColumn<bool>("listsReady");
        QTest::addColumn<bool>("ready");
        QTest::addColumn<QStringList>("firstRow"); // type, status, reason
        QTest::addColumn<bool>("saidByReady");
        QTest::newRow("listed") << true << false
                                << QStringList{QStringLiteral("Ready"), QStringLiteral("False"),
                                               QStringLiteral("KubeletNotReady")}
                                << false;
        QTest::newRow("not listed, ready")
            << false << true << QStringList{QStringLiteral("Ready"), QStringLiteral("True"), QString()} << true;
        QTest::newRow("not listed, not ready")
            << false << false << QStringList{QStringLiteral("Ready"), QStringLiteral("False"), QString()} << true;
    }
    void rows() {
        QFETCH(bool, listsReady);
        QFETCH(bool, ready);
        QFETCH(QStringList, firstRow);
        QFETCH(bool, saidByReady);
        NodeConditionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Node node = withConditions(listsReady);
        node.ready = ready;
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 2);
        for (int column = 0; column < 3; ++column) QCOMPARE(model.index(0, column).data().toString(), firstRow[column]);
        QCOMPARE(model.index(0, NodeConditionsModel::TypeColumn).data(Qt::ToolTipRole).isValid(), saidByReady);
        QCOMPARE(model.index(1, NodeConditionsModel::TypeColumn).data().toString(), QStringLiteral("MemoryPressure"));
    }

    void since_data() {
        QTest::addColumn<QString>("written");
        QTest::newRow("RFC 3339") << QStringLiteral("2026-11-30T08:15:00Z");
        QTest::newRow("not a time") << QStringLiteral("yesterday");
        QTest::newRow("none") << QString();
    }
    void since() {
        QFETCH(QString, written);
        NodeConditionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Node node = detailsNode("n1", "b1", "r1", 4);
        node.conditions.push_back({"Ready", "True", "", written.toStdString()});
        model.setNode(&node);
        const QDateTime time = QDateTime::fromString(written, Qt::ISODate);
        const QString shown = time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : written;
        const QModelIndex since = model.index(0, NodeConditionsModel::SinceColumn);
        QCOMPARE(since.data().toString(), shown);
        QCOMPARE(since.data(Qt::ToolTipRole).toString(), written);
        QCOMPARE(model.headerData(NodeConditionsModel::SinceColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Since"));
    }

    void nodesReplaceRows() {
        NodeConditionsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node listed = withConditions(true);
        model.setNode(&listed);
        Node more = withConditions(true);
        more.conditions.push_back({"DiskPressure", "False", "", ""});
        model.setNode(&more);
        QCOMPARE(model.rowCount(), 3);
        model.setNode(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodeConditionsModel)
#include "test_node_conditions_model.moc"
