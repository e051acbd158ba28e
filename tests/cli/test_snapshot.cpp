// `topodeckctl snapshot` without a live cluster (the live ones are in the integration tests): a
// demo frozen to a file reads back to the same picture, bad flags are exit 2, a file that cannot
// be written is exit 1 and leaves nothing half written behind.
#include "ctl_runner.h"
#include "support/test_program.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

class TestSnapshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void demoReadsBackTheSame() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("h100.json"));
        const Run snapshot = runCtl({QStringLiteral("snapshot"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                     QStringLiteral("-o"), file});
        QVERIFY2(snapshot.exitCode == 0, snapshot.err.constData());
        QVERIFY2(snapshot.err.contains("128 nodes, ") && snapshot.err.contains(" written to "), snapshot.err.constData());
        // The demo's own hierarchy is not in the file: name it the same way on both sides.
        const QStringList common = {QStringLiteral("--levels"),
                                    QStringLiteral("cloud.google.com/gce-topology-block,cloud.google.com/gce-topology-subblock"),
                                    QStringLiteral("-o"), QStringLiteral("json")};
        const Run demo = runCtl(QStringList{QStringLiteral("show"), QStringLiteral("--demo"), QStringLiteral("h100")} + common);
        const Run back = runCtl(QStringList{QStringLiteral("show"), QStringLiteral("-f"), file} + common);
        QVERIFY2(demo.exitCode == 0 && back.exitCode == 0, QByteArray(demo.err + back.err).constData());
        QJsonObject a = QJsonDocument::fromJson(demo.out).object();
        QJsonObject b = QJsonDocument::fromJson(back.out).object();
        a.remove(QStringLiteral("source"));
        b.remove(QStringLiteral("source"));
        QVERIFY(!a.isEmpty());
        QCOMPARE(b, a);
    }

    void toStdout() {
        const Run run = runCtl({QStringLiteral("snapshot"), QStringLiteral("--demo"), QStringLiteral("gb200"),
                                QStringLiteral("-o"), QStringLiteral("-")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["));
        QVERIFY(!run.err.contains("written to"));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no output") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100")} << 2
                                   << QStringLiteral("snapshot needs -o FILE");
        QTest::newRow("two sources") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100"),
                                                    QStringLiteral("--context"), QStringLiteral("x"),
                                                    QStringLiteral("-o"), QStringLiteral("-")}
                                     << 2 << QStringLiteral("give one of --demo NAME, -f FILE, or a live cluster");
        QTest::newRow("argument") << QStringList{QStringLiteral("prod")} << 2 << QStringLiteral("takes only flags");
        QTest::newRow("cannot write") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100"), QStringLiteral("-o"),
                                                     QStringLiteral("/nonexistent/dir/h100.json")}
                                      << 1 << QStringLiteral("cannot write /nonexistent/dir/h100.json.tmp.");
    }

    void errors() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run run = runCtl(QStringList{QStringLiteral("snapshot")} + args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    }

    // The file is written beside the target and renamed: the old one stays whole until then,
    // and no temporary file is left.
    void replacesWholly() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("c.json"));
        QFile old(file);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        const Run run = runCtl({QStringLiteral("snapshot"), QStringLiteral("--demo"), QStringLiteral("h100"),
                                QStringLiteral("-o"), file});
        QCOMPARE(run.exitCode, 0);
        QFile now(file);
        QVERIFY(now.open(QIODevice::ReadOnly));
        QVERIFY(now.readAll().startsWith("{\"apiVersion\""));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("c.json")});
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestSnapshot)
#include "test_snapshot.moc"
