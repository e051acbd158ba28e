// Volcano HyperNodes: resolving them against nodes as Volcano's scheduler cache does (exact,
// regex and label members, the virtual cluster-top HyperNode, errors and warnings), deriving them
// from label levels as label discovery does, and reading them from snapshots (YAML and JSON).
#include "core/formats/snapshot_reader.h"
#include "core/topology/hypernode_tree.h"

#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

Q_DECLARE_METATYPE(topodeck::HyperNodeMember)
Q_DECLARE_METATYPE(std::vector<topodeck::HyperNode>)
Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(std::vector<topodeck::testing::TestNode>)

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QStringList names(std::initializer_list<const char*> list) {
    QStringList out;
    for (const char* name : list) out << QString::fromUtf8(name);
    return out;
}

std::string dataPath(const char* name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/volcano/" + name;
}

HyperNodeMember exact(std::string name, HyperNodeMember::Type type = HyperNodeMember::Type::Node) {
    HyperNodeMember member;
    member.type = type;
    member.selector = HyperNodeMember::Selector::Exact;
    member.value = std::move(name);
    return member;
}

HyperNodeMember child(std::string name) {
    return exact(std::move(name), HyperNodeMember::Type::HyperNode);
}

HyperNodeMember regex(std::string pattern) {
    HyperNodeMember member;
    member.selector = HyperNodeMember::Selector::Regex;
    member.value = std::move(pattern);
    return member;
}

HyperNodeMember labels(std::vector<std::pair<std::string, std::string>> matchLabels,
                       std::vector<HyperNodeLabelRequirement> expressions = {}) {
    HyperNodeMember member;
    member.selector = HyperNodeMember::Selector::Label;
    member.matchLabels = std::move(matchLabels);
    member.matchExpressions = std::move(expressions);
    return member;
}

// Names of the nodes a HyperNode holds, sorted.
QStringList nodesOf(const HyperNodeTree& tree, const ClusterState& state, std::string_view hyperNode) {
    const HyperNodeTree::Id id = tree.find(hyperNode);
    if (id == HyperNodeTree::kNone) return {QStringLiteral("<missing>")};
    QStringList names;
    for (std::uint32_t node : tree.entries[static_cast<std::size_t>(id)].nodes)
        names << qs(state.record(node).node->name);
    names.sort();
    return names;
}

QString leafOf(const HyperNodeTree& tree, const ClusterState& state, std::string_view node) {
    const HyperNodeTree::Id id = tree.leafOf[*state.findNode(node)];
    return id == HyperNodeTree::kNone ? QString() : qs(tree.entries[static_cast<std::size_t>(id)].name);
}

std::unique_ptr<TestCluster> eightNodes() {
    std::vector<TestNode> nodes;
    for (const char* name : {"gpu-a1", "gpu-a2", "gpu-a10", "gpu-b1", "gpu-b2", "cpu-1", "cpu-2", "x-gpu-a3"}) {
        TestNode node = testNode(name);
        node.extraLabels = {{"example.com/rack", std::string(name).find("-b") != std::string::npos ? "r2" : "r1"}};
        if (std::string(name).starts_with("cpu")) node.extraLabels.push_back({"example.com/pool", "cpu"});
        nodes.push_back(std::move(node));
    }
    return makeTestCluster({}, nodes);
}

} // namespace

class TestHyperNode : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resolve_membersAndTop();
    void resolve_regexIsASearch_data();
    void resolve_regexIsASearch();
    void resolve_labelMatch_data();
    void resolve_labelMatch();
    void resolve_noHyperNodes();
    void resolve_errors_data();
    void resolve_errors();
    void resolve_warnings();
    void resolve_nodeInTwoOfOneTier();
    void lcaAndTierLabel();
    void derived_fromLabelLevels();
    void derived_matchesResolvedObjects_data();
    void derived_matchesResolvedObjects();
    void reader_yamlAndJson();
    void reader_badMembers_data();
    void reader_badMembers();
    void reader_otherGroupSkipped();
    void reader_apiServerList();
};

