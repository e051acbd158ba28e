// The volcano engine: Volcano's allocate action with the network-topology-aware plugin. Tier
// limits (hard, soft, by name), the binpack choice among HyperNodes of a tier and its ties,
// partitions, predicates (taints, cordons, selectors, NotReady) and Volcano's FitError wording;
// Jobs of unlike tasks (and a Volcano Job, a PyTorchJob, a JobSet read from manifests) as one job.
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/volcano_engine.h"
#include "core/placement/requests/gang_manifest.h"

#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

#include <functional>
#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

Q_DECLARE_METATYPE(topodeck::GangRequest)

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QStringList list(std::initializer_list<const char*> items) {
    QStringList out;
    for (const char* item : items) out << QString::fromUtf8(item);
    return out;
}

TestNode node(std::string name, std::vector<std::string> levels, int usedGpus = 0) {
    return testNode(std::move(name), std::move(levels), 8, usedGpus);
}

// Two spines of two racks of four 8-GPU nodes: n1-n4 in r1, n5-n8 in r2 (spine s1), n9-n12 in
// r3, n13-n16 in r4 (spine s2). Derived HyperNodes: racks tier 1, spines tier 2, top tier 3.
std::unique_ptr<TestCluster> twoSpines(const std::function<void(std::vector<TestNode>&)>& tweak = {}) {
    std::vector<TestNode> nodes;
    for (int i = 1; i <= 16; ++i) {
        const int rack = (i - 1) / 4 + 1;
        nodes.push_back(node("n" + std::to_string(i), {rack <= 2 ? "s1" : "s2", "r" + std::to_string(rack)}));
    }
    if (tweak) tweak(nodes);
    return makeTestCluster({"example.com/spine", "example.com/rack"}, nodes);
}

TestNode& named(std::vector<TestNode>& nodes, const std::string& name) {
    for (TestNode& n : nodes)
        if (n.name == name) return n;
    qFatal("no node %s", name.c_str());
}

VolcanoTopology hardTier(int tier) {
    VolcanoTopology topology;
    topology.highestTierAllowed = tier;
    return topology;
}

VolcanoTopology byName(std::string name, bool hard = true) {
    VolcanoTopology topology;
    topology.hard = hard;
    topology.highestTierName = std::move(name);
    return topology;
}

VolcanoTopology soft() {
    VolcanoTopology topology;
    topology.hard = false;
    return topology;
}

GangRequest gang(int pods, int gpusPerPod, std::optional<VolcanoTopology> topology = std::nullopt) {
    GangRequest request;
    request.name = "train";
    request.pods = pods;
    request.perPod = gpus(gpusPerPod);
    request.volcano.networkTopology = std::move(topology);
    return request;
}

ResourceList cpus(int count) {
    ResourceList list;
    list.set("cpu", Quantity::fromUnits(count));
    return list;
}

GangPart task(std::string name, int pods, ResourceList perPod) {
    GangPart part;
    part.name = std::move(name);
    part.pods = pods;
    part.perPod = std::move(perPod);
    return part;
}

// A Volcano Job of several tasks as the manifest reader gives it: one gang, the first part's
// fields on the gang, the job's networkTopology on the gang.
GangRequest job(std::vector<GangPart> parts, std::optional<VolcanoTopology> topology = std::nullopt) {
    GangRequest request;
    request.name = "train";
    for (const GangPart& part : parts) request.pods += part.pods;
    request.perPod = parts.front().perPod;
    request.nodeSelector = parts.front().nodeSelector;
    request.tolerations = parts.front().tolerations;
    for (GangPart& part : parts) part.volcano.networkTopology = topology;
    request.volcano.networkTopology = std::move(topology);
    request.parts = std::move(parts);
    return request;
}

// r1 has free GPUs but only 32 free CPUs a node; r2 free CPUs but no GPUs; s2 is full.
std::unique_ptr<TestCluster> gpuRackCpuRack() {
    return twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes) {
            if (n.levelValues[1] == "r1") n.usedCpus = 32;
            if (n.levelValues[1] != "r1") n.usedGpus = 8;
            if (n.levelValues[0] == "s2") n.usedCpus = 64;
        }
    });
}

PlacementResult place(const TestCluster& cluster, const GangRequest& request, EngineOptions options = {}) {
    return volcanoEngine().place(*cluster.cluster, request, options);
}

// Pods per node; a node holding pods of two tasks (one entry per task) counts them together.
QString nodesOf(const PlacementResult& result) {
    std::vector<std::pair<std::string, std::int64_t>> perNode;
    for (const NodePods& n : result.nodes) {
        if (!perNode.empty() && perNode.back().first == n.node)
            perNode.back().second += n.pods;
        else
            perNode.emplace_back(n.node, n.pods);
    }
    QStringList out;
    for (const auto& [node, pods] : perNode) out << qs(node + (pods == 1 ? "" : "x" + std::to_string(pods)));
    return out.join(QStringLiteral(","));
}

QString chosenOf(const PlacementResult& result) {
    QStringList out;
    for (const ChosenDomain& c : result.chosen) out << qs(c.level + "=" + c.domain);
    return out.join(QStringLiteral(","));
}

QStringList tiedOf(const PlacementResult& result) {
    QStringList out;
    for (const std::string& name : result.tiedWith) out << qs(name);
    return out;
}

