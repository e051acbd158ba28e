// topodeckctl label, relabel and diff: kubectl label's syntax writes a change plan (each label's value
// found, as its precondition) and previews what it does to the hierarchy; diff shows a plan against
// the cluster now, with kubectl diff's exit codes, and names the labels that drifted; bad labels,
// unknown nodes, missing targets and broken plan files are usage errors. relabel writes the labels
// that say where each node sits under another hierarchy (a topology.conf, the current keys).

#include "ctl_runner.h"
#include "support/test_program.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest>

using ctl::runCtl;

class TestLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A rack relabelled into its neighbour: the preview says so, and the plan holds every node.
    void rackIntoItsNeighbour() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("move.yaml"));
        const ctl::Run run = runCtl({QStringLiteral("label"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                     QStringLiteral("--domain"), QStringLiteral("su-1/rack-1-03"),
                                     QStringLiteral("fabric.topograph.run/tier-0=rack-1-02"), QStringLiteral("-o"),
                                     plan, QStringLiteral("--name"), QStringLiteral("merge-racks")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (const char* line :
             {"Plan \"merge-racks\": 18 label changes on 18 nodes", "domains removed (1): su-1/rack-1-03",
              "domains merged (1): su-1/rack-1-02", "su-1/rack-1-03 -> su-1/rack-1-02: 18 nodes",
              "su-1/rack-1-02: 72 -> 144 GPUs (18 -> 36 nodes)"})
            QVERIFY2(run.out.contains(line), run.out.constData());
        QFile file(plan);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.startsWith("apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\n"));
        QCOMPARE(text.count("before: \"rack-1-03\", after: \"rack-1-02\""), 18);
    }

    // Without -o the plan goes to stdout, so it pipes; the preview goes to stderr.
    void planToStdout() {
        const ctl::Run run =
            runCtl({QStringLiteral("label"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                    QStringLiteral("gb200-su1-r03-n01"), QStringLiteral("fabric.topograph.run/tier-0-")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(run.out.startsWith("apiVersion: topodeck.io/v1alpha1"));
        QVERIFY(run.out.contains(
            "{node: \"gb200-su1-r03-n01\", key: \"fabric.topograph.run/tier-0\", before: \"rack-1-03\"}"));
        QVERIFY2(run.err.contains("leave Kueue TAS capacity (a level label missing) (1): gb200-su1-r03-n01"),
                 run.err.constData());
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString demo = QStringLiteral("--demo=gb200");
        QTest::newRow("no nodes") << QStringList{demo, QStringLiteral("a=b")} << QByteArray("name the nodes");
        QTest::newRow("no labels") << QStringList{demo, QStringLiteral("gb200-su1-r03-n01")} << QByteArray("no labels");
        QTest::newRow("bad key") << QStringList{demo, QStringLiteral("gb200-su1-r03-n01"), QStringLiteral("a/b/c=v")}
                                 << QByteArray("invalid key");
        QTest::newRow("bad value") << QStringList{demo, QStringLiteral("gb200-su1-r03-n01"), QStringLiteral("k=-v")}
                                   << QByteArray("invalid value");
        QTest::newRow("unknown node") << QStringList{demo, QStringLiteral("ghost"), QStringLiteral("k=v")}
                                      << QByteArray("node \"ghost\" is not in the cluster");
        QTest::newRow("unknown domain") << QStringList{demo, QStringLiteral("--domain"), QStringLiteral("su-9"),
                                                       QStringLiteral("k=v")}
                                        << QByteArray("domain su-9: no topology domain has that name");
        QTest::newRow("bad selector") << QStringList{demo, QStringLiteral("-l"), QStringLiteral("a in ("),
                                                     QStringLiteral("k=v")}
                                      << QByteArray("selector \"a in (\"");
        QTest::newRow("no cluster") << QStringList{QStringLiteral("n1"), QStringLiteral("k=v")}
                                    << QByteArray("give one of --demo");
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("label")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty()); // nothing half-written
    }

    // The plan label wrote, against the same cluster (changes: exit 1) and against one where a
    // label it found has changed since (named as drift); a plan of nothing exits 0.
    void diffShowsThePlanAndItsDrift() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("move.yaml"));
        const ctl::Run label =
            runCtl({QStringLiteral("label"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                    QStringLiteral("--domain"), QStringLiteral("su-1/rack-1-03"),
                    QStringLiteral("fabric.topograph.run/tier-0=rack-1-02"), QStringLiteral("-o"), plan});
        QVERIFY2(label.exitCode == 0, label.err.constData());
        const ctl::Run diff = runCtl(
            {QStringLiteral("diff"), QStringLiteral("-f"), plan, QStringLiteral("--demo"), QStringLiteral("gb200")});
        QVERIFY2(diff.exitCode == 1, diff.err.constData());
        QVERIFY2(diff.out.contains("su-1/rack-1-03 -> su-1/rack-1-02: 18 nodes"), diff.out.constData());
        QVERIFY(!diff.out.contains("Drift"));

        // The same plan, as if one node had been relabelled by someone else since.
        QFile file(plan);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        const QByteArray found =
            "{node: \"gb200-su1-r03-n05\", key: \"fabric.topograph.run/tier-0\", before: \"rack-1-03\"";
        QVERIFY(text.contains(found));
        text.replace(found,
                     "{node: \"gb200-su1-r03-n05\", key: \"fabric.topograph.run/tier-0\", before: \"rack-1-07\"");
        const QString drifted = dir.filePath(QStringLiteral("drifted.yaml"));
        QFile out(drifted);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const ctl::Run again = runCtl(
            {QStringLiteral("diff"), QStringLiteral("-f"), drifted, QStringLiteral("--demo"), QStringLiteral("gb200")});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.out.contains("Drift: the cluster no longer holds what the plan found (1 label)"),
                 again.out.constData());
        QVERIFY(again.out.contains("node gb200-su1-r03-n05: label fabric.topograph.run/tier-0 is \"rack-1-03\", the "
                                   "plan found \"rack-1-07\""));

        const QByteArray empty = "apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nmetadata: {name: none}\n";
        const ctl::Run nothing = runCtl({QStringLiteral("diff"), QStringLiteral("-f"), QStringLiteral("-"),
                                         QStringLiteral("--demo"), QStringLiteral("gb200")},
                                        empty);
        QVERIFY2(nothing.exitCode == 0, nothing.err.constData());
        QVERIFY(nothing.out.contains("nothing to change"));
    }

    void diffUsageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("message");
        const QString demo = QStringLiteral("--demo=gb200");
        QTest::newRow("no plan") << QStringList{demo} << QByteArray() << QByteArray("diff needs -f PLAN");
        QTest::newRow("missing file") << QStringList{demo, QStringLiteral("-f"), QStringLiteral("no-such-plan.yaml")}
                                      << QByteArray() << QByteArray("cannot read no-such-plan.yaml");
        QTest::newRow("not a plan") << QStringList{demo, QStringLiteral("-f"), QStringLiteral("-")}
                                    << QByteArray("apiVersion: v1\nkind: Node\n")
                                    << QByteArray("kind: expected ChangePlan");
        QTest::newRow("bad field") << QStringList{demo, QStringLiteral("-f"), QStringLiteral("-")}
                                   << QByteArray("apiVersion: topodeck.io/v1alpha1\nkind: ChangePlan\nspec:\n"
                                                 "  labelChanges:\n  - {node: n, key: 'a b', after: x}\n")
                                   << QByteArray("spec.labelChanges[0].key: invalid label key \"a b\"");
        QTest::newRow("no cluster") << QStringList{QStringLiteral("-f"), QStringLiteral("-")} << QByteArray()
                                    << QByteArray("give one of --demo NAME, --snapshot FILE");
    }
    void diffUsageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("diff")} + args, input);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
    }

    // relabel: a node list with no topology labels and the topology.conf that places it become a
    // plan of labels that, read as levels, give the same tree; the plan reloads, and diff shows it.
    void relabelFromTopologyConf() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString plan = dir.filePath(QStringLiteral("from-slurm.yaml"));
        const ctl::Run run = runCtl({QStringLiteral("relabel"), QStringLiteral("-f"), QStringLiteral("plan/nodes-unlabelled.yaml"),
                                     QStringLiteral("--slurm-topology"), QStringLiteral("slurm/tree.conf"), QStringLiteral("--to"),
                                     QStringLiteral("example.com/core,example.com/spine,example.com/leaf"), QStringLiteral("-o"), plan});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (const char* line :
             {"Plan \"relabel\": 33 label changes on 11 nodes",
              "nodes gpu-009, gpu-010, gpu-012: example.com/core=core example.com/spine=spine2 example.com/leaf=leaf3",
              "Read as --levels example.com/core,example.com/spine,example.com/leaf, the labels place every node where the "
              "slurm-topology hierarchy does."})
            QVERIFY2(run.out.contains(line), run.out.constData());
        QVERIFY(!run.out.contains("gpu-011")); // in no switch: nothing to set
        const ctl::Run diff = runCtl({QStringLiteral("diff"), QStringLiteral("-f"), plan, QStringLiteral("--snapshot"),
                                      QStringLiteral("plan/nodes-unlabelled.yaml")});
        QVERIFY2(diff.exitCode == 1, diff.err.constData());
        QVERIFY2(diff.out.contains("33 label changes on 11 nodes"), diff.out.constData());
    }

    // A rename of the demo's keys, the old ones removed: every node leaves the levels the cluster
    // reads today (the preview says so), and the new keys give the same tree.
    void relabelRenamesAScheme() {
        const ctl::Run run = runCtl({QStringLiteral("relabel"), QStringLiteral("--demo"), QStringLiteral("gb200"), QStringLiteral("--to"),
                                     QStringLiteral("example.com/su,example.com/rack"), QStringLiteral("--remove"),
                                     QStringLiteral("fabric.topograph.run/*")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out.count("key: \"fabric.topograph.run/tier-0\", before:"), 576);
        for (const char* line : {"2,304 label changes on 576 nodes", "leave Kueue TAS capacity (a level label missing) (576)",
                                 "the labels place every node where the demo hierarchy does."})
            QVERIFY2(run.err.contains(line), run.err.constData());
    }

    void relabelUsageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString demo = QStringLiteral("--demo=gb200");
        QTest::newRow("no keys") << QStringList{demo} << QByteArray("--to: give the label key of each level");
        QTest::newRow("a key short") << QStringList{demo, QStringLiteral("--to=a.io/x")}
                                     << QByteArray("it has 2 (su, rack), the keys are 1");
        QTest::newRow("hostname") << QStringList{demo, QStringLiteral("--to=a.io/x,kubernetes.io/hostname")}
                                  << QByteArray("the kubelet's own label");
        QTest::newRow("aggregated blocks") << QStringList{QStringLiteral("-f"), QStringLiteral("plan/nodes-gb-unlabelled.yaml"),
                                                          QStringLiteral("--slurm-topology"), QStringLiteral("slurm/block.conf"),
                                                          QStringLiteral("--to=a.io/x,a.io/y")}
                                           << QByteArray("give - for level");
        QTest::newRow("positional") << QStringList{demo, QStringLiteral("--to=a.io/x,a.io/y"), QStringLiteral("node-1")}
                                    << QByteArray("unexpected argument \"node-1\"");
    }
    void relabelUsageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("relabel")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void listedInHelp() {
        const ctl::Run run = runCtl({QStringLiteral("--help")});
        for (const char* command : {"label", "relabel", "diff"}) QVERIFY(run.out.contains(command));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestLabel)
#include "test_label.moc"
