// `topodeckctl plan` end to end: exit codes, the JSON shape of every engine, what-if, capacity and
// the errors operators get for bad input. The engines' own rules are tested in tests/unit.

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "ctl_runner.h"
#include "support/test_program.h"

namespace {

const QString kCluster = QStringLiteral("plan/cluster.yaml");
const QSet<QString> kUnusable = {QStringLiteral("b2-r2-n3"), QStringLiteral("b1-r2-n3")}; // NotReady, cordoned

QJsonObject parseObject(const Run& run) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) return {};
    return doc.object();
}

int podsOn(const QJsonObject& result) {
    int pods = 0;
    for (const QJsonValue& node : result.value(QStringLiteral("nodes")).toArray())
        pods += node[QLatin1String("pods")].toInt();
    return pods;
}

QStringList nodeNames(const QJsonObject& result) {
    QStringList names;
    for (const QJsonValue& node : result.value(QStringLiteral("nodes")).toArray())
        names << node[QLatin1String("name")].toString();
    return names;
}

} // namespace

class TestPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void helpDescribesTheCommand() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("--compare"));
        QVERIFY(run.out.contains("Exit status: 0 fits"));
        QVERIFY(runCtl({QStringLiteral("--help")}).out.contains("plan"));
    }

    void badInputIsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString f = QStringLiteral("-f");
        QTest::newRow("no gang") << QStringList{f, kCluster} << "say what to place";
        QTest::newRow("no source") << QStringList{QStringLiteral("--pods"), QStringLiteral("2")}
                                   << "--demo NAME, -f FILE, or a live cluster";
        QTest::newRow("unknown engine") << QStringList{f,
                                                       kCluster,
                                                       QStringLiteral("--pods"),
                                                       QStringLiteral("1"),
                                                       QStringLiteral("--engine"),
                                                       QStringLiteral("yarn")}
                                        << "unknown engine \"yarn\"";
        QTest::newRow("bad quantity") << QStringList{f,
                                                     kCluster,
                                                     QStringLiteral("--pods"),
                                                     QStringLiteral("1"),
                                                     QStringLiteral("--request"),
                                                     QStringLiteral("nvidia.com/gpu=8x")}
                                      << "nvidia.com/gpu";
        QTest::newRow("request without =") << QStringList{f,
                                                          kCluster,
                                                          QStringLiteral("--pods"),
                                                          QStringLiteral("1"),
                                                          QStringLiteral("--request"),
                                                          QStringLiteral("gpu")}
                                           << "RESOURCE=QUANTITY";
        QTest::newRow("zero pods") << QStringList{f, kCluster, QStringLiteral("--pods"), QStringLiteral("0")}
                                   << "--pods";
        QTest::newRow("two gang sources") << QStringList{f,
                                                         kCluster,
                                                         QStringLiteral("--pods"),
                                                         QStringLiteral("1"),
                                                         QStringLiteral("--sbatch"),
                                                         QStringLiteral("-N 1")}
                                          << "one way";
        QTest::newRow("unknown level") << QStringList{f,
                                                      kCluster,
                                                      QStringLiteral("--pods"),
                                                      QStringLiteral("1"),
                                                      QStringLiteral("--required"),
                                                      QStringLiteral("galaxy"),
                                                      QStringLiteral("--engine"),
                                                      QStringLiteral("kueue-tas")}
                                       << "galaxy";
        QTest::newRow("bad manifest") << QStringList{f, kCluster, QStringLiteral("--manifest"),
                                                     QStringLiteral("plan/bad-manifest.yaml")}
                                      << "bad-manifest.yaml";
        // Single edits of gangs/job.json that yaml-cpp 0.7 loops on: refused at once, naming the place.
        for (const char* name : {"job-leading-comma.json:1:1: invalid YAML", "job-brace-for-colon.json:2:17: invalid YAML",
                                 "job-ampersand-for-brace.json:4:16: invalid YAML", "job-trailing-comma.json:12:2: invalid YAML"}) {
            const QString where = QString::fromUtf8(name);
            QTest::newRow(name) << QStringList{f, kCluster, QStringLiteral("--manifest"),
                                               QStringLiteral("fuzz-regressions/yaml-loops/") + where.section(u':', 0, 0)}
                                << where;
        }
        QTest::newRow("missing manifest")
            << QStringList{f, kCluster, QStringLiteral("--manifest"), QStringLiteral("plan/nope.yaml")} << "nope.yaml";
        QTest::newRow("bad drain") << QStringList{f,
                                                  kCluster,
                                                  QStringLiteral("--pods"),
                                                  QStringLiteral("1"),
                                                  QStringLiteral("--drain"),
                                                  QStringLiteral("zzz")}
                                   << "--drain zzz";
        QTest::newRow("bad slurm version") << QStringList{f,
                                                          kCluster,
                                                          QStringLiteral("--pods"),
                                                          QStringLiteral("1"),
                                                          QStringLiteral("--slurm-version"),
                                                          QStringLiteral("banana")}
                                           << "--slurm-version";
        QTest::newRow("missing slurm topology") << QStringList{f,
                                                               kCluster,
                                                               QStringLiteral("--pods"),
                                                               QStringLiteral("1"),
                                                               QStringLiteral("--slurm-topology"),
                                                               QStringLiteral("plan/none.conf")}
                                                << "none.conf";
        QTest::newRow("capacity without shape")
            << QStringList{f, kCluster, QStringLiteral("--capacity")} << "--request";
    }
    void badInputIsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = runCtl(QStringList{QStringLiteral("plan")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith("topodeckctl: error: "), run.err.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // Every engine, on the same question: the shape of the JSON, and pods only on usable nodes.
    void compareRunsEveryEngine() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--pods"),
                                QStringLiteral("2"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                QStringLiteral("--required"), QStringLiteral("block"), QStringLiteral("--compare"),
                                QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 3, run.err.constData());
        const QJsonObject doc = parseObject(run);
        const QJsonArray results = doc.value(QStringLiteral("results")).toArray();
        QStringList engines;
        for (const QJsonValue& value : results) {
            const QJsonObject result = value.toObject();
            const QString engine = result.value(QStringLiteral("engine")).toString();
            engines << engine;
            for (const char* key : {"feasible", "message", "nodes", "assignment", "chosen", "trace"})
                QVERIFY2(result.contains(QLatin1String(key)),
                         qPrintable(engine + QStringLiteral(" lacks ") + QLatin1String(key)));
            QVERIFY2(!result.value(QStringLiteral("message")).toString().isEmpty(), qPrintable(engine));
            if (!result.value(QStringLiteral("feasible")).toBool()) continue;
            QCOMPARE(podsOn(result), 2);
            for (const QString& node : nodeNames(result))
                QVERIFY2(!kUnusable.contains(node), qPrintable(engine + QLatin1Char(' ') + node));
        }
        for (const QJsonValue& skipped : doc.value(QStringLiteral("skipped")).toArray())
            engines << skipped[QLatin1String("engine")].toString();
        engines.sort();
        QCOMPARE(engines,
                 (QStringList{QStringLiteral("kai"), QStringLiteral("kueue-tas"), QStringLiteral("slurm-block"),
                              QStringLiteral("slurm-tree"), QStringLiteral("volcano")}));
    }

    // Worked by hand from Kueue's rules: both blocks fit 2 whole-node pods (the tainted, full,
    // cordoned and NotReady nodes drop out), so BestFit takes the first by name, b1, and inside
    // it the only two nodes with 8 free GPUs.
    void kueueRequiredBlock() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--pods"),
                                QStringLiteral("2"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                QStringLiteral("--required"), QStringLiteral("block"), QStringLiteral("-o"),
                                QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject result = parseObject(run);
        QCOMPARE(result.value(QStringLiteral("engine")).toString(), QStringLiteral("kueue-tas"));
        QCOMPARE(nodeNames(result), (QStringList{QStringLiteral("b1-r1-n3"), QStringLiteral("b1-r2-n2")}));
        QCOMPARE(result.value(QStringLiteral("assignment"))[QLatin1String("levels")].toArray().first().toString(),
                 QStringLiteral("kubernetes.io/hostname"));
    }

    void notFitIsExitThreeWithTheSchedulersMessage() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--pods"),
                                QStringLiteral("3"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                QStringLiteral("--required"), QStringLiteral("rack")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.out.contains("kueue-tas: does not fit"), run.out.constData());
        QVERIFY2(run.out.contains("topology \"default\""), run.out.constData());
    }

    void manifestCarriesAnnotationsAndTolerations() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--manifest"),
                                QStringLiteral("plan/job-rack.yaml"), QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject result = parseObject(run);
        QCOMPARE(podsOn(result), 4);
        // 4 pods of 4 GPUs in one rack: only b2-r1 holds 4, with its tainted node tolerated.
        const QStringList nodes = nodeNames(result);
        QVERIFY(nodes.contains(QStringLiteral("b2-r1-n1")));
        for (const QString& node : nodes) QVERIFY2(node.startsWith(QLatin1String("b2-r1-")), qPrintable(node));
    }

    void drainAndThenPlaceChangeTheAnswer() {
        const QStringList base = {QStringLiteral("plan"),
                                  QStringLiteral("-f"),
                                  kCluster,
                                  QStringLiteral("--pods"),
                                  QStringLiteral("2"),
                                  QStringLiteral("--request"),
                                  QStringLiteral("nvidia.com/gpu=8"),
                                  QStringLiteral("--required"),
                                  QStringLiteral("block"),
                                  QStringLiteral("-o"),
                                  QStringLiteral("json")};
        const Run drained = runCtl(base + QStringList{QStringLiteral("--drain"), QStringLiteral("b1-r1-n3")});
        QCOMPARE(drained.exitCode, 0);
        for (const QString& node : nodeNames(parseObject(drained)))
            QVERIFY2(node.startsWith(QLatin1String("b2-")), qPrintable(node));

        const Run both = runCtl(base + QStringList{QStringLiteral("--drain"), QStringLiteral("b1"),
                                                   QStringLiteral("--drain"), QStringLiteral("b2-r2")});
        QCOMPARE(both.exitCode, 3);

        // Two earlier 2 x 8-GPU gangs take both blocks' whole free nodes.
        const Run after =
            runCtl(base + QStringList{QStringLiteral("--then-place"), QStringLiteral("plan/first-gangs.yaml")});
        QCOMPARE(after.exitCode, 3);
        const Run table = runCtl(QStringList(base.mid(0, base.size() - 2)) +
                                 QStringList{QStringLiteral("--then-place"), QStringLiteral("plan/first-gangs.yaml")});
        QVERIFY2(table.out.contains("What-if: placed first, in order"), table.out.constData());
        QVERIFY2(table.out.contains("first-a"), table.out.constData());
    }

    void capacityCountsWholeNodes() {
        const Run run =
            runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--capacity"),
                    QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"), QStringLiteral("--pods"),
                    QStringLiteral("2"), QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject doc = parseObject(run);
        const QJsonArray levels = doc.value(QStringLiteral("levels")).toArray();
        // Whole free usable nodes: b1-r1-n3, b1-r2-n2, b2-r1-n2, b2-r2-n1; b2-r1-n1 is tainted.
        QCOMPARE(doc.value(QStringLiteral("taintedNodesSkipped")).toInt(), 1);
        QCOMPARE(levels.first()[QLatin1String("podsFit")].toInt(), 4);
        QCOMPARE(levels.first()[QLatin1String("gangsFit")].toInt(), 2);
        QCOMPARE(levels[1][QLatin1String("level")].toString(), QStringLiteral("block"));
        QCOMPARE(levels[1][QLatin1String("gangsFit")].toInt(), 2); // b1: 2 pods, b2: 2 pods
        QCOMPARE(levels[2][QLatin1String("gangsFit")].toInt(), 0); // no rack has two whole nodes
        const Run table = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--capacity"),
                                  QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8")});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("PODS FIT"), table.out.constData());
    }

    // Each topology source alone, with nodes that carry no topology labels: the request brings a
    // topology.conf (tree) or one with blocks, the cluster brings HyperNodes, or there is none.
    // Every engine answers; the one given reads the hierarchy its scheduler reads.
    void everyTopologySourceAlone_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QString>("text"); // in the JSON (chosen domains, notes) or on stderr
        const QString f = QStringLiteral("-f");
        const QString sbatch = QStringLiteral("--sbatch");
        const QStringList gpus8 = {QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8")};
        // leaf1 holds gpu-[001-004], all free; gpu-005 (leaf2) is busy.
        QTest::newRow("slurm-tree, topology.conf") << QStringList{f,
                                                                  QStringLiteral("plan/nodes-unlabelled.yaml"),
                                                                  QStringLiteral("--slurm-topology"),
                                                                  QStringLiteral("slurm/tree.conf"),
                                                                  sbatch,
                                                                  QStringLiteral("-N 4 --gres=gpu:8 --switches=1")}
                                                   << QStringLiteral("slurm-tree")
                                                   << QStringList{QStringLiteral("gpu-001"), QStringLiteral("gpu-002"),
                                                                  QStringLiteral("gpu-003"), QStringLiteral("gpu-004")}
                                                   << QStringLiteral(R"({"level":"switch level 0","domain":"leaf1"})");
        // gb-01 is busy, so b1 cannot take 2 nodes; b2..b4 can.
        QTest::newRow("slurm-block, topology.conf blocks")
            << QStringList{f,
                           QStringLiteral("plan/nodes-gb-unlabelled.yaml"),
                           QStringLiteral("--slurm-topology"),
                           QStringLiteral("slurm/block.conf"),
                           sbatch,
                           QStringLiteral("-N 2 --gres=gpu:4")}
            << QStringLiteral("slurm-block") << QStringList{QStringLiteral("gb-07"), QStringLiteral("gb-08")}
            << QStringLiteral(R"({"level":"block","domain":"b4"})");
        // Four whole nodes inside one tier-2 HyperNode: s4 holds node-0..3.
        QTest::newRow("volcano, HyperNodes")
            << (QStringList{f, QStringLiteral("volcano/hypernodes-only.yaml"), QStringLiteral("-e"),
                            QStringLiteral("volcano"), QStringLiteral("--pods"), QStringLiteral("4"),
                            QStringLiteral("--required"), QStringLiteral("spine")} +
                gpus8)
            << QStringLiteral("volcano")
            << QStringList{QStringLiteral("node-0"), QStringLiteral("node-1"), QStringLiteral("node-2"),
                           QStringLiteral("node-3")}
            << QStringLiteral(R"({"level":"spine","domain":"s4"})");
        // Kueue reads no HyperNodes: it places by hostname alone, and says so.
        QTest::newRow("kueue-tas beside HyperNodes")
            << (QStringList{f, QStringLiteral("volcano/hypernodes-only.yaml"), QStringLiteral("-e"),
                            QStringLiteral("kueue-tas"), QStringLiteral("--pods"), QStringLiteral("2")} +
                gpus8)
            << QStringLiteral("kueue-tas") << QStringList{QStringLiteral("node-0"), QStringLiteral("node-1")}
            << QStringLiteral("kueue-tas reads node labels only");
        QTest::newRow("no topology") << (QStringList{f, QStringLiteral("plan/nodes-nodegroups.yaml"),
                                                     QStringLiteral("--pods"), QStringLiteral("2")} +
                                         gpus8)
                                     << QStringLiteral("kueue-tas")
                                     << QStringList{QStringLiteral("ip-10-0-0-0"), QStringLiteral("ip-10-0-0-1")}
                                     << QStringLiteral("no topology found");
    }

    void everyTopologySourceAlone() {
        QFETCH(QStringList, args);
        QFETCH(QString, engine);
        QFETCH(QStringList, nodes);
        QFETCH(QString, text);
        const Run run = runCtl(QStringList{QStringLiteral("plan")} + args +
                               QStringList{QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject result = parseObject(run);
        QCOMPARE(result.value(QStringLiteral("engine")).toString(), engine);
        QCOMPARE(nodeNames(result), nodes);
        QVERIFY2(run.out.contains(text.toUtf8()) || run.err.contains(text.toUtf8()), run.out.constData());
    }

    // Without --slurm-version the Slurm engines follow the release the source says it runs, and say
    // which and why. The source: a Slurm snapshot directory of 24.05's replies (nodes.json's meta
    // says 24.05.3) with slurm-version.txt as given ("-": none), or a Kubernetes snapshot.
    void slurmRulesFollowTheSource_data() {
        QTest::addColumn<QStringList>("args"); // $DIR: the Slurm snapshot directory
        QTest::addColumn<QString>("recorded");
        QTest::addColumn<QString>("rules");
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("warning");
        const QStringList slurm = {QStringLiteral("-f"), QStringLiteral("$DIR"), QStringLiteral("--sbatch"),
                                   QStringLiteral("-N 1 --gres=gpu:4")};
        const QString snapshot = QStringLiteral("recorded in the snapshot");
        QTest::newRow("nodes.json's meta") << slurm << "-"
                                           << "24.05.3" << snapshot << "";
        QTest::newRow("slurm-version.txt") << slurm << "slurm-wlm 22.05.8"
                                           << "22.05.8" << snapshot << "";
        QTest::newRow("a release between the rule sets") << slurm << "slurm 23.11.10"
                                                         << "23.11.10" << snapshot << "";
        QTest::newRow("--slurm-version wins")
            << slurm + QStringList{QStringLiteral("--slurm-version"), QStringLiteral("26.05")} << "slurm-wlm 22.05.8"
            << "26.05.0"
            << "as --slurm-version asked"
            << "";
        QTest::newRow("unreadable")
            << slurm << "slurm-wlm banana"
            << "26.05.0"
            << "newest: \"slurm-wlm banana\", recorded in the snapshot, is not a version topodeck reads"
            << "Slurm version \"slurm-wlm banana\" (recorded in the snapshot) cannot be read: the "
               "Slurm engines follow the newest rules (26.05.0)";
        QTest::newRow("Kubernetes snapshot")
            << QStringList{QStringLiteral("-f"),        kCluster,
                           QStringLiteral("--engine"),  QStringLiteral("slurm-tree"),
                           QStringLiteral("--pods"),    QStringLiteral("2"),
                           QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8")}
            << "-"
            << "26.05.0"
            << "newest: the source does not say which Slurm it runs"
            << "";
    }

    void slurmRulesFollowTheSource() {
        QFETCH(QStringList, args);
        QFETCH(QString, recorded);
        QFETCH(QString, rules);
        QFETCH(QString, origin);
        QFETCH(QString, warning);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(kDataDir + QStringLiteral("/slurm/json/nodes-v0.0.41.json"),
                            dir.filePath(QStringLiteral("nodes.json"))));
        QVERIFY(QFile::copy(kDataDir + QStringLiteral("/slurm/json/jobs-v0.0.41.json"),
                            dir.filePath(QStringLiteral("jobs.json"))));
        QFile topology(dir.filePath(QStringLiteral("topology.conf")));
        QVERIFY(topology.open(QIODevice::WriteOnly));
        topology.write("SwitchName=leaf1 Nodes=gpu-[001-004]\nSwitchName=leaf2 Nodes=gpu-[005-008]\n"
                       "SwitchName=spine Switches=leaf[1-2]\n");
        topology.close();
        if (recorded != QLatin1String("-")) {
            QFile version(dir.filePath(QStringLiteral("slurm-version.txt")));
            QVERIFY(version.open(QIODevice::WriteOnly));
            version.write(recorded.toUtf8() + '\n');
        }
        args.replaceInStrings(QStringLiteral("$DIR"), dir.path());
        const Run run = runCtl(QStringList{QStringLiteral("plan")} + args +
                               QStringList{QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject result = parseObject(run);
        QCOMPARE(result.value(QStringLiteral("rulesVersion")).toString(), rules);
        QCOMPARE(result.value(QStringLiteral("rulesVersionOrigin")).toString(), origin);
        const QString note = result.value(QStringLiteral("notes")).toArray().first().toString();
        QVERIFY2(note.startsWith(QStringLiteral("Slurm %1 topology/tree rules (%2): ").arg(rules, origin)),
                 qPrintable(note));
        if (warning.isEmpty())
            QVERIFY2(!run.err.contains("Slurm version"), run.err.constData());
        else
            QVERIFY2(QString::fromUtf8(run.err).contains(warning), run.err.constData());
    }

    // A scheduler object with several kinds of pod is one gang, planned without --gang: every
    // part is placed, each pod named with its part. --gang NAME/PART plans one part alone.
    void schedulerObjectsAreOneGang_data() {
        QTest::addColumn<QString>("manifest");
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QStringList>("parts"); // part per pod, by node name
        // Kueue: the CPU-only master anywhere (LeastFreeCapacity: the first node), the workers in
        // one block (b1 has one free 8-GPU node per rack).
        QTest::newRow("PyTorchJob") << QStringLiteral("gangs/pytorchjob-block.yaml") << QStringLiteral("kueue-tas")
                                    << QStringList{QStringLiteral("master@b1-r1-n1"), QStringLiteral("worker@b1-r1-n3"),
                                                   QStringLiteral("worker@b1-r2-n2")};
        // Volcano: the whole job in one HyperNode of tier 2 or below (a block): b1 holds the ps
        // beside the two free 8-GPU nodes.
        QTest::newRow("Volcano Job") << QStringLiteral("gangs/volcano-multitask.yaml") << QStringLiteral("volcano")
                                     << QStringList{QStringLiteral("ps@b1-r1-n1"), QStringLiteral("worker@b1-r1-n3"),
                                                    QStringLiteral("worker@b1-r2-n2")};
        QTest::newRow("JobSet") << QStringLiteral("gangs/jobset-block.yaml") << QStringLiteral("kueue-tas")
                                << QStringList{QStringLiteral("driver@b1-r1-n1"), QStringLiteral("workers@b1-r1-n3"),
                                               QStringLiteral("workers@b1-r2-n2")};
    }

    void schedulerObjectsAreOneGang() {
        QFETCH(QString, manifest);
        QFETCH(QString, engine);
        QFETCH(QStringList, parts);
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--manifest"),
                                manifest, QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject result = parseObject(run);
        QCOMPARE(result.value(QStringLiteral("engine")).toString(), engine);
        QStringList placed;
        for (const QJsonValue& node : result.value(QStringLiteral("nodes")).toArray())
            for (int i = 0; i < node[QLatin1String("pods")].toInt(); ++i)
                placed << node[QLatin1String("part")].toString() + QLatin1Char('@') +
                              node[QLatin1String("name")].toString();
        QCOMPARE(placed, parts);
    }

    // A Slurm snapshot directory from another release (24.05, slurmrestd v0.0.41 replies, its
    // slurm-version.txt and topology.conf): planned under that release's rules, and shown.
    void slurmSnapshotOfAnotherRelease() {
        const QString dir = QStringLiteral("slurm/snapshot-24.05");
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), dir, QStringLiteral("--sbatch"),
                                QStringLiteral("-N 2"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject result = parseObject(run);
        QCOMPARE(result.value(QStringLiteral("rulesVersion")).toString(), QStringLiteral("24.05.3"));
        QCOMPARE(result.value(QStringLiteral("rulesVersionOrigin")).toString(), QStringLiteral("recorded in the snapshot"));
        const Run show = runCtl({QStringLiteral("show"), QStringLiteral("-f"), dir, QStringLiteral("--no-color")});
        QVERIFY2(show.exitCode == 0 && show.out.contains("spine › leaf"), show.out.constData());
    }

    // A heterogeneous gang placed first holds each part's own requests: after the PyTorchJob
    // (its two workers take b1's free 8-GPU nodes), a 2-pod 8-GPU gang no longer fits in b1.
    void whatIfAssumesEachPartsRequests() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--pods"),
                                QStringLiteral("2"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=8"),
                                QStringLiteral("--required"), QStringLiteral("block"), QStringLiteral("--then-place"),
                                QStringLiteral("gangs/pytorchjob-block.yaml"), QStringLiteral("-o"),
                                QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 3, run.err.constData());
        for (const QString& node : nodeNames(parseObject(run)))
            QVERIFY2(!node.startsWith(QStringLiteral("b1-")), qPrintable(node));
    }

    void gangPartAlone() {
        const Run run = runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--manifest"),
                                QStringLiteral("gangs/pytorchjob-block.yaml"), QStringLiteral("--gang"),
                                QStringLiteral("pt/master"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(nodeNames(parseObject(run)), QStringList{QStringLiteral("b1-r1-n1")});
        // A Slurm engine takes one shape per job: it says so, and how to plan a part.
        const Run slurm =
            runCtl({QStringLiteral("plan"), QStringLiteral("-f"), kCluster, QStringLiteral("--manifest"),
                    QStringLiteral("gangs/pytorchjob-block.yaml"), QStringLiteral("-e"), QStringLiteral("slurm-tree")});
        QCOMPARE(slurm.exitCode, 2);
        QVERIFY2(slurm.err.contains("pods of several kinds (master, worker)") && slurm.err.contains("--gang pt/PART"),
                 slurm.err.constData());
    }

    void compareOnTheDemoReadsWell() {
        const Run run =
            runCtl({QStringLiteral("plan"), QStringLiteral("--demo"), QStringLiteral("gb200"), QStringLiteral("--pods"),
                    QStringLiteral("16"), QStringLiteral("--request"), QStringLiteral("nvidia.com/gpu=4"),
                    QStringLiteral("--required"), QStringLiteral("rack"), QStringLiteral("--compare")});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 3, run.err.constData());
        for (const char* text : {"ENGINE", "kueue-tas", "volcano", "kai", "slurm-tree", "slurm-block",
                                 "Pods per domain", "What each scheduler would say"})
            QVERIFY2(run.out.contains(text), text);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestPlan)
#include "test_plan.moc"
