// Slurm hostlists, topology.conf / topology.yaml reading and writing, and the topologies an
// operator would configure for a labelled cluster. Hostlist rows were checked against Slurm
// 22.05's `scontrol show hostnames` / `scontrol show hostlist`.
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"

#include "core/exports/slurm_topology_from_index.h"
#include "placement_support.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace topodeck;
using namespace topodeck::testing;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString joined(const std::vector<std::string>& names, std::string_view separator = " ") {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : std::string(separator)) + name;
    return qs(text);
}

std::vector<std::string> split(const QString& text) {
    std::vector<std::string> names;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) names.push_back(part.toStdString());
    return names;
}

std::string dataFile(const char* name) {
    return std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/" + name;
}

QString switchesText(const SlurmTopology& topology) {
    QStringList lines;
    for (const SlurmSwitch& sw : topology.switches)
        lines << qs(sw.name) + QStringLiteral(" nodes=") + joined(sw.nodes, ",") + QStringLiteral(" switches=") +
                     joined(sw.switches, ",");
    return lines.join(QLatin1Char('\n'));
}

QString blocksText(const SlurmTopology& topology) {
    QStringList lines;
    for (const SlurmBlock& block : topology.blocks)
        lines << qs(block.name) + QLatin1Char(' ') + joined(block.nodes, ",");
    return lines.join(QLatin1Char('\n'));
}

TestNode tn(std::string name, std::vector<std::string> values, std::string clique = {}) {
    TestNode node;
    node.name = std::move(name);
    node.levelValues = std::move(values);
    if (!clique.empty()) node.extraLabels.emplace_back("nvidia.com/gpu.clique", std::move(clique));
    return node;
}

bool anyContains(const std::vector<std::string>& lines, std::string_view needle) {
    for (const std::string& line : lines)
        if (line.find(needle) != std::string::npos) return true;
    return false;
}

} // namespace

class TestSlurmTopology : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void expand_data();
    void expand();
    void compress_data();
    void compress();
    void readsTreeConf();
    void readsBlockConf();
    void confSyntax();
    void treeWarnings();
    void multipleParents();
    void badFiles_data();
    void badFiles();
    void readsYaml();
    void blockLevels_data();
    void blockLevels();
    void roundTrip();
    void writesLeavesFirst();
    void treeFromIndex();
    void blocksFromIndex();
    void blocksFromNvlink();
    void noHierarchyNoTopology();
};

void TestSlurmTopology::expand_data() {
    QTest::addColumn<QString>("hostlist");
    QTest::addColumn<QString>("expected"); // names separated by spaces, or "error: <part of the message>"
    QTest::newRow("ranges and single") << "gpu-[001-004,007],login1"
                                       << "gpu-001 gpu-002 gpu-003 gpu-004 gpu-007 login1";
    QTest::newRow("two brackets") << "r[1-2]n[1-3]"
                                  << "r1n1 r1n2 r1n3 r2n1 r2n2 r2n3";
    QTest::newRow("three brackets") << "a[1-2]b[1-2]c[1-2]"
                                    << "a1b1c1 a1b1c2 a2b1c1 a2b1c2 a1b2c1 a1b2c2 a2b2c1 a2b2c2";
    QTest::newRow("four brackets") << "a[1-2]b[1-2]c[1-2]d[1]"
                                   << "a1b1c1d1 a2b1c1d1 a1b2c1d1 a2b2c1d1 a1b1c2d1 a2b1c2d1 a1b2c2d1 a2b2c2d1";
    QTest::newRow("text between brackets") << "a[1-2]-b[3-4]"
                                           << "a1-b3 a1-b4 a2-b3 a2-b4";
    QTest::newRow("padding of the low end") << "a[01-3]"
                                            << "a01 a02 a03";
    QTest::newRow("width grows") << "a[8-11]"
                                 << "a8 a9 a10 a11";
    QTest::newRow("high end padding ignored") << "a[9-010]"
                                              << "a9 a10";
    QTest::newRow("comma and blanks") << "x[1-2],y z"
                                      << "x1 x2 y z";
    QTest::newRow("no prefix") << "[1-3]"
                               << "1 2 3";
    QTest::newRow("empty entries") << ",a,,b,"
                                   << "a b";
    QTest::newRow("duplicates kept") << "a[1-3,2]"
                                     << "a1 a2 a3 a2";
    QTest::newRow("plain name") << "login"
                                << "login";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("largest range") << "a[1-3]"
                                   << "a1 a2 a3";
    QTest::newRow("reversed range") << "a[3-1]"
                                    << "error: invalid hostlist \"a[3-1]\": invalid range '3-1'";
    QTest::newRow("not a number") << "a[x]"
                                  << "error: invalid range 'x'";
    QTest::newRow("suffix after bracket") << "a[1-2]b"
                                          << "error: text after the last ']'";
    QTest::newRow("missing close") << "a[1-"
                                   << "error: invalid hostlist \"a[1-\": missing ']'";
    QTest::newRow("stray close") << "a]"
                                 << "error: unbalanced ']'";
    QTest::newRow("nested") << "a[[1]]"
                            << "error: nested '['";
    QTest::newRow("range too large") << "a[0-65536]"
                                     << "error: too many hosts in range '0-65536'";
    QTest::newRow("empty brackets") << "a[]"
                                    << "error: invalid range ''";
    QTest::newRow("empty range item") << "a[1,,2]"
                                      << "error: invalid range ''";
    QTest::newRow("number too long") << "a[12345678901234567890]"
                                     << "error: number too large";
    // 59,049 names of 305 characters: fewer hosts than the cap, but 18 MB of names.
    QTest::newRow("names too long") << QString(300, QLatin1Char('x')) + QStringLiteral("[1-9]").repeated(5)
                                    << "error: the names it expands to are too long";
}

