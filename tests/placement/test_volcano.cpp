// The volcano engine: Volcano's allocate action with the network-topology-aware plugin. Tier
// limits (hard, soft, by name), the binpack choice among HyperNodes of a tier and its ties,
// partitions, predicates (taints, cordons, selectors, NotReady) and Volcano's FitError wording.
#include "core/placement/placement_engine.h"
#include "core/placement/volcano_engine.h"

#include "placement_support.h"

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

PlacementResult place(const TestCluster& cluster, const GangRequest& request, EngineOptions options = {}) {
    return volcanoEngine().place(*cluster.cluster, request, options);
}

QString nodesOf(const PlacementResult& result) {
    QStringList out;
    for (const NodePods& n : result.nodes) out << qs(n.node + (n.pods == 1 ? "" : "x" + std::to_string(n.pods)));
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

QTEST_APPLESS_MAIN(TestVolcano)
#include "test_volcano.moc"
