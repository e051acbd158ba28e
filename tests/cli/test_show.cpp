// `topodeckctl show` end to end: golden output, JSON consistency, colour, errors and --watch.
// Regenerate the golden files with TOPODECK_UPDATE_GOLDEN=1 after an intended change, then read
// the diff: it is what operators see.

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "ctl_runner.h"
#include "support/test_program.h"

namespace {

const QStringList kAdditiveFields = {
    QStringLiteral("gpus_total"),       QStringLiteral("gpus_used"),         QStringLiteral("gpus_free"),
    QStringLiteral("gpus_unavailable"), QStringLiteral("gpus_fragmented"),   QStringLiteral("nodes_total"),
    QStringLiteral("nodes_ready"),      QStringLiteral("nodes_schedulable"), QStringLiteral("nodes_not_ready"),
    QStringLiteral("nodes_cordoned"),   QStringLiteral("nodes_free"),        QStringLiteral("pods"),
};

// Every domain's totals are the sums over its children, and its largest free block their maximum.
// Returns the number of domains checked, or -1 after reporting a mismatch.
int checkTotals(const QJsonObject& domain, const QString& path) {
    const QJsonArray children = domain.value(QStringLiteral("children")).toArray();
    for (const QString& field : kAdditiveFields) {
        if (!domain.value(field).isDouble()) {
            qWarning("%s: field %s missing", qPrintable(path), qPrintable(field));
            return -1;
        }
    }
    const auto value = [&](const QString& field) { return domain.value(field).toInteger(); };
    if (value(QStringLiteral("gpus_used")) + value(QStringLiteral("gpus_free")) +
            value(QStringLiteral("gpus_unavailable")) !=
        value(QStringLiteral("gpus_total"))) {
        qWarning("%s: used + free + unavailable != total", qPrintable(path));
        return -1;
    }
    if (children.isEmpty()) return 1;

    int checked = 1;
    qint64 maxFree = 0;
    QHash<QString, qint64> sums;
    for (const QJsonValue& childValue : children) {
        const QJsonObject child = childValue.toObject();
        const QString childPath = path + QLatin1Char('/') + child.value(QStringLiteral("name")).toString();
        if (child.value(QStringLiteral("level")).toString().isEmpty()) {
            qWarning("%s: no level", qPrintable(childPath));
            return -1;
        }
        const int below = checkTotals(child, childPath);
        if (below < 0) return -1;
        checked += below;
        for (const QString& field : kAdditiveFields) sums[field] += child.value(field).toInteger();
        maxFree = std::max(maxFree, child.value(QStringLiteral("max_free_gpus_on_node")).toInteger());
    }
    for (const QString& field : kAdditiveFields) {
        if (sums[field] != value(field)) {
            qWarning("%s: %s is %lld, children sum to %lld", qPrintable(path), qPrintable(field),
                     static_cast<long long>(value(field)), static_cast<long long>(sums[field]));
            return -1;
        }
    }
    if (maxFree != value(QStringLiteral("max_free_gpus_on_node"))) {
        qWarning("%s: max_free_gpus_on_node is not the children's maximum", qPrintable(path));
        return -1;
    }
    return checked;
}

} // namespace

class TestShow : public QObject {
    Q_OBJECT

private Q_SLOTS:

    // Each topology source alone, and none: exit 0, the hierarchy named, nothing refused.
    void everyTopologySourceAlone_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("texts");
        const QString f = QStringLiteral("-f");
        QTest::newRow("HyperNodes") << QStringList{f, QStringLiteral("volcano/hypernodes-only.yaml")}
                                    << QStringList{QStringLiteral("core › spine › leaf  (Volcano HyperNodes)"),
                                                   QStringLiteral("└─ leaf s7"), QStringLiteral("(no core)")};
        QTest::newRow("topology.conf") << QStringList{f, QStringLiteral("plan/nodes-unlabelled.yaml"),
                                                      QStringLiteral("--slurm-topology"),
                                                      QStringLiteral("slurm/tree.conf")}
                                       << QStringList{QStringLiteral("(Slurm topology \"default\")"),
                                                      QStringLiteral("└─ leaf3")};
        QTest::newRow("blocks") << QStringList{f, QStringLiteral("plan/nodes-gb-unlabelled.yaml"),
                                               QStringLiteral("--slurm-topology"), QStringLiteral("slurm/block.conf")}
                                << QStringList{QStringLiteral("block-x2 › block"), QStringLiteral("b[3-4]")};
        QTest::newRow("no topology, node groups")
            << QStringList{f, QStringLiteral("plan/nodes-nodegroups.yaml")}
            << QStringList{QStringLiteral("Notice:   no topology found"), QStringLiteral("nodegroup gpu-b")};
        // What `kubectl get nodes,pods -A -o json` prints for a cluster with no nodes yet.
        QTest::newRow("empty cluster") << QStringList{f, QStringLiteral("plan/empty-cluster.json")}
                                       << QStringList{QStringLiteral("Notice:   the cluster has no nodes")};
    }

    void everyTopologySourceAlone() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, texts);
        const Run run = runCtl(QStringList{QStringLiteral("show"), QStringLiteral("--no-color")} + args);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (const QString& text : texts) QVERIFY2(run.out.contains(text.toUtf8()), run.out.constData());
    }
    void golden_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("goldenFile");
        const auto row = [](const char* name, QStringList args, const char* file) {
            QTest::newRow(name) << args << QString::fromLatin1(file);
        };
        row("h100 table",
            {QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("h100"), QStringLiteral("--no-color")},
            "show-h100.txt");
        row("h100 json",
            {QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("h100"), QStringLiteral("-o"),
             QStringLiteral("json")},
            "show-h100.json");
        row("gb200 depth 1",
            {QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"), QStringLiteral("--depth"),
             QStringLiteral("1")},
            "show-gb200-depth1.txt");
        row("file table",
            {QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-small.yaml"),
             QStringLiteral("--no-color")},
            "show-small.txt");
        row("file nodes",
            {QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-small.yaml"),
             QStringLiteral("--nodes")},
            "show-small-nodes.txt");
        row("file json nodes",
            {QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-small.yaml"), QStringLiteral("-ojson"),
             QStringLiteral("--nodes")},
            "show-small-nodes.json");
    }

    void golden() {
        QFETCH(QStringList, args);
        QFETCH(QString, goldenFile);
        const Run run = runCtl(args);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.out.contains('\x1b'), "colour codes although stdout is not a terminal");

        const QString path = kDataDir + QStringLiteral("/golden/") + goldenFile;
        if (qEnvironmentVariableIntValue("TOPODECK_UPDATE_GOLDEN") == 1) {
            QFile file(path);
            QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(file.errorString()));
            file.write(run.out);
            qInfo("updated %s", qPrintable(path));
            return;
        }
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly),
                 qPrintable(path + QStringLiteral(": ") + file.errorString() +
                            QStringLiteral(" (run with TOPODECK_UPDATE_GOLDEN=1 to create it)")));
        const QByteArray expected = file.readAll();
        QVERIFY2(run.out == expected, qPrintable(firstDifference(run.out, expected)));
    }

    void jsonTotalsAddUp_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("minDomains");
        QTest::newRow("h100") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100")} << 1 + 4 + 16;
        QTest::newRow("gb200") << QStringList{QStringLiteral("--demo"), QStringLiteral("gb200")} << 1 + 4 + 32;
        QTest::newRow("scale:4096") << QStringList{QStringLiteral("--demo"), QStringLiteral("scale:4096")} << 2;
        QTest::newRow("file") << QStringList{QStringLiteral("-f"), QStringLiteral("show-small.yaml")} << 1 + 3 + 4;
    }

    void jsonTotalsAddUp() {
        QFETCH(QStringList, args);
        QFETCH(int, minDomains);
        const Run run =
            runCtl(QStringList{QStringLiteral("show"), QStringLiteral("-o"), QStringLiteral("json")} + args);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject root = document.object();
        QVERIFY(root.value(QStringLiteral("source")).isString());
        const QJsonObject topology = root.value(QStringLiteral("topology")).toObject();
        QVERIFY(!topology.value(QStringLiteral("levels")).toArray().isEmpty());
        for (const QJsonValue& level : topology.value(QStringLiteral("levels")).toArray()) {
            QVERIFY(!level.toObject().value(QStringLiteral("name")).toString().isEmpty());
            QVERIFY(!level.toObject().value(QStringLiteral("nodeLabel")).toString().isEmpty());
        }
        QVERIFY(root.value(QStringLiteral("gpus_total")).toInteger() > 0);
        const int domains = checkTotals(root, QStringLiteral("cluster"));
        QVERIFY2(domains >= minDomains, qPrintable(QStringLiteral("%1 domains checked").arg(domains)));

        // Keys come in the documented order, so diffs of saved outputs stay readable.
        qsizetype previous = -1;
        for (const char* key :
             {"\"source\"", "\"topology\"", "\"gpus_total\"", "\"gpus_used\"", "\"gpus_free\"", "\"nodes_total\"",
              "\"nodes_ready\"", "\"pods\"", "\"max_free_gpus_on_node\"", "\"children\""}) {
            const qsizetype at = run.out.indexOf(key);
            QVERIFY2(at > previous, key);
            previous = at;
        }
    }

    void colour_data() {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("noColorEnv");
        QTest::addColumn<bool>("coloured");
        QTest::newRow("--color") << QStringList{QStringLiteral("--color")} << false << true;
        QTest::newRow("--color beats NO_COLOR") << QStringList{QStringLiteral("--color")} << true << true;
        QTest::newRow("--no-color") << QStringList{QStringLiteral("--no-color")} << false << false;
        QTest::newRow("not a terminal") << QStringList{} << false << false;
    }

    void colour() {
        QFETCH(QStringList, flags);
        QFETCH(bool, noColorEnv);
        QFETCH(bool, coloured);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("NO_COLOR"));
        if (noColorEnv) env.insert(QStringLiteral("NO_COLOR"), QStringLiteral("1"));
        const Run run = runCtl(
            QStringList{QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200")} + flags, {}, &env);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out.contains("\x1b["), coloured);
        if (coloured) {
            QVERIFY(run.out.contains("\x1b[0m"));
            // Without the escape codes it is the plain table.
            QByteArray plain = run.out;
            static const QRegularExpression sgr(QStringLiteral("\x1b\\[[0-9;]*m"));
            const QString stripped = QString::fromUtf8(plain).remove(sgr);
            const Run uncoloured = runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                           QStringLiteral("--no-color")});
            QCOMPARE(stripped, QString::fromUtf8(uncoloured.out));
        }
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, std::initializer_list<const char*> args, const char* message) {
            QStringList list;
            for (const char* arg : args) list << QString::fromUtf8(arg);
            QTest::newRow(name) << list << QString::fromUtf8(message);
        };
        row("no command", {}, "");
        row("unknown command", {"frobnicate"}, "unknown command \"frobnicate\"");
        row("unknown flag", {"show", "--demo", "h100", "--colour"}, "unknown flag --colour");
        row("unknown short flag", {"show", "-x"}, "unknown flag -x");
        row("flag without value", {"show", "--demo"}, "flag --demo needs a value");
        row("no source", {"show"}, "give one of --demo NAME, -f FILE, or a live cluster");
        row("two sources", {"show", "--demo", "h100", "-f", "x.yaml"}, "give one of --demo NAME, -f FILE, or a live cluster");
        row("unknown demo", {"show", "--demo", "a100"}, "a100");
        row("bad output", {"show", "--demo", "h100", "-o", "yaml"}, "unsupported output format \"yaml\"");
        row("bad depth", {"show", "--demo", "h100", "--depth", "two"}, "--depth wants a whole number");
        row("negative depth", {"show", "--demo", "h100", "--depth", "-1"}, "--depth wants a whole number");
        row("ticks without watch", {"show", "--demo", "h100", "--ticks", "3"}, "--ticks only applies with --watch");
        row("bad interval", {"show", "--demo", "h100", "--watch", "--interval", "soon"}, "--interval wants seconds");
        row("both colour flags", {"show", "--demo", "h100", "--color", "--no-color"}, "either --color or --no-color");
        row("missing file", {"show", "-f", "no-such-file.yaml"}, "no-such-file.yaml");
        row("malformed file", {"show", "-f", "show-bad-quantity.yaml"}, "gpu-1");
        row("stray argument", {"show", "--demo", "h100", "racks"}, "unexpected argument \"racks\"");
    }

    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = runCtl(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.isEmpty(), run.out.constData());
        const QString err = QString::fromUtf8(run.err);
        if (args.isEmpty()) {
            QVERIFY2(err.contains(QStringLiteral("Usage:")), qPrintable(err));
            return;
        }
        QVERIFY2(err.startsWith(QStringLiteral("topodeckctl: error: ")), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1); // one line, not a usage dump
    }

    void malformedFileNamesTheField() {
        const Run run =
            runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-bad-quantity.yaml")});
        QCOMPARE(run.exitCode, 2);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains(QStringLiteral("nvidia.com/gpu")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("eight")), qPrintable(err));
    }

    // A file that is just ",": yaml-cpp 0.7 loops on it; topodeckctl names the file and place.
    void loopingYamlIsRefused() {
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("fuzz-regressions/yaml-loops/comma.yaml")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith("topodeckctl: error: fuzz-regressions/yaml-loops/comma.yaml:1:1: invalid YAML: "), run.err.constData());
    }

    // No escape sequence from a file reaches the terminal: a label holding one is refused, and
    // the message shows it escaped.
    void escapeSequencesNeverReachTheTerminal() {
        const QByteArray json = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\","
                                "\"metadata\":{\"name\":\"gpu-1\",\"labels\":{\"rack\":\"r1\\u001b]0;owned\\u0007\\u001b[2J\"}}}]}";
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("-")}, json);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(!run.err.contains('\x1b') && !run.err.contains('\x07'));
        QVERIFY2(run.err.contains("metadata.labels[\"rack\"]: the value holds a control character at byte 3: "
                                  "\"r1\\x1b]0;owned\\x07\\x1b[2J\""),
                 run.err.constData());
    }

    void stdinInput() {
        QFile file(kDataDir + QStringLiteral("/show-small.yaml"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Run fromStdin = runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("-"),
                                      QStringLiteral("-o"), QStringLiteral("json")},
                                     file.readAll());
        QVERIFY2(fromStdin.exitCode == 0, fromStdin.err.constData());
        const Run fromFile = runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-small.yaml"),
                                     QStringLiteral("-o"), QStringLiteral("json")});
        QJsonObject a = QJsonDocument::fromJson(fromStdin.out).object();
        QJsonObject b = QJsonDocument::fromJson(fromFile.out).object();
        QCOMPARE(a.value(QStringLiteral("source")).toString(), QStringLiteral("stdin"));
        a.remove(QStringLiteral("source"));
        b.remove(QStringLiteral("source"));
        QCOMPARE(a, b);
    }

    void jsonEscapesStrings() {
        // The source is the path as given: quotes, control characters and UTF-8 must survive.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("we\"ird\tname \u00fc.yaml"));
        QVERIFY(QFile::copy(kDataDir + QStringLiteral("/show-small.yaml"), path));
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("-f"), path, QStringLiteral("-o"),
                                QStringLiteral("json"), QStringLiteral("--depth"), QStringLiteral("0")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(document.object().value(QStringLiteral("source")).toString(), path);
    }

    void depthZeroIsTotalsOnly() {
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                QStringLiteral("--depth"), QStringLiteral("0")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(run.out.contains("\ncluster "));
        QVERIFY(!run.out.contains("├─"));
        QVERIFY(!run.out.contains("└─"));
        const Run json =
            runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                    QStringLiteral("--depth"), QStringLiteral("0"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY(QJsonDocument::fromJson(json.out).object().value(QStringLiteral("children")).toArray().isEmpty());
    }

    void levelsFlagOverridesTheTopology() {
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("-f"), QStringLiteral("show-small.yaml"),
                                QStringLiteral("--levels"), QStringLiteral("topology.example.com/rack"),
                                QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonArray levels =
            root.value(QStringLiteral("topology")).toObject().value(QStringLiteral("levels")).toArray();
        QCOMPARE(levels.size(), 1);
        QCOMPARE(levels.first().toObject().value(QStringLiteral("nodeLabel")).toString(),
                 QStringLiteral("topology.example.com/rack"));
        QVERIFY(checkTotals(root, QStringLiteral("cluster")) > 0);
    }

    void watchPrintsFrames() {
        const Run run = runCtl({QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                QStringLiteral("--watch"), QStringLiteral("--ticks"), QStringLiteral("3"),
                                QStringLiteral("--interval"), QStringLiteral("0.05")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out.count("Source:"), 3);
        QVERIFY(run.out.contains("update 3 of 3"));
        QVERIFY2(!run.out.contains('\x1b'), "no screen control codes when stdout is not a terminal");
    }

    void help_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << QStringLiteral("Commands:");
        QTest::newRow("help show") << QStringList{QStringLiteral("help"), QStringLiteral("show")}
                                   << QStringLiteral("--levels KEYS");
        QTest::newRow("show --help") << QStringList{QStringLiteral("show"), QStringLiteral("--help")}
                                     << QStringLiteral("--gpu-resources NAMES");
        QTest::newRow("show -h") << QStringList{QStringLiteral("show"), QStringLiteral("-h")}
                                 << QStringLiteral("--watch");
        QTest::newRow("version") << QStringList{QStringLiteral("version")} << QStringLiteral("topodeckctl ");
    }

    void help() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run run = runCtl(args);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(QString::fromUtf8(run.out).contains(expected), run.out.constData());
        QVERIFY(run.err.isEmpty());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestShow)
#include "test_show.moc"
