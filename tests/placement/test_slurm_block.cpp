// slurm-block engine: Slurm's topology/block plugin (eval_nodes_block.c, scheduler-semantics
// §2.3/§2.4). Each row is a cluster, a topology.conf, an sbatch request and the nodes (or the
// errno text) Slurm arrives at; the expected nodes were traced by hand through the plugin's code.
#include "core/placement/engines/slurm_block_engine.h"
#include "core/placement/engines/slurm_tree_engine.h"
#include "core/placement/requests/sbatch_args.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"

#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Eight base blocks of four nodes, n01-n32, in config order b1..b8.
const std::string kEightBlocks = "BlockName=b1 Nodes=n[01-04]\nBlockName=b2 Nodes=n[05-08]\n"
                                 "BlockName=b3 Nodes=n[09-12]\nBlockName=b4 Nodes=n[13-16]\n"
                                 "BlockName=b5 Nodes=n[17-20]\nBlockName=b6 Nodes=n[21-24]\n"
                                 "BlockName=b7 Nodes=n[25-28]\nBlockName=b8 Nodes=n[29-32]\n";
const std::string kSizes4to32 = kEightBlocks + "BlockSizes=4,8,16,32\n";
const std::string kSizes4and16 = kEightBlocks + "BlockSizes=4,16\n";
const std::string kSizes4and8 = kEightBlocks + "BlockSizes=4,8\n";
const std::string kTreeConf =
    "SwitchName=s1 Nodes=n[01-16]\nSwitchName=s2 Nodes=n[17-32]\nSwitchName=top Switches=s[1-2]\n";

struct Case {
    const char* name = "";
    std::string topology = kSizes4to32; // topology.conf text; "" = derive blocks from the labels
    int nodeCount = 32;                 // n01.., four per rack-<k> label
    std::string down = {};              // NotReady
    std::string cordoned = {};
    std::string fragmented = {};                                     // 2 of 8 GPUs used
    std::string full = {};                                           // 8 of 8 GPUs used
    std::string onePod = {};                                         // 1 GPU used: not idle
    std::vector<std::pair<std::string, std::uint32_t>> weights = {}; // applied in order
    int nodes = 4;                                                   // -N
    int gpus = 8;                                                    // --gres=gpu:G
    std::function<void(SlurmRequest&)> options = {};
    bool fromGang = false; // no sbatch request: -N and GPUs from the gang
    // Expected.
    std::string message = {};    // errno text; empty for success
    std::string placed = {};     // hostlist of the nodes, on success
    std::string aggregated = {}; // the chosen aggregated block(s), comma-free hostlist; "" = none
    std::string traceHas = {};   // a piece of some trace entry
    bool invalid = false;
};

