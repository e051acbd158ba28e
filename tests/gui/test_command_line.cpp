// The GUI's command line: what each flag sets, and clean errors for what makes no sense.
#include "app/gui/command_line.h"

#include <QTest>

using namespace topodeck;

class TestCommandLine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void gpuResources();
    void liveClusters_data();
    void liveClusters();
    void errors_data();
    void errors();
};

void TestCommandLine::parse_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("demo");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("levels");
    QTest::addColumn<bool>("simulate");
    QTest::addColumn<QString>("screenshot");
    QTest::addColumn<QString>("select");
    const QString gb200 = QStringLiteral("gb200");
    QTest::newRow("defaults") << QStringList{} << gb200 << QString() << QStringList{} << false << QString()
                              << QString();
    QTest::newRow("demo") << QStringList{QStringLiteral("--demo"), QStringLiteral("scale:4096")}
                          << QStringLiteral("scale:4096") << QString() << QStringList{} << false << QString()
                          << QString();
    QTest::newRow("file") << QStringList{QStringLiteral("-f"), QStringLiteral("c.yaml")} << QString()
                          << QStringLiteral("c.yaml") << QStringList{} << false << QString() << QString();
    QTest::newRow("bare file") << QStringList{QStringLiteral("c.json")} << QString() << QStringLiteral("c.json")
                               << QStringList{} << false << QString() << QString();
    QTest::newRow("levels") << QStringList{QStringLiteral("--levels"), QStringLiteral("a/block, a/rack")} << gb200
                            << QString() << QStringList{QStringLiteral("a/block"), QStringLiteral("a/rack")} << false
                            << QString() << QString();
    QTest::newRow("screenshot") << QStringList{QStringLiteral("--simulate"), QStringLiteral("--screenshot=x.png"),
                                               QStringLiteral("--select"), QStringLiteral("su-1")}
                                << gb200 << QString() << QStringList{} << true << QStringLiteral("x.png")
                                << QStringLiteral("su-1");
}

void TestCommandLine::parse() {
    QFETCH(QStringList, args);
    args.prepend(QStringLiteral("topodeck"));
    CommandLine commandLine;
    QCOMPARE(commandLine.parse(args), CommandLine::Outcome::Run);
    const LaunchOptions& o = commandLine.options();
    QTEST(o.demo, "demo");
    QTEST(o.file, "file");
    QTEST(o.levels, "levels");
    QTEST(o.simulate, "simulate");
    QTEST(o.screenshot, "screenshot");
    QTEST(o.select, "select");
}

void TestCommandLine::gpuResources() {
    CommandLine commandLine;
    QCOMPARE(commandLine.parse({QStringLiteral("topodeck"), QStringLiteral("--gpu-resources"),
                                QStringLiteral(" amd.com/gpu,nvidia.com/mig-* ")}),
             CommandLine::Outcome::Run);
    QCOMPARE(commandLine.options().gpuResources, QStringLiteral("amd.com/gpu,nvidia.com/mig-*"));
}

void TestCommandLine::liveClusters_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("contexts");
    QTest::addColumn<QString>("kubeconfig");
    QTest::addColumn<bool>("inCluster");
    const QString c = QStringLiteral("--context");
    QTest::newRow("one context") << QStringList{c, QStringLiteral("prod")} << QStringList{QStringLiteral("prod")}
                                 << QString() << false;
    QTest::newRow("one window per context")
        << QStringList{c, QStringLiteral("prod"), c, QStringLiteral("staging")}
        << QStringList{QStringLiteral("prod"), QStringLiteral("staging")} << QString() << false;
    // A kubeconfig alone means its current context: one window, an unnamed context.
    QTest::newRow("kubeconfig alone") << QStringList{QStringLiteral("--kubeconfig"), QStringLiteral("k.yaml")}
                                      << QStringList{QString()} << QStringLiteral("k.yaml") << false;
    QTest::newRow("in-cluster") << QStringList{QStringLiteral("--in-cluster")} << QStringList{} << QString() << true;
}

void TestCommandLine::liveClusters() {
    QFETCH(QStringList, args);
    args.prepend(QStringLiteral("topodeck"));
    CommandLine commandLine;
    QCOMPARE(commandLine.parse(args), CommandLine::Outcome::Run);
    const LaunchOptions& o = commandLine.options();
    QTEST(o.contexts, "contexts");
    QTEST(o.kubeconfig, "kubeconfig");
    QTEST(o.inCluster, "inCluster");
    QVERIFY(o.live());
    QVERIFY(o.demo.isEmpty()); // no demo behind a live cluster
}

void TestCommandLine::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--bogus")} << QStringLiteral("bogus");
    QTest::newRow("demo and file") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100"),
                                                  QStringLiteral("-f"), QStringLiteral("x.yaml")}
                                   << QStringLiteral("--file");
    QTest::newRow("empty level") << QStringList{QStringLiteral("--levels"), QStringLiteral("a,,b")}
                                 << QStringLiteral("a,,b");
    QTest::newRow("levels and topology") << QStringList{QStringLiteral("--levels"), QStringLiteral("a"),
                                                        QStringLiteral("--topology"), QStringLiteral("t")}
                                         << QStringLiteral("--topology");
    QTest::newRow("missing value") << QStringList{QStringLiteral("--demo")} << QStringLiteral("demo");
    QTest::newRow("two files") << QStringList{QStringLiteral("a.yaml"), QStringLiteral("b.yaml")}
                               << QStringLiteral("b.yaml");
    QTest::newRow("file twice") << QStringList{QStringLiteral("-f"), QStringLiteral("a.yaml"), QStringLiteral("b.yaml")}
                                << QStringLiteral("b.yaml");
    QTest::newRow("demo and bare file") << QStringList{QStringLiteral("--demo"), QStringLiteral("h100"),
                                                       QStringLiteral("b.yaml")}
                                        << QStringLiteral("--file");
    QTest::newRow("context and file") << QStringList{QStringLiteral("--context"), QStringLiteral("prod"),
                                                     QStringLiteral("-f"), QStringLiteral("x.yaml")}
                                      << QStringLiteral("--context");
    QTest::newRow("in-cluster and context") << QStringList{QStringLiteral("--in-cluster"), QStringLiteral("--context"),
                                                           QStringLiteral("prod")}
                                            << QStringLiteral("--in-cluster takes no --context");
    QTest::newRow("empty context") << QStringList{QStringLiteral("--context="), QStringLiteral("--kubeconfig=k")}
                                   << QStringLiteral("--context needs a name");
}

void TestCommandLine::errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    args.prepend(QStringLiteral("topodeck"));
    CommandLine commandLine;
    QCOMPARE(commandLine.parse(args), CommandLine::Outcome::Error);
    QVERIFY2(commandLine.message().contains(mentions), qPrintable(commandLine.message()));
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "test_command_line.moc"
