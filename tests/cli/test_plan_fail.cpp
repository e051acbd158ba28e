// `topodeckctl plan --fail`: the running gangs a failed rack breaks on the gb200 demo, and whether
// each would fit again, in the table and in -o json.

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include "ctl_runner.h"
#include "support/test_program.h"

using namespace ctl;

namespace {

// rack-1-02 is full of running gangs in the demo (see `topodeckctl show --demo gb200`).
const QString kRack = QStringLiteral("su-1/rack-1-02");

QStringList planArgs(const QStringList& extra) {
    return QStringList{QStringLiteral("plan"),
                       QStringLiteral("--demo"),
                       QStringLiteral("gb200"),
                       QStringLiteral("--pods"),
                       QStringLiteral("2"),
                       QStringLiteral("--request"),
                       QStringLiteral("nvidia.com/gpu=4"),
                       QStringLiteral("--fail"),
                       kRack} +
           extra;
}

} // namespace

class TestPlanFail : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void failingARackListsTheGangsItBreaks() {
        const Run json = runCtl(planArgs({QStringLiteral("-o"), QStringLiteral("json")}));
        QCOMPARE(json.exitCode, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value(QStringLiteral("failedNodes")).toArray().size(), 18);
        const QJsonArray failures = object.value(QStringLiteral("failures")).toArray();
        QVERIFY2(!failures.isEmpty(), json.out.constData());

        // Every gang it names runs on the demo, as `gangs` lists them.
        const Run gangs = runCtl({QStringLiteral("gangs"), QStringLiteral("--demo"), QStringLiteral("gb200")});
        QCOMPARE(gangs.exitCode, 0);
        for (const QJsonValue& value : failures) {
            const QJsonObject failure = value.toObject();
            const QString gang = failure.value(QStringLiteral("gang")).toString();
            QVERIFY2(gangs.out.contains(gang.toUtf8()), qPrintable(gang));
            QVERIFY(!failure.value(QStringLiteral("kind")).toString().isEmpty());
            QVERIFY(!failure.value(QStringLiteral("engine")).toString().isEmpty());
            const int lost = failure.value(QStringLiteral("lostPods")).toInt();
            QVERIFY(lost > 0 && lost <= failure.value(QStringLiteral("pods")).toInt());
            QVERIFY(failure.value(QStringLiteral("fits")).isBool());
            QVERIFY(failure.contains(QStringLiteral("message")));
            // A gang that fits again does so off the failed rack.
            for (const QJsonValue& node : failure.value(QStringLiteral("nodes")).toArray())
                QVERIFY(!node[QLatin1String("name")].toString().startsWith(QLatin1String("gb200-su1-r02-")));
        }

        // The gang asked about avoids the failed rack too.
        for (const QJsonValue& node : object.value(QStringLiteral("nodes")).toArray())
            QVERIFY(!node[QLatin1String("name")].toString().startsWith(QLatin1String("gb200-su1-r02-")));
    }

    void theTableSaysWhatFailed() {
        const Run table = runCtl(planArgs({}));
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("What-if: failed su-1/rack-1-02 (18 nodes)"), table.out.constData());
        QVERIFY2(table.out.contains("running gang"), table.out.constData());
        QVERIFY2(table.out.contains("fits again now") || table.out.contains("does not fit again now"),
                 table.out.constData());
    }

    void anUnknownTargetIsBadInput() {
        const Run run = runCtl(planArgs({QStringLiteral("--fail"), QStringLiteral("no-such-rack")}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--fail no-such-rack"), run.err.constData());
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestPlanFail)
#include "test_plan_fail.moc"
