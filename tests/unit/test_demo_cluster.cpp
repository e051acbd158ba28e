#include "core/demo/demo_cluster.h"
#include "core/demo/demo_simulator.h"
#include "core/model/cluster_state.h"
#include "core/topology/compute_domain_usage.h"
#include "core/topology/topology_index.h"
#include "support/test_program.h"

#include <QElapsedTimer>
#include <QTest>

#include <map>
#include <set>
#include <type_traits>

using namespace topodeck;

namespace {

// Gang pods are <job>-<i>; Kueue names the job's Workload job-<job>-<hash>, the others are the
// job's own name (an LWS group's is <lws>-0, as are its pods' prefix).
std::string podPrefixOf(const Pod& pod) {
    if (pod.workloadKind == WorkloadKind::KueueWorkload && pod.workload.size() > 10)
        return pod.workload.substr(4, pod.workload.size() - 10) + '-';
    return pod.workload + '-';
}

std::int64_t gpusIn(const ResourceList& resources) {
    return resources.get("nvidia.com/gpu").value();
}

DemoCluster demoOrFail(const char* name) {
    Result<DemoCluster> demo = makeDemoCluster(name);
    if (!demo) qFatal("makeDemoCluster(%s): %s", name, demo.error().message.c_str());
    return std::move(demo).value();
}

ClusterState stateOf(const DemoCluster& demo) {
    ClusterState state;
    for (const ClusterEvent& event : demo.events) (void)state.apply(event);
    return state;
}

struct Occupancy {
    std::int64_t gpusTotal = 0;
    std::int64_t gpusUsed = 0;
    double utilisation() const {
        return gpusTotal ? static_cast<double>(gpusUsed) / static_cast<double>(gpusTotal) : 0;
    }
};

Occupancy occupancyOf(const ClusterState& state) {
    Occupancy o;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        o.gpusTotal += gpusIn(record.node->allocatable);
        o.gpusUsed += gpusIn(record.usage.requested);
    }
    return o;
}

// Empty when no node holds more than it offers, else the first offender.
QString overAllocatedNode(const ClusterState& state) {
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        for (const auto& [resource, used] : record.usage.requested) {
            if (used > record.node->allocatable.get(resource))
                return QString::fromStdString(record.node->name + " " + resource + " " + used.toString());
        }
        if (static_cast<std::int64_t>(record.usage.pods) > record.node->allocatable.get("pods").value())
            return QString::fromStdString(record.node->name + " pods");
    }
    return {};
}

std::vector<DomainId> domainsAtLevel(const TopologyIndex& index, int level) {
    std::vector<DomainId> out;
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& d = index.domain(id);
        if (d.alive && d.level == level && !d.unlabelled) out.push_back(id);
    }
    return out;
}

} // namespace

class TestDemoCluster : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void names();
    void shape_data();
    void shape();
    void nvlinkDomainIsTheRack();
    void nodesComeFirst();
    void deterministic_data();
    void deterministic();
    void occupancy_data();
    void occupancy();
    void racksFullFragmentedAndEmpty_data();
    void racksFullFragmentedAndEmpty();
    void podsAreWellFormed_data();
    void podsAreWellFormed();
    void badNames_data();
    void badNames();
    void largestScale();
    void simulatorKeepsInvariants_data();
    void simulatorKeepsInvariants();
    void simulatorIsDeterministic();
    void simulatorFlapsNodes();
    void simulatorReadsTheState();
    void draDemoHasTheTotalsOfItsTwin_data();
    void draDemoHasTheTotalsOfItsTwin();
    void draDemoComputeDomainsFollowTheirGangs();
};

void TestDemoCluster::names() {
    const std::vector<std::string> names = demoClusterNames();
    QCOMPARE(names, (std::vector<std::string>{"gb200", "gb200-dra", "h100", "scale:N"}));
    for (const char* name : {"gb200", "gb200-dra", "h100", "scale:16", "h100-dra"}) {
        const Result<DemoCluster> demo = makeDemoCluster(name);
        QVERIFY2(demo.ok(), name);
        QCOMPARE(demo->name, std::string(name));
        QVERIFY(!demo->title.empty());
        QCOMPARE(demo->topology.origin, std::string("demo"));
    }
}

