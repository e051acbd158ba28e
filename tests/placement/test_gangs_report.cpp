// buildGangsReport on hand-built clusters whose answers are known: how many domains each running
// gang spans per level, the fewest that could hold it, and how gangs are grouped and ordered.

#include "core/demo/demo_cluster.h"
#include "core/formats/snapshot_reader.h"
#include "core/placement/reports/gangs_report.h"
#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/hierarchy_sources.h"
#include "placement_support.h"
#include "support/demo_loader.h"
#include "support/test_program.h"

#include <QtTest>

#include <map>
#include <set>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "block 1/1, rack 2/1, nvlink 2/1": spans/least per level.
QString spreadText(const GangsReport& report, const Gang& gang) {
    QStringList parts;
    for (std::size_t level = 0; level < report.levels.size(); ++level)
        parts << QStringLiteral("%1 %2/%3")
                     .arg(qs(report.levels[level].name))
                     .arg(gang.levels[level].spans)
                     .arg(gang.levels[level].least);
    return parts.join(QStringLiteral(", "));
}

const Gang* findGang(const GangsReport& report, const std::string& name) {
    for (const Gang& gang : report.gangs)
        if (gang.name == name) return &gang;
    return nullptr;
}

Pod gangPod(const std::string& gang, int index, const std::string& node, int gpus,
            WorkloadKind kind = WorkloadKind::Job) {
    Pod pod;
    pod.nameSpace = "team";
    pod.name = gang + "-" + std::to_string(index);
    pod.nodeName = node;
    pod.phase = PodPhase::Running;
    pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    pod.workload = gang;
    pod.workloadKind = kind;
    return pod;
}

// Two blocks of two racks of four 8-GPU nodes (b1: r1 r2, b2: r3 r4), each rack an NVLink domain.
std::unique_ptr<TestCluster> twoBlocks() {
    std::vector<TestNode> nodes;
    for (int rack = 1; rack <= 4; ++rack)
        for (int n = 1; n <= 4; ++n) {
            TestNode node = testNode("r" + std::to_string(rack) + "n" + std::to_string(n),
                                     {rack <= 2 ? "b1" : "b2", "r" + std::to_string(rack)});
            node.extraLabels = {{"nvidia.com/gpu.clique", "clique-" + std::to_string(rack)}};
            nodes.push_back(node);
        }
    auto cluster = makeTestCluster({"example.com/block", "example.com/rack"}, nodes);
    TopologySpec spec = cluster->index->spec();
    spec.levels[0].name = "block";
    spec.levels[1].name = "rack";
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    *cluster->index = TopologyIndex::build(cluster->state, std::move(spec));
    return cluster;
}

// The ComputeDomain team/g-cd whose channel template g-channel the gang g's pods use, with
// status.nodes (node, cliqueID) all Ready.
ComputeDomain gangDomain(const std::vector<std::pair<std::string, std::string>>& nodes) {
    ComputeDomain domain;
    domain.nameSpace = "team";
    domain.name = "g-cd";
    domain.uid = "83479f70-e292-43d6-aa67-dd4ba8adab8f";
    domain.channelTemplate = "g-channel";
    domain.status = ComputeDomainReadiness::Ready;
    std::int32_t index = 0;
    for (const auto& [node, clique] : nodes)
        domain.nodes.push_back(
            {node, "10.0.0." + std::to_string(++index), clique, index - 1, ComputeDomainReadiness::Ready});
    return domain;
}

// A pod of gang g with 8 GPUs on `node`; `channel`: it names the ComputeDomain's channel template.
Pod channelPod(int index, const std::string& node, bool channel = true) {
    Pod pod = gangPod("g", index, node, 8);
    if (channel) pod.resourceClaims = {{"compute-domain-channel", "", "g-channel"}};
    return pod;
}

