// Kueue TAS on a Workload of several PodSets (a PyTorchJob's master and workers, a JobSet's
// replicatedJobs): each PodSet gets its own topology assignment, in order, with the ones before
// it assumed, and the Workload fits only when every PodSet does. Expected placements are worked
// by hand from Kueue's rules (BestFit for required levels: the tightest domain that fits, the
// first by name among equals). PodSet groups (kueue.x-k8s.io/podset-group-name: a leader and its
// workers in one pass) are checked against the grouped rows of Kueue's own
// TestFindTopologyAssignments (pkg/cache/scheduler/tas_cache_test.go at ff69552e79ad), nodes and
// requests as they are there.
#include "core/placement/engines/placement_engine.h"
#include "core/placement/requests/gang_manifest.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

#include <tuple>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const std::vector<std::string> kLevels = {"example.com/block", "example.com/rack", "kubernetes.io/hostname"};

// r1 and r3 have 4 free nodes; r2 has 3 (n5 is full).
std::unique_ptr<TestCluster> threeRacks() {
    std::vector<TestNode> nodes;
    for (int i = 1; i <= 12; ++i) {
        const std::string rack = "r" + std::to_string((i - 1) / 4 + 1);
        const std::string name = "n" + std::to_string(i);
        nodes.push_back(testNode(name, {i <= 8 ? "b1" : "b2", rack, name}, 8, i == 5 ? 8 : 0));
    }
    return makeTestCluster(kLevels, nodes);
}

GangPart part(std::string name, int pods, ResourceList perPod, std::string requiredRack = "example.com/rack") {
    GangPart p;
    p.name = std::move(name);
    p.pods = pods;
    p.perPod = std::move(perPod);
    if (!requiredRack.empty()) {
        p.kueue.mode = KueueConstraint::Mode::Required;
        p.kueue.level = std::move(requiredRack);
    }
    return p;
}

GangRequest workload(std::vector<GangPart> parts) {
    GangRequest gang;
    gang.name = "pt";
    gang.source = "test";
    for (const GangPart& p : parts) gang.pods += p.pods;
    gang.perPod = parts.front().perPod;
    gang.kueue = parts.front().kueue;
    gang.parts = std::move(parts);
    return gang;
}

// "part:node" per pod group, in the result's order.
QStringList placed(const PlacementResult& result) {
    QStringList out;
    for (const NodePods& n : result.nodes)
        out << QString::fromStdString(n.part + ':' + n.node + 'x' + std::to_string(n.pods));
    return out;
}


// A node of Kueue's test tables: its level labels, allocatable (quantities as written there, pods
// 10 as every grouped row has) and, when set, a filler pod's CPU request.
struct KueueNode {
    std::string name;
    std::vector<std::string> levelValues; // one per level key; a hostname level takes the name
    std::vector<std::pair<std::string, std::string>> allocatable;
    std::string fillerCpu = {};
};

std::unique_ptr<TestCluster> kueueCluster(const std::vector<std::string>& levelKeys,
                                          const std::vector<KueueNode>& nodes) {
    auto result = std::make_unique<TestCluster>();
    for (const KueueNode& spec : nodes) {
        Node node;
        node.name = spec.name;
        for (std::size_t i = 0; i < levelKeys.size() && i < spec.levelValues.size(); ++i)
            node.setLabel(levelKeys[i], spec.levelValues[i]);
        node.setLabel("kubernetes.io/hostname", spec.name);
        node.allocatable.set("pods", Quantity::fromUnits(10));
        for (const auto& [resource, quantity] : spec.allocatable) node.allocatable.set(resource, *Quantity::parse(quantity));
        (void)result->state.apply(NodeUpserted{std::move(node)});
        if (spec.fillerCpu.empty()) continue;
        Pod filler;
        filler.nameSpace = "test-ns";
        filler.name = "filler";
        filler.nodeName = spec.name;
        filler.phase = PodPhase::Running;
        filler.requests.set("cpu", *Quantity::parse(spec.fillerCpu));
        (void)result->state.apply(PodUpserted{std::move(filler)});
    }
    result->index =
        std::make_unique<TopologyIndex>(TopologyIndex::build(result->state, TopologySpec::fromLabelKeys(levelKeys)));
    result->cluster = std::make_unique<PlacementCluster>(result->state, *result->index);
    return result;
}

