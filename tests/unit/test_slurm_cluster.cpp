// How a Slurm cluster becomes the model (slurm_cluster.h): the topology as label levels, nodes
// and their states, jobs as per-node allocations plus what the nodes report beyond them, the
// events of a poll saying only what changed, and the snapshot directory read back.
#include "core/formats/snapshot_reader.h"
#include "core/model/cluster_state.h"
#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_json.h"
#include "core/slurm/slurm_snapshot.h"
#include "core/slurm/slurm_text.h"
#include "core/text/hostlist.h"
#include "core/text/text_file.h"
#include "support/test_program.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::string dataFile(const char* name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/live/" + name;
}

std::string readData(const char* name) {
    std::ifstream in(dataFile(name));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

SlurmNode node(std::string name, SlurmNode::Base base = SlurmNode::Base::Idle, std::uint32_t flags = 0) {
    SlurmNode n;
    n.name = std::move(name);
    n.base = base;
    n.flags = flags;
    n.cpus = 64;
    n.memoryMiB = 512000;
    n.gpus = 8;
    n.partitions = {"gpu"};
    return n;
}

SlurmJob job(std::uint32_t id, std::string name, std::vector<SlurmJobAllocation> allocations) {
    SlurmJob j;
    j.id = id;
    j.name = std::move(name);
    j.state = "RUNNING";
    j.allocations = std::move(allocations);
    std::vector<std::string> names;
    for (const SlurmJobAllocation& allocation : j.allocations) names.push_back(allocation.node);
    j.nodes = compressHostlist(names);
    j.nodeCount = static_cast<std::int64_t>(names.size());
    return j;
}

// "level=value" of the level labels, top first, as the hierarchy gives them to `name`.
QString levelsOf(const SlurmHierarchy& hierarchy, const std::string& name) {
    const auto it = hierarchy.labelsByNode.find(name);
    if (it == hierarchy.labelsByNode.end()) return QStringLiteral("(none)");
    QStringList parts;
    for (const TopologyLevel& level : hierarchy.spec.levels)
        for (const auto& [key, value] : it->second)
            if (key == level.nodeLabel) parts << qs(level.name) + QLatin1Char('=') + qs(value);
    return parts.join(QLatin1Char(' '));
}

QString eventSummary(const std::vector<ClusterEvent>& events) {
    QStringList parts;
    for (const ClusterEvent& event : events) {
        if (const auto* n = std::get_if<NodeUpserted>(&event)) parts << QStringLiteral("node ") + qs(n->node.name);
        else if (const auto* d = std::get_if<NodeDeleted>(&event)) parts << QStringLiteral("-node ") + qs(d->name);
        else if (const auto* p = std::get_if<PodUpserted>(&event)) parts << QStringLiteral("pod ") + qs(p->pod.name);
        else if (const auto* g = std::get_if<PodDeleted>(&event)) parts << QStringLiteral("-pod ") + qs(g->name);
        else if (std::holds_alternative<TopologyUpserted>(event)) parts << QStringLiteral("topology");
        else if (std::holds_alternative<SlurmTopologySet>(event)) parts << QStringLiteral("slurm-topology");
        else parts << QStringLiteral("other");
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

class SlurmClusterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hierarchy_data();
    void hierarchy();
    void nodeModel_data();
    void nodeModel();
    void jobsBecomeAllocations();
    void pollsSayOnlyWhatChanged();
    void topologyChangeRelabels();
    void topologyWarnings();
    void snapshotDirectory();
    void snapshotDirectoryErrors();
    void snapshotVersion();
};

void SlurmClusterTest::hierarchy_data() {
    QTest::addColumn<QString>("topology");
    QTest::addColumn<QString>("levels");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("labels");
    const QString tree = QStringLiteral("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\nSwitchName=l3 Nodes=n[5-6]\n"
                                        "SwitchName=s1 Switches=l[1-2]\nSwitchName=core Switches=s1,l3\n");
    QTest::newRow("leaf-spine-core") << tree << QStringLiteral("core spine leaf") << QStringLiteral("n3")
                                     << QStringLiteral("core=core spine=s1 leaf=l2");
    // l3 hangs straight off the core switch: its nodes get l3 at the spine level too.
    QTest::newRow("skipped level") << tree << QStringLiteral("core spine leaf") << QStringLiteral("n6")
                                   << QStringLiteral("core=core spine=l3 leaf=l3");
    QTest::newRow("two roots") << QStringLiteral("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[3-4]\nSwitchName=top Switches=a\n")
                               << QStringLiteral("spine leaf") << QStringLiteral("n4") << QStringLiteral("spine=b leaf=b");
    QTest::newRow("not in any switch") << tree << QStringLiteral("core spine leaf") << QStringLiteral("n9") << QStringLiteral("(none)");
    const QString blocks = QStringLiteral("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockName=b3 Nodes=n[9-12]\n"
                                          "BlockName=b4 Nodes=n[13-16]\nBlockSizes=4,8,16\n");
    // 16 nodes make one aggregate of all four blocks, which says nothing: not a level.
    QTest::newRow("blocks") << blocks << QStringLiteral("block-x2 block") << QStringLiteral("n7")
                            << QStringLiteral("block-x2=b[1-2] block=b2");
    QTest::newRow("blocks, second pair") << blocks << QStringLiteral("block-x2 block") << QStringLiteral("n16")
                                         << QStringLiteral("block-x2=b[3-4] block=b4");
    QTest::newRow("blocks without sizes")
        << QStringLiteral("BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n[3-4]\nBlockName=b3 Nodes=n[5-6]\n")
        << QStringLiteral("block-x2 block") << QStringLiteral("n5") << QStringLiteral("block-x2=b3 block=b3");
    QTest::newRow("none") << QString() << QStringLiteral("partition") << QStringLiteral("n1") << QStringLiteral("(none)");
}

void SlurmClusterTest::hierarchy() {
    QFETCH(QString, topology);
    QFETCH(QString, levels);
    QFETCH(QString, node);
    QFETCH(QString, labels);
    std::optional<SlurmTopology> parsed;
    if (!topology.isEmpty()) {
        auto result = parseTopologyConf(topology.toStdString());
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
        parsed = std::move(*result);
    }
    const SlurmHierarchy hierarchy = slurmHierarchy(parsed ? &*parsed : nullptr);
    QStringList names;
    for (const TopologyLevel& level : hierarchy.spec.levels) {
        names << qs(level.name);
        QCOMPARE(qs(level.nodeLabel).startsWith(QLatin1String("slurm.topodeck.io/")), true);
    }
    QCOMPARE(names.join(QLatin1Char(' ')), levels);
    QCOMPARE(qs(hierarchy.spec.origin), QStringLiteral("slurm"));
    QCOMPARE(levelsOf(hierarchy, node.toStdString()), labels);
}

void SlurmClusterTest::nodeModel_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("flags");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("unschedulable");
    QTest::addColumn<QString>("state");
    using B = SlurmNode::Base;
    QTest::newRow("idle") << int(B::Idle) << 0 << true << false << QStringLiteral("idle");
    QTest::newRow("mixed") << int(B::Mixed) << 0 << true << false << QStringLiteral("mixed");
    QTest::newRow("drained") << int(B::Idle) << int(SlurmNode::Drain) << true << true << QStringLiteral("drained");
    QTest::newRow("draining") << int(B::Allocated) << int(SlurmNode::Drain) << true << true << QStringLiteral("draining");
    QTest::newRow("reserved") << int(B::Idle) << int(SlurmNode::Reserved) << true << true << QStringLiteral("reserved");
    QTest::newRow("maintenance") << int(B::Idle) << int(SlurmNode::Maintenance) << true << true << QStringLiteral("maint");
    QTest::newRow("down") << int(B::Down) << 0 << false << false << QStringLiteral("down");
    QTest::newRow("not responding") << int(B::Idle) << int(SlurmNode::NotResponding) << false << false << QStringLiteral("idle");
    QTest::newRow("powered down") << int(B::Idle) << int(SlurmNode::PoweredDown) << false << false << QString();
}

void SlurmClusterTest::nodeModel() {
    QFETCH(int, base);
    QFETCH(int, flags);
    QFETCH(bool, ready);
    QFETCH(bool, unschedulable);
    QFETCH(QString, state);
    SlurmNode slurm = node("gpu-001", static_cast<SlurmNode::Base>(base), static_cast<std::uint32_t>(flags));
    slurm.gpuType = "h100";
    slurm.weight = 10;
    slurm.reason = "xid-79";
    slurm.partitions = {"gpu", "debug"};
    const Node model = slurmNodeToModel(slurm, {{"slurm.topodeck.io/leaf", "leaf01"}});
    QCOMPARE(model.ready, ready);
    QCOMPARE(model.unschedulable, unschedulable);
    if (!state.isEmpty()) QCOMPARE(qs(*model.label(slurm_labels::kState)), state);
    QCOMPARE(qs(*model.label("slurm.topodeck.io/leaf")), QStringLiteral("leaf01"));
    QCOMPARE(qs(*model.label(slurm_labels::kHostname)), QStringLiteral("gpu-001"));
    QCOMPARE(qs(*model.label(slurm_labels::kPartition)), QStringLiteral("gpu"));
    QCOMPARE(qs(*model.label(slurm_labels::kPartitions)), QStringLiteral("gpu,debug"));
    QCOMPARE(qs(*model.label(slurm_labels::kWeight)), QStringLiteral("10"));
    QCOMPARE(qs(*model.label(slurm_labels::kGpuType)), QStringLiteral("h100"));
    QCOMPARE(qs(*model.label(slurm_labels::kReason)), QStringLiteral("xid-79"));
    QVERIFY(std::is_sorted(model.labels.begin(), model.labels.end()));
    QCOMPARE(model.allocatable.get("nvidia.com/gpu").value(), 8);
    QCOMPARE(model.allocatable.get("cpu").value(), 64);
    QCOMPARE(model.allocatable.get("memory").value(), 512000LL * 1024 * 1024);
    // Weight 1 is Slurm's default and is not spelled out.
    slurm.weight = 1;
    QCOMPARE(slurmNodeToModel(slurm, {}).label(slurm_labels::kWeight), nullptr);
}

void SlurmClusterTest::jobsBecomeAllocations() {
    SlurmClusterMapper mapper;
    std::vector<SlurmNode> nodes = {node("gpu-001", SlurmNode::Base::Allocated), node("gpu-002", SlurmNode::Base::Mixed),
                                    node("gpu-003", SlurmNode::Base::Mixed), node("gpu-004")};
    nodes[0].cpusAllocated = 2;
    nodes[0].memoryAllocatedMiB = 8000;
    nodes[0].gpusUsed = 8;
    nodes[1].cpusAllocated = 2; // one CPU of a job squeue did not list
    nodes[1].memoryAllocatedMiB = 4000;
    nodes[1].gpusUsed = 8;
    nodes[2].gpusUsed = 4; // a job listed without per-node details
    mapper.setNodes(nodes);
    std::vector<SlurmJob> jobs = {job(7, "train", {{"gpu-001", 2, 8000, 8}, {"gpu-002", 1, 4000, 8}})};
    SlurmJob bare;
    bare.id = 8;
    bare.state = "RUNNING";
    bare.nodes = "gpu-003";
    bare.tresPerNode = "gres:gpu:4";
    jobs.push_back(bare);
    SlurmJob pending;
    pending.id = 9;
    pending.state = "PENDING";
    jobs.push_back(pending);
    mapper.setJobs(jobs);
    ClusterState state;
    for (ClusterEvent& event : mapper.takeEvents()) (void)state.apply(std::move(event));

    QCOMPARE(state.presentNodeCount(), std::size_t{4});
    const Pod* train = state.findPod(kSlurmJobNamespace, "7@gpu-002");
    QVERIFY(train);
    QCOMPARE(qs(train->workload), QStringLiteral("train (job 7)"));
    QCOMPARE(train->requests.get("nvidia.com/gpu").value(), 8);
    QVERIFY(state.findPod(kSlurmJobNamespace, "8@gpu-003"));
    QCOMPARE(state.findPod(kSlurmJobNamespace, "8@gpu-003")->requests.get("nvidia.com/gpu").value(), 4);
    const Pod* other = state.findPod(kSlurmJobNamespace, "(other)@gpu-002");
    QVERIFY(other);
    QCOMPARE(other->requests.get("cpu").value(), 1);
    QCOMPARE(other->requests.get("nvidia.com/gpu").value(), 0);
    QVERIFY(!state.findPod(kSlurmJobNamespace, "(other)@gpu-001"));
    QVERIFY(!state.findPod(kSlurmJobNamespace, "(other)@gpu-003")); // the job's GPUs explain it
    QCOMPARE(state.podCount(), std::size_t{4});
    // Occupancy equals each node's own counters.
    for (const SlurmNode& n : nodes) {
        const NodeUsage& usage = state.record(*state.findNode(n.name)).usage;
        QCOMPARE(usage.requested.get("nvidia.com/gpu").value(), n.gpusUsed);
        QCOMPARE(usage.requested.get("cpu").value(), n.cpusAllocated);
    }
}

void SlurmClusterTest::pollsSayOnlyWhatChanged() {
    SlurmClusterMapper mapper;
    std::vector<SlurmNode> nodes;
    for (int i = 1; i <= 50; ++i) nodes.push_back(node("gpu-" + std::to_string(100 + i)));
    nodes[0].base = SlurmNode::Base::Allocated;
    nodes[0].cpusAllocated = 1;
    nodes[0].memoryAllocatedMiB = 4000;
    nodes[0].gpusUsed = 8;
    mapper.setNodes(nodes);
    mapper.setJobs({job(1, "a", {{"gpu-101", 1, 4000, 8}})});
    QCOMPARE(mapper.takeEvents().size(), std::size_t{2 + 50 + 1}); // topology (two events), nodes, the pod

    // The same poll again: nothing.
    mapper.setNodes(nodes);
    mapper.setJobs({job(1, "a", {{"gpu-101", 1, 4000, 8}})});
    QCOMPARE(eventSummary(mapper.takeEvents()), QString());

    // A drain and a new job: those nodes and that pod only.
    nodes[10].flags |= SlurmNode::Drain;
    nodes[20].base = SlurmNode::Base::Mixed;
    nodes[20].cpusAllocated = 1;
    nodes[20].memoryAllocatedMiB = 4000;
    nodes[20].gpusUsed = 2;
    mapper.setNodes(nodes);
    mapper.setJobs({job(1, "a", {{"gpu-101", 1, 4000, 8}}), job(2, "b", {{"gpu-121", 1, 4000, 2}})});
    QCOMPARE(eventSummary(mapper.takeEvents()), QStringLiteral("node gpu-111, node gpu-121, pod 2@gpu-121"));

    // The first job ends and a node leaves the cluster.
    nodes[0] = node("gpu-101");
    nodes.pop_back();
    mapper.setNodes(nodes);
    mapper.setJobs({job(2, "b", {{"gpu-121", 1, 4000, 2}})});
    QCOMPARE(eventSummary(mapper.takeEvents()), QStringLiteral("node gpu-101, -node gpu-150, -pod 1@gpu-101"));

    // A job that grows keeps its pod and gains one; the remainder follows the node's counters.
    nodes[21].base = SlurmNode::Base::Mixed;
    nodes[21].cpusAllocated = 3;
    nodes[21].gpusUsed = 2;
    mapper.setNodes(nodes);
    mapper.setJobs({job(2, "b", {{"gpu-121", 1, 4000, 2}, {"gpu-122", 1, 0, 2}})});
    QCOMPARE(eventSummary(mapper.takeEvents()),
             QStringLiteral("node gpu-122, pod 2@gpu-121, pod 2@gpu-122, pod (other)@gpu-122"));
    nodes[21].cpusAllocated = 1;
    mapper.setNodes(nodes);
    QCOMPARE(eventSummary(mapper.takeEvents()), QStringLiteral("node gpu-122, -pod (other)@gpu-122"));
}

void SlurmClusterTest::topologyChangeRelabels() {
    SlurmClusterMapper mapper;
    mapper.setNodes({node("n1"), node("n2")});
    const auto events = mapper.takeEvents();
    QCOMPARE(eventSummary(events), QStringLiteral("slurm-topology, topology, node n1, node n2"));
    const auto* spec = std::get_if<TopologyUpserted>(&events[1]);
    QVERIFY(spec);
    QCOMPARE(qs(spec->spec.levels.front().name), QStringLiteral("partition"));

    auto topology = parseTopologyConf("SwitchName=l1 Nodes=n1\nSwitchName=l2 Nodes=n2\n");
    QVERIFY(topology.ok());
    mapper.setTopology(std::make_shared<const SlurmTopology>(*topology));
    const auto relabelled = mapper.takeEvents();
    QCOMPARE(eventSummary(relabelled), QStringLiteral("slurm-topology, topology, node n1, node n2"));
    QCOMPARE(qs(*std::get<NodeUpserted>(relabelled[3]).node.label("slurm.topodeck.io/leaf")), QStringLiteral("l2"));
    // The same topology again changes nothing.
    mapper.setTopology(std::make_shared<const SlurmTopology>(*topology));
    QCOMPARE(eventSummary(mapper.takeEvents()), QString());
}

void SlurmClusterTest::topologyWarnings() {
    SlurmClusterMapper mapper;
    auto topology = parseTopologyConf("SwitchName=l1 Nodes=n[1-2],ghost\n");
    QVERIFY(topology.ok());
    mapper.setTopology(std::make_shared<const SlurmTopology>(*topology));
    mapper.setNodes({node("n1"), node("n2"), node("n3"), node("n4")});
    const std::vector<std::string> warnings = mapper.topologyWarnings();
    QCOMPARE(warnings.size(), std::size_t{2});
    QCOMPARE(qs(warnings[0]), QStringLiteral("2 node(s) in no switch of the topology: n[3-4]"));
    QCOMPARE(qs(warnings[1]), QStringLiteral("the topology names 1 node(s) Slurm does not list: ghost"));
}

// The files of a real 22.05 cluster (see tests/data/slurm/live) written as a snapshot directory
// and read back as the live source would have seen them.
void SlurmClusterTest::snapshotDirectory() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto topology = parseScontrolTopology(readData("scontrol-topology.txt"));
    QVERIFY(topology.ok());
    const std::string path = dir.path().toStdString() + "/cluster";
    const Status written = writeSlurmFileSet(path, readData("nodes-v0.0.38.json"), readData("jobs-v0.0.38.json"), &*topology);
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
    QVERIFY(isSlurmFileSet(path));

    auto snapshot = readSnapshotFile(path);
    QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
    QCOMPARE(snapshot->nodes.size(), std::size_t{64});
    QVERIFY(snapshot->slurmTopology);
    QCOMPARE(snapshot->slurmTopology->switches, topology->switches);
    QCOMPARE(snapshot->slurmTopology->warnings, topology->warnings);
    QCOMPARE(snapshot->slurmTopology->name, topology->name);
    QCOMPARE(snapshot->slurmTopology->blocks, topology->blocks);
    QCOMPARE(snapshot->topologies.size(), std::size_t{1});
    ClusterState state;
    std::move(*snapshot).applyTo(state);
    QVERIFY(state.slurmTopology());
    // Jobs 1 (4 nodes, gpu:8), 2 (gpu-015, gpu:2) and 4 (gpu-009, CPUs only) run; 3 failed, 5 pends.
    QVERIFY(state.findPod(kSlurmJobNamespace, "1@gpu-012"));
    QVERIFY(state.findPod(kSlurmJobNamespace, "2@gpu-015"));
    QVERIFY(state.findPod(kSlurmJobNamespace, "4@gpu-009"));
    QVERIFY(!state.findPod(kSlurmJobNamespace, "3@gpu-001"));
    long long gpus = 0;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) gpus += state.record(id).usage.requested.get("nvidia.com/gpu").value();
    QCOMPARE(gpus, 34LL);
    const Node& drained = *state.record(*state.findNode("gpu-010")).node;
    QVERIFY(drained.unschedulable);
    QCOMPARE(qs(*drained.label("slurm.topodeck.io/leaf")), QStringLiteral("leaf02"));
    QVERIFY(!state.record(*state.findNode("gpu-011")).node->ready);

    // Rewritten without a topology: the old topology.conf goes, the map groups by partition.
    QVERIFY(writeSlurmFileSet(path, readData("nodes-v0.0.38.json"), R"({"jobs": []})", nullptr).ok());
    QVERIFY(!std::filesystem::exists(path + "/topology.conf"));
    auto flat = readSnapshotFile(path);
    QVERIFY(flat.ok());
    QVERIFY(!flat->slurmTopology);
    QCOMPARE(qs(flat->topologies.front().levels.front().name), QStringLiteral("partition"));
    // Without the jobs, what the nodes report allocated is still held (by "jobs not listed").
    QStringList holders;
    for (const Pod& pod : flat->pods) holders << qs(pod.name);
    holders.sort();
    QCOMPARE(holders.join(QLatin1Char(' ')), QStringLiteral("(other)@gpu-009 (other)@gpu-012 (other)@gpu-013 "
                                                            "(other)@gpu-014 (other)@gpu-015"));
}

