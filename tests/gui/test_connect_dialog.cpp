// The connect dialog: its Slurm tab turns what was typed into the SlurmTarget the session opens,
// keeps Connect disabled (and says why) while the input is incomplete or wrong, and the Kubernetes
// tab still lists a kubeconfig's contexts. A Slurm choice reaches the window's session.
#include "app/gui/main_window.h"
#include "session/cluster_session.h"
#include "views/dialogs/connect_dialog.h"
#include "support/test_program.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace topodeck;

namespace {

template <class Widget> Widget* child(const ConnectDialog& dialog, const char* name) {
    auto* widget = dialog.findChild<Widget*>(QString::fromLatin1(name));
    if (!widget) qFatal("no %s in the connect dialog", name);
    return widget;
}

QLineEdit* field(const ConnectDialog& dialog, const char* name) {
    return child<QLineEdit>(dialog, name);
}
QPushButton* connectButton(const ConnectDialog& dialog) {
    return child<QPushButton>(dialog, "connectButton");
}
QString problem(const ConnectDialog& dialog) {
    return child<QLabel>(dialog, "slurmProblem")->text();
}

void showSlurmTab(ConnectDialog& dialog) {
    auto* tabs = dialog.findChild<QTabWidget*>();
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);
    QCOMPARE(tabs->tabText(1), QStringLiteral("Slurm"));
}

} // namespace

class TestConnectDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void slurmrestdTarget();
    void slurmCommandsTarget();
    void invalidUrlKeepsConnectDisabled_data();
    void invalidUrlKeepsConnectDisabled();
    void showSlurmPrefills();
    void kubernetesTabStillLists();
    void brokenKubeconfigIsReported();
    void slurmChoiceOpensInWindow();
};

void TestConnectDialog::slurmrestdTarget() {
    ConnectDialog dialog;
    dialog.start(QStringLiteral("/nonexistent/kubeconfig"), true);
    showSlurmTab(dialog);
    QVERIFY(!connectButton(dialog)->isEnabled()); // no URL yet
    QCOMPARE(problem(dialog), QString());         // nothing wrong yet, only incomplete

    field(dialog, "slurmUrl")->setText(QStringLiteral(" http://slurm-ctl:6820 "));
    field(dialog, "slurmTokenFile")->setText(QStringLiteral("/run/user/1000/slurm.jwt"));
    field(dialog, "slurmUser")->setText(QStringLiteral("alice"));
    field(dialog, "slurmTopologyFile")->setText(QStringLiteral("/etc/slurm/topology.yaml"));
    field(dialog, "slurmConf")->setText(QStringLiteral("/etc/slurm/other.conf")); // the other choice's field
    child<QDoubleSpinBox>(dialog, "slurmPoll")->setValue(2.5);
    QVERIFY(connectButton(dialog)->isEnabled());
    QCOMPARE(problem(dialog), QString());

    const ConnectChoice choice = dialog.choice();
    QCOMPARE(choice.kind, ConnectChoice::Kind::Slurm);
    QCOMPARE(choice.slurm.kind, SlurmTarget::Kind::Rest);
    QCOMPARE(choice.slurm.url, std::string("http://slurm-ctl:6820"));
    QCOMPARE(choice.slurm.tokenFile, std::string("/run/user/1000/slurm.jwt"));
    QCOMPARE(choice.slurm.userName, std::string("alice"));
    QCOMPARE(choice.slurm.topologyFile, std::string("/etc/slurm/topology.yaml"));
    QCOMPARE(choice.slurm.slurmConf, std::string());
    QCOMPARE(choice.slurmPoll.count(), 2500);
    QVERIFY(choice.newWindow);

    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.accept();
    QCOMPARE(accepted.size(), 1);
}

