// Readers of Slurm's text outputs: `scontrol show topology`, `scontrol -o show nodes` and what
// `sbatch --test-only` prints. tests/data/slurm/live/scontrol-*.txt were captured from Debian 12's
// Slurm 22.05.8 (64 nodes in 8 leaves of 8, 4 spines, a core; gpu-010 drained "xid-79", gpu-011
// down "dead", jobs on gpu-009 and gpu-012..015, the other nodes idle and planned for a pending
// job). The BlockName/AggregatedBlock lines follow _print_topo_record() of Slurm's
// src/plugins/topology/block/topology_block.c (23.11+).
#include "core/slurm/slurm_text.h"
#include "support/test_program.h"

#include <QMap>
#include <QtTest>

#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::string readData(const char* relative) {
    const std::string path = std::string(TOPODECK_TEST_DATA_DIR) + "/slurm/" + relative;
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) qWarning("cannot read %s", path.c_str());
    return text.str();
}

QString joined(const std::vector<std::string>& names) {
    QStringList parts;
    for (const std::string& name : names) parts << qs(name);
    return parts.join(QLatin1Char(','));
}

// "kind\nname nodes=a,b switches=c" per switch, or "kind\nblock b1 nodes=..." per block, then
// "sizes=18,36" when block sizes are known.
QString topologyText(const SlurmTopology& topology) {
    QStringList lines;
    lines << (topology.kind == SlurmTopology::Kind::Tree    ? QStringLiteral("tree")
              : topology.kind == SlurmTopology::Kind::Block ? QStringLiteral("block")
                                                            : QStringLiteral("flat"));
    for (const SlurmSwitch& sw : topology.switches)
        lines << qs(sw.name) + QStringLiteral(" nodes=") + joined(sw.nodes) + QStringLiteral(" switches=") +
                     joined(sw.switches);
    for (const SlurmBlock& block : topology.blocks)
        lines << QStringLiteral("block ") + qs(block.name) + QStringLiteral(" nodes=") + joined(block.nodes);
    if (!topology.blockSizes.empty()) {
        QStringList sizes;
        for (std::int32_t size : topology.blockSizes) sizes << QString::number(size);
        lines << QStringLiteral("sizes=") + sizes.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n'));
}

QString nodeNames(const char* prefix, int from, int to) {
    QStringList names;
    for (int i = from; i <= to; ++i)
        names << QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(i, 3, 10, QLatin1Char('0'));
    return names.join(QLatin1Char(','));
}

// A 22.05 `scontrol -o show nodes` line with the fields that vary filled in.
QString nodeLine(const QString& name, const QString& state, const QString& tail = {},
                 const QString& gres = QStringLiteral("gpu:8"), const QString& gresUsed = QStringLiteral("gpu:0")) {
    return QStringLiteral("NodeName=%1 Arch=x86_64 CoresPerSocket=32  CPUAlloc=0 CPUEfctv=64 CPUTot=64 CPULoad=0.80 "
                          "AvailableFeatures=(null) ActiveFeatures=(null) Gres=%3 GresDrain=N/A GresUsed=%4 "
                          "NodeAddr=127.0.0.1 NodeHostName=localhost Port=16818 Version=22.05.8 OS=Linux "
                          "6.18.44-fc-v857 #1 SMP PREEMPT_DYNAMIC @0  RealMemory=512000 AllocMem=0 FreeMem=22550 "
                          "Sockets=2 Boards=1 State=%2 ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A "
                          "Partitions=gpu  BootTime=2026-12-01T07:58:48 SlurmdStartTime=2026-12-01T11:29:39 "
                          "LastBusyTime=2026-12-01T11:31:27 CfgTRES=cpu=64,mem=500G,billing=64 AllocTRES= "
                          "CapWatts=n/a CurrentWatts=0 AveWatts=0 ExtSensorsJoules=n/s ExtSensorsWatts=0 "
                          "ExtSensorsTemp=n/s%5")
        .arg(name, state, gres, gresUsed, tail);
}

} // namespace

class TestSlurmText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void topologyLive();
    void topology_data();
    void topology();
    void nodesLive_data();
    void nodesLive();
    void nodesLiveCounts();
    void nodes_data();
    void nodes();
    void sbatch_data();
    void sbatch();
    void configVersion_data();
    void configVersion();
};

