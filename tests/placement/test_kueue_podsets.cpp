// Kueue TAS on a Workload of several PodSets (a PyTorchJob's master and workers, a JobSet's
// replicatedJobs): each PodSet gets its own topology assignment, in order, with the ones before
// it assumed, and the Workload fits only when every PodSet does. Expected placements are worked
// by hand from Kueue's rules (BestFit for required levels: the tightest domain that fits, the
// first by name among equals).
#include "core/placement/engines/placement_engine.h"
#include "core/placement/requests/gang_manifest.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

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