QString outsideText(const ClusterState& state, const Gang& gang) {
    QStringList parts;
    for (const GangNodeOutside& outside : gang.outsideComputeDomain)
        parts << QStringLiteral("%1:%2:%3")
                     .arg(qs(state.record(outside.node).node->name), qs(outside.clique))
                     .arg(outside.pods);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestGangsReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void spread_data();
    void spread();
    void levelsIncludeNvlinkLast();
    void gb200RackHoldsSixteenFourGpuPods();
    void gangBiggerThanAnyRack();
    void nodeMissingALevelLabel();
    void clusterWithoutLevels();
    void sortedByExcessFromTheTopLevel();
    void leavesOutWhatIsNotAGpuGang();
    void groupsByWorkloadKind();
    void slurmJobs();
    void hyperNodeHierarchy();
    void demoHasScatteredGangs();
    void scaleDemoHasSpreadGangs();
    void computeDomainInOneClique();
    void computeDomainSpanningTwoCliques();
    void computeDomainGrowingIntoAnotherClique();
    void gangPartlyOutsideItsComputeDomain();
    void nodesWithoutClique();
    void gangWithoutComputeDomain();
    void draDemoHasTheGangsOfItsTwin();
};

void TestGangsReport::spread_data() {
    QTest::addColumn<QString>("placements"); // node:gpus, one per pod, space-separated
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("compact");

    QTest::newRow("compact in one rack") << QStringLiteral("r1n1:8 r1n2:8 r1n3:8 r1n4:8")
                                         << QStringLiteral("block 1/1, rack 1/1, nvlink 1/1") << true;
    QTest::newRow("split over two racks, fits in one")
        << QStringLiteral("r1n1:8 r1n2:8 r2n1:8 r2n2:8") << QStringLiteral("block 1/1, rack 2/1, nvlink 2/1") << false;
    QTest::newRow("split over two blocks") << QStringLiteral("r1n1:8 r1n2:8 r3n1:8 r3n2:8")
                                           << QStringLiteral("block 2/1, rack 2/1, nvlink 2/1") << false;
    QTest::newRow("two 4-GPU pods per node, one rack")
        << QStringLiteral("r1n1:4 r1n1:4 r1n2:4 r1n2:4 r1n3:4 r1n3:4 r1n4:4 r1n4:4")
        << QStringLiteral("block 1/1, rack 1/1, nvlink 1/1") << true;
    // Eight 4-GPU pods fit on the four nodes of one rack, two to a node.
    QTest::newRow("4-GPU pods one per node over two racks")
        << QStringLiteral("r1n1:4 r1n2:4 r1n3:4 r1n4:4 r2n1:4 r2n2:4 r2n3:4 r2n4:4")
        << QStringLiteral("block 1/1, rack 2/1, nvlink 2/1") << false;
    // Pods of different sizes count in GPUs: 8 + 4 + 4 = 16 fit in one rack's 32.
    QTest::newRow("mixed pod sizes count GPUs") << QStringLiteral("r1n1:8 r2n1:4 r4n1:4")
                                                << QStringLiteral("block 2/1, rack 3/1, nvlink 3/1") << false;
    QTest::newRow("one pod") << QStringLiteral("r3n2:2") << QStringLiteral("block 1/1, rack 1/1, nvlink 1/1") << true;
}

void TestGangsReport::spread() {
    QFETCH(QString, placements);
    QFETCH(QString, expected);
    QFETCH(bool, compact);
    auto cluster = twoBlocks();
    int index = 0;
    const QStringList pods = placements.split(QLatin1Char(' '));
    for (const QString& placement : pods) {
        const QStringList parts = placement.split(QLatin1Char(':'));
        (void)cluster->state.apply(PodUpserted{gangPod("g", index++, parts[0].toStdString(), parts[1].toInt())});
    }
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    const Gang& gang = report.gangs.front();
    QCOMPARE(spreadText(report, gang), expected);
    QCOMPARE(gang.compact(), compact);
    QCOMPARE(gang.pods, static_cast<int>(pods.size()));
    QCOMPARE(qs(gang.qualifiedName()), QStringLiteral("team/g"));
    // Per node: its pods and their GPUs, adding up to the gang's.
    QCOMPARE(gang.nodePods.size(), gang.nodes.size());
    QCOMPARE(gang.nodeGpus.size(), gang.nodes.size());
    std::map<std::string, std::pair<int, std::int64_t>> perNode;
    for (const QString& placement : pods) {
        const QStringList parts = placement.split(QLatin1Char(':'));
        auto& [count, gpus] = perNode[parts[0].toStdString()];
        ++count;
        gpus += parts[1].toInt();
    }
    QCOMPARE(gang.nodes.size(), perNode.size());
    for (std::size_t i = 0; i < gang.nodes.size(); ++i) {
        const auto& [count, gpus] = perNode[cluster->state.record(gang.nodes[i]).node->name];
        QCOMPARE(gang.nodePods[i], count);
        QCOMPARE(gang.nodeGpus[i], gpus);
    }
}

