// Manifests an operator would submit, read as the gangs Kueue, KAI and Volcano would form. Pod
// counts follow Kueue's PodSets (jobframework: Job, JobSet, PyTorchJob, LeaderWorkerSet); the
// annotation rules follow Kueue's TAS webhook validation and KAI's podgrouper.
#include "core/placement/requests/gang_manifest.h"
#include "support/test_program.h"

#include <QtTest>

#include <tuple>

#include <string>
#include <vector>

using topodeck::GangRequest;
using topodeck::KueueConstraint;
using topodeck::Result;
using topodeck::VolcanoTopology;

Q_DECLARE_METATYPE(std::string)

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

std::string describeVolcano(const VolcanoTopology& t) {
    std::string out = t.hard ? "hard" : "soft";
    if (t.highestTierAllowed) out += ",tier<=" + std::to_string(*t.highestTierAllowed);
    if (!t.highestTierName.empty()) out += ",tier=" + t.highestTierName;
    return out;
}

// Every field of a gang on one line, defaults left out, so a table row reads as the expectation.
std::string describe(const GangRequest& g) {
    std::string out = g.nameSpace + '/' + g.name + " x" + std::to_string(g.pods) + " {";
    bool first = true;
    for (const auto& [name, quantity] : g.perPod) {
        out += (first ? "" : ",") + name + '=' + quantity.toString();
        first = false;
    }
    out += '}';
    if (!g.nodeSelector.empty()) {
        out += " sel{";
        for (std::size_t i = 0; i < g.nodeSelector.size(); ++i)
            out += (i ? "," : "") + g.nodeSelector[i].first + '=' + g.nodeSelector[i].second;
        out += '}';
    }
    for (const auto& t : g.tolerations) out += " tol[" + t.key + ' ' + t.op + ' ' + t.value + ' ' + t.effect + ']';
    switch (g.kueue.mode) {
    case KueueConstraint::Mode::Required:
        out += " kueue:required@" + g.kueue.level;
        break;
    case KueueConstraint::Mode::Preferred:
        out += " kueue:preferred@" + g.kueue.level;
        break;
    case KueueConstraint::Mode::Unconstrained:
        out += " kueue:unconstrained";
        break;
    case KueueConstraint::Mode::Implied:
        break;
    }
    if (!g.kueue.slices.empty()) {
        out += " slices[";
        for (std::size_t i = 0; i < g.kueue.slices.size(); ++i)
            out += (i ? "," : "") + g.kueue.slices[i].level + ':' + std::to_string(g.kueue.slices[i].size);
        out += ']';
    }
    if (!g.kueue.group.empty()) out += " group=" + g.kueue.group;
    if (!g.kai.required.empty() || !g.kai.preferred.empty())
        out += " kai:req=" + g.kai.required + ",pref=" + g.kai.preferred;
    if (g.kai.segmentSize > 0)
        out += " seg=" + std::to_string(g.kai.segmentSize) + "/req=" + g.kai.segmentRequired +
               ",pref=" + g.kai.segmentPreferred;
    if (!g.topologyName.empty()) out += " topology=" + g.topologyName;
    if (g.volcano.networkTopology) out += " volcano:" + describeVolcano(*g.volcano.networkTopology);
    if (g.volcano.partitionSize > 0) {
        out += " partitions:" + std::to_string(g.volcano.partitionSize) +
               ",min=" + std::to_string(g.volcano.minPartitions);
        if (g.volcano.partitionTopology) out += ',' + describeVolcano(*g.volcano.partitionTopology);
    }
    return out;
}

// Gangs one per line; a heterogeneous gang's parts each on a line of their own below it.
QByteArray describeAll(const std::vector<GangRequest>& gangs) {
    std::string out;
    for (const GangRequest& g : gangs) {
        if (!out.empty()) out += '\n';
        if (!g.heterogeneous()) {
            out += describe(g);
            continue;
        }
        out += g.nameSpace + '/' + g.name + " x" + std::to_string(g.pods) + " in " + std::to_string(g.parts.size()) +
               " parts";
        for (std::size_t i = 0; i < g.parts.size(); ++i) out += "\n  " + describe(g.onlyPart(i));
    }
    return QByteArray::fromStdString(out);
}