void TestSlurmTopology::expand() {
    QFETCH(QString, hostlist);
    QFETCH(QString, expected);
    const auto names = expandHostlist(hostlist.toStdString());
    if (expected.startsWith(QStringLiteral("error: "))) {
        QVERIFY(!names.ok());
        QVERIFY2(qs(names.error().message).contains(expected.mid(7)), names.error().message.c_str());
        return;
    }
    QVERIFY2(names.ok(), names.ok() ? "" : names.error().message.c_str());
    QCOMPARE(joined(*names), expected);
}

void TestSlurmTopology::compress_data() {
    QTest::addColumn<QString>("names");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ranges") << "gpu-001,gpu-002,gpu-003,gpu-004,gpu-007,login1"
                            << "gpu-[001-004,007],login1";
    QTest::newRow("padding kept apart") << "n9,n10,n09,n11"
                                        << "n[9-10,09,11]";
    QTest::newRow("order kept") << "a1,b1,a2"
                                << "a1,b1,a2";
    QTest::newRow("width growth") << "n099,n100,n0100"
                                  << "n[099-100,0100]";
    QTest::newRow("duplicate") << "n1,n1,n2"
                               << "n[1,1-2]";
    QTest::newRow("descending") << "n3,n2,n1"
                                << "n[3,2,1]";
    QTest::newRow("digits inside") << "r1n1,r1n2,r2n1"
                                   << "r1n[1-2],r2n1";
    QTest::newRow("no number") << "x,y1,y2"
                               << "x,y[1-2]";
    QTest::newRow("numbers only") << "1,2,3"
                                  << "[1-3]";
    QTest::newRow("zero padding") << "n0,n00,n1"
                                  << "n[0,00,1]";
    QTest::newRow("padded then not") << "n08,n9,n10"
                                     << "n[08,9-10]";
    QTest::newRow("single") << "login1"
                            << "login1";
    QTest::newRow("empty") << ""
                           << "";
}

void TestSlurmTopology::compress() {
    QFETCH(QString, names);
    QFETCH(QString, expected);
    const std::vector<std::string> list = split(names);
    QCOMPARE(qs(compressHostlist(list)), expected);
    const auto back = expandHostlist(compressHostlist(list));
    QVERIFY(back.ok());
    QCOMPARE(joined(*back, ","), names);
}