void TestDemoCluster::shape_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("gpusPerNode");
    QTest::addColumn<QList<int>>("valuesPerLevel");
    QTest::addColumn<QList<QByteArray>>("levelNames");
    QTest::addColumn<bool>("nvlink");

    QTest::newRow("gb200") << QByteArray("gb200") << 576 << 4 << QList<int>{4, 32} << QList<QByteArray>{"su", "rack"}
                           << true;
    QTest::newRow("h100") << QByteArray("h100") << 128 << 8 << QList<int>{4, 16} << QList<QByteArray>{"block", "rack"}
                          << false;
    const QList<QByteArray> scaleLevels{"core", "spine", "agg", "rack"};
    QTest::newRow("scale:1") << QByteArray("scale:1") << 1 << 8 << QList<int>{1, 1, 1, 1} << scaleLevels << false;
    QTest::newRow("scale:100") << QByteArray("scale:100") << 100 << 8 << QList<int>{1, 1, 1, 4} << scaleLevels << false;
    QTest::newRow("scale:4096") << QByteArray("scale:4096") << 4096 << 8 << QList<int>{1, 2, 16, 128} << scaleLevels
                                << false;
}

void TestDemoCluster::shape() {
    QFETCH(QByteArray, name);
    QFETCH(int, nodes);
    QFETCH(int, gpusPerNode);
    QFETCH(QList<int>, valuesPerLevel);
    QFETCH(QList<QByteArray>, levelNames);
    QFETCH(bool, nvlink);

    const DemoCluster demo = demoOrFail(name.constData());
    const TopologySpec& spec = demo.topology;
    QCOMPARE(spec.depth(), valuesPerLevel.size());
    for (int i = 0; i < spec.depth(); ++i)
        QCOMPARE(QByteArray::fromStdString(spec.levels[static_cast<std::size_t>(i)].name), levelNames[i]);
    QCOMPARE(!spec.nvlinkLabel.empty(), nvlink);

    const ClusterState state = stateOf(demo);
    QCOMPARE(state.presentNodeCount(), static_cast<std::size_t>(nodes));
    QCOMPARE(occupancyOf(state).gpusTotal, static_cast<std::int64_t>(nodes) * gpusPerNode);

    std::vector<std::set<std::string>> values(static_cast<std::size_t>(spec.depth()));
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const Node& node = *state.record(id).node;
        QCOMPARE(gpusIn(node.allocatable), static_cast<std::int64_t>(gpusPerNode));
        QVERIFY(node.allocatable.get("cpu").value() >= 100);
        QVERIFY(node.allocatable.get("memory").value() >= 512LL << 30);
        QCOMPARE(node.allocatable.get("pods").value(), 110);
        QVERIFY(node.allocatable.contains("ephemeral-storage"));
        QVERIFY(std::is_sorted(node.labels.begin(), node.labels.end()));
        const std::string* hostname = node.label("kubernetes.io/hostname");
        QVERIFY(hostname && *hostname == node.name);
        for (int i = 0; i < spec.depth(); ++i) {
            const std::string* value = node.label(spec.levels[static_cast<std::size_t>(i)].nodeLabel);
            QVERIFY2(value, node.name.c_str());
            values[static_cast<std::size_t>(i)].insert(*value);
        }
        QCOMPARE(node.label("nvidia.com/gpu.clique") != nullptr, nvlink);
        QCOMPARE(node.label("nvidia.com/gpu.count") ? *node.label("nvidia.com/gpu.count") : std::string(),
                 std::to_string(gpusPerNode));
    }
    for (int i = 0; i < spec.depth(); ++i)
        QCOMPARE(static_cast<int>(values[static_cast<std::size_t>(i)].size()), valuesPerLevel[i]);

    const TopologyIndex index = TopologyIndex::build(state, spec);
    for (int i = 0; i < spec.depth(); ++i)
        QCOMPARE(static_cast<int>(domainsAtLevel(index, i).size()), valuesPerLevel[i]);
    QCOMPARE(index.root().totals.nodesTotal, static_cast<std::int64_t>(nodes));
}

