// The snapshot reader on kubectl-shaped files (YAML and JSON), its error messages on bad input,
// and the writer's round trip through the reader.
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/model/cluster_state.h"
#include "support/test_program.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::string dataPath(const char* name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + '/' + name;
}

Quantity q(const char* text) {
    auto quantity = Quantity::parse(text);
    if (!quantity) qFatal("bad quantity in test: %s", quantity.error().message.c_str());
    return *quantity;
}

const Node* findNode(const Snapshot& snapshot, std::string_view name) {
    for (const Node& node : snapshot.nodes)
        if (node.name == name) return &node;
    return nullptr;
}

const Pod* findPod(const Snapshot& snapshot, std::string_view nameSpace, std::string_view name) {
    for (const Pod& pod : snapshot.pods)
        if (pod.nameSpace == nameSpace && pod.name == name) return &pod;
    return nullptr;
}

Snapshot readOrFail(const std::string& path) {
    Result<Snapshot> result = readSnapshotFile(path);
    if (!result) qFatal("%s", result.error().message.c_str());
    return std::move(result).value();
}

QStringList warningsOf(const Snapshot& snapshot) {
    QStringList list;
    for (const std::string& warning : snapshot.warnings) list << qs(warning);
    return list;
}

} // namespace

class TestSnapshotReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void kubectlYaml_nodes();
    void kubectlYaml_pods();
    void kubectlYaml_topologiesAndWarnings();
    void yamlAndJsonAgree();
    void takeEventsOrder();
    void multiDocumentYaml();
    void apiServerNodeList();
    void textAndSourceName();
    void workload_data();
    void workload();
    void badFiles_data();
    void badFiles();
    void badText_data();
    void badText();
    void notUtf8IsRefused();
    void missingFile();
    void writerRoundTrip();
    void writerEscapesStrings();
};

