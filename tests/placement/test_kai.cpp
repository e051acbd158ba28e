// kai engine: cases derived from scheduler-semantics §4, KAI's topology plugin
// (pkg/scheduler/plugins/topology) and its allocate tests (allocateTopology_test.go), rewritten here.

#include "core/placement/engines/kai_engine.h"

#include "placement_support.h"
#include "support/test_program.h"

#include <QTest>

#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kZone = "example.com/zone";
const std::string kRack = "example.com/rack";
const std::vector<std::string> kZoneRack = {kZone, kRack};
// KAI's own tests label nodes like this.
const std::vector<std::string> kRackSpine = {"k8s.io/rack", "k8s.io/spine"};

TestNode down(TestNode n) {
    n.ready = false;
    return n;
}

TestNode cordoned(TestNode n) {
    n.cordoned = true;
    return n;
}

TestNode cpuBusy(TestNode n, int usedCpus) {
    n.usedCpus = usedCpus;
    return n;
}

// The same cluster under a named Topology, as a KAI Topology object would name it.
std::unique_ptr<TestCluster> named(std::unique_ptr<TestCluster> c, const std::string& name) {
    TopologySpec spec = c->index->spec();
    spec.name = name;
    c->cluster.reset();
    c->index = std::make_unique<TopologyIndex>(TopologyIndex::build(c->state, spec));
    c->cluster = std::make_unique<PlacementCluster>(c->state, *c->index);
    return c;
}

// Two zones: z1 has racks r1 (16 free GPUs) and r2 (12), z2 has r1 (24).
std::unique_ptr<TestCluster> twoZones() {
    return makeTestCluster(kZoneRack,
                           {testNode("a1", {"z1", "r1"}), testNode("a2", {"z1", "r1"}),
                            testNode("b1", {"z1", "r2"}, 8, 4), testNode("b2", {"z1", "r2"}),
                            testNode("c1", {"z2", "r1"}), testNode("c2", {"z2", "r1"}), testNode("c3", {"z2", "r1"})});
}

// z1's racks hold 3, 3 and 2 pods of 4 GPUs, so no rack takes a segment of 4; z2's racks take 4 each.
std::vector<TestNode> fragmentedZone() {
    return {testNode("a1", {"z1", "r1"}), testNode("a2", {"z1", "r1"}, 8, 4), testNode("b1", {"z1", "r2"}),
            testNode("b2", {"z1", "r2"}, 8, 4), testNode("d1", {"z1", "r3"})};
}

TestNode labelled(TestNode n, std::string key, std::string value) {
    n.extraLabels.emplace_back(std::move(key), std::move(value));
    return n;
}

// Racks of `count` 8-GPU nodes named <prefix>1.. in zone z1, each transformed by `shape`.
std::vector<TestNode> rackOf(
    const std::string& prefix, const std::string& rack, int count,
    const std::function<TestNode(TestNode)>& shape = [](TestNode n) { return n; }) {
    std::vector<TestNode> nodes;
    for (int i = 1; i <= count; ++i) nodes.push_back(shape(testNode(prefix + std::to_string(i), {"z1", rack})));
    return nodes;
}

std::vector<TestNode> joined(std::vector<std::vector<TestNode>> racks) {
    std::vector<TestNode> nodes;
    for (auto& rack : racks) nodes.insert(nodes.end(), rack.begin(), rack.end());
    return nodes;
}