void TestSlurmTopology::readsTreeConf() {
    const auto topologies = readSlurmTopologyFile(dataFile("tree.conf"));
    QVERIFY2(topologies.ok(), topologies.ok() ? "" : topologies.error().message.c_str());
    QCOMPARE(topologies->size(), std::size_t{1});
    const SlurmTopology& topology = topologies->front();
    QCOMPARE(qs(topology.name), QStringLiteral("default"));
    QVERIFY(topology.kind == SlurmTopology::Kind::Tree);
    QVERIFY(topology.clusterDefault);
    QCOMPARE(switchesText(topology), QStringLiteral("leaf1 nodes=gpu-001,gpu-002,gpu-003,gpu-004 switches=\n"
                                                    "leaf2 nodes=gpu-005,gpu-006,gpu-007,gpu-008 switches=\n"
                                                    "leaf3 nodes=gpu-009,gpu-010,gpu-012 switches=\n"
                                                    "spine1 nodes= switches=leaf1,leaf2\n"
                                                    "spine2 nodes= switches=leaf3\n"
                                                    "core nodes= switches=spine1,spine2"));
    QVERIFY2(topology.warnings.empty(), topology.warnings.empty() ? "" : topology.warnings.front().c_str());
}

void TestSlurmTopology::readsBlockConf() {
    const auto topologies = readSlurmTopologyFile(dataFile("block.conf"));
    QVERIFY2(topologies.ok(), topologies.ok() ? "" : topologies.error().message.c_str());
    const SlurmTopology& topology = topologies->front();
    QVERIFY(topology.kind == SlurmTopology::Kind::Block);
    QCOMPARE(blocksText(topology), QStringLiteral("b1 gb-01,gb-02\nb2 gb-03,gb-04\nb3 gb-05,gb-06\nb4 gb-07,gb-08"));
    QCOMPARE(topology.blockSizes, (std::vector<std::int32_t>{2, 4, 8}));
    QVERIFY(topology.warnings.empty());
}

void TestSlurmTopology::confSyntax() {
    // Escaped '#', quoted values with blanks, continuation lines, CRLF, repeated keys.
    const auto topology = parseTopologyConf("SwitchName=a\\#1 Nodes=\"n1, n2\" \\\r\n"
                                            "   LinkSpeed=5 Nodes=n[3-4]\r\n"
                                            "SwitchName=top Switches=a\\#1 # the root\n",
                                            "inline.conf");
    QVERIFY2(topology.ok(), topology.ok() ? "" : topology.error().message.c_str());
    QCOMPARE(switchesText(*topology), QStringLiteral("a#1 nodes=n3,n4 switches=\ntop nodes= switches=a#1"));
    QVERIFY(anyContains(topology->warnings, "inline.conf:1: Nodes specified more than once, latest value used"));

    const auto badSpeed = parseTopologyConf("SwitchName=s LinkSpeed=fast Nodes=n1\n", "x.conf");
    QVERIFY(!badSpeed.ok());
    QCOMPARE(qs(badSpeed.error().message), QStringLiteral("x.conf:1: LinkSpeed value \"fast\" is not a valid number"));

    const auto notPair = parseTopologyConf("\n\nSwitchName=s Nodes=n1 garbage\n", "x.conf");
    QVERIFY(!notPair.ok());
    QVERIFY(qs(notPair.error().message).startsWith(QStringLiteral("x.conf:3: Parse error")));

    const auto noNodes = parseTopologyConf("BlockName=b1\n", "x.conf");
    QVERIFY(!noNodes.ok());
    QCOMPARE(qs(noNodes.error().message), QStringLiteral("x.conf:1: block b1 hasn't got nodes"));

    const auto empty = parseTopologyConf("# nothing\n\n", "x.conf");
    QVERIFY(!empty.ok());
    QCOMPARE(qs(empty.error().message), QStringLiteral("x.conf: no SwitchName or BlockName lines"));

    // Names are shown on terminals: an escape sequence in either file is refused, shown escaped.
    const auto escape = parseTopologyConf("SwitchName=s1\x1b[2J Nodes=n1\n", "x.conf");
    QVERIFY(!escape.ok());
    QCOMPARE(qs(escape.error().message), QStringLiteral("x.conf:1: holds a control character: \"SwitchName=s1\\u001b[2J Nodes=n1\""));
    const auto quotedEscape = parseTopologyYaml("- topology: t\n  cluster_default: true\n  block:\n    blocks:\n"
                                                "    - block: \"b\\e]0;x\\a\"\n      nodes: n1\n",
                                                "t.yaml");
    QVERIFY(!quotedEscape.ok());
    QVERIFY2(qs(quotedEscape.error().message).contains(QStringLiteral("the name \"b\\u001b]0;x\\u0007\" holds a control character")),
             quotedEscape.error().message.c_str());

    const auto longName = parseTopologyConf("SwitchName=" + std::string(65, 's') + " Nodes=n1\n", "x.conf");
    QVERIFY(!longName.ok());
    QVERIFY(qs(longName.error().message).endsWith(QStringLiteral("must be shorter than 64 chars")));

    const auto twice = parseTopologyConf("BlockName=b1 Nodes=n[1-2]\nBlockSizes=2\nBlockSizes=2,4\n", "x.conf");
    QVERIFY(twice.ok());
    QCOMPARE(twice->blockSizes, (std::vector<std::int32_t>{2, 4}));
    QVERIFY(anyContains(twice->warnings, "x.conf:3: BlockSizes specified more than once"));

    const auto atoiSizes = parseTopologyConf("BlockName=b1 Nodes=n[1-2]\nBlockSizes=2,4x\n", "x.conf");
    QVERIFY(atoiSizes.ok()); // block_record.c reads sizes with atoi()
    QCOMPARE(atoiSizes->blockSizes, (std::vector<std::int32_t>{2, 4}));
    const auto zeroSize = parseTopologyConf("BlockName=b1 Nodes=n[1-2]\nBlockSizes=2,abc\n", "x.conf");
    QVERIFY(!zeroSize.ok());
    QCOMPARE(qs(zeroSize.error().message), QStringLiteral("x.conf:2: Invalid BlockSizes value: abc"));
}