// The Slurm version of a snapshot directory: slurm-version.txt as topodeckctl snapshot writes it;
// for a directory from before that file, nodes.json's meta; else none.
void SlurmClusterTest::snapshotVersion() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.path().toStdString() + "/cluster";
    const std::string jobs = R"({"jobs": []})";
    QVERIFY(writeSlurmFileSet(path, readData("nodes-v0.0.38.json"), jobs, nullptr, "slurm-wlm 22.05.8").ok());
    QCOMPARE(qs(*readTextFile(path + "/slurm-version.txt")), QStringLiteral("slurm-wlm 22.05.8\n"));
    auto recorded = readSnapshotFile(path);
    QVERIFY2(recorded.ok(), recorded.ok() ? "" : recorded.error().message.c_str());
    QCOMPARE(qs(recorded->slurmVersion), QStringLiteral("slurm-wlm 22.05.8"));

    // The file wins over the meta (it is what the live source said); its first line counts, trimmed.
    std::ofstream(path + "/slurm-version.txt", std::ios::trunc) << "  24.05.3 \n\nignored\n";
    QCOMPARE(qs(readSnapshotFile(path)->slurmVersion), QStringLiteral("24.05.3"));

    // Rewritten without a version: no stale file; the meta of nodes.json (sinfo --json) still says.
    QVERIFY(writeSlurmFileSet(path, readData("nodes-v0.0.38.json"), jobs, nullptr).ok());
    QVERIFY(!std::filesystem::exists(path + "/slurm-version.txt"));
    auto fromMeta = readSnapshotFile(path);
    QVERIFY(fromMeta.ok());
    QCOMPARE(qs(fromMeta->slurmVersion), QStringLiteral("22.05.8"));

    // Neither: the directory does not say.
    QVERIFY(writeSlurmFileSet(path, R"({"nodes": []})", jobs, nullptr).ok());
    auto unknown = readSnapshotFile(path);
    QVERIFY(unknown.ok());
    QVERIFY(unknown->slurmVersion.empty());
    std::ofstream(path + "/slurm-version.txt", std::ios::trunc) << "\n";
    QVERIFY(readSnapshotFile(path)->slurmVersion.empty());
}