void TestGangsReport::levelsIncludeNvlinkLast() {
    auto cluster = twoBlocks();
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.levels.size(), std::size_t{3});
    QCOMPARE(qs(report.levels[0].name), QStringLiteral("block"));
    QCOMPARE(qs(report.levels[1].key), QStringLiteral("example.com/rack"));
    QVERIFY(report.levels[2].nvlink);
    QCOMPARE(qs(report.levels[2].key), QStringLiteral("nvidia.com/gpu.clique"));
    QVERIFY(report.gangs.empty()); // the clusters' own load pods name no gang
}

// NVL72: 18 trays of 4 GPUs per rack; a 16 x 4-GPU gang split 8/8 over two racks needs one.
void TestGangsReport::gb200RackHoldsSixteenFourGpuPods() {
    std::vector<TestNode> nodes;
    for (int rack = 1; rack <= 2; ++rack)
        for (int tray = 1; tray <= 18; ++tray) {
            TestNode node = testNode("r" + std::to_string(rack) + "t" + std::to_string(tray), {"r" + std::to_string(rack)}, 4);
            node.extraLabels = {{"nvidia.com/gpu.clique", "nvl72-" + std::to_string(rack)}};
            nodes.push_back(node);
        }
    auto cluster = makeTestCluster({"example.com/rack"}, nodes);
    TopologySpec spec = cluster->index->spec();
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    *cluster->index = TopologyIndex::build(cluster->state, std::move(spec));
    for (int p = 0; p < 16; ++p)
        (void)cluster->state.apply(
            PodUpserted{gangPod("train", p, "r" + std::to_string(1 + p / 8) + "t" + std::to_string(1 + p % 8), 4)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    QCOMPARE(spreadText(report, report.gangs[0]), QStringLiteral("rack 2/1, nvlink 2/1"));
    QCOMPARE(report.gangs[0].gpus, std::int64_t{64});
    QCOMPARE(report.gangs[0].gpusPerPod, std::int64_t{4});
    QCOMPARE(report.gangs[0].nodes.size(), std::size_t{16});
}

// Ten whole-node pods cannot fit in a rack of four: least is 3 racks, and 2 blocks.
void TestGangsReport::gangBiggerThanAnyRack() {
    auto cluster = twoBlocks();
    const char* nodes[] = {"r1n1", "r1n2", "r1n3", "r1n4", "r2n1", "r2n2", "r2n3", "r2n4", "r3n1", "r4n1"};
    int index = 0;
    for (const char* node : nodes) (void)cluster->state.apply(PodUpserted{gangPod("big", index++, node, 8)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(spreadText(report, report.gangs[0]), QStringLiteral("block 2/2, rack 4/3, nvlink 4/3"));
}

// A node without the rack label is outside that level: a domain of its own for spans and least.
void TestGangsReport::nodeMissingALevelLabel() {
    auto cluster = makeTestCluster({"example.com/block", "example.com/rack"},
                                   {testNode("a1", {"b1", "r1"}), testNode("a2", {"b1", "r1"}), testNode("x1", {"b1", ""}),
                                    testNode("x2", {"b1", ""})});
    (void)cluster->state.apply(PodUpserted{gangPod("g", 0, "a1", 8)});
    (void)cluster->state.apply(PodUpserted{gangPod("g", 1, "x1", 8)});
    (void)cluster->state.apply(PodUpserted{gangPod("h", 0, "x1", 0)}); // no GPUs: not a GPU pod
    (void)cluster->state.apply(PodUpserted{gangPod("k", 0, "x1", 0)});
    (void)cluster->state.apply(PodUpserted{gangPod("k", 1, "x2", 0)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    const Gang& gang = report.gangs[0];
    QCOMPARE(gang.levels[0].spans, 1);
    QCOMPARE(gang.levels[1].spans, 2);
    QCOMPARE(gang.levels[1].least, 1); // r1's two nodes hold it
    QCOMPARE(gang.levels[1].outside, 1);
    QCOMPARE(gang.levels[0].outside, 0);
}

// Nodes with none of the hierarchy's labels and no NVLink label: gangs are listed, with no
// levels to be spread over (this once read past an empty table).
void TestGangsReport::clusterWithoutLevels() {
    auto cluster = makeTestCluster({}, {testNode("n1"), testNode("n2"), testNode("n3")});
    for (int i = 0; i < 3; ++i) (void)cluster->state.apply(PodUpserted{gangPod("flat", i, i == 2 ? "n3" : "n1", 4)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QVERIFY(report.levels.empty());
    QCOMPARE(report.gangs.size(), std::size_t{1});
    QCOMPARE(report.gangs[0].pods, 3);
    QCOMPARE(report.gangs[0].gpus, 12);
    QVERIFY(report.gangs[0].levels.empty());
    QVERIFY(report.gangs[0].compact());
}

void TestGangsReport::sortedByExcessFromTheTopLevel() {
    auto cluster = twoBlocks();
    // "racks": two racks of one block (excess 0 at block, 1 at rack); "blocks": two blocks (excess 1
    // at block, 1 at rack); "tidy": compact but the most GPUs.
    for (int p = 0; p < 3; ++p)
        (void)cluster->state.apply(PodUpserted{gangPod("racks", p, p == 2 ? "r2n3" : "r" + std::to_string(1 + p) + "n1", 4)});
    (void)cluster->state.apply(PodUpserted{gangPod("blocks", 0, "r1n2", 8)});
    (void)cluster->state.apply(PodUpserted{gangPod("blocks", 1, "r3n2", 8)});
    for (int p = 0; p < 4; ++p)
        (void)cluster->state.apply(PodUpserted{gangPod("tidy", p, "r4n" + std::to_string(1 + p), 8)});
    (void)cluster->state.apply(PodUpserted{gangPod("small", 0, "r3n3", 1)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QStringList order;
    for (const Gang& gang : report.gangs) order << qs(gang.name);
    QCOMPARE(order, (QStringList{QStringLiteral("blocks"), QStringLiteral("racks"), QStringLiteral("tidy"),
                                 QStringLiteral("small")}));
    QCOMPARE(report.spreadCount(), std::size_t{2});
    QVERIFY(gangMoreSpread(report.gangs[0], report.gangs[1]));
    QVERIFY(!gangMoreSpread(report.gangs[1], report.gangs[0]));
}

void TestGangsReport::leavesOutWhatIsNotAGpuGang() {
    auto cluster = twoBlocks();
    Pod done = gangPod("done", 0, "r1n1", 8);
    done.phase = PodPhase::Succeeded;
    Pod pending = gangPod("waiting", 0, "", 8);
    pending.phase = PodPhase::Pending;
    Pod loose = gangPod("", 0, "r1n2", 8);
    loose.name = "loose";
    Pod other = gangPod("jobs not listed", 0, "r1n3", 8, WorkloadKind::Unlisted);
    Pod launcher = gangPod("mpi", 0, "r2n1", 0); // the launcher of an MPI job, no GPUs
    Pod worker = gangPod("mpi", 1, "r2n2", 8);
    for (Pod* pod : {&done, &pending, &loose, &other, &launcher, &worker}) (void)cluster->state.apply(PodUpserted{*pod});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    QCOMPARE(qs(report.gangs[0].name), QStringLiteral("mpi"));
    QCOMPARE(report.gangs[0].pods, 1); // only its GPU pods
    QCOMPARE(report.gangs[0].nodes.size(), std::size_t{1});
}

// Pods as the API server lists them: each gang named by what its controller stamps on its pods.
void TestGangsReport::groupsByWorkloadKind() {
    std::string yaml = "apiVersion: v1\nkind: List\nitems:\n";
    for (int n = 1; n <= 8; ++n)
        yaml += "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n" + std::to_string(n) +
                "\n    labels: {example.com/rack: r" + std::to_string((n + 3) / 4) +
                "}\n  status:\n    allocatable: {nvidia.com/gpu: \"8\"}\n    conditions: [{type: Ready, status: \"True\"}]\n";
    const auto pod = [&](const std::string& name, int node, const std::string& metadata) {
        yaml += "- apiVersion: v1\n  kind: Pod\n  metadata:\n    namespace: ml\n    name: " + name + "\n" + metadata +
                "  spec:\n    nodeName: n" + std::to_string(node) +
                "\n    containers: [{name: c, resources: {requests: {nvidia.com/gpu: \"8\"}}}]\n  status: {phase: Running}\n";
    };
    // A JobSet admitted by Kueue: the Workload names the gang, across both replicated jobs.
    const std::string jobset = "    labels: {jobset.sigs.k8s.io/jobset-name: trainer, batch.kubernetes.io/job-name: trainer-%}\n"
                               "    annotations: {kueue.x-k8s.io/workload: jobset-trainer-5c2d1}\n";
    for (int i = 0; i < 2; ++i) {
        std::string metadata = jobset;
        metadata.replace(metadata.find('%'), 1, i == 0 ? "workers-0" : "launcher-0");
        pod("trainer-" + std::to_string(i), 1 + i, metadata);
    }
    // A JobSet without Kueue.
    for (int i = 0; i < 2; ++i)
        pod("sweep-" + std::to_string(i), 3 + i * 2,
            "    labels: {jobset.sigs.k8s.io/jobset-name: sweep, batch.kubernetes.io/job-name: sweep-w-0}\n");
    // Two groups of one LeaderWorkerSet: a gang each.
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < 2; ++i)
            pod("serve-" + std::to_string(g) + "-" + std::to_string(i), 5 + g * 2 + i,
                "    labels: {leaderworkerset.sigs.k8s.io/name: serve, leaderworkerset.sigs.k8s.io/group-index: \"" +
                    std::to_string(g) + "\"}\n");
    // A Job known only by its controlling owner; a Volcano PodGroup; a ReplicaSet's pod.
    pod("old-job-x1", 1, "    ownerReferences: [{apiVersion: batch/v1, kind: Job, name: old-job, controller: true}]\n");
    pod("vc-0", 2, "    annotations: {scheduling.k8s.io/group-name: vc-pg}\n");
    pod("vc-1", 6, "    annotations: {scheduling.k8s.io/group-name: vc-pg}\n");
    pod("web-7f9c-abcde", 3, "    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7f9c, controller: true}]\n");

    Result<Snapshot> snapshot = readSnapshotText(yaml, "kinds.yaml");
    QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
    ClusterState state;
    std::move(*snapshot).applyTo(state);
    const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys({"example.com/rack"}));
    const GangsReport report = buildGangsReport(state, index);

    QStringList got;
    for (const Gang& gang : report.gangs)
        got << QStringLiteral("%1 %2: %3 pods, %4").arg(qs(std::string(workloadKindName(gang.kind))), qs(gang.qualifiedName()))
                   .arg(gang.pods)
                   .arg(spreadText(report, gang));
    got.sort();
    const QStringList expected = {
        QStringLiteral("Job ml/old-job: 1 pods, rack 1/1"),
        QStringLiteral("JobSet ml/sweep: 2 pods, rack 2/1"),
        QStringLiteral("Kueue Workload ml/jobset-trainer-5c2d1: 2 pods, rack 1/1"),
        QStringLiteral("LeaderWorkerSet group ml/serve-0: 2 pods, rack 1/1"),
        QStringLiteral("LeaderWorkerSet group ml/serve-1: 2 pods, rack 1/1"),
        QStringLiteral("Volcano PodGroup ml/vc-pg: 2 pods, rack 2/1"),
        QStringLiteral("owner ml/web-7f9c: 1 pods, rack 1/1"),
    };
    QCOMPARE(got, expected);
}

void TestGangsReport::slurmJobs() {
    Result<SlurmTopology> topology = parseTopologyConf("SwitchName=leaf1 Nodes=gpu-00[1-2]\n"
                                                       "SwitchName=leaf2 Nodes=gpu-00[3-4]\n"
                                                       "SwitchName=spine Switches=leaf[1-2]\n");
    QVERIFY2(topology.ok(), topology.ok() ? "" : topology.error().message.c_str());
    SlurmClusterMapper mapper;
    mapper.setTopology(std::make_shared<const SlurmTopology>(*topology));
    std::vector<SlurmNode> nodes;
    for (int n = 1; n <= 4; ++n) {
        SlurmNode node;
        node.name = "gpu-00" + std::to_string(n);
        node.base = SlurmNode::Base::Allocated;
        node.cpus = 64;
        node.memoryMiB = 512000;
        node.gpus = 8;
        node.gpusUsed = 8;
        node.partitions = {"gpu"};
        nodes.push_back(node);
    }
    mapper.setNodes(nodes);
    SlurmJob spread;
    spread.id = 7;
    spread.name = "train";
    spread.state = "RUNNING";
    spread.allocations = {{"gpu-001", 1, 1000, 8}, {"gpu-003", 1, 1000, 8}};
    spread.nodes = "gpu-[001,003]";
    SlurmJob tidy = spread;
    tidy.id = 8;
    tidy.name = "eval";
    tidy.allocations = {{"gpu-002", 1, 1000, 8}};
    tidy.nodes = "gpu-002";
    mapper.setJobs({spread, tidy});
    ClusterState state;
    for (ClusterEvent& event : mapper.takeEvents()) (void)state.apply(std::move(event));
    const std::optional<TopologySpec> spec = slurmTopologyHierarchy(state);
    QVERIFY(spec);
    const TopologyIndex index = TopologyIndex::build(state, *spec);
    const GangsReport report = buildGangsReport(state, index);
    QCOMPARE(report.gangs.size(), std::size_t{2}); // gpu-004's unlisted allocation is no gang
    QCOMPARE(qs(report.gangs[0].name), QStringLiteral("train (job 7)"));
    QCOMPARE(report.gangs[0].kind, WorkloadKind::SlurmJob);
    QCOMPARE(qs(report.gangs[0].nameSpace), QString::fromLatin1(kSlurmJobNamespace.data(), kSlurmJobNamespace.size()));
    QCOMPARE(spreadText(report, report.gangs[0]), QStringLiteral("%1 1/1, %2 2/1").arg(qs(report.levels[0].name), qs(report.levels[1].name)));
    QVERIFY(report.gangs[1].compact());
}

void TestGangsReport::hyperNodeHierarchy() {
    Result<Snapshot> snapshot = readSnapshotFile(TOPODECK_TEST_DATA_DIR "/volcano/hypernodes.yaml");
    QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
    ClusterState state;
    std::move(*snapshot).applyTo(state);
    (void)state.apply(PodUpserted{gangPod("near", 0, "gpu-a1", 8)});
    (void)state.apply(PodUpserted{gangPod("near", 1, "gpu-a2", 8)});
    (void)state.apply(PodUpserted{gangPod("far", 0, "gpu-a1", 0)}); // no GPUs: left out
    (void)state.apply(PodUpserted{gangPod("far", 1, "gpu-a2", 8)});
    (void)state.apply(PodUpserted{gangPod("far", 2, "gpu-b2", 8)});
    Result<std::optional<TopologySpec>> spec = topodeck::hyperNodeHierarchy(state);
    QVERIFY(spec.ok() && spec->has_value());
    const TopologyIndex index = TopologyIndex::build(state, **spec);
    const GangsReport report = buildGangsReport(state, index);
    const int leaf = static_cast<int>(report.levels.size()) - 1;
    QCOMPARE(qs(report.levels[static_cast<std::size_t>(leaf)].name), QStringLiteral("leaf"));
    const Gang* near = findGang(report, "near");
    const Gang* far = findGang(report, "far");
    QVERIFY(near && far);
    QCOMPARE(near->levels[static_cast<std::size_t>(leaf)].spans, 1);
    QCOMPARE(far->levels[static_cast<std::size_t>(leaf)].spans, 2);
    QCOMPARE(far->levels[static_cast<std::size_t>(leaf)].least, 1);
    QCOMPARE(report.gangs.front().name, std::string("far"));
}

// The demo is spread as a real cluster is: a few gangs cross more racks than they need.
void TestGangsReport::demoHasScatteredGangs() {
    const testing::LoadedDemo demo = testing::loadDemo("gb200");
    const ClusterState& state = demo.state;
    const TopologyIndex& index = demo.index;
    const GangsReport report = buildGangsReport(state, index);
    QVERIFY(report.gangs.size() > 20);
    QCOMPARE(report.levels.back().nvlink, true);
    const std::size_t spread = report.spreadCount();
    QVERIFY2(spread >= 2 && spread * 5 < report.gangs.size(), qPrintable(QString::number(spread)));
    QVERIFY(!report.gangs.front().compact());
    QVERIFY(report.gangs.back().compact());
    std::set<WorkloadKind> kinds;
    for (const Gang& gang : report.gangs) kinds.insert(gang.kind);
    QVERIFY(kinds.count(WorkloadKind::KueueWorkload) && kinds.count(WorkloadKind::JobSet) && kinds.count(WorkloadKind::Job));
}

void TestGangsReport::scaleDemoHasSpreadGangs() {
    const testing::LoadedDemo demo = testing::loadDemo("scale:65536");
    const ClusterState& state = demo.state;
    const TopologyIndex& index = demo.index;
    const GangsReport report = buildGangsReport(state, index);
    QVERIFY(report.gangs.size() > 1000);
    QVERIFY(report.spreadCount() > 0);
    // How fast: bench_gangs measures it (a timed test on a shared machine only measures the load).
}

// Every node of the ComputeDomain in one NVLink clique, every pod of the gang there: nothing flagged.
void TestGangsReport::computeDomainInOneClique() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(ComputeDomainUpserted{gangDomain({{"r1n1", "clique-1"}, {"r1n2", "clique-1"}})});
    (void)cluster->state.apply(PodUpserted{channelPod(0, "r1n1")});
    (void)cluster->state.apply(PodUpserted{channelPod(1, "r1n2")});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    const Gang& gang = report.gangs[0];
    QCOMPARE(qs(gang.computeDomain), QStringLiteral("team/g-cd"));
    QCOMPARE(gang.computeDomainCliques, std::vector<std::string>{"clique-1"});
    QVERIFY(!gang.computeDomainSpansCliques());
    QVERIFY(gang.outsideComputeDomain.empty());
    QVERIFY(!gang.computeDomainFlagged());
    QCOMPARE(report.computeDomainFlagCount(), std::size_t{0});
    QCOMPARE(report.computeDomains.size(), std::size_t{1});
    QVERIFY(report.computeDomain("team/g-cd") == &report.computeDomains[0]);
    QVERIFY(report.computeDomain("team/g-c") == nullptr);
}

// Its nodes in two cliques: two IMEX domains, flagged; its pods are all inside them.
void TestGangsReport::computeDomainSpanningTwoCliques() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(
        ComputeDomainUpserted{gangDomain({{"r1n1", "clique-1"}, {"r1n2", "clique-1"}, {"r2n1", "clique-2"}})});
    for (int i = 0; i < 3; ++i)
        (void)cluster->state.apply(PodUpserted{channelPod(i, i < 2 ? "r1n" + std::to_string(i + 1) : "r2n1")});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    const Gang& gang = report.gangs.at(0);
    QCOMPARE(gang.computeDomainCliques, (std::vector<std::string>{"clique-1", "clique-2"}));
    QVERIFY(gang.computeDomainSpansCliques());
    QVERIFY(gang.outsideComputeDomain.empty());
    QVERIFY(gang.computeDomainFlagged());
    QCOMPARE(report.computeDomainFlagCount(), std::size_t{1});
}

// A pod on a node its status does not list yet (the daemon is starting): the node's clique label
// counts, so a domain growing into a second clique is flagged before its status says so.
void TestGangsReport::computeDomainGrowingIntoAnotherClique() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(ComputeDomainUpserted{gangDomain({{"r1n1", "clique-1"}})});
    (void)cluster->state.apply(PodUpserted{channelPod(0, "r1n1")});
    (void)cluster->state.apply(PodUpserted{channelPod(1, "r3n1")});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    const Gang& gang = report.gangs.at(0);
    QCOMPARE(gang.computeDomainCliques, (std::vector<std::string>{"clique-1", "clique-3"}));
    QVERIFY(gang.computeDomainSpansCliques());
    QVERIFY(gang.outsideComputeDomain.empty());
    QCOMPARE(report.computeDomains[0].nvlinkDomains.size(), std::size_t{2});
}

// A pod of the gang that does not use the channel, in a clique the domain has no node in: outside.
void TestGangsReport::gangPartlyOutsideItsComputeDomain() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(ComputeDomainUpserted{gangDomain({{"r1n1", "clique-1"}, {"r1n2", "clique-1"}})});
    (void)cluster->state.apply(PodUpserted{channelPod(0, "r1n1")});
    (void)cluster->state.apply(PodUpserted{channelPod(1, "r1n2")});
    (void)cluster->state.apply(PodUpserted{channelPod(2, "r3n1", false)});
    (void)cluster->state.apply(PodUpserted{channelPod(3, "r3n1", false)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    const Gang& gang = report.gangs.at(0);
    QCOMPARE(qs(gang.computeDomain), QStringLiteral("team/g-cd"));
    QVERIFY(!gang.computeDomainSpansCliques());
    QCOMPARE(outsideText(cluster->state, gang), QStringLiteral("r3n1:clique-3:2"));
    QCOMPARE(gang.podsOutsideComputeDomain(), 2);
    QVERIFY(gang.computeDomainFlagged());
    QCOMPARE(report.computeDomainFlagCount(), std::size_t{1});
}

// cliqueID "": a node without NVLink fabric (its daemon says so, whatever its label) is in no
// clique: not a second clique, but the gang's pods there are outside. A domain whose nodes are all
// such has no clique at all, and every pod is outside.
void TestGangsReport::nodesWithoutClique() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(
        ComputeDomainUpserted{gangDomain({{"r1n1", "clique-1"}, {"r1n2", ""}, {"r1n3", "clique-1"}})});
    for (int i = 0; i < 3; ++i) (void)cluster->state.apply(PodUpserted{channelPod(i, "r1n" + std::to_string(i + 1))});
    GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.at(0).computeDomainCliques, std::vector<std::string>{"clique-1"});
    QVERIFY(!report.gangs[0].computeDomainSpansCliques());
    QCOMPARE(outsideText(cluster->state, report.gangs[0]), QStringLiteral("r1n2::1"));
    QCOMPARE(report.computeDomains[0].membersWithoutClique(), 1);

    (void)cluster->state.apply(ComputeDomainUpserted{gangDomain({{"r1n1", ""}, {"r1n2", ""}, {"r1n3", ""}})});
    report = buildGangsReport(cluster->state, *cluster->index);
    QVERIFY(report.gangs[0].computeDomainCliques.empty());
    QVERIFY(!report.gangs[0].computeDomainSpansCliques());
    QCOMPARE(report.gangs[0].podsOutsideComputeDomain(), 3);
}

// A gang whose pods use no ComputeDomain's channel says none, on a cluster with one.
void TestGangsReport::gangWithoutComputeDomain() {
    auto cluster = twoBlocks();
    (void)cluster->state.apply(ComputeDomainUpserted{gangDomain({})});
    (void)cluster->state.apply(PodUpserted{gangPod("other", 0, "r2n1", 8)});
    (void)cluster->state.apply(PodUpserted{gangPod("other", 1, "r4n1", 8)});
    const GangsReport report = buildGangsReport(cluster->state, *cluster->index);
    QCOMPARE(report.gangs.size(), std::size_t{1});
    QVERIFY(report.gangs[0].computeDomain.empty());
    QVERIFY(!report.gangs[0].computeDomainFlagged());
    QCOMPARE(report.computeDomains.size(), std::size_t{1});
    QVERIFY(report.computeDomains[0].workloads.empty());
}

// The gb200-dra demo: its pods hold their GPUs through DRA claims, and the report finds the same
// gangs as in its device-plugin twin; each running multi-node gang has its ComputeDomain, some of
// them across two NVLink cliques.
void TestGangsReport::draDemoHasTheGangsOfItsTwin() {
    const testing::LoadedDemo plugin = testing::loadDemo("gb200");
    const testing::LoadedDemo dra = testing::loadDemo("gb200-dra");
    const GangsReport expected = buildGangsReport(plugin.state, plugin.index);
    const GangsReport report = buildGangsReport(dra.state, dra.index);
    QCOMPARE(report.gangs.size(), expected.gangs.size());
    for (std::size_t i = 0; i < report.gangs.size(); ++i) {
        const Gang& gang = report.gangs[i];
        QCOMPARE(qs(gang.qualifiedName()), qs(expected.gangs[i].qualifiedName()));
        QCOMPARE(gang.gpus, expected.gangs[i].gpus);
        QCOMPARE(spreadText(report, gang), spreadText(expected, expected.gangs[i]));
        QVERIFY(expected.gangs[i].computeDomain.empty());
        QCOMPARE(gang.computeDomain.empty(), gang.nodes.size() < 2);
        // The demo's domains follow their gangs: every pod inside, spanning where the gang does.
        QVERIFY(gang.outsideComputeDomain.empty());
        if (!gang.computeDomain.empty())
            QCOMPARE(gang.computeDomainSpansCliques(), gang.levels.back().spans > 1);
    }
    QVERIFY(report.computeDomainFlagCount() >= 1);
    QVERIFY(expected.computeDomains.empty());
}

TOPODECK_TEST_GUILESS_MAIN(TestGangsReport)
#include "test_gangs_report.moc"
