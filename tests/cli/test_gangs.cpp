// topodeckctl gangs: the table (against a golden file), the JSON, the demo, and usage errors.

#include "ctl_runner.h"
#include "support/test_program.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest>

using ctl::runCtl;

namespace {

const QStringList kSmall = {QStringLiteral("gangs"), QStringLiteral("-f"), QStringLiteral("gangs-report.yaml"),
                            QStringLiteral("--levels"), QStringLiteral("example.com/block,example.com/rack")};

QByteArray golden(const QString& name) {
    QFile file(ctl::kDataDir + QStringLiteral("/golden/") + name);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.readAll();
}

} // namespace

class TestGangs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void table();
    void json();
    void demoTable();
    void demoJsonIsSortedWidestFirst();
    void limit();
    void usageErrors_data();
    void usageErrors();
    void listedInHelp();
};

void TestGangs::table() {
    const ctl::Run run = runCtl(kSmall);
    QCOMPARE(run.exitCode, 0);
    const QByteArray expected = golden(QStringLiteral("gangs-report.txt"));
    QVERIFY(!expected.isEmpty());
    QVERIFY2(run.out == expected, qPrintable(ctl::firstDifference(run.out, expected)));
}

void TestGangs::json() {
    const ctl::Run run = runCtl(kSmall + QStringList{QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isArray());
    const QJsonArray gangs = doc.array();
    QCOMPARE(gangs.size(), 2); // web holds no GPUs
    const QJsonObject trainer = gangs[0].toObject();
    QCOMPARE(trainer[QStringLiteral("name")].toString(), QStringLiteral("ml/trainer"));
    QCOMPARE(trainer[QStringLiteral("kind")].toString(), QStringLiteral("JobSet"));
    QCOMPARE(trainer[QStringLiteral("pods")].toInt(), 2);
    QCOMPARE(trainer[QStringLiteral("gpus")].toInt(), 8);
    const QJsonArray levels = trainer[QStringLiteral("levels")].toArray();
    QCOMPARE(levels.size(), 2);
    QCOMPARE(levels[1].toObject()[QStringLiteral("level")].toString(), QStringLiteral("rack"));
    QCOMPARE(levels[1].toObject()[QStringLiteral("spans")].toInt(), 2);
    QCOMPARE(levels[1].toObject()[QStringLiteral("least")].toInt(), 1);
    QCOMPARE(gangs[1].toObject()[QStringLiteral("name")].toString(), QStringLiteral("ml/eval"));
    QCOMPARE(gangs[1].toObject()[QStringLiteral("kind")].toString(), QStringLiteral("Job"));
}

void TestGangs::demoTable() {
    const ctl::Run run = runCtl({QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("gb200")});
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(QStringLiteral("NAME")) && out.contains(QStringLiteral("  SU  RACK  NVLINK")), qPrintable(out.left(800)));
    QVERIFY(out.contains(QStringLiteral("Kueue Workload")));
    QVERIFY(out.contains(QStringLiteral("*")));
}

void TestGangs::demoJsonIsSortedWidestFirst() {
    const ctl::Run run = runCtl({QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                 QStringLiteral("-o"), QStringLiteral("json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonArray gangs = QJsonDocument::fromJson(run.out).array();
    QVERIFY(gangs.size() > 10);
    // Excess at the top level never grows down the list.
    int previous = 1 << 30;
    for (const QJsonValue& gang : gangs) {
        const QJsonObject top = gang.toObject()[QStringLiteral("levels")].toArray()[0].toObject();
        const int excess = top[QStringLiteral("spans")].toInt() - top[QStringLiteral("least")].toInt();
        QVERIFY(excess >= 0);
        QVERIFY(excess <= previous);
        previous = excess;
    }
}

void TestGangs::limit() {
    const ctl::Run run = runCtl(kSmall + QStringList{QStringLiteral("--limit"), QStringLiteral("1")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("ml/trainer"));
    QVERIFY(!run.out.contains("ml/eval"));
    QVERIFY(run.out.contains("... and 1 more (--limit)"));
}

void TestGangs::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no source") << QStringList{QStringLiteral("gangs")} << 2 << QStringLiteral("error:");
    QTest::newRow("bad limit") << QStringList{QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                              QStringLiteral("--limit"), QStringLiteral("0")}
                               << 2 << QStringLiteral("--limit");
    QTest::newRow("bad output") << QStringList{QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                               QStringLiteral("-o"), QStringLiteral("xml")}
                                << 2 << QStringLiteral("error:");
    QTest::newRow("missing file") << QStringList{QStringLiteral("gangs"), QStringLiteral("-f"), QStringLiteral("nope.yaml")}
                                  << 2 << QStringLiteral("nope.yaml");
    QTest::newRow("unknown level") << QStringList{QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                                  QStringLiteral("--topology"), QStringLiteral("nope")}
                                   << 2 << QStringLiteral("nope");
}

void TestGangs::usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const ctl::Run run = runCtl(args);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

void TestGangs::listedInHelp() {
    const ctl::Run run = runCtl({QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("  gangs "));
    const ctl::Run help = runCtl({QStringLiteral("gangs"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("--limit"));
    QVERIFY(help.out.contains("--context"));
}

TOPODECK_TEST_GUILESS_MAIN(TestGangs)
#include "test_gangs.moc"