void TestSlurmText::initTestCase() {
    // sbatch prints local time; read the expected times in UTC.
    qputenv("TZ", "UTC");
    tzset();
}

void TestSlurmText::topologyLive() {
    const auto topology = parseScontrolTopology(readData("live/scontrol-topology.txt"));
    QVERIFY2(topology.ok(), topology.ok() ? "" : topology.error().message.c_str());
    QStringList expected{QStringLiteral("tree")};
    for (int leaf = 1; leaf <= 8; ++leaf)
        expected << QStringLiteral("leaf%1 nodes=%2 switches=")
                        .arg(leaf, 2, 10, QLatin1Char('0'))
                        .arg(nodeNames("gpu-", leaf * 8 - 7, leaf * 8));
    for (int spine = 1; spine <= 4; ++spine)
        expected << QStringLiteral("spine%1 nodes= switches=leaf%2,leaf%3")
                        .arg(spine, 2, 10, QLatin1Char('0'))
                        .arg(spine * 2 - 1, 2, 10, QLatin1Char('0'))
                        .arg(spine * 2, 2, 10, QLatin1Char('0'));
    expected << QStringLiteral("core nodes= switches=spine01,spine02,spine03,spine04");
    QCOMPARE(topologyText(*topology), expected.join(QLatin1Char('\n')));
    QCOMPARE(qs(topology->name), QStringLiteral("default"));
    QVERIFY(topology->blocks.empty());
    QVERIFY(topology->warnings.empty());
}

void TestSlurmText::topology_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // topologyText(), or "error: <part of the message>"
    QTest::newRow("single switch") << "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=n[1-3]\n"
                                   << "tree\ns1 nodes=n1,n2,n3 switches=";
    QTest::newRow("level lines out of order") << "SwitchName=top Level=1 LinkSpeed=1 Nodes=a[1-2],b1 Switches=la,lb\n"
                                                 "SwitchName=la Level=0 LinkSpeed=1 Nodes=a[1-2]\n"
                                                 "SwitchName=lb Level=0 LinkSpeed=1 Nodes=b1\n"
                                              << "tree\ntop nodes= switches=la,lb\nla nodes=a1,a2 switches=\nlb "
                                                 "nodes=b1 switches=";
    QTest::newRow("leaf without nodes") << "SwitchName=s1 Level=0 LinkSpeed=1\n"
                                        << "tree\ns1 nodes= switches=";
    QTest::newRow("CRLF and blank lines") << "\r\nSwitchName=s1 Level=0 LinkSpeed=1 Nodes=n1\r\n\r\n"
                                          << "tree\ns1 nodes=n1 switches=";
    QTest::newRow("blocks") << "BlockName=b1 BlockIndex=0 Nodes=gpu-[001-003] BlockSize=3\n"
                               "BlockName=b2 BlockIndex=1 Nodes=gpu-[004-006] BlockSize=3\n"
                            << QLatin1String("block\nblock b1 nodes=") + nodeNames("gpu-", 1, 3) +
                                   QLatin1String("\nblock b2 nodes=") + nodeNames("gpu-", 4, 6);
    QTest::newRow("blocks with aggregated blocks") << "BlockName=b1 BlockIndex=0 Nodes=n[1-2] BlockSize=2\n"
                                                      "BlockName=b2 BlockIndex=1 Nodes=n[3-4] BlockSize=2\n"
                                                      "AggregatedBlock=b[1-2] BlockIndex=2 Nodes=n[1-4] BlockSize=4\n"
                                                   << "block\nblock b1 nodes=n1,n2\nblock b2 nodes=n3,n4\nsizes=2,4";
    QTest::newRow("blocks with BlockSizes") << "BlockSizes=2,4\n"
                                               "BlockName=b1 BlockIndex=0 Nodes=n[1-2] BlockSize=2\n"
                                               "AggregatedBlock=b[1-2] BlockIndex=2 Nodes=n[1-4] BlockSize=8\n"
                                            << "block\nblock b1 nodes=n1,n2\nsizes=2,4";
    QTest::newRow("empty") << ""
                           << "flat";
    QTest::newRow("only blanks") << "  \n\n"
                                 << "flat";
    QTest::newRow("no topology message") << "scontrol: error: No topology information available\n"
                                         << "flat";
    QTest::newRow("not key=value") << "SwitchName=s1 Nodes=n1\nSwitchName=s2 garbage\n"
                                   << "error: scontrol show topology: line 2: \"garbage\" is not Key=Value";
    QTest::newRow("unknown line") << "SwitchName=s1 Nodes=n1\n\nNodeName=n1 Level=0\n"
                                  << "error: line 3: expected SwitchName=, BlockName= or BlockSizes=, got "
                                     "\"NodeName=n1 Level=0\"";
    QTest::newRow("bad level") << "SwitchName=s1 Level=x Nodes=n1\n"
                               << "error: line 1: Level: expected a number, got \"x\"";
    QTest::newRow("bad hostlist") << "SwitchName=s1 Nodes=n1\nSwitchName=s2 Nodes=n1\nSwitchName=s3 Nodes=n[1-\n"
                                  << "error: line 3: Nodes: invalid hostlist \"n[1-\"";
    QTest::newRow("more hosts than one answer may name")
        << "SwitchName=s1 Level=0 Nodes=a[0-65535]b[1-2]\nSwitchName=s2 Level=0 Nodes=c[0-65535]d[1-2]\n"
        << "error: line 2: Nodes: the hostlists name more than 131072 hosts or 4 MiB of names in all (this one 131072 hosts more)";
    QTest::newRow("bad child list") << "SwitchName=top Switches=s[1-2]x\n"
                                    << "error: line 1: Switches: invalid hostlist";
    QTest::newRow("switch twice") << "SwitchName=s1 Nodes=n1\nSwitchName=s1 Nodes=n2\n"
                                  << "error: line 2: switch \"s1\" is listed twice";
    QTest::newRow("switches and blocks mixed") << "SwitchName=s1 Nodes=n1\nBlockName=b1 Nodes=n2\n"
                                               << "error: line 2: switch and block lines mixed (line 1)";
    QTest::newRow("blocks and switches mixed") << "BlockName=b1 Nodes=n2\nSwitchName=s1 Nodes=n1\n"
                                               << "error: line 2: switch and block lines mixed (line 1)";
    QTest::newRow("empty name") << "SwitchName= Nodes=n1\n"
                                << "error: line 1: SwitchName is empty";
    QTest::newRow("bad BlockSizes") << "BlockSizes=2,x\n"
                                    << "error: line 1: BlockSizes: invalid size \"x\"";
}

