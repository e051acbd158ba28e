// Slurm's node selection without a topology (topology/flat), as both Slurm engines run it on a
// cluster with no topology.conf / topology.yaml and no label level above the node. Each row's
// expected nodes were traced by hand through SchedMD's code: 22.05 job_test.c (choose_nodes,
// _eval_nodes, _select_cores, _cpus_to_use) and 26.05 common_topo.c / eval_nodes.c
// (common_topo_choose_nodes, _eval_nodes_consec); the comment above each row says how.
// A set counts its nodes' free CPUs (a GPU job with a task count, -n or --ntasks-per-node, at most
// its tasks' CPUs per node: gres_select_filter_sock_core). Rows marked "real" were also checked on
// Debian's Slurm 22.05.8 with TopologyPlugin=topology/none, by `sbatch --test-only` or, for -w,
// by submitting the job; nodes outside a fixture were excluded with -x.
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/slurm_block_engine.h"
#include "core/placement/engines/slurm_flat_selection.h"
#include "core/placement/engines/slurm_tree_engine.h"
#include "core/placement/requests/sbatch_args.h"
#include "core/slurm/slurm_topology.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QTest>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

struct Fixture {
    std::vector<std::string> levelKeys; // empty: no hierarchy
    std::vector<TestNode> nodes;
    std::vector<std::pair<std::string, std::uint32_t>> weights;
    bool flatTopology = false; // a topology.yaml saying `flat: true`
};

TestNode freeNode(const std::string& name, int freeCpus = 64, int gpus = 8) {
    TestNode n;
    n.name = name;
    n.gpus = gpus;
    n.usedCpus = 64 - freeCpus;
    return n;
}

TestNode busyNode(const std::string& name) {
    TestNode n = freeNode(name, 0);
    n.usedGpus = 8;
    return n;
}

std::string tux(int i) {
    return "tux" + std::to_string(i);
}

// tux0-tux7, all free.
Fixture idle() {
    Fixture f;
    for (int i = 0; i < 8; ++i) f.nodes.push_back(freeNode(tux(i)));
    return f;
}

// Free runs of 3, 5, 2 and 1 nodes: tux[0-2], tux[4-8], tux[10-11], tux13; tux3, tux9, tux12 busy.
Fixture runs() {
    Fixture f;
    for (int i = 0; i < 14; ++i) f.nodes.push_back(i == 3 || i == 9 || i == 12 ? busyNode(tux(i)) : freeNode(tux(i)));
    return f;
}

// tux[0-2] with 8 free CPUs each, tux3 busy, tux[4-5] with 64 free CPUs each.
Fixture cpuRuns() {
    Fixture f;
    for (int i = 0; i < 3; ++i) f.nodes.push_back(freeNode(tux(i), 8));
    f.nodes.push_back(busyNode(tux(3)));
    for (int i = 4; i < 6; ++i) f.nodes.push_back(freeNode(tux(i)));
    return f;
}

// idle(); tux[0-3] Weight=10, tux[4-7] Weight=1.
Fixture weighted() {
    Fixture f = idle();
    for (int i = 0; i < 8; ++i) f.weights.emplace_back(tux(i), i < 4 ? 10 : 1);
    return f;
}

// idle(); even nodes Weight=1, odd nodes Weight=5: every node is a set of its own.
Fixture alternating() {
    Fixture f = idle();
    for (int i = 0; i < 8; ++i) f.weights.emplace_back(tux(i), i % 2 == 0 ? 1 : 5);
    return f;
}

// tux0-tux3 with 8, 2, 16 and 4 free CPUs.
Fixture uneven() {
    Fixture f;
    const int freeCpus[] = {8, 2, 16, 4};
    for (int i = 0; i < 4; ++i) f.nodes.push_back(freeNode(tux(i), freeCpus[i]));
    return f;
}

// tux0-tux2 with 4, 10 and 10 free CPUs.
Fixture knapsack() {
    Fixture f;
    const int freeCpus[] = {4, 10, 10};
    for (int i = 0; i < 3; ++i) f.nodes.push_back(freeNode(tux(i), freeCpus[i]));
    return f;
}

