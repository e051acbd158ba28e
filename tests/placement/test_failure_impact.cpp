// Failure what-if on hand-built clusters whose answers are known: which running gangs a failed node
// or domain breaks, how many pods each loses, and whether each fits again under its scheduler.

#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/placement/engines/what_if.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/whatif/failure_impact.h"
#include "core/placement/whatif/what_if_sequence.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

const std::vector<std::string> kLevels = {"example.com/block", "example.com/rack"};

struct GangPods {
    std::string name;
    WorkloadKind kind = WorkloadKind::Job;
    std::vector<std::string> nodes; // one 8-GPU pod on each
    PodTopologyRequest topology{};
    PodScheduler scheduler = PodScheduler::Default;
    int gpusPerPod = 8;
};

// Two blocks of two racks of four 8-GPU nodes: b1 holds r1 and r2, b2 holds r3 and r4; node
// "r<rack>-n<n>". Racks listed in `busy` are full of pods that belong to no gang.
struct Built {
    ClusterState state;
    TopologyIndex index;
};

std::unique_ptr<Built> build(const std::vector<GangPods>& gangs, const std::vector<int>& busyRacks) {
    std::vector<TestNode> nodes;
    for (int rack = 1; rack <= 4; ++rack)
        for (int n = 1; n <= 4; ++n) {
            const bool busy = std::find(busyRacks.begin(), busyRacks.end(), rack) != busyRacks.end();
            nodes.push_back(testNode("r" + std::to_string(rack) + "-n" + std::to_string(n),
                                     {rack <= 2 ? "b1" : "b2", "r" + std::to_string(rack)}, 8, busy ? 8 : 0));
        }
    auto test = makeTestCluster(kLevels, nodes);
    auto built = std::make_unique<Built>();
    built->state = std::move(test->state);
    for (const GangPods& gang : gangs)
        for (std::size_t i = 0; i < gang.nodes.size(); ++i) {
            Pod pod;
            pod.nameSpace = "team";
            pod.name = gang.name + "-" + std::to_string(i);
            pod.nodeName = gang.nodes[i];
            pod.phase = PodPhase::Running;
            pod.requests = gpus(gang.gpusPerPod);
            pod.workload = gang.name;
            pod.workloadKind = gang.kind;
            pod.topology = gang.topology;
            pod.scheduler = gang.scheduler;
            (void)built->state.apply(PodUpserted{std::move(pod)});
        }
    built->index = TopologyIndex::build(built->state, TopologySpec::fromLabelKeys(kLevels));
    return built;
}

std::vector<NodeId> ids(const ClusterState& state, const std::vector<std::string>& names) {
    std::vector<NodeId> out;
    for (const std::string& name : names) out.push_back(*state.findNode(name));
    return out;
}

const GangFailure* find(const FailureReport& report, const std::string& gang) {
    for (const GangFailure& failure : report.broken)
        if (failure.gang == "team/" + gang) return &failure;
    return nullptr;
}

std::vector<std::string> rackNodes(int rack) {
    std::vector<std::string> out;
    for (int n = 1; n <= 4; ++n) out.push_back("r" + std::to_string(rack) + "-n" + std::to_string(n));
    return out;
}

const PodTopologyRequest kRequiredRack{PodTopologyRequest::Mode::Required, "example.com/rack"};

} // namespace