void TestDemoCluster::nvlinkDomainIsTheRack() {
    // Each NVL72 rack is one physical NVLink domain (its own ClusterUUID); one rack, su-4/rack-4-08,
    // is split into two partitions of 9 trays (cliques .1 and .2), the others are one clique (.0).
    const DemoCluster demo = demoOrFail("gb200");
    QCOMPARE(demo.topology.nvlinkLabel, std::string("nvidia.com/gpu.clique"));
    const ClusterState state = stateOf(demo);
    const TopologyIndex index = TopologyIndex::build(state, demo.topology);
    QCOMPARE(index.nvlinkDomainCount(), std::size_t{33});
    std::set<std::string> uuids;
    int partitioned = 0;
    for (DomainId rack : domainsAtLevel(index, 1)) {
        const Domain& d = index.domain(rack);
        QCOMPARE(d.nodes.size(), std::size_t{18});
        std::set<std::string> cliques;
        for (NodeId id : d.nodes) {
            QVERIFY(index.node(id).nvlinkDomain != kNoNvlinkDomain);
            // <ClusterUUID>.<CliqueID>, as the GPU operator writes it.
            const std::string& clique = index.nvlinkName(index.node(id).nvlinkDomain);
            QCOMPARE(clique.size(), std::size_t{38});
            cliques.insert(clique.substr(36));
            uuids.insert(clique.substr(0, 36));
        }
        if (index.pathName(rack) == "su-4/rack-4-08") {
            ++partitioned;
            QCOMPARE(cliques, (std::set<std::string>{".1", ".2"}));
        } else {
            QCOMPARE(cliques, std::set<std::string>{".0"});
        }
    }
    QCOMPARE(partitioned, 1);
    QCOMPARE(uuids.size(), std::size_t{32}); // one ClusterUUID per rack: no two racks share one
}

void TestDemoCluster::nodesComeFirst() {
    const DemoCluster demo = demoOrFail("gb200");
    bool pods = false;
    std::size_t nodes = 0;
    for (const ClusterEvent& event : demo.events) {
        if (std::holds_alternative<NodeUpserted>(event)) {
            QVERIFY2(!pods, "a node after a pod");
            ++nodes;
        } else {
            QVERIFY(std::holds_alternative<PodUpserted>(event));
            pods = true;
        }
    }
    QCOMPARE(nodes, std::size_t{576});
    QVERIFY(pods);
}

void TestDemoCluster::deterministic_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("gb200") << QByteArray("gb200");
    QTest::newRow("h100") << QByteArray("h100");
    QTest::newRow("scale:3000") << QByteArray("scale:3000");
}

void TestDemoCluster::deterministic() {
    QFETCH(QByteArray, name);
    const DemoCluster a = demoOrFail(name.constData());
    const DemoCluster b = demoOrFail(name.constData());
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.topology, b.topology);
    QCOMPARE(a.title, b.title);
    QVERIFY(a.events == b.events);
}

void TestDemoCluster::occupancy_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("gb200") << QByteArray("gb200");
    QTest::newRow("h100") << QByteArray("h100");
    QTest::newRow("scale:4096") << QByteArray("scale:4096");
}

void TestDemoCluster::occupancy() {
    QFETCH(QByteArray, name);
    const DemoCluster demo = demoOrFail(name.constData());
    const ClusterState state = stateOf(demo);
    const double u = occupancyOf(state).utilisation();
    QVERIFY2(u >= 0.58 && u <= 0.77, qPrintable(QString::number(u)));

    std::size_t notReady = 0, cordoned = 0, tainted = 0;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const Node& node = *state.record(id).node;
        notReady += node.ready ? 0 : 1;
        cordoned += node.unschedulable ? 1 : 0;
        for (const Taint& t : node.taints) tainted += t.key == "nvidia.com/gpu" && t.value == "maintenance" ? 1 : 0;
        // Nothing new lands on an unusable node, so gangs are only found on usable ones.
        if (!node.schedulable()) QVERIFY(gpusIn(state.record(id).usage.requested) == 0);
    }
    const double n = static_cast<double>(state.presentNodeCount());
    QVERIFY(notReady >= 1 && static_cast<double>(notReady) <= n * 0.025 + 1);
    QVERIFY(cordoned >= 1 && static_cast<double>(cordoned) <= n * 0.02 + 1);
    QVERIFY(tainted >= 1);
}

void TestDemoCluster::racksFullFragmentedAndEmpty_data() {
    occupancy_data();
}