void TestSnapshotReader::kubectlYaml_nodes() {
    const Snapshot snapshot = readOrFail(dataPath("reader-cluster.yaml"));
    QCOMPARE(snapshot.nodes.size(), std::size_t(5));

    const Node* a1 = findNode(snapshot, "gpu-a1");
    QVERIFY(a1);
    QCOMPARE(a1->labels.size(), std::size_t(8));
    QVERIFY(std::is_sorted(a1->labels.begin(), a1->labels.end()));
    QVERIFY(a1->label("fabric.topograph.run/tier-0"));
    QCOMPARE(qs(*a1->label("fabric.topograph.run/tier-0")), QStringLiteral("leaf-1"));
    QVERIFY(a1->ready);
    QVERIFY(!a1->unschedulable);
    QVERIFY(a1->taints.empty());
    QCOMPARE(a1->allocatable.size(), std::size_t(6));
    QCOMPARE(a1->allocatable.get("nvidia.com/gpu").value(), std::int64_t(8));
    QCOMPARE(a1->allocatable.get("memory"), q("2113305496Ki"));
    QCOMPARE(a1->allocatable.get("cpu"), q("191"));

    const Node* a2 = findNode(snapshot, "gpu-a2");
    QVERIFY(a2);
    QVERIFY(a2->ready);
    QVERIFY(a2->unschedulable);
    QVERIFY(!a2->schedulable());
    QCOMPARE(a2->taints.size(), std::size_t(1));
    QCOMPARE(a2->taints[0], (Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"}));

    const Node* b1 = findNode(snapshot, "gpu-b1");
    QVERIFY(b1);
    QVERIFY(!b1->ready); // Ready False
    QCOMPARE(b1->taints[0], (Taint{"nvidia.com/gpu", "present", "NoSchedule"}));
    QCOMPARE(b1->allocatable.get("cpu"), q("95.5"));

    const Node* b2 = findNode(snapshot, "gpu-b2");
    QVERIFY(b2);
    QVERIFY(!b2->ready); // Ready Unknown

    const Node* cpu = findNode(snapshot, "cpu-1");
    QVERIFY(cpu);
    QVERIFY(!cpu->ready); // no Ready condition at all
    QVERIFY(cpu->label("node-role.kubernetes.io/control-plane"));
    QVERIFY(cpu->label("node-role.kubernetes.io/control-plane")->empty());
    QVERIFY(!cpu->allocatable.contains("nvidia.com/gpu"));
}

void TestSnapshotReader::kubectlYaml_pods() {
    const Snapshot snapshot = readOrFail(dataPath("reader-cluster.yaml"));
    QCOMPARE(snapshot.pods.size(), std::size_t(6));

    // The JobSet name is the gang, not the child Job that owns the pod.
    const Pod* train = findPod(snapshot, "team-a", "train-workers-0-0-abcde");
    QVERIFY(train);
    QCOMPARE(qs(train->workload), QStringLiteral("train"));
    QCOMPARE(qs(train->nodeName), QStringLiteral("gpu-a1"));
    QCOMPARE(train->phase, PodPhase::Running);
    QVERIFY(train->holdsResources());
    QCOMPARE(train->requests.get("nvidia.com/gpu"), q("8"));
    QCOMPARE(train->requests.get("cpu"), q("8"));
    QCOMPARE(train->requests.get("memory"), q("64Gi"));

    // Sidecar (started first) + regular init + app container + overhead; the GPU comes from limits.
    // containers: cpu 1 + 0.5, memory 2Gi + 256Mi; init "fetch-model" with the sidecar before it:
    // cpu 2 + 0.5, memory 1Gi + 256Mi. Max: cpu 2.5, memory 2304Mi; plus overhead 250m, 120Mi.
    const Pod* infer = findPod(snapshot, "team-a", "infer-7f9c-x2");
    QVERIFY(infer);
    QCOMPARE(qs(infer->workload), QStringLiteral("infer-7f9c"));
    QCOMPARE(infer->requests.get("cpu"), q("2750m"));
    QCOMPARE(infer->requests.get("memory"), q("2424Mi"));
    QCOMPARE(infer->requests.get("nvidia.com/gpu"), q("1"));

    const Pod* done = findPod(snapshot, "team-b", "eval-done");
    QVERIFY(done);
    QCOMPARE(done->phase, PodPhase::Succeeded);
    QVERIFY(!done->holdsResources());
    QCOMPARE(done->requests.get("nvidia.com/gpu"), q("4"));
    QVERIFY(done->workload.empty());

    const Pod* failed = findPod(snapshot, "team-b", "eval-failed");
    QVERIFY(failed);
    QCOMPARE(failed->phase, PodPhase::Failed);
    QVERIFY(!failed->holdsResources());
    QCOMPARE(failed->requests.get("nvidia.com/gpu"), q("2"));

    const Pod* pending = findPod(snapshot, "team-b", "sweep-worker-0");
    QVERIFY(pending);
    QCOMPARE(pending->phase, PodPhase::Pending);
    QVERIFY(pending->nodeName.empty());
    QVERIFY(!pending->holdsResources());
    QCOMPARE(qs(pending->workload), QStringLiteral("sweep")); // Volcano job name over its PodGroup

    const Pod* notebook = findPod(snapshot, "kube-system", "notebook-1");
    QVERIFY(notebook);
    QCOMPARE(qs(notebook->workload), QStringLiteral("pg-notebook-1")); // KAI pod-group-name annotation
    QCOMPARE(notebook->requests.get("cpu"), q("100m"));
}

void TestSnapshotReader::kubectlYaml_topologiesAndWarnings() {
    const Snapshot snapshot = readOrFail(dataPath("reader-cluster.yaml"));
    QCOMPARE(snapshot.topologies.size(), std::size_t(2));

    const TopologySpec& kueue = snapshot.topologies[0];
    QCOMPARE(qs(kueue.name), QStringLiteral("default"));
    QCOMPARE(qs(kueue.origin), QStringLiteral("kueue"));
    QCOMPARE(kueue.depth(), 3);
    QCOMPARE(qs(kueue.levels[0].nodeLabel), QStringLiteral("fabric.topograph.run/tier-1"));
    QCOMPARE(qs(kueue.levels[0].name), qs(TopologySpec::shortNameForKey("fabric.topograph.run/tier-1")));
    QCOMPARE(qs(kueue.levels[2].nodeLabel), QStringLiteral("kubernetes.io/hostname"));
    QVERIFY(kueue.nvlinkLabel.empty());

    // The clique stays a level: the reader does not guess that it is the NVLink key.
    const TopologySpec& kai = snapshot.topologies[1];
    QCOMPARE(qs(kai.name), QStringLiteral("nvlink"));
    QCOMPARE(qs(kai.origin), QStringLiteral("kai"));
    QCOMPARE(kai.depth(), 2);
    QCOMPARE(qs(kai.levels[0].nodeLabel), QStringLiteral("nvidia.com/gpu.clique"));
    QVERIFY(kai.nvlinkLabel.empty());

    QCOMPARE(snapshot.hyperNodes.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.hyperNodes[0].name), QStringLiteral("s0"));
    QCOMPARE(warningsOf(snapshot), (QStringList{QStringLiteral("skipped 3 objects of kind ConfigMap"),
                                                QStringLiteral("skipped 1 object of kind Service")}));
}

void TestSnapshotReader::yamlAndJsonAgree() {
    const Snapshot yaml = readOrFail(dataPath("reader-cluster.yaml"));
    const Snapshot json = readOrFail(dataPath("reader-cluster.json"));
    QCOMPARE(json.nodes.size(), yaml.nodes.size());
    for (std::size_t i = 0; i < yaml.nodes.size(); ++i)
        QVERIFY2(json.nodes[i] == yaml.nodes[i], yaml.nodes[i].name.c_str());
    QCOMPARE(json.pods.size(), yaml.pods.size());
    for (std::size_t i = 0; i < yaml.pods.size(); ++i)
        QVERIFY2(json.pods[i] == yaml.pods[i], yaml.pods[i].name.c_str());
    QVERIFY(json.topologies == yaml.topologies);
    QCOMPARE(warningsOf(json), warningsOf(yaml));
}

void TestSnapshotReader::takeEventsOrder() {
    Snapshot snapshot = readOrFail(dataPath("reader-cluster.yaml"));
    const std::vector<ClusterEvent> events = snapshot.takeEvents();
    QCOMPARE(events.size(), std::size_t(5 + 6 + 2 + 1));
    for (std::size_t i = 0; i < events.size(); ++i) {
        // NodeUpserted, PodUpserted, TopologyUpserted, HyperNodeUpserted
        const std::size_t expected = i < 5 ? 0 : i < 11 ? 2 : i < 13 ? 4 : 6;
        QCOMPARE(events[i].index(), expected);
    }
    QCOMPARE(qs(std::get<NodeUpserted>(events[0]).node.name), QStringLiteral("gpu-a1"));
    QVERIFY(snapshot.nodes.empty() && snapshot.pods.empty() && snapshot.topologies.empty() &&
            snapshot.hyperNodes.empty());

    ClusterState state;
    for (const ClusterEvent& event : events) state.apply(event);
    QCOMPARE(state.presentNodeCount(), std::size_t(5));
    QCOMPARE(state.podCount(), std::size_t(6));
    QCOMPARE(state.topologies().size(), std::size_t(2));
    QCOMPARE(state.hyperNodes().size(), std::size_t(1));
}

void TestSnapshotReader::multiDocumentYaml() {
    const Snapshot snapshot = readOrFail(dataPath("reader-multidoc.yaml"));
    QCOMPARE(snapshot.nodes.size(), std::size_t(3));
    QCOMPARE(qs(snapshot.nodes[0].name), QStringLiteral("node-1"));
    QCOMPARE(snapshot.nodes[0].allocatable.get("nvidia.com/gpu"), q("8"));
    QVERIFY(snapshot.nodes[0].ready);
    // Items of a NodeList are Nodes without saying so.
    QCOMPARE(qs(snapshot.nodes[1].name), QStringLiteral("node-2"));
    QCOMPARE(snapshot.nodes[1].allocatable.get("nvidia.com/gpu"), q("4"));
    QCOMPARE(qs(snapshot.nodes[2].name), QStringLiteral("node-3"));
    QVERIFY(!snapshot.nodes[2].ready);

    QCOMPARE(snapshot.pods.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.pods[0].nameSpace), QStringLiteral("default"));
    QCOMPARE(snapshot.pods[0].requests.get("nvidia.com/gpu"), q("2"));

    QCOMPARE(snapshot.topologies.size(), std::size_t(1));
    QCOMPARE(qs(snapshot.topologies[0].name), QStringLiteral("zones"));
    QCOMPARE(qs(snapshot.topologies[0].origin), QStringLiteral("kueue"));

    QCOMPARE(warningsOf(snapshot), QStringList{QStringLiteral("skipped 1 object of kind Secret")});
}