GangPart groupPart(std::string name, int pods, std::vector<std::pair<std::string, std::string>> requests,
                   KueueConstraint::Mode mode, std::string level, std::vector<SliceLayer> slices = {}) {
    GangPart p;
    p.name = std::move(name);
    p.pods = pods;
    for (const auto& [resource, quantity] : requests) p.perPod.set(resource, *Quantity::parse(quantity));
    p.kueue.mode = mode;
    p.kueue.level = std::move(level);
    p.kueue.slices = std::move(slices);
    p.kueue.group = "sameGroup";
    return p;
}

// "h3=1 | h1=1 h2=2 h3=1": the first PodSet's domains (the leader's, one pod), then the
// second's; values joined by ",".
QString groupAssignment(const PlacementResult& result) {
    QStringList leader;
    QStringList workers;
    std::size_t taken = 0; // the first PodSet's single pod comes first
    for (const TopologyAssignment::Domain& d : result.assignment.domains) {
        QStringList values;
        for (const std::string& v : d.values) values << QString::fromStdString(v);
        const QString text = values.join(QLatin1Char(',')) + QLatin1Char('=') + QString::number(d.count);
        (taken++ == 0 ? leader : workers) << text;
    }
    return leader.join(QLatin1Char(' ')) + QStringLiteral(" | ") + workers.join(QLatin1Char(' '));
}

const std::string kBlockLabel = "cloud.com/topology-block";
const std::string kRackLabel = "cloud.com/topology-rack";
const std::string kHostLabel = "kubernetes.io/hostname";

struct GroupCase {
    std::vector<std::string> levels;
    std::vector<KueueNode> nodes;
    GangPart leader;
    GangPart workers;
    QString assignment; // empty: fails with `reason`
    std::string reason;
};

} // namespace

Q_DECLARE_METATYPE(GroupCase)

namespace {
} // namespace