std::unique_ptr<TestCluster> buildCluster(const std::string& clusterName) {
    static const std::map<std::string, std::function<std::unique_ptr<TestCluster>()>> builders = {
        {"two-zones", twoZones},
        {"tie",
         [] {
             return makeTestCluster(kZoneRack, {testNode("b1", {"z1", "r2"}), testNode("a1", {"z1", "r1"})});
         }},
        {"one-rack",
         [] {
             return makeTestCluster(kZoneRack, {testNode("n1", {"z1", "r1"}), testNode("n2", {"z1", "r1"}, 8, 4),
                                                testNode("n10", {"z1", "r1"}, 8, 2)});
         }},
        {"name-tie",
         [] {
             return makeTestCluster(kZoneRack, {testNode("n10", {"z1", "r1"}), testNode("n2", {"z1", "r1"})});
         }},
        {"unusable",
         [] {
             return makeTestCluster(kZoneRack,
                                    {down(testNode("a1", {"z1", "r1"})), cordoned(testNode("a2", {"z1", "r1"})),
                                     testNode("a3", {"z1", "r1"}), testNode("b1", {"z1", "r2"}, 8, 2)});
         }},
        {"fragmented",
         [] {
             return makeTestCluster(kZoneRack, {testNode("a1", {"z1", "r1"}, 8, 4), testNode("a2", {"z1", "r1"}, 8, 4),
                                                testNode("a3", {"z1", "r1"}, 8, 4), testNode("a4", {"z1", "r1"}, 8, 4),
                                                testNode("b1", {"z1", "r2"}), testNode("b2", {"z1", "r2"})});
         }},
        {"cpu-packed",
         [] {
             return makeTestCluster(kZoneRack,
                                    {cpuBusy(testNode("x1", {"z1", "ra"}), 40), testNode("y1", {"z1", "rb"}, 8, 4)});
         }},
        {"no-cpu",
         [] {
             return makeTestCluster(kZoneRack,
                                    {cpuBusy(testNode("x1", {"z1", "r0"}), 64), testNode("y1", {"z1", "r1"})});
         }},
        {"segments",
         [] {
             std::vector<TestNode> nodes = fragmentedZone();
             for (const char* name : {"c1", "c2"}) nodes.push_back(testNode(name, {"z2", "r1"}));
             for (const char* name : {"e1", "e2"}) nodes.push_back(testNode(name, {"z2", "r2"}));
             return makeTestCluster(kZoneRack, nodes);
         }},
        {"segments-partial",
         [] {
             return makeTestCluster(kZoneRack, {testNode("a1", {"z1", "r1"}), testNode("a2", {"z1", "r1"}),
                                                testNode("b1", {"z1", "r2"}), testNode("b2", {"z1", "r2"}),
                                                testNode("d1", {"z1", "r3"})});
         }},
        {"segments-stuck", [] { return makeTestCluster(kZoneRack, fragmentedZone()); }},
        // r1's GPUs are free but its CPUs are all taken; r2 is idle.
        {"pytorch",
         [] {
             return makeTestCluster(kZoneRack, joined({rackOf("a", "r1", 7, [](TestNode n) { return cpuBusy(n, 64); }),
                                                       rackOf("b", "r2", 7)}));
         }},
        // r1: three idle 8-GPU nodes; r2: six nodes with 4 GPUs free; r3: six idle nodes.
        {"gpu-sizes",
         [] {
             return makeTestCluster(
                 kZoneRack,
                 joined({rackOf("c", "r1", 3),
                         rackOf("d", "r2", 6, [](TestNode n) { return testNode(n.name, n.levelValues, 8, 4); }),
                         rackOf("e", "r3", 6)}));
         }},
        // Two equal racks; only g1 in r2 carries example.com/pool=head.
        {"head-pool",
         [] {
             std::vector<TestNode> r2 = rackOf("g", "r2", 5);
             r2.front() = labelled(r2.front(), "example.com/pool", "head");
             return makeTestCluster(kZoneRack, joined({rackOf("f", "r1", 5), r2}));
         }},
        // KAI's e2e predicate specs (test/e2e/suites/allocate/predicates): t1 carries their taint
        // testKey=testValue:NoSchedule, t2 none; c1 has CPUs only (a node without GPUs).
        {"taint-specs",
         [] {
             TestNode tainted = testNode("t1", {"z1", "r1"});
             tainted.taints.push_back({"testKey", "testValue", "NoSchedule"});
             return makeTestCluster(kZoneRack, {tainted, testNode("t2", {"z1", "r1"}), testNode("c1", {"z1", "r1"}, 0)});
         }},
        // Two equal racks; r1's nodes all carry a NoSchedule taint, and only m1, m2 of r1 and p1 of
        // r2 are in pool a.
        {"tainted-rack",
         [] {
             auto gpuOnly = [](TestNode n) {
                 n.taints.push_back({"nvidia.com/gpu", "present", "NoSchedule"});
                 return n;
             };
             std::vector<TestNode> r1 = rackOf("m", "r1", 4, gpuOnly);
             std::vector<TestNode> r2 = rackOf("p", "r2", 4);
             for (TestNode* n : {&r1[0], &r1[1], &r2[0]}) *n = labelled(*n, "example.com/pool", "a");
             return makeTestCluster(kZoneRack, joined({r1, r2}));
         }},
        // Two racks of four 8-GPU nodes with 8 CPUs free each.
        {"cpu-tight",
         [] {
             auto tight = [](TestNode n) { return cpuBusy(n, 56); };
             return makeTestCluster(kZoneRack, joined({rackOf("h", "r1", 4, tight), rackOf("k", "r2", 4, tight)}));
         }},
        {"segments-stuck-two-zones",
         [] {
             std::vector<TestNode> nodes = fragmentedZone();
             nodes.push_back(testNode("c1", {"z2", "r1"}));
             nodes.push_back(testNode("c2", {"z2", "r1"}, 8, 4));
             return makeTestCluster(kZoneRack, nodes);
         }},
        // u1 lacks the rack label, u2 both labels: KAI's tree leaves them out.
        {"unlabelled",
         [] {
             return makeTestCluster(kZoneRack, {testNode("a1", {"z1", "r1"}, 8, 6), testNode("b1", {"z1", "r2"}, 8, 8),
                                                testNode("u1", {"z1", ""}), testNode("u2", {"", ""}, 8, 7)});
         }},
        {"roomy-rack",
         [] {
             return makeTestCluster(kZoneRack,
                                    {testNode("a1", {"z1", "r1"}), testNode("a2", {"z1", "r1"}),
                                     testNode("b1", {"z1", "r2"}, 8, 6), testNode("b2", {"z1", "r2"}, 8, 4)});
         }},
        {"single-rack",
         [] {
             return makeTestCluster(kZoneRack, {testNode("a1", {"z1", "r1"}), testNode("a2", {"z1", "r1"})});
         }},
        {"single-zone",
         [] {
             return makeTestCluster(kZoneRack, {testNode("a1", {"z1", "r1"}), testNode("b1", {"z1", "r2"})});
         }},
        // KAI's allocateTopology_test.go clusters (2-GPU nodes, levels k8s.io/rack then k8s.io/spine).
        {"kai-same-rack",
         [] {
             return named(makeTestCluster(kRackSpine, {testNode("node0", {"rack1", "spine1"}, 2, 1),
                                                       testNode("node1", {"rack1", "spine2"}, 2),
                                                       testNode("node2", {"rack2", "spine1"}, 2),
                                                       testNode("node3", {"rack2", "spine2"}, 2)}),
                          "cluster-topology");
         }},
        {"kai-partial-rack",
         [] {
             return named(makeTestCluster(kRackSpine, {testNode("node0", {"rack1", "spine1"}, 2, 1),
                                                       testNode("node1", {"rack1", "spine2"}, 2)}),
                          "cluster-topology");
         }},
        {"kai-pending",
         [] {
             return named(makeTestCluster(kRackSpine, {testNode("node0", {"rack1", "spine1"}, 2, 1),
                                                       testNode("node1", {"rack1", "spine2"}, 2),
                                                       testNode("node2", {"rack2", "spine1"}, 2, 1),
                                                       testNode("node3", {"rack2", "spine2"}, 2)}),
                          "cluster-topology");
         }},
        {"kai-combined",
         [] {
             return named(makeTestCluster(kRackSpine, {testNode("node0", {"rack1", "spine1"}, 2, 2),
                                                       testNode("node1", {"rack1", "spine2"}, 2, 1),
                                                       testNode("node2", {"rack2", "spine1"}, 2, 1),
                                                       testNode("node3", {"rack2", "spine2"}, 2, 1)}),
                          "cluster-topology");
         }},
        {"kai-rack-only",
         [] {
             return named(
                 makeTestCluster({"k8s.io/rack"}, {testNode("node0", {"rack1"}, 1, 1), testNode("node1", {"rack1"}, 1),
                                                   testNode("node2", {"rack2"}, 1), testNode("node3", {"rack2"}, 1)}),
                 "cluster-topology");
         }},
        {"kai-preferred",
         [] {
             return named(makeTestCluster({"k8s.io/rack"},
                                          {testNode("node0", {"rack1"}, 2, 1), testNode("node1", {"rack2"}, 2, 1)}),
                          "cluster-topology");
         }},
    };
    return builders.at(clusterName)();
}

struct Ask {
    int pods = 1;
    int gpus = 8;
    int cpus = 0;
    std::string required;
    std::string preferred;
    int segmentSize = 0;
    std::string segmentRequired;
    std::string segmentPreferred;
    std::string topologyName;
    std::string nameSpace = "default";
    std::string name = "gang";
};

