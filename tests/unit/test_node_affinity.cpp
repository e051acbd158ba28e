// Required node affinity: read from pods as the API server returns them and as operators write
// them (the nodeAffinity examples of the Kubernetes docs: In, NotIn, Exists, DoesNotExist, Gt, Lt,
// terms ORed, matchFields on metadata.name), matched as kube-scheduler's NodeAffinity filter does,
// refused with the field named when the API server would refuse it, kept by snapshots, and
// flagged by a change plan's preview when a relabel makes a running pod's node stop matching.
#include "core/changes/change_plan.h"
#include "core/changes/topology_diff.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "core/model/node_affinity.h"
#include "core/topology/topology_index.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>

using namespace topodeck;
using topodeck::testing::makeNode;

namespace {

// A running pod on `node` with this spec.affinity (YAML flow text).
std::string podWithAffinity(const std::string& node, const std::string& affinity) {
    return "apiVersion: v1\nkind: List\nitems:\n"
           "- apiVersion: v1\n  kind: Pod\n  metadata: {namespace: team, name: train-0, labels: {job-name: train}}\n"
           "  spec:\n    nodeName: " + node + "\n    affinity: " + affinity + "\n"
           "    containers: [{name: main, resources: {requests: {nvidia.com/gpu: \"4\"}}}]\n"
           "  status: {phase: Running}\n";
}

std::string required(const std::string& terms) {
    return "{nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: " + terms + "}}}";
}

Result<Snapshot> readAffinity(const std::string& affinity) { return readSnapshotText(podWithAffinity("n1", affinity), "pods.yaml"); }

std::vector<NodeSelectorTerm> termsOf(const std::string& terms) {
    Result<Snapshot> snapshot = readAffinity(required(terms));
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    return snapshot->pods.front().requiredNodeAffinity;
}

} // namespace

