// kueue-tas engine: cases derived from scheduler-semantics §1 and Kueue's TestFindTopologyAssignments
// (pkg/cache/scheduler/tas_cache_test.go), rewritten with GPUs as the capacity that counts.

#include "core/placement/engines/kueue_tas_engine.h"

#include "placement_support.h"
#include "support/test_program.h"

#include <QTest>

#include <optional>
#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const std::string kBlock = "cloud.com/topology-block";
const std::string kRack = "cloud.com/topology-rack";
const std::string kHost = "kubernetes.io/hostname";

using Mode = KueueConstraint::Mode;
using Profile = EngineOptions::KueueProfile;

ResourceList resources(std::initializer_list<std::pair<const char*, const char*>> entries) {
    ResourceList list;
    for (const auto& [name, quantity] : entries) list.set(name, *Quantity::parse(quantity));
    return list;
}

GangRequest gang(int pods, ResourceList perPod, Mode mode = Mode::Implied, std::string level = {},
                 std::vector<SliceLayer> slices = {}) {
    GangRequest request;
    request.name = "main";
    request.pods = pods;
    request.perPod = std::move(perPod);
    request.kueue.mode = mode;
    request.kueue.level = std::move(level);
    request.kueue.slices = std::move(slices);
    return request;
}

GangRequest withSelector(GangRequest request, std::vector<std::pair<std::string, std::string>> selector) {
    request.nodeSelector = std::move(selector);
    return request;
}

GangRequest withTolerations(GangRequest request, std::vector<Toleration> tolerations) {
    request.tolerations = std::move(tolerations);
    return request;
}

TestNode tainted(TestNode n, Taint taint) {
    n.taints.push_back(std::move(taint));
    return n;
}

TestNode labelled(TestNode n, std::string key, std::string value) {
    n.extraLabels.emplace_back(std::move(key), std::move(value));
    return n;
}

// Kueue's defaultNodes, one GPU standing for one CPU: b1/r1: x3; b1/r2: x5, x1, x6; b2/r1: x2;
// b2/r2: x4 (2 GPUs).
std::vector<TestNode> defaultNodes() {
    return {testNode("x3", {"b1", "r1"}, 1), testNode("x5", {"b1", "r2"}, 1), testNode("x1", {"b1", "r2"}, 1),
            testNode("x6", {"b1", "r2"}, 1), testNode("x2", {"b2", "r1"}, 1), testNode("x4", {"b2", "r2"}, 2)};
}

// Kueue's scatteredNodes: b1/r1: x3 (4), x5, x1; b2/r1: x6 (2), x2.
std::vector<TestNode> scatteredNodes() {
    return {testNode("x3", {"b1", "r1"}, 4), testNode("x5", {"b1", "r1"}, 1), testNode("x1", {"b1", "r1"}, 1),
            testNode("x6", {"b2", "r1"}, 2), testNode("x2", {"b2", "r1"}, 1)};
}

struct Case {
    std::string name;
    std::vector<std::string> levels;
    std::vector<TestNode> nodes;
    GangRequest request;
    Profile profile = Profile::Auto;
    bool feasible = false;
    bool invalid = false;
    std::string message;               // exact; checked unless feasible
    std::string assignment;            // "x1:1 x3:2" or "b1,r2:3"; checked when feasible
    std::optional<std::string> chosen; // "block=b1 rack=b1/r2"
};

Case fits(std::string name, std::vector<std::string> levels, std::vector<TestNode> nodes, GangRequest request,
          std::string assignment, std::optional<std::string> chosen = std::nullopt, Profile profile = Profile::Auto) {
    Case c;
    c.name = std::move(name);
    c.levels = std::move(levels);
    c.nodes = std::move(nodes);
    c.request = std::move(request);
    c.profile = profile;
    c.feasible = true;
    c.assignment = std::move(assignment);
    c.chosen = std::move(chosen);
    return c;
}

Case failsWith(std::string name, std::vector<std::string> levels, std::vector<TestNode> nodes, GangRequest request,
               std::string message, Profile profile = Profile::Auto) {
    Case c;
    c.name = std::move(name);
    c.levels = std::move(levels);
    c.nodes = std::move(nodes);
    c.request = std::move(request);
    c.profile = profile;
    c.message = std::move(message);
    return c;
}

