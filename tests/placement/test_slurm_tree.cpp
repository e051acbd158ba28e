// slurm-tree engine: scheduler-semantics §2.2 (24.05.3+) and §2.2b (22.05 up to 24.05.2). Each
// row's expected nodes were traced by hand through Slurm's code (22.05 job_test.c
// _eval_nodes_topo, current eval_nodes_tree.c); the comments say how.
#include "core/placement/engines/slurm_tree_engine.h"
#include "core/slurm/slurm_topology.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QTest>

#include <functional>
#include <memory>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

// ---- fixtures --------------------------------------------------------------------------------

struct Fixture {
    std::vector<TestNode> nodes;
    std::vector<SlurmSwitch> switches; // empty: the engine derives the tree from the labels
    std::vector<std::pair<std::string, std::uint32_t>> weights;
    std::vector<std::string> drained;
};

TestNode node(const std::string& name, const std::string& leaf, int usedGpus = 0) {
    TestNode n;
    n.name = name;
    n.levelValues = {leaf};
    n.usedGpus = usedGpus;
    return n;
}

std::vector<std::string> names(const std::string& prefix, int from, int to, int width = 0) {
    std::vector<std::string> out;
    for (int i = from; i <= to; ++i) {
        std::string number = std::to_string(i);
        while (static_cast<int>(number.size()) < width) number.insert(number.begin(), '0');
        out.push_back(prefix + number);
    }
    return out;
}

SlurmSwitch leafSwitch(const std::string& name, std::vector<std::string> nodes) {
    return SlurmSwitch{name, {}, std::move(nodes)};
}
SlurmSwitch upperSwitch(const std::string& name, std::vector<std::string> children) {
    return SlurmSwitch{name, std::move(children), {}};
}

// §2.2's worked example: s0 tux[0-3], s1 tux[4-7], s2 tux[8-11] under s3; tux2, tux3, tux11 busy.
Fixture worked() {
    Fixture f;
    for (int i = 0; i < 12; ++i) {
        const bool busy = i == 2 || i == 3 || i == 11;
        f.nodes.push_back(node("tux" + std::to_string(i), "s" + std::to_string(i / 4), busy ? 8 : 0));
    }
    f.switches = {leafSwitch("s0", names("tux", 0, 3)), leafSwitch("s1", names("tux", 4, 7)),
                  leafSwitch("s2", names("tux", 8, 11)), upperSwitch("s3", {"s0", "s1", "s2"})};
    return f;
}

Fixture workedAllFree() {
    Fixture f = worked();
    for (TestNode& n : f.nodes) n.usedGpus = 0;
    return f;
}

Fixture workedDerived() {
    Fixture f = worked();
    f.switches.clear();
    return f;
}

// Two spines: b1 gpu-[01-02] under B; a1 gpu-[03-06] and a2 gpu-[07-09] under A; root R.
// Round 1 takes a1; in round 2 a2 is closer (2 < 4) but looser (3 > 2 nodes) than b1.
Fixture closer() {
    Fixture f;
    for (const std::string& n : names("gpu-", 1, 2, 2)) f.nodes.push_back(node(n, "b1"));
    for (const std::string& n : names("gpu-", 3, 6, 2)) f.nodes.push_back(node(n, "a1"));
    for (const std::string& n : names("gpu-", 7, 9, 2)) f.nodes.push_back(node(n, "a2"));
    f.switches = {leafSwitch("b1", names("gpu-", 1, 2, 2)),
                  leafSwitch("a1", names("gpu-", 3, 6, 2)),
                  leafSwitch("a2", names("gpu-", 7, 9, 2)),
                  upperSwitch("A", {"a1", "a2"}),
                  upperSwitch("B", {"b1"}),
                  upperSwitch("R", {"A", "B"})};
    return f;
}