bool hasNote(const PlacementResult& result, std::string_view text) {
    return std::any_of(result.notes.begin(), result.notes.end(),
                       [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

} // namespace

class TestVolcano : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void interface();
    void invalidRequests_data();
    void invalidRequests();
    void tierOne_allTied();
    void binpackPrefersFullestRack();
    void tierLimit_noEligibleHyperNode();
    void tierTwo_packsByLca();
    void soft_takesLowestTierThatFits();
    void soft_fallsBackToClusterTop();
    void tierName_levelNameOrKey_data();
    void tierName_levelNameOrKey();
    void tierName_unknownIsIgnored();
    void fragmented_failureInHyperNode();
    void predicates_failureWords();
    void predicates_tolerationsOpenNodes();
    void podSlots_exceeded();
    void drained_isUnschedulable();
    void plain_binpackNode();
    void plain_failureWithoutPrefix();
    void weights_gpuUnweightedTiesEverything();
    void partitions_binpackPerPartition();
    void partitions_minPartitions();
    void partitions_failure();
    void explicitHyperNodes();
    void explicitHyperNodes_cycle();
    void assignmentAndChosen();
    void trace_bounded();
    void mixed_sumFitsOneRack();
    void mixed_tasksApartNeedTheSpine();
    void mixed_twoGpuTasks();
    void mixed_soft();
    void mixed_partitionedTaskBesidePlainTask();
    void mixed_selectorOfOneTask();
    void mixed_invalidPartition();
    void mixed_manifests_data();
    void mixed_manifests();
    void minAvailable_belowThePods();
    void minAvailable_eachTaskItsOwn();
    void minAvailable_hardTopology();
    void minAvailable_fromTheManifest();
};

void TestVolcano::interface() {
    const PlacementEngine& engine = volcanoEngine();
    QCOMPARE(qs(engine.name()), QStringLiteral("volcano"));
    QVERIFY(!engine.description().empty());
    auto cluster = twoSpines();
    QVERIFY(engine.unavailableReason(*cluster->cluster, gang(1, 8, hardTier(1))).empty());
    QCOMPARE(qs(place(*cluster, gang(1, 8)).engine), QStringLiteral("volcano"));
}

void TestVolcano::invalidRequests_data() {
    QTest::addColumn<GangRequest>("request");
    QTest::addColumn<QString>("message");
    QTest::newRow("no pods") << gang(0, 8) << QStringLiteral("the gang needs at least one pod");
    GangRequest bestEffort = gang(2, 8);
    bestEffort.perPod = {};
    QTest::newRow("best effort") << bestEffort
                                 << QStringLiteral("the pods request no resources: Volcano's allocate action skips "
                                                   "BestEffort pods (its backfill action places them)");
    GangRequest ragged = gang(5, 8);
    ragged.volcano.partitionSize = 2;
    QTest::newRow("partitions") << ragged
                                << QStringLiteral("partitionPolicy: totalPartitions x partitionSize must equal "
                                                  "replicas (5), and 5 is not a multiple of partitionSize 2");
    GangRequest both = gang(2, 8, hardTier(1));
    both.volcano.networkTopology->highestTierName = "rack";
    QTest::newRow("tier and name") << both
                                   << QStringLiteral("highestTierAllowed and highestTierName cannot be set together");
}

void TestVolcano::invalidRequests() {
    QFETCH(GangRequest, request);
    QFETCH(QString, message);
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, request);
    QVERIFY(result.invalidRequest);
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message), message);
}

void TestVolcano::tierOne_allTied() {
    // Every rack fits four 8-GPU pods and scores the same: Volcano picks at random, topodeck
    // reports all four and places in the first by name.
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(4, 8, hardTier(1)));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4"));
    QCOMPARE(tiedOf(result), list({"r1", "r2", "r3", "r4"}));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1,rack=r1"));
    QCOMPARE(qs(result.message),
             QStringLiteral("Allocate job to hyperNode success job=\"default/train\" hyperNode=\"r1\""));
    QVERIFY(hasNote(result, "Volcano picks one of the 4 HyperNodes tied on score at random"));
    QVERIFY(hasNote(result, "HyperNodes derived from label levels as Volcano's label discovery would"));
}

void TestVolcano::binpackPrefersFullestRack() {
    // r2 already runs 4 GPUs on n5: it is the fullest rack that still fits two 8-GPU pods.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n5").usedGpus = 4; });
    const PlacementResult result = place(*cluster, gang(2, 8, hardTier(1)));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n6,n7"));
    QVERIFY(result.tiedWith.empty());
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1,rack=r2"));
    // (4 + 16) / 32 GPUs, times 100.
    const auto taken =
        std::find_if(result.trace.begin(), result.trace.end(), [](const TraceEntry& e) { return e.taken; });
    QVERIFY(taken != result.trace.end());
    QCOMPARE(qs(taken->domain), QStringLiteral("r2"));
    QVERIFY2(taken->reason.find("binpack score 62.50, the best") != std::string::npos, taken->reason.c_str());
    QVERIFY(hasNote(result, "binpack weights nvidia.com/gpu=1.00"));
}

void TestVolcano::tierLimit_noEligibleHyperNode() {
    // Five 8-GPU pods need 40 GPUs; a rack has 32. Nothing within tier 1 is even tried.
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(5, 8, hardTier(1)));
    QVERIFY(!result.feasible);
    QVERIFY(!result.invalidRequest);
    QCOMPARE(qs(result.message),
             QStringLiteral("pod group is not ready, 5 Pending, 5 minAvailable; Pending: 5 Undetermined"));
    QVERIFY(result.nodes.empty());
    QStringList reasons;
    for (const TraceEntry& e : result.trace) reasons << qs(e.level + ": " + e.reason);
    QVERIFY2(reasons.contains(QStringLiteral("rack: 4 of 4 HyperNodes lack the idle resources the job needs "
                                             "(nvidia.com/gpu=40)")),
             qPrintable(reasons.join(QStringLiteral("\n"))));
}

void TestVolcano::tierTwo_packsByLca() {
    // Tier 1 has no room for five pods; in a spine the first pod's rack fills first (the LCA
    // score), then the sibling rack.
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(5, 8, hardTier(2)));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4,n5"));
    QCOMPARE(tiedOf(result), list({"s1", "s2"}));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1"));
}

void TestVolcano::soft_takesLowestTierThatFits() {
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] != "r4") n.usedGpus = 8; // only r4 has room
    });
    const PlacementResult result = place(*cluster, gang(3, 8, soft()));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n13,n14,n15"));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s2,rack=r4"));
    QVERIFY(hasNote(result, "job networkTopology mode soft: Volcano converts it to hard with highestTierAllowed 3 "
                            "(the cluster-top tier)"));
}