void TestSlurmText::topology() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const auto topology = parseScontrolTopology(text.toStdString());
    if (expected.startsWith(QLatin1String("error: "))) {
        QVERIFY(!topology.ok());
        QVERIFY2(qs(topology.error().message).contains(expected.mid(7)), topology.error().message.c_str());
        return;
    }
    QVERIFY2(topology.ok(), topology.ok() ? "" : topology.error().message.c_str());
    QCOMPARE(topologyText(*topology), expected);
}

void TestSlurmText::nodesLive_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("state");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("schedulable");
    QTest::addColumn<qint64>("cpusAllocated");
    QTest::addColumn<qint64>("memoryAllocatedMiB");
    QTest::addColumn<qint64>("gpusUsed");
    QTest::addColumn<QString>("reason");
    QTest::newRow("gpu-001 idle, planned") << 0 << "gpu-001"
                                           << "planned" << true << true << qint64(0) << qint64(0) << qint64(0) << "";
    QTest::newRow("gpu-009 two jobs") << 8 << "gpu-009"
                                      << "mixed" << true << true << qint64(9) << qint64(36000) << qint64(8) << "";
    QTest::newRow("gpu-010 drained") << 9 << "gpu-010"
                                     << "drained" << true << false << qint64(0) << qint64(0) << qint64(0) << "xid-79";
    QTest::newRow("gpu-011 down") << 10 << "gpu-011"
                                  << "down" << false << false << qint64(0) << qint64(0) << qint64(0) << "dead";
    QTest::newRow("gpu-015 two GPUs") << 14 << "gpu-015"
                                      << "mixed" << true << true << qint64(1) << qint64(4000) << qint64(2) << "";
    QTest::newRow("gpu-064 last") << 63 << "gpu-064"
                                  << "planned" << true << true << qint64(0) << qint64(0) << qint64(0) << "";
}