QByteArray lines(std::initializer_list<const char*> gangs) {
    QByteArray out;
    for (const char* gang : gangs) out += (out.isEmpty() ? "" : "\n") + QByteArray(gang);
    return out;
}

// A batch Job around a pod template body (indented for `spec.template`).
std::string job(const std::string& name, const std::string& specExtra, const std::string& podTemplate) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\nspec:\n" + specExtra + "  template:\n" +
           podTemplate;
}

const std::string kGpuPod = "    spec:\n      containers:\n      - name: c\n        resources:\n"
                            "          limits: {nvidia.com/gpu: 8}\n";

std::string annotatedGpuPod(const std::string& annotations) {
    return "    metadata:\n      annotations:\n" + annotations + kGpuPod;
}

} // namespace

class TestGangManifest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reads_data();
    void reads();
    void rejects_data();
    void rejects();
    void readsFiles_data();
    void readsFiles();
    void fileErrors();
};

void TestGangManifest::reads_data() {
    QTest::addColumn<std::string>("yaml");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("job: parallelism, limits stand in for requests, required level")
        << job("train", "  parallelism: 4\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-required-topology: cloud.provider.com/rack\n"))
        << lines({"default/train x4 {nvidia.com/gpu=8} kueue:required@cloud.provider.com/rack"});
    QTest::newRow("job: completions below parallelism cap the PodSet, as Kueue counts it")
        << job("short", "  parallelism: 8\n  completions: 3\n", kGpuPod)
        << lines({"default/short x3 {nvidia.com/gpu=8}"});
    QTest::newRow("job: parallelism defaults to 1")
        << job("one", "  completions: 10\n", kGpuPod) << lines({"default/one x1 {nvidia.com/gpu=8}"});
    QTest::newRow("job: preferred level, selector sorted, tolerations")
        << job("pref", "  parallelism: 2\n",
               std::string("    metadata:\n      annotations:\n"
                           "        kueue.x-k8s.io/podset-preferred-topology: rack\n"
                           "    spec:\n      nodeSelector: {zone: a, accelerator: h100}\n"
                           "      tolerations:\n"
                           "      - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
                           "      - {key: dedicated, value: ml}\n"
                           "      - {operator: Exists}\n"
                           "      containers:\n      - name: c\n"
                           "        resources: {requests: {cpu: 2, memory: 4Gi}}\n"))
        << lines({"default/pref x2 {cpu=2,memory=4Gi} sel{accelerator=h100,zone=a} "
                  "tol[nvidia.com/gpu Exists  NoSchedule] tol[dedicated Equal ml ] tol[ Exists  ] "
                  "kueue:preferred@rack"});
    QTest::newRow("job: unconstrained true")
        << job("u", "", annotatedGpuPod("        kueue.x-k8s.io/podset-unconstrained-topology: \"true\"\n"))
        << lines({"default/u x1 {nvidia.com/gpu=8} kueue:unconstrained"});
    QTest::newRow("job: unconstrained false is as if absent")
        << job("u", "", annotatedGpuPod("        kueue.x-k8s.io/podset-unconstrained-topology: \"F\"\n"))
        << lines({"default/u x1 {nvidia.com/gpu=8}"});
    QTest::newRow("job: slice layer inside a required block")
        << job("s", "  parallelism: 16\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-required-topology: block\n"
                               "        kueue.x-k8s.io/podset-slice-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-slice-size: \"4\"\n"))
        << lines({"default/s x16 {nvidia.com/gpu=8} kueue:required@block slices[rack:4]"});
    QTest::newRow("job: slice-only request")
        << job("s", "  parallelism: 8\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-slice-size: \"8\"\n"))
        << lines({"default/s x8 {nvidia.com/gpu=8} slices[rack:8]"});
    QTest::newRow("job: multi-layer slice constraints")
        << job("m", "  parallelism: 128\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-required-topology: dc\n"
                               "        kueue.x-k8s.io/podset-slice-required-topology-constraints: |\n"
                               "          [{\"topology\": \"aizone\", \"size\": 64}, {\"topology\": \"block\", "
                               "\"size\": 32},\n           {\"topology\": \"rack\", \"size\": 16}]\n"))
        << lines({"default/m x128 {nvidia.com/gpu=8} kueue:required@dc slices[aizone:64,block:32,rack:16]"});
    QTest::newRow("job: init containers, sidecars and overhead (effective request)")
        << job("init", "",
               std::string("    spec:\n      overhead: {cpu: 250m}\n      initContainers:\n"
                           "      - {name: setup, resources: {requests: {cpu: 4, memory: 1Gi}}}\n"
                           "      - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 1}}}\n"
                           "      containers:\n"
                           "      - {name: a, resources: {requests: {cpu: 1, memory: 2Gi}}}\n"
                           "      - {name: b, resources: {limits: {cpu: 500m}}}\n"))
        << lines({"default/init x1 {cpu=4250m,memory=2Gi}"});
    QTest::newRow("job: generateName, namespace, KAI on the object")
        << std::string("apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: tas-sample-\n"
                       "  namespace: ml\n  annotations:\n"
                       "    kai.scheduler/topology: network\n"
                       "    kai.scheduler/topology-preferred-placement: rack\n"
                       "    kai.scheduler/topology-required-placement: zone\n"
                       "spec:\n  parallelism: 3\n  template:\n") +
               kGpuPod
        << lines({"ml/tas-sample- x3 {nvidia.com/gpu=8} kai:req=zone,pref=rack topology=network"});
    QTest::newRow("jobset: replicas x parallelism per replicatedJob, zero replicas skipped")
        << std::string("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js}\nspec:\n"
                       "  replicatedJobs:\n"
                       "  - name: w\n    replicas: 3\n    template:\n      spec:\n        parallelism: 4\n"
                       "        template:\n          spec:\n            containers:\n"
                       "            - {name: c, resources: {limits: {nvidia.com/gpu: 4}}}\n"
                       "  - name: idle\n    replicas: 0\n    template:\n      spec:\n        template:\n"
                       "          spec:\n            containers: [{name: c}]\n")
        << lines({"default/js x12 {nvidia.com/gpu=4}"});
    QTest::newRow("pytorchjob: one gang of master and worker, replicas default 1")
        << std::string("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: pt}\nspec:\n"
                       "  pytorchReplicaSpecs:\n"
                       "    Worker:\n      replicas: 3\n"
                       "      template: {spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n"
                       "    Master:\n"
                       "      template: {spec: {containers: [{name: m, resources: {requests: {cpu: 1}}}]}}\n")
        << lines({"default/pt x4 in 2 parts", "  default/pt/master x1 {cpu=1}",
                  "  default/pt/worker x3 {nvidia.com/gpu=8}"});
    QTest::newRow("lws: every group is a gang")
        << std::string("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\n"
                       "spec:\n  replicas: 2\n  leaderWorkerTemplate:\n    size: 4\n    workerTemplate:\n"
                       "      spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}\n")
        << lines({"default/l/group-0 x4 {nvidia.com/gpu=8}", "default/l/group-1 x4 {nvidia.com/gpu=8}"});
    // leaderworkerset_webhook_test.go "valid PodSet group name request": the leader and workers of a
    // group carry its name, which places them in one pass.
    QTest::newRow("lws: a PodSet group")
        << std::string("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\n"
                       "spec:\n  leaderWorkerTemplate:\n    size: 4\n    leaderTemplate:\n"
                       "      metadata: {annotations: {kueue.x-k8s.io/podset-group-name: groupname, "
                       "kueue.x-k8s.io/podset-required-topology: cloud.com/block}}\n"
                       "      spec: {containers: [{name: l, resources: {requests: {cpu: 2}}}]}\n"
                       "    workerTemplate:\n"
                       "      metadata: {annotations: {kueue.x-k8s.io/podset-group-name: groupname, "
                       "kueue.x-k8s.io/podset-required-topology: cloud.com/block}}\n"
                       "      spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}\n")
        << lines({"default/l/group-0 x4 in 2 parts",
                  "  default/l/group-0/leader x1 {cpu=2} kueue:required@cloud.com/block group=groupname",
                  "  default/l/group-0/worker x3 {nvidia.com/gpu=8} kueue:required@cloud.com/block group=groupname"});
    // Kueue makes two PodSets of a leaderTemplate whatever it holds (leaderworkerset podSets()), and
    // places them apart unless they share a PodSet group.
    QTest::newRow("lws: a leader like the workers is still its own PodSet")
        << std::string("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\n"
                       "spec:\n  leaderWorkerTemplate:\n    size: 3\n"
                       "    leaderTemplate:\n"
                       "      spec: {containers: [{name: l, resources: {limits: {nvidia.com/gpu: 8}}}]}\n"
                       "    workerTemplate:\n"
                       "      spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}\n")
        << lines({"default/l/group-0 x3 in 2 parts", "  default/l/group-0/leader x1 {nvidia.com/gpu=8}",
                  "  default/l/group-0/worker x2 {nvidia.com/gpu=8}"});
    QTest::newRow("lws: a different leader is a part of its group's gang")
        << std::string("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\n"
                       "spec:\n  replicas: 2\n  leaderWorkerTemplate:\n    size: 3\n"
                       "    leaderTemplate:\n      spec: {containers: [{name: l, resources: {requests: {cpu: 2}}}]}\n"
                       "    workerTemplate:\n"
                       "      metadata:\n        annotations:\n"
                       "          kueue.x-k8s.io/podset-required-topology: rack\n"
                       "      spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}\n")
        << lines({"default/l/group-0 x3 in 2 parts", "  default/l/group-0/leader x1 {cpu=2}",
                  "  default/l/group-0/worker x2 {nvidia.com/gpu=8} kueue:required@rack",
                  "default/l/group-1 x3 in 2 parts", "  default/l/group-1/leader x1 {cpu=2}",
                  "  default/l/group-1/worker x2 {nvidia.com/gpu=8} kueue:required@rack"});
    QTest::newRow("volcano: tasks of one shape are one gang")
        << std::string("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
                       "  networkTopology: {mode: soft, highestTierName: spine}\n  tasks:\n"
                       "  - name: a\n    replicas: 4\n"
                       "    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n"
                       "  - name: b\n    replicas: 2\n"
                       "    template: {spec: {containers: [{name: d, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n")
        << lines({"default/vc x6 {nvidia.com/gpu=8} volcano:soft,tier=spine"});
    QTest::newRow("volcano: tasks of different shapes are parts of one gang, partitions per task")
        << std::string("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
                       "  minAvailable: 9\n  networkTopology: {highestTierAllowed: 2}\n  tasks:\n"
                       "  - name: ps\n    replicas: 1\n"
                       "    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 4}}}]}}\n"
                       "  - name: worker\n    replicas: 8\n"
                       "    partitionPolicy:\n      totalPartitions: 2\n      partitionSize: 4\n"
                       "      minPartitions: 1\n      networkTopology: {mode: hard, highestTierAllowed: 1}\n"
                       "    template: {spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n")
        << lines({"default/vc x9 in 2 parts", "  default/vc/ps x1 {cpu=4} volcano:hard,tier<=2",
                  "  default/vc/worker x8 {nvidia.com/gpu=8} volcano:hard,tier<=2 partitions:4,min=1,hard,tier<=1"});
    QTest::newRow("volcano: partitioned tasks of one shape add their partitions up")
        << std::string(
               "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
               "  tasks:\n"
               "  - replicas: 4\n    partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 1}\n"
               "    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n"
               "  - replicas: 6\n    partitionPolicy: {totalPartitions: 3, partitionSize: 2, minPartitions: 2}\n"
               "    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}\n")
        << lines({"default/vc x10 {nvidia.com/gpu=8} partitions:2,min=3"});
    QTest::newRow("list and documents, in order")
        << std::string("apiVersion: v1\nkind: List\nitems:\n") +
               std::string("- apiVersion: batch/v1\n  kind: Job\n  metadata: {name: a}\n"
                           "  spec: {template: {spec: {containers: [{name: c}]}}}\n"
                           "- apiVersion: batch/v1\n  kind: Job\n  metadata: {name: b}\n"
                           "  spec: {parallelism: 2, template: {spec: {containers: [{name: c}]}}}\n"
                           "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: c}\n"
                           "spec: {template: {spec: {containers: [{name: c}]}}}\n")
        << lines({"default/a x1 {}", "default/b x2 {}", "default/c x1 {}"});
}