void TestVolcano::soft_fallsBackToClusterTop() {
    // Ten pods fit in no spine (8 nodes each): soft goes up to the virtual top, hard tier 2 fails.
    auto cluster = twoSpines();
    const PlacementResult relaxed = place(*cluster, gang(10, 8, soft()));
    QVERIFY2(relaxed.feasible, relaxed.message.c_str());
    QCOMPARE(nodesOf(relaxed), QStringLiteral("n1,n2,n3,n4,n5,n6,n7,n8,n9,n10"));
    QCOMPARE(chosenOf(relaxed), QStringLiteral("tier-3=<cluster-top-hypernode>"));
    const PlacementResult strict = place(*cluster, gang(10, 8, hardTier(2)));
    QVERIFY(!strict.feasible);
    QCOMPARE(qs(strict.message),
             QStringLiteral("pod group is not ready, 10 Pending, 10 minAvailable; Pending: 10 Undetermined"));
}

void TestVolcano::tierName_levelNameOrKey_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("short name") << QStringLiteral("rack");
    QTest::newRow("label key") << QStringLiteral("example.com/rack");
}

void TestVolcano::tierName_levelNameOrKey() {
    QFETCH(QString, name);
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n9").usedGpus = 2; });
    const PlacementResult result = place(*cluster, gang(2, 8, byName(name.toStdString())));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s2,rack=r3"));
    QCOMPARE(nodesOf(result), QStringLiteral("n10,n11"));
}

void TestVolcano::tierName_unknownIsIgnored() {
    // Volcano logs a warning and the job has no tier limit: ordinary allocation over every
    // node, still packed by the LCA score, and no "In hyperNode" in the words.
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(5, 8, byName("nope")));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4,n5"));
    QVERIFY(result.chosen.empty());
    QVERIFY(hasNote(result, "job highestTierName \"nope\" is no HyperNode's tierName: Volcano logs a warning and "
                            "applies no tier limit"));
    const PlacementResult tooBig = place(*cluster, gang(17, 8, byName("nope")));
    QVERIFY(!tooBig.feasible);
    QCOMPARE(qs(tooBig.message), QStringLiteral("0/16 nodes are unavailable: 16 Insufficient nvidia.com/gpu."));
}

void TestVolcano::fragmented_failureInHyperNode() {
    // Each rack has 16 idle GPUs, so each is eligible for two 8-GPU pods, but no node has more
    // than 4 free: every rack is tried and fails. The words are those of the last one tried.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes) n.usedGpus = 4;
    });
    const PlacementResult result = place(*cluster, gang(2, 8, hardTier(1)));
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message),
             QStringLiteral("In hyperNode r4: 0/4 nodes are unavailable: 4 Insufficient nvidia.com/gpu."));
    // The spines are above the limit (one line), then each rack tried.
    QCOMPARE(result.trace.size(), std::size_t(5));
    QCOMPARE(qs(result.trace[0].reason),
             QStringLiteral("HyperNodes above tier 1 are beyond the job's highestTierAllowed"));
    QCOMPARE(qs(result.trace[1].domain), QStringLiteral("r1"));
    QCOMPARE(qs(result.trace[1].reason),
             QStringLiteral("In hyperNode r1: 0/4 nodes are unavailable: 4 Insufficient nvidia.com/gpu."));
}

void TestVolcano::predicates_failureWords() {
    // One rack, one node per failing predicate; the NotReady node is not in Volcano's session
    // and not counted. Reasons sort as text.
    std::vector<TestNode> nodes = {node("a-cordoned", {"rack-1"}),   node("b-tainted", {"rack-1"}),
                                   node("c-other-pool", {"rack-1"}), node("d-full", {"rack-1"}, 8),
                                   node("e-notready", {"rack-1"}),   node("f-full", {"rack-1"}, 6)};
    nodes[0].cordoned = true;
    nodes[1].taints = {{"dedicated", "infer", "NoSchedule"}};
    nodes[4].ready = false;
    for (TestNode& n : nodes)
        if (n.name != "c-other-pool") n.extraLabels = {{"pool", "train"}};
    auto cluster = makeTestCluster({"example.com/rack"}, nodes);
    GangRequest request = gang(1, 8, hardTier(1));
    request.nodeSelector = {{"pool", "train"}};
    const PlacementResult result = place(*cluster, request);
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message),
             QStringLiteral("In hyperNode rack-1: 0/5 nodes are unavailable: 1 node(s) didn't match Pod's node "
                            "affinity/selector, 1 node(s) had untolerated taint {dedicated: infer}, 1 node(s) were "
                            "unschedulable, 2 Insufficient nvidia.com/gpu."));
}

void TestVolcano::predicates_tolerationsOpenNodes() {
    std::vector<TestNode> nodes = {node("a-cordoned", {"rack-1"}), node("b-tainted", {"rack-1"}),
                                   node("c-full", {"rack-1"}, 8)};
    nodes[0].cordoned = true;
    nodes[1].taints = {{"dedicated", "infer", "NoSchedule"}, {"soft", "x", "PreferNoSchedule"}};
    auto cluster = makeTestCluster({"example.com/rack"}, nodes);
    GangRequest request = gang(1, 8, hardTier(1));
    request.tolerations = {Toleration{"dedicated", "Equal", "infer", "NoSchedule"}};
    PlacementResult result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("b-tainted"));
    // Tolerating the unschedulable taint passes NodeUnschedulable, as in kube-scheduler.
    request.tolerations = {Toleration{std::string("node.kubernetes.io/unschedulable"), "Exists", "", "NoSchedule"}};
    result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("a-cordoned"));
}

void TestVolcano::podSlots_exceeded() {
    std::vector<TestNode> nodes = {node("a", {"rack-1"}), node("b", {"rack-1"})};
    nodes[0].podSlots = 0;
    nodes[1].podSlots = 1;
    auto cluster = makeTestCluster({"example.com/rack"}, nodes);
    // The second pod finds b holding the first one: both nodes are out of pod slots.
    const PlacementResult result = place(*cluster, gang(2, 1, hardTier(1)));
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message),
             QStringLiteral("In hyperNode rack-1: 0/2 nodes are unavailable: 2 node(s) pod number exceeded."));
}

void TestVolcano::drained_isUnschedulable() {
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] != "r1") n.usedGpus = 8;
    });
    cluster->cluster->drain(*cluster->state.findNode("n2"));
    const PlacementResult result = place(*cluster, gang(4, 8, hardTier(1)));
    QVERIFY(!result.feasible);
    // r1 is the only rack with 32 idle GPUs (a drained node's count, as a cordoned one's).
    QCOMPARE(qs(result.message),
             QStringLiteral("In hyperNode r1: 0/4 nodes are unavailable: 1 node(s) were unschedulable, 3 Insufficient "
                            "nvidia.com/gpu."));
}