Case rejects(std::string name, std::vector<std::string> levels, std::vector<TestNode> nodes, GangRequest request,
             std::string message) {
    Case c = failsWith(std::move(name), std::move(levels), std::move(nodes), std::move(request), std::move(message));
    c.invalid = true;
    return c;
}

const std::vector<Case>& cases() {
    static const std::vector<Case> all = [] {
        const std::vector<std::string> twoLevels = {kBlock, kRack};
        const std::vector<std::string> threeLevels = {kBlock, kRack, kHost};
        std::vector<Case> c;

        // --- BestFit: required and preferred -----------------------------------------------------
        c.push_back(fits("rack required; 3 pods fit in one rack (rack leaves)", twoLevels, defaultNodes(),
                         gang(3, gpus(1), Mode::Required, kRack), "b1,r2:3", "block=b1 rack=b1/r2"));
        c.push_back(fits("rack required; BestFit takes the tightest rack", twoLevels, defaultNodes(),
                         gang(2, gpus(1), Mode::Required, kRack), "b2,r2:2", "block=b2 rack=b2/r2"));
        c.push_back(fits("a level's short name resolves", twoLevels, defaultNodes(),
                         gang(3, gpus(1), Mode::Required, "rack"), "b1,r2:3"));
        c.push_back(failsWith("rack required; too many pods for any rack", twoLevels, defaultNodes(),
                              gang(4, gpus(1), Mode::Required, kRack),
                              R"(topology "default" allows to fit only 3 out of 4 pod(s))"));
        c.push_back(failsWith(
            "block required; a pod larger than every rack", twoLevels, defaultNodes(),
            gang(1, gpus(4), Mode::Required, kBlock),
            R"(topology "default" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: resource "nvidia.com/gpu": 4)"));
        c.push_back(failsWith("block required; 5 pods exceed the largest block", twoLevels, defaultNodes(),
                              gang(5, gpus(1), Mode::Required, kBlock),
                              R"(topology "default" allows to fit only 4 out of 5 pod(s))"));
        c.push_back(
            fits("block required; fewest racks before fewest nodes", threeLevels,
                 {testNode("x3", {"b1", "r1"}, 2), testNode("x5", {"b1", "r2"}, 2), testNode("x1", {"b1", "r3"}, 1),
                  testNode("x6", {"b1", "r3"}, 1), testNode("x2", {"b1", "r3"}, 1), testNode("x4", {"b1", "r3"}, 1)},
                 gang(4, gpus(1), Mode::Required, kBlock), "x1:1 x2:1 x4:1 x6:1", "block=b1"));
        c.push_back(
            fits("block required; the node that takes the whole gang", threeLevels,
                 {testNode("x3", {"b1", "r1"}, 2), testNode("x5", {"b1", "r1"}, 1), testNode("x1", {"b1", "r1"}, 1)},
                 gang(2, gpus(1), Mode::Required, kBlock), "x3:2"));
        c.push_back(fits("tie on capacity: bytewise name order (r10 before r9)", twoLevels,
                         {testNode("a", {"b1", "r9"}, 2), testNode("b", {"b1", "r10"}, 2)},
                         gang(2, gpus(1), Mode::Required, kRack), "b1,r10:2", "block=b1 rack=b1/r10"));
        c.push_back(fits("tie on slices: fewer free pods first", threeLevels,
                         {testNode("n1", {"b1", "ra"}, 5), testNode("n2", {"b1", "rb"}, 4)},
                         gang(4, gpus(1), Mode::Required, kRack, {{kRack, 2}}), "n2:4", "block=b1 rack=b1/rb"));
        c.push_back(fits("preferred rack climbs to the block", threeLevels, defaultNodes(),
                         gang(4, gpus(1), Mode::Preferred, kRack), "x3:1 x1:1 x5:1 x6:1", "block=b1"));
        c.push_back(fits("preferred at the top: BestFit finishes with the tightest block", {kBlock},
                         {testNode("b1", {"b1"}, 2), testNode("b2", {"b2"}, 1), testNode("b3", {"b3"}, 4)},
                         gang(5, gpus(1), Mode::Preferred, kBlock), "b2:1 b3:4", ""));
        // Blocks get 4 + 1, but the racks of both are pooled: rack r3 (block b2) takes 3.
        c.push_back(
            fits("pooled descent moves pods between sibling blocks", threeLevels,
                 {testNode("n1", {"b1", "r1"}, 1), testNode("n2", {"b1", "r1"}, 1), testNode("n3", {"b1", "r2"}, 1),
                  testNode("n4", {"b1", "r2"}, 1), testNode("n5", {"b2", "r3"}, 3)},
                 gang(5, gpus(1), Mode::Preferred, kRack), "n1:1 n2:1 n5:3", "block=b1 block=b2"));

        // --- LeastFreeCapacity (unconstrained, implied, forced) ------------------------------------
        c.push_back(fits("implied: LeastFreeCapacity fills the smallest nodes first", threeLevels, scatteredNodes(),
                         gang(6, gpus(1)), "x1:1 x3:1 x5:1 x2:1 x6:2", ""));
        c.push_back(fits("implied with BestFit forced: the largest nodes", threeLevels, scatteredNodes(),
                         gang(6, gpus(1)), "x3:4 x6:2", std::nullopt, Profile::BestFit));
        c.push_back(fits("unconstrained: one pod on the first least-free node", threeLevels, defaultNodes(),
                         gang(1, gpus(1), Mode::Unconstrained), "x3:1", "block=b1 rack=b1/r1 hostname=b1/r1/x3"));
        c.push_back(
            fits("unconstrained: the least free node that takes all", threeLevels,
                 {testNode("n1", {"b1", "r1"}, 4), testNode("n2", {"b1", "r1"}, 2), testNode("n3", {"b1", "r2"}, 3)},
                 gang(2, gpus(1), Mode::Unconstrained), "n2:2"));
        c.push_back(failsWith("LeastFreeCapacity forced on a required request", twoLevels, defaultNodes(),
                              gang(4, gpus(1), Mode::Required, kRack),
                              R"(topology "default" allows to fit only 3 out of 4 pod(s))",
                              Profile::LeastFreeCapacity));
        c.push_back(
            fits("slice-only request: from the top, least free block", threeLevels,
                 {testNode("n1", {"b1", "r1"}, 2), testNode("n2", {"b2", "r2"}, 4), testNode("n3", {"b2", "r3"}, 2)},
                 gang(2, gpus(1), Mode::Implied, {}, {{kRack, 2}}), "n1:2", "block=b1"));

        // --- node filters, exclusions and capacity ------------------------------------------------
        c.push_back(failsWith(
            "exclusions: taint, nodeSelector and resource, sorted", {kHost},
            {labelled(tainted(testNode("n1", {}, 8), {"key", "value", "NoSchedule"}), "pool", "a"),
             labelled(testNode("n2", {}, 8), "pool", "b"), testNode("n3", {}, 8),
             [] {
                 TestNode n = labelled(testNode("n4", {}, 8), "pool", "a");
                 n.usedCpus = 10;
                 return n;
             }()},
            withSelector(gang(1, resources({{"cpu", "64"}}), Mode::Required, kHost), {{"pool", "a"}}),
            R"(topology "default" doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: nodeSelector: 2, resource "cpu": 1, taint "key=value:NoSchedule": 1)"));
        c.push_back(fits("tolerated and PreferNoSchedule taints do not exclude", {kBlock, kHost},
                         {tainted(testNode("n1", {"b1"}, 8), {"gpu", "true", "NoSchedule"}),
                          tainted(testNode("n2", {"b1"}, 8), {"soft", "", "PreferNoSchedule"})},
                         withTolerations(gang(2, gpus(8), Mode::Required, kBlock), {{"gpu", "Exists", "", ""}}),
                         "n1:1 n2:1"));
        c.push_back(failsWith(
            "allows to fit only, with the exclusions", {kBlock, kHost},
            {tainted(testNode("n1", {"b1"}, 8), {"maint", "", "NoExecute"}), testNode("n2", {"b1"}, 8),
             testNode("n3", {"b1"}, 8, 4)},
            gang(3, gpus(8), Mode::Required, kBlock),
            R"(topology "default" allows to fit only 1 out of 3 pod(s). Total nodes: 3; excluded: resource "nvidia.com/gpu": 1, taint "maint:NoExecute": 1)"));
        c.push_back(failsWith(
            "NotReady and cordoned nodes are not counted", {kHost},
            {[] {
                 TestNode n = testNode("n1", {}, 8);
                 n.ready = false;
                 return n;
             }(),
             [] {
                 TestNode n = testNode("n2", {}, 8);
                 n.cordoned = true;
                 return n;
             }(),
             testNode("n3", {}, 8), tainted(testNode("n4", {}, 8), {"t", "x", "NoSchedule"})},
            gang(2, gpus(8), Mode::Required, kHost),
            R"(topology "default" allows to fit only 1 out of 2 pod(s). Total nodes: 2; excluded: taint "t=x:NoSchedule": 1)"));
        c.push_back(failsWith(
            "nodes without every level label are not used", threeLevels,
            {testNode("n1", {"b1", "r1"}, 8), testNode("n2", {"b1", ""}, 8),
             tainted(testNode("n3", {"b1", "r1"}, 8), {"t", "", "NoSchedule"})},
            gang(2, gpus(8), Mode::Required, kBlock),
            R"(topology "default" allows to fit only 1 out of 2 pod(s). Total nodes: 2; excluded: taint "t:NoSchedule": 1)"));
        c.push_back(failsWith(
            "fragmented nodes fit no whole pod", threeLevels,
            {testNode("n1", {"b1", "r1"}, 8, 4), testNode("n2", {"b1", "r1"}, 8, 4)},
            gang(1, gpus(8), Mode::Required, kRack),
            R"(topology "default" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: resource "nvidia.com/gpu": 2)"));
        c.push_back(fits("rack leaves sum capacity, so fragmentation is invisible", twoLevels,
                         {testNode("n1", {"b1", "r1"}, 8, 4), testNode("n2", {"b1", "r1"}, 8, 4)},
                         gang(1, gpus(8), Mode::Required, kRack), "b1,r1:1"));
        c.push_back(fits("a zero request is ignored", {kHost}, {[] {
                             TestNode n = testNode("n1", {}, 8);
                             n.usedCpus = 64;
                             return n;
                         }()},
                         gang(2, resources({{"nvidia.com/gpu", "1"}, {"cpu", "0"}}), Mode::Required, kHost), "n1:2"));
        c.push_back(failsWith("allocatable pods limit the count", {kHost}, {[] {
                                  TestNode n = testNode("n1", {}, 8);
                                  n.podSlots = 2;
                                  return n;
                              }()},
                              gang(3, gpus(1), Mode::Required, kHost),
                              R"(topology "default" allows to fit only 2 out of 3 pod(s))"));
        c.push_back(failsWith(
            "no pod slots left", {kHost}, {[] {
                TestNode n = testNode("n1", {}, 8);
                n.podSlots = 0;
                return n;
            }()},
            gang(1, gpus(1), Mode::Required, kHost),
            R"(topology "default" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "pods": 1)"));
        c.push_back(failsWith(
            "limiting resources tie: the first name", {kHost}, {[] {
                TestNode n = testNode("n1", {}, 8, 8);
                n.usedCpus = 64;
                return n;
            }()},
            gang(1, resources({{"nvidia.com/gpu", "1"}, {"cpu", "1"}}), Mode::Required, kHost),
            R"(topology "default" doesn't allow to fit any of 1 pod(s). Total nodes: 1; excluded: resource "cpu": 1)"));
        c.push_back(failsWith("no domains at the level", twoLevels, {[] {
                                  TestNode n = testNode("n1", {"b1", "r1"}, 8);
                                  n.ready = false;
                                  return n;
                              }()},
                              gang(1, gpus(1), Mode::Required, kRack),
                              "no topology domains at level: cloud.com/topology-rack"));

        // --- slices ---------------------------------------------------------------------------------
        c.push_back(fits("slices: pooled to racks, then per rack", threeLevels,
                         {testNode("n1", {"b1", "r1"}, 1), testNode("n2", {"b1", "r1"}, 1),
                          testNode("n3", {"b1", "r1"}, 1), testNode("n4", {"b1", "r2"}, 2)},
                         gang(4, gpus(1), Mode::Required, kBlock, {{kRack, 2}}), "n1:1 n2:1 n4:2", "block=b1"));
        c.push_back(
            fits("slices: below the slice level the smallest nodes fill first", threeLevels,
                 {testNode("n1", {"b1", "r1"}, 2), testNode("n2", {"b1", "r1"}, 1), testNode("n3", {"b1", "r1"}, 1)},
                 gang(2, gpus(1), Mode::Required, kRack, {{kRack, 2}}), "n2:1 n3:1"));
        c.push_back(
            fits("no slices: the same rack packs one node", threeLevels,
                 {testNode("n1", {"b1", "r1"}, 2), testNode("n2", {"b1", "r1"}, 1), testNode("n3", {"b1", "r1"}, 1)},
                 gang(2, gpus(1), Mode::Required, kRack), "n1:2"));
        c.push_back(failsWith("slices: too few whole slices", threeLevels,
                              {testNode("n1", {"b1", "r1"}, 1), testNode("n2", {"b1", "r2"}, 3)},
                              gang(4, gpus(1), Mode::Required, kBlock, {{kRack, 2}}),
                              R"(topology "default" allows to fit only 1 out of 2 slice(s))"));
        c.push_back(fits("multi-layer slices: rack 4, hostname 2", threeLevels,
                         {testNode("x1", {"b1", "r1"}, 2), testNode("x2", {"b1", "r1"}, 2),
                          testNode("x3", {"b1", "r2"}, 2), testNode("x4", {"b1", "r2"}, 2)},
                         gang(8, gpus(1), Mode::Required, kBlock, {{kRack, 4}, {kHost, 2}}), "x1:2 x2:2 x3:2 x4:2"));
        c.push_back(
            fits("multi-layer slices: odd nodes hold whole inner slices only", threeLevels,
                 {testNode("x1", {"b1", "r1"}, 3), testNode("x2", {"b1", "r1"}, 1), testNode("x3", {"b1", "r2"}, 4),
                  testNode("x4", {"b1", "r3"}, 3), testNode("x5", {"b1", "r3"}, 2)},
                 gang(8, gpus(1), Mode::Required, kBlock, {{kRack, 4}, {kHost, 2}}), "x3:4 x4:2 x5:2"));
        c.push_back(failsWith(
            "multi-layer slices: the per-layer message", threeLevels,
            {testNode("x1", {"b1", "r1"}, 3), testNode("x2", {"b1", "r1"}, 1), testNode("x3", {"b1", "r2"}, 2),
             testNode("x4", {"b1", "r2"}, 2)},
            gang(8, gpus(1), Mode::Required, kBlock, {{kRack, 4}, {kHost, 2}}),
            R"(topology "default" doesn't allow to fit; 1/2 slice(s) fit on level cloud.com/topology-rack; 3/4 slice(s) fit on level kubernetes.io/hostname)"));

        // --- invalid requests -------------------------------------------------------------------
        c.push_back(rejects("unknown level", threeLevels, defaultNodes(), gang(1, gpus(1), Mode::Required, "zone"),
                            "no requested topology level: zone"));
        c.push_back(rejects("unknown slice level", threeLevels, defaultNodes(),
                            gang(2, gpus(1), Mode::Required, kBlock, {{"pod", 2}}),
                            "no requested topology level for slices: pod"));
        c.push_back(rejects("slice level above the podset level", threeLevels, defaultNodes(),
                            gang(2, gpus(1), Mode::Required, kRack, {{kBlock, 2}}),
                            "podset slice topology cloud.com/topology-block is above the podset topology "
                            "cloud.com/topology-rack"));
        c.push_back(rejects("slice size missing", threeLevels, defaultNodes(),
                            gang(2, gpus(1), Mode::Required, kBlock, {{kRack, 0}}),
                            "slice topology requested, but slice size not provided"));
        c.push_back(rejects("inner slice layer must divide the outer one", threeLevels, defaultNodes(),
                            gang(8, gpus(1), Mode::Required, kBlock, {{kRack, 4}, {kHost, 3}}),
                            "additional slice layer size 3 must evenly divide parent layer size 4"));
        c.push_back(rejects("inner slice layer must be lower", threeLevels, defaultNodes(),
                            gang(8, gpus(1), Mode::Required, kBlock, {{kRack, 4}, {kBlock, 2}}),
                            "additional slice layer topology cloud.com/topology-block must be at a lower level than "
                            "cloud.com/topology-rack"));
        c.push_back(rejects("slice size must divide the pod count", threeLevels, defaultNodes(),
                            gang(5, gpus(1), Mode::Required, kBlock, {{kRack, 2}}),
                            "slice size 2 does not evenly divide the 5 pods (Kueue's webhook rejects this)"));
        c.push_back(rejects("required without a level", threeLevels, defaultNodes(), gang(1, gpus(1), Mode::Required),
                            "topology level not specified"));
        return c;
    }();
    return all;
}

