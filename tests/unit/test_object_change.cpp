// Change plans of topology objects: the change that makes an object what is wanted (its
// resourceVersion kept as the precondition), the requests an apply sends, drift, the CRD rules the
// server cannot check (from Kueue's, KAI's and Volcano's CRDs), the plan and journal files, apply
// with its journal and undo, the hierarchy after a HyperNode change, and the generators. The
// clusters are read from manifests shaped like the schedulers' own documentation examples.
#include "core/changes/change_journal.h"
#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/object_plan.h"
#include "core/changes/plan_apply.h"
#include "core/changes/plan_preview.h"
#include "core/changes/slinky_plan.h"
#include "core/changes/topology_diff.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/topology/hierarchy_sources.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>

using namespace topodeck;

namespace {

// Volcano's network-topology example: s0 = {node-0, node-1}, s1 = {node-2, node-3} at tier 1,
// s2 = {s0, s1} at tier 2; a Kueue Topology and its flavor; versions as a server gives them.
const char* const kCluster = R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: node-0, labels: {example.com/block: b1, example.com/rack: r1, node.kubernetes.io/instance-type: gb200}}, status: {allocatable: {nvidia.com/gpu: "4"}}}
- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {example.com/block: b1, example.com/rack: r1, node.kubernetes.io/instance-type: gb200}}, status: {allocatable: {nvidia.com/gpu: "4"}}}
- {apiVersion: v1, kind: Node, metadata: {name: node-2, labels: {example.com/block: b1, example.com/rack: r2, node.kubernetes.io/instance-type: gb200}}, status: {allocatable: {nvidia.com/gpu: "4"}}}
- {apiVersion: v1, kind: Node, metadata: {name: node-3, labels: {example.com/block: b1, example.com/rack: r2, node.kubernetes.io/instance-type: gb200}}, status: {allocatable: {nvidia.com/gpu: "4"}}}
- apiVersion: topology.volcano.sh/v1alpha1
  kind: HyperNode
  metadata: {name: s0, resourceVersion: "101"}
  spec:
    tier: 1
    members:
    - {type: Node, selector: {exactMatch: {name: node-0}}}
    - {type: Node, selector: {exactMatch: {name: node-1}}}
- apiVersion: topology.volcano.sh/v1alpha1
  kind: HyperNode
  metadata: {name: s1, resourceVersion: "102"}
  spec:
    tier: 1
    members:
    - {type: Node, selector: {regexMatch: {pattern: "node-[23]"}}}
- apiVersion: topology.volcano.sh/v1alpha1
  kind: HyperNode
  metadata: {name: s2, resourceVersion: "103"}
  spec:
    tier: 2
    tierName: spine
    members:
    - {type: HyperNode, selector: {exactMatch: {name: s0}}}
    - {type: HyperNode, selector: {exactMatch: {name: s1}}}
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: Topology
  metadata: {name: default, resourceVersion: "200"}
  spec:
    levels:
    - nodeLabel: example.com/block
    - nodeLabel: example.com/rack
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ResourceFlavor
  metadata: {name: tas-flavor, resourceVersion: "201"}
  spec:
    nodeLabels: {node.kubernetes.io/instance-type: gb200, example.com/pool: a}
    topologyName: default
)";

ClusterState cluster() {
    Result<Snapshot> snapshot = readSnapshotText(kCluster, "cluster.yaml");
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    ClusterState state;
    std::move(*snapshot).applyTo(state);
    return state;
}

HyperNodeMember nodeMember(std::string name) {
    HyperNodeMember member;
    member.value = std::move(name);
    return member;
}

HyperNode hyperNode(const ClusterState& state, const std::string& name) {
    return state.hyperNodes().find(name)->second;
}

// s0 gives node-1 to a new tier-1 HyperNode s3 under s2: an update, a create and an update.
std::vector<ObjectChange> moveNode1(const ClusterState& state) {
    HyperNode s0 = hyperNode(state, "s0");
    s0.members.pop_back();
    HyperNode s3;
    s3.name = "s3";
    s3.tier = 1;
    s3.members = {nodeMember("node-1")};
    HyperNode s2 = hyperNode(state, "s2");
    HyperNodeMember s3Member = nodeMember("s3");
    s3Member.type = HyperNodeMember::Type::HyperNode;
    s2.members.push_back(s3Member);
    std::vector<ObjectChange> changes;
    for (const HyperNode& h : {s0, s3, s2}) changes.push_back(*objectChangeTo(state, ObjectKind::HyperNode, h.name, h));
    return changes;
}