void TestVolcano::plain_binpackNode() {
    // No networkTopology: ordinary allocation; binpack sends the 4-GPU pod to the half-used node.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n11").usedGpus = 4; });
    const PlacementResult result = place(*cluster, gang(1, 4));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n11"));
    QCOMPARE(qs(result.message), QStringLiteral("the pod fits"));
    QVERIFY(result.chosen.empty());
    QVERIFY(result.tiedWith.empty());
    // Two pods of 4 GPUs: the fuller rack's HyperNode score keeps the second in r3 as well.
    const PlacementResult two = place(*cluster, gang(3, 4));
    QVERIFY2(two.feasible, two.message.c_str());
    QCOMPARE(nodesOf(two), QStringLiteral("n9x2,n11"));
}

void TestVolcano::plain_failureWithoutPrefix() {
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(1, 9));
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message), QStringLiteral("0/16 nodes are unavailable: 16 Insufficient nvidia.com/gpu."));
}

void TestVolcano::weights_gpuUnweightedTiesEverything() {
    // With Volcano's own defaults (cpu and memory only), a GPU-only request has no weighted
    // resource: every rack scores 0 and all tie, even the fuller one.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n5").usedGpus = 4; });
    EngineOptions options;
    options.volcanoBinpackWeights = {{"cpu", 1.0}, {"memory", 1.0}};
    const PlacementResult result = place(*cluster, gang(2, 8, hardTier(1)), options);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(tiedOf(result), list({"r1", "r2", "r3", "r4"}));
    QVERIFY(hasNote(result, "no requested resource has a binpack weight"));
    // Listing the GPU resource (hypernode.binpack.resources) brings the preference back.
    options.volcanoBinpackWeights = {{"nvidia.com/gpu", 2.0}};
    const PlacementResult weighted = place(*cluster, gang(2, 8, hardTier(1)), options);
    QCOMPARE(chosenOf(weighted), QStringLiteral("spine=s1,rack=r2"));
    QVERIFY(weighted.tiedWith.empty());
}

void TestVolcano::partitions_binpackPerPartition() {
    // Two partitions of two 8-GPU pods, each within a rack, the job within a spine. No rack has
    // room for the whole job; in s2 the first partition takes the fuller r3, the second r4.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (const char* full : {"n1", "n2", "n3", "n5", "n6", "n11", "n12", "n16"}) named(nodes, full).usedGpus = 8;
        named(nodes, "n15").usedGpus = 4;
    });
    GangRequest request = gang(4, 8, hardTier(2));
    request.volcano.partitionSize = 2;
    request.volcano.partitionTopology = hardTier(1);
    const PlacementResult result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n9,n10,n13,n14"));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s2"));
    QCOMPARE(result.assignment.domains.size(), std::size_t(2));
    QCOMPARE(result.assignment.domains[0].values, (std::vector<std::string>{"s2", "r3"}));
    QCOMPARE(result.assignment.domains[1].values, (std::vector<std::string>{"s2", "r4"}));
    // s1 has only 3 free nodes: not eligible for four pods.
    QVERIFY(std::any_of(result.trace.begin(), result.trace.end(), [](const TraceEntry& e) {
        return e.level == "spine" && e.reason.find("1 of 2 HyperNodes lack the idle resources") != std::string::npos;
    }));
}

void TestVolcano::partitions_minPartitions() {
    // Three partitions of two, two required, all within one rack; r1 has room for two partitions
    // only. The job is ready with two; the third finds no room within the job's tier limit.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] != "r1") n.usedGpus = 8;
    });
    GangRequest request = gang(6, 8, hardTier(1));
    request.volcano.partitionSize = 2;
    request.volcano.minPartitions = 2;
    const PlacementResult result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4"));
    QVERIFY(hasNote(result, "1 partition(s) beyond minPartitions find no room and stay pending"));
    // Without even r1, no rack has the idle GPUs for the two required partitions: the PodGroup's
    // words, its counts sorted as text.
    auto full = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes) n.usedGpus = n.name == "n1" ? 0 : 8;
    });
    const PlacementResult none = place(*full, request);
    QVERIFY(!none.feasible);
    QCOMPARE(qs(none.message),
             QStringLiteral("pod group is not ready, 4 minAvailable, 6 Pending; Pending: 6 Undetermined"));
    // Up to the cluster-top tier, the third partition searches the whole cluster and takes r3.
    GangRequest wider = request;
    wider.volcano.networkTopology = hardTier(3);
    auto roomy = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] != "r1" && n.levelValues[1] != "r3") n.usedGpus = 8;
    });
    const PlacementResult spread = place(*roomy, wider);
    QVERIFY2(spread.feasible, spread.message.c_str());
    QCOMPARE(nodesOf(spread), QStringLiteral("n1,n2,n3,n4,n9,n10"));
}

void TestVolcano::partitions_failure() {
    // A partition fits in no rack: the job fails inside the spine with that partition's words.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes) n.usedGpus = 4;
    });
    GangRequest request = gang(2, 4, hardTier(2));
    request.volcano.partitionSize = 2;
    request.volcano.partitionTopology = hardTier(1);
    // Two 4-GPU pods fit in any rack: feasible.
    QVERIFY(place(*cluster, request).feasible);
    request.perPod = gpus(8);
    const PlacementResult result = place(*cluster, request);
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message),
             QStringLiteral("In hyperNode r4: 0/4 nodes are unavailable: 4 Insufficient nvidia.com/gpu."));
}