GangRequest request(const Ask& ask) {
    GangRequest r;
    r.name = ask.name;
    r.nameSpace = ask.nameSpace;
    r.pods = ask.pods;
    if (ask.gpus > 0) r.perPod.set("nvidia.com/gpu", Quantity::fromUnits(ask.gpus));
    if (ask.cpus > 0) r.perPod.set("cpu", Quantity::fromUnits(ask.cpus));
    r.topologyName = ask.topologyName;
    r.kai.required = ask.required;
    r.kai.preferred = ask.preferred;
    r.kai.segmentSize = ask.segmentSize;
    r.kai.segmentRequired = ask.segmentRequired;
    r.kai.segmentPreferred = ask.segmentPreferred;
    return r;
}

PlacementResult place(const PlacementCluster& cluster, const Ask& ask, EngineOptions options = {}) {
    return kaiEngine().place(cluster, request(ask), options);
}

// "a1:2 b2:1"
// Pods per node; a node holding pods of two parts (an entry per part) counts them together.
std::string nodesText(const PlacementResult& result) {
    std::vector<std::pair<std::string, std::int32_t>> perNode;
    for (const NodePods& n : result.nodes) {
        if (!perNode.empty() && perNode.back().first == n.node)
            perNode.back().second += n.pods;
        else
            perNode.emplace_back(n.node, n.pods);
    }
    std::string text;
    for (const auto& [node, pods] : perNode) text += (text.empty() ? "" : " ") + node + ":" + std::to_string(pods);
    return text;
}

// "zone=z1 rack=z1.r2"
std::string chosenText(const PlacementResult& result) {
    std::string text;
    for (const ChosenDomain& c : result.chosen) text += (text.empty() ? "" : " ") + c.level + "=" + c.domain;
    return text;
}

std::string traceText(const PlacementResult& result) {
    std::string text;
    for (const TraceEntry& e : result.trace)
        text += (e.taken ? "+ " : "- ") + e.level + " " + e.domain + ": " + e.reason + "\n";
    return text;
}

Ask ask(int pods, int gpus, std::string required, std::string preferred = {}) {
    Ask a;
    a.pods = pods;
    a.gpus = gpus;
    a.required = std::move(required);
    a.preferred = std::move(preferred);
    return a;
}

Ask segmented(Ask a, int size, std::string required, std::string preferred = {}) {
    a.segmentSize = size;
    a.segmentRequired = std::move(required);
    a.segmentPreferred = std::move(preferred);
    return a;
}

Ask job(Ask a, std::string nameSpace, std::string name) {
    a.nameSpace = std::move(nameSpace);
    a.name = std::move(name);
    return a;
}

const std::string kNoRackFor7 =
    "Unable to schedule podgroup.\n"
    "<z1.r1>: node-group z1.r1 can allocate only 4 of 7 required pods.\n"
    "<z1.r2>: node-group z1.r2 can allocate only 3 of 7 required pods.\n"
    "<z2.r1>: node-group z2.r1 can allocate only 6 of 7 required pods.\n"
    "topology default, requirement example.com/rack couldn't be satisfied for job <default/gang>.";

// One kind of pod of a heterogeneous gang.
GangPart part(std::string name, int pods, int gpuCount, int cpus = 0,
              std::vector<std::pair<std::string, std::string>> nodeSelector = {}) {
    GangPart p;
    p.name = std::move(name);
    p.pods = pods;
    if (gpuCount > 0) p.perPod.set("nvidia.com/gpu", Quantity::fromUnits(gpuCount));
    if (cpus > 0) p.perPod.set("cpu", Quantity::fromUnits(cpus));
    p.nodeSelector = std::move(nodeSelector);
    return p;
}

// A gang of these parts, as the manifest reader builds it: `pods` is their total, the other
// fields describe the first part; KAI's topology constraint covers the whole PodGroup.
GangRequest gangOf(std::vector<GangPart> parts, std::string required, std::string preferred = {}) {
    GangRequest r;
    r.pods = 0;
    for (const GangPart& p : parts) r.pods += p.pods;
    r.perPod = parts.front().perPod;
    r.nodeSelector = parts.front().nodeSelector;
    r.tolerations = parts.front().tolerations;
    r.kai.required = std::move(required);
    r.kai.preferred = std::move(preferred);
    r.parts = std::move(parts);
    return r;
}

// A PyTorchJob: 1 master (8 CPUs, no GPU) and `workers` workers of `workerGpus` GPUs.
GangRequest pytorchJob(int workers, int workerGpus, std::string required) {
    return gangOf({part("master", 1, 0, 8), part("worker", workers, workerGpus)}, std::move(required));
}

} // namespace

Q_DECLARE_METATYPE(Ask)
Q_DECLARE_METATYPE(GangRequest)

class TestKai : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void placement_data() {
        QTest::addColumn<std::string>("cluster");
        QTest::addColumn<Ask>("request");
        QTest::addColumn<bool>("feasible");
        QTest::addColumn<std::string>("nodes");
        QTest::addColumn<std::string>("chosen");
        QTest::addColumn<std::string>("message");