TopologySpec levels(std::vector<std::string> keys, std::string name = "default", std::string origin = "kueue") {
    TopologySpec spec = TopologySpec::fromLabelKeys(keys);
    spec.name = std::move(name);
    spec.origin = std::move(origin);
    return spec;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

} // namespace

class TestObjectChange : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void changeToKeepsTheVersionFound() {
        const ClusterState state = cluster();
        const std::vector<ObjectChange> changes = moveNode1(state);
        QCOMPARE(changes.size(), std::size_t(3));
        QCOMPARE(changes[0].action(), ObjectChange::Action::Update);
        QCOMPARE(changes[0].resourceVersion, std::string("101"));
        QCOMPARE(changes[1].action(), ObjectChange::Action::Create);
        QVERIFY(changes[1].resourceVersion.empty());
        // Already so: no change; absent and not wanted: none either.
        QVERIFY(!objectChangeTo(state, ObjectKind::HyperNode, "s1", hyperNode(state, "s1")));
        QVERIFY(!objectChangeTo(state, ObjectKind::HyperNode, "s9", std::nullopt));
        const auto deleted = objectChangeTo(state, ObjectKind::ResourceFlavor, "tas-flavor", std::nullopt);
        QVERIFY(deleted && deleted->action() == ObjectChange::Action::Delete);
        QCOMPARE(deleted->resourceVersion, std::string("201"));
        // A Kueue Topology and a KAI one are different objects even under one name.
        QVERIFY(!findObject(state, ObjectKind::KaiTopology, "default"));
        QVERIFY(findObject(state, ObjectKind::KueueTopology, "default"));
        // Same levels under other short names: unchanged (a Topology says only its label keys).
        TopologySpec renamed = levels({"example.com/block", "example.com/rack"});
        renamed.levels[0].name = "blk";
        QVERIFY(!objectChangeTo(state, ObjectKind::KueueTopology, "default", renamed));
    }

    void requestsAreWhatTheServerTakes() {
        const ClusterState state = cluster();
        const std::vector<ObjectChange> changes = moveNode1(state);
        const ObjectRequest update = objectRequest(changes[0], false, "topodeck");
        QCOMPARE(update.method, std::string("PATCH"));
        QCOMPARE(update.pathAndQuery,
                 std::string("/apis/topology.volcano.sh/v1alpha1/hypernodes/s0?fieldManager=topodeck"));
        QCOMPARE(update.contentType, std::string("application/merge-patch+json"));
        QCOMPARE(update.body,
                 std::string(R"({"metadata":{"resourceVersion":"101"},"spec":{"tier":1,"tierName":null,)"
                             R"("members":[{"type":"Node","selector":{"exactMatch":{"name":"node-0"}}}]}})"));
        const ObjectRequest create = objectRequest(changes[1], true, "topodeck");
        QCOMPARE(create.method, std::string("POST"));
        QCOMPARE(create.pathAndQuery,
                 std::string("/apis/topology.volcano.sh/v1alpha1/hypernodes?dryRun=All&fieldManager=topodeck"));
        QVERIFY(create.body.find(R"("metadata":{"name":"s3"})") != std::string::npos);
        QVERIFY(create.body.find("resourceVersion") == std::string::npos);

        // A flavor losing a label and its topology: both set to null in the merge patch.
        ResourceFlavor flavor = state.resourceFlavors().find("tas-flavor")->second;
        flavor.nodeLabels = {{"node.kubernetes.io/instance-type", "gb200"}};
        const auto flavorChange = *objectChangeTo(state, ObjectKind::ResourceFlavor, "tas-flavor", flavor);
        const ObjectRequest patch = objectRequest(flavorChange, false, "me");
        QCOMPARE(patch.pathAndQuery,
                 std::string("/apis/kueue.x-k8s.io/v1beta2/resourceflavors/tas-flavor?fieldManager=me"));
        QVERIFY2(
            patch.body.find(R"("nodeLabels":{"node.kubernetes.io/instance-type":"gb200","example.com/pool":null})") !=
                std::string::npos,
            patch.body.c_str());

        const auto deleted = *objectChangeTo(state, ObjectKind::KueueTopology, "default", std::nullopt);
        const ObjectRequest remove = objectRequest(deleted, true, "topodeck");
        QCOMPARE(remove.method, std::string("DELETE"));
        QCOMPARE(remove.pathAndQuery, std::string("/apis/kueue.x-k8s.io/v1beta2/topologies/default?dryRun=All"));
        QCOMPARE(remove.body, std::string(R"({"apiVersion":"v1","kind":"DeleteOptions","dryRun":["All"],)"
                                          R"("preconditions":{"resourceVersion":"200"}})"));
        QCOMPARE(
            objectRequest(deleted, false, "topodeck").body,
            std::string(R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"resourceVersion":"200"}})"));
    }

    void driftNamesWhatMoved() {
        const ClusterState planned = cluster();
        ChangePlan plan;
        plan.objectChanges = moveNode1(planned);
        QVERIFY(planDrift(planned, plan).empty());

        ClusterState later = cluster();
        HyperNode s0 = hyperNode(later, "s0");
        s0.resourceVersion = "150"; // someone wrote it since
        (void)later.apply(HyperNodeUpserted{s0});
        HyperNode s3;
        s3.name = "s3";
        s3.members = {nodeMember("node-3")};
        (void)later.apply(HyperNodeUpserted{s3});
        (void)later.apply(HyperNodeDeleted{"s2"});
        const std::vector<std::string> drift = planDrift(later, plan);
        QCOMPARE(drift.size(), std::size_t(3));
        QVERIFY(anyContains(drift, "HyperNode s0: resourceVersion is 150, the plan found 101"));
        QVERIFY(anyContains(drift, "HyperNode s3: exists now"));
        QVERIFY(anyContains(drift, "HyperNode s2: is gone"));

        // Without versions (a demo, an exported file) the content decides, and apply takes the version.
        ClusterState unversioned = cluster();
        ChangePlan fromFile = plan;
        for (ObjectChange& c : fromFile.objectChanges) c.resourceVersion.clear();
        HyperNode edited = hyperNode(unversioned, "s2");
        edited.tierName = "other";
        (void)unversioned.apply(HyperNodeUpserted{edited});
        QVERIFY(anyContains(planDrift(unversioned, fromFile), "HyperNode s2: was changed since"));
        takeResourceVersions(fromFile.objectChanges, planned);
        QCOMPARE(fromFile.objectChanges[0].resourceVersion, std::string("101"));
        QCOMPARE(fromFile.objectChanges[2].resourceVersion, std::string("103"));
    }

    // The CRDs' rules (Kueue v1beta2 Topology and ResourceFlavor, KAI's Topology, Volcano's
    // HyperNode), one row per rule.
    void crdRulesTheServerCannotCheck_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("keys"); // a Topology's levels; for a flavor: nodeLabels, then topologyName
        QTest::addColumn<QString>("problem");
        auto row = [](const char* tag, ObjectKind kind, const char* name, std::initializer_list<const char*> keys,
                      const char* problem) {
            QStringList list;
            for (const char* key : keys) list << QString::fromUtf8(key);
            QTest::newRow(tag) << int(kind) << QString::fromUtf8(name) << list << QString::fromUtf8(problem);
        };
        static const char* const seventeen[] = {
            "example.com/l0",  "example.com/l1",  "example.com/l2",  "example.com/l3",  "example.com/l4",
            "example.com/l5",  "example.com/l6",  "example.com/l7",  "example.com/l8",  "example.com/l9",
            "example.com/l10", "example.com/l11", "example.com/l12", "example.com/l13", "example.com/l14",
            "example.com/l15", "example.com/l16"};
        row("kueue: no levels", ObjectKind::KueueTopology, "t", {}, "1 to 16 levels, not 0");
        {
            QStringList list;
            for (const char* key : seventeen) list << QString::fromUtf8(key);
            QTest::newRow("kueue: 17 levels") << int(ObjectKind::KueueTopology) << QStringLiteral("t") << list
                                              << QStringLiteral("1 to 16 levels, not 17");
        }
        row("kueue: a key twice", ObjectKind::KueueTopology, "t", {"example.com/a", "example.com/a"}, "given twice");
        row("kueue: hostname not lowest", ObjectKind::KueueTopology, "t", {"kubernetes.io/hostname", "example.com/a"},
            "hostname may only be the lowest");
        row("kueue: levels immutable", ObjectKind::KueueTopology, "default", {"example.com/rack"}, "immutable");
        row("kai: a bad key", ObjectKind::KaiTopology, "k", {"bad key"}, "not a label key");
        row("kai: hostname not lowest", ObjectKind::KaiTopology, "k", {"kubernetes.io/hostname", "example.com/a"},
            "hostname may only be the lowest");
        row("kueue: a bad object name", ObjectKind::KueueTopology, "Bad_Name", {"example.com/a"}, "the name");
        row("flavor: topologyName without nodeLabels", ObjectKind::ResourceFlavor, "f", {"", "default"},
            "topologyName needs spec.nodeLabels");
        row("flavor: topologyName immutable", ObjectKind::ResourceFlavor, "tas-flavor", {"example.com/pool=a", "other"},
            "topologyName is immutable");
        row("flavor: a bad label value", ObjectKind::ResourceFlavor, "f", {"example.com/pool=a b", ""},
            "spec.nodeLabels");
    }
    void crdRulesTheServerCannotCheck() {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QStringList, keys);
        QFETCH(QString, problem);
        const ClusterState state = cluster();
        TopologyObject desired;
        if (ObjectKind(kind) == ObjectKind::ResourceFlavor) {
            ResourceFlavor flavor;
            const QString labels = keys.value(0);
            if (!labels.isEmpty()) {
                const QStringList pair = labels.split(QLatin1Char('='));
                flavor.nodeLabels = {{pair[0].toStdString(), pair[1].toStdString()}};
            }
            flavor.topologyName = keys.value(1).toStdString();
            desired = flavor;
        } else {
            std::vector<std::string> levelKeys;
            for (const QString& key : keys) levelKeys.push_back(key.toStdString());
            TopologySpec spec;
            for (const std::string& key : levelKeys) spec.levels.push_back({key, key});
            desired = spec;
        }
        const auto change = objectChangeTo(state, ObjectKind(kind), name.toStdString(), desired);
        QVERIFY(change);
        ChangePlan plan;
        plan.objectChanges = {*change};
        const std::vector<std::string> problems =
            objectChangeProblems(plan.objectChanges, state, withPlanApplied(state, plan));
        QVERIFY2(anyContains(problems, problem.toStdString()), joined(problems).c_str());
    }

    void hyperNodeRules() {
        const ClusterState state = cluster();
        auto problemsOf = [&](std::vector<ObjectChange> changes) {
            ChangePlan plan;
            plan.objectChanges = std::move(changes);
            return objectChangeProblems(plan.objectChanges, state, withPlanApplied(state, plan));
        };
        HyperNode bad;
        bad.tier = -1;
        const auto badChange = objectChangeTo(state, ObjectKind::HyperNode, "bad", bad);
        const std::vector<std::string> problems = problemsOf({*badChange});
        QVERIFY(anyContains(problems, "tier must be 0 or more"));
        QVERIFY(anyContains(problems, "at least one member"));

        // s0 under itself through s2: a cycle.
        HyperNode s0 = hyperNode(state, "s0");
        HyperNodeMember up = nodeMember("s2");
        up.type = HyperNodeMember::Type::HyperNode;
        s0.members.push_back(up);
        QVERIFY2(anyContains(problemsOf({*objectChangeTo(state, ObjectKind::HyperNode, "s0", s0)}),
                             "the HyperNode tree after the plan"),
                 "a cycle");

        // node-0 claimed by s0 and by a new s4 of the same tier: refused; the plan's own move is fine.
        HyperNode s4;
        s4.tier = 1;
        s4.members = {nodeMember("node-0")};
        QVERIFY(anyContains(problemsOf({*objectChangeTo(state, ObjectKind::HyperNode, "s4", s4)}),
                            "node node-0 is in HyperNodes"));
        QVERIFY2(problemsOf(moveNode1(state)).empty(), joined(problemsOf(moveNode1(state))).c_str());
    }

    void planFileRoundTrip() {
        const ClusterState state = cluster();
        ChangePlan plan;
        plan.name = "reshape";
        plan.cluster = "context lab";
        plan.objectChanges = moveNode1(state);
        plan.objectChanges.push_back(*objectChangeTo(state, ObjectKind::ResourceFlavor, "tas-flavor", std::nullopt));
        TopologySpec kai =
            levels({"example.com/block", "example.com/rack", "kubernetes.io/hostname"}, "kai-topo", "kai");
        kai.nvlinkLabel = "nvidia.com/gpu.clique";
        plan.objectChanges.push_back(*objectChangeTo(state, ObjectKind::KaiTopology, "kai-topo", kai));
        plan.objectChanges.back().version = "v1alpha1";
        const std::string text = writeChangePlan(plan);
        QVERIFY(text.find("resourceVersion: \"101\"") != std::string::npos);
        Result<ChangePlan> read = readChangePlan(text, "plan.yaml");
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        QVERIFY(read->objectChanges == plan.objectChanges);
        QCOMPARE(writeChangePlan(*read), text); // the same file again
        const auto& readKai = std::get<TopologySpec>(*read->objectChanges.back().after);
        QCOMPARE(readKai.nvlinkLabel, std::string("nvidia.com/gpu.clique"));
        QCOMPARE(readKai.levels.size(), std::size_t(3));
    }

    // A plan of every kind of change, written by hand as an operator would hand it over.
    void aHandWrittenPlanOfEveryKind() {
        QFile file(QStringLiteral(TOPODECK_TEST_DATA_DIR "/changes/reshape-objects.yaml"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string text = file.readAll().toStdString();
        Result<ChangePlan> plan = readChangePlan(text, "reshape-objects.yaml");
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        QCOMPARE(plan->labelChanges.size(), std::size_t(1));
        QCOMPARE(plan->objectChanges.size(), std::size_t(5));
        const auto& s3 = std::get<HyperNode>(*plan->objectChanges[1].after);
        QCOMPARE(s3.members[0].selector, HyperNodeMember::Selector::Regex);
        QCOMPARE(s3.members[1].selector, HyperNodeMember::Selector::Label);
        QCOMPARE(s3.members[1].matchExpressions[0].values.size(), std::size_t(2));
        QCOMPARE(plan->objectChanges[3].kind, ObjectKind::KueueTopology);
        QCOMPARE(plan->objectChanges[4].kind, ObjectKind::KaiTopology);
        // Against the cluster it was made on: no drift, and the flavor's deletion takes its Topology's
        // finalizer risk away with it (both go).
        const ClusterState state = cluster();
        QVERIFY2(planDrift(state, *plan).empty(), joined(planDrift(state, *plan)).c_str());
        const ClusterState after = withPlanApplied(state, *plan);
        QVERIFY(objectChangeRisks(plan->objectChanges, after).empty());
        QVERIFY(!after.hyperNodes().find("s3")->second.members.empty());
        // Deleting only the Topology leaves the flavor naming it: Kueue keeps it pending.
        ChangePlan topologyOnly;
        topologyOnly.objectChanges = {plan->objectChanges[3]};
        const std::vector<std::string> risks =
            objectChangeRisks(topologyOnly.objectChanges, withPlanApplied(state, topologyOnly));
        QVERIFY2(anyContains(risks, "ResourceFlavor tas-flavor still names it"), joined(risks).c_str());
    }

    void badPlanFilesNameTheField_data() {
        QTest::addColumn<QByteArray>("item");
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("unknown kind") << QByteArray("- {after: {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}}")
                                      << QByteArray("spec.objectChanges[0].after: expected a HyperNode");
        QTest::newRow("unknown group")
            << QByteArray("- {after: {apiVersion: example.com/v1, kind: Topology, metadata: {name: x}}}")
            << QByteArray("spec.objectChanges[0].after: expected a HyperNode");
        QTest::newRow("nothing") << QByteArray("- {action: create}")
                                 << QByteArray("spec.objectChanges[0]: has neither before nor after");
        QTest::newRow("action contradicts")
            << QByteArray("- {action: delete, after: {apiVersion: topology.volcano.sh/v1alpha1, kind: HyperNode, "
                          "metadata: {name: "
                          "x}, spec: {tier: 1, members: [{type: Node, selector: {exactMatch: {name: n}}}]}}}")
            << QByteArray("spec.objectChanges[0].action: says delete, but before and after make it create");
        QTest::newRow("two names") << QByteArray("- {before: {apiVersion: kai.scheduler/v1alpha1, kind: Topology, "
                                                 "metadata: {name: a}, spec: {levels: "
                                                 "[{nodeLabel: k}]}}, after: {apiVersion: kai.scheduler/v1alpha1, "
                                                 "kind: Topology, metadata: {name: b}, "
                                                 "spec: {levels: [{nodeLabel: k}]}}}")
                                   << QByteArray("spec.objectChanges[0].after.metadata.name: is not the same object");
        QTest::newRow("two kinds") << QByteArray("- {before: {apiVersion: kai.scheduler/v1alpha1, kind: Topology, "
                                                 "metadata: {name: a}, spec: {levels: "
                                                 "[{nodeLabel: k}]}}, after: {apiVersion: kueue.x-k8s.io/v1beta2, "
                                                 "kind: Topology, metadata: {name: a}, "
                                                 "spec: {levels: [{nodeLabel: k}]}}}")
                                   << QByteArray("spec.objectChanges[0].after: is not the same kind");
        QTest::newRow("negative tier")
            << QByteArray("- {after: {apiVersion: topology.volcano.sh/v1alpha1, kind: HyperNode, metadata: {name: x}, "
                          "spec: {tier: "
                          "-1}}}")
            << QByteArray(":5:13: spec.objectChanges[0].after: HyperNode x: spec.tier: must be 0 or more, got -1");
        QTest::newRow("unknown field") << QByteArray("- {after: {}, owner: me}")
                                       << QByteArray("spec.objectChanges[0]: unknown field \"owner\"");
        QTest::newRow("twice")
            << QByteArray(
                   "- {after: {apiVersion: kai.scheduler/v1alpha1, kind: Topology, metadata: {name: a}, spec: {levels: "
                   "[{nodeLabel: k}]}}}\n  - {after: {apiVersion: kai.scheduler/v1alpha1, kind: Topology, metadata: "
                   "{name: "
                   "a}, spec: {levels: [{nodeLabel: j}]}}}")
            << QByteArray("spec.objectChanges[1]: KAI Topology a: changed twice");
        QTest::newRow("not a list") << QByteArray("  {a: b}") << QByteArray("spec.objectChanges: expected a list");
    }
    void badPlanFilesNameTheField() {
        QFETCH(QByteArray, item);
        QFETCH(QByteArray, error);
        const std::string text = "apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nspec:\n  objectChanges:\n  " +
                                 item.toStdString() + "\n";
        Result<ChangePlan> read = readChangePlan(text, "plan.yaml");
        QVERIFY(!read);
        QVERIFY2(read.error().message.find(error.toStdString()) != std::string::npos, read.error().message.c_str());
        QVERIFY2(read.error().message.starts_with("plan.yaml"), read.error().message.c_str());
    }

    void applyJournalAndUndo() {
        const ClusterState state = cluster();
        ChangePlan plan;
        plan.name = "reshape";
        plan.objectChanges = moveNode1(state);
        plan.objectChanges.push_back(*objectChangeTo(state, ObjectKind::ResourceFlavor, "tas-flavor", std::nullopt));
        std::vector<std::pair<std::string, bool>> sent; // describe(), dry run
        int version = 500;
        std::string refuse; // a change answered 409 for real
        ApplyOptions options;
        options.sendObject = [&](const ObjectChange& change, bool dryRun) -> ObjectAnswer {
            sent.emplace_back(change.describe(), dryRun);
            if (!dryRun && change.describe() == refuse)
                return {{409, "409 Conflict: the object has been modified"}, {}};
            return {{200, {}}, change.after && !dryRun ? std::to_string(++version) : std::string()};
        };
        const PatchSender noLabels = [](std::span<const NodePatch>, bool) { return std::vector<PatchAnswer>(); };

        // Everything applied: dry runs first, then each in order.
        ApplyResult result = applyPlan(plan, {}, noLabels, options);
        QCOMPARE(result.stage, ApplyResult::Stage::Applied);
        QCOMPARE(sent.size(), std::size_t(8));
        QVERIFY(sent[3].second && !sent[4].second);
        QCOMPARE(result.journal.objectChanges[1].resourceVersionAfter, std::string("502"));
        QCOMPARE(result.journal.count(ChangeOutcome::Applied), std::size_t(4));

        // The journal file reads back, and undo reverses each in the opposite order, guarded by
        // the version the apply left.
        Result<ChangeJournal> journal = readChangeJournal(writeChangeJournal(result.journal), "j.yaml");
        QVERIFY2(journal, journal ? "" : journal.error().message.c_str());
        QCOMPARE(journal->objectChanges, result.journal.objectChanges);
        const ChangePlan undo = undoPlan(*journal);
        QCOMPARE(undo.objectChanges.size(), std::size_t(4));
        QCOMPARE(undo.objectChanges[0].describe(), std::string("create ResourceFlavor tas-flavor"));
        QCOMPARE(undo.objectChanges[1].describe(), std::string("update HyperNode s2"));
        QCOMPARE(undo.objectChanges[1].resourceVersion, std::string("503"));
        QCOMPARE(undo.objectChanges[2].describe(), std::string("delete HyperNode s3"));
        QCOMPARE(undo.objectChanges[2].resourceVersion, std::string("502"));
        // Undo made on the state the apply left gives back the state before.
        const ClusterState applied = withPlanApplied(state, plan);
        const ClusterState undone = withPlanApplied(applied, undo);
        QCOMPARE(undone.hyperNodes(), state.hyperNodes());
        QCOMPARE(undone.resourceFlavors(), state.resourceFlavors());

        // A conflict on the second stops there: the rest is not attempted, nothing overwritten.
        sent.clear();
        refuse = "create HyperNode s3";
        result = applyPlan(plan, {}, noLabels, options);
        QCOMPARE(result.stage, ApplyResult::Stage::Stopped);
        QCOMPARE(result.journal.objectChanges[1].outcome, ChangeOutcome::Conflict);
        QCOMPARE(result.journal.objectChanges[2].outcome, ChangeOutcome::NotAttempted);
        QCOMPARE(undoPlan(result.journal).objectChanges.size(), std::size_t(1));

        // A refusal in the dry run sends nothing for real.
        sent.clear();
        options.sendObject = [&](const ObjectChange& change, bool dryRun) -> ObjectAnswer {
            sent.emplace_back(change.describe(), dryRun);
            return {{change.kind == ObjectKind::ResourceFlavor ? 403L : 200L, "403 Forbidden"}, {}};
        };
        result = applyPlan(plan, {}, noLabels, options);
        QCOMPARE(result.stage, ApplyResult::Stage::DryRunRefused);
        QCOMPARE(result.objectDryRunRefusals.size(), std::size_t(1));
        QCOMPARE(result.objectDryRunRefusals[0].first, std::size_t(3));
        QVERIFY(std::all_of(sent.begin(), sent.end(), [](const auto& s) { return s.second; }));
    }

    void hyperNodeMoveShowsInTheTopologyDiff() {
        const ClusterState state = cluster();
        Result<std::optional<TopologySpec>> spec = hyperNodeHierarchy(state);
        QVERIFY(spec && *spec);
        const TopologyIndex before = TopologyIndex::build(state, **spec);
        ChangePlan plan;
        plan.name = "move";
        plan.objectChanges = moveNode1(state);
        const TopologyDiff diff = diffPlanTopology(state, before, plan);
        QCOMPARE(diff.moved.size(), std::size_t(1));
        QCOMPARE(diff.moved[0].node, std::string("node-1"));
        QVERIFY2(diff.domainsAdded.size() == 1 && diff.domainsAdded[0].find("s3") != std::string::npos,
                 joined(diff.domainsAdded).c_str());
        const std::string preview = planPreviewText(plan, diff, {});
        QVERIFY2(preview.find("update HyperNode s0 (resourceVersion 101)") != std::string::npos, preview.c_str());
        QVERIFY2(preview.find(R"(-   - {"type": "Node", "selector": {"exactMatch": {"name": "node-1"}}})") !=
                     std::string::npos,
                 preview.c_str());
        QVERIFY2(preview.find(R"(+   - {"type": "HyperNode", "selector": {"exactMatch": {"name": "s3"}}})") !=
                     std::string::npos,
                 preview.c_str());
    }

    void generatorsMakeTheHierarchysObjects() {
        ClusterState state = cluster();
        const TopologyIndex labels =
            TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        ObjectPlanRequest request;
        request.format = "hypernodes";
        Result<std::vector<ObjectChange>> made = objectPlanChanges(state, labels, request);
        QVERIFY2(made, made ? "" : made.error().message.c_str());
        QCOMPARE(made->size(), std::size_t(3)); // block-b1, rack-r1, rack-r2; s0..s2 kept without --prune
        QCOMPARE(std::get<HyperNode>(*made->front().after).tier, 1);
        request.prune = true;
        made = objectPlanChanges(state, labels, request);
        QCOMPARE(made->size(), std::size_t(6));
        QCOMPARE(made->back().action(), ObjectChange::Action::Delete);
        QCOMPARE(made->at(3).name, std::string("s2")); // the highest tier goes first
        ChangePlan plan;
        plan.objectChanges = *made;
        QVERIFY(objectChangeProblems(plan.objectChanges, state, withPlanApplied(state, plan)).empty());
        // Made, the same request has nothing left to do.
        const ClusterState after = withPlanApplied(state, plan);
        QVERIFY(objectPlanChanges(after, TopologyIndex::build(after, labels.spec()), request)->empty());
        // The HyperNode tree read from them places every node where the labels do.
        Result<std::optional<TopologySpec>> tree = hyperNodeHierarchy(after);
        QVERIFY(tree && *tree);
        const TopologyDiff same = diffTopology(after, labels, TopologyIndex::build(after, **tree));
        QVERIFY(same.domainsSplit.empty() && same.domainsMerged.empty() && same.leftLevelCapacity.empty());
        QCOMPARE(same.moved.size(), std::size_t(4)); // "b1/r1" is "block-b1/rack-r1" there

        request = {};
        request.format = "kueue";
        made = objectPlanChanges(state, labels, request);
        QVERIFY2(made, made ? "" : made.error().message.c_str());
        // The cluster's Topology "default" has these levels already: only its flavor is made,
        // selecting by the one hardware label every node shares.
        QCOMPARE(made->size(), std::size_t(1));
        QCOMPARE(made->front().describe(), std::string("create ResourceFlavor default"));
        const auto& flavor = std::get<ResourceFlavor>(*made->front().after);
        QCOMPARE(flavor.topologyName, std::string("default"));
        QCOMPARE(flavor.nodeLabels.size(), std::size_t(1));
        QCOMPARE(flavor.nodeLabels[0].first, std::string("node.kubernetes.io/instance-type"));
        request.format = "kai";
        made = objectPlanChanges(state, labels, request);
        QCOMPARE(made->size(), std::size_t(1));
        QCOMPARE(made->front().describe(), std::string("create KAI Topology default"));
        request.format = "hypernodes";
        const TopologyIndex none = TopologyIndex::build(state, TopologySpec{});
        QVERIFY(!objectPlanChanges(state, none, request));
    }

    // Slinky's annotation from the label hierarchy: the leaf switch and block of each node, as
    // annotation changes that patch /metadata/annotations, drift, read back from the file, and
    // survive a snapshot; a node already annotated so is left alone.
    void slinkyAnnotations() {
        ClusterState state = cluster();
        Node annotated = *state.record(*state.findNode("node-3")).node;
        annotated.setAnnotation(kSlinkyTopologyAnnotation, "tree:r2,block:r2");
        (void)state.apply(NodeUpserted{annotated});
        const TopologyIndex index =
            TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"}));
        SlinkyRequest request{"tree", "block", true};
        Result<std::vector<LabelChange>> changes = slinkyAnnotationChanges(state, index, request);
        QVERIFY2(changes, changes ? "" : changes.error().message.c_str());
        QCOMPARE(changes->size(), std::size_t(3)); // node-3 has it already
        QCOMPARE(changes->front().after, std::optional<std::string>("tree:r1,block:r1"));
        QVERIFY(changes->front().annotation);
        ChangePlan plan;
        plan.name = "slinky";
        plan.labelChanges = *changes;
        const std::vector<NodePatch> patches = nodePatches(plan);
        QVERIFY2(patches[0].body.find(R"("path":"/metadata/annotations/topology.slinky.slurm.net~1spec")") !=
                     std::string::npos,
                 patches[0].body.c_str());
        Result<ChangePlan> read = readChangePlan(writeChangePlan(plan), "slinky.yaml");
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        QCOMPARE(read->labelChanges, plan.labelChanges);
        const ClusterState after = withPlanApplied(state, plan);
        QCOMPARE(*after.record(*after.findNode("node-0")).node->annotation(kSlinkyTopologyAnnotation),
                 std::string("tree:r1,block:r1"));
        QVERIFY(after.record(*after.findNode("node-0")).node->label(kSlinkyTopologyAnnotation) == nullptr);
        QVERIFY(slinkyAnnotationChanges(after, TopologyIndex::build(after, index.spec()), request)->empty());
        // A snapshot keeps the annotation, so a plan from it has the right preconditions.
        Result<Snapshot> again = readSnapshotText(writeSnapshotJson(after), "after.json");
        QVERIFY(again);
        QCOMPARE(again->nodes.front().annotations,
                 after.record(*after.findNode(again->nodes.front().name)).node->annotations);
        // Someone else's edit since is drift, named as an annotation.
        Node edited = *state.record(*state.findNode("node-0")).node;
        edited.setAnnotation(kSlinkyTopologyAnnotation, "other:x");
        ClusterState drifted = state;
        (void)drifted.apply(NodeUpserted{edited});
        QVERIFY(anyContains(planDrift(drifted, plan),
                            "node node-0: annotation topology.slinky.slurm.net/spec is \"other:x\""));
        // Only Slinky's annotations are kept and changed.
        const std::string other = "apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nspec:\n  labelChanges:\n"
                                  "  - {node: n1, key: example.com/note, annotation: true, after: x}\n";
        Result<ChangePlan> refused = readChangePlan(other, "p.yaml");
        QVERIFY(!refused &&
                refused.error().message.find("spec.labelChanges[0].key: topodeck changes only the annotations") !=
                    std::string::npos);
        QVERIFY(!slinkyAnnotationChanges(state, index, SlinkyRequest{}));
    }

    void snapshotsKeepVersions() {
        const ClusterState state = cluster();
        Result<Snapshot> again = readSnapshotText(writeSnapshotJson(state), "again.json");
        QVERIFY(again);
        QCOMPARE(again->hyperNodes.front().resourceVersion, std::string("101"));
        QCOMPARE(again->resourceFlavors.front().resourceVersion, std::string("201"));
        QCOMPARE(again->topologies.front().resourceVersion, std::string("200"));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestObjectChange)
#include "test_object_change.moc"