void TestVolcano::explicitHyperNodes() {
    // HyperNode objects instead of labels: a regex leaf, a label leaf, a spine with a tierName.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] == "r2") n.extraLabels = {{"pool", "b"}};
        named(nodes, "n6").usedGpus = 8;
    });
    HyperNodeMember regexMember;
    regexMember.selector = HyperNodeMember::Selector::Regex;
    regexMember.value = "^n[1-4]$";
    HyperNodeMember labelMember;
    labelMember.selector = HyperNodeMember::Selector::Label;
    labelMember.matchLabels = {{"pool", "b"}};
    HyperNodeMember leafA;
    leafA.type = HyperNodeMember::Type::HyperNode;
    leafA.value = "leaf-a";
    HyperNodeMember leafB = leafA;
    leafB.value = "leaf-b";
    cluster->cluster->setHyperNodes(
        std::make_shared<const std::vector<HyperNode>>(std::vector<HyperNode>{{"leaf-a", 1, "leaf", {regexMember}},
                                                                              {"leaf-b", 1, "leaf", {labelMember}},
                                                                              {"spine", 2, "spine", {leafA, leafB}}}));
    const PlacementResult result = place(*cluster, gang(3, 8, byName("leaf")));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(chosenOf(result), QStringLiteral("spine=spine,leaf=leaf-b"));
    QCOMPARE(nodesOf(result), QStringLiteral("n5,n7,n8"));
    QVERIFY(!hasNote(result, "derived"));
    // n9-n16 are in no HyperNode: only the top holds them, and tier 1 cannot reach them.
    const PlacementResult big = place(*cluster, gang(9, 8, hardTier(2)));
    QVERIFY(!big.feasible);
}

void TestVolcano::explicitHyperNodes_cycle() {
    auto cluster = twoSpines();
    HyperNodeMember toB;
    toB.type = HyperNodeMember::Type::HyperNode;
    toB.value = "b";
    HyperNodeMember toA = toB;
    toA.value = "a";
    cluster->cluster->setHyperNodes(std::make_shared<const std::vector<HyperNode>>(
        std::vector<HyperNode>{{"a", 1, "", {toB}}, {"b", 2, "", {toA}}}));
    const std::string reason = volcanoEngine().unavailableReason(*cluster->cluster, gang(1, 8, hardTier(1)));
    QVERIFY2(reason.find("cyclic dependency detected") != std::string::npos, reason.c_str());
    const PlacementResult result = place(*cluster, gang(1, 8, hardTier(1)));
    QVERIFY(!result.feasible);
    QCOMPARE(qs(result.message),
             QStringLiteral("cyclic dependency detected: HyperNode a is already in the ancestor chain [a b]"));
    // A job without networkTopology still schedules.
    QVERIFY(volcanoEngine().unavailableReason(*cluster->cluster, gang(1, 8)).empty());
    QVERIFY(place(*cluster, gang(1, 8)).feasible);
}

void TestVolcano::assignmentAndChosen() {
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, gang(6, 8, hardTier(2)));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(result.assignment.levels, (std::vector<std::string>{"spine", "rack"}));
    QCOMPARE(result.assignment.domains.size(), std::size_t(2));
    QCOMPARE(result.assignment.domains[0].values, (std::vector<std::string>{"s1", "r1"}));
    QCOMPARE(result.assignment.domains[0].count, 4);
    QCOMPARE(result.assignment.domains[1].values, (std::vector<std::string>{"s1", "r2"}));
    QCOMPARE(result.assignment.domains[1].count, 2);
    QCOMPARE(result.chosen.size(), std::size_t(1));
    QCOMPARE(qs(result.chosen[0].level), QStringLiteral("spine"));
}

void TestVolcano::trace_bounded() {
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes) n.usedGpus = 4;
    });
    EngineOptions options;
    options.maxTraceEntries = 2;
    const PlacementResult result = place(*cluster, gang(2, 8, hardTier(1)), options);
    QCOMPARE(result.trace.size(), std::size_t(3));
    QCOMPARE(qs(result.trace.back().reason), QStringLiteral("3 more entries not shown"));
}

void TestVolcano::mixed_sumFitsOneRack() {
    // ps (4 CPUs) then worker-0 (index 0 of each task), then the other workers; all racks tie on
    // (4/256 + 32/32) / 2, so r1; ps takes n1 by name, worker-0 too (GPU binpack ties), then n2-n4.
    auto cluster = twoSpines();
    const GangRequest request = job({task("ps", 1, cpus(4)), task("worker", 4, gpus(8))}, hardTier(1));
    const PlacementResult result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1x2,n2,n3,n4"));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1,rack=r1"));
    QCOMPARE(tiedOf(result), list({"r1", "r2", "r3", "r4"}));
    QVERIFY(hasNote(result, "task ps: n1"));
    QVERIFY(hasNote(result, "task worker: n1,n2,n3,n4"));
    QCOMPARE(qs(result.message),
             QStringLiteral("Allocate job to hyperNode success job=\"default/train\" hyperNode=\"r1\""));
}

void TestVolcano::mixed_tasksApartNeedTheSpine() {
    // ps wants 48 CPUs (only r2's nodes have them), the workers 32 GPUs (only r1's). Each task
    // alone fits a rack, the job in none: r1 is the only rack with the job's idle GPUs, and ps,
    // placed first, finds no node with 48 CPUs there. Within tier 2, s1 holds both.
    auto cluster = gpuRackCpuRack();
    GangRequest request = job({task("ps", 1, cpus(48)), task("worker", 4, gpus(8))}, hardTier(1));
    const PlacementResult strict = place(*cluster, request);
    QVERIFY(!strict.feasible);
    QCOMPARE(qs(strict.message), QStringLiteral("In hyperNode r1: 0/4 nodes are unavailable: 4 Insufficient cpu."));
    QVERIFY(std::any_of(strict.trace.begin(), strict.trace.end(), [](const TraceEntry& e) {
        return e.reason == "3 of 4 HyperNodes lack the idle resources the job needs (cpu=48, nvidia.com/gpu=32)";
    }));
    // Each task alone fits one rack.
    QCOMPARE(chosenOf(place(*cluster, request.onlyPart(0))), QStringLiteral("spine=s1,rack=r2"));
    QCOMPARE(chosenOf(place(*cluster, request.onlyPart(1))), QStringLiteral("spine=s1,rack=r1"));
    // ps goes to n5 by name; the workers to r1 (LCA s1 for every r1 node), n1-n4.
    request = job(request.parts, hardTier(2));
    const PlacementResult spine = place(*cluster, request);
    QVERIFY2(spine.feasible, spine.message.c_str());
    QCOMPARE(nodesOf(spine), QStringLiteral("n1,n2,n3,n4,n5"));
    QCOMPARE(chosenOf(spine), QStringLiteral("spine=s1"));
    QVERIFY(hasNote(spine, "task ps: n5"));
    QVERIFY(hasNote(spine, "task worker: n1,n2,n3,n4"));
}