void TestSlurmText::nodesLive() {
    QFETCH(int, index);
    const auto nodes = parseScontrolNodes(readData("live/scontrol-nodes.txt"));
    QVERIFY2(nodes.ok(), nodes.ok() ? "" : nodes.error().message.c_str());
    QCOMPARE(nodes->size(), std::size_t{64});
    const SlurmNode& node = (*nodes)[static_cast<std::size_t>(index)];
    QTEST(qs(node.name), "name");
    QTEST(qs(node.stateName()), "state");
    QTEST(node.ready(), "ready");
    QTEST(node.schedulable(), "schedulable");
    QTEST(qint64(node.cpusAllocated), "cpusAllocated");
    QTEST(qint64(node.memoryAllocatedMiB), "memoryAllocatedMiB");
    QTEST(qint64(node.gpusUsed), "gpusUsed");
    QTEST(qs(node.reason), "reason");
    QCOMPARE(node.cpus, std::int64_t{64});
    QCOMPARE(node.memoryMiB, std::int64_t{512000});
    QCOMPARE(node.gpus, std::int64_t{8});
    QCOMPARE(joined(node.partitions), QStringLiteral("gpu"));
    QCOMPARE(qs(node.features), QString());
    QCOMPARE(node.weight, 1u);
}

void TestSlurmText::nodesLiveCounts() {
    const auto nodes = parseScontrolNodes(readData("live/scontrol-nodes.txt"));
    QVERIFY(nodes.ok());
    QMap<QString, int> states;
    for (const SlurmNode& node : *nodes) ++states[qs(node.stateName())];
    QCOMPARE(states.value(QStringLiteral("planned")), 56);
    QCOMPARE(states.value(QStringLiteral("mixed")), 5);
    QCOMPARE(states.value(QStringLiteral("idle")), 1);
    QCOMPARE(states.value(QStringLiteral("drained")), 1);
    QCOMPARE(states.value(QStringLiteral("down")), 1);
}