void TestDemoCluster::racksFullFragmentedAndEmpty() {
    QFETCH(QByteArray, name);
    const DemoCluster demo = demoOrFail(name.constData());
    const ClusterState state = stateOf(demo);
    const TopologyIndex index = TopologyIndex::build(state, demo.topology);
    int full = 0, fragmented = 0, empty = 0;
    for (DomainId rack : domainsAtLevel(index, demo.topology.depth() - 1)) {
        const DomainTotals& t = index.domain(rack).totals;
        if (t.nodesSchedulable > 0 && t.gpusFree == 0) ++full;
        if (t.gpusFragmented > 0 && t.gpusFree > t.gpusFragmented / 2) ++fragmented;
        if (t.gpusUsed == 0) ++empty;
    }
    QVERIFY2(full >= 1, "no full rack");
    QVERIFY2(fragmented >= 1, "no fragmented rack");
    QVERIFY2(empty >= 1, "no empty rack");
}

void TestDemoCluster::podsAreWellFormed_data() {
    occupancy_data();
}

void TestDemoCluster::podsAreWellFormed() {
    QFETCH(QByteArray, name);
    const DemoCluster demo = demoOrFail(name.constData());
    const ClusterState state = stateOf(demo);
    QCOMPARE(overAllocatedNode(state), QString());

    std::size_t pods = 0, pending = 0;
    std::map<std::string, std::set<int>> gangIndices; // ns/gang -> pod indices
    std::set<std::string> keys;
    std::set<int> gangSizes;
    for (const ClusterEvent& event : demo.events) {
        const auto* upsert = std::get_if<PodUpserted>(&event);
        if (!upsert) continue;
        const Pod& pod = upsert->pod;
        ++pods;
        QVERIFY2(keys.insert(pod.key()).second, pod.key().c_str());
        QVERIFY(!pod.workload.empty());
        if (pod.nodeName.empty()) {
            QCOMPARE(pod.phase, PodPhase::Pending);
            ++pending;
        } else {
            QCOMPARE(pod.phase, PodPhase::Running);
            QVERIFY2(state.findNode(pod.nodeName), pod.nodeName.c_str());
        }
        if (gpusIn(pod.requests) > 0) {
            // Gang pods are <gang>-<i>.
            const std::string prefix = podPrefixOf(pod);
            QVERIFY2(pod.name.starts_with(prefix), pod.name.c_str());
            gangIndices[pod.nameSpace + '/' + pod.workload].insert(std::stoi(pod.name.substr(prefix.size())));
            QVERIFY(pod.nameSpace.starts_with("team-"));
        }
    }
    QCOMPARE(state.podCount(), pods);
    QVERIFY(pending > 0);
    for (const auto& [gang, indices] : gangIndices) {
        QCOMPARE(*indices.begin(), 0);
        QCOMPARE(*indices.rbegin(), static_cast<int>(indices.size()) - 1);
        gangSizes.insert(static_cast<int>(indices.size()));
    }
    for (int size : {1, 2, 4, 8, 16}) QVERIFY2(gangSizes.count(size), qPrintable(QString::number(size)));
    const double perNode = static_cast<double>(pods) / static_cast<double>(state.presentNodeCount());
    QVERIFY2(perNode >= 6.5 && perNode <= 8.5, qPrintable(QString::number(perNode)));
}

void TestDemoCluster::badNames_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("mentions");
    QTest::newRow("unknown") << QByteArray("a100") << QByteArray("a100");
    QTest::newRow("empty") << QByteArray("") << QByteArray("gb200");
    QTest::newRow("scale without size") << QByteArray("scale") << QByteArray("scale:N");
    QTest::newRow("scale colon") << QByteArray("scale:") << QByteArray("scale:N");
    QTest::newRow("zero") << QByteArray("scale:0") << QByteArray("1..65536");
    QTest::newRow("negative") << QByteArray("scale:-4") << QByteArray("1..65536");
    QTest::newRow("too many") << QByteArray("scale:65537") << QByteArray("65537");
    QTest::newRow("huge") << QByteArray("scale:99999999999999") << QByteArray("99999999999999");
    QTest::newRow("not a number") << QByteArray("scale:many") << QByteArray("scale:N");
    QTest::newRow("trailing junk") << QByteArray("scale:12x") << QByteArray("scale:N");
    QTest::newRow("plus sign") << QByteArray("scale:+12") << QByteArray("scale:N");
    QTest::newRow("space") << QByteArray("scale: 12") << QByteArray("scale:N");
}

void TestDemoCluster::badNames() {
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, mentions);
    const Result<DemoCluster> demo = makeDemoCluster(name.toStdString());
    QVERIFY(!demo.ok());
    QVERIFY2(QByteArray::fromStdString(demo.error().message).contains(mentions), demo.error().message.c_str());
}