class TestNodeAffinity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesAsTheSchedulerDoes_data() {
        QTest::addColumn<QString>("terms");
        QTest::addColumn<bool>("matches");
        // The node: example.com/rack=r1, gpu-count=8, no example.com/drained label.
        QTest::newRow("In, listed") << "[{matchExpressions: [{key: example.com/rack, operator: In, values: [r0, r1]}]}]" << true;
        QTest::newRow("In, not listed") << "[{matchExpressions: [{key: example.com/rack, operator: In, values: [r2]}]}]" << false;
        QTest::newRow("In, label absent") << "[{matchExpressions: [{key: example.com/drained, operator: In, values: [yes]}]}]" << false;
        QTest::newRow("NotIn, listed") << "[{matchExpressions: [{key: example.com/rack, operator: NotIn, values: [r1]}]}]" << false;
        QTest::newRow("NotIn, label absent") << "[{matchExpressions: [{key: example.com/drained, operator: NotIn, values: [yes]}]}]" << true;
        QTest::newRow("Exists") << "[{matchExpressions: [{key: example.com/rack, operator: Exists}]}]" << true;
        QTest::newRow("DoesNotExist") << "[{matchExpressions: [{key: example.com/drained, operator: DoesNotExist}]}]" << true;
        QTest::newRow("DoesNotExist, present") << "[{matchExpressions: [{key: example.com/rack, operator: DoesNotExist}]}]" << false;
        QTest::newRow("Gt") << "[{matchExpressions: [{key: gpu-count, operator: Gt, values: [\"4\"]}]}]" << true;
        QTest::newRow("Lt") << "[{matchExpressions: [{key: gpu-count, operator: Lt, values: [\"8\"]}]}]" << false;
        QTest::newRow("Gt on a label that is no number") << "[{matchExpressions: [{key: example.com/rack, operator: Gt, values: [\"1\"]}]}]" << false;
        QTest::newRow("all of a term") << "[{matchExpressions: [{key: example.com/rack, operator: In, values: [r1]}, "
                                          "{key: gpu-count, operator: Gt, values: [\"8\"]}]}]" << false;
        QTest::newRow("one of the terms") << "[{matchExpressions: [{key: example.com/rack, operator: In, values: [r9]}]}, "
                                             "{matchExpressions: [{key: gpu-count, operator: Exists}]}]" << true;
        QTest::newRow("an empty term matches nothing") << "[{}]" << false;
        QTest::newRow("matchFields metadata.name") << "[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]" << true;
        QTest::newRow("matchFields another name") << "[{matchFields: [{key: metadata.name, operator: NotIn, values: [n1]}]}]" << false;
    }
    void matchesAsTheSchedulerDoes() {
        QFETCH(QString, terms);
        QFETCH(bool, matches);
        Node node = makeNode("n1", "b1", "r1", 8);
        node.setLabel("gpu-count", "8");
        QCOMPARE(matchesNodeAffinity(termsOf(terms.toStdString()), node), matches);
    }

    // What the API server refuses is refused here, naming the field; preferred terms and pod
    // affinity are no constraint on the node and are skipped.
    void badAffinityIsNamed_data() {
        QTest::addColumn<QString>("terms");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown operator") << "[{matchExpressions: [{key: k, operator: Equals, values: [a]}]}]"
                                          << "nodeSelectorTerms[0].matchExpressions[0].operator: expected In, NotIn, Exists";
        QTest::newRow("In without values") << "[{matchExpressions: [{key: k, operator: In}]}]" << "In needs at least one value";
        QTest::newRow("Exists with values") << "[{matchExpressions: [{key: k, operator: Exists, values: [a]}]}]" << "Exists takes no values";
        QTest::newRow("Gt not a number") << "[{matchExpressions: [{key: k, operator: Gt, values: [x]}]}]" << "Gt needs exactly one whole number";
        QTest::newRow("no key") << "[{matchExpressions: [{operator: Exists}]}]" << "matchExpressions[0].key";
        QTest::newRow("matchFields on a label") << "[{matchFields: [{key: spec.unschedulable, operator: In, values: [a]}]}]"
                                                << "matchFields supports only metadata.name";
        QTest::newRow("terms not a list") << "{a: b}" << "nodeSelectorTerms";
    }
    void badAffinityIsNamed() {
        QFETCH(QString, terms);
        QFETCH(QString, message);
        Result<Snapshot> snapshot = readAffinity(required(terms.toStdString()));
        QVERIFY(!snapshot.ok());
        QVERIFY2(QString::fromStdString(snapshot.error().message).contains(message), snapshot.error().message.c_str());
    }
    void preferredAndPodAffinityAreNoConstraint() {
        Result<Snapshot> snapshot = readAffinity(
            "{nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: "
            "[{key: k, operator: In, values: [a]}]}}]}, podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
            "[{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: x}}}]}}");
        QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
        QVERIFY(snapshot->pods.front().requiredNodeAffinity.empty());
    }

    // The Kubernetes docs' example, with preferred terms and pod anti-affinity beside it.
    void docsExampleReads() {
        Result<Snapshot> snapshot = readSnapshotFile(std::string(TOPODECK_TEST_DATA_DIR) + "/reader-pod-affinity.yaml");
        QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
        QCOMPARE(snapshot->pods.size(), std::size_t(2));
        const std::vector<NodeSelectorTerm>& terms = snapshot->pods.front().requiredNodeAffinity;
        QCOMPARE(terms.size(), std::size_t(2));
        QCOMPARE(terms.front().matchExpressions.size(), std::size_t(3));
        Node zoned = makeNode("gpu-009", "b1", "r1", 8);
        zoned.setLabel("topology.kubernetes.io/zone", "antarctica-east1");
        zoned.setLabel("nvidia.com/gpu.count", "8");
        QVERIFY(matchesNodeAffinity(terms, zoned));
        zoned.setLabel("example.com/drained", "true");
        QVERIFY(!matchesNodeAffinity(terms, zoned));                         // the first term fails,
        QVERIFY(matchesNodeAffinity(terms, makeNode("gpu-001", "", "", 8))); // the second holds by name
    }

    // A snapshot keeps the terms: written and read back, the same.
    void snapshotsKeepIt() {
        ClusterState state;
        state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8)});
        Result<Snapshot> read = readAffinity(required("[{matchExpressions: [{key: example.com/rack, operator: In, values: [r1, r2]}, "
                                                     "{key: x, operator: DoesNotExist}]}, {matchFields: [{key: metadata.name, "
                                                     "operator: In, values: [n1]}]}]"));
        QVERIFY(read.ok());
        const std::vector<NodeSelectorTerm> terms = read->pods.front().requiredNodeAffinity;
        QCOMPARE(terms.size(), std::size_t(2));
        state.apply(PodUpserted{read->pods.front()});
        Result<Snapshot> again = readSnapshotText(writeSnapshotJson(state), "snapshot.json");
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        QVERIFY(again->pods.front().requiredNodeAffinity == terms);
        QCOMPARE(QString::fromStdString(nodeAffinityText(terms)),
                 QStringLiteral("example.com/rack In (r1, r2), x DoesNotExist or metadata.name In (n1)"));
    }

    // The preview: a relabel that takes the node out of the pod's affinity strands its workload;
    // one within the listed values does not, though a nodeSelector on the old value would break.
    void aRelabelOutOfTheAffinityStrands() {
        ClusterState state;
        state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8)});
        Result<Snapshot> read = readAffinity(required("[{matchExpressions: [{key: example.com/rack, operator: In, values: [r1, r2]}]}]"));
        QVERIFY(read.ok());
        state.apply(PodUpserted{read->pods.front()});
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        const auto diffFor = [&](const std::string& rack) {
            ChangePlan plan;
            LabelOperation operation{{{"n1"}, {}, {}}, {{"example.com/rack", rack}}};
            if (!addLabelOperation(plan, state, index, operation)) qFatal("not planned");
            return diffPlanTopology(state, index, plan);
        };
        const TopologyDiff out = diffFor("r3");
        QCOMPARE(out.stranded.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(out.stranded.front().workload), QStringLiteral("team/train (Job)"));
        QCOMPARE(QString::fromStdString(out.stranded.front().example),
                 QStringLiteral("node n1 no longer matches the required node affinity example.com/rack In (r1, r2)"));
        QVERIFY(diffFor("r2").stranded.empty());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestNodeAffinity)
#include "test_node_affinity.moc"