void TestSnapshotReader::apiServerNodeList() {
    const Snapshot snapshot = readOrFail(dataPath("reader-nodelist.json"));
    QCOMPARE(snapshot.nodes.size(), std::size_t(2));
    const Node& first = snapshot.nodes[0];
    QCOMPARE(qs(first.name), QStringLiteral("api-node-1"));
    QCOMPARE(first.allocatable.get("cpu"), q("208")); // an unquoted JSON number is a quantity too
    QCOMPARE(first.allocatable.get("memory"), q("1.5Ti"));
    QVERIFY(first.label("rack"));
    QCOMPARE(qs(*first.label("rack")), QStringLiteral("7"));
    QVERIFY(first.ready);
    QVERIFY(first.taints.empty());
    QVERIFY(snapshot.nodes[1].labels.empty());
    QVERIFY(!snapshot.nodes[1].ready);
    QVERIFY(snapshot.warnings.empty());
}

void TestSnapshotReader::textAndSourceName() {
    // Leading whitespace, JSON detection, a single object, and the source name in messages.
    Result<Snapshot> good = readSnapshotText(R"(  
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
         "spec": {"containers": [{"name": "c", "resources": {"requests": {"nvidia.com/gpu": 1}}}]}})");
    QVERIFY2(good.ok(), good.ok() ? "" : good.error().message.c_str());
    QCOMPARE(good->pods.size(), std::size_t(1));
    QCOMPARE(good->pods[0].phase, PodPhase::Pending);
    QCOMPARE(good->pods[0].requests.get("nvidia.com/gpu"), q("1"));

    Result<Snapshot> empty = readSnapshotText("", "empty.yaml");
    QVERIFY(empty.ok());
    QVERIFY(empty->nodes.empty() && empty->warnings.empty());

    Result<Snapshot> bad =
        readSnapshotText("kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: x}}\n", "here.yaml");
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.starts_with("here.yaml:"), bad.error().message.c_str());
}