void SlurmClusterTest::snapshotDirectoryErrors() {
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString();
    QVERIFY(!isSlurmFileSet(path));
    auto missing = readSlurmFileSet(path);
    QVERIFY(!missing.ok());
    QVERIFY(qs(missing.error().message).contains(QStringLiteral("no nodes.json")));

    std::ofstream(path + "/nodes.json") << R"({"nodes": [{"name": "n1", "cpus": "many"}]})";
    auto broken = readSnapshotFile(path);
    QVERIFY(!broken.ok());
    QVERIFY2(qs(broken.error().message).contains(qs(path + "/nodes.json")), broken.error().message.c_str());
    QVERIFY2(qs(broken.error().message).contains(QStringLiteral("cpus")), broken.error().message.c_str());

    std::ofstream(path + "/nodes.json", std::ios::trunc) << R"({"nodes": []})";
    std::ofstream(path + "/topology.conf") << "SwitchName=l1 Nodes=n[1-\n";
    auto badTopology = readSnapshotFile(path);
    QVERIFY(!badTopology.ok());
    QVERIFY2(qs(badTopology.error().message).contains(QStringLiteral("topology.conf")), badTopology.error().message.c_str());
}

TOPODECK_TEST_APPLESS_MAIN(SlurmClusterTest)
#include "test_slurm_cluster.moc"
