// slurm-tree on task-count requests (-n) over nodes with unequal free CPUs, for the 22.05 rules
// (cons_tres job_test.c: _eval_nodes_topo, _topo_compare_switches, _cpus_to_use, choose_nodes) and
// the 26.05 rules (topology/tree eval_nodes_tree.c, topology/common eval_nodes.c and
// common_topo.c: common_topo_choose_nodes) side by side. Every expected node list was traced by
// hand through that code; each row's comment gives the trace.
//
// What both versions share: a -n N job without -N has rem_nodes 1, rem_cpus N and may take up to N
// nodes; a node is in node_map when it can run one task (its avail_cpus = free CPUs, counted in
// whole tasks with -c); the leaf's nodes are taken in node-table order, each giving at most what
// the job still needs (_cpus_to_use). What differs: 22.05 compares switches by node counts only
// (rem_nodes is 1, so every leaf "fits" and the leaf with the fewest nodes wins); 26.05 needs the
// switch's CPU sum (its nodes' avail_cpus, summed once) to cover rem_cpus for the top switch and
// for "fits", and after a failed pass the two retry differently.
#include "core/placement/engines/slurm_tree_engine.h"
#include "core/placement/requests/sbatch_args.h"
#include "core/slurm/slurm_topology.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QTest>

#include <memory>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

constexpr int kCpusPerNode = 16;

struct CpuNode {
    std::string name;
    std::string leaf;
    int freeCpus = kCpusPerNode;
    std::uint32_t weight = 1;
};

struct Fixture {
    std::vector<CpuNode> nodes; // in node-table (name) order
    std::vector<SlurmSwitch> switches;
};

SlurmSwitch leafSwitch(const std::string& name, std::vector<std::string> nodes) {
    return SlurmSwitch{name, {}, std::move(nodes)};
}
SlurmSwitch upperSwitch(const std::string& name, std::vector<std::string> children) {
    return SlurmSwitch{name, std::move(children), {}};
}

// Leaf A = a1, a2 and leaf B = b1 under the root R.
Fixture leavesAB(int a1, int a2, int b1) {
    Fixture f;
    f.nodes = {{"a1", "A", a1}, {"a2", "A", a2}, {"b1", "B", b1}};
    f.switches = {leafSwitch("A", {"a1", "a2"}), leafSwitch("B", {"b1"}), upperSwitch("R", {"A", "B"})};
    return f;
}
Fixture example1() {
    return leavesAB(4, 4, 8);
}
Fixture example2() {
    return leavesAB(8, 8, 4);
}
Fixture example3() {
    return leavesAB(4, 4, 10);
}

// Spine S2 holds leaf L3 = y1 (6 free); spine S1 holds L1 = x1 and L2 = x2 (4 free each); L3 comes
// first in topology.conf.
Fixture spines() {
    Fixture f;
    f.nodes = {{"x1", "L1", 4}, {"x2", "L2", 4}, {"y1", "L3", 6}};
    f.switches = {leafSwitch("L3", {"y1"}),        leafSwitch("L1", {"x1"}),  leafSwitch("L2", {"x2"}),
                  upperSwitch("S1", {"L1", "L2"}), upperSwitch("S2", {"L3"}), upperSwitch("R", {"S1", "S2"})};
    return f;
}

// Two leaves without a common switch: Y = tux1 (2 free), tux2, tux3 (8 each), then X = tux4-6
// (2 free each).
Fixture disjoint() {
    Fixture f;
    f.nodes = {{"tux1", "Y", 2}, {"tux2", "Y", 8}, {"tux3", "Y", 8},
               {"tux4", "X", 2}, {"tux5", "X", 2}, {"tux6", "X", 2}};
    f.switches = {leafSwitch("Y", {"tux1", "tux2", "tux3"}), leafSwitch("X", {"tux4", "tux5", "tux6"})};
    return f;
}

// b1 (4 free) has Weight=1, a1 and a2 (8 free each) Weight=10.
Fixture weighted() {
    Fixture f = leavesAB(8, 8, 4);
    f.nodes[0].weight = f.nodes[1].weight = 10;
    return f;
}

// As weighted(), with 8 free on b1.
Fixture weightedFull() {
    Fixture f = weighted();
    f.nodes[2].freeCpus = 8;
    return f;
}