std::vector<Case> cases() {
    std::vector<Case> rows;
    auto add = [&rows](Case c) { rows.push_back(std::move(c)); };

    // Block level and block choice.
    add({.name = "one base block, ties go to the later block", .placed = "n[29-32]"});
    add({.name = "tightest base block", .full = "n06", .nodes = 3, .placed = "n[05,07-08]"});
    add({.name = "equal fits: the later block",
         .full = "n[06,18]",
         .nodes = 3,
         .placed = "n[17,19-20]",
         .traceHas = "b5 ties and comes later in the configuration"});
    add({.name = "level 1: two base blocks", .nodes = 6, .placed = "n[25-26,29-32]", .aggregated = "b[7-8]"});
    add({.name = "unconfigured level skipped",
         .topology = kSizes4and16,
         .full = "n29",
         .nodes = 6,
         .placed = "n[25-28,30-31]",
         .aggregated = "b[5-8]"});
    add({.name = "lower-level block cap",
         .topology = kSizes4and16,
         .full = "n[19-20,23-24,27-28,31-32]",
         .nodes = 6,
         .placed = "n[09-10,13-16]",
         .aggregated = "b[1-4]",
         .traceHas = "4 within its 2 fullest lower-level blocks"});
    add({.name = "no level large enough: whole topology",
         .topology = kSizes4and8,
         .nodes = 12,
         .placed = "n[21-32]",
         .aggregated = "b[1-8]"});
    add({.name = "no block fits",
         .full = "n[01,05,09,13,17,21,25,29]",
         .message = "No suitable topology unit found",
         .traceHas = "3 eligible nodes; 4 needed"});
    add({.name = "every node down", .down = "n[01-32]", .message = "No available nodes in topology"});
    add({.name = "fragmented, NotReady and cordoned nodes",
         .down = "n29",
         .cordoned = "n22",
         .fragmented = "n26",
         .placed = "n[17-20]",
         .traceHas = "29 of 32 nodes eligible: 2 not ready, cordoned or drained, 1 with fewer than 8 free GPUs"});
    add({.name = "fragmented node fits a smaller request", .fragmented = "n[29-32]", .gpus = 6, .placed = "n[29-32]"});

    // Node weights.
    add({.name = "lower weight block wins", .weights = {{"n[17-32]", 10}}, .placed = "n[13-16]"});
    add({.name = "lower weight nodes are forced in",
         .weights = {{"n[01-32]", 5}, {"n01", 1}},
         .nodes = 6,
         .placed = "n[01-06]",
         .aggregated = "b[1-2]",
         .traceHas = "1 node (n01) of lower weight taken first"});
    add({.name = "forced nodes exceed the lower-level blocks",
         .topology = kSizes4and16,
         .weights = {{"n[01-32]", 5}, {"n[01,05,09]", 1}},
         .nodes = 6,
         .message = "Weight-based selection could not satisfy request within topology unit"});

    // --exclusive.
    add({.name = "shared node allowed without --exclusive", .onePod = "n29", .gpus = 4, .placed = "n[29-32]"});
    add({.name = "--exclusive needs idle nodes",
         .onePod = "n29",
         .gpus = 4,
         .options = [](SlurmRequest& r) { r.exclusive = true; },
         .placed = "n[25-28]",
         .traceHas = "1 not idle (--exclusive)"});

    // Required nodes.
    add({.name = "required node picks its block",
         .options = [](SlurmRequest& r) { r.requiredNodes = {"n06"}; },
         .placed = "n[05-08]",
         .traceHas = "holds required nodes"});
    add({.name = "required node busy",
         .full = "n06",
         .options = [](SlurmRequest& r) { r.requiredNodes = {"n06"}; },
         .message = "Required nodes lack available resources"});
    add({.name = "required nodes in two blocks",
         .options =
             [](SlurmRequest& r) {
                 r.requiredNodes = {"n04", "n05"};
             },
         .message = "Required nodes do not fit topology"});
    add({.name = "required node in no block",
         .nodeCount = 33,
         .options = [](SlurmRequest& r) { r.requiredNodes = {"n33"}; },
         .message = "Required nodes do not fit topology"});
    // slurmctld's _job_create refuses a -w list above the maximum at submit (ESLURM_INVALID_NODE_COUNT),
    // before any topology plugin; topology/block's own max-node check is never reached.
    add({.name = "more required nodes than -N",
         .nodes = 2,
         .options =
             [](SlurmRequest& r) {
                 r.requiredNodes = {"n01", "n02", "n03"};
             },
         .message = "Node count specification invalid",
         .invalid = true});
    // -w alone sets the node count (slurmctld raises min_nodes to the list's size).
    add({.name = "-w alone sets the node count",
         .nodes = 0,
         .options =
             [](SlurmRequest& r) {
                 r.requiredNodes = {"n06", "n07"};
             },
         .placed = "n[06-07]",
         .traceHas = "holds required nodes"});
    add({.name = "-w raises a range's minimum",
         .options =
             [](SlurmRequest& r) {
                 r.minNodes = 2;
                 r.requiredNodes = {"n05", "n06", "n07"};
             },
         .placed = "n[05-07]"});
    add({.name = "required node's block too small",
         .full = "n[06-08]",
         .nodes = 6,
         .options = [](SlurmRequest& r) { r.requiredNodes = {"n01"}; },
         .message = "Insufficient resources in topology unit"});
    add({.name = "unknown node name",
         .options = [](SlurmRequest& r) { r.requiredNodes = {"nope"}; },
         .message = "Invalid node name specified",
         .invalid = true});
    add({.name = "excluded nodes",
         .options = [](SlurmRequest& r) { r.excludedNodes = {"n30"}; },
         .placed = "n[25-28]",
         .traceHas = "1 excluded (-x)"});

    // --segment.
    add({.name = "segments fill blocks one by one",
         .nodes = 8,
         .options = [](SlurmRequest& r) { r.segment = 4; },
         .placed = "n[25-32]"});
    add({.name = "segment must divide -N",
         .nodes = 6,
         .options = [](SlurmRequest& r) { r.segment = 4; },
         .message = "Requested topology configuration is not available",
         .invalid = true});
    add({.name = "segment larger than the job is ignored",
         .options = [](SlurmRequest& r) { r.segment = 8; },
         .placed = "n[29-32]",
         .traceHas = "is larger than the job"});
    add({.name = "segments that cannot all fit",
         .full = "n[05,09,13,17,21,25,29]",
         .nodes = 8,
         .options = [](SlurmRequest& r) { r.segment = 4; },
         .message = "No suitable topology unit found for segment"});
    add({.name = "segments pack into used base blocks",
         .nodes = 4,
         .options = [](SlurmRequest& r) { r.segment = 2; },
         .placed = "n[29-32]"});
    add({.name = "--spread-segments uses fresh base blocks",
         .nodes = 4,
         .options =
             [](SlurmRequest& r) {
                 r.segment = 2;
                 r.spreadSegments = true;
             },
         .placed = "n[25-26,29-30]"});
    add({.name = "segments without consolidation",
         .full = "n25",
         .nodes = 8,
         .options = [](SlurmRequest& r) { r.segment = 4; },
         .placed = "n[21-24,29-32]"});
    add({.name = "--consolidate-segments keeps one aggregated block",
         .full = "n25",
         .nodes = 8,
         .options =
             [](SlurmRequest& r) {
                 r.segment = 4;
                 r.consolidateSegments = true;
             },
         .placed = "n[17-24]",
         .traceHas = "its aggregated block for the consolidated segments has too few"});
    // b5 is full: the spread segments run out of fresh base blocks inside b[5-8].
    add({.name = "consolidated segments that do not fit",
         .full = "n[02,06,10,14,17-20,22,26,30]",
         .nodes = 8,
         .options =
             [](SlurmRequest& r) {
                 r.segment = 2;
                 r.consolidateSegments = true;
                 r.spreadSegments = true;
             },
         .message = "No suitable topology unit found for segment",
         .traceHas = "segment 4/4: no eligible nodes are left"});
    add({.name = "node range places the minimum",
         .options = [](SlurmRequest& r) { r.minNodes = 2; },
         .placed = "n[29-30]"});

    // Where blocks and requests come from.
    add({.name = "blocks derived from racks",
         .topology = "",
         .nodeCount = 6,
         .nodes = 2,
         .placed = "n[05-06]",
         .traceHas = "4 eligible nodes"});
    add({.name = "tree topology: blocks from the labels", .topology = kTreeConf, .placed = "n[29-32]"});
    add({.name = "request from the gang", .nodes = 3, .fromGang = true, .placed = "n[29-31]"});
    add({.name = "more GPUs than any node has",
         .gpus = 16,
         .message = "Requested node configuration is not available",
         .invalid = true});
    return rows;
}

