// The parts every engine shares: the cluster view with its what-if overlay, gangs from flags,
// drain targets, the capacity report and the result JSON.
#include "placement_support.h"

#include "core/placement/engines/what_if.h"
#include "core/placement/reports/capacity_report.h"
#include "core/placement/reports/placement_report.h"
#include "core/placement/requests/gang_flags.h"
#include "core/text/text_format.h"
#include "support/test_program.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const std::vector<std::string> kLevels = {"example.com/block", "example.com/rack"};

// Two blocks; b1 has racks r1 (2 nodes) and r2 (1 node), b2 has r1 (2 nodes).
std::unique_ptr<TestCluster> smallCluster() {
    return makeTestCluster(kLevels, {
                                        {"n1", {"b1", "r1"}, 8, 0, true, false, {}, {}},
                                        {"n2", {"b1", "r1"}, 8, 3, true, false, {}, {}},
                                        {"n3", {"b1", "r2"}, 8, 8, true, false, {}, {}},
                                        {"n4", {"b2", "r1"}, 8, 0, false, false, {}, {}},
                                        {"n5", {"b2", "r1"}, 8, 0, true, true, {}, {}},
                                    });
}

NodeId idOf(const TestCluster& c, const char* name) {
    return *c.state.findNode(name);
}

} // namespace