// tux0-tux5 free, except 2 of tux1's 8 GPUs in use.
Fixture partly() {
    Fixture f;
    for (int i = 0; i < 6; ++i) f.nodes.push_back(freeNode(tux(i)));
    f.nodes[1].usedGpus = 2;
    return f;
}

// tux[0-1] with 4 GPUs, tux[2-3] with 8, all free.
Fixture gpuMix() {
    Fixture f;
    for (int i = 0; i < 4; ++i) f.nodes.push_back(freeNode(tux(i), 64, i < 2 ? 4 : 8));
    return f;
}

// tux0 with 64 free CPUs, tux1 with 3.
Fixture cpuSkew() {
    Fixture f;
    f.nodes = {freeNode(tux(0)), freeNode(tux(1), 3)};
    return f;
}

// idle() with tux0 NotReady.
Fixture oneDown() {
    Fixture f = idle();
    f.nodes[0].ready = false;
    return f;
}

// idle() labelled with racks, but the Slurm topology is topology/flat.
Fixture flatYaml() {
    Fixture f = idle();
    f.levelKeys = {"example.com/rack"};
    for (int i = 0; i < 8; ++i) f.nodes[static_cast<std::size_t>(i)].levelValues = {"rack-" + std::to_string(i / 4)};
    f.flatTopology = true;
    return f;
}

// idle() whose only level is kubernetes.io/hostname.
Fixture hostnameOnly() {
    Fixture f = idle();
    f.levelKeys = {"kubernetes.io/hostname"};
    for (TestNode& n : f.nodes) n.levelValues = {n.name};
    return f;
}

std::unique_ptr<TestCluster> build(const Fixture& fixture) {
    auto cluster = makeTestCluster(fixture.levelKeys, fixture.nodes);
    if (fixture.flatTopology) {
        auto topology = std::make_shared<SlurmTopology>();
        topology->name = "flat";
        topology->kind = SlurmTopology::Kind::Flat;
        cluster->cluster->setSlurmTopology(topology);
    }
    for (const auto& [name, weight] : fixture.weights)
        cluster->cluster->setNodeWeight(*cluster->state.findNode(name), weight);
    return cluster;
}

GangRequest sbatch(const char* line) {
    Result<GangRequest> gang = parseSbatchLine(line);
    if (!gang) qFatal("%s: %s", line, gang.error().message.c_str());
    return *gang;
}

GangRequest podsOnly(std::int32_t pods, int gpusPerPod) {
    GangRequest g;
    g.pods = pods;
    g.perPod = gpus(gpusPerPod);
    return g;
}

EngineOptions optionsFor(const char* version) {
    EngineOptions options;
    options.slurmVersion = *SlurmVersion::parse(version);
    return options;
}

constexpr const char* kNew = "26.05.3";
constexpr const char* kOld = "22.05.8";
constexpr const char* kNever = "Requested node configuration is not available";
constexpr const char* kDown =
    "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions";