// As closer() with a2 = gpu-[07-08]. -N 7: round 1 takes a1 (4); in round 2 neither a2 nor b1
// fits the remaining 3, so both climb to their spines: 22.05 still counts a1's taken nodes on A
// (6 >= 3, a2 wins); 24.05.3+ has A at 2, a tie with B, and keeps b1.
Fixture ancestor() {
    Fixture f;
    for (const std::string& n : names("gpu-", 1, 2, 2)) f.nodes.push_back(node(n, "b1"));
    for (const std::string& n : names("gpu-", 3, 6, 2)) f.nodes.push_back(node(n, "a1"));
    for (const std::string& n : names("gpu-", 7, 8, 2)) f.nodes.push_back(node(n, "a2"));
    f.switches = {leafSwitch("b1", names("gpu-", 1, 2, 2)),
                  leafSwitch("a1", names("gpu-", 3, 6, 2)),
                  leafSwitch("a2", names("gpu-", 7, 8, 2)),
                  upperSwitch("A", {"a1", "a2"}),
                  upperSwitch("B", {"b1"}),
                  upperSwitch("R", {"A", "B"})};
    return f;
}

// s0 tux[0-3] free; s1 tux[4-7] with only tux7 free; root s2.
Fixture oneFree() {
    Fixture f;
    for (int i = 0; i < 8; ++i)
        f.nodes.push_back(node("tux" + std::to_string(i), i < 4 ? "s0" : "s1", i >= 4 && i < 7 ? 8 : 0));
    f.switches = {leafSwitch("s0", names("tux", 0, 3)), leafSwitch("s1", names("tux", 4, 7)),
                  upperSwitch("s2", {"s0", "s1"})};
    return f;
}

// All free; tux0, tux4 and tux5 have Weight=1, the rest Weight=10.
Fixture weighted() {
    Fixture f = workedAllFree();
    for (int i = 0; i < 12; ++i) f.weights.emplace_back("tux" + std::to_string(i), i == 0 || i == 4 || i == 5 ? 1 : 10);
    return f;
}

// tux0 has 2 of its 8 GPUs in use.
Fixture partlyUsed() {
    Fixture f = oneFree();
    for (TestNode& n : f.nodes) n.usedGpus = n.name == "tux0" ? 2 : 0;
    return f;
}

// s0: tux0 NotReady, tux1 cordoned, tux2 drained in the what-if, tux3 half used; s1 free;
// s2: tux8 with one GPU in use.
Fixture unhealthy() {
    Fixture f = workedAllFree();
    f.nodes[0].ready = false;
    f.nodes[1].cordoned = true;
    f.drained = {"tux2"};
    f.nodes[3].usedGpus = 4;
    f.nodes[8].usedGpus = 1;
    return f;
}

// Two leaves without a common switch: s0 tux[0-3] and s1 tux[4-7], tux3 and tux7 busy.
Fixture disjoint() {
    Fixture f;
    for (int i = 0; i < 8; ++i)
        f.nodes.push_back(node("tux" + std::to_string(i), i < 4 ? "s0" : "s1", i == 3 || i == 7 ? 8 : 0));
    f.switches = {leafSwitch("s0", names("tux", 0, 3)), leafSwitch("s1", names("tux", 4, 7))};
    return f;
}

Fixture oneDown() {
    Fixture f = workedAllFree();
    f.nodes[0].ready = false;
    return f;
}

// tux0 and tux1 have 2 of 64 CPUs free.
Fixture cpuShort() {
    Fixture f = oneFree();
    for (TestNode& n : f.nodes) {
        n.usedGpus = 0;
        n.usedCpus = n.name == "tux0" || n.name == "tux1" ? 62 : 0;
    }
    return f;
}

Fixture cycle() {
    Fixture f = worked();
    f.switches = {leafSwitch("s0", names("tux", 0, 11)), upperSwitch("x", {"y"}), upperSwitch("y", {"x"})};
    return f;
}

Fixture badChild() {
    Fixture f = worked();
    f.switches.back() = upperSwitch("s3", {"s0", "s9"});
    return f;
}

std::unique_ptr<TestCluster> build(const Fixture& fixture) {
    auto cluster = makeTestCluster({"example.com/leaf"}, fixture.nodes);
    if (!fixture.switches.empty()) {
        auto topology = std::make_shared<SlurmTopology>();
        topology->switches = fixture.switches;
        cluster->cluster->setSlurmTopology(topology);
    }
    for (const auto& [name, weight] : fixture.weights)
        cluster->cluster->setNodeWeight(*cluster->state.findNode(name), weight);
    for (const std::string& name : fixture.drained) cluster->cluster->drain(*cluster->state.findNode(name));
    return cluster;
}