void TestSlurmTopology::treeWarnings() {
    const auto topologies = readSlurmTopologyFile(dataFile("tree-warnings.conf"));
    QVERIFY2(topologies.ok(), topologies.ok() ? "" : topologies.error().message.c_str());
    const SlurmTopology& topology = topologies->front();
    QVERIFY(topology.switches[1].switches.empty()); // children of a leaf are ignored
    QCOMPARE(topology.warnings.size(), std::size_t{3});
    QVERIFY(anyContains(topology.warnings, "tree-warnings.conf:3: Ignoring children switches for leaf2"));
    QVERIFY(anyContains(topology.warnings, "Multiple leaf switches contain nodes: gpu-004"));
    QVERIFY(anyContains(topology.warnings, "TOPOLOGY: no switch can reach all nodes through its descendants"));
}

void TestSlurmTopology::multipleParents() {
    const auto topology = parseTopologyConf("SwitchName=l1 Nodes=n[1-2]\nSwitchName=l2 Nodes=n[3-4]\n"
                                            "SwitchName=s1 Switches=l[1-2]\nSwitchName=s2 Switches=l1\n"
                                            "SwitchName=top Switches=s[1-2]\n",
                                            "x.conf");
    QVERIFY(topology.ok());
    QCOMPARE(topology->warnings.size(), std::size_t{1});
    QCOMPARE(qs(topology->warnings.front()),
             QStringLiteral("x.conf:1: Switch l1 has more than one parent (s1, s2); slurmctld keeps the last"));
}

void TestSlurmTopology::badFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("duplicate switch") << "tree-duplicate.conf"
                                      << "tree-duplicate.conf:3: Switch (s0) has already been defined";
    QTest::newRow("cycle") << "tree-cycle.conf"
                           << "tree-cycle.conf: Switch configuration is not a tree";
    QTest::newRow("unknown child") << "tree-invalid-child.conf"
                                   << "tree-invalid-child.conf:2: Switch configuration top has invalid child (s1)";
    QTest::newRow("unknown key") << "tree-unknown-key.conf"
                                 << "tree-unknown-key.conf:2: Parsing error at unrecognized key: Speed";
    QTest::newRow("bad hostlist") << "tree-bad-hostlist.conf"
                                  << "tree-bad-hostlist.conf:3: invalid hostlist \"tux[4-\": missing ']'";
    QTest::newRow("bad block sizes") << "block-bad-sizes.conf"
                                     << "block-bad-sizes.conf:3: Invalid BlockSizes value: 12";
    QTest::newRow("tree and block") << "block-mixed.conf"
                                    << "block-mixed.conf: mixes SwitchName lines";
    QTest::newRow("duplicate block") << "block-duplicate.conf"
                                     << "block-duplicate.conf:2: Block (b1) has already been defined";
    QTest::newRow("yaml unknown field") << "topology-bad-field.yaml"
                                        << "topology-bad-field.yaml:6: unknown switch field \"uplink\"";
    QTest::newRow("yaml bad sizes") << "topology-bad-sizes.yaml"
                                    << "topology-bad-sizes.yaml:3: Invalid BlockSizes value: 24";
    QTest::newRow("yaml syntax") << "topology-broken.yaml"
                                 << "topology-broken.yaml:3:1: invalid YAML: did not find expected ',' or ']'";
    QTest::newRow("too many nodes in all") << "tree-too-many-nodes.conf"
                                           << "tree-too-many-nodes.conf:3: the hostlists name more than 131072 hosts or "
                                              "4 MiB of names in all (this one 131072 hosts more)";
    QTest::newRow("missing file") << "no-such-file.conf"
                                  << "cannot read ";
}