struct Built {
    std::unique_ptr<TestCluster> cluster;
    GangRequest request;
};

Built build(const Case& c) {
    std::vector<TestNode> nodes;
    const auto inList = [](const std::string& list, const std::string& name) {
        if (list.empty()) return false;
        const auto names = expandHostlist(list);
        return std::find(names->begin(), names->end(), name) != names->end();
    };
    for (int i = 1; i <= c.nodeCount; ++i) {
        TestNode node;
        node.name = (i < 10 ? "n0" : "n") + std::to_string(i);
        node.levelValues = {"rack-" + std::to_string((i - 1) / 4 + 1)};
        node.ready = !inList(c.down, node.name);
        node.cordoned = inList(c.cordoned, node.name);
        node.usedGpus = inList(c.full, node.name)         ? 8
                        : inList(c.fragmented, node.name) ? 2
                        : inList(c.onePod, node.name)     ? 1
                                                          : 0;
        nodes.push_back(std::move(node));
    }
    Built built;
    built.cluster = makeTestCluster({"example.com/rack"}, nodes);
    if (!c.topology.empty()) {
        auto topology = parseTopologyConf(c.topology, "test.conf");
        if (topology) built.cluster->cluster->setSlurmTopology(std::make_shared<SlurmTopology>(std::move(*topology)));
    }
    for (const auto& [list, weight] : c.weights) {
        const auto names = expandHostlist(list);
        for (const std::string& name : *names)
            built.cluster->cluster->setNodeWeight(*built.cluster->state.findNode(name), weight);
    }
    built.request.pods = c.nodes;
    built.request.perPod = gpus(c.gpus);
    if (!c.fromGang) {
        SlurmRequest slurm;
        slurm.minNodes = slurm.maxNodes = c.nodes;
        slurm.gpusPerNode = c.gpus;
        if (c.options) c.options(slurm);
        built.request.slurm = slurm;
    }
    return built;
}