// The benchmark's cluster: 65,536 nodes and about half a million pods.
void TestDemoCluster::largestScale() {
    QElapsedTimer timer;
    timer.start();
    const DemoCluster demo = demoOrFail("scale:65536");
    const qint64 generated = timer.elapsed();
    std::size_t nodes = 0, pods = 0;
    for (const ClusterEvent& event : demo.events) {
        nodes += std::holds_alternative<NodeUpserted>(event) ? 1 : 0;
        pods += std::holds_alternative<PodUpserted>(event) ? 1 : 0;
    }
    QCOMPARE(nodes, std::size_t{65536});
    QVERIFY2(pods >= 450'000 && pods <= 560'000, qPrintable(QString::number(pods)));

    ClusterState state = stateOf(demo);
    const double u = occupancyOf(state).utilisation();
    QVERIFY2(u >= 0.58 && u <= 0.77, qPrintable(QString::number(u)));
    QCOMPARE(occupancyOf(state).gpusTotal, 65536LL * 8);

    DemoSimulator simulator(demo, 7);
    timer.restart();
    constexpr int kSteps = 5;
    for (int i = 0; i < kSteps; ++i)
        for (const ClusterEvent& event : simulator.step(state)) (void)state.apply(event);
    qInfo("scale:65536: generated %zu pods in %lld ms; %d simulator steps (with applying) in %lld ms", pods,
          static_cast<long long>(generated), kSteps, static_cast<long long>(timer.elapsed()));
    QCOMPARE(overAllocatedNode(state), QString());
}

void TestDemoCluster::simulatorKeepsInvariants_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("gb200") << QByteArray("gb200");
    QTest::newRow("h100") << QByteArray("h100");
    QTest::newRow("scale:2048") << QByteArray("scale:2048");
}

void TestDemoCluster::simulatorKeepsInvariants() {
    QFETCH(QByteArray, name);
    const DemoCluster demo = demoOrFail(name.constData());
    ClusterState state = stateOf(demo);
    DemoSimulator simulator(demo, 1234);
    double low = 1, high = 0;
    std::size_t started = 0, finished = 0;
    for (int step = 0; step < 50; ++step) {
        const std::vector<ClusterEvent> events = simulator.step(state);
        std::set<std::string> endedGangs;
        std::map<std::string, std::set<int>> newGangs;
        for (const ClusterEvent& event : events) {
            if (const auto* deleted = std::get_if<PodDeleted>(&event)) {
                const Pod* pod = state.findPod(deleted->nameSpace, deleted->name);
                QVERIFY2(pod, deleted->name.c_str());
                QVERIFY(!pod->workload.empty());
                endedGangs.insert(pod->nameSpace + '/' + pod->workload);
                ++finished;
            } else if (const auto* upserted = std::get_if<PodUpserted>(&event)) {
                const Pod& pod = upserted->pod;
                QVERIFY2(!state.findPod(pod.nameSpace, pod.name), pod.name.c_str());
                QCOMPARE(pod.phase, PodPhase::Running);
                const std::optional<NodeId> id = state.findNode(pod.nodeName);
                QVERIFY(id);
                const Node& node = *state.record(*id).node;
                QVERIFY2(node.schedulable() && node.taints.empty(), node.name.c_str());
                const std::string prefix = podPrefixOf(pod);
                QVERIFY(pod.name.starts_with(prefix));
                newGangs[pod.nameSpace + '/' + pod.workload].insert(std::stoi(pod.name.substr(prefix.size())));
                ++started;
            }
        }
        for (const ClusterEvent& event : events) (void)state.apply(event);

        // A gang starts and ends as a whole.
        for (const auto& [gang, indices] : newGangs) QCOMPARE(*indices.rbegin(), static_cast<int>(indices.size()) - 1);
        if (!endedGangs.empty()) {
            state.forEachPod([&](const Pod& pod) {
                QVERIFY2(!endedGangs.count(pod.nameSpace + '/' + pod.workload), pod.name.c_str());
            });
        }
        QCOMPARE(overAllocatedNode(state), QString());
        const double u = occupancyOf(state).utilisation();
        QVERIFY2(u >= 0.40 && u <= 0.90, qPrintable(QStringLiteral("step %1: %2").arg(step).arg(u)));
        low = std::min(low, u);
        high = std::max(high, u);
    }
    QVERIFY(started > 0);
    QVERIFY(finished > 0);
    QVERIFY2(high - low >= 0.03, qPrintable(QStringLiteral("%1..%2").arg(low).arg(high)));
}