void TestSlurmTopology::badFiles() {
    QFETCH(QString, file);
    QFETCH(QString, message);
    const auto topologies = readSlurmTopologyFile(dataFile(file.toUtf8().constData()));
    QVERIFY(!topologies.ok());
    QVERIFY2(qs(topologies.error().message).contains(message), topologies.error().message.c_str());
}

void TestSlurmTopology::readsYaml() {
    const auto parsed = parseTopologyYaml(
        [] {
            QFile file(QString::fromStdString(dataFile("topology.yaml")));
            file.open(QIODevice::ReadOnly);
            return file.readAll().toStdString();
        }(),
        "topology.yaml");
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(parsed->size(), std::size_t{3});
    QCOMPARE(qs((*parsed)[0].name), QStringLiteral("topo1"));
    QVERIFY((*parsed)[0].kind == SlurmTopology::Kind::Tree);
    QCOMPARE(switchesText((*parsed)[0]), QStringLiteral("sw_root nodes= switches=s1,s2\n"
                                                        "s1 nodes=node01,node02 switches=\n"
                                                        "s2 nodes=node03,node04 switches="));
    QVERIFY((*parsed)[1].kind == SlurmTopology::Kind::Block);
    QVERIFY((*parsed)[1].clusterDefault);
    QCOMPARE((*parsed)[1].blockSizes, (std::vector<std::int32_t>{4, 16}));
    QCOMPARE((*parsed)[1].blocks.size(), std::size_t{4});
    QVERIFY((*parsed)[2].kind == SlurmTopology::Kind::Flat);

    // The cluster default comes first when read as a file.
    const auto read = readSlurmTopologyFile(dataFile("topology.yaml"));
    QVERIFY(read.ok());
    QCOMPARE(qs(read->front().name), QStringLiteral("topo2"));
    QCOMPARE(qs((*read)[1].name), QStringLiteral("topo1"));

    const auto twoKinds =
        parseTopologyYaml("- topology: t\n  flat: true\n  tree: {switches: [{switch: s, nodes: n1}]}\n");
    QVERIFY(!twoKinds.ok());
    QVERIFY(qs(twoKinds.error().message).contains(QStringLiteral("must define exactly one of tree, block or flat")));
    const auto ring = parseTopologyYaml("- topology: t\n  ring: {}\n");
    QVERIFY(!ring.ok());
    QVERIFY(qs(ring.error().message).contains(QStringLiteral("not supported")));
    const auto listNodes = parseTopologyYaml("- topology: t\n  block:\n    blocks:\n      - block: b1\n"
                                             "        nodes: [\"n[1-2]\", n5]\n");
    QVERIFY2(listNodes.ok(), listNodes.ok() ? "" : listNodes.error().message.c_str());
    QCOMPARE(blocksText(listNodes->front()), QStringLiteral("b1 n1,n2,n5"));
}

void TestSlurmTopology::blockLevels_data() {
    QTest::addColumn<QString>("sizes");
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("levels"); // -1: invalid
    QTest::newRow("default") << "" << 0 << 0x1F;
    QTest::newRow("2,4,8") << "2,4,8" << 2 << 0x7;
    QTest::newRow("nvl72 racks") << "18,36,144" << 18 << 0xB;
    QTest::newRow("base only") << "16" << 16 << 0x1;
    QTest::newRow("not a multiple") << "4,6" << 0 << -1;
    QTest::newRow("not a power of two") << "4,12" << 0 << -1;
    QTest::newRow("level 15") << "1,32768" << 1 << 0x8001;
    QTest::newRow("level 16") << "1,65536" << 0 << -1;
}