class TestKueuePodSets : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The master (first) takes the tightest rack that holds one pod, r2; the workers then need a
    // whole rack of four and take r1: two PodSets, two domains, as Kueue assigns them.
    void eachPodSetHasItsOwnDomain() {
        auto cluster = threeRacks();
        const PlacementResult result = kueueTasEngine().place(
            *cluster->cluster, workload({part("master", 1, gpus(8)), part("worker", 4, gpus(8))}), {});
        QVERIFY2(result.feasible, result.message.c_str());
        QCOMPARE(placed(result), (QStringList{QStringLiteral("worker:n1x1"), QStringLiteral("worker:n2x1"),
                                              QStringLiteral("worker:n3x1"), QStringLiteral("worker:n4x1"),
                                              QStringLiteral("master:n6x1")}));
        QStringList chosen;
        for (const ChosenDomain& c : result.chosen) chosen << QString::fromStdString(c.level + '=' + c.domain);
        QVERIFY2(chosen.contains(QStringLiteral("master: rack=b1/r2")), qPrintable(chosen.join(QLatin1Char(','))));
        QVERIFY2(chosen.contains(QStringLiteral("worker: rack=b1/r1")), qPrintable(chosen.join(QLatin1Char(','))));
    }

    // What the first PodSet took is gone for the next: two PodSets of four whole nodes take r1
    // and r3; a third finds no rack with four free nodes, and the Workload does not fit, in the
    // words Kueue uses for that PodSet.
    void earlierPodSetsAreAssumed() {
        auto cluster = threeRacks();
        const PlacementResult two =
            kueueTasEngine().place(*cluster->cluster, workload({part("a", 4, gpus(8)), part("b", 4, gpus(8))}), {});
        QVERIFY2(two.feasible, two.message.c_str());
        QCOMPARE(placed(two).filter(QStringLiteral("b:")).size(), 4);
        QVERIFY(placed(two).contains(QStringLiteral("b:n9x1")));

        const PlacementResult three = kueueTasEngine().place(
            *cluster->cluster, workload({part("a", 4, gpus(8)), part("b", 4, gpus(8)), part("c", 4, gpus(8))}), {});
        QVERIFY(!three.feasible);
        QVERIFY2(three.message.find("allows to fit only") != std::string::npos, three.message.c_str());
        const bool named = std::any_of(three.notes.begin(), three.notes.end(), [](const std::string& note) {
            return note.find("couldn't assign flavors to pod set c:") != std::string::npos;
        });
        QVERIFY2(named, three.message.c_str());
        // Each part alone would fit: the same request as one PodSet at a time.
        const GangRequest alone =
            workload({part("a", 4, gpus(8)), part("b", 4, gpus(8)), part("c", 4, gpus(8))}).onlyPart(2);
        QVERIFY(kueueTasEngine().place(*cluster->cluster, alone, {}).feasible);
    }

    // The grouped rows of Kueue's TestFindTopologyAssignments, each named as there. The
    // unconstrained group row is left out: the webhooks refuse a group without a required or
    // preferred level, and so does the manifest reader. The sliced rows are kept: the webhooks
    // refuse slices beside a group too, but they test the placement itself.
    void groupsPlaceAsKueue_data() {
        using Mode = KueueConstraint::Mode;
        QTest::addColumn<GroupCase>("c");
        const auto cpuGpu = [](const char* cpu, const char* gpu) {
            return std::vector<std::pair<std::string, std::string>>{{"cpu", cpu}, {"example.com/gpu", gpu}};
        };
        const auto cpu = [](const char* amount) { return std::vector<std::pair<std::string, std::string>>{{"cpu", amount}}; };
        const std::vector<std::string> block = {kBlockLabel};
        const std::vector<std::string> rackHost = {kRackLabel, kHostLabel};
        const std::vector<std::string> three = {kBlockLabel, kRackLabel, kHostLabel};
        const GangPart blockLeader = groupPart("leader", 1, cpu("1"), Mode::Required, kBlockLabel);

        QTest::newRow("find topology assignment for two podsets with the same group") << GroupCase{
            block,
            {{"b1", {"b1"}, {{"cpu", "2"}, {"example.com/gpu", "2"}, {"memory", "2Gi"}}},
             {"b2", {"b2"}, cpuGpu("5", "4")},
             {"b3", {"b3"}, cpuGpu("2", "2")}},
            blockLeader, groupPart("workers", 4, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
            QStringLiteral("b2=1 | b2=4"), {}};
        const std::vector<KueueNode> h123 = {
            {"h1", {"r1"}, cpu("2")}, {"h2", {"r1"}, cpu("4")}, {"h3", {"r1"}, cpu("3")}};
        QTest::newRow("find topology assignment for grouped podsets preserves worker capacity when placing leader")
            << GroupCase{rackHost, h123, groupPart("leader", 1, cpu("1"), Mode::Required, kRackLabel),
                         groupPart("workers", 4, cpu("2"), Mode::Required, kRackLabel),
                         QStringLiteral("h3=1 | h1=1 h2=2 h3=1"), {}};
        QTest::newRow(
            "find topology assignment for sliced grouped podsets preserves worker capacity when placing leader")
            << GroupCase{rackHost, h123, groupPart("leader", 1, cpu("1"), Mode::Required, kRackLabel),
                         groupPart("workers", 8, cpu("1"), Mode::Required, kRackLabel, {{kHostLabel, 2}}),
                         QStringLiteral("h3=1 | h1=2 h2=4 h3=2"), {}};
        QTest::newRow("find topology assignment for preferred grouped podsets preserves capacity across domains")
            << GroupCase{{kHostLabel},
                         {{"h1", {}, cpu("8")}, {"h2", {}, cpu("3")}},
                         groupPart("leader", 1, cpu("1"), Mode::Preferred, kHostLabel),
                         groupPart("workers", 5, cpu("2"), Mode::Preferred, kHostLabel),
                         QStringLiteral("h2=1 | h1=4 h2=1"),
                         {}};
        QTest::newRow("find topology assignment for grouped podsets preserves leader below the slice level")
            << GroupCase{rackHost,
                         {{"leader-host", {"r1"}, cpu("1")}, {"worker-host", {"r1"}, {{"example.com/gpu", "1"}}}},
                         groupPart("leader", 1, cpu("1"), Mode::Required, kRackLabel, {{kRackLabel, 1}}),
                         groupPart("workers", 1, {{"example.com/gpu", "1"}}, Mode::Required, kRackLabel,
                                   {{kRackLabel, 1}}),
                         // Two single-pod PodSets: the second one ("workers") leads, as findLeaderAndWorkers has it.
                         QStringLiteral("leader-host=1 | worker-host=1"),
                         {}};
        QTest::newRow(
            "find topology assignment for two podsets with the same group with domains that can tightly fit leader "
            "and workers")
            << GroupCase{block,
                         {{"b1", {"b1"}, cpuGpu("2", "2")}, {"b2", {"b2"}, cpuGpu("8", "8")},
                          {"b3", {"b3"}, cpuGpu("2", "2")}},
                         blockLeader, groupPart("workers", 4, cpuGpu("1", "2"), Mode::Required, kBlockLabel),
                         QStringLiteral("b2=1 | b2=4"), {}};
        const std::vector<KueueNode> smallLarge = {{"small-used", {"b1", "small"}, cpu("2800m"), "2500m"},
                                                   {"small-free", {"b1", "small"}, cpu("2800m")},
                                                   {"large-free", {"b1", "large"}, cpu("6")}};
        QTest::newRow("find topology assignment for grouped podsets skips domain where only workers fit without leader")
            << GroupCase{three, smallLarge, groupPart("leader", 1, cpu("2500m"), Mode::Required, kRackLabel),
                         groupPart("workers", 1, cpu("2500m"), Mode::Required, kRackLabel),
                         QStringLiteral("large-free=1 | large-free=1"), {}};
        QTest::newRow(
            "find topology assignment for grouped podsets skips domain where mixed-size workers only fit without "
            "leader")
            << GroupCase{three, smallLarge, groupPart("leader", 1, cpu("2500m"), Mode::Required, kRackLabel),
                         groupPart("workers", 2, cpu("500m"), Mode::Required, kRackLabel),
                         QStringLiteral("large-free=1 | large-free=2"), {}};
        QTest::newRow("find topology assignment for grouped podsets keeps tight domain when leader and workers fit together")
            << GroupCase{three, smallLarge, groupPart("leader", 1, cpu("1000m"), Mode::Required, kRackLabel),
                         groupPart("workers", 1, cpu("1000m"), Mode::Required, kRackLabel),
                         QStringLiteral("small-free=1 | small-free=1"), {}};
        QTest::newRow("find topology assignment for two podsets with the same group - no fit")
            << GroupCase{block,
                         {{"b1", {"b1"}, cpuGpu("1", "0")}, {"b2", {"b2"}, cpuGpu("4", "4")}},
                         blockLeader,
                         groupPart("workers", 4, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         {},
                         "topology \"default\" allows to fit only 4 out of 4 pod(s). Total nodes: 2; excluded: "
                         "resource \"example.com/gpu\": 1"};
        QTest::newRow(
            "find topology assignment for two podsets with the same group - optimizes domain for both leader and "
            "workers")
            << GroupCase{block,
                         {{"b1", {"b1"}, cpuGpu("11", "8")}, {"b2", {"b2"}, cpuGpu("4", "4")}},
                         blockLeader,
                         groupPart("workers", 4, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         QStringLiteral("b1=1 | b1=4"),
                         {}};
        QTest::newRow("BestFit: podset group workers spread across hosts")
            << GroupCase{three,
                         {{"x1", {"b1", "r1"}, cpuGpu("20", "4")}, {"x2", {"b1", "r1"}, cpuGpu("20", "2")},
                          {"x3", {"b1", "r1"}, cpuGpu("20", "2")}, {"x4", {"b1", "r1"}, cpuGpu("20", "2")}},
                         groupPart("leader", 1, cpu("1"), Mode::Preferred, kBlockLabel),
                         groupPart("workers", 6, cpuGpu("1", "1"), Mode::Preferred, kBlockLabel, {{kHostLabel, 2}}),
                         QStringLiteral("x1=1 | x1=4 x2=2"),
                         {}};
        QTest::newRow("find topology assignment for two podsets with the same group - leader does not fit anywhere")
            << GroupCase{block,
                         {{"b1", {"b1"}, cpuGpu("4", "4")}, {"b2", {"b2"}, cpuGpu("4", "4")}},
                         groupPart("leader", 1, cpu("10"), Mode::Required, kBlockLabel),
                         groupPart("workers", 4, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         {},
                         "topology \"default\" allows to fit only 4 out of 4 pod(s)"};
        QTest::newRow("find topology assignment for two podsets with the same group - multiple hosts")
            << GroupCase{three,
                         {{"x3", {"b1", "r1"}, cpuGpu("2", "1")}, {"x5", {"b1", "r1"}, cpuGpu("2", "1")},
                          {"x1", {"b1", "r1"}, cpuGpu("2", "1")}, {"x6", {"b2", "r4"}, cpuGpu("1", "1")},
                          {"x2", {"b2", "r5"}, cpuGpu("2", "1")}, {"x4", {"b2", "r6"}, cpuGpu("2", "1")}},
                         groupPart("leader", 1, cpu("2"), Mode::Required, kBlockLabel),
                         groupPart("workers", 2, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         QStringLiteral("x1=1 | x3=1 x5=1"),
                         {}};
        std::vector<KueueNode> eight;
        for (const auto& [host, b, r] : std::vector<std::tuple<const char*, const char*, const char*>>{
                 {"x3", "b1", "r1"}, {"x5", "b1", "r1"}, {"x1", "b1", "r2"}, {"x6", "b1", "r2"},
                 {"x2", "b2", "r3"}, {"x4", "b2", "r3"}, {"x7", "b2", "r4"}, {"x8", "b2", "r4"}})
            eight.push_back({host, {b, r}, cpuGpu("1", "1")});
        QTest::newRow(
            "find topology assignment for two podsets with the same group requesting same resources and nodes in "
            "the same rack")
            << GroupCase{three, eight, groupPart("leader", 1, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         groupPart("workers", 2, cpuGpu("1", "1"), Mode::Required, kBlockLabel),
                         QStringLiteral("x3=1 | x5=1 x1=1"), {}};
    }

    void groupsPlaceAsKueue() {
        QFETCH(GroupCase, c);
        auto cluster = kueueCluster(c.levels, c.nodes);
        GangRequest gang = workload({c.leader, c.workers});
        const PlacementResult result = kueueTasEngine().place(*cluster->cluster, gang, {});
        QVERIFY2(!result.invalidRequest, result.message.c_str());
        if (c.assignment.isEmpty()) {
            QVERIFY2(!result.feasible, dump(result).c_str());
            QCOMPARE(QString::fromStdString(result.message), QString::fromStdString(c.reason));
            return;
        }
        QVERIFY2(result.feasible, dump(result).c_str());
        QCOMPARE(groupAssignment(result), c.assignment);
    }

    // The group is what keeps the leader with its workers: the same two PodSets without it go
    // their own ways, the leader to the tightest block that holds one pod (b1), the workers to b2.
    void withoutTheGroupTheLeaderGoesElsewhere() {
        auto cluster = kueueCluster({kBlockLabel}, {{"b1", {"b1"}, {{"cpu", "2"}, {"example.com/gpu", "2"}}},
                                                    {"b2", {"b2"}, {{"cpu", "5"}, {"example.com/gpu", "4"}}},
                                                    {"b3", {"b3"}, {{"cpu", "2"}, {"example.com/gpu", "2"}}}});
        GangPart leader = groupPart("leader", 1, {{"cpu", "1"}}, KueueConstraint::Mode::Required, kBlockLabel);
        GangPart workers = groupPart("workers", 4, {{"cpu", "1"}, {"example.com/gpu", "1"}},
                                     KueueConstraint::Mode::Required, kBlockLabel);
        const PlacementResult grouped = kueueTasEngine().place(*cluster->cluster, workload({leader, workers}), {});
        QCOMPARE(groupAssignment(grouped), QStringLiteral("b2=1 | b2=4"));
        leader.kueue.group.clear();
        workers.kueue.group.clear();
        const PlacementResult apart = kueueTasEngine().place(*cluster->cluster, workload({leader, workers}), {});
        QCOMPARE(groupAssignment(apart), QStringLiteral("b1=1 | b2=4"));
        // The trace says how each domain stood with the leader.
        const bool traced = std::any_of(grouped.trace.begin(), grouped.trace.end(), [](const TraceEntry& e) {
            return e.domain == "b1" && e.reason.find("fits 2 of 4 pods, 1 beside the leader") != std::string::npos;
        });
        QVERIFY2(traced, dump(grouped).c_str());
    }

    // Order: PodSets place in the order their group first appears, the ones before assumed. A
    // JobSet's launcher and workers form a group; its third replicatedJob comes after them.
    void groupsAndLoneBothPlaceInOrder() {
        const auto gangs = readGangManifests(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  replicatedJobs:
  - name: launcher
    template:
      spec:
        template:
          metadata:
            annotations: {kueue.x-k8s.io/podset-required-topology: example.com/rack, kueue.x-k8s.io/podset-group-name: g}
          spec: {containers: [{name: l, resources: {limits: {nvidia.com/gpu: 8}}}]}
  - name: worker
    template:
      spec:
        parallelism: 3
        template:
          metadata:
            annotations: {kueue.x-k8s.io/podset-required-topology: example.com/rack, kueue.x-k8s.io/podset-group-name: g}
          spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}
  - name: eval
    template:
      spec:
        template:
          metadata:
            annotations: {kueue.x-k8s.io/podset-required-topology: example.com/rack}
          spec: {containers: [{name: e, resources: {limits: {nvidia.com/gpu: 8}}}]}
)");
        QVERIFY2(gangs.ok(), gangs.ok() ? "" : gangs.error().message.c_str());
        QCOMPARE(gangs->front().parts.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(gangs->front().parts[1].kueue.group), QStringLiteral("g"));
        auto cluster = threeRacks();
        const PlacementResult result = kueueTasEngine().place(*cluster->cluster, gangs->front(), {});
        QVERIFY2(result.feasible, dump(result).c_str());
        // r2 holds 3 free nodes, too few for the group's 4 pods: the group takes r1 (tightest of the
        // racks of 4, the first by name); eval, one pod, then the tightest rack left: r2.
        QCOMPARE(placed(result),
                 (QStringList{QStringLiteral("launcher:n1x1"), QStringLiteral("worker:n2x1"),
                              QStringLiteral("worker:n3x1"), QStringLiteral("worker:n4x1"),
                              QStringLiteral("eval:n6x1")}));
    }

    // A level a PodSet names that the topology lacks is that PodSet's bad request.
    void badLevelNamesThePodSet() {
        auto cluster = threeRacks();
        const PlacementResult result = kueueTasEngine().place(
            *cluster->cluster, workload({part("master", 1, gpus(1), ""), part("worker", 2, gpus(8), "zone")}), {});
        QVERIFY(result.invalidRequest);
        QVERIFY2(result.message.starts_with("pod set worker: "), result.message.c_str());
    }

    // End to end from the manifest: a PyTorchJob is one gang of two PodSets.
    void pyTorchJobIsOneWorkload() {
        const auto gangs = readGangManifests(R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt}
spec:
  pytorchReplicaSpecs:
    Master:
      template:
        metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: example.com/rack}}
        spec: {containers: [{name: m, resources: {limits: {nvidia.com/gpu: 8}}}]}
    Worker:
      replicas: 4
      template:
        metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: example.com/rack}}
        spec: {containers: [{name: w, resources: {limits: {nvidia.com/gpu: 8}}}]}
)");
        QVERIFY2(gangs.ok(), gangs.ok() ? "" : gangs.error().message.c_str());
        QCOMPARE(gangs->size(), std::size_t(1));
        QCOMPARE(gangs->front().parts.size(), std::size_t(2));
        auto cluster = threeRacks();
        const PlacementResult result = kueueTasEngine().place(*cluster->cluster, gangs->front(), {});
        QVERIFY2(result.feasible, result.message.c_str());
        QVERIFY(placed(result).contains(QStringLiteral("master:n6x1")));
        QCOMPARE(placed(result).filter(QStringLiteral("worker:")).size(), 4);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestKueuePodSets)
#include "test_kueue_podsets.moc"