void TestConnectDialog::slurmCommandsTarget() {
    ConnectDialog dialog;
    showSlurmTab(dialog);
    field(dialog, "slurmUrl")->setText(QStringLiteral("not a url")); // the other choice's field
    field(dialog, "slurmTokenFile")->setText(QStringLiteral("jwt"));
    child<QRadioButton>(dialog, "slurmUseCommands")->setChecked(true);
    QVERIFY(!field(dialog, "slurmUrl")->isEnabled());
    QVERIFY(field(dialog, "slurmConf")->isEnabled());
    // Complete as it is: the commands find their own slurm.conf.
    QVERIFY(connectButton(dialog)->isEnabled());
    QCOMPARE(problem(dialog), QString());
    field(dialog, "slurmConf")->setText(QStringLiteral("/etc/slurm/slurm.conf"));

    const ConnectChoice choice = dialog.choice();
    QCOMPARE(choice.kind, ConnectChoice::Kind::Slurm);
    QCOMPARE(choice.slurm.kind, SlurmTarget::Kind::Cli);
    QCOMPARE(choice.slurm.slurmConf, std::string("/etc/slurm/slurm.conf"));
    QCOMPARE(choice.slurm.tokenFile, std::string());
    QCOMPARE(choice.slurm.url, std::string());
    QCOMPARE(choice.slurmPoll.count(), 5000); // the default, as the CLI's --poll
    QCOMPARE(choice.slurm.describe(), std::string("Slurm CLI (SLURM_CONF=/etc/slurm/slurm.conf)"));
}

void TestConnectDialog::invalidUrlKeepsConnectDisabled_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("mentions");
    QTest::addColumn<QString>("backendSays"); // SlurmTarget::fromArgument's words, in the tooltip
    QTest::newRow("no scheme") << QStringLiteral("slurm-ctl:6820") << QStringLiteral("not “slurm-ctl:6820”")
                               << QStringLiteral("not \"slurm-ctl:6820\"");
    QTest::newRow("no host") << QStringLiteral("http://") << QStringLiteral("Not a slurmrestd URL")
                             << QStringLiteral("no host or socket path");
    QTest::newRow("no socket path") << QStringLiteral("unix:") << QStringLiteral("Not a slurmrestd URL")
                                    << QStringLiteral("no host or socket path");
    QTest::newRow("cli in the URL field")
        << QStringLiteral("cli") << QStringLiteral("choose “Slurm commands on this machine”") << QString();
}

void TestConnectDialog::invalidUrlKeepsConnectDisabled() {
    QFETCH(QString, url);
    QFETCH(QString, mentions);
    QFETCH(QString, backendSays);
    ConnectDialog dialog;
    showSlurmTab(dialog);
    field(dialog, "slurmUrl")->setText(url);
    QVERIFY(!connectButton(dialog)->isEnabled());
    QVERIFY2(problem(dialog).contains(mentions), qPrintable(problem(dialog)));
    const QString tooltip = child<QLabel>(dialog, "slurmProblem")->toolTip();
    QVERIFY2(tooltip.contains(backendSays), qPrintable(tooltip));
    if (QTest::currentDataTag() == QByteArray("no scheme")) {
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QString shot = QDir::current().absoluteFilePath(QStringLiteral("connect-dialog-slurm-invalid.png"));
        QVERIFY(dialog.grab().save(shot));
        qInfo("wrote %s", qPrintable(shot));
    }

    // Neither Enter nor a stray accept gets past a disabled Connect.
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    dialog.accept();
    QCOMPARE(accepted.size(), 0);

    // Fixing the URL clears the message.
    field(dialog, "slurmUrl")->setText(QStringLiteral("unix:/run/slurmrestd/slurmrestd.sock"));
    QVERIFY(connectButton(dialog)->isEnabled());
    QCOMPARE(problem(dialog), QString());
}

void TestConnectDialog::showSlurmPrefills() {
    SlurmTarget target;
    target.kind = SlurmTarget::Kind::Rest;
    target.url = "unix:/run/slurmrestd/slurmrestd.sock";
    target.topologyFile = "/etc/slurm/topology.conf";
    ConnectDialog dialog;
    dialog.start(QString(), false);
    dialog.showSlurm(target, std::chrono::milliseconds(30000));
    QCOMPARE(dialog.findChild<QTabWidget*>()->currentIndex(), 1);
    QVERIFY(connectButton(dialog)->isEnabled());
    const ConnectChoice choice = dialog.choice();
    QCOMPARE(choice.kind, ConnectChoice::Kind::Slurm);
    QCOMPARE(choice.slurm.url, target.url);
    QCOMPARE(choice.slurm.topologyFile, target.topologyFile);
    QCOMPARE(choice.slurmPoll.count(), 30000);
    QVERIFY(!choice.newWindow);

    dialog.resize(dialog.sizeHint().expandedTo(dialog.size()));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString shot = QDir::current().absoluteFilePath(QStringLiteral("connect-dialog-slurm.png"));
    QVERIFY(dialog.grab().save(shot));
    qInfo("wrote %s", qPrintable(shot));
}