void TestSlurmText::nodes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>(
        "expected"); // name state ready/schedulable cpus gpus/used type reason|partitions|features, or "error: ..."
    QTest::newRow("down not responding") << nodeLine(
                                                QStringLiteral("n1"), QStringLiteral("DOWN+NOT_RESPONDING"),
                                                QStringLiteral(" Reason=Not responding [slurm@2026-12-01T11:00:00]"))
                                         << "n1 down 0/0 0/64 0/8  Not responding|gpu|";
    QTest::newRow("mixed drain with a long reason")
        << nodeLine(QStringLiteral("n2"), QStringLiteral("MIXED+DRAIN"),
                    QStringLiteral(" Reason=Kill task failed: pid 4242 [root@2026-12-01T11:29:45]  "),
                    QStringLiteral("gpu:h100:8(S:0-1)"), QStringLiteral("gpu:h100:3(IDX:0-2)"))
        << "n2 draining 1/0 0/64 3/8 h100 Kill task failed: pid 4242|gpu|";
    QTest::newRow("reason holding key=value")
        << nodeLine(QStringLiteral("n9"), QStringLiteral("IDLE+DRAIN"),
                    QStringLiteral(" Reason=bad DIMM slot=3 State=swap [root@2026-12-01T11:29:45]"))
        << "n9 drained 1/0 0/64 0/8  bad DIMM slot=3 State=swap|gpu|";
    QTest::newRow("reason without who and when") << nodeLine(QStringLiteral("n3"), QStringLiteral("IDLE+DRAIN"),
                                                             QStringLiteral(" Reason=maintenance [ticket 42]"))
                                                 << "n3 drained 1/0 0/64 0/8  maintenance [ticket 42]|gpu|";
    QTest::newRow("typed GRES of two kinds") << nodeLine(QStringLiteral("n4"), QStringLiteral("IDLE"), QString(),
                                                         QStringLiteral("gpu:h100:4(S:0),gpu:a100:4(S:1)"),
                                                         QStringLiteral("gpu:h100:0(IDX:N/A),gpu:a100:0(IDX:N/A)"))
                                             << "n4 idle 1/1 0/64 0/8  |gpu|";
    QTest::newRow("no GRES") << nodeLine(QStringLiteral("n5"), QStringLiteral("ALLOCATED"), QString(),
                                         QStringLiteral("(null)"), QStringLiteral("(null)"))
                             << "n5 allocated 1/1 0/64 0/0  |gpu|";
    QTest::newRow("features and partitions")
        << QStringLiteral(
               "NodeName=n6 CPUAlloc=4 CPUTot=8 AvailableFeatures=h100,nvlink ActiveFeatures=h100 Gres=gpu:2 "
               "RealMemory=1000 AllocMem=10 State=MIXED Weight=20 Partitions=gpu,debug")
        << "n6 mixed 1/1 4/8 0/2  |gpu,debug|h100,nvlink";
    QTest::newRow("multi-line form") << QStringLiteral("NodeName=n7 Arch=x86_64 CoresPerSocket=32 \n"
                                                       "   CPUAlloc=2 CPUEfctv=64 CPUTot=64 CPULoad=0.80\n"
                                                       "   Gres=gpu:8 GresUsed=gpu:1\n"
                                                       "   OS=Linux 6.1.0 #1 SMP Debian\n"
                                                       "   State=MIXED ThreadsPerCore=1 TmpDisk=0 Weight=1\n"
                                                       "   Partitions=gpu \n"
                                                       "   Reason=bad gpu [root@2026-12-01T10:00:00]\n"
                                                       "\n"
                                                       "NodeName=n8 CPUTot=4 State=IDLE+RESERVED\n")
                                     << "n7 mixed 1/1 2/64 1/8  bad gpu|gpu|\nn8 reserved 1/0 0/4 0/0  ||";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("bad number") << nodeLine(QStringLiteral("n1"), QStringLiteral("IDLE")) + QLatin1Char('\n') +
                                       QStringLiteral("NodeName=n2 CPUTot=abc")
                                << "error: scontrol show nodes: line 2: CPUTot: expected a number, got \"abc\"";
    QTest::newRow("not a node line") << QStringLiteral("NodeName=n1 CPUTot=1\nsomething else\n")
                                     << "error: line 2: expected NodeName=..., got \"something else\"";
    QTest::newRow("bad GRES") << QStringLiteral("NodeName=n1 CPUTot=1\nNodeName=n2 Gres=gpu:h100:x")
                              << "error: line 2: Gres: invalid GRES entry \"gpu:h100:x\"";
    QTest::newRow("bad GresUsed") << QStringLiteral("NodeName=n1 GresUsed=gpu:2)")
                                  << "error: line 1: GresUsed: invalid GRES entry";
    QTest::newRow("weight out of range") << QStringLiteral("NodeName=n1 Weight=99999999999")
                                         << "error: line 1: Weight: 99999999999 is out of range";
}

void TestSlurmText::nodes() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const auto nodes = parseScontrolNodes(text.toStdString());
    if (expected.startsWith(QLatin1String("error: "))) {
        QVERIFY(!nodes.ok());
        QVERIFY2(qs(nodes.error().message).contains(expected.mid(7)), nodes.error().message.c_str());
        return;
    }
    QVERIFY2(nodes.ok(), nodes.ok() ? "" : nodes.error().message.c_str());
    QStringList lines;
    for (const SlurmNode& n : *nodes)
        lines << QStringLiteral("%1 %2 %3/%4 %5/%6 %7/%8 %9 %10|%11|%12")
                     .arg(qs(n.name), qs(n.stateName()))
                     .arg(int(n.ready()))
                     .arg(int(n.schedulable()))
                     .arg(n.cpusAllocated)
                     .arg(n.cpus)
                     .arg(n.gpusUsed)
                     .arg(n.gpus)
                     .arg(qs(n.gpuType), qs(n.reason), joined(n.partitions), qs(n.features));
    QCOMPARE(lines.join(QLatin1Char('\n')), expected);
    if (qstrcmp(QTest::currentDataTag(), "features and partitions") == 0) {
        QCOMPARE(nodes->front().weight, 20u);
        QCOMPARE(nodes->front().memoryMiB, std::int64_t{1000});
        QCOMPARE(nodes->front().memoryAllocatedMiB, std::int64_t{10});
    }
}