        // Bin-packing: the zones are ordered first (z2 is fuller for this job than z1), then racks
        // within each zone, so the first rack tried is z2.r1 although z1.r2 has the least room.
        QTest::newRow("required rack: parents' order first")
            << std::string("two-zones") << ask(2, 4, kRack) << true << std::string("c1:2")
            << std::string("zone=z2 rack=z2.r1") << std::string();
        QTest::newRow("required zone, preferred rack: the lowest level wins")
            << std::string("two-zones") << ask(2, 4, kZone, kRack) << true << std::string("c1:2")
            << std::string("zone=z2 rack=z2.r1") << std::string();
        QTest::newRow("level short names") << std::string("two-zones") << ask(2, 4, "zone", "rack") << true
                                           << std::string("c1:2") << std::string("zone=z2 rack=z2.r1") << std::string();
        QTest::newRow("required rack, bigger gang")
            << std::string("two-zones") << ask(4, 4, kRack) << true << std::string("c1:2 c2:2")
            << std::string("zone=z2 rack=z2.r1") << std::string();
        QTest::newRow("required rack: no rack fits")
            << std::string("two-zones") << ask(7, 4, kRack) << false << std::string() << std::string() << kNoRackFor7;
        // Preferred only: no rack fits, z1 does; its racks are filled most-free first (z1.r1 scores
        // 10, z1.r2 6), so z1.r2's b1 keeps a free slot.
        QTest::newRow("preferred rack climbs to the zone")
            << std::string("two-zones") << ask(7, 4, {}, kRack) << true << std::string("a1:2 a2:2 b1:1 b2:2")
            << std::string("zone=z1") << std::string();
        // Topology scores outrank bin-packing: r1, the roomier rack, is filled before r2's fuller nodes.
        QTest::newRow("preferred: the roomiest subdomain first")
            << std::string("roomy-rack") << ask(9, 2, {}, kRack) << true << std::string("a1:4 a2:4 b1:1")
            << std::string("zone=z1") << std::string();
        QTest::newRow("preferred rack climbs to the root")
            << std::string("two-zones") << ask(13, 4, {}, kRack) << true
            << std::string("a1:2 a2:2 b1:1 b2:2 c1:2 c2:2 c3:2") << std::string("root=root") << std::string();
        QTest::newRow("preferred: the cluster is too small")
            << std::string("two-zones") << ask(14, 4, {}, kRack) << false << std::string() << std::string()
            << std::string("PodSchedulingErrors.\ntopology default, requirement  couldn't be satisfied for job "
                           "<default/gang>: not enough resources in the cluster to allocate the job.");
        QTest::newRow("search root below the root")
            << std::string("single-zone") << ask(3, 8, kRack) << false << std::string() << std::string()
            << std::string("PodSchedulingErrors.\ntopology default, requirement "
                           "example.com/rack couldn't be satisfied for job "
                           "<default/gang>: not enough resources in z1 to "
                           "allocate the job.");
        // The lowest common domain of a one-rack cluster is the rack; KAI counts no resources above
        // the search root, so the zone it requires never fits.
        QTest::newRow("one rack, required zone (KAI quirk)")
            << std::string("single-rack") << ask(1, 8, kZone) << false << std::string() << std::string()
            << std::string("Unable to schedule podgroup.\n<z1>: z1 didn't have enough resource: GPUs, requested: 8, "
                           "available: 0.\ntopology default, requirement example.com/zone couldn't be satisfied for "
                           "job <default/gang>.");
        QTest::newRow("equal racks: ids ascending")
            << std::string("tie") << ask(1, 8, kRack) << true << std::string("a1:1")
            << std::string("zone=z1 rack=z1.r1") << std::string();
        QTest::newRow("least free node first")
            << std::string("one-rack") << ask(5, 2, kRack) << true << std::string("n2:2 n10:3")
            << std::string("zone=z1 rack=z1.r1") << std::string();
        QTest::newRow("equal nodes: natural name order")
            << std::string("name-tie") << ask(1, 8, kRack) << true << std::string("n2:1")
            << std::string("zone=z1 rack=z1.r1") << std::string();
        QTest::newRow("NotReady and cordoned nodes add nothing")
            << std::string("unusable") << ask(2, 4, kRack) << true << std::string("a3:2")
            << std::string("zone=z1 rack=z1.r1") << std::string();
        QTest::newRow("NotReady and cordoned nodes: no rack fits")
            << std::string("unusable") << ask(3, 4, kRack) << false << std::string() << std::string()
            << std::string("Unable to schedule podgroup.\n"
                           "<z1.r1>: node-group z1.r1 can allocate only 2 of 3 required pods.\n"
                           "<z1.r2>: node-group z1.r2 can allocate only 1 of 3 required pods.\n"
                           "topology default, requirement example.com/rack couldn't be satisfied for job "
                           "<default/gang>.");
        QTest::newRow("fragmented rack is skipped")
            << std::string("fragmented") << ask(1, 8, kRack) << true << std::string("b1:1")
            << std::string("zone=z1 rack=z1.r2") << std::string();
        // cpu dominates ra's ratio (16/24 > 2/8), so ra counts as fuller than rb and is tried first.
        Ask heterogeneous = ask(1, 2, kRack);
        heterogeneous.cpus = 16;
        QTest::newRow("dominant resource: cpu")
            << std::string("cpu-packed") << heterogeneous << true << std::string("x1:1")
            << std::string("zone=z1 rack=z1.ra") << std::string();
        QTest::newRow("dominant resource: gpu")
            << std::string("cpu-packed") << ask(1, 2, kRack) << true << std::string("y1:1")
            << std::string("zone=z1 rack=z1.rb") << std::string();
        Ask needsCpu = ask(1, 1, kRack);
        needsCpu.cpus = 1;
        QTest::newRow("missing resource sorts first but cannot fit")
            << std::string("no-cpu") << needsCpu << true << std::string("y1:1") << std::string("zone=z1 rack=z1.r1")
            << std::string();
        QTest::newRow("unknown required level")
            << std::string("two-zones") << ask(1, 8, "example.com/row") << false << std::string() << std::string()
            << std::string("topology constraint error: workload specified 'example.com/row' as the required topology "
                           "constraint level, but the topology tree 'default' does not contain a level with this "
                           "name");
        QTest::newRow("unknown preferred level")
            << std::string("two-zones") << ask(1, 8, {}, "row") << false << std::string() << std::string()
            << std::string("topology constraint error: workload specified 'row' as the preferred topology "
                           "constraint level, but the topology tree 'default' does not contain a level with this "
                           "name");
        QTest::newRow("preferred above required")
            << std::string("two-zones") << ask(1, 8, kRack, "zone") << false << std::string() << std::string()
            << std::string("topology constraint error: workload specified 'zone' as the preferred topology "
                           "constraint level, but the topology tree 'default' does not contain a level with this "
                           "name");
        QTest::newRow("unknown segment level")
            << std::string("segments") << segmented(ask(8, 4, kZone), 4, "row") << false << std::string()
            << std::string()
            << std::string("topology constraint error: sub-group worker-0 specified 'row' as the required topology "
                           "constraint level, but the topology tree 'default' does not contain a level with this "
                           "name");
        Ask otherTopology = ask(1, 8, kRack);
        otherTopology.topologyName = "other";
        QTest::newRow("requested topology does not exist")
            << std::string("two-zones") << otherTopology << false << std::string() << std::string()
            << std::string("PodSchedulingErrors.\nRequested topology other does not exist.");
        // z1 ties with z2 and comes first by id, but none of its racks takes a segment of 4.
        QTest::newRow("segments move to the zone where each fits in a rack")
            << std::string("segments") << segmented(ask(8, 4, kZone), 4, kRack) << true
            << std::string("c1:2 c2:2 e1:2 e2:2") << std::string("zone=z2") << std::string();
        QTest::newRow("segments: the last one is partial")
            << std::string("segments-partial") << segmented(ask(10, 4, kZone), 4, kRack) << true
            << std::string("a1:2 a2:2 b1:2 b2:2 d1:2") << std::string("zone=z1") << std::string();
        QTest::newRow("segments without their own constraint")
            << std::string("segments") << segmented(ask(8, 4, kZone), 4, {}) << true
            << std::string("a1:2 a2:1 b1:2 b2:1 d1:2") << std::string("zone=z1") << std::string();
        QTest::newRow("segment fits nowhere")
            << std::string("segments-stuck") << segmented(ask(8, 4, kZone), 4, kRack) << false << std::string()
            << std::string()
            << std::string("Unable to schedule podgroup.\n"
                           "<z1.r1>: subgroup worker-0: node-group z1.r1 can allocate only 3 of 4 required pods.\n"
                           "<z1.r2>: subgroup worker-0: node-group z1.r2 can allocate only 3 of 4 required pods.\n"
                           "<z1.r3>: subgroup worker-0: node-group z1.r3 can allocate only 2 of 4 required pods.\n"
                           "topology default, requirement example.com/rack couldn't be satisfied for job "
                           "<default/gang>, subgroup worker-0.");
        // Racks outside the job's zone are candidates too, with no resources counted.
        QTest::newRow("segment fails: racks of other zones report no resources")
            << std::string("segments-stuck-two-zones") << segmented(ask(6, 4, kZone), 4, kRack) << false
            << std::string() << std::string()
            << std::string("Unable to schedule podgroup.\n"
                           "<z1.r1>: subgroup worker-0: node-group z1.r1 can allocate only 3 of 4 required pods.\n"
                           "<z1.r2>: subgroup worker-0: node-group z1.r2 can allocate only 3 of 4 required pods.\n"
                           "<z1.r3>: subgroup worker-0: node-group z1.r3 can allocate only 2 of 4 required pods.\n"
                           "<z2.r1>: subgroup worker-0: z2.r1 didn't have enough resource: GPUs, requested: 16, "
                           "available: 0.\n"
                           "topology default, requirement example.com/rack couldn't be satisfied for job "
                           "<default/gang>, subgroup worker-0.");
        QTest::newRow("no constraint: anywhere, unlabelled nodes too")
            << std::string("unlabelled") << ask(1, 1, {}) << true << std::string("u2:1") << std::string()
            << std::string();
        QTest::newRow("nodes missing a level label are outside the tree")
            << std::string("unlabelled") << ask(2, 2, kZone) << false << std::string() << std::string()
            << std::string("PodSchedulingErrors.\ntopology default, requirement example.com/zone couldn't be "
                           "satisfied for job <default/gang>: not enough resources in z1 to allocate the job.");