void TestHyperNode::resolve_membersAndTop() {
    auto cluster = eightNodes();
    const std::vector<HyperNode> hyperNodes = {
        {"s0", 1, "leaf", {exact("gpu-a1"), regex("^gpu-a[0-9]+$")}},
        {"s1", 1, "leaf", {labels({{"example.com/rack", "r2"}})}},
        {"s2", 2, "spine", {child("s0"), child("s1")}},
        {"c0", 1, "", {regex("^cpu-")}},
    };
    const Result<HyperNodeTree> tree = resolveHyperNodes(hyperNodes, cluster->state);
    QVERIFY2(tree.ok(), tree.ok() ? "" : tree.error().message.c_str());
    const ClusterState& state = cluster->state;

    QCOMPARE(nodesOf(*tree, state, "s0"), (names({"gpu-a1", "gpu-a10", "gpu-a2"})));
    QCOMPARE(nodesOf(*tree, state, "s1"), (names({"gpu-b1", "gpu-b2"})));
    QCOMPARE(nodesOf(*tree, state, "s2"), (names({"gpu-a1", "gpu-a10", "gpu-a2", "gpu-b1", "gpu-b2"})));
    // The virtual top: one tier above the highest, over the parentless HyperNodes, holding every node.
    const HyperNodeTree::Entry& top = tree->entries[static_cast<std::size_t>(tree->top)];
    QCOMPARE(qs(top.name), QStringLiteral("<cluster-top-hypernode>"));
    QCOMPARE(top.tier, 3);
    QCOMPARE(top.nodes.size(), std::size_t(8));
    QStringList topChildren;
    for (HyperNodeTree::Id id : top.children) topChildren << qs(tree->entries[static_cast<std::size_t>(id)].name);
    QCOMPARE(topChildren, (names({"c0", "s2"})));
    QCOMPARE(tree->tiers, (std::vector<std::int32_t>{1, 2, 3}));
    QCOMPARE(leafOf(*tree, state, "gpu-b2"), QStringLiteral("s1"));
    QCOMPARE(leafOf(*tree, state, "x-gpu-a3"), QStringLiteral("<cluster-top-hypernode>"));
    QCOMPARE(tree->entries[static_cast<std::size_t>(tree->find("s1"))].depth, 2);
    QVERIFY(tree->warnings.empty());
}

void TestHyperNode::resolve_regexIsASearch_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QStringList>("expected");
    // Volcano matches with Go's regexp.MatchString: the pattern may match anywhere in the name.
    QTest::newRow("unanchored") << QStringLiteral("gpu-a") << names({"gpu-a1", "gpu-a10", "gpu-a2", "x-gpu-a3"});
    QTest::newRow("anchored") << QStringLiteral("^gpu-a[12]$") << names({"gpu-a1", "gpu-a2"});
    QTest::newRow("suffix") << QStringLiteral("1$") << names({"cpu-1", "gpu-a1", "gpu-b1"});
    QTest::newRow("alternation") << QStringLiteral("^(cpu-2|gpu-b2)$") << names({"cpu-2", "gpu-b2"});
    // Go's syntax (RE2), not ECMAScript's: inline flags and Unicode classes.
    QTest::newRow("go flags") << QStringLiteral("(?i)^GPU-B") << names({"gpu-b1", "gpu-b2"});
    QTest::newRow("go classes") << QStringLiteral("^\\pL+-\\pL?\\d$") << names({"cpu-1", "cpu-2", "gpu-a1", "gpu-a2", "gpu-b1", "gpu-b2"});
    // Nested quantifiers that make a backtracking matcher take exponential time run in linear time.
    QTest::newRow("nested quantifiers") << QStringLiteral("^(([a-z]+-?)+)+[0-9]{2}$") << names({"gpu-a10"});
}

void TestHyperNode::resolve_regexIsASearch() {
    QFETCH(QString, pattern);
    QFETCH(QStringList, expected);
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree =
        resolveHyperNodes({{"hn", 1, "", {regex(pattern.toStdString())}}}, cluster->state);
    QVERIFY(tree.ok());
    QCOMPARE(nodesOf(*tree, cluster->state, "hn"), expected);
}

void TestHyperNode::resolve_labelMatch_data() {
    QTest::addColumn<HyperNodeMember>("member");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("matchLabels") << labels({{"example.com/rack", "r2"}}) << names({"gpu-b1", "gpu-b2"});
    QTest::newRow("In") << labels({}, {{"example.com/pool", "In", {"cpu", "gpu"}}}) << names({"cpu-1", "cpu-2"});
    QTest::newRow("NotIn + Exists") << labels({}, {{"example.com/rack", "Exists", {}},
                                                   {"example.com/pool", "NotIn", {"cpu"}}})
                                    << names({"gpu-a1", "gpu-a10", "gpu-a2", "gpu-b1", "gpu-b2", "x-gpu-a3"});
    QTest::newRow("labels and DoesNotExist")
        << labels({{"example.com/rack", "r1"}}, {{"example.com/pool", "DoesNotExist", {}}})
        << names({"gpu-a1", "gpu-a10", "gpu-a2", "x-gpu-a3"});
}

