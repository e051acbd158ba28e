// The GUI's command line: what each flag sets, and clean errors for what makes no sense.
#include "app/gui/command_line.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;

class TestCommandLine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void gpuResources();
    void topologyFileBesideSnapshot();
    void liveClusters_data();
    void liveClusters();
    void slurm_data();
    void slurm();
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
    CommandLine classes;
    QCOMPARE(classes.parse({QStringLiteral("topodeck"), QStringLiteral("--gpu-classes"),
                            QStringLiteral("gpu.nvidia.com,mig.nvidia.com")}),
             CommandLine::Outcome::Run);
    QCOMPARE(classes.options().gpuClasses, QStringLiteral("gpu.nvidia.com,mig.nvidia.com"));
    CommandLine none;
    QCOMPARE(none.parse({QStringLiteral("topodeck"), QStringLiteral("--gpu-classes"), QStringLiteral(" , ")}),
             CommandLine::Outcome::Error);
    QVERIFY2(none.message().contains(QStringLiteral("--gpu-classes needs at least one DeviceClass name")),
             qPrintable(none.message()));
}

// A node list without topology labels, with the topology.conf that places its nodes.
void TestCommandLine::topologyFileBesideSnapshot() {
    CommandLine commandLine;
    QCOMPARE(commandLine.parse({QStringLiteral("topodeck"), QStringLiteral("-f"), QStringLiteral("nodes.json"),
                                QStringLiteral("--slurm-topology"), QStringLiteral("topology.conf")}),
             CommandLine::Outcome::Run);
    QCOMPARE(commandLine.options().file, QStringLiteral("nodes.json"));
    QCOMPARE(commandLine.options().slurmTopologyFile, QStringLiteral("topology.conf"));
    QVERIFY(!commandLine.options().slurm);
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

void TestCommandLine::slurm_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("rest");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("tokenFile");
    QTest::addColumn<QString>("userName");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<QString>("slurmConf");
    QTest::addColumn<QString>("topologyFile");
    QTest::addColumn<int>("pollMs");
    const QString s = QStringLiteral("--slurm");
    QTest::newRow("cli") << QStringList{s, QStringLiteral("cli")} << false << QString() << QString() << QString()
                         << QString() << QString() << QString() << 5000;
    QTest::newRow("cli with conf and topology")
        << QStringList{s,
                       QStringLiteral("cli"),
                       QStringLiteral("--slurm-conf"),
                       QStringLiteral("/etc/slurm/a.conf"),
                       QStringLiteral("--slurm-topology=/etc/slurm/topology.yaml"),
                       QStringLiteral("--poll"),
                       QStringLiteral("2.5")}
        << false << QString() << QString() << QString() << QString() << QStringLiteral("/etc/slurm/a.conf")
        << QStringLiteral("/etc/slurm/topology.yaml") << 2500;
    QTest::newRow("slurmrestd with token, user, api")
        << QStringList{s,
                       QStringLiteral("http://slurm-ctl:6820"),
                       QStringLiteral("--slurm-token-file"),
                       QStringLiteral("/run/jwt"),
                       QStringLiteral("--slurm-user"),
                       QStringLiteral("alice"),
                       QStringLiteral("--slurm-api"),
                       QStringLiteral("v0.0.38"),
                       QStringLiteral("--poll"),
                       QStringLiteral("10s")}
        << true << QStringLiteral("http://slurm-ctl:6820") << QStringLiteral("/run/jwt") << QStringLiteral("alice")
        << QStringLiteral("v0.0.38") << QString() << QString() << 10000;
    QTest::newRow("https") << QStringList{s, QStringLiteral("https://slurm.example/api")} << true
                           << QStringLiteral("https://slurm.example/api") << QString() << QString() << QString()
                           << QString() << QString() << 5000;
    QTest::newRow("unix socket") << QStringList{s, QStringLiteral("unix:/run/slurmrestd/slurmrestd.sock"),
                                                QStringLiteral("--slurm-topology"), QStringLiteral("topology.conf")}
                                 << true << QStringLiteral("unix:/run/slurmrestd/slurmrestd.sock") << QString()
                                 << QString() << QString() << QString() << QStringLiteral("topology.conf") << 5000;
}