class TestPlacementCommon : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clusterViewFreeAndFit() {
        auto c = smallCluster();
        const PlacementCluster& cluster = *c->cluster;
        QCOMPARE(cluster.free(idOf(*c, "n2"), "nvidia.com/gpu").value(), 5);
        QCOMPARE(cluster.podsThatFit(idOf(*c, "n2"), gpus(2), true), 2);
        QCOMPARE(cluster.podsThatFit(idOf(*c, "n3"), gpus(1), true), 0);
        QCOMPARE(std::string(cluster.limitingResource(idOf(*c, "n3"), gpus(1), true)), std::string("nvidia.com/gpu"));
        QVERIFY(cluster.limitingResource(idOf(*c, "n1"), gpus(1), true).empty());
        QVERIFY(cluster.usable(idOf(*c, "n1")));
        QVERIFY(!cluster.usable(idOf(*c, "n4"))); // NotReady
        QVERIFY(!cluster.usable(idOf(*c, "n5"))); // cordoned
        QVERIFY(cluster.idle(idOf(*c, "n1")));
        QVERIFY(!cluster.idle(idOf(*c, "n2")));
        const std::vector<NodeId>& order = cluster.nodesInOrder();
        QCOMPARE(order.size(), std::size_t(5));
        QCOMPARE(QString::fromStdString(cluster.node(order.front()).name), QStringLiteral("n1"));
    }

    void podSlotsLimitPods() {
        auto c = makeTestCluster(kLevels, {{"n1", {"b1", "r1"}, 8, 0, true, false, {}, {}, 64, 0, 3}});
        QCOMPARE(c->cluster->podsThatFit(0, gpus(1), false), 8);
        QCOMPARE(c->cluster->podsThatFit(0, gpus(1), true), 3);
        ResourceList nothing;
        QCOMPARE(c->cluster->podsThatFit(0, nothing, true), 3);
        ResourceList zero;
        zero.set("nvidia.com/gpu", Quantity::fromUnits(0));
        zero.set("cpu", Quantity::fromUnits(32));
        QCOMPARE(c->cluster->podsThatFit(0, zero, false), 2); // a zero request is ignored
    }

    void whatIfOverlayIsPrivate() {
        auto c = smallCluster();
        PlacementCluster whatIf = *c->cluster;
        whatIf.assume(idOf(*c, "n1"), gpus(2), 3);
        whatIf.drain(idOf(*c, "n2"));
        QCOMPARE(whatIf.free(idOf(*c, "n1"), "nvidia.com/gpu").value(), 2);
        QVERIFY(!whatIf.idle(idOf(*c, "n1")));
        QVERIFY(!whatIf.usable(idOf(*c, "n2")));
        QVERIFY(whatIf.drained(idOf(*c, "n2")));
        // The original view is untouched.
        QCOMPARE(c->cluster->free(idOf(*c, "n1"), "nvidia.com/gpu").value(), 8);
        QVERIFY(c->cluster->usable(idOf(*c, "n2")));
    }

    void assumeNodesAndDomains() {
        auto c = smallCluster();
        PlacementCluster cluster = *c->cluster;
        GangRequest gang;
        gang.perPod = gpus(4);
        PlacementResult byNodes;
        byNodes.feasible = true;
        byNodes.nodes = {{"n1", 2}};
        assumePlacement(cluster, gang, byNodes);
        QCOMPARE(cluster.free(idOf(*c, "n1"), "nvidia.com/gpu").value(), 0);

        // Domain counts are spread over the domain's usable nodes in name order.
        PlacementCluster other = *c->cluster;
        PlacementResult byDomain;
        byDomain.feasible = true;
        byDomain.assignment.domains = {{{"b1", "r1"}, 3}};
        assumePlacement(other, gang, byDomain);
        QCOMPARE(other.free(idOf(*c, "n1"), "nvidia.com/gpu").value(), 0);
        QCOMPARE(other.free(idOf(*c, "n2"), "nvidia.com/gpu").value(), 1);

        PlacementCluster untouched = *c->cluster;
        byDomain.feasible = false;
        assumePlacement(untouched, gang, byDomain);
        QCOMPARE(untouched.free(idOf(*c, "n1"), "nvidia.com/gpu").value(), 8);
    }

    void drainTargets_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("nodes"); // comma-separated, or "error:<substring>"
        QTest::newRow("node") << "n3"
                              << "n3";
        QTest::newRow("path") << "b1/r1"
                              << "n1,n2";
        QTest::newRow("unique value") << "b2"
                                      << "n4,n5";
        QTest::newRow("whole block") << "b1"
                                     << "n1,n2,n3";
        QTest::newRow("ambiguous value") << "r1"
                                         << "error:names 2 domains (b1/r1, b2/r1)";
        QTest::newRow("unknown") << "nope"
                                 << "error:no node or topology domain";
    }
    void drainTargets() {
        QFETCH(QString, target);
        QFETCH(QString, nodes);
        auto c = smallCluster();
        auto result = drainTargetNodes(*c->cluster, target.toStdString());
        if (nodes.startsWith(QLatin1String("error:"))) {
            QVERIFY(!result.ok());
            QVERIFY2(QString::fromStdString(result.error().message).contains(nodes.mid(6)),
                     result.error().message.c_str());
            return;
        }
        QVERIFY(result.ok());
        QStringList names;
        for (NodeId id : *result) names << QString::fromStdString(c->cluster->node(id).name);
        QCOMPARE(names.join(QLatin1Char(',')), nodes);
    }

    void gangFromFlagsMapsEveryEngine() {
        GangFlags flags;
        flags.pods = 16;
        flags.perPod = gpus(4);
        flags.required = "block";
        flags.slices = {{"rack", 4}};
        auto gang = gangFromFlags(flags);
        QVERIFY(gang.ok());
        QCOMPARE(int(gang->kueue.mode), int(KueueConstraint::Mode::Required));
        QCOMPARE(QString::fromStdString(gang->kueue.level), QStringLiteral("block"));
        QCOMPARE(gang->kueue.slices.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(gang->kai.required), QStringLiteral("block"));
        QCOMPARE(gang->kai.segmentSize, 4);
        QCOMPARE(QString::fromStdString(gang->kai.segmentRequired), QStringLiteral("rack"));
        QVERIFY(gang->volcano.networkTopology.has_value());
        QVERIFY(gang->volcano.networkTopology->hard);
        QCOMPARE(QString::fromStdString(gang->volcano.networkTopology->highestTierName), QStringLiteral("block"));
        QCOMPARE(gang->volcano.partitionSize, 4);
        QVERIFY(!gang->slurm.has_value());

        flags.required.clear();
        flags.preferred = "rack";
        flags.slices.clear();
        gang = gangFromFlags(flags);
        QVERIFY(gang.ok());
        QCOMPARE(int(gang->kueue.mode), int(KueueConstraint::Mode::Preferred));
        QVERIFY(!gang->volcano.networkTopology->hard);

        flags.preferred.clear();
        gang = gangFromFlags(flags);
        QVERIFY(gang.ok());
        QCOMPARE(int(gang->kueue.mode), int(KueueConstraint::Mode::Implied));
        QVERIFY(!gang->volcano.networkTopology.has_value());
    }

    void gangFromFlagsErrors_data() {
        QTest::addColumn<int>("pods");
        QTest::addColumn<QString>("required");
        QTest::addColumn<bool>("unconstrained");
        QTest::addColumn<int>("sliceSize");
        QTest::addColumn<QString>("error");
        QTest::newRow("no pods") << 0 << "" << false << 0 << "at least one pod";
        QTest::newRow("unconstrained and required") << 4 << "rack" << true << 0 << "cannot be combined";
        QTest::newRow("slice not a divisor") << 6 << "" << false << 4 << "not a multiple of the slice size 4";
        QTest::newRow("slice size zero") << 6 << "" << false << -1 << "must be at least 1";
    }
    void gangFromFlagsErrors() {
        QFETCH(int, pods);
        QFETCH(QString, required);
        QFETCH(bool, unconstrained);
        QFETCH(int, sliceSize);
        QFETCH(QString, error);
        GangFlags flags;
        flags.pods = pods;
        flags.required = required.toStdString();
        flags.unconstrained = unconstrained;
        if (sliceSize != 0) flags.slices = {{"rack", sliceSize}};
        auto gang = gangFromFlags(flags);
        QVERIFY(!gang.ok());
        QVERIFY2(QString::fromStdString(gang.error().message).contains(error), gang.error().message.c_str());
    }

    void capacityCountsPodsPerDomain() {
        auto c = smallCluster();
        const CapacityReport report = buildCapacityReport(*c->cluster, gpus(4), 2);
        // Usable: n1 (2 pods of 4 GPUs), n2 (1), n3 (0); n4 NotReady and n5 cordoned count nothing.
        QCOMPARE(report.levels.size(), std::size_t(4)); // cluster, block, rack, node
        QCOMPARE(QString::fromStdString(report.levels[0].level), QStringLiteral("cluster"));
        QCOMPARE(report.levels[0].podsFit, 3);
        QCOMPARE(report.levels[0].gangsFit, 1);
        QCOMPARE(report.levels[1].domains, 2);
        QCOMPARE(report.levels[2].domains, 3);
        QCOMPARE(report.levels[2].gangsFit, 1); // b1/r1 holds 3 pods: one gang of 2
        QCOMPARE(report.levels[2].domainsFittingGang, 1);
        QCOMPARE(report.levels[3].level, std::string("node"));
        QCOMPARE(report.levels[3].domains, 3);  // usable nodes
        QCOMPARE(report.levels[3].gangsFit, 1); // only n1 holds a whole gang
        for (const auto& row : report.rows) {
            if (row.path == "b2") {
                QCOMPARE(row.usableNodes, 0);
                QCOMPARE(row.podsFit, 0);
            }
            if (row.path == "b1/r1") {
                QCOMPARE(row.usableNodes, 2);
                QCOMPARE(row.nodesWithRoom, 2);
                QCOMPARE(row.podsFit, 3);
            }
        }
        const std::string json = renderCapacityJson(report, {"test", -1});
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json));
        QVERIFY(doc.isObject());
        QCOMPARE(doc[QLatin1String("levels")].toArray().size(), 4);
        QCOMPARE(doc[QLatin1String("perPod")][QLatin1String("nvidia.com/gpu")].toString(), QStringLiteral("4"));
        const std::string table = renderCapacityTable(report, {"test", -1});
        QVERIFY(table.find("GANGS") != std::string::npos);
        QVERIFY(table.find("  r2") != std::string::npos); // racks indented under their block
    }

    void resultJsonHasTheIssueShape() {
        PlacementResult result;
        result.engine = "kueue-tas";
        result.feasible = true;
        result.message = "topology \"t\" \\ fits";
        result.nodes = {{"n1", 2}};
        result.assignment.levels = {"kubernetes.io/hostname"};
        result.assignment.domains = {{{"n1"}, 2}};
        result.chosen = {{"rack", "b1/r1"}};
        result.trace = {{"rack", "b1/r1", true, "fits 3 of 2 pods"}};
        result.tiedWith = {"b2/r1"};
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(placementResultJson(result)));
        QVERIFY(doc.isObject());
        const QJsonObject o = doc.object();
        QCOMPARE(o[QLatin1String("engine")].toString(), QStringLiteral("kueue-tas"));
        QCOMPARE(o[QLatin1String("feasible")].toBool(), true);
        QCOMPARE(o[QLatin1String("message")].toString(), QStringLiteral("topology \"t\" \\ fits"));
        QCOMPARE(o[QLatin1String("nodes")].toArray()[0][QLatin1String("pods")].toInt(), 2);
        QCOMPARE(o[QLatin1String("assignment")][QLatin1String("domains")].toArray()[0][QLatin1String("count")].toInt(),
                 2);
        QCOMPARE(o[QLatin1String("chosen")].toArray()[0][QLatin1String("domain")].toString(), QStringLiteral("b1/r1"));
        QCOMPARE(o[QLatin1String("trace")].toArray()[0][QLatin1String("taken")].toBool(), true);
        QCOMPARE(o[QLatin1String("tiedWith")].toArray().size(), 1);
    }

    void resultTableGroupsPodsByDomain() {
        auto c = smallCluster();
        GangRequest gang;
        gang.pods = 3;
        gang.perPod = gpus(4);
        PlacementResult result;
        result.engine = "slurm-tree";
        result.feasible = true;
        result.message = "ok";
        result.nodes = {{"n1", 2}, {"n2", 1}};
        result.trace = {{"", "leaf1", true, "tightest"}, {"", "leaf2", false, "too small"}};
        const std::string table = renderPlacementTable(result, gang, *c->cluster, {"src", 1});
        QVERIFY2(table.find("b1/r1") != std::string::npos, table.c_str());
        QVERIFY2(table.find("n[1-2]") != std::string::npos, table.c_str());
        QVERIFY2(table.find("1 more") != std::string::npos, table.c_str());
    }

    void textTableAligns() {
        TextTable table({"NAME", "COUNT"});
        table.addRow({"a", "1,024"});
        table.addRow({"longer", "-"});
        QCOMPARE(QString::fromStdString(table.render()),
                 QStringLiteral("NAME    COUNT\na       1,024\nlonger      -\n"));
        QCOMPARE(groupThousands(-1234567), std::string("-1,234,567"));
        QCOMPARE(displayWidth("a › b"), std::size_t(5));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestPlacementCommon)
#include "test_placement_common.moc"