void TestSnapshotReader::workload_data() {
    QTest::addColumn<QString>("metadata"); // the pod's metadata, as YAML flow
    QTest::addColumn<QString>("expected");

    const QString owner =
        QStringLiteral("ownerReferences: [{kind: ReplicaSet, name: rs-1}, {kind: Job, name: job-1, controller: true}]");
    QTest::newRow("none") << QString() << QString();
    QTest::newRow("controller owner") << owner << QStringLiteral("job-1");
    QTest::newRow("first owner") << QStringLiteral("ownerReferences: [{kind: A, name: a}, {kind: B, name: b}]")
                                 << QStringLiteral("a");
    QTest::newRow("KAI pod group") << owner + QStringLiteral(", annotations: {pod-group-name: pg-1}")
                                   << QStringLiteral("pg-1");
    QTest::newRow("Volcano pod group") << QStringLiteral(
                                              "annotations: {scheduling.k8s.io/group-name: vg, pod-group-name: pg}")
                                       << QStringLiteral("vg");
    QTest::newRow("coscheduling")
        << QStringLiteral(
               "labels: {scheduling.x-k8s.io/pod-group: cg}, annotations: {scheduling.k8s.io/group-name: vg}")
        << QStringLiteral("cg");
    QTest::newRow("kueue pod group")
        << QStringLiteral("labels: {kueue.x-k8s.io/pod-group-name: kg, scheduling.x-k8s.io/pod-group: cg}")
        << QStringLiteral("kg");
    QTest::newRow("legacy job-name") << QStringLiteral("labels: {job-name: j, kueue.x-k8s.io/pod-group-name: kg}")
                                     << QStringLiteral("j");
    QTest::newRow("batch job-name") << QStringLiteral("labels: {job-name: old, batch.kubernetes.io/job-name: new}")
                                    << QStringLiteral("new");
    QTest::newRow("volcano job") << QStringLiteral("labels: {volcano.sh/job-name: v, batch.kubernetes.io/job-name: b}")
                                 << QStringLiteral("v");
    QTest::newRow("training operator") << QStringLiteral(
                                              "labels: {training.kubeflow.org/job-name: t, volcano.sh/job-name: v}")
                                       << QStringLiteral("t");
    QTest::newRow("leaderworkerset group")
        << QStringLiteral(
               "labels: {leaderworkerset.sigs.k8s.io/name: lws, leaderworkerset.sigs.k8s.io/group-index: \"3\", "
               "training.kubeflow.org/job-name: t}")
        << QStringLiteral("lws-3");
    QTest::newRow("jobset")
        << QStringLiteral("labels: {jobset.sigs.k8s.io/jobset-name: js, batch.kubernetes.io/job-name: js-w-0}, ") +
               owner
        << QStringLiteral("js");
}

