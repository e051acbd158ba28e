// topodeckctl objects: plans that make a cluster's HyperNodes, Kueue Topology and ResourceFlavor,
// or KAI Topology those of the hierarchy the flags choose, previewed object by object; diff shows
// such a plan against the cluster; export bundle carries its objects for kubectl; bad requests
// are usage errors. The real server's side is integration.test_kube_objects.

#include "ctl_runner.h"
#include "support/test_program.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest>

using ctl::runCtl;

namespace {

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestObjects : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // One HyperNode per domain of the demo's label hierarchy, the same set `export hypernodes`
    // writes, each a create; diff of the plan shows the objects and exits 1 (changes).
    void hyperNodesFromTheDemosLabels() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("hn.yaml"));
        const ctl::Run run = runCtl({QStringLiteral("objects"), QStringLiteral("hypernodes"), QStringLiteral("--demo"),
                                     QStringLiteral("gb200"), QStringLiteral("-o"), plan});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const ctl::Run exported = runCtl({QStringLiteral("export"), QStringLiteral("hypernodes"),
                                          QStringLiteral("--demo"), QStringLiteral("gb200")});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        const int hyperNodes = int(exported.out.count("kind: \"HyperNode\""));
        QVERIFY(hyperNodes > 10);
        const QByteArray text = readFile(plan);
        QCOMPARE(int(text.count("  - action: \"create\"")), hyperNodes);
        QVERIFY2(run.out.contains(QStringLiteral("Plan \"hypernodes\": %1 object changes").arg(hyperNodes).toUtf8()),
                 run.out.constData());
        QVERIFY2(run.out.contains("create HyperNode rack-1-01"), run.out.constData());
        QVERIFY2(run.out.contains("+   tierName: \"rack\""), run.out.constData());

        const ctl::Run diff = runCtl(
            {QStringLiteral("diff"), QStringLiteral("-f"), plan, QStringLiteral("--demo"), QStringLiteral("gb200")});
        QCOMPARE(diff.exitCode, 1);
        QVERIFY2(diff.out.contains("create HyperNode rack-1-01"), diff.out.constData());

        // The bundle carries them for kubectl.
        const QString folder = dir.filePath(QStringLiteral("bundle"));
        const ctl::Run bundle =
            runCtl({QStringLiteral("export"), QStringLiteral("bundle"), QStringLiteral("--plan"), plan,
                    QStringLiteral("--demo"), QStringLiteral("gb200"), QStringLiteral("-o"), folder});
        QVERIFY2(bundle.exitCode == 0, bundle.err.constData());
        QCOMPARE(int(readFile(QDir(folder).filePath(QStringLiteral("objects.yaml"))).count("kind: \"HyperNode\"")),
                 hyperNodes);
        QVERIFY(readFile(QDir(folder).filePath(QStringLiteral("README.md"))).contains("object changes"));
    }

    // A node list whose topology is only in Slurm's topology.conf: its switches become HyperNodes,
    // named as the switches, leaves holding the nodes, each tier named after its level.
    void hyperNodesFromATopologyConf() {
        const ctl::Run run = runCtl({QStringLiteral("objects"), QStringLiteral("hypernodes"), QStringLiteral("-f"),
                                     QStringLiteral(TOPODECK_TEST_DATA_DIR "/plan/nodes-unlabelled.yaml"),
                                     QStringLiteral("--slurm-topology"),
                                     QStringLiteral(TOPODECK_TEST_DATA_DIR "/slurm/tree.conf")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(int(run.out.count("  - action: \"create\"")), 6); // core, spine1-2, leaf1-3
        QVERIFY2(run.out.contains("name: \"leaf3\"\n      spec:\n        tier: 1\n        tierName: \"leaf\""),
                 run.out.constData());
        QVERIFY(run.out.contains("{\"type\": \"Node\", \"selector\": {\"exactMatch\": {\"name\": \"gpu-012\"}}}"));
        QVERIFY(run.out.contains("{\"type\": \"HyperNode\", \"selector\": {\"exactMatch\": {\"name\": \"spine2\"}}}"));
    }

    // A Kueue Topology and its flavor, and a KAI Topology, named as asked.
    void topologies() {
        const ctl::Run kueue = runCtl({QStringLiteral("objects"), QStringLiteral("kueue"), QStringLiteral("--demo"),
                                       QStringLiteral("gb200"), QStringLiteral("--name"), QStringLiteral("gb200")});
        QVERIFY2(kueue.exitCode == 0, kueue.err.constData());
        QVERIFY(kueue.out.contains("apiVersion: \"kueue.x-k8s.io/v1beta2\"\n      kind: \"Topology\""));
        QVERIFY2(kueue.err.contains("create Kueue Topology gb200") && kueue.err.contains("create ResourceFlavor gb200"),
                 kueue.err.constData());
        const ctl::Run kai = runCtl({QStringLiteral("objects"), QStringLiteral("kai"), QStringLiteral("--demo"),
                                     QStringLiteral("h100"), QStringLiteral("--name"), QStringLiteral("kai-h100")});
        QVERIFY2(kai.exitCode == 0, kai.err.constData());
        QVERIFY2(kai.err.contains("create KAI Topology kai-h100"), kai.err.constData());
    }

    // Slurm blocks from the NVLink fabric: one per clique (the gb200 demo splits su-4/rack-4-08 into
    // two), or one per rack as SUNK configures NVL72 racks.
    void slurmBlocksPerCliqueOrRack() {
        const QStringList args{QStringLiteral("export"), QStringLiteral("topology.conf"), QStringLiteral("--demo"),
                               QStringLiteral("gb200")};
        const ctl::Run tree = runCtl(args);
        QVERIFY2(tree.exitCode == 0, tree.err.constData());
        const int racks = int(tree.out.count("SwitchName=rack-"));
        QVERIFY(racks > 4);
        const ctl::Run cliques = runCtl(args + QStringList{QStringLiteral("--blocks")});
        QVERIFY2(cliques.exitCode == 0, cliques.err.constData());
        QCOMPARE(int(cliques.out.count("BlockName=")), racks + 1);
        const ctl::Run perRack = runCtl(args + QStringList{QStringLiteral("--block-per"), QStringLiteral("rack")});
        QVERIFY2(perRack.exitCode == 0, perRack.err.constData());
        QCOMPARE(int(perRack.out.count("BlockName=")), racks);
        QVERIFY(perRack.out.contains("BlockName=rack-4-08 "));
        const ctl::Run bad = runCtl(args + QStringList{QStringLiteral("--block-per"), QStringLiteral("row")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--block-per: rack or clique"), bad.err.constData());
    }

    // Slinky's annotation on every node of the demo, and the topology.yaml it names.
    void slinkyAnnotations() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("slinky.yaml"));
        const QString yaml = dir.filePath(QStringLiteral("topology.yaml"));
        const ctl::Run run =
            runCtl({QStringLiteral("slinky"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                    QStringLiteral("--tree"), QStringLiteral("topo-tree"), QStringLiteral("--block"),
                    QStringLiteral("topo-block"), QStringLiteral("--topology-yaml"), yaml, QStringLiteral("-o"), plan});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // Every node of the demo: `export labels` writes a partial Node of each.
        const QString labelsFile = dir.filePath(QStringLiteral("labels.yaml"));
        const ctl::Run labels = runCtl({QStringLiteral("export"), QStringLiteral("labels"), QStringLiteral("--demo"),
                                        QStringLiteral("gb200"), QStringLiteral("-o"), labelsFile});
        QVERIFY2(labels.exitCode == 0, labels.err.constData());
        const int nodeCount = int(readFile(labelsFile).count("kind: \"Node\""));
        const QByteArray text = readFile(plan);
        const int annotated = int(text.count("key: \"topology.slinky.slurm.net/spec\", annotation: true"));
        QVERIFY2(annotated > 500, text.left(2000).constData());
        QCOMPARE(annotated, nodeCount);
        // The split rack's two cliques are two blocks.
        QVERIFY2(text.contains("after: \"topo-tree:rack-4-08,topo-block:") &&
                     run.out.contains("annotation topology.slinky"),
                 run.out.left(3000).constData());
        const QByteArray topology = readFile(yaml);
        QVERIFY(topology.contains("- topology: \"topo-tree\"\n  cluster_default: true"));
        QVERIFY(topology.contains("- topology: \"topo-block\"\n  cluster_default: false"));
        const ctl::Run none = runCtl({QStringLiteral("slinky"), QStringLiteral("--demo"), QStringLiteral("gb200")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("--tree NAME, --block NAME or both"), none.err.constData());
        const ctl::Run bad = runCtl({QStringLiteral("slinky"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                     QStringLiteral("--tree"), QStringLiteral("a:b")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("a topology name is"), bad.err.constData());
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString demo = QStringLiteral("--demo=gb200");
        QTest::newRow("no format") << QStringList{demo} << QByteArray("objects takes one FORMAT");
        QTest::newRow("bad format") << QStringList{QStringLiteral("labels"), demo}
                                    << QByteArray("FORMAT is hypernodes");
        QTest::newRow("prune for kueue") << QStringList{QStringLiteral("kueue"), QStringLiteral("--prune"), demo}
                                         << QByteArray("--prune is for hypernodes");
        QTest::newRow("bad name") << QStringList{QStringLiteral("kai"), QStringLiteral("--name"),
                                                 QStringLiteral("Bad_Name"), demo}
                                  << QByteArray("the name \"Bad_Name\"");
        QTest::newRow("bad api version") << QStringList{QStringLiteral("kueue"), QStringLiteral("--api-version"),
                                                        QStringLiteral("v2"), demo}
                                         << QByteArray("v1beta2 or v1beta1");
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("objects")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
    }

    void listedInHelp() {
        const ctl::Run run = runCtl({QStringLiteral("--help")});
        QVERIFY(run.out.contains("objects") && run.out.contains("slinky"));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestObjects)
#include "test_objects.moc"