void TestSlurmText::sbatch_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>(
        "expected"); // feasible: "yes start startText processors nodes partition"; "no message"; or "error: ..."
    QTest::newRow("feasible")
        << "sbatch: Job 6 to start at 2026-12-01T12:28:00 using 4 processors on nodes gpu-[001-004] in partition gpu\n"
        << "yes 1796128080 2026-12-01T12:28:00 4 gpu-[001-004] gpu";
    QTest::newRow("feasible after a warning") << "sbatch: warning: can't honor --ntasks-per-node set to 8\n"
                                                 "sbatch: Job 11 to start at 2026-11-29T09:29:40 using 32 processors "
                                                 "on nodes gpu-[033-036] in partition batch"
                                              << "yes 1795944580 2026-11-29T09:29:40 32 gpu-[033-036] batch";
    QTest::newRow("unparsable start time")
        << "sbatch: Job 6 to start at Unknown using 1 processors on nodes n1 in partition p"
        << "yes 0 Unknown 1 n1 p";
    QTest::newRow("not feasible") << "allocation failure: Requested node configuration is not available\n"
                                  << "no Requested node configuration is not available";
    QTest::newRow("submission failed")
        << "sbatch: error: Batch job submission failed: Requested node configuration is not available"
        << "no Requested node configuration is not available";
    QTest::newRow("submission failed with allocation failure")
        << "sbatch: error: Batch job submission failed: allocation failure: Node count specification invalid\n"
        << "no Node count specification invalid";
    QTest::newRow("other error") << "sbatch: error: invalid partition specified: nope\n"
                                 << "error: sbatch --test-only: unexpected output \"sbatch: error: invalid partition "
                                    "specified: nope\"";
    QTest::newRow("empty") << ""
                           << "error: unexpected output \"\"";
    QTest::newRow("start line cut short") << "sbatch: Job 6 to start at 2026-12-01T12:28:00 using 4 processors"
                                          << "error: unexpected output";
    QTest::newRow("processors not a number")
        << "sbatch: Job 6 to start at 2026-12-01T12:28:00 using four processors on nodes n1 in partition p"
        << "error: unexpected output";
}

void TestSlurmText::sbatch() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const auto result = parseSbatchTestOnly(text.toStdString());
    if (expected.startsWith(QLatin1String("error: "))) {
        QVERIFY(!result.ok());
        QVERIFY2(qs(result.error().message).contains(expected.mid(7)), result.error().message.c_str());
        return;
    }
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    const QString got = result->feasible ? QStringLiteral("yes %1 %2 %3 %4 %5")
                                               .arg(result->startTime)
                                               .arg(qs(result->startText))
                                               .arg(result->processors)
                                               .arg(qs(result->nodes), qs(result->partition))
                                         : QStringLiteral("no ") + qs(result->message);
    QCOMPARE(got, expected);
    if (!result->feasible) QVERIFY(result->nodes.empty());
}

// `scontrol show config`: slurmctld's own release (tests/data/slurm/live/scontrol-config.txt, the
// real 22.05.8 output), whatever the client's; no such line is an error.
void TestSlurmText::configVersion_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("version"); // empty: an error
    QTest::newRow("22.05.8 as captured") << qs(readData("live/scontrol-config.txt")) << "22.05.8";
    QTest::newRow("padded, CRLF") << "Configuration data as of 2026-12-07T12:02:26\r\nSLURM_VERSION           = 24.05.3\r\n"
                                  << "24.05.3";
    QTest::newRow("SLURM_CONF is not it") << "SLURM_CONF              = /etc/slurm/slurm.conf\n" << "";
    QTest::newRow("no value") << "SLURM_VERSION           =\n" << "";
    QTest::newRow("slurmctld down") << "" << "";
}

void TestSlurmText::configVersion() {
    QFETCH(QString, text);
    QFETCH(QString, version);
    const Result<std::string> read = parseScontrolConfigVersion(text.toStdString());
    if (version.isEmpty()) {
        QVERIFY(!read);
        QCOMPARE(qs(read.error().message), QStringLiteral("scontrol show config printed no SLURM_VERSION line"));
        return;
    }
    QVERIFY2(read.ok(), read ? "" : read.error().message.c_str());
    QCOMPARE(qs(*read), version);
}

TOPODECK_TEST_APPLESS_MAIN(TestSlurmText)
#include "test_slurm_text.moc"
