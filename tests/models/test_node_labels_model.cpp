// NodeLabelsModel under QAbstractItemModelTester: a node's labels by key, each value whole in its
// tooltip, and rows copied as key=value lines.
#include "models/node_labels_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

// n1's labels, by key: example.com/block=b1, example.com/rack=r1, nvidia.com/gpu.clique=c1.
Node n1() {
    return detailsNode("n1", "b1", "r1", 4, "c1");
}

} // namespace

class TestNodeLabelsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("text");
        QTest::newRow("first key") << 0 << int(NodeLabelsModel::KeyColumn) << int(Qt::DisplayRole)
                                   << QStringLiteral("example.com/block");
        QTest::newRow("its value") << 0 << int(NodeLabelsModel::ValueColumn) << int(Qt::DisplayRole)
                                   << QStringLiteral("b1");
        QTest::newRow("a value, whole") << 2 << int(NodeLabelsModel::ValueColumn) << int(Qt::ToolTipRole)
                                        << QStringLiteral("c1");
        QTest::newRow("no tooltip on keys")
            << 2 << int(NodeLabelsModel::KeyColumn) << int(Qt::ToolTipRole) << QString();
    }
    void cells() {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(int, role);
        QFETCH(QString, text);
        NodeLabelsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node node = n1();
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(row, column).data(role).toString(), text);
        QCOMPARE(model.headerData(NodeLabelsModel::KeyColumn, Qt::Horizontal).toString(), QStringLiteral("Key"));
    }

    void keyValueLines_data() {
        QTest::addColumn<QList<int>>("rows");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("none selected: all")
            << QList<int>()
            << QStringList{QStringLiteral("example.com/block=b1"), QStringLiteral("example.com/rack=r1"),
                           QStringLiteral("nvidia.com/gpu.clique=c1")};
        QTest::newRow("in row order") << QList<int>{2, 0}
                                      << QStringList{QStringLiteral("example.com/block=b1"),
                                                     QStringLiteral("nvidia.com/gpu.clique=c1")};
        QTest::newRow("one") << QList<int>{1} << QStringList{QStringLiteral("example.com/rack=r1")};
    }
    void keyValueLines() {
        QFETCH(QList<int>, rows);
        QFETCH(QStringList, lines);
        NodeLabelsModel model;
        const Node node = n1();
        model.setNode(&node);
        QCOMPARE(model.keyValueLines(rows), lines.join(QLatin1Char('\n')));
    }

    // Another node with fewer labels, then none.
    void nodesReplaceRows() {
        NodeLabelsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node node = n1();
        model.setNode(&node);
        const Node bare = detailsNode("n5", "", "", 4);
        model.setNode(&bare);
        QCOMPARE(model.rowCount(), 0);
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 3);
        model.setNode(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodeLabelsModel)
#include "test_node_labels_model.moc"