class TestFailureImpact : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kueueRequiredRackNoLongerFits() {
        // r1 is the gang's; every other rack is full: three nodes are left where four are needed.
        auto c = build({{"trainer", WorkloadKind::KueueWorkload, rackNodes(1), kRequiredRack}}, {2, 3, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n2"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        const GangFailure& gang = report.broken.front();
        QCOMPARE(gang.gang, std::string("team/trainer"));
        QCOMPARE(gang.kind, WorkloadKind::KueueWorkload);
        QCOMPARE(gang.engine, std::string("kueue-tas"));
        QVERIFY2(gang.engineReason.find("podset-required-topology") != std::string::npos, gang.engineReason.c_str());
        QCOMPARE(gang.pods, 4);
        QCOMPARE(gang.lostPods, 1);
        QVERIFY(!gang.fits);
        QVERIFY(!gang.message.empty());
        QCOMPARE(gang.request.kueue.mode, KueueConstraint::Mode::Required);
    }

    void kueueRequiredRackRefitsInAnotherRack() {
        // r3 is empty: the whole gang moves there, none of it left on r1.
        auto c = build({{"trainer", WorkloadKind::KueueWorkload, rackNodes(1), kRequiredRack}}, {2, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n2"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        const GangFailure& gang = report.broken.front();
        QVERIFY2(gang.fits, gang.message.c_str());
        int pods = 0;
        for (const NodePods& placed : gang.nodes) {
            QVERIFY2(placed.node.rfind("r3-", 0) == 0, placed.node.c_str());
            pods += placed.pods;
        }
        QCOMPARE(pods, 4);
    }

    void volcanoJobRefitsWithoutTopology() {
        auto c = build({{"sim", WorkloadKind::VolcanoJob, {"r1-n1", "r2-n1"}}}, {3, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r2-n1"}));
        const GangFailure* gang = find(report, "sim");
        QVERIFY(gang);
        QCOMPARE(gang->engine, std::string("volcano"));
        QVERIFY2(gang->engineReason.find("networkTopology") != std::string::npos, gang->engineReason.c_str());
        QCOMPARE(gang->lostPods, 1);
        QVERIFY2(gang->fits, gang->message.c_str());
    }

    void volcanoJobRefitsOnTheNodesItReleased() {
        // Three of r1's nodes run the gang, every other rack is full. r1-n1 fails: the gang is taken
        // off (its pods on r1-n2 and r1-n3 released) and placed again, which fits only on r1-n2,
        // r1-n3 and r1-n4, that is only if Volcano sees what the what-if released.
        auto c = build({{"sim", WorkloadKind::VolcanoJob, {"r1-n1", "r1-n2", "r1-n3"}}}, {2, 3, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n1"}));
        const GangFailure* gang = find(report, "sim");
        QVERIFY(gang);
        QCOMPARE(gang->engine, std::string("volcano"));
        QCOMPARE(gang->lostPods, 1);
        QVERIFY2(gang->fits, gang->message.c_str());
        std::vector<std::string> placed;
        for (const NodePods& onNode : gang->nodes) placed.push_back(onNode.node);
        std::sort(placed.begin(), placed.end());
        QCOMPARE(placed, (std::vector<std::string>{"r1-n2", "r1-n3", "r1-n4"}));
    }

    void volcanoSchedulerNameCounts() {
        auto c = build({{"plain", WorkloadKind::Job, {"r1-n1"}, {}, PodScheduler::Volcano}}, {});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n1"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        QCOMPARE(report.broken.front().engine, std::string("volcano"));
    }

    void slurmJobUsesSlurmTree() {
        // No Slurm topology: topology/tree over the label levels; three free nodes remain in r1.
        auto c = build({{"job 42", WorkloadKind::SlurmJob, {"r1-n1", "r1-n2"}}}, {2, 3, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n1"}));
        const GangFailure* gang = find(report, "job 42");
        QVERIFY(gang);
        QCOMPARE(gang->engine, std::string("slurm-tree"));
        QVERIFY(gang->request.slurm.has_value());
        QCOMPARE(gang->request.slurm->minNodes, 2);
        QCOMPARE(gang->request.slurm->gpusPerNode, 8);
        QVERIFY2(gang->fits, gang->message.c_str());
        for (const NodePods& placed : gang->nodes) QVERIFY(placed.node != "r1-n1");
    }

    void slurmJobDoesNotFitWhenTooFewNodesAreLeft() {
        auto c = build({{"job 7", WorkloadKind::SlurmJob, rackNodes(1)}}, {2, 3, 4});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n1"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        QVERIFY(!report.broken.front().fits);
        QVERIFY(!report.broken.front().message.empty());
    }

    void gangNotTouchedIsNotListed() {
        auto c =
            build({{"safe", WorkloadKind::JobSet, rackNodes(4)}, {"hit", WorkloadKind::Job, {"r1-n1", "r1-n2"}}}, {});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, {"r1-n1"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        QVERIFY(find(report, "hit"));
        QVERIFY(!find(report, "safe"));
        QCOMPARE(report.gangsUntouched, std::size_t(1));
        // A gang of no topology-aware scheduler says which engine was assumed.
        QVERIFY2(find(report, "hit")->engineReason.find("assumed") != std::string::npos,
                 find(report, "hit")->engineReason.c_str());
    }

    void domainFailureBreaksSeveralGangs() {
        auto c = build({{"a", WorkloadKind::KueueWorkload, rackNodes(1), kRequiredRack},
                        {"b", WorkloadKind::VolcanoJob, {"r2-n1", "r2-n2", "r3-n1"}},
                        {"c", WorkloadKind::JobSet, {"r4-n1"}}},
                       {});
        PlacementCluster cluster(c->state, c->index);
        auto nodes = drainTargetNodes(cluster, "b1", "--fail");
        QVERIFY(nodes);
        const FailureReport report = assessFailure(c->state, c->index, *nodes);
        QCOMPARE(report.failedNodes.size(), std::size_t(8));
        QCOMPARE(report.broken.size(), std::size_t(2));
        // Most pods lost first.
        QCOMPARE(report.broken[0].gang, std::string("team/a"));
        QCOMPARE(report.broken[0].lostPods, 4);
        QCOMPARE(report.broken[1].gang, std::string("team/b"));
        QCOMPARE(report.broken[1].lostPods, 2);
        QCOMPARE(report.broken[1].pods, 3);
        QCOMPARE(report.gangsUntouched, std::size_t(1));
        // Each gang is judged with the others still running: b keeps r3-n1 and c r4-n1, so no rack
        // has four free nodes for a; b's three pods fit anywhere.
        QVERIFY(!report.broken[0].fits);
        QVERIFY2(report.broken[0].message.find("3 out of 4") != std::string::npos, report.broken[0].message.c_str());
        QVERIFY2(report.broken[1].fits, report.broken[1].message.c_str());
    }

    void podsCarryTheirSchedulerRequestThroughAFile() {
        // Kueue keeps the template's podset annotation on every pod; a Volcano pod names its scheduler.
        const char* text = R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1, labels: {example.com/block: b1, example.com/rack: r1}},
   status: {allocatable: {nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: n2, labels: {example.com/block: b1, example.com/rack: r2}},
   status: {allocatable: {nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- apiVersion: v1
  kind: Pod
  metadata:
    namespace: team
    name: trainer-0
    annotations: {kueue.x-k8s.io/workload: job-trainer-abc, kueue.x-k8s.io/podset-required-topology: example.com/rack}
  spec:
    nodeName: n1
    containers: [{name: main, resources: {requests: {nvidia.com/gpu: "8"}}}]
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {namespace: team, name: sim-0, labels: {volcano.sh/job-name: sim}}
  spec:
    nodeName: n2
    schedulerName: volcano
    containers: [{name: main, resources: {requests: {nvidia.com/gpu: "4"}}}]
  status: {phase: Running}
)";
        auto snapshot = readSnapshotText(text, "test.yaml");
        QVERIFY2(snapshot, snapshot ? "" : snapshot.error().message.c_str());
        ClusterState state;
        std::move(*snapshot).applyTo(state);
        const Pod* trainer = state.findPod("team", "trainer-0");
        QVERIFY(trainer);
        QCOMPARE(trainer->topology, (PodTopologyRequest{PodTopologyRequest::Mode::Required, "example.com/rack"}));
        QCOMPARE(trainer->scheduler, PodScheduler::Default);
        QCOMPARE(state.findPod("team", "sim-0")->scheduler, PodScheduler::Volcano);

        // Written and read back alike.
        auto again = readSnapshotText(writeSnapshotJson(state), "again.json");
        QVERIFY2(again, again ? "" : again.error().message.c_str());
        ClusterState reread;
        std::move(*again).applyTo(reread);
        QCOMPARE(*reread.findPod("team", "trainer-0"), *trainer);
        QCOMPARE(reread.findPod("team", "sim-0")->scheduler, PodScheduler::Volcano);

        // n1 fails: the trainer needs a rack with 8 free GPUs: r2 has 4.
        const TopologyIndex index = TopologyIndex::build(state, TopologySpec::fromLabelKeys(kLevels));
        const FailureReport report = assessFailure(state, index, ids(state, {"n1"}));
        QCOMPARE(report.broken.size(), std::size_t(1));
        QCOMPARE(report.broken.front().engine, std::string("kueue-tas"));
        QCOMPARE(report.broken.front().request.kueue.level, std::string("example.com/rack"));
        QVERIFY(!report.broken.front().fits);
    }

    void onlySomeOfManyBrokenGangsArePlacedAgain() {
        // 72 one-GPU gangs on the nine nodes b1 and r3-n1 hold; all of them break.
        std::vector<GangPods> gangs;
        std::vector<std::string> nodes = rackNodes(1);
        for (const std::string& node : rackNodes(2)) nodes.push_back(node);
        nodes.push_back("r3-n1");
        for (int g = 0; g < 72; ++g)
            gangs.push_back({"g" + std::to_string(g), WorkloadKind::Job, {nodes[std::size_t(g / 8)]}, {}, {}, 1});
        auto c = build(gangs, {});
        const FailureReport report = assessFailure(c->state, c->index, ids(c->state, nodes));
        QCOMPARE(report.broken.size(), std::size_t(72));
        std::size_t placed = 0;
        for (const GangFailure& gang : report.broken) {
            placed += gang.placedAgain ? 1 : 0;
            if (!gang.placedAgain) QVERIFY2(gang.message.find("not placed again") == 0, gang.message.c_str());
            if (gang.placedAgain) QVERIFY2(gang.fits, gang.message.c_str());
        }
        QCOMPARE(placed, kMaxGangsPlacedAgain);
        // The ones placed again come first.
        QVERIFY(report.broken.front().placedAgain);
        QVERIFY(!report.broken.back().placedAgain);
    }

    void failNodesTakesPodsAndReadiness() {
        auto c = build({{"a", WorkloadKind::Job, {"r1-n1", "r1-n2"}}}, {});
        const std::size_t podsBefore = c->state.podCount();
        const std::int64_t usedBefore = c->index.root().totals.gpusUsed;
        failNodes(c->state, &c->index, ids(c->state, {"r1-n1"}));
        QCOMPARE(c->state.podCount(), podsBefore - 1);
        QVERIFY(!c->state.record(*c->state.findNode("r1-n1")).node->ready);
        QCOMPARE(c->index.root().totals.gpusUsed, usedBefore - 8);
    }

    void planQueryFailStep() {
        auto c = build({{"a", WorkloadKind::KueueWorkload, rackNodes(1), kRequiredRack}}, {2, 4});
        auto query = parsePlanQuery("--pods 2 --request nvidia.com/gpu=8 --fail r1");
        QVERIFY2(query, query ? "" : query.error().message.c_str());
        QCOMPARE(query->whatIf.size(), std::size_t(1));
        QCOMPARE(query->whatIf.front().kind, WhatIfStep::Kind::Fail);
        auto inputs = preparePlan(c->state, c->index.spec(), c->index.gpuResources(), *query);
        QVERIFY2(inputs, inputs ? "" : inputs.error().message.c_str());
        QCOMPARE((*inputs)->failures.broken.size(), std::size_t(1));
        QVERIFY((*inputs)->failedState);
        // The gang asked about sees the failure: r1's nodes are not usable.
        auto outcome = runPlanQuery(**inputs, *query);
        QVERIFY(outcome);
        QVERIFY(outcome->allFeasible());
        for (const NodePods& placed : outcome->results.front().nodes)
            QVERIFY2(placed.node.rfind("r3-", 0) == 0, placed.node.c_str());

        auto bad = parsePlanQuery("--pods 2 --request nvidia.com/gpu=8 --fail nowhere");
        QVERIFY(bad);
        auto failed = preparePlan(c->state, c->index.spec(), c->index.gpuResources(), *bad);
        QVERIFY(!failed);
        QVERIFY2(failed.error().message.find("--fail nowhere") != std::string::npos, failed.error().message.c_str());
    }

    void sequenceAppliesStepsInOrder() {
        auto c = build({{"a", WorkloadKind::KueueWorkload, rackNodes(1), kRequiredRack}}, {2, 4});
        GangRequest gang;
        gang.name = "extra";
        gang.nameSpace = "team";
        gang.pods = 2;
        gang.perPod = gpus(8);
        gang.kueue.mode = KueueConstraint::Mode::Required;
        gang.kueue.level = "example.com/rack";
        std::vector<WhatIfStep> steps = {
            {WhatIfStep::Kind::Place, {}, gang, {}},
            {WhatIfStep::Kind::Fail, "r1", {}, {}},
            {WhatIfStep::Kind::Drain, "r3-n4", {}, {}},
            {WhatIfStep::Kind::Drain, "nowhere", {}, {}},
        };
        const std::vector<WhatIfStepOutcome> outcomes = applyWhatIfSteps(c->state, c->index, steps);
        QCOMPARE(outcomes.size(), steps.size());
        QVERIFY2(outcomes[0].applied, outcomes[0].text.c_str());
        QCOMPARE(outcomes[0].nodes.size(), std::size_t(2)); // r3, the only free rack
        QVERIFY2(outcomes[1].applied, outcomes[1].text.c_str());
        QCOMPARE(outcomes[1].failure.broken.size(), std::size_t(1));
        // r3 holds the placed gang now: a's four pods no longer fit in one rack.
        QVERIFY(!outcomes[1].failure.broken.front().fits);
        QVERIFY(outcomes[2].applied);
        QVERIFY(c->state.record(*c->state.findNode("r3-n4")).node->unschedulable);
        QVERIFY(!outcomes[3].applied);
        QVERIFY2(outcomes[3].text.find("nowhere") != std::string::npos, outcomes[3].text.c_str());
        QCOMPARE(c->index.root().totals.nodesTotal - c->index.root().totals.nodesReady, std::int64_t(4));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestFailureImpact)
#include "test_failure_impact.moc"
