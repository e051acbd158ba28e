// The parts of the GUI that show a live cluster without needing one: the status bar's label for
// every link state, and the connect dialog listing a kubeconfig's contexts.
#include "views/chrome/source_status_label.h"
#include "views/dialogs/connect_dialog.h"
#include "support/test_program.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace topodeck;

class TestLiveStatus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stateLabel_data() {
        QTest::addColumn<int>("health");
        QTest::addColumn<QString>("state");
        QTest::newRow("connecting") << int(SourceHealth::Connecting) << QStringLiteral("Loading");
        QTest::newRow("live") << int(SourceHealth::Live) << QStringLiteral("Live");
        QTest::newRow("reconnecting") << int(SourceHealth::Reconnecting) << QStringLiteral("Reconnecting");
        QTest::newRow("stale") << int(SourceHealth::Stale) << QStringLiteral("Stale since ");
        QTest::newRow("error") << int(SourceHealth::Error) << QStringLiteral("Error");
    }

    void stateLabel() {
        QFETCH(int, health);
        QFETCH(QString, state);
        SourceStatus status;
        status.sourceName = QStringLiteral("context prod");
        status.health = SourceHealth(health);
        status.detail = QStringLiteral("nodes: watch lost <now>");
        status.since = QDateTime(QDate(2026, 12, 1), QTime(14, 3, 7), Qt::LocalTime);
        ResourceHealth pods;
        pods.title = "pods";
        pods.state = ResourceHealth::State::Forbidden;
        pods.message = "no permission to list pods: occupancy unavailable";
        status.resources.push_back(pods);
        SourceStatusLabel label;
        label.setStatus(status);
        QVERIFY2(label.text().contains(state), qPrintable(label.text()));
        QVERIFY(label.text().contains(QStringLiteral("context prod")));
        QVERIFY2(label.text().contains(QStringLiteral("watch lost &lt;now&gt;")), qPrintable(label.text())); // escaped
        QVERIFY2(label.toolTip().contains(QStringLiteral("no permission")), qPrintable(label.toolTip()));
        if (status.health == SourceHealth::Stale) QVERIFY(label.text().contains(QStringLiteral("14:03:07")));
    }

    void connectDialogListsContexts() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apiVersion: v1\nkind: Config\ncurrent-context: staging\n"
                   "clusters:\n- {name: a, cluster: {server: 'https://a.example:6443'}}\n"
                   "- {name: b, cluster: {server: 'https://b.example:6443'}}\n"
                   "users:\n- {name: alice, user: {token: t}}\n"
                   "- {name: eks, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws}}}\n"
                   "contexts:\n- {name: prod, context: {cluster: a, user: eks}}\n"
                   "- {name: staging, context: {cluster: b, user: alice}}\n");
        file.close();
        ConnectDialog dialog;
        QSignalSpy listed(&dialog, &ConnectDialog::listed);
        dialog.start(path, true);
        QVERIFY(listed.wait(5000));
        QTreeWidget* list = dialog.contextList();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("prod"));
        QCOMPARE(list->topLevelItem(0)->text(2), QStringLiteral("https://a.example:6443"));
        QCOMPARE(list->topLevelItem(0)->text(4), QStringLiteral("exec plugin aws"));
        // The current context is preselected.
        QCOMPARE(list->currentItem()->text(0), QStringLiteral("staging"));
        ConnectChoice choice = dialog.choice();
        QCOMPARE(choice.context, QStringLiteral("staging"));
        QCOMPARE(choice.kubeconfig, path);
        QVERIFY(choice.newWindow);
        list->setCurrentItem(list->topLevelItem(0));
        QCOMPARE(dialog.choice().context, QStringLiteral("prod"));
        if (const QString shots = qEnvironmentVariable("TOPODECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
            dialog.show();
            dialog.grab().save(shots + QStringLiteral("/connect-dialog.png"));
        }
    }

    void connectDialogSaysWhatIsWrong() {
        ConnectDialog dialog;
        QSignalSpy listed(&dialog, &ConnectDialog::listed);
        dialog.start(QStringLiteral("/nonexistent/kubeconfig"), false);
        QVERIFY(listed.wait(5000));
        QCOMPARE(dialog.contextList()->topLevelItemCount(), 0);
        bool said = false;
        for (QLabel* label : dialog.findChildren<QLabel*>())
            said = said || label->text().contains(QStringLiteral("/nonexistent/kubeconfig: no such file"));
        QVERIFY(said);
        QVERIFY(dialog.choice().context.isEmpty());
    }
};

TOPODECK_TEST_MAIN(TestLiveStatus)
#include "test_live_status.moc"