struct Case {
    const char* name;
    Fixture (*fixture)();
    GangRequest request;
    const char* version;
    bool feasible;
    const char* nodes; // comma-separated, in order
    const char* message = "";
    const char* engine = "slurm-tree";
    bool invalid = false;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> table = {
        // One set tux[0-7] fits; rem_nodes 4 > 1, so nodes are taken in node-table order.
        {"idle -N 4: the first four", idle, sbatch("-N 4 --gres=gpu:8"), kNew, true, "tux0,tux1,tux2,tux3"},
        {"idle -N 4: the first four (22.05)", idle, sbatch("-N 4 --gres=gpu:8"), kOld, true, "tux0,tux1,tux2,tux3"},
        {"idle -N 4 on slurm-block", idle, sbatch("-N 4 --gres=gpu:8"), kNew, true, "tux0,tux1,tux2,tux3", "",
         "slurm-block"},
        // A gang without sbatch flags is -N 3 --gres=gpu:8: the first three.
        {"gang without sbatch flags", idle, podsOnly(3, 8), kNew, true, "tux0,tux1,tux2"},

        // Best fit. Sets of 64-CPU nodes: A tux[0-2] 192 CPUs, B tux[4-8] 320, C tux[10-11] 128,
        // D tux13 64. -N 2 (real): A, B, C fit; C has the fewest CPUs.
        {"-N 2: the smallest run that fits", runs, sbatch("-N 2 --gres=gpu:8"), kNew, true, "tux10,tux11"},
        // -N 3 (real): A and B fit; A is tighter (192 < 320).
        {"-N 3: the run of 3", runs, sbatch("-N 3 --gres=gpu:8"), kNew, true, "tux0,tux1,tux2"},
        // -N 4 (real): A is first (does not fit), B fits and replaces it; C and D do not fit and are
        // smaller.
        {"-N 4: the only run that fits", runs, sbatch("-N 4 --gres=gpu:8"), kOld, true, "tux4,tux5,tux6,tux7"},
        // -N 7 (real): nothing fits, so the set with the most CPUs (B) is taken whole; for the
        // remaining 2, A and C fit and C is tighter.
        {"-N 7: the largest run first, then the tightest", runs, sbatch("-N 7 --gres=gpu:8"), kNew, true,
         "tux4,tux5,tux6,tux7,tux8,tux10,tux11"},
        // -N 1 (real): every set fits; D has the fewest CPUs.
        {"-N 1: the one-node run", runs, sbatch("-N 1 --gres=gpu:8"), kNew, true, "tux13"},
        // -N 2-4 (real): rem_nodes = 4, but a set fits with 2 (_enough_nodes). C (the tightest) gives
        // 2; then no more are required, so every set fits and D (64) is the tightest; with one node
        // left, A's first node is the best single node.
        {"-N 2-4: up to 4 nodes, tightest sets first", runs, sbatch("-N 2-4 --gres=gpu:8"), kNew, true,
         "tux0,tux10,tux11,tux13"},
        // A tux[0-2] counts 24 CPUs, B tux[4-5] 128. -N 2 (real): both fit, A is tighter by CPUs, not
        // nodes; a GPU job the same (no task count, so every free CPU counts).
        {"CPU-only -N 2: tightest by CPUs, not nodes", cpuRuns, sbatch("-N 2"), kNew, true, "tux0,tux1"},
        {"GPU -N 2: tightest by CPUs too", cpuRuns, sbatch("-N 2 --gres=gpu:8"), kNew, true, "tux0,tux1"},
        // -N 3 (real): A fits, but B does not fit and has more CPUs (128 > 24), which displaces a set
        // that fits; B is taken whole, then the best single node of A.
        {"CPU-only -N 3: a larger set that does not fit displaces one that does", cpuRuns, sbatch("-N 3"), kNew, true,
         "tux0,tux4,tux5"},
        {"CPU-only -N 3, 22.05", cpuRuns, sbatch("-N 3"), kOld, true, "tux0,tux4,tux5"},

        // Weights end a set; the lighter set wins before any fit (real, --test-only and submitted).
        {"Weight: the lighter run", weighted, sbatch("-N 2 --gres=gpu:8"), kNew, true, "tux4,tux5"},
        // Every node its own set: round 1 the first light node (none fits), round 2 the next light
        // one (lighter than tux1, as tight as tux4 and earlier). Real, with six nodes.
        {"Weight: light single nodes before heavy ones", alternating, sbatch("-N 2 --gres=gpu:8"), kNew, true,
         "tux0,tux2"},
        // --contiguous does not split sets by weight: one set, taken in order (real).
        {"--contiguous ignores weights", weighted, sbatch("-N 2 --gres=gpu:8 --contiguous"), kNew, true, "tux0,tux1"},

        // -w tux5 (real) counts first (rem 2). B holds it and replaces A, but C fits with fewer CPUs
        // (128 < 256) and replaces B: a set with -w nodes wins over sets without, not over a tighter
        // fit. (--test-only looks at the -w nodes only and prints allocation failure.)
        {"-w: a tighter run elsewhere still wins", runs, sbatch("-N 3 --gres=gpu:8 -w tux5"), kNew, true,
         "tux5,tux10,tux11"},
        // -w tux5 (real), rem 3: only A (first) and B fit; B holds -w; nodes are taken up from tux5.
        {"-w: nodes up from the required node", runs, sbatch("-N 4 --gres=gpu:8 -w tux5"), kNew, true,
         "tux5,tux6,tux7,tux8"},
        // tux3 is busy: not in node_map, so the job waits (it fits once tux3 is free).
        {"-w a busy node", runs, sbatch("-N 2 --gres=gpu:8 -w tux3"), kNew, false, "", "Resources"},
        // -x tux11 (real) leaves C as tux10 alone; A is then the tightest fit.
        {"-x", runs, sbatch("-N 2 --gres=gpu:8 -x tux11"), kNew, true, "tux0,tux1"},
        {"unknown -w node", idle, sbatch("-N 1 -w nope"), kNew, false, "", "Invalid node name specified: nope",
         "slurm-tree", true},

        // --exclusive (real): tux1 (2 GPUs in use) is out, leaving tux0 and tux[2-5]; the latter fits.
        {"--exclusive skips a shared node", partly, sbatch("-N 2 --gres=gpu:4 --exclusive"), kNew, true, "tux2,tux3"},
        {"without --exclusive the shared node counts", partly, sbatch("-N 2 --gres=gpu:4"), kNew, true, "tux0,tux1"},
        // --exclusive: near_gpu_cnt is every GPU of the node, so the 8-GPU nodes weigh less and form
        // a set of their own, which wins; without it near_gpu_cnt is 4 everywhere.
        {"--exclusive: more GPUs weigh less", gpuMix, sbatch("-N 2 --gres=gpu:4 --exclusive"), kNew, true, "tux2,tux3"},
        {"without --exclusive GPU counts do not matter", gpuMix, sbatch("-N 2 --gres=gpu:4"), kNew, true, "tux0,tux1"},

        // -n without -N (real): 1 node wanted (req_nodes = min_nodes), up to 10 (num_tasks). One node
        // left to choose: the one with the fewest CPUs that covers 10 is tux2 (16).
        {"-n 10: the single tightest node", uneven, sbatch("-n 10"), kNew, true, "tux2"},
        // No node has 20 (real): nodes in order, tux0 8, tux1 2, tux2 16 trimmed to the last 10.
        {"-n 20: nodes in order until the CPUs are covered", uneven, sbatch("-n 20"), kNew, true, "tux0,tux1,tux2"},
        // -N 2 (real): tux0 counts 8; then only a node with the other 12 may be the last one: tux1
        // (2) is skipped, tux2 (16) taken.
        {"-N 2 -n 20: the last node must cover the rest", uneven, sbatch("-N 2 -n 20"), kNew, true, "tux0,tux2"},
        // -N 2 -n 20 (real): tux0 counts 4, then neither 10 covers 16: the pass fails. The retries
        // drop tux0 (fewest CPUs), and tux1 + tux2 cover 20.
        {"-N 2 -n 20: the retry without the small node", knapsack, sbatch("-N 2 -n 20"), kNew, true, "tux1,tux2"},
        {"-N 2 -n 20: the retry without the small node (22.05)", knapsack, sbatch("-N 2 -n 20"), kOld, true,
         "tux1,tux2"},
        // -n 2 --gres=gpu:8 (22.05 real): 22.05 counts tux0's 64 CPUs and tux1's 3, and best-fits
        // tux1; 25.11+ caps a node's tasks at the job's 2, so both count 2 and the first fits exactly.
        {"-n 2 GPU job 22.05: the node with fewer CPUs", cpuSkew, sbatch("-n 2 --gres=gpu:8"), kOld, true, "tux1"},
        {"-n 2 GPU job 26.05: the first node", cpuSkew, sbatch("-n 2 --gres=gpu:8"), kNew, true, "tux0"},

        // Not now (real: a later start): 11 nodes free for 12; all 14 once running jobs end.
        {"does not fit now, would when idle", runs, sbatch("-N 12 --gres=gpu:8"), kNew, false, "", "Resources"},
        // --contiguous (real: a later start): no run of 7 now (the largest is 5); 14 once idle.
        {"--contiguous: no run of 7 now", runs, sbatch("-N 7 --gres=gpu:8 --contiguous"), kNew, false, "", "Resources"},
        // (real: allocation failure)
        {"never fits", runs, sbatch("-N 15 --gres=gpu:8"), kNew, false, "", kNever},
        {"needs a DOWN node", oneDown, sbatch("-N 8 --gres=gpu:8"), kNew, false, "", kDown},

        // Options only other plugins read.
        {"--switches ignored", idle, sbatch("-N 4 --gres=gpu:8 --switches=1@10:00"), kNew, true, "tux0,tux1,tux2,tux3"},
        {"--segment ignored", idle, sbatch("-N 4 --gres=gpu:8 --segment=2"), kNew, true, "tux0,tux1,tux2,tux3", "",
         "slurm-block"},

        // What counts as no topology: topology/flat in topology.yaml whatever the labels, or a
        // hostname level only (which used to make every node its own switch).
        {"topology.yaml flat", flatYaml, sbatch("-N 2 --gres=gpu:8"), kNew, true, "tux0,tux1"},
        {"topology.yaml flat on slurm-block", flatYaml, sbatch("-N 2 --gres=gpu:8"), kNew, true, "tux0,tux1", "",
         "slurm-block"},
        {"hostname level only", hostnameOnly, sbatch("-N 3 --gres=gpu:8"), kNew, true, "tux0,tux1,tux2"},
        {"hostname level only on slurm-block", hostnameOnly, sbatch("-N 3 --gres=gpu:8"), kNew, true, "tux0,tux1,tux2",
         "", "slurm-block"},
    };
    return table;
}

