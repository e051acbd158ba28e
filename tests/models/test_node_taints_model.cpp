// NodeTaintsModel under QAbstractItemModelTester: a node's taints as it lists them.
#include "models/node_taints_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

Node tainted() {
    Node node = detailsNode("n1", "b1", "r1", 4);
    node.taints = {{"nvidia.com/gpu", "present", "NoSchedule"}, {"maintenance", "", "NoExecute"}};
    return node;
}

} // namespace

class TestNodeTaintsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::newRow("key") << 0 << int(NodeTaintsModel::KeyColumn) << QStringLiteral("nvidia.com/gpu");
        QTest::newRow("value") << 0 << int(NodeTaintsModel::ValueColumn) << QStringLiteral("present");
        QTest::newRow("effect") << 0 << int(NodeTaintsModel::EffectColumn) << QStringLiteral("NoSchedule");
        QTest::newRow("no value") << 1 << int(NodeTaintsModel::ValueColumn) << QString();
        QTest::newRow("second effect") << 1 << int(NodeTaintsModel::EffectColumn) << QStringLiteral("NoExecute");
    }
    void cells() {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        NodeTaintsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node node = tainted();
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(NodeTaintsModel::ColumnCount));
        QCOMPARE(model.index(row, column).data().toString(), text);
    }

    void headers_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("header");
        QTest::newRow("key") << int(NodeTaintsModel::KeyColumn) << QStringLiteral("Key");
        QTest::newRow("value") << int(NodeTaintsModel::ValueColumn) << QStringLiteral("Value");
        QTest::newRow("effect") << int(NodeTaintsModel::EffectColumn) << QStringLiteral("Effect");
    }
    void headers() {
        QFETCH(int, column);
        QFETCH(QString, header);
        NodeTaintsModel model;
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), header);
    }

    void nodesReplaceRows() {
        NodeTaintsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node node = tainted();
        model.setNode(&node);
        Node one = tainted();
        one.taints.pop_back();
        model.setNode(&one);
        QCOMPARE(model.rowCount(), 1);
        model.setNode(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodeTaintsModel)
#include "test_node_taints_model.moc"