void TestDemoCluster::simulatorIsDeterministic() {
    const DemoCluster demo = demoOrFail("gb200");
    ClusterState a = stateOf(demo);
    ClusterState b = stateOf(demo);
    ClusterState c = stateOf(demo);
    DemoSimulator first(demo, 99);
    DemoSimulator second(demo, 99);
    DemoSimulator other(demo, 100);
    bool differs = false;
    for (int step = 0; step < 20; ++step) {
        const std::vector<ClusterEvent> x = first.step(a);
        const std::vector<ClusterEvent> y = second.step(b);
        const std::vector<ClusterEvent> z = other.step(c);
        QVERIFY(x == y);
        differs = differs || x != z;
        for (const ClusterEvent& e : x) (void)a.apply(e);
        for (const ClusterEvent& e : y) (void)b.apply(e);
        for (const ClusterEvent& e : z) (void)c.apply(e);
    }
    QVERIFY(differs);
}

void TestDemoCluster::simulatorFlapsNodes() {
    const DemoCluster demo = demoOrFail("gb200");
    ClusterState state = stateOf(demo);
    DemoSimulator simulator(demo, 5);
    int down = 0, up = 0;
    for (int step = 0; step < 100; ++step) {
        for (const ClusterEvent& event : simulator.step(state)) {
            if (const auto* upsert = std::get_if<NodeUpserted>(&event)) {
                const Node& before = *state.record(*state.findNode(upsert->node.name)).node;
                QVERIFY(before.ready != upsert->node.ready);
                (upsert->node.ready ? up : down) += 1;
            }
            (void)state.apply(event);
        }
        std::size_t notReady = 0;
        for (NodeId id = 0; id < state.nodeSlots(); ++id) notReady += state.record(id).node->ready ? 0 : 1;
        QVERIFY(notReady <= state.presentNodeCount() / 50 + 1);
    }
    QVERIFY(down > 0);
    QVERIFY(up > 0);
}

// Capacity comes from the state the caller passes, not from a private copy: cordon every node
// outside one rack behind the simulator's back, and new gangs land only in that rack.
void TestDemoCluster::simulatorReadsTheState() {
    const DemoCluster demo = demoOrFail("h100");
    ClusterState state = stateOf(demo);
    DemoSimulator simulator(demo, 3);
    for (const ClusterEvent& event : simulator.step(state)) (void)state.apply(event);

    const std::string& rackKey = demo.topology.levels.back().nodeLabel;
    std::map<std::string, std::int64_t> freeByRack;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (record.node->schedulable())
            freeByRack[*record.node->label(rackKey)] +=
                gpusIn(record.node->allocatable) - gpusIn(record.usage.requested);
    }
    const std::string openRack =
        std::max_element(freeByRack.begin(), freeByRack.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->first;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        Node node = *state.record(id).node;
        if (*node.label(rackKey) == openRack) continue;
        node.unschedulable = true;
        (void)state.apply(NodeUpserted{std::move(node)});
    }
    std::size_t started = 0;
    for (int step = 0; step < 10; ++step) {
        for (const ClusterEvent& event : simulator.step(state)) {
            if (const auto* upsert = std::get_if<PodUpserted>(&event)) {
                const Node& node = *state.record(*state.findNode(upsert->pod.nodeName)).node;
                QCOMPARE(*node.label(rackKey), openRack);
                ++started;
            }
            (void)state.apply(event);
        }
        QCOMPARE(overAllocatedNode(state), QString());
    }
    QVERIFY(started > 0);
}

void TestDemoCluster::draDemoHasTheTotalsOfItsTwin_data() {
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("gb200") << QByteArray("gb200");
    QTest::newRow("h100") << QByteArray("h100");
}