// Leaf B = b1, b2 (2 free each) comes first in topology.conf; leaf A = a1, a2 (8 free each).
Fixture smallLeafFirst() {
    Fixture f;
    f.nodes = {{"a1", "A", 8}, {"a2", "A", 8}, {"b1", "B", 2}, {"b2", "B", 2}};
    f.switches = {leafSwitch("B", {"b1", "b2"}), leafSwitch("A", {"a1", "a2"}), upperSwitch("R", {"A", "B"})};
    return f;
}

// Leaf A = a1, a2 (1 free each), a3 (8 free); leaf B = b1 (4 free).
Fixture lowNodesFirst() {
    Fixture f;
    f.nodes = {{"a1", "A", 1}, {"a2", "A", 1}, {"a3", "A", 8}, {"b1", "B", 4}};
    f.switches = {leafSwitch("A", {"a1", "a2", "a3"}), leafSwitch("B", {"b1"}), upperSwitch("R", {"A", "B"})};
    return f;
}

// Leaf A = a1 (2 free), a2 (6 free); leaf B = b1, b2 (4 free each).
Fixture unevenPair() {
    Fixture f;
    f.nodes = {{"a1", "A", 2}, {"a2", "A", 6}, {"b1", "B", 4}, {"b2", "B", 4}};
    f.switches = {leafSwitch("A", {"a1", "a2"}), leafSwitch("B", {"b1", "b2"}), upperSwitch("R", {"A", "B"})};
    return f;
}

Fixture oddCpus() {
    return leavesAB(5, 3, 7);
}

std::unique_ptr<TestCluster> build(const Fixture& fixture) {
    std::vector<TestNode> nodes;
    for (const CpuNode& spec : fixture.nodes) {
        TestNode n = testNode(spec.name, {spec.leaf}, 0);
        n.cpus = kCpusPerNode;
        n.usedCpus = kCpusPerNode - spec.freeCpus;
        nodes.push_back(n);
    }
    auto cluster = makeTestCluster({"example.com/leaf"}, nodes);
    auto topology = std::make_shared<SlurmTopology>();
    topology->switches = fixture.switches;
    cluster->cluster->setSlurmTopology(topology);
    for (const CpuNode& spec : fixture.nodes)
        if (spec.weight != 1) cluster->cluster->setNodeWeight(*cluster->state.findNode(spec.name), spec.weight);
    return cluster;
}

// What one version answers: "a1,b1" (starts now on those nodes), or "!" and Slurm's reason.
constexpr const char* kTopoInsufficient = "!Insufficient resources in topology unit";
constexpr const char* kResources = "!Resources";
constexpr const char* kNever = "!Requested node configuration is not available";

