// NodeResourcesModel under QAbstractItemModelTester: a node's allocatable resources, quantities
// as Kubernetes writes them, right-aligned.
#include "models/node_resources_model.h"

#include "details_cluster.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

class TestNodeResourcesModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("alignment");
        const int left = int(Qt::AlignLeft | Qt::AlignVCenter), right = int(Qt::AlignRight | Qt::AlignVCenter);
        // Resources by name: memory, nvidia.com/gpu, pods.
        QTest::newRow("resource") << 1 << int(NodeResourcesModel::ResourceColumn) << QStringLiteral("nvidia.com/gpu")
                                  << left;
        QTest::newRow("GPUs") << 1 << int(NodeResourcesModel::AllocatableColumn) << QStringLiteral("4") << right;
        QTest::newRow("binary SI") << 0 << int(NodeResourcesModel::AllocatableColumn) << QStringLiteral("1536Gi")
                                   << right;
        QTest::newRow("pods") << 2 << int(NodeResourcesModel::AllocatableColumn) << QStringLiteral("110") << right;
    }
    void cells() {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(int, alignment);
        NodeResourcesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Node node = detailsNode("n1", "b1", "r1", 4);
        node.allocatable.set("memory", Quantity::fromUnits(1536LL * 1024 * 1024 * 1024, Quantity::Format::BinarySI));
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(row, column).data().toString(), text);
        QCOMPARE(model.index(row, column).data(Qt::TextAlignmentRole).toInt(), alignment);
        QCOMPARE(model.headerData(NodeResourcesModel::AllocatableColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Allocatable"));
    }

    void nodesReplaceRows() {
        NodeResourcesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Node node = detailsNode("n1", "b1", "r1", 4);
        model.setNode(&node);
        QCOMPARE(model.rowCount(), 2);
        model.setNode(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodeResourcesModel)
#include "test_node_resources_model.moc"