void TestSnapshotReader::workload() {
    QFETCH(QString, metadata);
    QFETCH(QString, expected);
    const QString text = QStringLiteral("kind: Pod\nmetadata: {name: p, namespace: ns%1%2}\n")
                             .arg(metadata.isEmpty() ? QString() : QStringLiteral(", "), metadata);
    const QByteArray utf8 = text.toUtf8();
    Result<Snapshot> result =
        readSnapshotText(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    QCOMPARE(result->pods.size(), std::size_t(1));
    QCOMPARE(qs(result->pods[0].workload), expected);
}

void TestSnapshotReader::badFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected"); // substrings of the message

    QTest::newRow("broken yaml") << QStringLiteral("reader-bad-broken.yaml")
                                 << QStringList{QStringLiteral("reader-bad-broken.yaml:"),
                                                QStringLiteral("invalid YAML")};
    QTest::newRow("broken json") << QStringLiteral("reader-bad-broken.json")
                                 << QStringList{QStringLiteral("reader-bad-broken.json:6:"),
                                                QStringLiteral("invalid JSON")};
    QTest::newRow("node without name")
        << QStringLiteral("reader-bad-node-no-name.yaml")
        << QStringList{QStringLiteral("reader-bad-node-no-name.yaml:8:3: Node #3 in items: metadata.name is missing")};
    QTest::newRow("bad node quantity")
        << QStringLiteral("reader-bad-node-quantity.yaml")
        << QStringList{QStringLiteral(R"(Node gpu-7: status.allocatable["nvidia.com/gpu"]: invalid quantity "8x")")};
    QTest::newRow("bad pod quantity")
        << QStringLiteral("reader-bad-pod-quantity.json")
        << QStringList{
               QStringLiteral("reader-bad-pod-quantity.json:4:5:"),
               QStringLiteral(
                   R"(Pod team-a/train-0: spec.containers[1].resources.requests["memory"]: invalid quantity "64GB")")};
    QTest::newRow("labels as a list") << QStringLiteral("reader-bad-labels-list.yaml")
                                      << QStringList{QStringLiteral(
                                             "Node gpu-1: metadata.labels: expected a map of strings, got a list")};
}

void TestSnapshotReader::badFiles() {
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    Result<Snapshot> result = readSnapshotFile(dataPath(file.toUtf8().constData()));
    QVERIFY(!result.ok());
    const QString message = qs(result.error().message);
    for (const QString& part : expected) QVERIFY2(message.contains(part), qPrintable(message));
}