struct Case {
    const char* name;
    Fixture (*fixture)();
    const char* sbatch;
    const char* v2205; // Slurm 22.05.8
    const char* v2605; // Slurm 26.05.3
    // Optionally one more release whose rules sit between the two.
    const char* otherVersion = nullptr;
    const char* other = nullptr;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> table = {
        // Example 1: A = 2 x 4 free, B = 1 x 8, -n 8. Top switch R (the highest level; 26.05: 16 CPUs
        // >= 8). 22.05: both leaves have >= 1 node, B has fewer nodes -> b1 gives 8 -> done.
        // 26.05: A (2 nodes, 8 CPUs) and B (1, 8) both fit; fewer nodes wins -> B -> b1.
        {"example 1: -n 8, A 2x4, B 1x8", example1, "-n 8", "b1", "b1"},
        // Example 2: A = 2 x 8, B = 1 x 4, -n 8. 22.05: B has fewer nodes -> b1 gives 4 (rem_cpus 4,
        // rem_nodes 0); next round only A: a1 is capped to the 4 still needed -> done.
        // 26.05: B's 4 CPUs < 8 do not fit, A's 16 do -> A -> a1 gives 8 -> done.
        {"example 2: -n 8, A 2x8, B 1x4", example2, "-n 8", "a1,b1", "a1"},
        // Example 3: A = 2 x 4, B = 1 x 10, -n 12. 22.05: B (fewer nodes) -> b1 gives 10; then A:
        // a1 capped to 2 -> done. 26.05: neither fits 12 CPUs (A 8, B 10), same parent, so more
        // nodes wins -> A: a1 4, a2 4 (rem 4); then B: b1 capped to 4 -> done. Top R has 18 >= 12.
        {"example 3: -n 12, A 2x4, B 1x10, neither leaf fits", example3, "-n 12", "a1,b1", "a1,a2,b1"},
        // Neither leaf fits and their spines differ: 26.05 climbs to the spines. Candidates in
        // topology.conf order L3, L1, L2: L1 vs L3 -> S1 (8 CPUs) fits 8, S2 (6) does not -> L1;
        // L2 ties with L1 -> x1 gives 4; round 2: L2 (distance 2, fits the 4 left) beats L3 (4) ->
        // x2 -> done. 22.05: every leaf has 1 node (ties keep the first, L3) -> y1 gives 6; round 2:
        // L1 and L2 are both at distance 4, L1 first -> x1 capped to 2 -> done.
        {"spines decide when no leaf fits", spines, "-n 8", "x1,y1", "x1,x2"},
        // Top switch short of CPUs: Y (18 CPUs) and X (6), no common switch, -n 10. 26.05: X cannot
        // be the top switch (6 < 10), Y can -> tux1 gives 2, tux2 8 -> done. 22.05: both have
        // nodes, equal levels go to the later switch -> X; its 6 CPUs are not enough, the pass
        // fails; choose_nodes retries: count 1 removes nothing (fails again), count 2 removes the
        // 2-CPU nodes tux1, tux4, tux5, tux6 -> only Y has nodes -> tux2 8, tux3 capped to 2.
        // 24.05.3 already has the CPU test for the top switch.
        {"top switch short of CPUs", disjoint, "-n 10", "tux2,tux3", "tux1,tux2", "24.05.3", "tux1,tux2"},
        // No switch has 20 free CPUs (Y 18, X 6). 26.05: no top switch, BREAK, no retry: "Insufficient
        // resources in topology unit" (all 6 nodes idle would hold it). 22.05: X, not enough; the
        // retries (without the 2-CPU nodes: Y's 16) fail too -> Resources.
        {"no switch has the CPUs", disjoint, "-n 20", kResources, kTopoInsufficient},
        // The whole cluster is short (R 18 < 20): as above in both, the retries of 22.05 end
        // at -N's minimum of 1 node.
        {"the root is short of CPUs", example3, "-n 20", kResources, kTopoInsufficient},
        // 3 nodes of 16 CPUs cannot hold 100 even when free: sbatch rejects the job.
        {"more CPUs than the nodes have", example3, "-n 100", kNever, kNever},
        // Weights: b1 (Weight=1, 4 free) is taken first in both, though A alone could hold the job.
        // The first weight group (b1: 4 CPUs) is short of 8, so a1, a2 are added and b1 is forced
        // (gives 4); its leaf B has nothing more; then A: a1 capped to 4 -> done. The top switch is
        // R, the highest holding the lightest node (26.05: B alone has 4 < 8 CPUs).
        {"weights force the light node", weighted, "-n 8", "a1,b1", "a1,b1"},
        // -N 1-3 -n 8 with b1 (Weight=1, 8 free): rem_nodes 3 (req_nodes = -N max), min 1. 22.05
        // stops adding weight groups once the minimum is covered: b1 alone (8 CPUs, 1 node) ->
        // b1 gives 8 -> min_rem_nodes 0, rem_cpus 0 -> done on 1 node. 26.05 adds groups until the
        // requested 3 nodes: b1 is forced (8), then A: a1 and a2 give 1 each (the cap keeps them
        // at pn_min_cpus once nothing is needed) -> rem_nodes 0 -> 3 nodes.
        {"weights with -N 1-3 -n 8", weightedFull, "-N 1-3 -n 8", "b1", "a1,a2,b1"},
        // -N with -n: -N 2 -n 16 (rem_nodes 2, max_nodes 2). 26.05: B (2 nodes, 4 CPUs) does not
        // fit 16, A (2, 16) does -> a1 8 (capped at 16 - 1 reserved for the second node: 15), a2 8
        // -> done. 22.05: both leaves have 2 nodes, a tie keeps B (first in topology.conf) -> b1 2,
        // b2 2 -> max_nodes reached with 12 CPUs short; the pass fails. Retry count 1 (no change)
        // fails; count 2 removes b1, b2 (down to -N's 2 nodes) -> A -> a1, a2.
        {"-N 2 -n 16: 22.05 gets there by its retry", smallLeafFirst, "-N 2 -n 16", "a1,a2", "a1,a2"},
        // -N 2 -n 10 on A = a1 (1), a2 (1), a3 (8) and B = b1 (4): both versions first take a1, a2
        // (A fits: 3 nodes, and in 26.05 10 CPUs) and hit max_nodes with 8 CPUs short. 22.05 retries
        // at count 1 without a1, a2. 26.05 (RETRY_HINT) drops the weakest node it took, one per
        // pass: without a1, A (a2, a3: 9 CPUs) no longer fits, B neither, A has more nodes -> a2, a3
        // and max_nodes again; without a1, a2, A and B tie at 1 node, A comes first -> a3 gives 8
        // (at most 10 - 1 kept for the second node), then B: b1 capped to the 2 left -> done. Both
        // end on a3, b1; 24.05.3 retries as 22.05 does.
        {"-N 2 -n 10: both retry after max_nodes", lowNodesFirst, "-N 2 -n 10", "a3,b1", "a3,b1", "24.05.3", "a3,b1"},
        // -N 2 -n 8: a node only needs to run one task, not 8/2. A (a1 2, a2 6) and B (4, 4) both
        // have 2 nodes and 8 CPUs, a tie keeps A -> a1 gives 2 (cap 7), a2 6 -> done.
        {"-N 2 -n 8: a node with 2 free CPUs takes part", unevenPair, "-N 2 -n 8", "a1,a2", "a1,a2"},
        // -N 1 -n 8: every task on one node, so only b1 (8 free) is in node_map. 22.05 best-fits
        // its leaf; 26.05 takes the first usable node of a one-node job.
        {"-N 1 -n 8 needs one node with 8", example1, "-N 1 -n 8", "b1", "b1"},
        // -n 1 is a one-node job (max_nodes 1): 22.05 best-fits the leaf with fewest nodes (B ->
        // b1); 26.05 (implicit max_nodes = num_tasks = 1) takes the first usable node, a1.
        {"-n 1 is a one-node job", example2, "-n 1", "b1", "a1"},
        // -n 4 -c 2 (8 CPUs, a node needs 2): avail_cpus count whole tasks: a1 5 -> 4, a2 3 -> 2,
        // b1 7 -> 6. 26.05: A (6) and B (6) both short of 8; same parent, more nodes -> A: a1 4,
        // a2 2 -> rem 2; B: b1 capped to 2 -> done. 22.05: B has fewer nodes -> b1 gives 6; then
        // A: a1 capped to 2 -> done.
        {"-n 4 -c 2 counts whole tasks", oddCpus, "-n 4 -c 2", "a1,b1", "a1,a2,b1"},
    };
    return table;
}