void TestHyperNode::resolve_labelMatch() {
    QFETCH(HyperNodeMember, member);
    QFETCH(QStringList, expected);
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree = resolveHyperNodes({{"hn", 1, "", {member}}}, cluster->state);
    QVERIFY(tree.ok());
    QCOMPARE(nodesOf(*tree, cluster->state, "hn"), expected);
}

void TestHyperNode::resolve_noHyperNodes() {
    // With no HyperNode at all, the top alone holds every node, at tier 1.
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree = resolveHyperNodes({}, cluster->state);
    QVERIFY(tree.ok());
    QCOMPARE(tree->entries.size(), std::size_t(1));
    QCOMPARE(tree->entries[0].tier, 1);
    QCOMPARE(tree->entries[0].nodes.size(), std::size_t(8));
    QCOMPARE(leafOf(*tree, cluster->state, "cpu-1"), QStringLiteral("<cluster-top-hypernode>"));
}

void TestHyperNode::resolve_errors_data() {
    QTest::addColumn<std::vector<HyperNode>>("hyperNodes");
    QTest::addColumn<QString>("message");
    QTest::newRow("cycle") << std::vector<HyperNode>{{"b", 2, "", {child("a")}},
                                                     {"a", 3, "", {child("c")}},
                                                     {"c", 4, "", {child("b")}}}
                           << "cyclic dependency detected: HyperNode a is already in the ancestor chain [a b c]";
    QTest::newRow("self") << std::vector<HyperNode>{{"a", 2, "", {child("a")}}}
                          << "cyclic dependency detected: HyperNode a is already in the ancestor chain [a]";
    QTest::newRow("two parents") << std::vector<HyperNode>{{"p1", 2, "", {child("leaf")}},
                                                           {"p2", 2, "", {child("leaf")}},
                                                           {"leaf", 1, "", {exact("gpu-a1")}}}
                                 << "HyperNode leaf already has a parent p1, and cannot set another parent p2";
    QTest::newRow("duplicate") << std::vector<HyperNode>{{"a", 1, "", {}}, {"a", 2, "", {}}}
                               << "HyperNode a is defined more than once";
}

void TestHyperNode::resolve_errors() {
    QFETCH(std::vector<HyperNode>, hyperNodes);
    QFETCH(QString, message);
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree = resolveHyperNodes(hyperNodes, cluster->state);
    QVERIFY(!tree.ok());
    QCOMPARE(qs(tree.error().message), message);
}

void TestHyperNode::resolve_warnings() {
    auto cluster = eightNodes();
    HyperNodeMember labelChild = labels({{"a", "b"}});
    labelChild.type = HyperNodeMember::Type::HyperNode;
    const std::vector<HyperNode> hyperNodes = {
        {"p", 1, "", {child("ghost"), child("q"), labelChild}},
        {"q", 2, "", {exact("no-such-node"), regex("(unclosed"), labels({{"example.com/rack", "r9"}})}},
    };
    const Result<HyperNodeTree> tree = resolveHyperNodes(hyperNodes, cluster->state);
    QVERIFY(tree.ok());
    std::string all;
    for (const std::string& warning : tree->warnings) all += warning + "\n";
    for (const char* expected :
         {"p: a HyperNode member can only be selected by exactMatch",
          "HyperNode p lists member HyperNode ghost, which does not exist",
          "HyperNode q lists node no-such-node, which is not in the cluster",
          "regexMatch pattern \"(unclosed\" does not compile", "HyperNode q: a labelMatch member selects no node",
          "HyperNode q (tier 2) is a member of p (tier 1), which is not a higher tier"})
        QVERIFY2(all.find(expected) != std::string::npos, (std::string(expected) + " not in:\n" + all).c_str());
}

void TestHyperNode::resolve_nodeInTwoOfOneTier() {
    // Accepted, as Volcano accepts it, with a warning; the node's lowest HyperNode is the first
    // by name.
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree =
        resolveHyperNodes({{"z", 1, "", {exact("gpu-a1")}}, {"m", 1, "", {regex("^gpu-a1$")}}}, cluster->state);
    QVERIFY(tree.ok());
    QCOMPARE(tree->warnings.size(), std::size_t(1));
    QCOMPARE(qs(tree->warnings[0]),
             QStringLiteral("node gpu-a1 is in HyperNodes m and z of tier 1; Volcano uses one of them"));
    QCOMPARE(leafOf(*tree, cluster->state, "gpu-a1"), QStringLiteral("m"));
}