const PlacementEngine& engineNamed(const std::string& name) {
    return name == "slurm-block" ? slurmBlockEngine() : slurmTreeEngine();
}

bool hasNote(const PlacementResult& result, const std::string& prefix) {
    return std::any_of(result.notes.begin(), result.notes.end(),
                       [&prefix](const std::string& note) { return note.rfind(prefix, 0) == 0; });
}

constexpr const char* kFlatNote = "no topology: Slurm's topology/flat node selection (select/cons_tres _eval_nodes: "
                                  "best fit over runs of consecutive nodes in node-table order, lowest Weight first)";

} // namespace

class TestSlurmFlat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void placement_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name) << static_cast<int>(i);
    }

    void placement() {
        QFETCH(int, index);
        const Case& c = cases()[static_cast<std::size_t>(index)];
        const auto cluster = build(c.fixture());
        const PlacementEngine& engine = engineNamed(c.engine);
        QVERIFY(engine.unavailableReason(*cluster->cluster, c.request).empty());
        const PlacementResult result = engine.place(*cluster->cluster, c.request, optionsFor(c.version));
        const std::string message = c.feasible ? "would start now on " + std::to_string(result.nodes.size()) +
                                                     (result.nodes.size() == 1 ? " node: " : " nodes: ")
                                               : std::string(c.message);
        const bool messageMatches = c.feasible ? result.message.starts_with(message) : result.message == message;
        if (joinNodes(result) != c.nodes || !messageMatches) qWarning("%s", dump(result).c_str());
        QCOMPARE(result.engine, std::string(c.engine));
        QCOMPARE(result.invalidRequest, c.invalid);
        QCOMPARE(result.feasible, c.feasible);
        QCOMPARE(joinNodes(result), std::string(c.nodes));
        QVERIFY2(messageMatches, (result.message + " / expected " + message).c_str());
        if (!c.invalid) QVERIFY2(hasNote(result, kFlatNote), dump(result).c_str());
        for (const NodePods& n : result.nodes) QCOMPARE(n.pods, 1);
        QVERIFY(result.trace.size() <= EngineOptions{}.maxTraceEntries + 1);
    }

    // The notes a flat placement carries, word for word.
    void notes() {
        const auto cluster = build(idle());
        const PlacementResult result = slurmTreeEngine().place(
            *cluster->cluster, sbatch("-N 4 --gres=gpu:8 --switches=1 --segment=2"), optionsFor(kNew));
        QVERIFY2(result.feasible, dump(result).c_str());
        QCOMPARE(result.message, std::string("would start now on 4 nodes: tux[0-3]"));
        QCOMPARE(result.notes.front(), std::string(kFlatNote));
        QVERIFY2(hasNote(result, "no topology.conf or topology.yaml, and no label level above the node to derive "
                                 "switches or blocks from"),
                 dump(result).c_str());
        QVERIFY2(hasNote(result, "--switches ignored: Slurm counts leaf switches only with topology/tree, so the job "
                                 "never waits for switches here"),
                 dump(result).c_str());
        QVERIFY2(hasNote(result, "--segment ignored: only topology/block (and, since 26.05, ring and torus3d) read "
                                 "it; Slurm keeps it on the job and places the job as a whole"),
                 dump(result).c_str());
        QVERIFY2(hasNote(result, "sbatch --test-only prints: Job <id> to start at <now> using 4 processors on nodes "
                                 "tux[0-3]"),
                 dump(result).c_str());
        QVERIFY2(hasNote(result, "Slurm 26.05.3 default node selection"), dump(result).c_str());

        // 22.05's sbatch has no --segment; its retries go by CPU+GPU thresholds.
        const PlacementResult old =
            slurmTreeEngine().place(*cluster->cluster, sbatch("-N 4 --gres=gpu:8 --segment=2"), optionsFor(kOld));
        QVERIFY2(hasNote(old, "--segment ignored: sbatch before Slurm 24.05 has no --segment option"),
                 dump(old).c_str());
        QVERIFY2(hasNote(old, "Slurm 22.05.8 default node selection"), dump(old).c_str());
        QVERIFY2(old.notes[2].find("fewest CPUs+GPUs are dropped in rising steps") != std::string::npos,
                 dump(old).c_str());

        // --exclusive counts whole nodes; -n counts its tasks' CPUs.
        const PlacementResult exclusive =
            slurmTreeEngine().place(*cluster->cluster, sbatch("-N 2 --gres=gpu:8 --exclusive"), optionsFor(kNew));
        QVERIFY2(hasNote(exclusive, "sbatch --test-only prints: Job <id> to start at <now> using 128 processors"),
                 dump(exclusive).c_str());
        const auto unevenCluster = build(uneven());
        const PlacementResult tasks =
            slurmTreeEngine().place(*unevenCluster->cluster, sbatch("-n 20"), optionsFor(kNew));
        QVERIFY2(hasNote(tasks, "-n 20: 20 CPUs in all, on 1 to 4 nodes with 1 free CPU or more each"),
                 dump(tasks).c_str());
        QVERIFY2(hasNote(tasks, "sbatch --test-only prints: Job <id> to start at <now> using 20 processors"),
                 dump(tasks).c_str());

        // Not now, and why.
        const auto runsCluster = build(runs());
        const PlacementResult later =
            slurmTreeEngine().place(*runsCluster->cluster, sbatch("-N 12 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(hasNote(later, "not now: 11 nodes can take the job, 12 needed"), dump(later).c_str());
        QVERIFY2(hasNote(later, "sbatch --test-only prints a later start time"), dump(later).c_str());
        const PlacementResult contiguous =
            slurmTreeEngine().place(*runsCluster->cluster, sbatch("-N 7 --gres=gpu:8 --contiguous"), optionsFor(kNew));
        QVERIFY2(hasNote(contiguous, "not now: no run of consecutive free nodes holds the job (--contiguous)"),
                 dump(contiguous).c_str());

        // Weights: --test-only honours them here (checked on 22.05.8), unlike its topology/tree runs.
        const auto weightedCluster = build(weighted());
        const PlacementResult weights =
            slurmBlockEngine().place(*weightedCluster->cluster, sbatch("-N 2 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(!hasNote(weights, "node weights differ"), dump(weights).c_str());
        QVERIFY2(hasNote(weights, "sbatch --test-only prints: Job <id> to start at <now> using 2 processors on nodes "
                                  "tux[4-5]"),
                 dump(weights).c_str());
        QVERIFY2(hasNote(weights, "the Slurm topology") == false, dump(weights).c_str());

        // -w with more nodes: --test-only looks at the -w nodes alone.
        const PlacementResult required =
            slurmTreeEngine().place(*runsCluster->cluster, sbatch("-N 3 --gres=gpu:8 -w tux5"), optionsFor(kNew));
        QVERIFY2(hasNote(required, "sbatch --test-only looks at the -w nodes alone and prints: allocation failure"),
                 dump(required).c_str());
        const auto yamlCluster = build(flatYaml());
        const PlacementResult yaml =
            slurmBlockEngine().place(*yamlCluster->cluster, sbatch("-N 2 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(hasNote(yaml, "the Slurm topology \"flat\" is topology/flat"), dump(yaml).c_str());
    }

    // Result shape: one hostname level, the sets the nodes came from, the rounds in the trace.
    void resultShape() {
        const auto cluster = build(runs());
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, sbatch("-N 7 --gres=gpu:8"), optionsFor(kNew));
        QCOMPARE(result.assignment.levels, (std::vector<std::string>{"kubernetes.io/hostname"}));
        QCOMPARE(result.assignment.domains.size(), std::size_t{7});
        QCOMPARE(result.assignment.domains[0], (TopologyAssignment::Domain{{"tux4"}, 1}));
        QCOMPARE(result.chosen.size(), std::size_t{2});
        QCOMPARE(result.chosen[0], (ChosenDomain{"node set", "tux[4-8]"}));
        QCOMPARE(result.chosen[1], (ChosenDomain{"node set", "tux[10-11]"}));
        const auto traced = [&result](const std::string& domain, const std::string& piece) {
            return std::any_of(result.trace.begin(), result.trace.end(), [&](const TraceEntry& e) {
                return e.domain == domain && e.reason.find(piece) != std::string::npos;
            });
        };
        QVERIFY2(traced("", "node_map: 11 of 14 nodes can take the job (3 with fewer than 8 free GPUs)"),
                 dump(result).c_str());
        QVERIFY2(traced("tux[0-2]", "3 nodes, 192 CPUs, Weight 1"), dump(result).c_str());
        QVERIFY2(traced("tux[4-8]", "round 1: chosen, does not fit but has more CPUs (320 > 192); does not fit "
                                    "the remaining 7 nodes and 7 CPUs; took tux[4-8]"),
                 dump(result).c_str());
        QVERIFY2(traced("tux[10-11]", "round 2: chosen, the tightest fit (128 < 192 CPUs); fits the remaining 2 "
                                      "nodes and 2 CPUs; took tux[10-11]"),
                 dump(result).c_str());

        // A retry says so.
        const auto knapsackCluster = build(knapsack());
        const PlacementResult retried =
            slurmTreeEngine().place(*knapsackCluster->cluster, sbatch("-N 2 -n 20"), optionsFor(kNew));
        QVERIFY2(hasNote(retried, "the first pass failed (the consecutive node sets ran out with 1 node and 16 CPUs "
                                  "still needed); Slurm's retry 2 without low-resource nodes found this allocation"),
                 dump(retried).c_str());
    }

    void traceIsBounded() {
        Fixture f;
        for (int i = 0; i < 400; ++i) f.nodes.push_back(i % 2 == 0 ? freeNode(tux(i)) : busyNode(tux(i)));
        const auto cluster = build(f);
        EngineOptions options = optionsFor(kNew);
        options.maxTraceEntries = 10;
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, sbatch("-N 150 --gres=gpu:8"), options);
        QVERIFY2(result.feasible, dump(result).c_str());
        QCOMPARE(result.nodes.size(), std::size_t{150});
        QCOMPARE(result.nodes.back().node, std::string("tux298"));
        QCOMPARE(result.trace.size(), std::size_t{11});
        QVERIFY(result.trace.back().reason.find("more trace entries not shown") != std::string::npos);
    }

    // Untraced rounds in which no set fits take their winner from a tree instead of the scan; on
    // fragmented clusters with mixed weights, CPUs and GPUs both give the same nodes.
    void untracedRoundsAgree() {
        std::uint32_t seed = 12345;
        const auto next = [&seed](std::uint32_t bound) {
            seed = seed * 1103515245u + 12345u;
            return (seed >> 16) % bound;
        };
        for (int trial = 0; trial < 6; ++trial) {
            Fixture f;
            for (int i = 0; i < 300; ++i) {
                TestNode n = freeNode(tux(i), static_cast<int>(next(65)));
                n.usedGpus = static_cast<int>(next(4) == 0 ? 8 : next(3) == 0 ? 2 : 0);
                f.nodes.push_back(n);
                f.weights.emplace_back(tux(i), trial % 2 == 0 ? 1 : 1 + next(3));
            }
            const auto cluster = build(f);
            for (const char* line :
                 {"-N 1 --gres=gpu:8", "-N 5 --gres=gpu:8", "-N 40 --gres=gpu:8", "-N 120 --gres=gpu:8", "-N 30",
                  "-N 10-60 --gres=gpu:4", "-n 500", "-N 20 -n 700", "-N 30 --gres=gpu:8 --exclusive"}) {
                const GangRequest request = sbatch(line);
                EngineOptions untraced = optionsFor(trial < 3 ? kNew : kOld);
                untraced.maxTraceEntries = 0;
                const PlacementResult traced =
                    slurmTreeEngine().place(*cluster->cluster, request, optionsFor(trial < 3 ? kNew : kOld));
                const PlacementResult quick = slurmTreeEngine().place(*cluster->cluster, request, untraced);
                const std::string what = std::string(line) + " in trial " + std::to_string(trial);
                QVERIFY2(joinNodes(traced) == joinNodes(quick), what.c_str());
                QVERIFY2(traced.message == quick.message, what.c_str());
            }
        }
    }

    // What is not flat: a label hierarchy (slurm-tree derives switches), NVLink domains (slurm-block
    // derives blocks), a tree topology; and --contiguous on a tree, which Slurm leaves to the
    // default selection.
    void notFlat() {
        Fixture racks = idle();
        racks.levelKeys = {"example.com/rack"};
        for (int i = 0; i < 8; ++i) racks.nodes[static_cast<std::size_t>(i)].levelValues = {i < 4 ? "r0" : "r1"};
        const auto labelled = build(racks);
        QVERIFY(!slurmTopologyIsFlat(*labelled->cluster));
        const PlacementResult tree =
            slurmTreeEngine().place(*labelled->cluster, sbatch("-N 2 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(!hasNote(tree, kFlatNote), dump(tree).c_str());

        Fixture nvlink = idle();
        for (int i = 0; i < 8; ++i)
            nvlink.nodes[static_cast<std::size_t>(i)].extraLabels = {{"nvidia.com/gpu.clique", i < 4 ? "c0" : "c1"}};
        auto withNvlink = makeTestCluster({}, nvlink.nodes);
        TopologySpec spec;
        spec.nvlinkLabel = "nvidia.com/gpu.clique";
        withNvlink->cluster.reset();
        withNvlink->index = std::make_unique<TopologyIndex>(TopologyIndex::build(withNvlink->state, spec));
        withNvlink->cluster = std::make_unique<PlacementCluster>(withNvlink->state, *withNvlink->index);
        QVERIFY(slurmTopologyIsFlat(*withNvlink->cluster));
        QVERIFY(!slurmTopologyIsFlat(*withNvlink->cluster, true));
        const PlacementResult blocks =
            slurmBlockEngine().place(*withNvlink->cluster, sbatch("-N 2 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(blocks.feasible && !hasNote(blocks, kFlatNote), dump(blocks).c_str());

        // A tree topology: s0 tux[0-3], s1 tux[4-7], tux2 busy. --contiguous takes the first run that
        // fits, tux[3-5], across the two leaves.
        Fixture busy = idle();
        busy.nodes[2] = busyNode(tux(2));
        const auto treeCluster = build(busy);
        auto topology = std::make_shared<SlurmTopology>();
        topology->switches = {SlurmSwitch{"s0", {}, {"tux0", "tux1", "tux2", "tux3"}},
                              SlurmSwitch{"s1", {}, {"tux4", "tux5", "tux6", "tux7"}},
                              SlurmSwitch{"top", {"s0", "s1"}, {}}};
        treeCluster->cluster->setSlurmTopology(topology);
        QVERIFY(!slurmTopologyIsFlat(*treeCluster->cluster));
        const PlacementResult contiguous =
            slurmTreeEngine().place(*treeCluster->cluster, sbatch("-N 3 --gres=gpu:8 --contiguous"), optionsFor(kNew));
        QCOMPARE(joinNodes(contiguous), std::string("tux3,tux4,tux5"));
        QVERIFY2(hasNote(contiguous, "--contiguous: topology/tree leaves the job to Slurm's default node selection"),
                 dump(contiguous).c_str());
        const PlacementResult switched =
            slurmTreeEngine().place(*treeCluster->cluster, sbatch("-N 3 --gres=gpu:8"), optionsFor(kNew));
        QVERIFY2(!hasNote(switched, kFlatNote) && switched.feasible, dump(switched).c_str());
        QVERIFY(joinNodes(switched) != "tux3,tux4,tux5");
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestSlurmFlat)
#include "test_slurm_flat.moc"