// ---- requests --------------------------------------------------------------------------------

SlurmRequest sbatch(std::int32_t minNodes, std::int32_t maxNodes = 0) {
    SlurmRequest request;
    request.minNodes = minNodes;
    request.maxNodes = maxNodes > 0 ? maxNodes : minNodes;
    request.gpusPerNode = 8;
    return request;
}

SlurmRequest withSwitches(SlurmRequest request, std::int32_t count, std::int64_t waitSeconds = -1) {
    request.switches = count;
    request.switchesWaitSeconds = waitSeconds;
    return request;
}

SlurmRequest withNodes(SlurmRequest request, std::vector<std::string> required,
                       std::vector<std::string> excluded = {}) {
    request.requiredNodes = std::move(required);
    request.excludedNodes = std::move(excluded);
    return request;
}

SlurmRequest with(SlurmRequest request, const std::function<void(SlurmRequest&)>& change) {
    change(request);
    return request;
}

GangRequest gang(const SlurmRequest& request) {
    GangRequest g;
    g.pods = request.minNodes;
    g.perPod = gpus(request.gpusPerNode);
    g.slurm = request;
    return g;
}

GangRequest podsOnly(std::int32_t pods, int gpusPerPod) {
    GangRequest g;
    g.pods = pods;
    g.perPod = gpus(gpusPerPod);
    return g;
}

constexpr const char* kNever = "Requested node configuration is not available";
constexpr const char* kWait5 = "would wait up to 5:00 for 1 switch, else place on 2 switches";

