// An exported topology.conf loaded by a real slurmctld: 24 nodes labelled into 2 blocks of 3
// racks (one rack of 2 nodes, so hostlists have uneven ranges), exported with `topodeckctl export
// topology.conf --levels ...`, given to the Slurm fixture as its topology, and read back with
// `scontrol show topology`: Slurm must hold the same switches, each with the same nodes or
// children, as the file. Then topodeckctl, reading that live Slurm, must show the hierarchy the
// labels gave.
//
// Needs root, munge and the Slurm daemons (installer/install-deps.sh --tests); skipped without them
// unless TOPODECK_REQUIRE_SLURM=1 (CI).
#include "slurm_test_support.h"

#include "../show_shape.h"

#include "core/slurm/slurm_text.h"
#include "core/slurm/slurm_topology.h"
#include "support/test_program.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <map>
#include <set>

using namespace topodeck;

namespace {

// Rack of node i (1-based): r1..r6 of 4 nodes, but r3 has 2 and r4 has 6.
QString rackOf(int i) {
    if (i <= 8) return QStringLiteral("r%1").arg((i - 1) / 4 + 1);
    if (i <= 10) return QStringLiteral("r3");
    if (i <= 16) return QStringLiteral("r4");
    return QStringLiteral("r%1").arg((i - 17) / 4 + 5);
}
QString blockOf(int i) {
    return i <= 10 ? QStringLiteral("b1") : QStringLiteral("b2");
}

QByteArray nodesJson(int count) {
    QJsonArray items;
    for (int i = 1; i <= count; ++i) {
        const QString name = QStringLiteral("gpu-%1").arg(i, 3, 10, QLatin1Char('0'));
        QJsonObject labels{{QStringLiteral("kubernetes.io/hostname"), name},
                           {QStringLiteral("example.com/block"), blockOf(i)},
                           {QStringLiteral("example.com/rack"), rackOf(i)}};
        QJsonObject gpus{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("8")}};
        items.append(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                 {QStringLiteral("kind"), QStringLiteral("Node")},
                                 {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
                                 {QStringLiteral("status"), QJsonObject{{QStringLiteral("allocatable"), gpus}, {QStringLiteral("capacity"), gpus}}}});
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                     {QStringLiteral("kind"), QStringLiteral("List")},
                                     {QStringLiteral("items"), items}})
        .toJson();
}

// Switch name -> (its nodes, its child switches): what a topology says, order aside.
std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> shape(const SlurmTopology& topology) {
    std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> out;
    for (const SlurmSwitch& sw : topology.switches)
        out[sw.name] = {{sw.nodes.begin(), sw.nodes.end()}, {sw.switches.begin(), sw.switches.end()}};
    return out;
}


} // namespace

class TestSlurmExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exportedTopologyIsWhatSlurmLoads() {
        SLURMTEST_REQUIRE_SLURM();
        constexpr int kNodes = 24;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString nodes = dir.filePath(QStringLiteral("nodes.json"));
        {
            QFile file(nodes);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(nodesJson(kNodes));
        }
        const QString conf = dir.filePath(QStringLiteral("topology.conf"));
        const QStringList levels = {QStringLiteral("--levels"), QStringLiteral("example.com/block,example.com/rack")};
        const livetest::ProcessRun exported = livetest::runCtl(
            QStringList{QStringLiteral("export"), QStringLiteral("topology.conf"), QStringLiteral("-f"), nodes,
                        QStringLiteral("-o"), conf} +
            levels);
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.describe()));
        QFile confFile(conf);
        QVERIFY(confFile.open(QIODevice::ReadOnly));
        const QByteArray confText = confFile.readAll();
        Result<SlurmTopology> written = parseTopologyConf(confText.toStdString());
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QVERIFY2(written->switches.size() >= 8, confText.constData()); // 6 racks, 2 blocks (and a root)

        slurmtest::SlurmFixture cluster;
        const QString started = cluster.start({QStringLiteral("-T"), conf, QStringLiteral("-N"),
                                               QStringLiteral("gpu-[001-%1]").arg(kNodes, 3, 10, QLatin1Char('0'))});
        if (!started.isEmpty()) cluster.keep();
        QVERIFY2(started.isEmpty(), qPrintable(started));

        const livetest::ProcessRun scontrol =
            cluster.slurm(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("topology")});
        QVERIFY2(scontrol.exitCode == 0, qPrintable(scontrol.describe()));
        Result<SlurmTopology> loaded = parseScontrolTopology(scontrol.out.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        QVERIFY2(shape(*loaded) == shape(*written), qPrintable(QString::fromUtf8(confText + "\n--- scontrol:\n" + scontrol.out)));

        // topodeckctl reading the live Slurm shows the domains the labels gave.
        const livetest::ProcessRun fromLabels = livetest::runCtl(
            QStringList{QStringLiteral("show"), QStringLiteral("-f"), nodes, QStringLiteral("-o"), QStringLiteral("json")} + levels);
        QVERIFY2(fromLabels.exitCode == 0, qPrintable(fromLabels.describe()));
        const livetest::ProcessRun live = cluster.ctl({QStringLiteral("show"), QStringLiteral("--slurm"), QStringLiteral("cli"),
                                                       QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(live.exitCode == 0, qPrintable(live.describe()));
        QCOMPARE(showshape::domainSizes(live.out), showshape::domainSizes(fromLabels.out));
        QCOMPARE(showshape::domainSizes(live.out), (QList<int>{2, 4, 4, 4, 4, 6, 10, 14}));
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestSlurmExport)
#include "test_slurm_export.moc"