// A kubeconfig that is just "," (yaml-cpp 0.7 loops on it) is read off the GUI thread and
// refused at once; the dialog says where, and offers nothing to connect to.
void TestConnectDialog::brokenKubeconfigIsReported() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(",");
    file.close();
    ConnectDialog dialog;
    QSignalSpy listed(&dialog, &ConnectDialog::listed);
    dialog.start(path, false);
    QVERIFY(listed.wait(5000));
    const QString message = child<QLabel>(dialog, "kubeconfigMessage")->text();
    QVERIFY2(message.startsWith(path + QStringLiteral(":1:1: invalid YAML: ")), qPrintable(message));
    QCOMPARE(dialog.contextList()->topLevelItemCount(), 0);
    QVERIFY(!connectButton(dialog)->isEnabled());
}

void TestConnectDialog::kubernetesTabStillLists() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("apiVersion: v1\nkind: Config\ncurrent-context: staging\n"
               "clusters:\n- {name: a, cluster: {server: 'https://a.example:6443'}}\n"
               "users:\n- {name: alice, user: {token: t}}\n"
               "contexts:\n- {name: prod, context: {cluster: a, user: alice}}\n"
               "- {name: staging, context: {cluster: a, user: alice}}\n");
    file.close();
    ConnectDialog dialog;
    QSignalSpy listed(&dialog, &ConnectDialog::listed);
    dialog.start(path, false);
    QVERIFY(listed.wait(5000));
    QCOMPARE(dialog.findChild<QTabWidget*>()->currentIndex(), 0); // Kubernetes first
    QCOMPARE(dialog.contextList()->topLevelItemCount(), 2);
    QVERIFY(connectButton(dialog)->isEnabled());
    ConnectChoice choice = dialog.choice();
    QCOMPARE(choice.kind, ConnectChoice::Kind::Kubernetes);
    QCOMPARE(choice.context, QStringLiteral("staging"));
    QCOMPARE(choice.kubeconfig, path);

    // Connect follows the tab shown: an empty Slurm tab has nothing to connect to.
    showSlurmTab(dialog);
    QVERIFY(!connectButton(dialog)->isEnabled());
    QCOMPARE(dialog.choice().kind, ConnectChoice::Kind::Slurm);
    dialog.findChild<QTabWidget*>()->setCurrentIndex(0);
    QVERIFY(connectButton(dialog)->isEnabled());
    QCOMPARE(dialog.choice().kind, ConnectChoice::Kind::Kubernetes);
}

void TestConnectDialog::slurmChoiceOpensInWindow() {
    MainWindow window;
    QSignalSpy statuses(window.session(), &ClusterSession::statusChanged);
    ConnectChoice choice;
    choice.kind = ConnectChoice::Kind::Slurm;
    choice.slurm.kind = SlurmTarget::Kind::Rest;
    choice.slurm.url = "unix:" + QDir::temp().absoluteFilePath(QStringLiteral("no-such-slurmrestd.sock")).toStdString();
    choice.slurmPoll = std::chrono::milliseconds(200);
    window.connectTo(choice);
    const QString expected = QStringLiteral("slurmrestd ") + QString::fromStdString(choice.slurm.url);
    QTRY_VERIFY_WITH_TIMEOUT(
        !statuses.isEmpty() && statuses.constLast().at(0).value<SourceStatus>().sourceName == expected, 10000);
}

TOPODECK_TEST_MAIN(TestConnectDialog)
#include "test_connect_dialog.moc"