EngineOptions optionsFor(const char* version) {
    EngineOptions options;
    options.slurmVersion = *SlurmVersion::parse(version);
    return options;
}

GangRequest request(const char* line) {
    Result<GangRequest> gang = parseSbatchLine(line);
    if (!gang) qFatal("%s: %s", line, gang.error().message.c_str());
    return *gang;
}

PlacementResult place(const Fixture& fixture, const char* line, const char* version) {
    const auto cluster = build(fixture);
    return slurmTreeEngine().place(*cluster->cluster, request(line), optionsFor(version));
}

void check(const Case& c, const char* version, const char* expected) {
    const PlacementResult result = place(c.fixture(), c.sbatch, version);
    const std::string expect(expected);
    const std::string context = std::string(version) + " on " + c.sbatch + "\n" + dump(result);
    QVERIFY2(!result.invalidRequest, context.c_str());
    if (expect.starts_with('!')) {
        QVERIFY2(!result.feasible, context.c_str());
        QVERIFY2(result.message == expect.substr(1), context.c_str());
        return;
    }
    QVERIFY2(result.feasible, context.c_str());
    QVERIFY2(joinNodes(result) == expect, (joinNodes(result) + " / expected " + expect + "\n" + context).c_str());
    QVERIFY2(result.message.starts_with("would start now on "), context.c_str());
}

bool hasNote(const PlacementResult& result, const std::string& text) {
    for (const std::string& note : result.notes)
        if (note == text) return true;
    return false;
}

const TraceEntry* findTrace(const PlacementResult& result, const std::string& domain, const std::string& containing) {
    for (const TraceEntry& entry : result.trace)
        if (entry.domain == domain && entry.reason.find(containing) != std::string::npos) return &entry;
    return nullptr;
}

} // namespace