std::string compact(const TopologyAssignment& assignment) {
    std::string text;
    for (const auto& domain : assignment.domains) {
        if (!text.empty()) text += ' ';
        for (std::size_t i = 0; i < domain.values.size(); ++i) text += (i ? "," : "") + domain.values[i];
        text += ":" + std::to_string(domain.count);
    }
    return text;
}

std::string compact(const std::vector<ChosenDomain>& chosen) {
    std::string text;
    for (const auto& c : chosen) text += (text.empty() ? "" : " ") + c.level + "=" + c.domain;
    return text;
}

std::string traceText(const PlacementResult& result) {
    std::string text;
    for (const auto& entry : result.trace)
        text += "[" + entry.level + "] " + entry.domain + (entry.taken ? " +" : " -") + " " + entry.reason + "\n";
    return text;
}

} // namespace

class TestKueueTas : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void placement_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].name.c_str()) << static_cast<int>(i);
    }

    void placement() {
        QFETCH(int, index);
        const Case& c = cases()[static_cast<std::size_t>(index)];
        auto cluster = makeTestCluster(c.levels, c.nodes);
        EngineOptions options;
        options.kueueProfile = c.profile;
        const PlacementResult result = kueueTasEngine().place(*cluster->cluster, c.request, options);
        const std::string context = result.message + "\n" + traceText(result);
        QCOMPARE(result.engine, std::string("kueue-tas"));
        QVERIFY2(result.feasible == c.feasible, context.c_str());
        QCOMPARE(result.invalidRequest, c.invalid);
        if (c.feasible) {
            QVERIFY2(compact(result.assignment) == c.assignment, (compact(result.assignment) + "\n" + context).c_str());
            std::int32_t pods = 0;
            for (const auto& d : result.assignment.domains) pods += d.count;
            QCOMPARE(pods, c.request.pods);
        } else {
            QCOMPARE(result.message, c.message);
            QVERIFY(result.assignment.domains.empty());
            QVERIFY(result.nodes.empty());
        }
        if (c.chosen) QCOMPARE(compact(result.chosen), *c.chosen);
    }

    // Assignment shape: hostname only when it is the lowest level, and then a node list too.
    void assignmentLevelsAndNodes() {
        auto hosts = makeTestCluster({kBlock, kRack, kHost}, defaultNodes());
        const PlacementResult byHost =
            kueueTasEngine().place(*hosts->cluster, gang(4, gpus(1), Mode::Preferred, kRack), {});
        QVERIFY(byHost.feasible);
        QCOMPARE(byHost.assignment.levels, std::vector<std::string>{kHost});
        const std::vector<NodePods> expected = {{"x1", 1}, {"x3", 1}, {"x5", 1}, {"x6", 1}};
        QCOMPARE(byHost.nodes, expected);
        QCOMPARE(
            byHost.message,
            std::string(R"(topology "default": 4 pod(s) assigned to 4 domain(s) at level kubernetes.io/hostname)"));

        auto racks = makeTestCluster({kBlock, kRack}, defaultNodes());
        const PlacementResult byRack =
            kueueTasEngine().place(*racks->cluster, gang(3, gpus(1), Mode::Required, kRack), {});
        QVERIFY(byRack.feasible);
        QCOMPARE(byRack.assignment.levels, (std::vector<std::string>{kBlock, kRack}));
        QVERIFY(byRack.nodes.empty());
        QVERIFY(!byRack.notes.empty());
    }

    void topologyNameIsQuoted() {
        auto cluster = makeTestCluster({kRack, kHost}, {testNode("n1", {"r1"}, 8)});
        TopologySpec spec = TopologySpec::fromLabelKeys({kRack, kHost});
        spec.name = "gb200-tas";
        cluster->index = std::make_unique<TopologyIndex>(TopologyIndex::build(cluster->state, spec));
        cluster->cluster = std::make_unique<PlacementCluster>(cluster->state, *cluster->index);
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(2, gpus(8), Mode::Required, kRack), {});
        QCOMPARE(result.message, std::string(R"(topology "gb200-tas" allows to fit only 1 out of 2 pod(s))"));
        QVERIFY(!result.notes.empty());
        QCOMPARE(result.notes.back(),
                 "Kueue reports it as: couldn't assign flavors to pod set main: " + result.message);
    }

    void drainedNodesAreSkipped() {
        auto cluster = makeTestCluster({kBlock, kHost}, {testNode("n1", {"b1"}, 8), testNode("n2", {"b1"}, 8)});
        cluster->cluster->drain(*cluster->state.findNode("n1"));
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(1, gpus(8), Mode::Required, kBlock), {});
        QVERIFY(result.feasible);
        QCOMPARE(compact(result.assignment), std::string("n2:1"));
    }

    void assumedUsageIsSubtracted() {
        auto cluster = makeTestCluster({kBlock, kHost}, {testNode("n1", {"b1"}, 8), testNode("n2", {"b1"}, 8)});
        cluster->cluster->assume(*cluster->state.findNode("n2"), gpus(6), 1);
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(3, gpus(2), Mode::Required, kBlock), {});
        QVERIFY(result.feasible);
        QCOMPARE(compact(result.assignment), std::string("n1:3")); // BestFit: n1 (4 pods) takes all 3
    }

    // The trace says, per candidate at the deciding level, why it was taken or passed over.
    void traceExplainsCandidates() {
        auto cluster = makeTestCluster({kBlock, kRack}, defaultNodes());
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(2, gpus(1), Mode::Required, kRack), {});
        QVERIFY(result.feasible);
        const auto find = [&](const std::string& domain) -> const TraceEntry* {
            for (const auto& entry : result.trace)
                if (entry.level == "rack" && entry.domain == domain) return &entry;
            return nullptr;
        };
        const TraceEntry* taken = find("b2/r2");
        QVERIFY(taken && taken->taken);
        QCOMPARE(taken->reason, std::string("fits 2 of 2 pods; the tightest fit"));
        const TraceEntry* looser = find("b1/r2");
        QVERIFY(looser && !looser->taken);
        QCOMPARE(looser->reason, std::string("fits 3 of 2 pods; looser than b2/r2"));
        const TraceEntry* small = find("b1/r1");
        QVERIFY(small && !small->taken);
        QCOMPARE(small->reason, std::string("fits 1 of 2 pods; too small"));
        QVERIFY(result.trace.front().reason.starts_with("profile BestFit (Kueue's default for a required request)"));
    }

    void pooledDescentIsTraced() {
        auto cluster =
            makeTestCluster({kBlock, kRack, kHost}, {testNode("n1", {"b1", "r1"}, 1), testNode("n2", {"b1", "r1"}, 1),
                                                     testNode("n3", {"b1", "r2"}, 1), testNode("n4", {"b1", "r2"}, 1),
                                                     testNode("n5", {"b2", "r3"}, 3)});
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(5, gpus(1), Mode::Preferred, kRack), {});
        QVERIFY(result.feasible);
        std::vector<std::string> blocks;
        for (const auto& entry : result.trace)
            if (entry.level == "block" && !entry.domain.empty()) blocks.push_back(entry.domain + ": " + entry.reason);
        const std::vector<std::string> expected = {
            "b1: takes 4 pods; fits 4 of 5 pods; ends with 2 pods after the pooled descent below",
            "b2: takes 1 pod; fits 3 of 5 pods; ends with 3 pods after the pooled descent below"};
        QCOMPARE(blocks, expected);
        QVERIFY(result.trace[2].reason.starts_with("no rack domain fits 5 pods (the largest fits 3)"));
    }

    void traceIsBounded() {
        std::vector<TestNode> nodes;
        for (int i = 0; i < 10; ++i) nodes.push_back(testNode("n" + std::to_string(i), {"b1"}, 8));
        auto cluster = makeTestCluster({kBlock, kHost}, nodes);
        EngineOptions options;
        options.maxTraceEntries = 3;
        const PlacementResult result =
            kueueTasEngine().place(*cluster->cluster, gang(5, gpus(8), Mode::Unconstrained), options);
        QVERIFY(result.feasible);
        int perNode = 0;
        int taken = 0;
        for (const auto& entry : result.trace) {
            if (entry.level != "hostname" || entry.domain.empty()) continue;
            ++perNode;
            taken += entry.taken ? 1 : 0;
        }
        QCOMPARE(perNode, 3);
        QCOMPARE(taken, 3); // taken candidates are listed first within the bound
        QCOMPARE(result.trace.back().reason, std::string("… 7 hostname domains not listed"));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestKueueTas)
#include "test_kueue_tas.moc"