void TestHyperNode::lcaAndTierLabel() {
    auto cluster = eightNodes();
    const Result<HyperNodeTree> tree = resolveHyperNodes({{"s0", 1, "leaf", {exact("gpu-a1")}},
                                                          {"s1", 1, "", {exact("gpu-b1")}},
                                                          {"s2", 2, "", {child("s0"), child("s1")}},
                                                          {"s3", 1, "", {exact("cpu-1")}}},
                                                         cluster->state);
    QVERIFY(tree.ok());
    const auto name = [&](HyperNodeTree::Id id) { return qs(tree->entries[static_cast<std::size_t>(id)].name); };
    QCOMPARE(name(tree->lca(tree->find("s0"), tree->find("s1"))), QStringLiteral("s2"));
    QCOMPARE(name(tree->lca(tree->find("s0"), tree->find("s3"))), QStringLiteral("<cluster-top-hypernode>"));
    QCOMPARE(name(tree->lca(HyperNodeTree::kNone, tree->find("s3"))), QStringLiteral("s3"));
    QCOMPARE(qs(tree->tierLabel(1)), QStringLiteral("leaf"));
    QCOMPARE(qs(tree->tierLabel(2)), QStringLiteral("tier-2"));
    QCOMPARE(tree->find("nope"), HyperNodeTree::kNone);
    QCOMPARE(tree->find("<cluster-top-hypernode>"), tree->top);
}

void TestHyperNode::derived_fromLabelLevels() {
    const std::vector<std::string> keys = {"example.com/spine", "example.com/rack", "kubernetes.io/hostname"};
    auto cluster = makeTestCluster(keys, {testNode("n1", {"sp1", "r1", "n1"}), testNode("n2", {"sp1", "r2", "n2"}),
                                          testNode("n3", {"sp2", "r3", "n3"}),
                                          testNode("n4", {"", "r4", "n4"}),    // no spine label: r4 has no parent
                                          testNode("n5", {"sp2", "", "n5"})}); // no rack label: in no HyperNode
    const std::vector<HyperNode> hyperNodes = hyperNodesFromIndex(*cluster->index);
    QStringList got;
    for (const HyperNode& hyperNode : hyperNodes)
        got << qs(hyperNode.name + "/" + std::to_string(hyperNode.tier) + "/" + hyperNode.tierName);
    // The hostname level is the nodes themselves; the rack level is tier 1.
    QCOMPARE(got, (names({"sp1/2/spine", "sp2/2/spine", "r1/1/rack", "r2/1/rack", "r3/1/rack", "r4/1/rack"})));
    const HyperNode& sp1 = hyperNodes[0];
    QCOMPARE(sp1.members.size(), std::size_t(2));
    QCOMPARE(sp1.members[0], child("r1"));
    const HyperNode& r4 = hyperNodes[5];
    QCOMPARE(r4.members.size(), std::size_t(1));
    QCOMPARE(r4.members[0].selector, HyperNodeMember::Selector::Label);
    QCOMPARE(r4.members[0].matchLabels, (std::vector<std::pair<std::string, std::string>>{{"example.com/rack", "r4"}}));
    QCOMPARE(r4.members[0].matchExpressions,
             (std::vector<HyperNodeLabelRequirement>{{"example.com/spine", "DoesNotExist", {}}}));

    const HyperNodeTree tree = hyperNodeTreeFromIndex(*cluster->index);
    QCOMPARE(nodesOf(tree, cluster->state, "sp2"), (names({"n3"})));
    QCOMPARE(leafOf(tree, cluster->state, "n5"), QStringLiteral("<cluster-top-hypernode>"));
    QCOMPARE(tree.entries[static_cast<std::size_t>(tree.top)].tier, 3);
}

