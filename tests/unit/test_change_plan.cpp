// Change plans: kubectl label's arguments, which nodes a target names, label changes resolved with
// the value found as their precondition, drift, the JSON Patch an apply sends, the plan file (and
// its refusals, naming the field), and the topology diff of a relabel.
#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
#include "core/changes/topology_diff.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>

using namespace topodeck;
using topodeck::testing::makeNode;

namespace {

const char* const kBlock = "example.com/block";
const char* const kRack = "example.com/rack";

// Two blocks of two racks of two nodes; each rack one NVLink domain (clique "<rack>.1").
ClusterState smallCluster() {
    ClusterState state;
    for (const char* block : {"b1", "b2"})
        for (int r = 1; r <= 2; ++r) {
            const std::string rack = std::string(block) + "-r" + std::to_string(r);
            for (int n = 1; n <= 2; ++n)
                (void)state.apply(NodeUpserted{
                    makeNode(rack + "-n" + std::to_string(n), block, rack, 8, true, false, "uuid-" + rack + ".1")});
        }
    return state;
}

TopologyIndex indexOf(const ClusterState& state) {
    TopologySpec spec = TopologySpec::fromLabelKeys({kBlock, kRack});
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    return TopologyIndex::build(state, std::move(spec));
}

std::vector<std::string> names(const ClusterState& state, const std::vector<NodeId>& ids) {
    std::vector<std::string> out;
    for (NodeId id : ids) out.push_back(state.record(id).node->name);
    return out;
}

ChangePlan planned(const ClusterState& state, const std::vector<LabelOperation>& operations) {
    const TopologyIndex index = indexOf(state);
    ChangePlan plan;
    plan.name = "test";
    for (const LabelOperation& op : operations) {
        const Status s = addLabelOperation(plan, state, index, op);
        if (!s) qFatal("%s", s.error().message.c_str());
    }
    return plan;
}

LabelOperation setOn(NodeTarget target, std::vector<LabelEdit> edits) {
    return {std::move(target), std::move(edits)};
}

} // namespace

Q_DECLARE_METATYPE(std::vector<std::string>)

class TestChangePlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // kubectl label's arguments, and what kubectl (and the API server) refuse.
    void labelEdits_data() {
        QTest::addColumn<QByteArray>("arguments"); // separated by |
        QTest::addColumn<QByteArray>("parsed");    // "key=value key-" or "error: <part of the message>"
        QTest::newRow("set") << QByteArray("topology.kubernetes.io/zone=z1")
                             << QByteArray("topology.kubernetes.io/zone=z1");
        QTest::newRow("remove") << QByteArray("example.com/rack-") << QByteArray("example.com/rack-");
        QTest::newRow("empty value") << QByteArray("team=") << QByteArray("team=");
        QTest::newRow("several") << QByteArray("a=1|b-|c=x.y_z-1") << QByteArray("a=1 b- c=x.y_z-1");
        QTest::newRow("no operator") << QByteArray("team") << QByteArray("error: expected key=value");
        QTest::newRow("lone dash") << QByteArray("-") << QByteArray("error: expected key=value");
        QTest::newRow("no key") << QByteArray("=v") << QByteArray("error: invalid key");
        QTest::newRow("two slashes") << QByteArray("a/b/c=v") << QByteArray("error: invalid key");
        QTest::newRow("bad prefix") << QByteArray("-a.com/x=v") << QByteArray("error: invalid key");
        QTest::newRow("value too long") << QByteArray("k=" + QByteArray(64, 'v')) << QByteArray("error: invalid value");
        QTest::newRow("value with space") << QByteArray("k=a b") << QByteArray("error: invalid value");
        QTest::newRow("value ends with dash") << QByteArray("k=a-") << QByteArray("error: invalid value");
        QTest::newRow("twice") << QByteArray("k=1|k-") << QByteArray("error: more than once");
        QTest::newRow("none") << QByteArray("") << QByteArray("error: no labels");
    }
    void labelEdits() {
        QFETCH(QByteArray, arguments);
        QFETCH(QByteArray, parsed);
        std::vector<std::string> args;
        for (const QByteArray& a : arguments.split('|'))
            if (!a.isEmpty()) args.push_back(a.toStdString());
        const Result<std::vector<LabelEdit>> edits = parseLabelEdits(args);
        if (parsed.startsWith("error: ")) {
            QVERIFY(!edits);
            QVERIFY2(edits.error().message.find(parsed.mid(7).toStdString()) != std::string::npos,
                     edits.error().message.c_str());
            return;
        }
        QVERIFY2(edits, edits ? "" : edits.error().message.c_str());
        std::string got;
        for (const LabelEdit& e : *edits)
            got += (got.empty() ? "" : " ") + e.key + (e.value ? "=" + *e.value : std::string("-"));
        QCOMPARE(QByteArray::fromStdString(got), parsed);
    }

    void targets_data() {
        QTest::addColumn<std::vector<std::string>>("nodes");
        QTest::addColumn<QByteArray>("selector");
        QTest::addColumn<QByteArray>("domain");
        QTest::addColumn<QByteArray>("expected"); // names, or "error: ..."
        using V = std::vector<std::string>;
        QTest::newRow("names") << V{"b2-r1-n2", "b1-r1-n1"} << QByteArray("") << QByteArray("")
                               << QByteArray("b1-r1-n1 b2-r1-n2");
        QTest::newRow("selector") << V{} << QByteArray("example.com/rack in (b1-r2,b2-r2),example.com/block!=b2")
                                  << QByteArray("") << QByteArray("b1-r2-n1 b1-r2-n2");
        QTest::newRow("selector matching none")
            << V{} << QByteArray("example.com/rack=nope") << QByteArray("") << QByteArray("");
        QTest::newRow("domain path") << V{} << QByteArray("") << QByteArray("b2/b2-r1")
                                     << QByteArray("b2-r1-n1 b2-r1-n2");
        QTest::newRow("domain value") << V{} << QByteArray("") << QByteArray("b1")
                                      << QByteArray("b1-r1-n1 b1-r1-n2 b1-r2-n1 b1-r2-n2");
        QTest::newRow("union, each once")
            << V{"b1-r1-n1"} << QByteArray("") << QByteArray("b1/b1-r1") << QByteArray("b1-r1-n1 b1-r1-n2");
        QTest::newRow("unknown node") << V{"ghost"} << QByteArray("") << QByteArray("")
                                      << QByteArray("error: node \"ghost\" is not in the cluster");
        QTest::newRow("bad selector") << V{} << QByteArray("rack in (") << QByteArray("")
                                      << QByteArray("error: selector \"rack in (\"");
        QTest::newRow("unknown domain") << V{} << QByteArray("") << QByteArray("b9")
                                        << QByteArray("error: domain b9: no topology domain");
        QTest::newRow("nothing") << V{} << QByteArray("") << QByteArray("") << QByteArray("error: no nodes named");
    }
    void targets() {
        QFETCH(std::vector<std::string>, nodes);
        QFETCH(QByteArray, selector);
        QFETCH(QByteArray, domain);
        QFETCH(QByteArray, expected);
        const ClusterState state = smallCluster();
        const TopologyIndex index = indexOf(state);
        const Result<std::vector<NodeId>> ids =
            targetNodes(state, index, NodeTarget{nodes, selector.toStdString(), domain.toStdString()});
        if (expected.startsWith("error: ")) {
            QVERIFY(!ids);
            QVERIFY2(ids.error().message.find(expected.mid(7).toStdString()) != std::string::npos,
                     ids.error().message.c_str());
            return;
        }
        QVERIFY2(ids, ids ? "" : ids.error().message.c_str());
        std::string got;
        for (const std::string& name : names(state, *ids)) got += (got.empty() ? "" : " ") + name;
        QCOMPARE(QByteArray::fromStdString(got), expected);
    }

    // Each node's label with the value found; later operations amend earlier ones; no-ops drop out.
    void resolvesWithPreconditions() {
        const ClusterState state = smallCluster();
        const ChangePlan plan = planned(
            state, {setOn({{}, "", "b1/b1-r1"}, {{kRack, "b1-r9"}, {"team", "ml"}}),
                    setOn({{"b1-r1-n2"}, "", ""}, {{"team", std::nullopt}}), // set then removed: was absent, no change
                    setOn({{"b2-r2-n1"}, "", ""}, {{kRack, "b2-r2"}}),       // already so: nothing
                    setOn({{"b2-r2-n1"}, "", ""}, {{kBlock, std::nullopt}})});
        QCOMPARE(plan.operations.size(), std::size_t{4});
        const std::vector<LabelChange> expected{
            {"b1-r1-n1", kRack, "b1-r1", "b1-r9"},
            {"b1-r1-n1", "team", std::nullopt, "ml"},
            {"b1-r1-n2", kRack, "b1-r1", "b1-r9"},
            {"b2-r2-n1", kBlock, "b2", std::nullopt},
        };
        QCOMPARE(plan.labelChanges, expected);

        // Applied to a copy: the original is untouched.
        const ClusterState after = withPlanApplied(state, plan);
        QCOMPARE(*after.record(*after.findNode("b1-r1-n1")).node->label(kRack), std::string("b1-r9"));
        QVERIFY(after.record(*after.findNode("b2-r2-n1")).node->label(kBlock) == nullptr);
        QCOMPARE(*state.record(*state.findNode("b1-r1-n1")).node->label(kRack), std::string("b1-r1"));
        QVERIFY(planDrift(state, plan).empty());
        QCOMPARE(planDrift(after, plan).size(), plan.labelChanges.size()); // every change is made
    }

    // A plan found a value; the cluster has moved on: every such label is named, other churn is not.
    void driftIsNamed() {
        ClusterState state = smallCluster();
        const ChangePlan plan = planned(state, {setOn({{"b1-r1-n1", "b1-r1-n2"}, "", ""}, {{kRack, "x"}})});
        Node edited = *state.record(*state.findNode("b1-r1-n1")).node;
        edited.setLabel(kRack, "someone-else");
        edited.setLabel("unrelated", "churn");
        (void)state.apply(NodeUpserted{edited});
        Node churned = *state.record(*state.findNode("b1-r1-n2")).node;
        churned.setLabel("heartbeat", "42"); // a label the plan does not touch
        (void)state.apply(NodeUpserted{churned});
        const std::vector<std::string> drift = planDrift(state, plan);
        QCOMPARE(drift.size(), std::size_t{1});
        QCOMPARE(drift[0],
                 std::string("node b1-r1-n1: label example.com/rack is \"someone-else\", the plan found \"b1-r1\""));
        (void)state.apply(NodeDeleted{"b1-r1-n2"});
        QCOMPARE(planDrift(state, plan).back(), std::string("node b1-r1-n2: no longer in the cluster"));
    }

    void patchTestsThenChanges() {
        const LabelChange set{"n", "example.com/rack", "r1", "r2"};
        const LabelChange add{"n", "a~b", std::nullopt, ""};
        const LabelChange remove{"n", "team", "ml", std::nullopt};
        QCOMPARE(labelPatchJson({&set, &add, &remove}),
                 std::string(R"([{"op":"test","path":"/metadata/labels/example.com~1rack","value":"r1"},)"
                             R"({"op":"add","path":"/metadata/labels/example.com~1rack","value":"r2"},)"
                             R"({"op":"test","path":"/metadata/labels/a~0b","value":null},)"
                             R"({"op":"add","path":"/metadata/labels/a~0b","value":""},)"
                             R"({"op":"test","path":"/metadata/labels/team","value":"ml"},)"
                             R"({"op":"remove","path":"/metadata/labels/team"}])"));
    }

    void fileRoundTrip() {
        const ClusterState state = smallCluster();
        ChangePlan plan = planned(state, {setOn({{"b1-r1-n1"}, "example.com/block=b2", "b1/b1-r2"},
                                                {{kRack, "new_rack.1"}, {"empty", ""}, {"team", std::nullopt}})});
        plan.cluster = "demo test";
        plan.description = "line one\nline two: with a colon, # and a hash";
        const std::string text = writeChangePlan(plan);
        const Result<ChangePlan> back = readChangePlan(text, "plan.yaml");
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QVERIFY2(*back == plan, text.c_str());
        // Written again, the same bytes: plans diff cleanly in review.
        QCOMPARE(writeChangePlan(*back), text);
    }

    // A plan as handed over: written by hand, with comments, one operation and its changes.
    void readsAHandWrittenPlan() {
        QFile file(QStringLiteral(TOPODECK_TEST_DATA_DIR "/changes/relabel-rack.yaml"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Result<ChangePlan> plan = readChangePlan(file.readAll().toStdString(), "relabel-rack.yaml");
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        QCOMPARE(plan->name, std::string("move-rack-1-03"));
        QCOMPARE(plan->operations.size(), std::size_t{1});
        QCOMPARE(plan->operations[0].target.describe(), std::string("--domain su-1/rack-1-03"));
        QCOMPARE(plan->operations[0].edits.size(), std::size_t{2});
        QVERIFY(!plan->operations[0].edits[1].value); // remove
        QCOMPARE(plan->labelChanges.size(), std::size_t{3});
        // Sorted by node, then key; the removal has no after.
        QCOMPARE(plan->labelChanges[1].key, std::string("example.com/old-tier"));
        QVERIFY(!plan->labelChanges[1].after);
    }

    void badFilesAreRefusedByField_data() {
        QTest::addColumn<QByteArray>("spec"); // under a valid header
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("spec not a map") << QByteArray("spec: [1]\n")
                                        << QByteArray("plan.yaml:4:7: spec: expected a map");
        QTest::newRow("unknown field") << QByteArray("spec: {operation: []}\n")
                                       << QByteArray("spec: unknown field \"operation\"");
        QTest::newRow("operation names no nodes") << QByteArray("spec:\n  operations:\n  - {set: {a: b}}\n")
                                                  << QByteArray("spec.operations[0]: names no nodes");
        QTest::newRow("operation changes nothing") << QByteArray("spec:\n  operations:\n  - {nodes: [n]}\n")
                                                   << QByteArray("spec.operations[0]: sets and removes no labels");
        QTest::newRow("bad selector") << QByteArray("spec:\n  operations:\n  - {selector: 'a in (', set: {a: b}}\n")
                                      << QByteArray("spec.operations[0].selector:");
        QTest::newRow("bad key") << QByteArray("spec:\n  operations:\n  - {nodes: [n], set: {'a/b/c': v}}\n")
                                 << QByteArray("spec.operations[0].set.a/b/c: invalid label key");
        QTest::newRow("bad value") << QByteArray("spec:\n  operations:\n  - {nodes: [n], set: {a: 'x y'}}\n")
                                   << QByteArray("spec.operations[0].set.a: invalid label value");
        QTest::newRow("nodes not a list") << QByteArray("spec:\n  operations:\n  - {nodes: n, set: {a: b}}\n")
                                          << QByteArray("spec.operations[0].nodes: expected a list of strings");
        QTest::newRow("set and removed") << QByteArray(
                                                "spec:\n  operations:\n  - {nodes: [n], set: {a: b}, remove: [a]}\n")
                                         << QByteArray("spec.operations[0].remove[0]: set and removed");
        QTest::newRow("change without node") << QByteArray("spec:\n  labelChanges:\n  - {key: a, after: b}\n")
                                             << QByteArray("spec.labelChanges[0].node: missing");
        QTest::newRow("change of nothing")
            << QByteArray("spec:\n  labelChanges:\n  - {node: n, key: a, before: b, after: b}\n")
            << QByteArray("spec.labelChanges[0]: before and after are the same");
        QTest::newRow("change twice")
            << QByteArray("spec:\n  labelChanges:\n  - {node: n, key: a, after: b}\n  - {node: n, key: a, after: c}\n")
            << QByteArray("node n, label a: changed twice");
        QTest::newRow("value a map") << QByteArray("spec:\n  labelChanges:\n  - {node: n, key: a, after: {x: 1}}\n")
                                     << QByteArray("spec.labelChanges[0].after: expected a string");
        QTest::newRow("escape sequence") << QByteArray(
                                                "spec:\n  labelChanges:\n  - {node: \"n\\e[31m\", key: a, after: b}\n")
                                         << QByteArray("spec.labelChanges[0].node: holds");
    }
    void badFilesAreRefusedByField() {
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, error);
        const QByteArray text = "apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nmetadata: {name: x}\n" + spec;
        const Result<ChangePlan> plan = readChangePlan(text.toStdString(), "plan.yaml");
        QVERIFY2(!plan, text.constData());
        QVERIFY2(plan.error().message.find(error.toStdString()) != std::string::npos, plan.error().message.c_str());
        QVERIFY2(plan.error().message.starts_with("plan.yaml"), plan.error().message.c_str());
    }

    void wrongDocumentsAreRefused_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("empty") << QByteArray("") << QByteArray("plan.yaml: empty");
        QTest::newRow("a Node") << QByteArray("apiVersion: v1\nkind: Node\n")
                                << QByteArray("kind: expected ChangePlan, not \"Node\"");
        QTest::newRow("other version") << QByteArray("apiVersion: topodeck.io/v2\nkind: ChangePlan\n")
                                       << QByteArray("apiVersion: expected topodeck.io/v1alpha1");
        QTest::newRow("two documents") << QByteArray("kind: ChangePlan\n---\nkind: ChangePlan\n")
                                       << QByteArray("holds 2 documents");
        QTest::newRow("a list") << QByteArray("- 1\n") << QByteArray("plan: expected a ChangePlan");
        QTest::newRow("broken YAML") << QByteArray("kind: [ChangePlan\n") << QByteArray("invalid YAML");
        // A few kilobytes that an anchored operation repeated would make a million node changes.
        QByteArray repeated = "apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nspec:\n  operations:\n"
                              "  - &op {nodes: [";
        for (int i = 0; i < 100; ++i) repeated += (i ? ", n" : "n") + QByteArray::number(i);
        repeated += "], set: {a: b}}\n";
        for (int i = 0; i < 200; ++i) repeated += "  - *op\n";
        QTest::newRow("aliases multiplied") << repeated << QByteArray("aliases repeat more than 10000 nodes");
    }
    // A node list shared by a few operations, as people write by hand, still reads.
    void sharedNodeListsRead() {
        const Result<ChangePlan> plan = readChangePlan("apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nspec:\n"
                                                       "  operations:\n  - {nodes: &rack [a, b], set: {x: \"1\"}}\n"
                                                       "  - {nodes: *rack, remove: [y]}\n",
                                                       "plan.yaml");
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
        QCOMPARE(plan->operations.size(), std::size_t(2));
        QCOMPARE(plan->operations[1].target.nodes, (std::vector<std::string>{"a", "b"}));
    }
    void wrongDocumentsAreRefused() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, error);
        const Result<ChangePlan> plan = readChangePlan(text.toStdString(), "plan.yaml");
        QVERIFY(!plan);
        QVERIFY2(plan.error().message.find(error.toStdString()) != std::string::npos, plan.error().message.c_str());
    }

    // Nodes as the API server lists them, managedFields and all: the labels a controller owns
    // (feature discovery's GPU labels, the kubelet's hostname) are risks when the plan changes
    // them; labels a person set with kubectl, and our own earlier apply's, are not. The status
    // subresource's entry and fields other than labels name no label; an entry of another shape
    // is skipped, a managedFields that is not a list is an error naming it.
    void labelsAControllerOwnsAreRisks() {
        const auto entry = [](const char* manager, const char* fields, const char* extra = "") {
            return std::string("{\"manager\":\"") + manager + "\",\"operation\":\"Update\",\"apiVersion\":\"v1\"," +
                   R"("time":"2026-11-01T10:00:00Z","fieldsType":"FieldsV1",)" + extra + R"("fieldsV1":)" + fields + "}";
        };
        const auto node = [&](const char* name, const char* rack) {
            return std::string("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"") + name +
                   "\",\"labels\":{\"kubernetes.io/hostname\":\"" + name + "\",\"example.com/block\":\"b1\",\"example.com/rack\":\"" + rack +
                   "\",\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"team\":\"ml\"},\"managedFields\":[" +
                   entry("kubelet", R"({"f:metadata":{"f:annotations":{".":{},"f:node.alpha.kubernetes.io/ttl":{}},)"
                                    R"("f:labels":{".":{},"f:kubernetes.io/hostname":{}}}})") +
                   "," + entry("nfd-master", R"({"f:metadata":{"f:labels":{"f:nvidia.com/gpu.product":{}}}})") + "," +
                   entry("kubectl-label", R"({"f:metadata":{"f:labels":{"f:example.com/rack":{}}}})") + "," +
                   entry("topodeck", R"({"f:metadata":{"f:labels":{"f:team":{}}}})") + "," +
                   entry("kubelet", R"({"f:status":{"f:allocatable":{"f:nvidia.com/gpu":{}}}})", R"("subresource":"status",)") +
                   "," + entry("odd", "\"not a map\"") + R"(]},"status":{"allocatable":{"nvidia.com/gpu":"8"}}})";
        };
        const std::string list = R"({"apiVersion":"v1","kind":"List","items":[)" + node("gpu-1", "r1") + "," +
                                 node("gpu-2", "r1") + "," + node("gpu-3", "r2") + "]}";
        Result<Snapshot> read = readSnapshotText(list, "nodes.json");
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        QCOMPARE(read->nodes.size(), std::size_t(3));
        using Managers = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(read->nodes[0].labelManagers,
                 (Managers{{"example.com/rack", "kubectl-label"}, {"kubernetes.io/hostname", "kubelet"},
                           {"nvidia.com/gpu.product", "nfd-master"}, {"team", "topodeck"}}));
        ClusterState state;
        for (ClusterEvent& event : read->takeEvents()) (void)state.apply(std::move(event));

        const ChangePlan plan = planned(state, {setOn({{}, "example.com/rack=r1", {}},
                                                      {{"nvidia.com/gpu.product", "H100"}, {kRack, "r9"}, {"team", "infra"}}),
                                                setOn({{"gpu-3"}, {}, {}}, {{"kubernetes.io/hostname", std::nullopt}})});
        const TopologyDiff diff = diffPlanTopology(state, indexOf(state), plan);
        QCOMPARE(diff.ownedElsewhere.size(), std::size_t(2));
        QCOMPARE(diff.ownedElsewhere[0], (TopologyDiff::OwnedElsewhere{"kubernetes.io/hostname", "kubelet", 1, "gpu-3"}));
        QCOMPARE(diff.ownedElsewhere[1], (TopologyDiff::OwnedElsewhere{"nvidia.com/gpu.product", "nfd-master", 2, "gpu-1"}));
        const std::string text = planPreviewText(plan, diff, {}, {});
        QVERIFY2(text.find("nvidia.com/gpu.product on 2 nodes (gpu-1, ...): managed by nfd-master") != std::string::npos,
                 text.c_str());
        // Labels nobody else owns: no such risk.
        QVERIFY(diffPlanTopology(state, indexOf(state), planned(state, {setOn({{"gpu-1"}, {}, {}}, {{"new", "x"}})}))
                    .ownedElsewhere.empty());

        for (const char* wrong : {R"("managedFields":{"manager":"x"})", R"("managedFields":["x"])"}) {
            const std::string text2 = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n",)" + std::string(wrong) + "}}";
            Result<Snapshot> refused = readSnapshotText(text2, "node.json");
            QVERIFY(!refused);
            QVERIFY2(refused.error().message.find("metadata.managedFields") != std::string::npos, refused.error().message.c_str());
        }
    }

    // A running gang whose pods carry Kueue's injected nodeSelector on the rack label: renaming
    // the rack strands it; a pod whose selector the change leaves alone, a finished pod and a pod
    // whose selector did not match anyway are not risks. The selector survives a snapshot.
    void relabelUnderARunningGangStrandsIt() {
        ClusterState state = smallCluster();
        auto pod = [&](const char* name, const char* node, std::vector<std::pair<std::string, std::string>> selector,
                       PodPhase phase = PodPhase::Running) {
            Pod p = testing::makePod(name, node, 4, phase);
            p.workload = "train-a";
            p.workloadKind = WorkloadKind::JobSet;
            if (std::string(name).starts_with("other")) p.workload = "other";
            p.nodeSelector = std::move(selector);
            (void)state.apply(PodUpserted{std::move(p)});
        };
        pod("train-a-0", "b1-r1-n1", {{kRack, "b1-r1"}});
        pod("train-a-1", "b1-r1-n2", {{kBlock, "b1"}, {kRack, "b1-r1"}});
        pod("other-0", "b1-r1-n1", {{kBlock, "b1"}});                       // the block stays
        pod("other-1", "b1-r1-n2", {{kRack, "b1-r1"}}, PodPhase::Succeeded); // holds nothing
        pod("other-2", "b1-r1-n2", {{kRack, "elsewhere"}});                  // never matched
        const ChangePlan plan = planned(state, {setOn({{}, {}, "b1/b1-r1"}, {{kRack, "b1-r9"}})});
        const TopologyDiff diff = diffPlanTopology(state, indexOf(state), plan);
        QCOMPARE(diff.stranded.size(), std::size_t(1));
        QCOMPARE(diff.stranded[0].workload, std::string("team/train-a (JobSet)"));
        QCOMPARE(diff.stranded[0].pods, std::size_t(2));
        QCOMPARE(diff.stranded[0].example, std::string("node b1-r1-n1 needs example.com/rack=b1-r1, which becomes b1-r9"));
        QVERIFY(planPreviewText(plan, diff, {}, {}).find("Risks: running workloads") != std::string::npos);

        // Back to where they were: nothing stranded.
        const ChangePlan harmless = planned(state, {setOn({{"b2-r1-n1"}, {}, {}}, {{"team", "ml"}})});
        QVERIFY(diffPlanTopology(state, indexOf(state), harmless).stranded.empty());

        Result<Snapshot> back = readSnapshotText(writeSnapshotJson(state), "snapshot.json");
        QVERIFY(back.ok());
        const auto found = std::find_if(back->pods.begin(), back->pods.end(), [](const Pod& p) { return p.name == "train-a-1"; });
        QVERIFY(found != back->pods.end());
        QCOMPARE(found->nodeSelector, (std::vector<std::pair<std::string, std::string>>{{kBlock, "b1"}, {kRack, "b1-r1"}}));
    }

    // Relabelling under the hierarchy: one rack renamed, a node moved to another rack, a node
    // losing its rack label, and a rack made of two racks' nodes.
    void topologyDiffOfARelabel() {
        using V = std::vector<std::string>;
        const ClusterState state = smallCluster();
        const ChangePlan plan =
            planned(state, {setOn({{}, "", "b1/b1-r1"}, {{kRack, "b1-r9"}}),          // renamed
                            setOn({{"b2-r1-n1"}, "", ""}, {{kRack, "b2-r2"}}),        // moved into b2-r2
                            setOn({{"b2-r2-n2"}, "", ""}, {{kRack, std::nullopt}})}); // leaves TAS capacity
        const TopologyDiff diff = diffPlanTopology(state, indexOf(state), plan);
        QCOMPARE(diff.domainsAdded, V{"b1/b1-r9"});
        QCOMPARE(diff.domainsRemoved, V{"b1/b1-r1"});
        QCOMPARE(diff.domainsSplit, V{"b2/b2-r1"});  // n1 to b2-r2, n2 stays
        QCOMPARE(diff.domainsMerged, V{"b2/b2-r2"}); // b2-r1's n1 and b2-r2's n1
        QCOMPARE(diff.leftLevelCapacity, V{"b2-r2-n2"});
        QVERIFY(diff.joinedLevelCapacity.empty());
        V moved;
        for (const TopologyDiff::Move& m : diff.moved) moved.push_back(m.node + ": " + m.from + " -> " + m.to);
        QCOMPARE(moved, (V{"b1-r1-n1: b1/b1-r1 -> b1/b1-r9", "b1-r1-n2: b1/b1-r1 -> b1/b1-r9",
                           "b2-r1-n1: b2/b2-r1 -> b2/b2-r2", "b2-r2-n2: b2/b2-r2 -> b2/(no rack)"}));
        // The NVLink domain of b2-r1 now spans two racks; b2-r2's node without a rack is not in
        // another rack (it left TAS capacity, said above).
        QCOMPARE(diff.nvlinkSplit, (V{"uuid-b2-r1.1"}));
        V capacity;
        for (const TopologyDiff::Capacity& c : diff.capacity)
            capacity.push_back(c.domain + " " + std::to_string(c.gpusBefore) + "->" + std::to_string(c.gpusAfter));
        QCOMPARE(capacity, (V{"b1/b1-r1 16->0", "b1/b1-r9 0->16", "b2 32->24", "b2/b2-r1 16->8"}));
        QVERIFY(!diff.empty());
        // No change, no diff.
        QVERIFY(diffTopology(state, indexOf(state), indexOf(state)).empty());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestChangePlan)
#include "test_change_plan.moc"
