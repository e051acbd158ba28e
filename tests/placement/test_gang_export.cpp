// A gang written as the manifest its scheduler takes, read back through `plan --manifest`'s own
// readers and placed again by the same engine: the same nodes, the same verdict, the same domains.
// Requests from plan's flags and from operators' manifests (a JobSet with two kinds of pod, a
// PyTorchJob master and workers, a Volcano Job with partitions), and sbatch lines back into the
// same Slurm request. What a scheduler cannot be asked is refused, naming why.
#include "core/demo/demo_cluster.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/requests/gang_export.h"
#include "core/placement/requests/sbatch_args.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;

Q_DECLARE_METATYPE(GangScheduler)
Q_DECLARE_METATYPE(GangWorkload)

namespace {

struct Demo {
    ClusterState state;
    TopologySpec spec;
};

const Demo& gb200() {
    static const Demo demo = [] {
        testing::LoadedDemo loaded = testing::loadDemo("gb200");
        return Demo{std::move(loaded.state), std::move(loaded.demo.topology)};
    }();
    return demo;
}

PlanQuery queryFor(const QString& request) {
    PlanQuery query;
    if (request.startsWith(QLatin1String("--"))) {
        auto parsed = parsePlanQuery(request.toStdString());
        if (!parsed) qFatal("%s", parsed.error().message.c_str());
        query = std::move(*parsed);
    } else {
        query.manifest = "request.yaml";
        query.manifestText = request.toStdString();
    }
    return query;
}

Result<PlacementResult> place(PlanQuery query, const std::string& engine) {
    query.engines = {engine};
    query.compare = false;
    auto inputs = preparePlan(gb200().state, gb200().spec, {}, query);
    if (!inputs) return inputs.error();
    auto outcome = runPlanQuery(**inputs, query);
    if (!outcome) return outcome.error();
    return std::move(outcome->results.front());
}

const char* kTwoKindJobSet = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: trainer
spec:
  replicatedJobs:
  - name: driver
    replicas: 1
    template:
      spec:
        parallelism: 1
        completions: 1
        template:
          metadata:
            annotations:
              kueue.x-k8s.io/podset-required-topology: fabric.topograph.run/tier-1
          spec:
            containers:
            - name: d
              resources: {requests: {cpu: "8", memory: 32Gi}}
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 6
        completions: 6
        template:
          metadata:
            annotations:
              kueue.x-k8s.io/podset-required-topology: fabric.topograph.run/tier-0
          spec:
            tolerations:
            - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
            containers:
            - name: w
              resources: {requests: {nvidia.com/gpu: "4", cpu: "64"}, limits: {nvidia.com/gpu: "4"}}
)";

const char* kPyTorchJob = R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: llm
  annotations:
    kai.scheduler/topology: gb200
    kai.scheduler/topology-preferred-placement: fabric.topograph.run/tier-1
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
          - name: m
            resources: {requests: {nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}
    Worker:
      replicas: 23
      template:
        metadata:
          annotations:
            kai.scheduler/segment-size: "8"
            kai.scheduler/segment-topology-required-placement: fabric.topograph.run/tier-0
        spec:
          containers:
          - name: w
            resources: {requests: {nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}
)";

// A LeaderWorkerSet whose leader and workers form a Kueue PodSet group: the group comes back.
const char* kLwsGroup = R"(apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: serve
spec:
  leaderWorkerTemplate:
    size: 9
    leaderTemplate:
      metadata:
        annotations:
          kueue.x-k8s.io/podset-required-topology: fabric.topograph.run/tier-1
          kueue.x-k8s.io/podset-group-name: serve
      spec:
        containers:
        - name: l
          resources: {requests: {cpu: "8", memory: 32Gi}}
    workerTemplate:
      metadata:
        annotations:
          kueue.x-k8s.io/podset-required-topology: fabric.topograph.run/tier-1
          kueue.x-k8s.io/podset-group-name: serve
      spec:
        containers:
        - name: w
          resources: {requests: {nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}
)";

const char* kVolcanoJob = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: vj
spec:
  minAvailable: 20
  networkTopology: {mode: hard, highestTierName: su}
  tasks:
  - name: ps
    replicas: 4
    template:
      spec:
        containers:
        - name: p
          resources: {requests: {cpu: "16"}}
  - name: worker
    replicas: 16
    partitionPolicy:
      totalPartitions: 4
      partitionSize: 4
      networkTopology: {mode: hard, highestTierName: rack}
    template:
      spec:
        containers:
        - name: w
          resources: {requests: {nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}
)";

} // namespace

class TestGangExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void placesAsTheOriginal_data() {
        QTest::addColumn<QString>("request");
        QTest::addColumn<QString>("engine");
        QTest::addColumn<GangScheduler>("scheduler");
        QTest::addColumn<GangWorkload>("workload");
        QTest::addColumn<bool>("fits");
        const QString rack = QStringLiteral("--pods 16 --request nvidia.com/gpu=4,cpu=32 --required rack");
        const QString sliced =
            QStringLiteral("--pods 32 --request nvidia.com/gpu=4 --preferred su --slice-level rack --slice-size 8");
        const QString tooBig = QStringLiteral("--pods 20 --request nvidia.com/gpu=4 --required rack");
        for (const auto& [name, workload] : {std::pair{"job", GangWorkload::Job}, {"jobset", GangWorkload::JobSet},
                                             {"pytorchjob", GangWorkload::PyTorchJob},
                                             {"lws", GangWorkload::LeaderWorkerSet}}) {
            QTest::addRow("kueue %s, required rack", name) << rack << "kueue-tas" << GangScheduler::Kueue << workload << true;
            QTest::addRow("kai %s, required rack", name) << rack << "kai" << GangScheduler::Kai << workload << true;
            QTest::addRow("kueue %s, too big for a rack", name) << tooBig << "kueue-tas" << GangScheduler::Kueue << workload << false;
        }
        QTest::newRow("kueue, preferred su in rack slices") << sliced << "kueue-tas" << GangScheduler::Kueue << GangWorkload::Job << true;
        QTest::newRow("kai pytorchjob, segments") << sliced << "kai" << GangScheduler::Kai << GangWorkload::PyTorchJob << true;
        QTest::newRow("kai lws, segments") << sliced << "kai" << GangScheduler::Kai << GangWorkload::LeaderWorkerSet << true;
        QTest::newRow("volcano, partitions") << sliced << "volcano" << GangScheduler::Volcano << GangWorkload::VolcanoJob << true;
        QTest::newRow("volcano, required rack") << rack << "volcano" << GangScheduler::Volcano << GangWorkload::VolcanoJob << true;
        QTest::newRow("volcano, too big") << tooBig << "volcano" << GangScheduler::Volcano << GangWorkload::VolcanoJob << false;
        QTest::newRow("kueue, multi-layer slices")
            << QStringLiteral("--pods 32 --request nvidia.com/gpu=4 --slice-layers su:16,rack:8") << "kueue-tas"
            << GangScheduler::Kueue << GangWorkload::JobSet << true;
        QTest::newRow("kueue, unconstrained") << QStringLiteral("--pods 40 --request nvidia.com/gpu=2 --unconstrained")
                                              << "kueue-tas" << GangScheduler::Kueue << GangWorkload::Job << true;
        QTest::newRow("kueue jobset of two kinds") << QString::fromUtf8(kTwoKindJobSet) << "kueue-tas"
                                                   << GangScheduler::Kueue << GangWorkload::JobSet << true;
        QTest::newRow("kai pytorchjob master and workers")
            << QString::fromUtf8(kPyTorchJob) << "kai" << GangScheduler::Kai << GangWorkload::PyTorchJob << true;
        QTest::newRow("kai pytorchjob as an lws group") << QString::fromUtf8(kPyTorchJob) << "kai" << GangScheduler::Kai
                                                        << GangWorkload::LeaderWorkerSet << true;
        QTest::newRow("kueue lws with a PodSet group") << QString::fromUtf8(kLwsGroup) << "kueue-tas"
                                                       << GangScheduler::Kueue << GangWorkload::LeaderWorkerSet << true;
        QTest::newRow("volcano job of two tasks") << QString::fromUtf8(kVolcanoJob) << "volcano"
                                                  << GangScheduler::Volcano << GangWorkload::VolcanoJob << true;
    }
    void placesAsTheOriginal() {
        QFETCH(QString, request);
        QFETCH(QString, engine);
        QFETCH(GangScheduler, scheduler);
        QFETCH(GangWorkload, workload);
        QFETCH(bool, fits);
        const PlanQuery original = queryFor(request);
        auto gang = planGang(original);
        QVERIFY2(gang.ok(), gang ? "" : gang.error().message.c_str());
        GangExportOptions options;
        options.scheduler = scheduler;
        options.workload = workload;
        options.queue = "team-a";
        auto text = gangManifestYaml(*gang, gb200().spec, options);
        QVERIFY2(text.ok(), text ? "" : text.error().message.c_str());
        QVERIFY(text->find(scheduler == GangScheduler::Kueue ? "\"kueue.x-k8s.io/queue-name\": \"team-a\""
                           : scheduler == GangScheduler::Kai ? "\"kai.scheduler/queue\": \"team-a\""
                                                             : "queue: \"team-a\"") != std::string::npos);

        auto before = place(original, engine.toStdString());
        QVERIFY2(before.ok(), before ? "" : before.error().message.c_str());
        PlanQuery exported;
        exported.manifest = "exported.yaml";
        exported.manifestText = *text;
        auto after = place(exported, engine.toStdString());
        QVERIFY2(after.ok(), (after ? std::string() : after.error().message + "\n" + *text).c_str());
        QCOMPARE(before->feasible, fits);
        QCOMPARE(after->feasible, before->feasible);
        // A PyTorchJob's master is a LeaderWorkerSet's leader: the same pods, parts named as the kind names them.
        auto pods = [](const PlacementResult& result) {
            std::vector<std::pair<std::string, std::int32_t>> out;
            for (const NodePods& placed : result.nodes) out.emplace_back(placed.node, placed.pods);
            return out;
        };
        QCOMPARE(pods(*after), pods(*before));
        QCOMPARE(after->chosen, before->chosen);
        if (!fits) QCOMPARE(after->message, before->message);
    }

    // sbatch's own options come back as sbatch reads them.
    void batchScriptsKeepTheSlurmRequest_data() {
        QTest::addColumn<QString>("line");
        QTest::newRow("nodes and gres") << QStringLiteral("-N 4 --gres=gpu:4");
        QTest::newRow("range, switches with a wait") << QStringLiteral("-N 4-8 --gpus-per-node=4 --switches=1@1:30:00 --exclusive");
        QTest::newRow("tasks spread freely") << QStringLiteral("-n 64 -c 4 --mem=200G");
        QTest::newRow("segments") << QStringLiteral("-N 16 --gres=gpu:4 --segment=4 --spread-segments");
        QTest::newRow("consolidated, contiguous") << QStringLiteral("-N 8 --segment=2 --consolidate-segments --contiguous");
        QTest::newRow("per-node tasks and cpus") << QStringLiteral("-N 2 --ntasks-per-node=4 -c 8 -p gpu");
        QTest::newRow("node lists") << QStringLiteral("-N 3 -w gb-[001-002] -x gb-[010-012],gb-020 -J my-job");
    }
    void batchScriptsKeepTheSlurmRequest() {
        QFETCH(QString, line);
        auto gang = parseSbatchLine(line.toStdString());
        QVERIFY2(gang.ok(), gang ? "" : gang.error().message.c_str());
        auto script = gangBatchScript(*gang, gb200().spec, {}, false);
        QVERIFY2(script.ok(), script ? "" : script.error().message.c_str());
        QVERIFY(looksLikeSbatchText(*script));
        auto again = parseSbatchScript(*script, "exported.sbatch");
        QVERIFY2(again.ok(), (again ? std::string() : again.error().message + "\n" + *script).c_str());
        SlurmRequest expected = *gang->slurm, got = *again->slurm;
        // -c without tasks is only a per-node count once written as --cpus-per-task per node.
        if (expected.ntasks == 0) expected.cpusPerTask = got.cpusPerTask = 1;
        expected.nodeCountGiven = got.nodeCountGiven = true;
        QCOMPARE(got, expected);
        QCOMPARE(again->perPod, gang->perPod);
        QCOMPARE(again->name, gang->name);
    }

    // A gang from flags in Slurm's terms: what it can say, it says; the rest is in comments.
    void flagsBecomeSlurmOptions() {
        auto tree = gangBatchScript(*planGang(queryFor(QStringLiteral(
                                        "--pods 8 --request nvidia.com/gpu=4,cpu=31500m,memory=100Gi --required rack"))),
                                    gb200().spec, {}, false);
        QVERIFY(tree.ok());
        for (const char* option : {"#SBATCH --nodes=8\n", "#SBATCH --gpus-per-node=4\n", "#SBATCH --cpus-per-task=32\n",
                                   "#SBATCH --mem=102400M\n", "#SBATCH --switches=1\n"})
            QVERIFY2(tree->find(option) != std::string::npos, option);
        auto block = gangBatchScript(*planGang(queryFor(QStringLiteral(
                                         "--pods 16 --request nvidia.com/gpu=4 --slice-level rack --slice-size 4"))),
                                     gb200().spec, {}, true);
        QVERIFY(block.ok());
        QVERIFY(block->find("#SBATCH --segment=4\n") != std::string::npos);
        auto higher = gangBatchScript(*planGang(queryFor(QStringLiteral("--pods 40 --request nvidia.com/gpu=4 --required su"))),
                                      gb200().spec, {}, false);
        QVERIFY(higher.ok());
        QVERIFY(higher->find("# required level su: sbatch has no option for it") != std::string::npos);
        QVERIFY(higher->find("--switches") == std::string::npos);
    }

    void whatASchedulerCannotBeAskedIsRefused_data() {
        QTest::addColumn<QString>("request");
        QTest::addColumn<GangScheduler>("scheduler");
        QTest::addColumn<GangWorkload>("workload");
        QTest::addColumn<QString>("message");
        const QString rack = QStringLiteral("--pods 4 --request nvidia.com/gpu=4 --required rack");
        QTest::newRow("two kinds in a Job") << QString::fromUtf8(kTwoKindJobSet) << GangScheduler::Kueue
                                            << GangWorkload::Job << "a Job has one kind of pod and this gang has 2";
        QTest::newRow("two kinds not master and workers")
            << QString::fromUtf8(kTwoKindJobSet) << GangScheduler::Kueue << GangWorkload::PyTorchJob << "use jobset";
        QTest::newRow("volcano as a batch Job") << rack << GangScheduler::Volcano << GangWorkload::Job
                                               << "use the volcanojob kind with Volcano";
        QTest::newRow("kueue in a Volcano Job") << rack << GangScheduler::Kueue << GangWorkload::VolcanoJob
                                                << "use the volcanojob kind with Volcano";
        QTest::newRow("KAI segments in a Job")
            << QStringLiteral("--pods 8 --request nvidia.com/gpu=4 --slice-level rack --slice-size 4") << GangScheduler::Kai
            << GangWorkload::Job << "only from a PyTorchJob's or LeaderWorkerSet's workers";
        QTest::newRow("a level the hierarchy lacks")
            << QStringLiteral("--pods 4 --request nvidia.com/gpu=4 --required zone") << GangScheduler::Kueue
            << GangWorkload::Job << "level \"zone\" is not in the hierarchy (su, rack)";
    }
    void whatASchedulerCannotBeAskedIsRefused() {
        QFETCH(QString, request);
        QFETCH(GangScheduler, scheduler);
        QFETCH(GangWorkload, workload);
        QFETCH(QString, message);
        auto gang = planGang(queryFor(request));
        QVERIFY2(gang.ok(), gang ? "" : gang.error().message.c_str());
        auto text = gangManifestYaml(*gang, gb200().spec, {scheduler, workload, "default", "image"});
        QVERIFY(!text.ok());
        QVERIFY2(QString::fromStdString(text.error().message).contains(message), text.error().message.c_str());
    }

    void namesBecomeObjectNames() {
        GangRequest gang;
        gang.name = "Team A/train #3";
        gang.pods = 2;
        gang.perPod.set("nvidia.com/gpu", Quantity::fromUnits(1));
        auto text = gangManifestYaml(gang, gb200().spec);
        QVERIFY(text.ok());
        QVERIFY2(text->find("name: \"team-a-train-3\"") != std::string::npos, text->c_str());
        auto read = planGang(queryFor(QString::fromStdString(*text)));
        QVERIFY2(read.ok(), read ? "" : read.error().message.c_str());
        QCOMPARE(read->name, std::string("team-a-train-3"));
    }

    // A Volcano Job's minAvailable, the job's and a task's own, survive export and read-back.
    void volcanoMinimumsComeBack() {
        const std::string job = "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: elastic}\n"
                                "spec:\n  minAvailable: 5\n  tasks:\n"
                                "  - {name: ps, replicas: 1, template: {spec: {containers: [{name: p, resources: "
                                "{requests: {cpu: \"4\"}}}]}}}\n"
                                "  - {name: worker, replicas: 6, minAvailable: 4, template: {spec: {containers: "
                                "[{name: w, resources: {limits: {nvidia.com/gpu: \"4\"}}}]}}}\n";
        auto gang = planGang(queryFor(QString::fromStdString(job)));
        QVERIFY2(gang.ok(), gang ? "" : gang.error().message.c_str());
        GangExportOptions options;
        options.scheduler = GangScheduler::Volcano;
        options.workload = GangWorkload::VolcanoJob;
        auto text = gangManifestYaml(*gang, gb200().spec, options);
        QVERIFY2(text.ok(), text ? "" : text.error().message.c_str());
        QVERIFY2(text->find("  minAvailable: 5\n") != std::string::npos, text->c_str());
        QVERIFY2(text->find("    minAvailable: 4\n") != std::string::npos, text->c_str());
        auto read = planGang(queryFor(QString::fromStdString(*text)));
        QVERIFY2(read.ok(), read ? "" : read.error().message.c_str());
        QCOMPARE(read->volcano.minAvailable, gang->volcano.minAvailable);
        QCOMPARE(read->parts.size(), std::size_t(2));
        QCOMPARE(read->parts[1].volcano.minAvailable.value_or(-1), 4);
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestGangExport)
#include "test_gang_export.moc"