void TestHyperNode::derived_matchesResolvedObjects_data() {
    QTest::addColumn<std::vector<std::string>>("keys");
    QTest::addColumn<std::vector<TestNode>>("nodes");
    QTest::newRow("three levels") << std::vector<std::string>{"z", "b", "r"}
                                  << std::vector<TestNode>{
                                         testNode("a", {"z1", "b1", "r1"}), testNode("b", {"z1", "b1", "r2"}),
                                         testNode("c", {"z1", "b2", "r3"}), testNode("d", {"z2", "b3", "r4"})};
    // rack-1 under two blocks: discovery would merge them; topodeck keeps the path and names
    // the HyperNodes by it.
    QTest::newRow("repeated values") << std::vector<std::string>{"b", "r", "kubernetes.io/hostname"}
                                     << std::vector<TestNode>{testNode("a", {"b1", "rack-1", "a"}),
                                                              testNode("b", {"b2", "rack-1", "b"}),
                                                              testNode("c", {"b2", "rack-2", "c"})};
    QTest::newRow("missing labels") << std::vector<std::string>{"z", "b", "r"}
                                    << std::vector<TestNode>{
                                           testNode("a", {"", "b1", "r1"}), testNode("b", {"z1", "", "r2"}),
                                           testNode("c", {"z1", "b2", ""}), testNode("d", {"z1", "b2", "r3"})};
}

void TestHyperNode::derived_matchesResolvedObjects() {
    QFETCH(std::vector<std::string>, keys);
    QFETCH(std::vector<TestNode>, nodes);
    auto cluster = makeTestCluster(keys, nodes);
    const Result<HyperNodeTree> resolved = resolveHyperNodes(hyperNodesFromIndex(*cluster->index), cluster->state);
    QVERIFY2(resolved.ok(), resolved.ok() ? "" : resolved.error().message.c_str());
    const HyperNodeTree direct = hyperNodeTreeFromIndex(*cluster->index);
    QCOMPARE(resolved->entries.size(), direct.entries.size());
    for (std::size_t i = 0; i < direct.entries.size(); ++i)
        QVERIFY2(resolved->entries[i] == direct.entries[i], direct.entries[i].name.c_str());
    QCOMPARE(resolved->leafOf, direct.leafOf);
    QCOMPARE(resolved->tiers, direct.tiers);
    QVERIFY(resolved->warnings.empty());
}

void TestHyperNode::reader_yamlAndJson() {
    for (const char* file : {"hypernodes.yaml", "hypernodes.json"}) {
        const Result<Snapshot> snapshot = readSnapshotFile(dataPath(file));
        QVERIFY2(snapshot.ok(), snapshot.ok() ? file : snapshot.error().message.c_str());
        QVERIFY2(snapshot->warnings.empty(), file);
        QCOMPARE(snapshot->nodes.size(), std::size_t(4));
        QCOMPARE(snapshot->hyperNodes.size(), std::size_t(3));
        const HyperNode& s0 = snapshot->hyperNodes[0];
        QCOMPARE(qs(s0.name), QStringLiteral("s0"));
        QCOMPARE(s0.tier, 1);
        QCOMPARE(qs(s0.tierName), QStringLiteral("leaf"));
        QCOMPARE(s0.members.size(), std::size_t(2));
        QCOMPARE(s0.members[0], exact("gpu-a1"));
        QCOMPARE(s0.members[1], regex("a2$"));
        const HyperNode& s1 = snapshot->hyperNodes[1];
        QCOMPARE(s1.members[0], labels({{"example.com/rack", "r2"}}, {{"example.com/pool", "DoesNotExist", {}}}));
        QCOMPARE(s1.members[1], labels({}, {{"example.com/pool", "In", {"training", "inference"}}}));
        const HyperNode& s2 = snapshot->hyperNodes[2];
        QCOMPARE(s2.tier, 2);
        QCOMPARE(s2.members, (std::vector<HyperNodeMember>{child("s0"), child("s1")}));

        // They move into the state with the nodes, and resolve against them.
        Snapshot copy = *snapshot;
        ClusterState state;
        std::move(copy).applyTo(state);
        QCOMPARE(state.hyperNodes().size(), std::size_t(3));
        std::vector<HyperNode> hyperNodes;
        for (const auto& [name, hyperNode] : state.hyperNodes()) hyperNodes.push_back(hyperNode);
        QCOMPARE(hyperNodes, snapshot->hyperNodes); // by name, as in the file
        const Result<HyperNodeTree> tree = resolveHyperNodes(hyperNodes, state);
        QVERIFY(tree.ok());
        QCOMPARE(nodesOf(*tree, state, "s1"), (names({"gpu-b1", "gpu-b2"})));
        QCOMPARE(nodesOf(*tree, state, "s2").size(), 4);
    }
}