void TestSnapshotReader::badText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");

    auto row = [](const char* name, const char* text, QStringList expected) {
        QTest::newRow(name) << QString::fromUtf8(text) << expected;
    };
    row("allocatable as a list", "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: [cpu]}\n",
        {QStringLiteral("Node n1: status.allocatable: expected a map of quantities, got a list")});
    row("label value as a map", R"({"kind": "Node", "metadata": {"name": "n1", "labels": {"rack": {"a": 1}}}})",
        {QStringLiteral(R"(Node n1: metadata.labels["rack"]: expected a string, got a map)")});
    row("unschedulable as a string",
        R"({"kind": "Node", "metadata": {"name": "n1"}, "spec": {"unschedulable": "yes"}})",
        {QStringLiteral("Node n1: spec.unschedulable: expected true or false, got a string")});
    row("taints as a map", "kind: Node\nmetadata: {name: n1}\nspec: {taints: {key: a}}\n",
        {QStringLiteral("Node n1: spec.taints: expected a list, got a map")});
    row("name before metadata unknown", R"({"kind": "Node", "status": {"allocatable": {"cpu": "1q"}}})",
        {QStringLiteral(R"(Node: status.allocatable["cpu"]: invalid quantity "1q")")});
    row("containers as a map", "kind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {containers: {name: c}}\n",
        {QStringLiteral("Pod ns/p: spec.containers: expected a list, got a map")});
    row("pod limit",
        R"({"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"initContainers": [{"resources": {"limits": {"cpu": "-"}}}]}}]})",
        {QStringLiteral(R"(Pod p: spec.initContainers[0].resources.limits["cpu"]: invalid quantity "-")")});
    row("pod overhead", "kind: Pod\nmetadata: {name: p}\nspec: {overhead: {memory: 1Gb}}\n",
        {QStringLiteral(R"(Pod p: spec.overhead["memory"]: invalid quantity "1Gb")")});
    row("pod without name", "apiVersion: v1\nkind: List\nitems:\n- {kind: Pod, metadata: {namespace: ns}}\n",
        {QStringLiteral("Pod #0 in items: metadata.name is missing")});
    row("topology without levels",
        "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Topology\nmetadata: {name: t}\nspec: {}\n",
        {QStringLiteral("Topology t: spec.levels is missing")});
    row("topology level without label",
        "apiVersion: kai.scheduler/v1alpha1\nkind: Topology\nmetadata: {name: t}\nspec: {levels: [{nodeLabel: a}, "
        "{}]}\n",
        {QStringLiteral("Topology t: spec.levels[1].nodeLabel is missing")});
    row("kind not a string", R"({"kind": ["Node"]})", {QStringLiteral("kind: expected a string, got a list")});
    row("items not a list", "apiVersion: v1\nkind: List\nitems: {a: b}\n",
        {QStringLiteral("items: expected a list, got a map")});
    row("item not a map", R"({"kind": "List", "items": [42]})",
        {QStringLiteral("items[0]: expected a map, got a number")});
    row("scalar document", "just text\n", {QStringLiteral("expected a Kubernetes object or List, got a string")});
    row("no kind", "metadata: {name: x}\n", {QStringLiteral("kind is missing")});
    row("second document", "kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {labels: {}}\n",
        {QStringLiteral("input:4:1: Node in document 2: metadata.name is missing")});
    row("trailing json", R"({"kind": "List", "items": []} {"kind": "List"})",
        {QStringLiteral("invalid JSON"), QStringLiteral("after the top-level value")});
    row("unclosed json string", R"({"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n}}]})",
        {QStringLiteral("input"), QStringLiteral("invalid JSON")});
    row("yaml tab", "kind: Node\nmetadata:\n\tname: n\n", {QStringLiteral("input:"), QStringLiteral("invalid YAML")});
    // Nesting that a recursive parser would overflow the stack on is refused, in both formats.
    static const std::string deepYaml = "kind: Node\nmetadata: {name: n, labels: " + std::string(100000, '[') + "}\n";
    row("deep yaml", deepYaml.c_str(), {QStringLiteral("input:2:"), QStringLiteral("nested deeper than 256 levels")});
    static const std::string deepJson = R"({"kind": "Node", "metadata": {"name": "n", "labels": {"a": )" +
                                        std::string(100000, '[') + std::string(100000, ']') + "}}}";
    row("deep json", deepJson.c_str(), {QStringLiteral(R"(Node n: metadata.labels["a"]: expected a string, got a list)")});
    // An escape that makes a control character: named, shown escaped.
    row("json escape in a name", R"({"kind": "Node", "metadata": {"name": "n\u009b2J"}})",
        {QStringLiteral("metadata.name: the value holds a control character at byte 2: \"n\\u009b2J\"")});
}