// The same cluster counted the other way: GPUs from ResourceSlices and claim allocations, not from
// nvidia.com/gpu; the totals agree, at the start and while both simulators run in step.
void TestDemoCluster::draDemoHasTheTotalsOfItsTwin() {
    QFETCH(QByteArray, name);
    const Result<DemoCluster> plugin = makeDemoCluster(name.toStdString());
    const Result<DemoCluster> dra = makeDemoCluster(name.toStdString() + "-dra");
    QVERIFY(plugin.ok() && dra.ok());
    QVERIFY(dra->gpusThroughDra);
    ClusterState pluginState = stateOf(*plugin);
    ClusterState draState = stateOf(*dra);
    const auto totals = [](const ClusterState& state, const TopologySpec& spec) {
        return TopologyIndex::build(state, spec).root().totals;
    };
    DomainTotals expected = totals(pluginState, plugin->topology);
    DomainTotals actual = totals(draState, dra->topology);
    QCOMPARE(actual.gpusTotal, expected.gpusTotal);
    QCOMPARE(actual.gpusUsed, expected.gpusUsed);
    QCOMPARE(actual.gpusFree, expected.gpusFree);
    QCOMPARE(actual.nodesDraGpus, expected.nodesPluginGpus);
    QCOMPARE(actual.nodesPluginGpus, 0);
    QVERIFY(draState.devices().claims().size() > 0);
    for (const auto& [key, published] : draState.devices().slices()) QVERIFY(published.slice->driver == "gpu.nvidia.com");

    DemoSimulator pluginSimulator(*plugin, 5);
    DemoSimulator draSimulator(*dra, 5);
    for (int step = 0; step < 6; ++step) {
        for (const ClusterEvent& event : pluginSimulator.step(pluginState)) (void)pluginState.apply(event);
        for (const ClusterEvent& event : draSimulator.step(draState)) (void)draState.apply(event);
        expected = totals(pluginState, plugin->topology);
        actual = totals(draState, dra->topology);
        QCOMPARE(actual.gpusUsed, expected.gpusUsed);
        QCOMPARE(actual.gpusUnavailable, expected.gpusUnavailable);
        QCOMPARE(actual.pods, expected.pods);
    }
}

namespace {

// Each ComputeDomain of a DRA demo is its one gang's: every node its pods run on is in its status
// with the clique of the node's label, and no other node is. Returns how many span cliques.
int checkComputeDomains(const ClusterState& state) {
    int spanning = 0;
    for (const ComputeDomainUsage& domain : computeDomainUsage(state, nullptr)) {
        const QByteArray name = QByteArray::fromStdString(domain.qualifiedName());
        if (domain.workloads.size() != 1 || domain.name != domain.workloads[0].name + "-cd") qFatal("%s: workload", name.data());
        if (domain.members.size() < 2) qFatal("%s: on one node", name.data());
        for (const ComputeDomainMember& member : domain.members) {
            if (!member.listed || member.pods == 0) qFatal("%s: %s not its or not listed", name.data(), member.node.c_str());
            if (member.clique != nodeClique(state, member.node)) qFatal("%s: clique of %s", name.data(), member.node.c_str());
        }
        const bool ready = std::all_of(domain.members.begin(), domain.members.end(), [](const ComputeDomainMember& m) {
            return m.status == ComputeDomainReadiness::Ready;
        });
        if ((domain.status == ComputeDomainReadiness::Ready) != ready) qFatal("%s: status", name.data());
        spanning += domain.spansCliques() ? 1 : 0;
    }
    return spanning;
}

} // namespace

// gb200-dra's ComputeDomains, one per running multi-node gang, follow their gangs as the
// simulator starts and finishes them; h100-dra (no NVLink cliques) has none.
void TestDemoCluster::draDemoComputeDomainsFollowTheirGangs() {
    const Result<DemoCluster> dra = makeDemoCluster("gb200-dra");
    QVERIFY(dra.ok());
    ClusterState state = stateOf(*dra);
    QVERIFY(state.computeDomains().size() > 20);
    QVERIFY(checkComputeDomains(state) >= 1);
    DemoSimulator simulator(*dra, 5);
    std::set<std::string> seen;
    for (const auto& [key, domain] : state.computeDomains()) seen.insert(key);
    bool changed = false;
    for (int step = 0; step < 6; ++step) {
        for (const ClusterEvent& event : simulator.step(state)) (void)state.apply(event);
        (void)checkComputeDomains(state);
        for (const auto& [key, domain] : state.computeDomains()) changed = changed || !seen.count(key);
    }
    QVERIFY(changed); // new gangs got theirs
    QVERIFY(stateOf(*makeDemoCluster("h100-dra")).computeDomains().empty());
}

TOPODECK_TEST_GUILESS_MAIN(TestDemoCluster)
#include "test_demo_cluster.moc"