void TestHyperNode::reader_badMembers_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("error");
    const auto row = [](const char* name, const char* spec, const std::string& error) {
        QTest::newRow(name) << QString::fromUtf8(spec) << qs("input:1:1: HyperNode s0: " + error);
    };
    row("no type", R"({"members":[{"selector":{"exactMatch":{"name":"n"}}}]})", "spec.members[0].type is missing");
    row("bad type", R"({"members":[{"type":"Rack","selector":{"exactMatch":{"name":"n"}}}]})",
        "spec.members[0].type: expected Node or HyperNode, got \"Rack\"");
    row("no selector", R"({"members":[{"type":"Node"}]})", "spec.members[0].selector is missing");
    row("empty selector", R"({"members":[{"type":"Node","selector":{}}]})",
        "spec.members[0].selector: needs one of exactMatch, regexMatch or labelMatch");
    row("two selectors",
        R"({"members":[{"type":"Node","selector":{"exactMatch":{"name":"n"},"regexMatch":{"pattern":"n"}}}]})",
        "spec.members[0].selector: exactMatch, regexMatch and labelMatch cannot be used together");
    row("exact without name", R"({"members":[{"type":"Node","selector":{"exactMatch":{}}}]})",
        "spec.members[0].selector.exactMatch.name is missing");
    row("regex without pattern",
        R"({"members":[{"type":"Node","selector":{"exactMatch":{"name":"a"}}},)"
        R"({"type":"Node","selector":{"regexMatch":{"pattern":""}}}]})",
        "spec.members[1].selector.regexMatch.pattern is missing");
    row("bad operator",
        R"({"members":[{"type":"Node","selector":{"labelMatch":{"matchExpressions":[{"key":"k","operator":"Has"}]}}}]})",
        "spec.members[0].selector.labelMatch.matchExpressions[0].operator: expected In, NotIn, Exists or "
        "DoesNotExist, got \"Has\"");
    row("labels not a map", R"({"members":[{"type":"Node","selector":{"labelMatch":{"matchLabels":["a"]}}}]})",
        "spec.members[0].selector.labelMatch.matchLabels: expected a map of strings, got a list");
    row("tier text", R"({"tier":"one"})", "spec.tier: expected an integer, got \"one\"");
    row("tier negative", R"({"tier":-1})", "spec.tier: must be 0 or more, got -1");
    row("members not a list", R"({"members":{"type":"Node"}})", "spec.members: expected a list, got a map");
}

void TestHyperNode::reader_badMembers() {
    QFETCH(QString, spec);
    QFETCH(QString, error);
    const std::string json = R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode",)"
                             R"("metadata":{"name":"s0"},"spec":)" +
                             spec.toStdString() + "}";
    const Result<Snapshot> fromJson = readSnapshotText(json);
    QVERIFY(!fromJson.ok());
    QCOMPARE(qs(fromJson.error().message), error);
    // The same document as YAML (JSON is YAML) gives the same words.
    const Result<Snapshot> fromYaml = readSnapshotText("# yaml\n" + json);
    QVERIFY(!fromYaml.ok());
    QCOMPARE(qs(fromYaml.error().message),
             QString(error).replace(QStringLiteral("input:1:1:"), QStringLiteral("input:2:1:")));
}

void TestHyperNode::reader_otherGroupSkipped() {
    const Result<Snapshot> snapshot =
        readSnapshotText("apiVersion: example.com/v1\nkind: HyperNode\nmetadata: {name: x}\n");
    QVERIFY(snapshot.ok());
    QVERIFY(snapshot->hyperNodes.empty());
    QCOMPARE(snapshot->warnings.size(), std::size_t(1));
    QCOMPARE(qs(snapshot->warnings[0]), QStringLiteral("skipped 1 object of kind HyperNode (example.com/v1)"));
}

void TestHyperNode::reader_apiServerList() {
    // The API server's HyperNodeList leaves kind and apiVersion out of its items.
    const Result<Snapshot> snapshot = readSnapshotText(
        R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNodeList","items":[)"
        R"({"metadata":{"name":"s9"},"spec":{"tier":3,"members":[{"type":"HyperNode","selector":{"exactMatch":{"name":"s2"}}}]}}]})");
    QVERIFY2(snapshot.ok(), snapshot.ok() ? "" : snapshot.error().message.c_str());
    QCOMPARE(snapshot->hyperNodes.size(), std::size_t(1));
    QCOMPARE(snapshot->hyperNodes[0].tier, 3);
    QCOMPARE(snapshot->hyperNodes[0].members, (std::vector<HyperNodeMember>{child("s2")}));
}

TOPODECK_TEST_APPLESS_MAIN(TestHyperNode)
#include "test_hypernode.moc"