void TestGangManifest::reads() {
    QFETCH(std::string, yaml);
    QFETCH(QByteArray, expected);
    Result<std::vector<GangRequest>> gangs = topodeck::readGangManifests(yaml, "test.yaml");
    QVERIFY2(gangs.ok(), gangs.ok() ? "" : gangs.error().message.c_str());
    QCOMPARE(describeAll(*gangs), expected);
    for (const GangRequest& gang : *gangs) QVERIFY(!gang.slurm);
}

void TestGangManifest::rejects_data() {
    QTest::addColumn<std::string>("yaml");
    QTest::addColumn<std::string>("expected");

    QTest::newRow("unknown kind lists the supported ones")
        << std::string("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n")
        << std::string("test.yaml:2:7: Deployment d: apps/v1 Deployment is not a gang topodeck reads; supported: "
                       "batch/v1 Job, jobset.x-k8s.io JobSet, kubeflow.org PyTorchJob, "
                       "leaderworkerset.x-k8s.io LeaderWorkerSet, batch.volcano.sh Job");
    QTest::newRow("two topology modes")
        << job("j", "",
               annotatedGpuPod("        kueue.x-k8s.io/podset-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-preferred-topology: block\n"))
        << std::string("test.yaml:9:9: Job j: spec.template.metadata.annotations: must not contain more than one "
                       "topology annotation");
    QTest::newRow("slice size without slice topology")
        << job("j", "  parallelism: 4\n", annotatedGpuPod("        kueue.x-k8s.io/podset-slice-size: \"2\"\n"))
        << std::string("Job j: spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]: may not be "
                       "set when 'kueue.x-k8s.io/podset-slice-required-topology' is not specified");
    QTest::newRow("slice size above the pod count")
        << job("j", "  parallelism: 4\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-slice-size: \"8\"\n"))
        << std::string("[kueue.x-k8s.io/podset-slice-size]: must not be greater than pod set count 4");
    QTest::newRow("slice size not a number")
        << job("j", "",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-slice-size: four\n"))
        << std::string("must be a numeric value, got \"four\"");
    QTest::newRow("constraints with the slice pair")
        << job("j", "  parallelism: 8\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology: rack\n"
                               "        kueue.x-k8s.io/podset-slice-size: \"2\"\n"
                               "        kueue.x-k8s.io/podset-slice-required-topology-constraints: "
                               "'[{\"topology\": \"rack\", \"size\": 2}]'\n"))
        << std::string("[kueue.x-k8s.io/podset-slice-required-topology-constraints]: may not be set when "
                       "'kueue.x-k8s.io/podset-slice-required-topology' is specified");
    QTest::newRow("constraint sizes must divide")
        << job("j", "  parallelism: 8\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology-constraints: "
                               "'[{\"topology\": \"block\", \"size\": 8}, {\"topology\": \"rack\", \"size\": 3}]'\n"))
        << std::string("constraints][1].size: must evenly divide the parent layer size 8");
    QTest::newRow("constraint size as a string")
        << job("j", "  parallelism: 8\n",
               annotatedGpuPod("        kueue.x-k8s.io/podset-slice-required-topology-constraints: "
                               "'[{\"topology\": \"block\", \"size\": \"8\"}]'\n"))
        << std::string("constraints][0].size: want a number, got \"8\"");
    // kueue.x-k8s.io/podset-group-name as Kueue's webhooks check it, rows after their tests
    // (leaderworkerset_webhook_test.go, jobset_webhook_test.go).
    const auto lws = [](const std::string& leaderAnnotations, const std::string& workerAnnotations) {
        const auto tmpl = [](const std::string& annotations) {
            return (annotations.empty() ? std::string() : "      metadata: {annotations: {" + annotations + "}}\n") +
                   "      spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}\n";
        };
        return "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: test-lws}\n"
               "spec:\n  leaderWorkerTemplate:\n    size: 4\n    leaderTemplate:\n" +
               tmpl(leaderAnnotations) + "    workerTemplate:\n" + tmpl(workerAnnotations);
    };
    const std::string grouped = "kueue.x-k8s.io/podset-group-name: groupname, "
                                "kueue.x-k8s.io/podset-required-topology: cloud.com/block";
    QTest::newRow("group name: value is a number")
        << lws("kueue.x-k8s.io/podset-group-name: \"1234\", kueue.x-k8s.io/podset-required-topology: cloud.com/block",
               "kueue.x-k8s.io/podset-group-name: \"1234\", kueue.x-k8s.io/podset-required-topology: cloud.com/block")
        << std::string("LeaderWorkerSet test-lws: spec.leaderWorkerTemplate.leaderTemplate.metadata.annotations["
                       "kueue.x-k8s.io/podset-group-name]: Invalid value: \"1234\": must not be a number");
    QTest::newRow("group name: grouping requested together with slicing")
        << lws(grouped + ", kueue.x-k8s.io/podset-slice-required-topology: cloud.com/block, "
                         "kueue.x-k8s.io/podset-slice-size: \"1\"",
               grouped)
        << std::string("leaderTemplate.metadata.annotations[kueue.x-k8s.io/podset-group-name]: may not be set when "
                       "'kueue.x-k8s.io/podset-slice-size' is specified");
    QTest::newRow("group name: no required or preferred level")
        << lws("kueue.x-k8s.io/podset-group-name: g", "kueue.x-k8s.io/podset-group-name: g")
        << std::string("[kueue.x-k8s.io/podset-group-name]: may not be set when neither "
                       "'kueue.x-k8s.io/podset-preferred-topology' nor 'kueue.x-k8s.io/podset-required-topology' is "
                       "specified");
    QTest::newRow("group specified only in worker")
        << lws("", grouped)
        << std::string("spec.leaderWorkerTemplate.workerTemplate.metadata.annotations[kueue.x-k8s.io/podset-group-name]: "
                       "Invalid value: \"groupname\": can only define groups of exactly 2 pod sets, got: 1 pod set(s)");
    const auto jobSet = [](const std::vector<std::tuple<std::string, int, int, std::string>>& jobs) {
        std::string text = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: jobset}\nspec:\n"
                           "  replicatedJobs:\n";
        for (const auto& [name, replicas, parallelism, annotations] : jobs)
            text += "  - name: " + name + "\n    replicas: " + std::to_string(replicas) +
                    "\n    template:\n      spec:\n        parallelism: " + std::to_string(parallelism) +
                    "\n        completions: " + std::to_string(parallelism) +
                    "\n        template:\n          metadata: {annotations: {" + annotations +
                    "}}\n          spec: {containers: [{name: c}]}\n";
        return text;
    };
    const auto group = [](const char* level, const char* name) {
        return std::string("kueue.x-k8s.io/podset-required-topology: ") + level +
               ", kueue.x-k8s.io/podset-group-name: " + name;
    };
    QTest::newRow("groups of size other than 2")
        << jobSet({{"job1", 1, 1, group("cloud.com/block", "1podset")},
                   {"job2", 1, 1, group("cloud.com/block", "3podsets")},
                   {"job3", 2, 1, group("cloud.com/block", "3podsets")},
                   {"job4", 2, 2, group("cloud.com/block", "3podsets")}})
        << std::string("spec.replicatedJobs[0].template.spec.template.metadata.annotations[kueue.x-k8s.io/"
                       "podset-group-name]: Invalid value: \"1podset\": can only define groups of exactly 2 pod sets, "
                       "got: 1 pod set(s)");
    QTest::newRow("no leader in group")
        << jobSet({{"job1", 2, 1, group("cloud.com/block", "groupname")},
                   {"job2", 1, 3, group("cloud.com/block", "groupname")}})
        << std::string("Invalid value: \"groupname\": can only define groups where at least one pod set has only 1 "
                       "replica, got: 2 replica(s) and 3 replica(s) in the group");
    QTest::newRow("required topology does not match")
        << jobSet({{"job1", 1, 1, group("cloud.com/rack", "groupname")},
                   {"job2", 2, 1, group("cloud.com/block", "groupname")}})
        << std::string("JobSet jobset: spec.replicatedJobs[0].template.spec.template.metadata.annotations: must "
                       "specify 'kueue.x-k8s.io/podset-required-topology' or 'kueue.x-k8s.io/podset-preferred-topology' "
                       "topology consistent with 'spec.replicatedJobs[1].template.spec.template.metadata.annotations' "
                       "in group 'groupname'");
    QTest::newRow("unconstrained not a boolean")
        << job("j", "", annotatedGpuPod("        kueue.x-k8s.io/podset-unconstrained-topology: maybe\n"))
        << std::string("must be a boolean value, got \"maybe\"");
    QTest::newRow("kueue annotation on the object, where Kueue does not read it")
        << std::string("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations:\n"
                       "    kueue.x-k8s.io/podset-required-topology: rack\nspec:\n  template:\n") +
               kGpuPod
        << std::string("test.yaml:6:46: Job j: metadata.annotations[kueue.x-k8s.io/podset-required-topology]: "
                       "Kueue reads this annotation from the pod template's metadata.annotations, not the Job's");
    QTest::newRow("kai placement on the pod template, where KAI does not read it")
        << job("j", "", annotatedGpuPod("        kai.scheduler/topology-required-placement: rack\n"))
        << std::string("KAI reads this annotation from the Job's metadata.annotations, not the pod template's");
    QTest::newRow("kai segment placement without a segment size")
        << job("j", "", annotatedGpuPod("        kai.scheduler/segment-topology-required-placement: rack\n"))
        << std::string("needs kai.scheduler/segment-size on the same pod template");
    QTest::newRow("toleration operator")
        << job("j", "",
               std::string("    spec:\n      tolerations: [{key: a, operator: Equals}]\n"
                           "      containers: [{name: c}]\n"))
        << std::string("Job j: spec.template.spec.tolerations[0].operator: want Equal or Exists, got \"Equals\"");
    QTest::newRow("exists with a value")
        << job("j", "",
               std::string("    spec:\n      tolerations: [{key: a, operator: Exists, value: b}]\n"
                           "      containers: [{name: c}]\n"))
        << std::string("tolerations[0].value: must be empty when operator is Exists");
    QTest::newRow("bad quantity") << job("j", "",
                                         std::string("    spec:\n      containers:\n      - name: c\n"
                                                     "        resources: {limits: {nvidia.com/gpu: eight}}\n"))
                                  << std::string(
                                         "Job j: spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]:");
    QTest::newRow("no containers") << job("j", "", std::string("    spec: {}\n"))
                                   << std::string("Job j: spec.template.spec.containers: is missing");
    QTest::newRow("volcano tier by number and by name")
        << std::string("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
                       "  networkTopology: {highestTierAllowed: 1, highestTierName: leaf}\n"
                       "  tasks: [{replicas: 1, template: {spec: {containers: [{name: c}]}}}]\n")
        << std::string("Job vc: spec.networkTopology: highestTierAllowed and highestTierName cannot be set together");
    QTest::newRow("volcano partitions must cover the replicas")
        << std::string("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
                       "  tasks:\n  - replicas: 8\n    partitionPolicy: {totalPartitions: 2, partitionSize: 3}\n"
                       "    template: {spec: {containers: [{name: c}]}}\n")
        << std::string("spec.tasks[0].partitionPolicy: totalPartitions x partitionSize (2 x 3) must equal "
                       "replicas (8)");
    QTest::newRow("volcano minAvailable above the replicas")
        << std::string("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: vc}\nspec:\n"
                       "  minAvailable: 5\n  tasks: [{replicas: 4, template: {spec: {containers: [{name: c}]}}}]\n")
        << std::string("spec.minAvailable: should not be greater than total replicas in tasks (4)");
    QTest::newRow("pytorchjob replica type")
        << std::string("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: pt}\nspec:\n"
                       "  pytorchReplicaSpecs:\n    Chief: {template: {spec: {containers: [{name: c}]}}}\n")
        << std::string("spec.pytorchReplicaSpecs.Chief: a PyTorchJob has Master and Worker replicas only");
    QTest::newRow("negative parallelism")
        << job("j", "  parallelism: -1\n", kGpuPod)
        << std::string("Job j: spec.parallelism: want a whole number from 0 to 2147483647, got -1");
    QTest::newRow("no pods") << job("j", "  parallelism: 0\n", kGpuPod)
                             << std::string("Job j: spec.parallelism: asks for no pods");
    QTest::newRow("second document") << job("a", "", kGpuPod) +
                                            std::string("---\napiVersion: batch/v1\nkind: Job\nmetadata: {}\n")
                                     << std::string("Job in document 2: metadata.name: is missing");
    QTest::newRow("list item") << std::string(
                                      "kind: List\nitems:\n- {apiVersion: batch/v1, kind: Job, metadata: {name: x}}\n")
                               << std::string("Job x (items[0]): spec: is missing");
    QTest::newRow("invalid yaml") << std::string("kind: Job\nmetadata:\n\tname: n\n")
                                  << std::string("test.yaml:3:1: invalid YAML: found character that cannot start any token");
    QTest::newRow("nothing to place") << std::string("# empty\n")
                                      << std::string("test.yaml: no gang to place; expected one of batch/v1 Job");
}