void TestVolcano::mixed_twoGpuTasks() {
    // a: 1 pod of 4 GPUs, b: 3 of 8, 28 GPUs. n4 runs 4 GPUs, so r1 (28 idle) is the fullest
    // rack that fits: (4 + 28) / 32. a-0 packs onto n4, b's pods take n1-n3.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n4").usedGpus = 4; });
    const GangRequest request = job({task("a", 1, gpus(4)), task("b", 3, gpus(8))}, hardTier(1));
    const PlacementResult result = place(*cluster, request);
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4"));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1,rack=r1"));
    QVERIFY(result.tiedWith.empty());
    QVERIFY(hasNote(result, "task a: n4"));
    QVERIFY(hasNote(result, "task b: n1,n2,n3"));
    // a: 2 x 4, b: 3 x 8 is 32 GPUs; with a node in each rack running 4, every rack has 28:
    // either task alone fits any rack, the job none within tier 1.
    auto busy = twoSpines([](std::vector<TestNode>& nodes) {
        for (const char* name : {"n4", "n8", "n12", "n16"}) named(nodes, name).usedGpus = 4;
    });
    const GangRequest bigger = job({task("a", 2, gpus(4)), task("b", 3, gpus(8))}, hardTier(1));
    QVERIFY(place(*busy, bigger.onlyPart(0)).feasible);
    QVERIFY(place(*busy, bigger.onlyPart(1)).feasible);
    const PlacementResult none = place(*busy, bigger);
    QVERIFY(!none.feasible);
    QCOMPARE(qs(none.message),
             QStringLiteral("pod group is not ready, 5 Pending, 5 minAvailable; Pending: 5 Undetermined"));
    // Order a-0, b-0, a-1, b-1, b-2 in s1 (s1 and s2 tie): a-0 packs onto n4 (4 used), b-0 n1 (r1
    // is the LCA); a-1 scores 50 + 100 x (1 + 2/5) on n2 (r1's nodes tie on LCA, split by the
    // job's 2 pods there) against 100 + 50 on n8; b-1 n3, and r1 is full, so b-2 n5.
    const PlacementResult spine = place(*busy, job(bigger.parts, hardTier(2)));
    QVERIFY2(spine.feasible, spine.message.c_str());
    QCOMPARE(nodesOf(spine), QStringLiteral("n1,n2,n3,n4,n5"));
    QVERIFY(hasNote(spine, "task a: n2,n4"));
    QVERIFY(hasNote(spine, "task b: n1,n3,n5"));
}

void TestVolcano::mixed_soft() {
    // Soft becomes hard up to the cluster top: the lowest tier that fits the whole job, s1.
    auto cluster = gpuRackCpuRack();
    const PlacementResult result = place(*cluster, job({task("ps", 1, cpus(48)), task("worker", 4, gpus(8))}, soft()));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s1"));
    QCOMPARE(nodesOf(result), QStringLiteral("n1,n2,n3,n4,n5"));
    QVERIFY(hasNote(result, "job networkTopology mode soft"));
    // Without networkTopology: ordinary allocation, ps on the first node with 48 CPUs.
    const PlacementResult plain = place(*cluster, job({task("ps", 1, cpus(48)), task("worker", 4, gpus(8))}));
    QVERIFY2(plain.feasible, plain.message.c_str());
    QCOMPARE(nodesOf(plain), QStringLiteral("n1,n2,n3,n4,n5"));
    QCOMPARE(qs(plain.message), QStringLiteral("all 5 pods fit on 5 nodes"));
}

void TestVolcano::mixed_partitionedTaskBesidePlainTask() {
    // Workers in two partitions of two, each within a rack, beside ps without one; the job within
    // a spine. s1 lacks the GPUs. In s2 the default subJob (ps) comes first: its minAvailable
    // is 1, the lowest tier first, r3 and r4 tie on CPU, so r3 and n9; then partition 0 takes
    // the fuller r3 (n9, n10), partition 1 r4 (n13, n14).
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (const char* full : {"n1", "n2", "n3", "n5", "n6", "n11", "n12", "n16"}) named(nodes, full).usedGpus = 8;
        named(nodes, "n15").usedGpus = 4;
    });
    GangPart workers = task("worker", 4, gpus(8));
    workers.volcano.partitionSize = 2;
    workers.volcano.partitionTopology = hardTier(1);
    const PlacementResult result = place(*cluster, job({task("ps", 1, cpus(4)), workers}, hardTier(2)));
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), QStringLiteral("n9x2,n10,n13,n14"));
    QCOMPARE(chosenOf(result), QStringLiteral("spine=s2"));
    QVERIFY(hasNote(result, "task ps: n9"));
    QVERIFY(hasNote(result, "task worker: n9,n10,n13,n14"));
    const auto taken =
        std::find_if(result.trace.begin(), result.trace.end(), [](const TraceEntry& e) { return e.taken; });
    QVERIFY(taken != result.trace.end());
    QVERIFY2(taken->reason.find("fits 2 of 2 partitions (in r3, r4)") != std::string::npos, taken->reason.c_str());
    // One partition required: the job needs 16 GPUs and 4 CPUs, so racks come first; r2 and r3
    // tie as the fullest, r2 by name: partition 0 on n7, n8, ps on n5 (first by name); partition
    // 1 finds no room within s1 and stays pending.
    workers.volcano.minPartitions = 1;
    const PlacementResult one = place(*cluster, job({task("ps", 1, cpus(4)), workers}, hardTier(2)));
    QVERIFY2(one.feasible, one.message.c_str());
    QCOMPARE(nodesOf(one), QStringLiteral("n5,n7,n8"));
    QCOMPARE(tiedOf(one), list({"r2", "r3"}));
    QVERIFY(hasNote(one, "1 partition(s) beyond minPartitions find no room and stay pending"));
}