void TestCommandLine::slurm() {
    QFETCH(QStringList, args);
    args.prepend(QStringLiteral("topodeck"));
    CommandLine commandLine;
    QCOMPARE(commandLine.parse(args), CommandLine::Outcome::Run);
    const LaunchOptions& o = commandLine.options();
    QVERIFY(o.slurm.has_value());
    QVERIFY(o.live());
    QVERIFY(o.demo.isEmpty());
    QVERIFY(o.contexts.isEmpty());
    QVERIFY(!o.inCluster);
    QTEST(o.slurm->kind == SlurmTarget::Kind::Rest, "rest");
    QTEST(QString::fromStdString(o.slurm->url), "url");
    QTEST(QString::fromStdString(o.slurm->tokenFile), "tokenFile");
    QTEST(QString::fromStdString(o.slurm->userName), "userName");
    QTEST(QString::fromStdString(o.slurm->apiVersion), "apiVersion");
    QTEST(QString::fromStdString(o.slurm->slurmConf), "slurmConf");
    QTEST(QString::fromStdString(o.slurm->topologyFile), "topologyFile");
    QTEST(int(o.slurmPoll.count()), "pollMs");
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
    QTest::newRow("in-cluster and context")
        << QStringList{QStringLiteral("--in-cluster"), QStringLiteral("--context"), QStringLiteral("prod")}
        << QStringLiteral("--in-cluster takes no --context");
    QTest::newRow("empty context") << QStringList{QStringLiteral("--context="), QStringLiteral("--kubeconfig=k")}
                                   << QStringLiteral("--context needs a name");

    const QString s = QStringLiteral("--slurm");
    const QString cli = QStringLiteral("cli");
    const QString url = QStringLiteral("http://slurm-ctl:6820");
    QTest::newRow("slurm not a URL") << QStringList{s, QStringLiteral("slurm-ctl:6820")}
                                     << QStringLiteral("not \"slurm-ctl:6820\"");
    QTest::newRow("slurm URL without host")
        << QStringList{s, QStringLiteral("http://")} << QStringLiteral("no host or socket path");
    QTest::newRow("slurm and context") << QStringList{s, cli, QStringLiteral("--context"), QStringLiteral("prod")}
                                       << QStringLiteral("--slurm");
    QTest::newRow("slurm and demo") << QStringList{s, cli, QStringLiteral("--demo"), QStringLiteral("h100")}
                                    << QStringLiteral("give one of --demo");
    QTest::newRow("slurm and file") << QStringList{s, cli, QStringLiteral("-f"), QStringLiteral("x.yaml")}
                                    << QStringLiteral("give one of --demo");
    QTest::newRow("slurm and in-cluster")
        << QStringList{s, url, QStringLiteral("--in-cluster")} << QStringLiteral("give one of --demo");
    QTest::newRow("slurm twice") << QStringList{s, cli, s, url} << QStringLiteral("--slurm takes one cluster");
    QTest::newRow("token file with cli") << QStringList{s, cli, QStringLiteral("--slurm-token-file"),
                                                        QStringLiteral("jwt")}
                                         << QStringLiteral(
                                                "--slurm-token-file applies to slurmrestd (--slurm URL), not the CLI");
    QTest::newRow("user with cli") << QStringList{s, cli, QStringLiteral("--slurm-user"), QStringLiteral("alice")}
                                   << QStringLiteral("--slurm-user applies to slurmrestd");
    QTest::newRow("api with cli") << QStringList{s, cli, QStringLiteral("--slurm-api"), QStringLiteral("v0.0.38")}
                                  << QStringLiteral("--slurm-api applies to slurmrestd");
    QTest::newRow("conf with URL") << QStringList{s, url, QStringLiteral("--slurm-conf"), QStringLiteral("s.conf")}
                                   << QStringLiteral("--slurm-conf applies to the Slurm CLI (--slurm cli)");
    QTest::newRow("empty token file") << QStringList{s, url, QStringLiteral("--slurm-token-file=")}
                                      << QStringLiteral("--slurm-token-file needs a value");
    QTest::newRow("empty topology") << QStringList{s, cli, QStringLiteral("--slurm-topology=")}
                                    << QStringLiteral("--slurm-topology needs a value");
    QTest::newRow("token file without slurm")
        << QStringList{QStringLiteral("--slurm-token-file"), QStringLiteral("jwt")}
        << QStringLiteral("--slurm-token-file only applies to --slurm");
    QTest::newRow("topology without slurm or file")
        << QStringList{QStringLiteral("--slurm-topology"), QStringLiteral("t.conf")}
        << QStringLiteral("--slurm-topology applies to --slurm or to a snapshot file");
    QTest::newRow("topology with a context")
        << QStringList{QStringLiteral("--context"), QStringLiteral("prod"), QStringLiteral("--slurm-topology"),
                       QStringLiteral("t.conf")}
        << QStringLiteral("--slurm-topology applies to --slurm or to a snapshot file");
    QTest::newRow("poll without slurm") << QStringList{QStringLiteral("--context"), QStringLiteral("prod"),
                                                       QStringLiteral("--poll"), QStringLiteral("5")}
                                        << QStringLiteral("--poll only applies to --slurm");
    QTest::newRow("poll not a number") << QStringList{s, cli, QStringLiteral("--poll"), QStringLiteral("often")}
                                       << QStringLiteral("--poll wants seconds between 0 and 86400");
    QTest::newRow("poll negative") << QStringList{s, cli, QStringLiteral("--poll=-1")}
                                   << QStringLiteral("--poll wants seconds");
    QTest::newRow("poll too long") << QStringList{s, cli, QStringLiteral("--poll"), QStringLiteral("90000")}
                                   << QStringLiteral("--poll wants seconds");
    QTest::newRow("poll too short") << QStringList{s, cli, QStringLiteral("--poll"), QStringLiteral("0.05")}
                                    << QStringLiteral("--poll: at least 0.1 s");
}

void TestCommandLine::errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    args.prepend(QStringLiteral("topodeck"));
    CommandLine commandLine;
    QCOMPARE(commandLine.parse(args), CommandLine::Outcome::Error);
    QVERIFY2(commandLine.message().contains(mentions), qPrintable(commandLine.message()));
}

TOPODECK_TEST_GUILESS_MAIN(TestCommandLine)
#include "test_command_line.moc"