void TestGangManifest::rejects() {
    QFETCH(std::string, yaml);
    QFETCH(std::string, expected);
    Result<std::vector<GangRequest>> gangs = topodeck::readGangManifests(yaml, "test.yaml");
    QVERIFY2(!gangs.ok(), "expected an error");
    const std::string& message = gangs.error().message;
    QVERIFY2(message.find(expected) != std::string::npos, message.c_str());
}

void TestGangManifest::readsFiles_data() {
    QTest::addColumn<std::string>("file");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("jobset with slices, tolerations and a driver")
        << std::string("jobset-trainer.yaml")
        << lines({"team-a/trainer x9 in 2 parts",
                  "  team-a/trainer/workers x8 {nvidia.com/gpu=8} tol[nvidia.com/gpu Exists  NoSchedule] "
                  "kueue:required@cloud.provider.com/topology-block "
                  "slices[cloud.provider.com/topology-rack:4]",
                  "  team-a/trainer/driver x1 {cpu=500m,memory=1Gi} sel{node-role=cpu}"});
    QTest::newRow("pytorchjob with KAI segments on the workers")
        << std::string("pytorchjob-segments.yaml")
        << lines({"default/distributed-training x17 in 2 parts",
                  "  default/distributed-training/master x1 {nvidia.com/gpu=8} kai:req=zone,pref= "
                  "seg=4/req=rack,pref= topology=cluster-topology",
                  "  default/distributed-training/worker x16 {nvidia.com/gpu=8} kai:req=zone,pref= "
                  "seg=4/req=rack,pref= topology=cluster-topology"});
    QTest::newRow("documents, an empty one and a list")
        << std::string("mixed.yaml")
        << lines({"default/single x2 {nvidia.com/gpu=4} kueue:preferred@rack",
                  "default/vc x8 {nvidia.com/gpu=8} volcano:hard,tier<=2",
                  "default/serve/group-0 x4 {nvidia.com/gpu=8}", "default/serve/group-1 x4 {nvidia.com/gpu=8}"});
    QTest::newRow("json") << std::string("job.json")
                          << lines({"ml/from-json x3 {cpu=4,nvidia.com/gpu=2} kueue:unconstrained"});
}