class TestSlurmTreeTasks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void taskCounts_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name) << static_cast<int>(i);
    }

    void taskCounts() {
        QFETCH(int, index);
        const Case& c = cases()[static_cast<std::size_t>(index)];
        check(c, "22.05.8", c.v2205);
        check(c, "26.05.3", c.v2605);
        if (c.otherVersion) check(c, c.otherVersion, c.other);
    }

    // The request as sbatch reads it.
    void sbatchCarriesTheTaskCount() {
        const GangRequest spread = request("-n 12 -c 2");
        QVERIFY(spread.slurm.has_value());
        QCOMPARE(spread.slurm->ntasks, 12);
        QCOMPARE(spread.slurm->cpusPerTask, 2);
        QVERIFY(!spread.slurm->nodeCountGiven);
        const GangRequest withNodes = request("-N 2-4 -n 8");
        QCOMPARE(withNodes.slurm->ntasks, 8);
        QVERIFY(withNodes.slurm->nodeCountGiven);
        // Tasks pinned per node keep the per-node reading.
        QCOMPARE(request("-n 64 --ntasks-per-node=8").slurm->ntasks, 0);
        QCOMPARE(request("-N 2").slurm->ntasks, 0);
    }

    // What the result says besides the nodes.
    void notesAndTrace() {
        const PlacementResult newer = place(example2(), "-n 8", "26.05.3");
        QVERIFY2(hasNote(newer, "-n 8: 8 CPUs in all, on up to 8 nodes with 1 free CPU or more each"),
                 dump(newer).c_str());
        QVERIFY2(hasNote(newer, "sbatch --test-only prints: Job <id> to start at <now> using 8 processors on "
                                "nodes a1"),
                 dump(newer).c_str());
        QVERIFY2(findTrace(newer, "B",
                           "round 1: A wins at distance 0: A fits the remaining 1 node and 8 CPUs (2 nodes, 16 "
                           "CPUs), B does not (1 node, 4 CPUs)"),
                 dump(newer).c_str());

        // 22.05 spreads over two leaves; the job still uses 8 processors (b1 4, a1 capped to 4).
        const PlacementResult older = place(example2(), "-n 8", "22.05.8");
        QVERIFY2(hasNote(older, "sbatch --test-only prints: Job <id> to start at <now> using 8 processors on "
                                "nodes a1,b1"),
                 dump(older).c_str());
        QCOMPARE(older.chosen.size(), std::size_t{3});
        QCOMPARE(older.chosen[1], (ChosenDomain{"switch level 0", "B"}));
        QCOMPARE(older.chosen[2], (ChosenDomain{"switch level 0", "A"}));

        // 26.05 climbs to the spines when neither leaf fits.
        const PlacementResult climbed = place(spines(), "-n 8", "26.05.3");
        QVERIFY2(findTrace(climbed, "L1",
                           "beats L3 at distance 0: level-1 ancestor S1 fits the remaining 1 node and 8 CPUs (2 "
                           "nodes, 8 CPUs), S2 does not (1 node, 6 CPUs)"),
                 dump(climbed).c_str());
        const PlacementResult neither = place(example3(), "-n 12", "26.05.3");
        QVERIFY2(findTrace(neither, "B",
                           "neither A nor B fits the remaining 1 node and 12 CPUs (2 nodes, 8 CPUs; 1 node, 10 "
                           "CPUs); more nodes: 2 > 1"),
                 dump(neither).c_str());
    }

    void retriesAreTraced() {
        const PlacementResult older = place(disjoint(), "-n 10", "22.05.8");
        QVERIFY2(findTrace(older, "", "the 3 usable nodes under X (6 CPUs) are not enough"), dump(older).c_str());
        QVERIFY2(findTrace(older, "", "retry 2, without tux[1,4-6] (at most 2 CPUs): fits; that pass follows"),
                 dump(older).c_str());
        QVERIFY2(hasNote(older, "the first pass failed; Slurm found this allocation on its retry 2, without "
                                "tux[1,4-6] (at most 2 CPUs)"),
                 dump(older).c_str());

        const PlacementResult newer = place(lowNodesFirst(), "-N 2 -n 10", "26.05.3");
        QVERIFY2(findTrace(newer, "",
                           "retry 1, on the same nodes: fails: the maximum node count was reached with 8 "
                           "CPUs still needed"),
                 dump(newer).c_str());
        QVERIFY2(findTrace(newer, "", "retry 2, without a1: fails"), dump(newer).c_str());
        QVERIFY2(findTrace(newer, "", "retry 3, without a[1-2]: fits"), dump(newer).c_str());

        // A 26.05 failure that only fewer nodes could not mend is not retried.
        const PlacementResult none = place(disjoint(), "-n 20", "26.05.3");
        QVERIFY2(!findTrace(none, "", "retry"), dump(none).c_str());
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestSlurmTreeTasks)
#include "test_slurm_tree_tasks.moc"