        // KAI's allocateTopology_test.go, one GPU per pod.
        Ask upstream = job(ask(4, 1, "k8s.io/rack"), "", "pending_job0");
        upstream.topologyName = "cluster-topology";
        QTest::newRow("kai: same rack, multiple levels")
            << std::string("kai-same-rack") << upstream << true << std::string("node2:2 node3:2")
            << std::string("rack=rack2") << std::string();
        QTest::newRow("kai: job remains pending")
            << std::string("kai-pending") << upstream << false << std::string() << std::string()
            << std::string("Unable to schedule podgroup.\n"
                           "<rack1>: node-group rack1 can allocate only 3 of 4 required pods.\n"
                           "<rack2>: node-group rack2 can allocate only 3 of 4 required pods.\n"
                           "topology cluster-topology, requirement k8s.io/rack couldn't be satisfied for job "
                           "</pending_job0>.");
        Ask twoPods = upstream;
        twoPods.pods = 2;
        QTest::newRow("kai: partially occupied rack")
            << std::string("kai-partial-rack") << twoPods << true << std::string("node0:1 node1:1")
            << std::string("rack=rack1") << std::string();
        Ask spine = twoPods;
        spine.required = "k8s.io/spine";
        QTest::newRow("kai: same spine") << std::string("kai-partial-rack") << spine << true << std::string("node1:2")
                                         << std::string("rack=rack1 spine=rack1.spine2") << std::string();
        Ask combined = twoPods;
        combined.preferred = "k8s.io/spine";
        QTest::newRow("kai: preferred spine cannot be met, required rack can")
            << std::string("kai-combined") << combined << true << std::string("node2:1 node3:1")
            << std::string("rack=rack2") << std::string();
        QTest::newRow("kai: same rack, one level")
            << std::string("kai-rack-only") << twoPods << true << std::string("node2:1 node3:1")
            << std::string("rack=rack2") << std::string();
        Ask preferredOnly = twoPods;
        preferredOnly.required.clear();
        preferredOnly.preferred = "k8s.io/rack";
        QTest::newRow("kai: preferred rack cannot be met")
            << std::string("kai-preferred") << preferredOnly << true << std::string("node0:1 node1:1")
            << std::string("root=root") << std::string();
    }

    void placement() {
        QFETCH(std::string, cluster);
        QFETCH(Ask, request);
        QFETCH(bool, feasible);
        QFETCH(std::string, nodes);
        QFETCH(std::string, chosen);
        QFETCH(std::string, message);
        auto c = buildCluster(cluster);
        const PlacementResult result = place(*c->cluster, request);
        const std::string trace = traceText(result);
        QVERIFY2(result.feasible == feasible, (result.message + "\n" + trace).c_str());
        QCOMPARE(result.engine, std::string("kai"));
        QCOMPARE(nodesText(result), nodes);
        QCOMPARE(chosenText(result), chosen);
        // KAI says nothing on success; topodeck's own line names the chosen domain.
        if (feasible && message.empty())
            QVERIFY2(result.message.starts_with("would allocate "), result.message.c_str());
        else
            QCOMPARE(result.message, message);
        QCOMPARE(result.invalidRequest, message.starts_with("topology constraint error"));
    }

    void heterogeneous_data() {
        QTest::addColumn<std::string>("cluster");
        QTest::addColumn<GangRequest>("request");
        QTest::addColumn<bool>("feasible");
        QTest::addColumn<std::string>("nodes");
        QTest::addColumn<std::string>("chosen");
        QTest::addColumn<std::string>("message");

        // The master uses no GPU, so KAI sums the 8 pods' requests (no representor pod): r1 sorts
        // first (its free CPU is 0: ratio 1000) and cannot fit; r2 fits exactly (56 of 56 GPUs),
        // though it holds only 7 copies of the largest pod. Master first, packed by CPU (b1 by
        // name), then the workers by free GPUs, b1 again first.
        QTest::newRow("pytorchjob: master and workers counted together")
            << std::string("pytorch") << pytorchJob(7, 8, kRack) << true
            << std::string("b1:2 b2:1 b3:1 b4:1 b5:1 b6:1 b7:1") << std::string("zone=z1 rack=z1.r2") << std::string();
        // Both parts use GPUs, so KAI counts copies of the largest pod (8 GPUs): r1 holds 3 of 6
        // though 8+8+4x2 would pack into it, r2 none; r3 holds 6. The 8-GPU pods go first (e1, e2),
        // then the 2-GPU pods fill the first node with room for them (e3).
        QTest::newRow("two GPU parts of different sizes")
            << std::string("gpu-sizes") << gangOf({part("big", 2, 8), part("small", 4, 2)}, kRack) << true
            << std::string("e1:1 e2:1 e3:4") << std::string("zone=z1 rack=z1.r3") << std::string();
        // The racks tie and r1 is tried first, but no node of it matches the head's nodeSelector;
        // r2's g1 does, and the trainers take the rest of r2.
        QTest::newRow("a part's nodeSelector picks the rack")
            << std::string("head-pool")
            << gangOf({part("head", 1, 8, 0, {{"example.com/pool", "head"}}), part("trainer", 4, 8)}, kRack) << true
            << std::string("g1:1 g2:1 g3:1 g4:1 g5:1") << std::string("zone=z1 rack=z1.r2") << std::string();
        // Workers alone (32 CPUs, 32 GPUs) or the master alone (8 CPUs) fit a rack; together they ask
        // 40 CPUs of its 32, and KAI reports each rack's shortfall.
        QTest::newRow("the sum fits no rack")
            << std::string("cpu-tight") << gangOf({part("master", 1, 0, 8), part("worker", 4, 8, 8)}, kRack) << false
            << std::string() << std::string()
            << std::string("Unable to schedule podgroup.\n"
                           "<z1.r1>: z1.r1 didn't have enough resources: CPU cores, requested: 40, available: 32.\n"
                           "<z1.r2>: z1.r2 didn't have enough resources: CPU cores, requested: 40, available: 32.\n"
                           "topology default, requirement example.com/rack couldn't be satisfied for job "
                           "<default/gang>.");
        // Both racks fit the GPUs but no node admits the head: its subgroup fails in r1, then in r2,
        // and KAI lists the same fit error once per rack tried.
        const std::string headFails = "\nResources were found for 0 pods from all sub-groups while sub-group head "
                                      "requires 1 pods for gang scheduling. Additional pods cannot be scheduled in "
                                      "this sub-group due to: no node in the domain that the pod's nodeSelector and "
                                      "tolerations admit has room for another pod.";
        QTest::newRow("a part's nodeSelector matches no node")
            << std::string("cpu-tight")
            << gangOf({part("head", 1, 8, 0, {{"example.com/pool", "head"}}), part("trainer", 2, 8)}, kRack) << false
            << std::string() << std::string() << "Unable to schedule podgroup." + headFails + headFails;
        // Segments split the workers only (KAI's worker-<i> under the worker subgroup) and go
        // before the master: z1 has no rack for a segment of 4, z2 takes one per rack; then the
        // master (CPU only) packs onto c1, the first of z2's equally free nodes.
        GangRequest segmentedJob = gangOf({part("master", 1, 0, 8), part("worker", 8, 4)}, kZone);
        segmentedJob.kai.segmentSize = 4;
        segmentedJob.kai.segmentRequired = kRack;
        QTest::newRow("segments over the workers, then the master")
            << std::string("segments") << segmentedJob << true << std::string("c1:3 c2:2 e1:2 e2:2")
            << std::string("zone=z2") << std::string();
    }

    void heterogeneous() {
        QFETCH(std::string, cluster);
        QFETCH(GangRequest, request);
        QFETCH(bool, feasible);
        QFETCH(std::string, nodes);
        QFETCH(std::string, chosen);
        QFETCH(std::string, message);
        auto c = buildCluster(cluster);
        const PlacementResult result = kaiEngine().place(*c->cluster, request, {});
        const std::string trace = traceText(result);
        QVERIFY2(result.feasible == feasible, (result.message + "\n" + trace).c_str());
        QCOMPARE(nodesText(result), nodes);
        QCOMPARE(chosenText(result), chosen);
        if (feasible)
            QVERIFY2(result.message.starts_with("would allocate " + std::to_string(request.pods) + " pod(s) in "),
                     result.message.c_str());
        else
            QCOMPARE(result.message, message);
        QVERIFY(!result.invalidRequest);
    }

    // A uniform gang's nodeSelector and tolerations, as KAI's predicates apply them to each task
    // (Session.FittingNode: NodeAffinity, TaintToleration), while a domain's allocatable pods count
    // resources alone (calcNodeAccommodation): a domain can fit by its count, then fail to
    // allocate, and KAI goes on to the next one. The first four rows are KAI's e2e predicate specs.
    void uniformGangPredicates_data() {
        QTest::addColumn<std::string>("cluster");
        QTest::addColumn<GangRequest>("request");
        QTest::addColumn<std::string>("nodes");   // "" when it fails
        QTest::addColumn<std::string>("message"); // when it fails
        const auto uniform = [](int pods, int gpuCount, std::vector<std::pair<std::string, std::string>> selector,
                                std::vector<Toleration> tolerations, std::string required = {}) {
            GangRequest r;
            r.pods = pods;
            if (gpuCount > 0) r.perPod.set("nvidia.com/gpu", Quantity::fromUnits(gpuCount));
            r.nodeSelector = std::move(selector);
            r.tolerations = std::move(tolerations);
            r.kai.required = std::move(required);
            return r;
        };
        const Toleration specToleration{"testKey", "Equal", "testValue", "NoSchedule"};
        const std::string oneFails = "PodSchedulingErrors.\nResources were not found for pod default/gang-0 due to: "
                                     "no node in the domain that the pod's nodeSelector and tolerations admit has "
                                     "room for another pod.";
        // taint_toleration_specs.go: "Not scheduling pod without toleration" / "Scheduling pod
        // with toleration", the pod pinned to the tainted node by its hostname.
        QTest::newRow("tainted node, no toleration")
            << std::string("taint-specs") << uniform(1, 1, {{"kubernetes.io/hostname", "t1"}}, {}) << std::string()
            << oneFails;
        QTest::newRow("tainted node, tolerated")
            << std::string("taint-specs") << uniform(1, 1, {{"kubernetes.io/hostname", "t1"}}, {specToleration})
            << std::string("t1:1") << std::string();
        // affinity_specs.go: "schedules pod to node with correct affinity" / "doesn't schedule pod
        // to nodes without requested affinity" (a GPU pod pinned to a CPU-only node).
        QTest::newRow("selector names a GPU node")
            << std::string("taint-specs") << uniform(1, 1, {{"kubernetes.io/hostname", "t2"}}, {}) << std::string("t2:1")
            << std::string();
        QTest::newRow("selector names a node without GPUs")
            << std::string("taint-specs") << uniform(1, 1, {{"kubernetes.io/hostname", "c1"}}, {}) << std::string()
            << oneFails;
        // Unpinned, the tainted node is passed over for the clean one, whatever bin-packing says.
        QTest::newRow("a taint moves the pods") << std::string("taint-specs") << uniform(8, 1, {}, {})
                                                << std::string("t2:8") << std::string();
        // r1 sorts first and its 32 GPUs count 4 pods, but KAI's allocation refuses every r1 node
        // (untolerated taint): rolled back, and r2 takes the gang.
        QTest::newRow("a counted rack refused by a taint")
            << std::string("tainted-rack") << uniform(4, 8, {}, {}, kRack) << std::string("p1:1 p2:1 p3:1 p4:1")
            << std::string();
        QTest::newRow("the taint tolerated")
            << std::string("tainted-rack") << uniform(4, 8, {}, {{"nvidia.com/gpu", "Exists", "", "NoSchedule"}}, kRack)
            << std::string("m1:1 m2:1 m3:1 m4:1") << std::string();
        // Pool a, taint tolerated: r1 holds two pool-a nodes, r2 one; both racks count 4 pods, KAI
        // tries each and neither allocates three: one fit error per rack, sorted.
        const auto poolFit = [](int found) {
            return "\nResources were found for " + std::to_string(found) +
                   " pods while 3 are required for gang scheduling. Additional pods cannot be scheduled due to: no "
                   "node in the domain that the pod's nodeSelector and tolerations admit has room for another pod.";
        };
        const std::string poolFails = "Unable to schedule podgroup." + poolFit(1) + poolFit(2);
        QTest::newRow("a selector leaves no rack enough nodes")
            << std::string("tainted-rack")
            << uniform(3, 8, {{"example.com/pool", "a"}}, {{"nvidia.com/gpu", "Exists", "", "NoSchedule"}}, kRack)
            << std::string() << poolFails;
    }

    void uniformGangPredicates() {
        QFETCH(std::string, cluster);
        QFETCH(GangRequest, request);
        QFETCH(std::string, nodes);
        QFETCH(std::string, message);
        auto c = buildCluster(cluster);
        const PlacementResult result = kaiEngine().place(*c->cluster, request, {});
        QVERIFY2(result.feasible == !nodes.empty(), (result.message + "\n" + traceText(result)).c_str());
        QCOMPARE(nodesText(result), nodes);
        if (!nodes.empty()) return;
        QCOMPARE(QString::fromStdString(result.message), QString::fromStdString(message));
        QVERIFY(!result.invalidRequest);
    }

    void heterogeneousTraceAndParts() {
        // r1 is ruled out by the summed requests, not by a pod count.
        auto c = buildCluster("pytorch");
        const PlacementResult result = kaiEngine().place(*c->cluster, pytorchJob(7, 8, kRack), {});
        const std::string trace = traceText(result);
        QVERIFY2(trace.find("- rack z1.r1: the 8 pods' summed requests exceed its free resources (ratio 1e+03)") !=
                     std::string::npos,
                 trace.c_str());
        QVERIFY2(trace.find("+ rack z1.r2: chosen: the first candidate, bottom-up, where all 8 pods allocate "
                            "(summed requests fit, ratio 1)") != std::string::npos,
                 trace.c_str());
        // Counted as alike pods of the largest request, the gang would fit no rack.
        GangRequest uniform = pytorchJob(7, 8, kRack);
        uniform.parts.clear();
        uniform.pods = 8;
        uniform.perPod = gpus(8);
        uniform.perPod.set("cpu", Quantity::fromUnits(8));
        QVERIFY(!kaiEngine().place(*c->cluster, uniform, {}).feasible);

        // Each part of "the sum fits no rack" fits a rack alone.
        auto tight = buildCluster("cpu-tight");
        const GangRequest both = gangOf({part("master", 1, 0, 8), part("worker", 4, 8, 8)}, kRack);
        for (std::size_t i = 0; i < both.parts.size(); ++i) {
            const PlacementResult alone = kaiEngine().place(*tight->cluster, both.onlyPart(i), {});
            QVERIFY2(alone.feasible, alone.message.c_str());
            QCOMPARE(chosenText(alone), std::string("zone=z1 rack=z1.r1"));
        }

        // Pods of both sizes are counted as 8-GPU copies: r1 holds 3 of the 6.
        auto sizes = buildCluster("gpu-sizes");
        const PlacementResult sized =
            kaiEngine().place(*sizes->cluster, gangOf({part("big", 2, 8), part("small", 4, 2)}, kRack), {});
        QVERIFY2(traceText(sized).find("- rack z1.r1: node-group z1.r1 can allocate only 3 of 6 required pods") !=
                     std::string::npos,
                 traceText(sized).c_str());

        // Alike parts place as the uniform gang does, success and failure alike.
        auto zones = twoZones();
        const PlacementResult spread =
            kaiEngine().place(*zones->cluster, gangOf({part("p1", 3, 4), part("p2", 4, 4)}, {}, kRack), {});
        QCOMPARE(nodesText(spread), nodesText(place(*zones->cluster, ask(7, 4, {}, kRack))));
        QCOMPARE(nodesText(spread), std::string("a1:2 a2:2 b1:1 b2:2"));
        const PlacementResult none =
            kaiEngine().place(*zones->cluster, gangOf({part("p1", 3, 4), part("p2", 4, 4)}, kRack), {});
        QCOMPARE(none.message, kNoRackFor7);

        // Parts that do not add up to the gang's pods are refused.
        GangRequest broken = both;
        broken.pods = 4;
        QVERIFY(kaiEngine().place(*tight->cluster, broken, {}).invalidRequest);
    }

    void traceListsCandidatesBottomUp() {
        auto c = twoZones();
        const PlacementResult result = place(*c->cluster, ask(7, 4, kZone, kRack));
        QVERIFY(result.feasible);
        QCOMPARE(chosenText(result), std::string("zone=z1"));
        const std::vector<TraceEntry>& trace = result.trace;
        QCOMPARE(trace.size(), std::size_t(6));
        QCOMPARE(trace[0].domain, std::string("root"));
        QVERIFY(trace[0].reason.starts_with("search root"));
        // Racks in sorted order (z2 before z1, then z1.r2 before z1.r1), then the zones.
        const std::vector<std::string> order = {"z2.r1", "z1.r2", "z1.r1", "z2", "z1"};
        for (std::size_t i = 0; i < order.size(); ++i) QCOMPARE(trace[i + 1].domain, order[i]);
        QCOMPARE(trace[1].level, std::string("rack"));
        QCOMPARE(trace[1].reason, std::string("node-group z2.r1 can allocate only 6 of 7 required pods (ratio 1.17)"));
        QVERIFY(!trace[4].taken);
        QVERIFY(trace[5].taken);
        QVERIFY2(trace[5].reason.starts_with("chosen"), trace[5].reason.c_str());
    }

    void traceShowsUntriedAndFailedCandidates() {
        auto c = buildCluster("segments");
        const PlacementResult result = place(*c->cluster, segmented(ask(8, 4, kZone), 4, kRack));
        QVERIFY(result.feasible);
        const std::string trace = traceText(result);
        QVERIFY2(trace.find("- zone z1: 8 of 8 fit (ratio 1), but subgroup worker-0 (4 pods) found no domain") !=
                     std::string::npos,
                 trace.c_str());
        QVERIFY2(trace.find("+ zone z2: chosen") != std::string::npos, trace.c_str());
        QVERIFY2(trace.find("+ rack z2.r1: worker-0: chosen") != std::string::npos, trace.c_str());
        QVERIFY2(trace.find("+ rack z2.r2: worker-1: chosen") != std::string::npos, trace.c_str());
        // Once worker-0 took z2.r1 it has nothing left for worker-1: counted as fullest, it comes first.
        QVERIFY2(trace.find("- rack z2.r1: worker-1: node-group z2.r1 can allocate only 0 of 4 required pods "
                            "(ratio 1e+03)") != std::string::npos,
                 trace.c_str());

        auto tie = buildCluster("tie");
        const PlacementResult first = place(*tie->cluster, ask(1, 8, kRack));
        QCOMPARE(first.trace.back().domain, std::string("z1.r2"));
        QVERIFY(first.trace.back().reason.starts_with("not tried"));
    }

    void traceIsBounded() {
        auto c = twoZones();
        EngineOptions options;
        options.maxTraceEntries = 2;
        const PlacementResult result = place(*c->cluster, ask(7, 4, kZone, kRack), options);
        QCOMPARE(result.trace.size(), std::size_t(3));
        QCOMPARE(result.trace.back().reason, std::string("4 more trace entries not shown"));
    }

    void missingResourceCountsAsFull() {
        auto c = buildCluster("no-cpu");
        Ask needsCpu = ask(1, 1, kRack);
        needsCpu.cpus = 1;
        const PlacementResult result = place(*c->cluster, needsCpu);
        QCOMPARE(result.trace.at(1).domain, std::string("z1.r0"));
        QCOMPARE(result.trace.at(1).reason,
                 std::string("node-group z1.r0 can allocate only 0 of 1 required pods (ratio 1e+03)"));
    }

    void assignmentCoversLowestLevel() {
        auto c = twoZones();
        const PlacementResult result = place(*c->cluster, ask(7, 4, {}, kRack));
        QCOMPARE(result.assignment.levels, kZoneRack);
        QCOMPARE(result.assignment.domains.size(), std::size_t(2));
        QCOMPARE(result.assignment.domains[0].values, (std::vector<std::string>{"z1", "r1"}));
        QCOMPARE(result.assignment.domains[0].count, 4);
        QCOMPARE(result.assignment.domains[1].values, (std::vector<std::string>{"z1", "r2"}));
        QCOMPARE(result.assignment.domains[1].count, 3);
    }

    void whatIfDrainAndAssume() {
        auto c = twoZones();
        PlacementCluster whatIf = *c->cluster;
        for (const char* name : {"c1", "c2"}) whatIf.drain(*c->state.findNode(name));
        // z2.r1 keeps 2 slots: 4 pods now go to z1, whose r2 is the fuller rack.
        const PlacementResult drained = place(whatIf, ask(3, 4, kRack));
        QVERIFY(drained.feasible);
        QCOMPARE(chosenText(drained), std::string("zone=z1 rack=z1.r2"));
        QCOMPARE(nodesText(drained), std::string("b1:1 b2:2"));

        PlacementCluster assumed = *c->cluster;
        assumed.assume(*c->state.findNode("c3"), gpus(8), 1);
        const PlacementResult packed = place(assumed, ask(2, 4, kRack));
        QCOMPARE(nodesText(packed), std::string("c1:2"));
    }

    void notesExplainCapacity() {
        auto c = buildCluster("unlabelled");
        const PlacementResult result = place(*c->cluster, ask(1, 2, kZone));
        QVERIFY(result.feasible);
        QCOMPARE(nodesText(result), std::string("a1:1"));
        bool outsideNote = false;
        for (const std::string& note : result.notes)
            outsideNote = outsideNote || note.starts_with("2 node(s) lack a topology level label");
        QVERIFY(outsideNote);

        auto rack = buildCluster("single-rack");
        const PlacementResult quirk = place(*rack->cluster, ask(1, 8, kZone));
        QVERIFY(std::any_of(quirk.notes.begin(), quirk.notes.end(),
                            [](const std::string& note) { return note.find("search root") != std::string::npos; }));
    }

    void invalidRequests() {
        auto c = twoZones();
        Ask none = ask(0, 8, kRack);
        QVERIFY(place(*c->cluster, none).invalidRequest);
        Ask negative = segmented(ask(4, 8, kRack), -1, kRack);
        const PlacementResult result = place(*c->cluster, negative);
        QVERIFY(result.invalidRequest);
        QCOMPARE(result.message, std::string("segment size -1 on worker podTemplate needs to be a positive integer"));
    }

    void engineBasics() {
        const PlacementEngine& engine = kaiEngine();
        QCOMPARE(engine.name(), std::string_view("kai"));
        QVERIFY(!engine.description().empty());
        auto c = twoZones();
        QVERIFY(engine.unavailableReason(*c->cluster, request(ask(1, 8, kRack))).empty());
        auto flat = makeTestCluster({}, {testNode("a1", {})});
        QVERIFY(!engine.unavailableReason(*flat->cluster, request(ask(1, 8, kRack))).empty());
        QVERIFY(engine.place(*flat->cluster, request(ask(1, 8, kRack)), {}).invalidRequest);
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestKai)
#include "test_kai.moc"