void TestSnapshotReader::badText() {
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    const QByteArray utf8 = text.toUtf8();
    Result<Snapshot> result =
        readSnapshotText(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    QVERIFY2(!result.ok(), "expected an error");
    const QString message = qs(result.error().message);
    QVERIFY2(message.startsWith(QStringLiteral("input")), qPrintable(message));
    for (const QString& part : expected) QVERIFY2(message.contains(part), qPrintable(message));
}

// Bytes that are not UTF-8 are refused by the JSON parser as by the YAML one (the rows above
// pass through QString, which would replace them).
void TestSnapshotReader::notUtf8IsRefused() {
    Result<Snapshot> json = readSnapshotText("{\"kind\": \"Node\", \"metadata\": {\"name\": \"n\xff\"}}");
    QVERIFY(!json.ok());
    QVERIFY2(json.error().message.find("invalid JSON") != std::string::npos, json.error().message.c_str());
    Result<Snapshot> yaml = readSnapshotText("kind: Node\nmetadata: {name: n\xc3}\n");
    QVERIFY(!yaml.ok());
    QVERIFY2(json.error().message.starts_with("input:"), yaml.error().message.c_str());
    QVERIFY2(yaml.error().message.starts_with("input:2:") && yaml.error().message.find("invalid YAML") != std::string::npos,
             yaml.error().message.c_str());
}

void TestSnapshotReader::missingFile() {
    const std::string path = dataPath("no-such-file.yaml");
    Result<Snapshot> result = readSnapshotFile(path);
    QVERIFY(!result.ok());
    QVERIFY2(result.error().message.find(path) != std::string::npos, result.error().message.c_str());
}

namespace {

// A few hundred nodes and pods with everything the writer has to carry.
ClusterState generatedState() {
    std::mt19937 random(20251103);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    const char* gpuCounts[] = {"0", "4", "8"};
    const char* cpus[] = {"96", "191", "95500m", "0.5"};
    const char* memories[] = {"2113305496Ki", "1Ti", "512Gi", "1.5Ti", "64G"};
    ClusterState state;
    for (int i = 0; i < 300; ++i) {
        Node node;
        node.name = "gpu-" + std::to_string(i);
        node.setLabel("kubernetes.io/hostname", node.name);
        node.setLabel("fabric.topograph.run/tier-1", "spine-" + std::to_string(i / 64));
        node.setLabel("fabric.topograph.run/tier-0", "leaf-" + std::to_string(i / 16));
        if (i % 3 == 0) node.setLabel("nvidia.com/gpu.clique", "7f3c2a10." + std::to_string(i / 18));
        if (i % 50 == 7) node.setLabel("example.com/note", "quote \" backslash \\ tab \t é ✓");
        node.ready = pick(10) != 0;
        node.unschedulable = pick(8) == 0;
        if (node.unschedulable) node.taints.push_back({"node.kubernetes.io/unschedulable", "", "NoSchedule"});
        if (pick(5) == 0) node.taints.push_back({"nvidia.com/gpu", "present", "NoSchedule"});
        node.allocatable.set("cpu", q(cpus[pick(4)]));
        node.allocatable.set("memory", q(memories[pick(5)]));
        node.allocatable.set("nvidia.com/gpu", q(gpuCounts[pick(3)]));
        node.allocatable.set("pods", q("110"));
        state.apply(NodeUpserted{std::move(node)});
    }
    const PodPhase phases[] = {PodPhase::Pending,   PodPhase::Running, PodPhase::Running,
                               PodPhase::Succeeded, PodPhase::Failed,  PodPhase::Unknown};
    for (int i = 0; i < 600; ++i) {
        Pod pod;
        pod.nameSpace = "team-" + std::to_string(i % 4);
        pod.name = "job-" + std::to_string(i / 8) + "-worker-" + std::to_string(i % 8);
        pod.phase = phases[pick(6)];
        if (pod.phase != PodPhase::Pending || pick(2) == 0) pod.nodeName = "gpu-" + std::to_string(pick(300));
        if (pick(4) != 0) {
            // Every kind a Kubernetes pod can say, so that each one's label or annotation is
            // written and read back.
            static constexpr WorkloadKind kKinds[] = {
                WorkloadKind::KueueWorkload,     WorkloadKind::JobSet,          WorkloadKind::LeaderWorkerSet,
                WorkloadKind::TrainingJob,       WorkloadKind::VolcanoJob,      WorkloadKind::Job,
                WorkloadKind::KueuePodGroup,     WorkloadKind::CoschedulingGroup, WorkloadKind::VolcanoPodGroup,
                WorkloadKind::KaiPodGroup,       WorkloadKind::Owner};
            pod.workload = "job-" + std::to_string(i / 8);
            pod.workloadKind = kKinds[static_cast<std::size_t>(i / 8) % std::size(kKinds)];
        }
        pod.requests.set("nvidia.com/gpu", q(gpuCounts[1 + pick(2)]));
        pod.requests.set("cpu", q(pick(2) ? "2750m" : "8"));
        if (pick(2)) pod.requests.set("memory", q("2424Mi"));
        state.apply(PodUpserted{std::move(pod)});
    }
    TopologySpec kueue = TopologySpec::fromLabelKeys({"fabric.topograph.run/tier-1", "fabric.topograph.run/tier-0"});
    kueue.name = "default";
    kueue.origin = "kueue";
    kueue.nvlinkLabel = "nvidia.com/gpu.clique";
    state.apply(TopologyUpserted{kueue});
    TopologySpec kai = TopologySpec::fromLabelKeys({"fabric.topograph.run/tier-0", "kubernetes.io/hostname"});
    kai.name = "kai-topology";
    kai.origin = "kai";
    state.apply(TopologyUpserted{kai});
    return state;
}

} // namespace

void TestSnapshotReader::writerRoundTrip() {
    const ClusterState original = generatedState();
    const std::string json = writeSnapshotJson(original);
    QVERIFY(json.starts_with(R"({"apiVersion":"v1","kind":"List","items":[)"));

    Result<Snapshot> read = readSnapshotText(json, "written.json");
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
    QVERIFY(read->warnings.empty());
    QCOMPARE(read->nodes.size(), original.presentNodeCount());
    QCOMPARE(read->pods.size(), original.podCount());

    ClusterState copy;
    for (const ClusterEvent& event : read->takeEvents()) copy.apply(event);

    QCOMPARE(copy.presentNodeCount(), original.presentNodeCount());
    for (NodeId id = 0; id < original.nodeSlots(); ++id) {
        const NodeRecord& record = original.record(id);
        if (!record.present) continue;
        const auto copyId = copy.findNode(record.node->name);
        QVERIFY(copyId);
        const NodeRecord& copied = copy.record(*copyId);
        QVERIFY2(*copied.node == *record.node, record.node->name.c_str());
        QVERIFY2(copied.usage == record.usage, record.node->name.c_str());
    }
    QCOMPARE(copy.podCount(), original.podCount());
    original.forEachPod([&](const Pod& pod) {
        const Pod* copied = copy.findPod(pod.nameSpace, pod.name);
        QVERIFY2(copied && *copied == pod, pod.key().c_str());
    });
    QVERIFY(copy.topologies() == original.topologies());

    // The same state writes the same bytes.
    QVERIFY(writeSnapshotJson(copy) == json);
}

void TestSnapshotReader::writerEscapesStrings() {
    ClusterState state;
    Node node;
    node.name = "n\"1";
    node.setLabel("k", std::string("ctl\x01\x1f\n\r\b\f/", 10));
    state.apply(NodeUpserted{node});
    const std::string json = writeSnapshotJson(state);
    QVERIFY2(json.find("\"n\\\"1\"") != std::string::npos, json.c_str());
    QVERIFY2(json.find("\"ctl\\u0001\\u001f\\n\\r\\b\\f/\"") != std::string::npos, json.c_str());
    // Kubernetes allows none of these in a label; reading them back names the label and shows
    // the characters escaped, never raw.
    Result<Snapshot> read = readSnapshotText(json);
    QVERIFY(!read.ok());
    QVERIFY2(read.error().message.find(R"(metadata.labels["k"]: the value holds a control character at byte 4: "ctl\x01\x1f\x0a\x0d\x08\x0c/")") !=
                 std::string::npos,
             read.error().message.c_str());
    node.setLabel("k", "ctl/");
    state.apply(NodeUpserted{node});
    Result<Snapshot> clean = readSnapshotText(writeSnapshotJson(state));
    QVERIFY(clean.ok());
    QVERIFY(clean->nodes[0] == node);
}

TOPODECK_TEST_GUILESS_MAIN(TestSnapshotReader)
#include "test_snapshot_reader.moc"