void TestVolcano::mixed_selectorOfOneTask() {
    // Only ps selects pool=cpu, which only r2's nodes (no free GPUs) carry. Every rack with the
    // job's GPUs fails ps's selector; within s1, ps goes to n5 and the workers to r1.
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[1] == "r2") {
                n.extraLabels = {{"pool", "cpu"}};
                n.usedGpus = 8;
            }
    });
    GangPart ps = task("ps", 1, cpus(4));
    ps.nodeSelector = {{"pool", "cpu"}};
    GangRequest request = job({task("worker", 4, gpus(8)), ps}, hardTier(1));
    const PlacementResult strict = place(*cluster, request);
    QVERIFY(!strict.feasible);
    // worker-0, ps-0: worker-0 fits, ps-0 fails in r4, the last rack tried.
    QCOMPARE(qs(strict.message),
             QStringLiteral("In hyperNode r4: 0/4 nodes are unavailable: 4 node(s) didn't match Pod's node "
                            "affinity/selector."));
    request = job(request.parts, hardTier(2));
    const PlacementResult spine = place(*cluster, request);
    QVERIFY2(spine.feasible, spine.message.c_str());
    QCOMPARE(chosenOf(spine), QStringLiteral("spine=s1"));
    QVERIFY(hasNote(spine, "task ps: n5"));
    QVERIFY(hasNote(spine, "task worker: n1,n2,n3,n4"));
}

void TestVolcano::mixed_invalidPartition() {
    GangPart workers = task("worker", 3, gpus(8));
    workers.volcano.partitionSize = 2;
    auto cluster = twoSpines();
    const PlacementResult result = place(*cluster, job({task("ps", 1, cpus(4)), workers}, hardTier(2)));
    QVERIFY(result.invalidRequest);
    QCOMPARE(qs(result.message),
             QStringLiteral("task worker partitionPolicy: totalPartitions x partitionSize must equal replicas (3), "
                            "and 3 is not a multiple of partitionSize 2"));
    // A BestEffort task beside a requesting one is left to backfill.
    const PlacementResult bestEffort = place(*cluster, job({task("sidecar", 1, {}), task("worker", 2, gpus(8))}));
    QVERIFY2(bestEffort.feasible, bestEffort.message.c_str());
    QCOMPARE(nodesOf(bestEffort), QStringLiteral("n1,n2"));
    QVERIFY(hasNote(bestEffort, "task sidecar requests no resources"));
}

void TestVolcano::mixed_manifests_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QStringList>("notes");
    QTest::addColumn<int>("n17Gpus"); // -1: gpuRackCpuRack; else two spines and n17 alone in r5/s3
    // The Volcano Job: as mixed_tasksApartNeedTheSpine with tier 2.
    QTest::newRow("volcano job") << QStringLiteral("volcano/job-ps-workers.yaml") << QStringLiteral("n1,n2,n3,n4,n5")
                                 << list({"task ps: n5", "task worker: n1,n2,n3,n4"}) << -1;
    // 1 master + 16 workers of 8 GPUs, 17 pods, one gang (KAI annotations mean nothing to
    // Volcano). No networkTopology: master-0 comes first and the normal-pod score sends it to
    // n17, whose r5 and s3 would be full (8/8); the workers then take n1-n16.
    QTest::newRow("pytorchjob") << QStringLiteral("gangs/pytorchjob-segments.yaml")
                                << QStringLiteral("n1,n2,n3,n4,n5,n6,n7,n8,n9,n10,n11,n12,n13,n14,n15,n16,n17")
                                << list({"task master: n17", "task worker: n1,n2,n3,n4,n5,n6,n7,n8,n9,n10,n11,"
                                                             "n12,n13,n14,n15,n16"})
                                << 8;
    // 8 workers of 8 GPUs and a driver that selects node-role=cpu (only n17, no GPUs): workers-0
    // on n1, driver-0 on n17, then the workers fill r1 and r2 (the fuller HyperNodes).
    QTest::newRow("jobset") << QStringLiteral("gangs/jobset-trainer.yaml")
                            << QStringLiteral("n1,n2,n3,n4,n5,n6,n7,n8,n17")
                            << list({"task workers: n1,n2,n3,n4,n5,n6,n7,n8", "task driver: n17"}) << 0;
}

void TestVolcano::mixed_manifests() {
    QFETCH(QString, file);
    QFETCH(QString, nodes);
    QFETCH(QStringList, notes);
    QFETCH(int, n17Gpus);
    const std::string path = std::string(TOPODECK_TEST_DATA_DIR) + "/" + file.toStdString();
    Result<std::vector<GangRequest>> gangs = readGangManifestFile(path);
    QVERIFY2(gangs.ok(), gangs.ok() ? "" : gangs.error().message.c_str());
    QCOMPARE(gangs->size(), std::size_t(1));
    QVERIFY(gangs->front().heterogeneous());
    auto cluster = n17Gpus < 0 ? gpuRackCpuRack() : twoSpines([&](std::vector<TestNode>& all) {
        TestNode extra = testNode("n17", {"s3", "r5"}, n17Gpus);
        extra.extraLabels = {{"node-role", "cpu"}};
        all.push_back(extra);
    });
    const PlacementResult result = place(*cluster, gangs->front());
    QVERIFY2(result.feasible, result.message.c_str());
    QCOMPARE(nodesOf(result), nodes);
    for (const QString& note : notes) QVERIFY2(hasNote(result, note.toStdString()), qPrintable(note));
}

// The job's minAvailable below its pods (Volcano's e2e "Schedule Job": Min 2 of a task as large as
// the cluster): the first round stops once 2 pods are allocated (SubJobReady), the job is ready and
// committed, and the pods left go one a round while they find a node; the rest stay pending. With
// every pod needed ("Statement": Min = Rep on a full cluster) the job does not fit.
void TestVolcano::minAvailable_belowThePods() {
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) {
        for (TestNode& n : nodes)
            if (n.levelValues[0] == "s2") n.usedGpus = 8;
    });
    GangRequest request = gang(24, 8);
    request.volcano.minAvailable = 2;
    const PlacementResult ready = place(*cluster, request);
    QVERIFY2(ready.feasible, ready.message.c_str());
    QCOMPARE(qs(ready.message),
             QStringLiteral("the job is ready: 8 of 24 pods placed (minAvailable 2 of 24 pods); 16 stay pending"));
    QCOMPARE(nodesOf(ready), QStringLiteral("n1,n2,n3,n4,n5,n6,n7,n8"));
    request.volcano.minAvailable = 24;
    const PlacementResult all = place(*cluster, request);
    QVERIFY(!all.feasible);
    QCOMPARE(qs(all.message), QStringLiteral("0/16 nodes are unavailable: 16 Insufficient nvidia.com/gpu."));
    // Nothing to place for a minimum no node can start.
    request.volcano.minAvailable = 9;
    QVERIFY(!place(*cluster, request).feasible);
}