struct Case {
    const char* name;
    Fixture (*fixture)();
    GangRequest request;
    const char* version;
    bool feasible;
    const char* nodes; // comma-separated, in order
    const char* message;
    std::int64_t maxSwitchWait = 300;
    bool invalid = false;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> table = {
        // §2.2 worked example. -N3: s1 (4) and s2 (3) both fit, the tighter s2 wins.
        {"worked N3 22.05", worked, gang(sbatch(3)), "22.05.8", true, "tux8,tux9,tux10", ""},
        {"worked N3 26.05", worked, gang(sbatch(3)), "26.05.3", true, "tux8,tux9,tux10", ""},
        // -N6: no leaf fits, the largest (s1) is taken; then s0 (2) is tighter than s2 (3).
        {"worked N6 22.05", worked, gang(sbatch(6)), "22.05.8", true, "tux0,tux1,tux4,tux5,tux6,tux7", ""},
        {"worked N6 26.05", worked, gang(sbatch(6)), "26.05.3", true, "tux0,tux1,tux4,tux5,tux6,tux7", ""},
        // --switches=1@10: pending up to the wait, then the two-leaf allocation.
        {"worked N6 switches=1@10:00", worked, gang(withSwitches(sbatch(6), 1, 600)), "22.05.8", true,
         "tux0,tux1,tux4,tux5,tux6,tux7", "would wait up to 10:00 for 1 switch, else place on 2 switches", 3600},
        {"worked N6 switches=1 default wait", worked, gang(withSwitches(sbatch(6), 1)), "26.05.3", true,
         "tux0,tux1,tux4,tux5,tux6,tux7", kWait5},
        {"worked N6 switches=1@1h capped by max_switch_wait", worked, gang(withSwitches(sbatch(6), 1, 3600)), "22.05.8",
         true, "tux0,tux1,tux4,tux5,tux6,tux7", kWait5},
        {"worked N6 switches=2", worked, gang(withSwitches(sbatch(6), 2)), "22.05.8", true,
         "tux0,tux1,tux4,tux5,tux6,tux7", ""},
        {"worked N3 switches=1", worked, gang(withSwitches(sbatch(3), 1)), "22.05.8", true, "tux8,tux9,tux10", ""},
        {"worked N6 switches=1@0 does not wait", worked, gang(withSwitches(sbatch(6), 1, 0)), "22.05.8", true,
         "tux0,tux1,tux4,tux5,tux6,tux7", ""},

        // §2.2b closer leaf: 22.05 needs the closer a2 to be no looser than b1; 24.05.3+ takes it.
        {"closer leaf 22.05", closer, gang(sbatch(6)), "22.05.8", true, "gpu-01,gpu-02,gpu-03,gpu-04,gpu-05,gpu-06",
         ""},
        {"closer leaf 24.05.2", closer, gang(sbatch(6)), "24.05.2", true, "gpu-01,gpu-02,gpu-03,gpu-04,gpu-05,gpu-06",
         ""},
        {"closer leaf 24.05.3", closer, gang(sbatch(6)), "24.05.3", true, "gpu-03,gpu-04,gpu-05,gpu-06,gpu-07,gpu-08",
         ""},
        {"closer leaf 26.05", closer, gang(sbatch(6)), "26.05.3", true, "gpu-03,gpu-04,gpu-05,gpu-06,gpu-07,gpu-08",
         ""},
        // §2.2b ancestor counts: 22.05 sees spine A fuller than it is.
        {"ancestor counts 22.05", ancestor, gang(sbatch(7)), "22.05.8", true,
         "gpu-01,gpu-03,gpu-04,gpu-05,gpu-06,gpu-07,gpu-08", ""},
        {"ancestor counts 24.05.3", ancestor, gang(sbatch(7)), "24.05.3", true,
         "gpu-01,gpu-02,gpu-03,gpu-04,gpu-05,gpu-06,gpu-07", ""},
        {"ancestor counts 26.05", ancestor, gang(sbatch(7)), "26.05.3", true,
         "gpu-01,gpu-02,gpu-03,gpu-04,gpu-05,gpu-06,gpu-07", ""},
        // §2.2b one-node jobs: best fit (s1 has 1 node) before 26.05, first usable node since.
        {"-N 1 22.05 best-fits a leaf", oneFree, gang(sbatch(1)), "22.05.8", true, "tux7", ""},
        {"-N 1 24.05.3 best-fits a leaf", oneFree, gang(sbatch(1)), "24.05.3", true, "tux7", ""},
        {"-N 1 26.05 first usable node", oneFree, gang(sbatch(1)), "26.05.3", true, "tux0", ""},
        // §2.2b --switches with a node range: 22.05 waits; 23.02+ retries with 5, then 4 nodes (s1).
        {"range over switches 22.05 waits", worked, gang(withSwitches(sbatch(4, 6), 1)), "22.05.8", true,
         "tux0,tux1,tux4,tux5,tux6,tux7", kWait5},
        {"range over switches 23.02 lowers", worked, gang(withSwitches(sbatch(4, 6), 1)), "23.02.7", true,
         "tux4,tux5,tux6,tux7", ""},
        {"range over switches 26.05 lowers", worked, gang(withSwitches(sbatch(4, 6), 1)), "26.05.3", true,
         "tux4,tux5,tux6,tux7", ""},
        // §2.2b weight groups with a range: 22.05 stops at the minimum (3 light nodes); 26.x adds the
        // heavy group, forces the light nodes and fills their leaf s0 first.
        {"weights with a range 22.05", weighted, gang(sbatch(3, 5)), "22.05.8", true, "tux0,tux4,tux5", ""},
        {"weights with a range 26.05", weighted, gang(sbatch(3, 5)), "26.05.3", true, "tux0,tux1,tux2,tux4,tux5", ""},
        // Lower weights are always used first: the three light nodes are forced, then s0 is filled.
        {"weights force light nodes 22.05", weighted, gang(sbatch(4)), "22.05.8", true, "tux0,tux1,tux4,tux5", ""},
        {"weights force light nodes 26.05", weighted, gang(sbatch(4)), "26.05.3", true, "tux0,tux1,tux4,tux5", ""},

        // Required nodes: their leaf is filled first.
        {"required node fills its leaf", worked, gang(withNodes(sbatch(3), {"tux9"})), "22.05.8", true,
         "tux8,tux9,tux10", ""},
        {"required node busy 22.05", worked, gang(withNodes(sbatch(2), {"tux2"})), "22.05.8", false, "", "Resources"},
        {"required node busy 26.05", worked, gang(withNodes(sbatch(2), {"tux2"})), "26.05.3", false, "",
         "Required nodes lack available resources"},
        {"required nodes on two leaves, switches=1", worked,
         gang(withSwitches(withNodes(sbatch(2), {"tux0", "tux4"}), 1)), "22.05.8", true, "tux0,tux4", kWait5},
        {"required nodes without a common switch", disjoint, gang(withNodes(sbatch(2), {"tux0", "tux4"})), "26.05.3",
         false, "", kNever},
        {"excluded node", worked, gang(withNodes(sbatch(3), {}, {"tux9"})), "22.05.8", true, "tux4,tux5,tux6", ""},

        // Eligibility: --exclusive needs idle nodes; NotReady, cordoned, drained, fragmented are out.
        {"partly used node counts without --exclusive", partlyUsed,
         gang(with(sbatch(3), [](SlurmRequest& r) { r.gpusPerNode = 4; })), "22.05.8", true, "tux0,tux1,tux2", ""},
        {"--exclusive skips the partly used node", partlyUsed,
         gang(with(sbatch(3),
                   [](SlurmRequest& r) {
                       r.gpusPerNode = 4;
                       r.exclusive = true;
                   })),
         "22.05.8", true, "tux1,tux2,tux3", ""},
        {"NotReady, cordoned, drained, fragmented", unhealthy, gang(sbatch(3)), "26.05.3", true, "tux9,tux10,tux11",
         ""},
        {"CPU-limited nodes drop out with -c 4", cpuShort,
         gang(with(sbatch(2), [](SlurmRequest& r) { r.cpusPerNode = 4; })), "22.05.8", true, "tux2,tux3", ""},
        {"CPU-limited nodes count with one CPU", cpuShort, gang(sbatch(2)), "26.05.3", true, "tux0,tux1", ""},

        // Top switch: equal levels go to the later switch in topology.conf.
        {"top switch tie goes to the later switch", disjoint, gang(sbatch(3)), "22.05.8", true, "tux4,tux5,tux6", ""},
        // Failures: no switch holds 4 free nodes now (each had 4 once free).
        {"no top switch 22.05", disjoint, gang(sbatch(4)), "22.05.8", false, "", "Resources"},
        {"no top switch 26.05", disjoint, gang(sbatch(4)), "26.05.3", false, "",
         "Insufficient resources in topology unit"},
        {"needs a DOWN node", oneDown, gang(sbatch(12)), "22.05.8", false, "",
         "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"},
        {"more nodes than exist", worked, gang(sbatch(13)), "22.05.8", false, "", kNever},
        {"more GPUs than a node has", worked, gang(with(sbatch(2), [](SlurmRequest& r) { r.gpusPerNode = 16; })),
         "26.05.3", false, "", kNever},
        {"more memory than a node has", worked,
         gang(with(sbatch(1), [](SlurmRequest& r) { r.memoryPerNodeMiB = 2 * 1024 * 1024; })), "22.05.8", false, "",
         kNever},

        // Inputs: a gang without sbatch flags, a tree from the labels.
        {"request derived from the gang", worked, podsOnly(3, 8), "22.05.8", true, "tux8,tux9,tux10", ""},
        {"tree derived from the labels", workedDerived, gang(sbatch(3)), "22.05.8", true, "tux8,tux9,tux10", ""},
        {"-N 0", worked, gang(sbatch(0)), "22.05.8", false, "", "Node count specification invalid", 300, true},
        {"unknown node", worked, gang(withNodes(sbatch(1), {"nope"})), "22.05.8", false, "",
         "Invalid node name specified: nope", 300, true},
        {"switch cycle", cycle, gang(sbatch(1)), "22.05.8", false, "", "Switch configuration is not a tree", 300, true},
        {"unknown child switch", badChild, gang(sbatch(1)), "22.05.8", false, "",
         "Switch configuration s3 has invalid child (s9)", 300, true},
    };
    return table;
}

