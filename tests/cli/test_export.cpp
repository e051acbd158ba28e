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
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const ctl::Run run = runCtl(QStringList{QStringLiteral("export")} + args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
