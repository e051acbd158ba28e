#include "core/model/cluster_state.h"
#include "support/test_program.h"

#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace topodeck;

namespace {

Pod makePod(std::string nameSpace, std::string name, std::string nodeName, std::int64_t gpus,
            PodPhase phase = PodPhase::Running) {
    Pod pod;
    pod.nameSpace = std::move(nameSpace);
    pod.name = std::move(name);
    pod.nodeName = std::move(nodeName);
    pod.phase = phase;
    pod.requests.set("cpu", Quantity::fromMillis(250));
    if (gpus > 0) pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    return pod;
}

Node makeNode(std::string name) {
    Node node;
    node.name = std::move(name);
    node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(8));
    return node;
}

// What ClusterState must agree with: a plain map of pods, from which usage is recomputed.
using Reference = std::map<std::pair<std::string, std::string>, Pod>;

void compareWithReference(const ClusterState& state, const Reference& reference) {
    QCOMPARE(state.podCount(), reference.size());
    std::map<std::string, NodeUsage> usage;
    std::map<std::string, std::set<std::string>> podsOn; // node name -> "ns/name" of the pods holding resources there
    for (const auto& [key, pod] : reference) {
        if (pod.holdsResources()) podsOn[pod.nodeName].insert(pod.key());
        const Pod* found = state.findPod(key.first, key.second);
        QVERIFY2(found, qPrintable(QString::fromStdString(key.first + '/' + key.second)));
        QVERIFY(*found == pod);
        if (!pod.holdsResources()) continue;
        usage[pod.nodeName].requested.add(pod.requests);
        ++usage[pod.nodeName].pods;
    }
    std::size_t visited = 0;
    state.forEachPod([&](const Pod& pod) {
        ++visited;
        QVERIFY(reference.count({pod.nameSpace, pod.name}) == 1);
    });
    QCOMPARE(visited, reference.size());
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        QCOMPARE(state.findNode(record.node->name), std::optional<NodeId>(id));
        const NodeUsage expected = usage[record.node->name];
        QCOMPARE(record.usage.pods, expected.pods);
        for (const auto& [resource, quantity] : expected.requested)
            QCOMPARE(record.usage.requested.get(resource), quantity);
        for (const auto& [resource, quantity] : record.usage.requested)
            QCOMPARE(expected.requested.get(resource), quantity);
        // The node's own pod list: exactly those pods, each once.
        std::set<std::string> listed;
        std::size_t count = 0;
        state.forEachPodOn(id, [&](const Pod& pod) {
            ++count;
            QCOMPARE(pod.nodeName, record.node->name);
            listed.insert(pod.key());
        });
        QCOMPARE(count, listed.size());
        QCOMPARE(listed, podsOn[record.node->name]);
    }
}

} // namespace

class TestClusterState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void podUsageFollowsUpsertsAndDeletes() {
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("n1")});
        AppliedEvent applied = state.apply(PodUpserted{makePod("a", "p", "n1", 4)});
        QCOMPARE(applied.nodeCount, 1);
        QCOMPARE(state.record(0).usage.requested.get("nvidia.com/gpu").value(), 4);

        // The same pod finishing releases what it held.
        applied = state.apply(PodUpserted{makePod("a", "p", "n1", 4, PodPhase::Succeeded)});
        QCOMPARE(applied.nodeCount, 1);
        QCOMPARE(state.record(0).usage.pods, 0u);
        QVERIFY(state.record(0).usage.requested.empty());
        QCOMPARE(state.podCount(), 1u);

        (void)state.apply(PodDeleted{"a", "p"});
        QCOMPARE(state.podCount(), 0u);
        QVERIFY(!state.findPod("a", "p"));
    }

    void podsMayArriveBeforeTheirNode() {
        ClusterState state;
        (void)state.apply(PodUpserted{makePod("a", "early", "late-node", 2)});
        const auto id = state.findNode("late-node");
        QVERIFY(id);
        QVERIFY(!state.record(*id).present);
        QCOMPARE(state.presentNodeCount(), 0u);

        (void)state.apply(NodeUpserted{makeNode("late-node")});
        QCOMPARE(state.findNode("late-node"), id); // the slot is kept, with the usage on it
        QVERIFY(state.record(*id).present);
        QCOMPARE(state.record(*id).usage.pods, 1u);

        (void)state.apply(NodeDeleted{"late-node"});
        QVERIFY(!state.record(*id).present);
        QCOMPARE(state.presentNodeCount(), 0u);
    }

    void generationCountsEveryEvent() {
        ClusterState state;
        const auto before = state.generation();
        (void)state.apply(NodeUpserted{makeNode("n")});
        (void)state.apply(PodDeleted{"x", "absent"});
        QCOMPARE(state.generation(), before + 2);
    }

    void topologiesAreKeptByName() {
        ClusterState state;
        TopologySpec spec = TopologySpec::fromLabelKeys({"a", "b"});
        spec.name = "default";
        QVERIFY(state.apply(TopologyUpserted{spec}).topologiesChanged);
        QCOMPARE(state.topologies().size(), 1u);
        QVERIFY(state.apply(TopologyDeleted{"default"}).topologiesChanged);
        QVERIFY(!state.apply(TopologyDeleted{"default"}).topologiesChanged);
    }

    void randomEventsMatchAReference_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<bool>("bulkFirst");
        for (quint64 seed : {1ull, 7ull, 42ull}) {
            QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed << false;
            QTest::newRow(qPrintable(QStringLiteral("seed %1 bulk").arg(seed))) << seed << true;
        }
    }

    // Upserts, moves, phase changes and deletes in random order, with a bulk load first or not,
    // always agree with a plain map of pods.
    void randomEventsMatchAReference() {
        QFETCH(quint64, seed);
        QFETCH(bool, bulkFirst);
        std::mt19937_64 rng(seed);
        auto draw = [&rng](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
        auto randomPod = [&] {
            static const PodPhase phases[] = {PodPhase::Running, PodPhase::Running, PodPhase::Pending,
                                              PodPhase::Succeeded, PodPhase::Failed};
            return makePod("ns" + std::to_string(draw(3)), "p" + std::to_string(draw(600)),
                           draw(10) == 0 ? std::string() : "n" + std::to_string(draw(40)), draw(5), phases[draw(5)]);
        };
        ClusterState state;
        Reference reference;
        if (bulkFirst) {
            std::vector<Pod> bulk;
            for (int i = 0; i < 1500; ++i) {
                Pod pod = randomPod();
                reference[{pod.nameSpace, pod.name}] = pod; // a later duplicate wins, as upserts do
                bulk.push_back(std::move(pod));
            }
            state.upsertPods(std::move(bulk));
            compareWithReference(state, reference);
        }
        for (int step = 0; step < 6000; ++step) {
            if (draw(3) == 0) {
                const std::string nameSpace = "ns" + std::to_string(draw(3)), name = "p" + std::to_string(draw(600));
                (void)state.apply(PodDeleted{nameSpace, name});
                reference.erase({nameSpace, name});
            } else {
                Pod pod = randomPod();
                reference[{pod.nameSpace, pod.name}] = pod;
                (void)state.apply(PodUpserted{std::move(pod)});
            }
            if (step % 500 == 0) compareWithReference(state, reference);
        }
        compareWithReference(state, reference);
        const ClusterState copy = state;
        compareWithReference(copy, reference);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestClusterState)
#include "test_cluster_state.moc"