// Each task's minAvailable (the PodGroup's minTaskMember) counts when the job's minimum covers the
// tasks' (JobInfo.CheckTaskReady): ps needs 2 pods of 40 CPUs and only n5 carries its pool, so ps
// stays at 1 and the job is not ready, whatever the workers; NeedContinueAllocating stops at the
// failed task. With a job minimum below the tasks' sum only the total counts: 1 ps and the 4
// workers make it ready (3 at the first round), and one ps pod stays pending.
void TestVolcano::minAvailable_eachTaskItsOwn() {
    auto cluster = twoSpines([](std::vector<TestNode>& nodes) { named(nodes, "n5").extraLabels = {{"pool", "ps"}}; });
    GangPart ps = task("ps", 2, cpus(40));
    ps.nodeSelector = {{"pool", "ps"}};
    ps.volcano.minAvailable = 2;
    GangPart worker = task("worker", 4, gpus(8));
    worker.volcano.minAvailable = 2;
    GangRequest request = job({ps, worker});
    request.volcano.minAvailable = 4;
    const PlacementResult roles = place(*cluster, request);
    QVERIFY(!roles.feasible);
    QCOMPARE(qs(roles.message), QStringLiteral("0/16 nodes are unavailable: 1 Insufficient cpu, 15 node(s) didn't "
                                               "match Pod's node affinity/selector."));
    request.volcano.minAvailable = 3;
    const PlacementResult total = place(*cluster, request);
    QVERIFY2(total.feasible, total.message.c_str());
    QCOMPARE(qs(total.message), QStringLiteral("the job is ready: 5 of 6 pods placed (minAvailable 3 of 6 pods); "
                                               "1 stay pending"));
    QVERIFY(hasNote(total, "task ps: n5"));
    QVERIFY(hasNote(total, "task worker: n1,n2,n3,n4"));
    // Task minimums the job's covers, all met: ready at 4 pods (2 + 2), the other workers after.
    ps.nodeSelector.clear();
    request = job({ps, worker});
    request.volcano.minAvailable = 4;
    const PlacementResult met = place(*cluster, request);
    QVERIFY2(met.feasible, met.message.c_str());
    QCOMPARE(qs(met.message),
             QStringLiteral("the job is ready: 6 of 6 pods placed (minAvailable 4 of 6 pods (tasks: worker 2 of 4))"));
}

// With a hard tier limit the trial in each HyperNode stops once the job is ready: 6 pods of 8 GPUs
// fit no rack (tier 1), but 4 of them do; the other 2 then look under the highest HyperNode the
// limit allows above the job's (the rack itself: they stay pending; with tier 2 the spine: they go
// to the other rack).
void TestVolcano::minAvailable_hardTopology() {
    auto cluster = twoSpines();
    GangRequest request = gang(6, 8, hardTier(1));
    QVERIFY(!place(*cluster, request).feasible);
    request.volcano.minAvailable = 4;
    const PlacementResult rack = place(*cluster, request);
    QVERIFY2(rack.feasible, rack.message.c_str());
    QCOMPARE(nodesOf(rack), QStringLiteral("n1,n2,n3,n4"));
    QVERIFY(hasNote(rack, "2 pod(s) beyond minAvailable find no room and stay pending"));
    request.volcano.networkTopology = hardTier(2);
    const PlacementResult spine = place(*cluster, request);
    QVERIFY2(spine.feasible, spine.message.c_str());
    QCOMPARE(nodesOf(spine), QStringLiteral("n1,n2,n3,n4,n5,n6"));
    QCOMPARE(chosenOf(spine), QStringLiteral("spine=s1,rack=r1"));
}

// From the manifest: task minAvailable as written, the job's by the mutating webhook's default (the
// tasks' summed: Volcano's e2e "Should calculate minAvailable considering task-level minAvailable
// when specified", 1 + 3 = 4), tasks with their own minimum kept apart.
void TestVolcano::minAvailable_fromTheManifest() {
    const auto gangs = readGangManifests(R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: task-min-available-job}
spec:
  tasks:
  - name: task-1
    replicas: 2
    minAvailable: 1
    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}
  - name: task-2
    replicas: 3
    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: 8}}}]}}
)");
    QVERIFY2(gangs.ok(), gangs ? "" : gangs.error().message.c_str());
    const GangRequest& request = gangs->front();
    QCOMPARE(request.volcano.minAvailable.value_or(-1), 4);
    QCOMPARE(request.parts.size(), std::size_t(2));
    QCOMPARE(request.parts[0].volcano.minAvailable.value_or(-1), 1);
    QCOMPARE(request.parts[1].volcano.minAvailable.value_or(-1), 3);
    // The job's minimum covers the tasks' (4 = 1 + 3), so each task must reach its own
    // (CheckTaskReady, which SubJobReady asks too): pods go in task order by index, task-1's
    // second before task-2's third, so with 4 free nodes task-2 gets 2 of its 3 and the job is
    // not ready, though a placement of 1 + 3 exists. With 5 free nodes every pod goes.
    const auto freeNodes = [](int count) {
        return twoSpines([count](std::vector<TestNode>& nodes) {
            for (TestNode& n : nodes)
                if (std::stoi(n.name.substr(1)) > count) n.usedGpus = 8;
        });
    };
    const PlacementResult four = place(*freeNodes(4), request);
    QVERIFY(!four.feasible);
    QCOMPARE(qs(four.message), QStringLiteral("0/16 nodes are unavailable: 16 Insufficient nvidia.com/gpu."));
    const PlacementResult five = place(*freeNodes(5), request);
    QVERIFY2(five.feasible, five.message.c_str());
    QCOMPARE(qs(five.message), QStringLiteral("the job is ready: 5 of 5 pods placed (minAvailable 4 of 5 pods "
                                              "(tasks: task-1 1 of 2))"));
}

TOPODECK_TEST_APPLESS_MAIN(TestVolcano)
#include "test_volcano.moc"