void TestGangManifest::readsFiles() {
    QFETCH(std::string, file);
    QFETCH(QByteArray, expected);
    const std::string path = std::string(TOPODECK_TEST_DATA_DIR) + "/gangs/" + file;
    Result<std::vector<GangRequest>> gangs = topodeck::readGangManifestFile(path);
    QVERIFY2(gangs.ok(), gangs.ok() ? "" : gangs.error().message.c_str());
    QCOMPARE(describeAll(*gangs), expected);
    QVERIFY(gangs->front().source.starts_with(path + " ("));
}

void TestGangManifest::fileErrors() {
    const std::string path = std::string(TOPODECK_TEST_DATA_DIR) + "/gangs/bad-replicas.yaml";
    Result<std::vector<GangRequest>> gangs = topodeck::readGangManifestFile(path);
    QVERIFY(!gangs.ok());
    QCOMPARE(qs(gangs.error().message),
             qs(path + ":8:15: JobSet trainer: spec.replicatedJobs[0].replicas: want a whole number, got \"x\""));

    Result<std::vector<GangRequest>> missing = topodeck::readGangManifestFile("/nonexistent/gang.yaml");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.starts_with("cannot open /nonexistent/gang.yaml"));
}

TOPODECK_TEST_APPLESS_MAIN(TestGangManifest)
#include "test_gang_manifest.moc"