void TestSlurmTopology::blockLevels() {
    QFETCH(QString, sizes);
    QFETCH(int, base);
    QFETCH(int, levels);
    std::vector<std::int32_t> values;
    for (const QString& part : sizes.split(QLatin1Char(','), Qt::SkipEmptyParts)) values.push_back(part.toInt());
    const auto result = slurmBlockLevels(values);
    if (levels < 0) {
        QVERIFY(!result.ok());
        QVERIFY(qs(result.error().message).startsWith(QStringLiteral("Invalid BlockSizes value: ")));
        return;
    }
    QVERIFY(result.ok());
    QCOMPARE(result->baseNodes, base);
    QCOMPARE(static_cast<int>(result->levels), levels);
}

void TestSlurmTopology::roundTrip() {
    for (const char* file : {"tree.conf", "block.conf"}) {
        const auto first = readSlurmTopologyFile(dataFile(file));
        QVERIFY(first.ok());
        const std::string text = writeTopologyConf(first->front());
        const auto again = parseTopologyConf(text, file);
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        QVERIFY2(*again == first->front(), text.c_str());
    }
    const auto topologies = readSlurmTopologyFile(dataFile("block.conf"));
    QCOMPARE(qs(writeTopologyConf(topologies->front())),
             QStringLiteral("# topology.conf for topology/block (topology \"default\")\n"
                            "BlockName=b1 Nodes=gb-[01-02]\nBlockName=b2 Nodes=gb-[03-04]\n"
                            "BlockName=b3 Nodes=gb-[05-06]\nBlockName=b4 Nodes=gb-[07-08]\nBlockSizes=2,4,8\n"));
}

void TestSlurmTopology::writesLeavesFirst() {
    // Upper switches written first come out after the leaves; order within a level is kept.
    const auto topology = parseTopologyConf("SwitchName=top Switches=s[1-2]\nSwitchName=s2 Switches=l2\n"
                                            "SwitchName=s1 Switches=l1\nSwitchName=l2 Nodes=n[3-4]\n"
                                            "SwitchName=l1 Nodes=n[1-2]\n");
    QVERIFY(topology.ok());
    const std::string text = writeTopologyConf(*topology);
    QCOMPARE(qs(text), QStringLiteral("# topology.conf for topology/tree (topology \"default\"): leaf switches first\n"
                                      "SwitchName=l2 Nodes=n[3-4]\nSwitchName=l1 Nodes=n[1-2]\n"
                                      "SwitchName=s2 Switches=l2\nSwitchName=s1 Switches=l1\n"
                                      "SwitchName=top Switches=s[1-2]\n"));
    SlurmTopology flat;
    flat.kind = SlurmTopology::Kind::Flat;
    QVERIFY(writeTopologyConf(flat).rfind('#', 0) == 0);
}

void TestSlurmTopology::treeFromIndex() {
    // rack-1 appears under both spines: those names get the parent path. n6 lacks a rack label.
    const auto tc = makeTestCluster({"example.com/spine", "example.com/rack"},
                                    {tn("n1", {"spine-a", "rack-1"}), tn("n2", {"spine-a", "rack-1"}),
                                     tn("n3", {"spine-a", "rack-2"}), tn("n4", {"spine-a", "rack-2"}),
                                     tn("n5", {"spine-b", "rack-1"}), tn("n6", {"spine-b", ""})});
    const SlurmTopology tree = slurmTreeFromIndex(tc->state, *tc->index);
    QVERIFY(tree.kind == SlurmTopology::Kind::Tree);
    QCOMPARE(switchesText(tree), QStringLiteral("spine-a-rack-1 nodes=n1,n2 switches=\n"
                                                "rack-2 nodes=n3,n4 switches=\n"
                                                "spine-b-rack-1 nodes=n5 switches=\n"
                                                "spine-a nodes= switches=spine-a-rack-1,rack-2\n"
                                                "spine-b nodes= switches=spine-b-rack-1\n"
                                                "root nodes= switches=spine-a,spine-b"));
    QCOMPARE(tree.warnings.size(), std::size_t{1});
    QVERIFY(anyContains(tree.warnings, "1 nodes lack a label of the hierarchy (example.com/spine, example.com/rack)"));
    const auto again = parseTopologyConf(writeTopologyConf(tree));
    QVERIFY(again.ok());
    QCOMPARE(switchesText(*again), switchesText(tree));
    QVERIFY(again->warnings.empty());

    const auto single =
        makeTestCluster({"example.com/spine", "example.com/rack"}, {tn("m1", {"s", "r1"}), tn("m2", {"s", "r2"})});
    QCOMPARE(switchesText(slurmTreeFromIndex(single->state, *single->index)),
             QStringLiteral("r1 nodes=m1 switches=\nr2 nodes=m2 switches=\ns nodes= switches=r1,r2"));
}

