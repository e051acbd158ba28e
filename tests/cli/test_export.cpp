// topodeckctl export: each format of a demo to stdout or a file, every format into a folder, and
// the files read back by topodeckctl itself (the HyperNodes as the hierarchy of the demo's nodes,
// topology.conf and topology.yaml as its Slurm topology) into the same domains; what a format
// cannot express is refused with why.

#include "ctl_runner.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include "../show_shape.h"
#include "support/test_program.h"

#include <QtTest>

using ctl::runCtl;

namespace {

QByteArray fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachFormatToStdout_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("kueue") << QStringLiteral("kueue") << QByteArray("kind: \"Topology\"");
        QTest::newRow("kai") << QStringLiteral("kai") << QByteArray("apiVersion: \"kai.scheduler/v1alpha1\"");
        QTest::newRow("hypernodes") << QStringLiteral("hypernodes") << QByteArray("kind: \"HyperNode\"");
        QTest::newRow("topology.conf") << QStringLiteral("topology.conf") << QByteArray("SwitchName=");
        QTest::newRow("topology.yaml") << QStringLiteral("topology.yaml") << QByteArray("cluster_default: true");
        QTest::newRow("labels") << QStringLiteral("labels") << QByteArray("kubectl label node gb200-su1-r01-n01 --overwrite");
    }
    void eachFormatToStdout() {
        QFETCH(QString, format);
        QFETCH(QByteArray, expected);
        const ctl::Run run = runCtl({QStringLiteral("export"), format, QStringLiteral("--demo"), QStringLiteral("gb200")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains(expected), run.out.left(600).constData());
    }

    // Every format into a folder; the HyperNodes and the Slurm files read back into the hierarchy
    // the demo has (domains of the same nodes).
    void allIntoAFolderReadsBack() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("review"));
        const ctl::Run run = runCtl({QStringLiteral("export"), QStringLiteral("all"), QStringLiteral("--demo"),
                                     QStringLiteral("gb200"), QStringLiteral("-o"), folder});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QStringList files = QDir(folder).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, (QStringList{QStringLiteral("hypernodes.yaml"), QStringLiteral("kai-topology.yaml"),
                                     QStringLiteral("kubectl-label.sh"), QStringLiteral("kueue-topology.yaml"),
                                     QStringLiteral("node-labels.yaml"), QStringLiteral("topology.conf"),
                                     QStringLiteral("topology.yaml")}));

        const ctl::Run demo = runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                      QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        const QList<int> expected = showshape::domainSizes(demo.out);
        QCOMPARE(expected.size(), 4 + 32); // four SUs of eight racks

        // The demo's nodes without their labels' hierarchy, with the exported HyperNodes.
        const QString snapshot = dir.filePath(QStringLiteral("nodes.json"));
        const ctl::Run saved = runCtl({QStringLiteral("snapshot"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                       QStringLiteral("-o"), snapshot});
        QVERIFY2(saved.exitCode == 0, saved.err.constData());
        const QString withTree = dir.filePath(QStringLiteral("with-hypernodes.yaml"));
        {
            QFile out(withTree);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(fileText(folder + QStringLiteral("/hypernodes.yaml")) + "---\n" + fileText(snapshot));
        }
        const ctl::Run hyperNodes = runCtl({QStringLiteral("show"), QStringLiteral("-f"), withTree, QStringLiteral("--topology"),
                                            QStringLiteral("hypernodes"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(hyperNodes.exitCode == 0, hyperNodes.err.constData());
        QCOMPARE(showshape::domainSizes(hyperNodes.out), expected);

        for (const char* file : {"topology.conf", "topology.yaml"}) {
            const ctl::Run slurm = runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                           QStringLiteral("--slurm-topology"), folder + QLatin1Char('/') + QLatin1String(file),
                                           QStringLiteral("--topology"), QStringLiteral("slurm"), QStringLiteral("-o"),
                                           QStringLiteral("json")});
            QVERIFY2(slurm.exitCode == 0, slurm.err.constData());
            QCOMPARE(showshape::domainSizes(slurm.out), expected);
        }
    }

    // A gang for each scheduler, read back by plan itself: the same verdict and the same nodes.
    void gangsPlanAsTheirFlags_data() {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("kueue job") << QStringLiteral("kueue-tas") << QString() << QByteArray("podset-required-topology");
        QTest::newRow("kai pytorchjob") << QStringLiteral("kai") << QStringLiteral("pytorchjob") << QByteArray("kai.scheduler/topology-required-placement");
        QTest::newRow("volcano") << QStringLiteral("volcano") << QString() << QByteArray("highestTierName: \"rack\"");
        QTest::newRow("slurm-tree") << QStringLiteral("slurm-tree") << QString() << QByteArray("#SBATCH --switches=1");
    }
    void gangsPlanAsTheirFlags() {
        QFETCH(QString, engine);
        QFETCH(QString, kind);
        QFETCH(QByteArray, expected);
        const QStringList gang = {QStringLiteral("--pods=12"), QStringLiteral("--request=nvidia.com/gpu=4"),
                                  QStringLiteral("--required=rack"), QStringLiteral("-e"), engine};
        const QStringList demo = {QStringLiteral("--demo=gb200")};
        QTemporaryDir dir;
        const QString manifest = dir.filePath(QStringLiteral("gang.yaml"));
        QStringList args = QStringList{QStringLiteral("export"), QStringLiteral("gang")} + demo + gang +
                           QStringList{QStringLiteral("-o"), manifest};
        if (!kind.isEmpty()) args << QStringLiteral("--kind") << kind;
        const ctl::Run exported = runCtl(args);
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY2(fileText(manifest).contains(expected), fileText(manifest).constData());
        auto plan = [&](const QStringList& request) {
            return runCtl(QStringList{QStringLiteral("plan")} + demo + request + QStringList{QStringLiteral("-o"), QStringLiteral("json")});
        };
        const ctl::Run asked = plan(gang);
        QVERIFY2(asked.exitCode == 0, asked.err.constData());
        const ctl::Run read = plan({QStringLiteral("--manifest"), manifest, QStringLiteral("-e"), engine});
        QVERIFY2(read.exitCode == 0, read.err.constData());
        const QJsonObject before = QJsonDocument::fromJson(asked.out).object();
        const QJsonObject after = QJsonDocument::fromJson(read.out).object();
        QCOMPARE(after.value(QLatin1String("feasible")), before.value(QLatin1String("feasible")));
        if (engine.startsWith(QLatin1String("slurm"))) return; // --switches=1 is Slurm's own phrasing of one rack
        QCOMPARE(after.value(QLatin1String("nodes")), before.value(QLatin1String("nodes")));
    }

    // The review bundle: a relabel planned with label, bundled with a gang, into a new
    // folder; a folder in use is refused.
    void aBundleOfAPlan() {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("move.yaml"));
        const ctl::Run labelled = runCtl({QStringLiteral("label"), QStringLiteral("--demo=gb200"), QStringLiteral("--domain"),
                                          QStringLiteral("su-1/rack-1-03"),
                                          QStringLiteral("fabric.topograph.run/tier-0=rack-1-02"), QStringLiteral("-o"), plan});
        QVERIFY2(labelled.exitCode == 0, labelled.err.constData());
        const QString folder = dir.filePath(QStringLiteral("review"));
        const QStringList args = {QStringLiteral("export"), QStringLiteral("bundle"), QStringLiteral("--demo=gb200"),
                                  QStringLiteral("--plan"), plan, QStringLiteral("--pods=8"),
                                  QStringLiteral("--request=nvidia.com/gpu=4"), QStringLiteral("--required=rack"),
                                  QStringLiteral("-o"), folder};
        const ctl::Run bundled = runCtl(args);
        QVERIFY2(bundled.exitCode == 0, bundled.err.constData());
        const QStringList files = QDir(folder).entryList(QDir::Files, QDir::Name);
        for (const char* name : {"README.md", "change-plan.yaml", "map-before.svg", "map-after.svg", "gang-kueue.yaml",
                                 "gang.sbatch", "hypernodes.yaml", "kubectl-label.sh"})
            QVERIFY2(files.contains(QLatin1String(name)), qPrintable(files.join(QLatin1Char(' '))));
        const QByteArray readme = fileText(folder + QStringLiteral("/README.md"));
        QVERIFY(readme.contains("18 label changes on 18 nodes"));
        QVERIFY(readme.contains("| kueue-tas | fits on 8 nodes"));
        // The bundle's plan is the plan: diff reads it as it reads the original.
        const ctl::Run diff = runCtl({QStringLiteral("diff"), QStringLiteral("-f"), folder + QStringLiteral("/change-plan.yaml"),
                                      QStringLiteral("--demo=gb200")});
        QCOMPARE(diff.exitCode, 1);
        QVERIFY2(diff.out.contains("18 nodes"), diff.out.constData());

        const ctl::Run again = runCtl(args);
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("is not empty"), again.err.constData());
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString demo = QStringLiteral("--demo=gb200");
        QTest::newRow("no format") << QStringList{demo} << QByteArray("name one FORMAT");
        QTest::newRow("unknown format") << QStringList{QStringLiteral("volcano"), demo} << QByteArray("unknown FORMAT \"volcano\"");
        QTest::newRow("all to stdout") << QStringList{QStringLiteral("all"), demo} << QByteArray("give -o FOLDER");
        QTest::newRow("old api") << QStringList{QStringLiteral("kueue"), demo, QStringLiteral("--api-version=v1alpha1")}
                                 << QByteArray("v1beta2 or v1beta1");
        QTest::newRow("bad flavor label") << QStringList{QStringLiteral("kueue"), demo, QStringLiteral("--flavor-labels=a")}
                                          << QByteArray("expected KEY=VALUE");
        QTest::newRow("gang without a gang") << QStringList{QStringLiteral("gang"), demo} << QByteArray("gang needs the gang");
        QTest::newRow("a gang for kueue's topology")
            << QStringList{QStringLiteral("kueue"), demo, QStringLiteral("--pods=2")} << QByteArray("goes with gang or bundle");
        QTest::newRow("unknown kind") << QStringList{QStringLiteral("gang"), demo, QStringLiteral("--pods=2"), QStringLiteral("--kind=deployment")}
                                      << QByteArray("--kind: want job, jobset");
        QTest::newRow("bundle to stdout") << QStringList{QStringLiteral("bundle"), demo} << QByteArray("give -o FOLDER");
        QTest::newRow("plan with a topology")
            << QStringList{QStringLiteral("kai"), demo, QStringLiteral("--plan=p.yaml")} << QByteArray("--plan goes with");
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("export")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