EngineOptions optionsFor(const char* version, std::int64_t maxSwitchWait = 300) {
    EngineOptions options;
    options.slurmVersion = *SlurmVersion::parse(version);
    options.maxSwitchWaitSeconds = maxSwitchWait;
    return options;
}

const TraceEntry* findTrace(const PlacementResult& result, const std::string& domain, const std::string& containing) {
    for (const TraceEntry& entry : result.trace)
        if (entry.domain == domain && entry.reason.find(containing) != std::string::npos) return &entry;
    return nullptr;
}

} // namespace

class TestSlurmTree : public QObject {
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
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, c.request, optionsFor(c.version, c.maxSwitchWait));
        // Slurm says nothing when a job starts now; topodeck's line then names the nodes.
        const std::string message = c.feasible && std::string_view(c.message).empty()
                                        ? "would start now on " + std::to_string(result.nodes.size()) +
                                              (result.nodes.size() == 1 ? " node: " : " nodes: ")
                                        : std::string(c.message);
        const bool messageMatches =
            message.starts_with("would start now") ? result.message.starts_with(message) : result.message == message;
        if (joinNodes(result) != c.nodes || !messageMatches) qWarning("%s", dump(result).c_str());
        QCOMPARE(result.engine, std::string("slurm-tree"));
        QCOMPARE(result.invalidRequest, c.invalid);
        QCOMPARE(result.feasible, c.feasible);
        QCOMPARE(joinNodes(result), std::string(c.nodes));
        QVERIFY2(messageMatches, (result.message + " / expected " + message).c_str());
        for (const NodePods& n : result.nodes) QCOMPARE(n.pods, 1);
        QVERIFY(result.trace.size() <= EngineOptions{}.maxTraceEntries + 1);
    }

    void workedExampleDetails() {
        const auto cluster = build(worked());
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, gang(sbatch(6)), optionsFor("22.05.8"));
        QCOMPARE(result.chosen.size(), std::size_t{3});
        QCOMPARE(result.chosen[0], (ChosenDomain{"switch level 1", "s3"}));
        QCOMPARE(result.chosen[1], (ChosenDomain{"switch level 0", "s1"}));
        QCOMPARE(result.chosen[2], (ChosenDomain{"switch level 0", "s0"}));
        QCOMPARE(result.assignment.levels, (std::vector<std::string>{"leaf switch", "kubernetes.io/hostname"}));
        QCOMPARE(result.assignment.domains.size(), std::size_t{6});
        QCOMPARE(result.assignment.domains[0], (TopologyAssignment::Domain{{"s0", "tux0"}, 1}));
        QCOMPARE(result.assignment.domains[5], (TopologyAssignment::Domain{{"s1", "tux7"}, 1}));
        // Round 1: nothing fits 6, the largest leaf wins; round 2: s0 is the tighter fit.
        QVERIFY2(findTrace(result, "s1", "round 1: chosen"), dump(result).c_str());
        QVERIFY2(findTrace(result, "s2",
                           "round 1: s1 wins at distance 0: neither s1 nor s2 fits the remaining 6 nodes; "
                           "more available: 4 > 3"),
                 dump(result).c_str());
        QVERIFY2(findTrace(result, "s2", "round 2: s0 wins at distance 2: s0 is a tighter fit: 2 < 3 nodes"),
                 dump(result).c_str());
        QVERIFY2(findTrace(result, "s3", "top switch"), dump(result).c_str());
        QVERIFY2(findTrace(result, "", "node_map: 9 of 12 nodes can take the job (3 with fewer than 8 free GPUs)"),
                 dump(result).c_str());
        bool testOnly = false;
        for (const std::string& note : result.notes)
            testOnly = testOnly || note ==
                                       "sbatch --test-only prints: Job <id> to start at <now> using 6 processors on "
                                       "nodes tux[0-1,4-7]";
        QVERIFY2(testOnly, dump(result).c_str());
    }

    void closerLeafTrace() {
        const auto cluster = build(closer());
        const PlacementResult newer =
            slurmTreeEngine().place(*cluster->cluster, gang(sbatch(6)), optionsFor("26.05.3"));
        QVERIFY2(findTrace(newer, "a2",
                           "round 2: chosen, closer than b1: distance 2 < 4, and it fits the remaining 2 nodes"),
                 dump(newer).c_str());
        const PlacementResult older =
            slurmTreeEngine().place(*cluster->cluster, gang(sbatch(6)), optionsFor("22.05.8"));
        QVERIFY2(
            findTrace(older, "a2", "round 2: closer than b1 (distance 2 < 4) but b1 is a tighter fit: 2 < 3 nodes"),
            dump(older).c_str());
        // Round 1 decided one level up: spine A fits the 6 nodes, B does not.
        QVERIFY2(findTrace(older, "a1", "level-1 ancestor A fits the remaining 6 nodes (7), B does not (2)"),
                 dump(older).c_str());
    }

    void switchesNotes() {
        const auto cluster = build(worked());
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, gang(withSwitches(sbatch(6), 1)), optionsFor("22.05.8"));
        bool failure = false, pending = false;
        for (const std::string& note : result.notes) {
            failure =
                failure || note.find("sbatch --test-only prints: allocation failure: Requested node configuration "
                                     "is not available") == 0;
            pending = pending || note.find("Switches=1@5:00: the job pends") == 0;
        }
        QVERIFY2(failure && pending, dump(result).c_str());

        // When one leaf can hold the job once running jobs end, --test-only predicts that start.
        const PlacementResult later =
            slurmTreeEngine().place(*cluster->cluster, gang(withSwitches(sbatch(4, 4), 1)), optionsFor("22.05.8"));
        QCOMPARE(later.message, std::string("would start now on 4 nodes: tux[4-7]"));
        QCOMPARE(joinNodes(later), std::string("tux4,tux5,tux6,tux7"));
        const auto busier = [] {
            Fixture f = worked();
            f.nodes[7].usedGpus = 8; // s1 now has 3 free: 4 nodes need two leaves
            return f;
        }();
        const auto busierCluster = build(busier);
        const PlacementResult waits =
            slurmTreeEngine().place(*busierCluster->cluster, gang(withSwitches(sbatch(4), 1)), optionsFor("22.05.8"));
        QCOMPARE(waits.message, std::string(kWait5));
        bool predicted = false;
        for (const std::string& note : waits.notes)
            predicted = predicted || note.find("sbatch --test-only predicts a later start within 1 switch") == 0;
        QVERIFY2(predicted, dump(waits).c_str());
    }

    void traceIsBounded() {
        const auto cluster = build(worked());
        EngineOptions options = optionsFor("22.05.8");
        options.maxTraceEntries = 3;
        const PlacementResult result = slurmTreeEngine().place(*cluster->cluster, gang(sbatch(6)), options);
        QCOMPARE(joinNodes(result), std::string("tux0,tux1,tux4,tux5,tux6,tux7"));
        QCOMPARE(result.trace.size(), std::size_t{4});
        QVERIFY2(result.trace.back().reason.find("more trace entries not shown") != std::string::npos,
                 dump(result).c_str());
    }

    void derivedInputsAreNoted() {
        const auto cluster = build(workedDerived());
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, podsOnly(3, 8), optionsFor("22.05.8"));
        bool tree = false, request = false;
        for (const std::string& note : result.notes) {
            tree = tree || note.find("switch tree derived from the node labels") == 0;
            request = request || note == "request as sbatch: -N 3 --gres=gpu:8 -c 1 (one pod per node)";
        }
        QVERIFY2(tree && request, dump(result).c_str());
    }

    // The first note names the release, why it was chosen, and the rules it had; a release between
    // two rule changes gets each rule as that release had it (23.11: 23.02's, not 24.05.3's).
    void rulesNote_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("note");
        QTest::newRow("22.05 from slurmrestd")
            << "22.05.8"
            << "the version slurmrestd reports"
            << "Slurm 22.05.8 topology/tree rules (the version slurmrestd reports): switches compared by node counts "
               "only; a closer leaf must also be no looser a fit; ancestor counts keep taken nodes; -N 1 best-fits a "
               "leaf; a failed pass is retried without the nodes at or below a growing resource count; -N min-max over "
               "--switches waits";
        QTest::newRow("23.11 between the rule sets")
            << "23.11.10"
            << "recorded in the snapshot"
            << "Slurm 23.11.10 topology/tree rules (recorded in the snapshot): CPU sums count for the top switch and "
               "leaf fit; a closer leaf must also be no looser a fit; ancestor counts keep taken nodes; -N 1 best-fits "
               "a leaf; a failed pass is retried without the nodes at or below a growing resource count; -N min-max "
               "over --switches retries with fewer nodes";
        QTest::newRow("24.05.3")
            << "24.05.3"
            << "as --slurm-version asked"
            << "Slurm 24.05.3 topology/tree rules (as --slurm-version asked): CPU sums count for the top switch and "
               "leaf fit; a closer leaf wins when it fits; taken nodes leave ancestor counts; -N 1 best-fits a leaf; "
               "a failed pass is retried without the nodes at or below a growing resource count; -N min-max over "
               "--switches retries with fewer nodes";
        QTest::newRow("no origin") << "26.05.3"
                                   << ""
                                   << "Slurm 26.05.3 topology/tree rules: CPU sums count for the top switch and leaf "
                                      "fit; a closer leaf wins when it fits; taken nodes leave ancestor counts; -N 1 "
                                      "takes the first usable node by weight; a failed pass is retried without the "
                                      "lowest-resource nodes one at a time; -N min-max over "
                                      "--switches retries with fewer nodes";
    }

    void rulesNote() {
        QFETCH(QString, version);
        QFETCH(QString, origin);
        const auto cluster = build(worked());
        EngineOptions options = optionsFor(version.toLatin1().constData());
        options.slurmVersionOrigin = origin.toStdString();
        const PlacementResult result = slurmTreeEngine().place(*cluster->cluster, gang(sbatch(3)), options);
        QVERIFY2(!result.notes.empty(), dump(result).c_str());
        QTEST(QString::fromStdString(result.notes.front()), "note");
        QCOMPARE(QString::fromStdString(result.rulesVersion), version);
        QCOMPARE(QString::fromStdString(result.rulesVersionOrigin), origin);
    }

    void blockTopologyIsUnavailable() {
        const auto cluster = build(workedAllFree());
        auto topology = std::make_shared<SlurmTopology>();
        topology->kind = SlurmTopology::Kind::Block;
        topology->blocks = {SlurmBlock{"b0", names("tux", 0, 11)}};
        cluster->cluster->setSlurmTopology(topology);
        QVERIFY(!slurmTreeEngine().unavailableReason(*cluster->cluster, gang(sbatch(1))).empty());
        const PlacementResult result =
            slurmTreeEngine().place(*cluster->cluster, gang(sbatch(1)), optionsFor("26.05.3"));
        QVERIFY(result.invalidRequest);
        QVERIFY(!result.feasible);
        QCOMPARE(slurmTreeEngine().name(), std::string_view("slurm-tree"));
    }

    void versionParse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("major.minor") << QStringLiteral("22.05") << true << QStringLiteral("22.05.0");
        QTest::newRow("with patch") << QStringLiteral("22.05.8") << true << QStringLiteral("22.05.8");
        QTest::newRow("sinfo -V on Debian") << QStringLiteral("slurm-wlm 22.05.8") << true << QStringLiteral("22.05.8");
        QTest::newRow("sinfo -V upstream") << QStringLiteral("slurm 24.05.3\n") << true << QStringLiteral("24.05.3");
        QTest::newRow("package revision") << QStringLiteral("22.05.8-4+deb12u3") << true << QStringLiteral("22.05.8");
        QTest::newRow("release candidate") << QStringLiteral("26.11.0rc1") << true << QStringLiteral("26.11.0");
        QTest::newRow("empty") << QString() << false << QString();
        QTest::newRow("major only") << QStringLiteral("22") << false << QString();
        QTest::newRow("words") << QStringLiteral("latest") << false << QString();
        QTest::newRow("letters in minor") << QStringLiteral("22.x") << false << QString();
        QTest::newRow("month 13") << QStringLiteral("22.13") << false << QString();
        QTest::newRow("trailing dot") << QStringLiteral("22.05.") << false << QString();
    }

    void versionParse() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, canonical);
        const Result<SlurmVersion> version = SlurmVersion::parse(text.toStdString());
        QCOMPARE(version.ok(), ok);
        if (ok)
            QCOMPARE(QString::fromStdString(version->toString()), canonical);
        else
            QVERIFY(version.error().message.find("invalid Slurm version") == 0);
    }

    void versionOrder() {
        QVERIFY(*SlurmVersion::parse("24.05.2") < *SlurmVersion::parse("24.05.3"));
        QVERIFY(*SlurmVersion::parse("23.02") < *SlurmVersion::parse("23.11.1"));
        QCOMPARE(SlurmVersion{}.toString(), std::string("26.05.0"));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestSlurmTree)
#include "test_slurm_tree.moc"