QString traceText(const PlacementResult& result) {
    QStringList lines;
    for (const TraceEntry& e : result.trace)
        lines << QStringLiteral("[%1] %2 %3 %4")
                     .arg(qs(e.level), qs(e.domain), e.taken ? QStringLiteral("+") : QStringLiteral("-"), qs(e.reason));
    return lines.join(QLatin1Char('\n'));
}

QString placedNodes(const PlacementResult& result) {
    std::vector<std::string> names;
    for (const NodePods& n : result.nodes) names.push_back(n.node);
    return qs(compressHostlist(names));
}

} // namespace

class TestSlurmBlock : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void table_data();
    void table();
    void resultShape();
    void traceIsBounded();
    void whatIf();
    void unavailableWithoutBlocks();
    void slurmVersionNotes();
    void requiredNodesAsTheTree_data();
    void requiredNodesAsTheTree();
};

void TestSlurmBlock::table_data() {
    QTest::addColumn<int>("row");
    const std::vector<Case> all = cases();
    for (std::size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
}

void TestSlurmBlock::table() {
    QFETCH(int, row);
    const Case c = cases()[static_cast<std::size_t>(row)];
    const Built built = build(c);
    const PlacementCluster& cluster = *built.cluster->cluster;
    QCOMPARE(qs(slurmBlockEngine().unavailableReason(cluster, built.request)), QString());
    const PlacementResult result = slurmBlockEngine().place(cluster, built.request, EngineOptions{});
    const QByteArray trace = traceText(result).toUtf8();
    QCOMPARE(qs(result.engine), QStringLiteral("slurm-block"));
    if (!c.message.empty()) {
        QVERIFY2(!result.feasible, trace.constData());
        QCOMPARE(qs(result.message), qs(c.message));
        QCOMPARE(result.invalidRequest, c.invalid);
        QVERIFY(result.nodes.empty());
    } else {
        QVERIFY2(result.feasible, (result.message + "\n" + trace.toStdString()).c_str());
        QCOMPARE(placedNodes(result), qs(c.placed));
        QVERIFY(!result.invalidRequest);
        QStringList aggregated;
        for (const ChosenDomain& chosen : result.chosen)
            if (chosen.level == "aggregated block") aggregated << qs(chosen.domain);
        QCOMPARE(aggregated.join(QLatin1Char(';')), qs(c.aggregated));
    }
    if (!c.traceHas.empty()) QVERIFY2(traceText(result).contains(qs(c.traceHas)), trace.constData());
}

void TestSlurmBlock::resultShape() {
    Case c{.name = "shape", .nodes = 6};
    const Built built = build(c);
    const PlacementResult result = slurmBlockEngine().place(*built.cluster->cluster, built.request, EngineOptions{});
    QVERIFY(result.feasible);
    QCOMPARE(qs(result.message), QStringLiteral("would start now on 6 nodes: n[25-26,29-32]"));
    QCOMPARE(result.assignment.levels, (std::vector<std::string>{"block", "kubernetes.io/hostname"}));
    QCOMPARE(result.assignment.domains.size(), std::size_t{6});
    QCOMPARE(result.assignment.domains.front(), (TopologyAssignment::Domain{{"b7", "n25"}, 1}));
    QCOMPARE(result.assignment.domains.back(), (TopologyAssignment::Domain{{"b8", "n32"}, 1}));
    QCOMPARE(result.chosen.size(), std::size_t{2});
    QCOMPARE(result.chosen[0], (ChosenDomain{"aggregated block", "b[7-8]"}));
    QCOMPARE(result.chosen[1], (ChosenDomain{"block", "b[7-8]"}));
    for (const NodePods& n : result.nodes) QCOMPARE(n.pods, 1);
    // Each candidate block is in the trace; the base blocks taken say why.
    const QString trace = traceText(result);
    QVERIFY(trace.contains(QStringLiteral("[aggregated block] b[7-8] + 8 eligible nodes, lowest weight 1: chosen")));
    QVERIFY(
        trace.contains(QStringLiteral("[aggregated block] b[1-2] - 8 eligible nodes, lowest weight 1; b[7-8] ties")));
    QVERIFY(trace.contains(
        QStringLiteral("[block] b8 + took 4 nodes (n[29-32]): no base block fits the remaining 6 alone")));
    QVERIFY(trace.contains(QStringLiteral("[block] b7 + took 2 nodes (n[25-26]): fits the remaining 2 alone")));
    QVERIFY(result.notes.empty());
}

void TestSlurmBlock::traceIsBounded() {
    Case c{.name = "bounded"};
    const Built built = build(c);
    EngineOptions options;
    options.maxTraceEntries = 3;
    const PlacementResult result = slurmBlockEngine().place(*built.cluster->cluster, built.request, options);
    QVERIFY(result.feasible);
    QCOMPARE(result.trace.size(), std::size_t{4});
    QVERIFY(qs(result.trace.back().reason).contains(QStringLiteral("more entries left out (trace limit 3)")));
}

void TestSlurmBlock::whatIf() {
    // Gangs assumed placed by the what-if and drained nodes count like real ones.
    const Built built = build(Case{.name = "what-if"});
    PlacementCluster& cluster = *built.cluster->cluster;
    cluster.assume(*built.cluster->state.findNode("n29"), gpus(8), 1);
    cluster.drain(*built.cluster->state.findNode("n27"));
    const PlacementResult result = slurmBlockEngine().place(cluster, built.request, EngineOptions{});
    QVERIFY(result.feasible);
    QCOMPARE(placedNodes(result), QStringLiteral("n[21-24]"));
    QVERIFY(traceText(result).contains(
        QStringLiteral("30 of 32 nodes eligible: 1 not ready, cordoned or drained, 1 with fewer than 8 free GPUs")));
    // An assumed pod that leaves room still counts against --exclusive.
    const Built shared =
        build(Case{.name = "exclusive what-if", .gpus = 4, .options = [](SlurmRequest& r) { r.exclusive = true; }});
    shared.cluster->cluster->assume(*shared.cluster->state.findNode("n32"), gpus(1), 1);
    const PlacementResult exclusive =
        slurmBlockEngine().place(*shared.cluster->cluster, shared.request, EngineOptions{});
    QCOMPARE(placedNodes(exclusive), QStringLiteral("n[25-28]"));
}

void TestSlurmBlock::unavailableWithoutBlocks() {
    // No topology and no labels: Slurm's topology/flat selection (test_slurm_flat), not a refusal.
    TestNode lone;
    lone.name = "a";
    const auto tc = makeTestCluster({}, {lone});
    GangRequest request;
    request.pods = 1;
    request.perPod = gpus(8);
    QVERIFY(slurmBlockEngine().unavailableReason(*tc->cluster, request).empty());
    const PlacementResult result = slurmBlockEngine().place(*tc->cluster, request, EngineOptions{});
    QVERIFY(result.feasible);
    QVERIFY(qs(result.notes.front()).startsWith(QStringLiteral("no topology: Slurm's topology/flat")));

    // A block topology with invalid sizes is unusable too, with slurmctld's words.
    const Built built = build(Case{.name = "bad sizes"});
    SlurmTopology topology = *built.cluster->cluster->slurmTopology();
    topology.blockSizes = {4, 12};
    built.cluster->cluster->setSlurmTopology(std::make_shared<SlurmTopology>(topology));
    QCOMPARE(qs(slurmBlockEngine().unavailableReason(*built.cluster->cluster, built.request)),
             QStringLiteral("Invalid BlockSizes value: 12"));
}

void TestSlurmBlock::slurmVersionNotes() {
    const Built built = build(Case{.name = "versions"});
    EngineOptions options;
    options.slurmVersion = {22, 5, 8};
    const PlacementResult old = slurmBlockEngine().place(*built.cluster->cluster, built.request, options);
    QVERIFY(old.feasible);
    QVERIFY(!old.notes.empty());
    QVERIFY(qs(old.notes.back()).contains(QStringLiteral("topology/block first shipped in Slurm 23.11")));
    options.slurmVersion = {25, 11, 0};
    const PlacementResult recent = slurmBlockEngine().place(*built.cluster->cluster, built.request, options);
    QVERIFY(qs(recent.notes.back()).contains(QStringLiteral("Reason=Resources")));
    // With the reason for the release, the notes name it and so does the result.
    options.slurmVersionOrigin = "the version slurmrestd reports";
    const PlacementResult said = slurmBlockEngine().place(*built.cluster->cluster, built.request, options);
    QVERIFY(qs(said.notes.back()).contains(QStringLiteral("Reason=Resources")));
    QCOMPARE(qs(said.notes[said.notes.size() - 2]),
             QStringLiteral("Slurm 25.11.0 topology/block rules (the version slurmrestd reports)"));
    QCOMPARE(qs(said.rulesVersion), QStringLiteral("25.11.0"));
    QCOMPARE(qs(said.rulesVersionOrigin), QStringLiteral("the version slurmrestd reports"));
    options.slurmVersion = {22, 5, 8};
    const PlacementResult noPlugin = slurmBlockEngine().place(*built.cluster->cluster, built.request, options);
    QCOMPARE(qs(noPlugin.notes.back()), QStringLiteral("topology/block first shipped in Slurm 23.11; Slurm 22.05.8 "
                                                       "(the version slurmrestd reports) has no block plugin"));

    // Blocks derived from labels say so.
    const Built derived = build(Case{.name = "derived", .topology = ""});
    const PlacementResult fromLabels =
        slurmBlockEngine().place(*derived.cluster->cluster, derived.request, EngineOptions{});
    QVERIFY(fromLabels.feasible);
    QCOMPARE(qs(fromLabels.notes.front()),
             QStringLiteral(
                 "no Slurm block topology given: blocks are the rack domains (example.com/rack), in natural order"));
}

void TestSlurmBlock::requiredNodesAsTheTree_data() {
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("placed"); // hostlist, or the refusal
    QTest::newRow("-w alone") << QStringLiteral("-w n[05-07] --gres=gpu:8") << QStringLiteral("n[05-07]");
    QTest::newRow("-N above the list") << QStringLiteral("-N 4 -w n06 --gres=gpu:8") << QStringLiteral("n[05-08]");
    // sbatch lowers -N and trims the list to -n (opt.c): "can't run 2 processes on 4 nodes".
    QTest::newRow("-n below the list") << QStringLiteral("-n 2 -w n[05-08]") << QStringLiteral("n[05-06]");
    QTest::newRow("-N and -n below the list") << QStringLiteral("-N 4 -n 2 -w n[05-08]") << QStringLiteral("n[05-06]");
    QTest::newRow("-w node busy") << QStringLiteral("-N 2 -w n29 --gres=gpu:8")
                                  << QStringLiteral("Required nodes lack available resources");
}

// -N with -w as slurmctld settles them for every topology plugin: on blocks that are the tree's
// leaves, slurm-block answers what slurm-tree answers (a range aside: topology/block places its
// minimum, topology/tree its maximum).
void TestSlurmBlock::requiredNodesAsTheTree() {
    QFETCH(QString, line);
    QFETCH(QString, placed);
    Case c{.name = "leaves", .full = "n29"};
    Built built = build(c);
    Result<GangRequest> request = parseSbatchLine(line.toStdString());
    QVERIFY2(request.ok(), request ? "" : request.error().message.c_str());
    const PlacementCluster& blocks = *built.cluster->cluster;
    const PlacementResult block = slurmBlockEngine().place(blocks, *request, EngineOptions{});
    // The same eight groups of four as switches under one top switch.
    std::string leaves = kEightBlocks;
    for (std::size_t at = leaves.find("BlockName"); at != std::string::npos; at = leaves.find("BlockName", at))
        leaves.replace(at, 9, "SwitchName");
    leaves += "SwitchName=top Switches=b[1-8]\n";
    auto tree = parseTopologyConf(leaves, "tree.conf");
    QVERIFY2(tree.ok(), tree ? "" : tree.error().message.c_str());
    Built treeBuilt = build(c);
    treeBuilt.cluster->cluster->setSlurmTopology(std::make_shared<SlurmTopology>(std::move(*tree)));
    const PlacementResult switches = slurmTreeEngine().place(*treeBuilt.cluster->cluster, *request, EngineOptions{});
    const auto answer = [](const PlacementResult& r) { return r.feasible ? placedNodes(r) : qs(r.message); };
    QCOMPARE(answer(block), placed);
    QCOMPARE(answer(switches), placed);
}

TOPODECK_TEST_APPLESS_MAIN(TestSlurmBlock)
#include "test_slurm_block.moc"