void TestSlurmTopology::blocksFromIndex() {
    const auto tc =
        makeTestCluster({"example.com/spine", "example.com/rack"},
                        {tn("n10", {"spine-b", "rack-1"}), tn("n2", {"spine-a", "rack-10"}),
                         tn("n1", {"spine-a", "rack-2"}), tn("n3", {"spine-a", "rack-2"}), tn("n6", {"", "rack-9"})});
    const SlurmTopology blocks = slurmBlocksFromIndex(tc->state, *tc->index);
    QVERIFY(blocks.kind == SlurmTopology::Kind::Block);
    QVERIFY(blocks.blockSizes.empty());
    // Natural order of the racks: rack-2 before rack-10, spine-a before spine-b.
    QCOMPARE(blocksText(blocks), QStringLiteral("rack-2 n1,n3\nrack-10 n2\nrack-1 n10"));
    QVERIFY(anyContains(blocks.warnings, "1 nodes lack a label of the hierarchy"));
    const SlurmIndexBlocks ids = slurmBlockNodesFromIndex(*tc->index);
    QVERIFY(!ids.fromNvlink);
    QCOMPARE(ids.nodesLeftOut, std::size_t{1});
    QCOMPARE(ids.nodes.size(), std::size_t{3});
    const auto again = parseTopologyConf(writeTopologyConf(blocks));
    QVERIFY(again.ok());
    QCOMPARE(blocksText(*again), blocksText(blocks));
}

void TestSlurmTopology::blocksFromNvlink() {
    const std::string clique = "nvidia.com/gpu.clique";
    const auto tc = makeTestCluster({"example.com/spine", "example.com/rack"},
                                    {tn("n1", {"spine-a", "rack-1"}, "c2"), tn("n2", {"spine-a", "rack-1"}, "c2"),
                                     tn("n3", {"spine-a", "rack-2"}, "c1"), tn("n4", {"spine-a", "rack-2"}),
                                     tn("n5", {"spine-b", "rack-1"}, "c1")});
    TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/spine", "example.com/rack"});
    spec.nvlinkLabel = clique;
    const TopologyIndex index = TopologyIndex::build(tc->state, spec);
    const SlurmTopology blocks = slurmBlocksFromIndex(tc->state, index);
    // Blocks follow the racks: c2 lives in spine-a/rack-1, c1 first appears in spine-a/rack-2;
    // each is named after the rack of its first node.
    QCOMPARE(blocksText(blocks), QStringLiteral("rack-1 n1,n2\nrack-2 n3,n5"));
    QCOMPARE(blocks.warnings.size(), std::size_t{1});
    QVERIFY(anyContains(blocks.warnings, "1 nodes lack an NVLink domain label (nvidia.com/gpu.clique)"));
    QVERIFY(slurmBlockNodesFromIndex(index).fromNvlink);
}

void TestSlurmTopology::noHierarchyNoTopology() {
    const auto tc = makeTestCluster({}, {tn("n1", {}), tn("n2", {})});
    QVERIFY(slurmTreeFromIndex(tc->state, *tc->index).switches.empty());
    QVERIFY(slurmBlocksFromIndex(tc->state, *tc->index).blocks.empty());
}

TOPODECK_TEST_APPLESS_MAIN(TestSlurmTopology)
#include "test_slurm_topology.moc"
