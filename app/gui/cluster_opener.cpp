#include "app/gui/cluster_opener.h"

#include "app/gui/main_window.h"
#include "core/text/command_args.h"
#include "session/cluster_session.h"
#include "views/chrome/recent_clusters_menu.h"
#include "views/dialogs/connect_dialog.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QToolBar>

namespace topodeck {

namespace {

struct DemoEntry {
    const char* name;
    const char* label;
};
constexpr DemoEntry kDemos[] = {
    {"gb200", QT_TRANSLATE_NOOP("topodeck::ClusterOpener", "GB200 NVL72 SuperPOD (gb200)")},
    {"gb200-dra", QT_TRANSLATE_NOOP("topodeck::ClusterOpener", "GB200 NVL72 SuperPOD, GPUs through DRA (gb200-dra)")},
    {"h100", QT_TRANSLATE_NOOP("topodeck::ClusterOpener", "H100 HGX blocks (h100)")},
    {"scale:4096", QT_TRANSLATE_NOOP("topodeck::ClusterOpener", "4,096 nodes (scale:4096)")},
    {"scale:65536", QT_TRANSLATE_NOOP("topodeck::ClusterOpener", "65,536 nodes (scale:65536)")},
};

// The (first) live cluster of the launch options, as the connect dialog would have chosen it.
ConnectChoice firstLiveCluster(const LaunchOptions& options) {
    ConnectChoice choice;
    choice.kubeconfig = options.kubeconfig;
    if (options.slurm) {
        choice.kind = ConnectChoice::Kind::Slurm;
        choice.slurm = *options.slurm;
        choice.slurmPoll = options.slurmPoll;
    } else {
        choice.context = options.contexts.value(0);
        choice.inCluster = options.inCluster;
    }
    return choice;
}

// The options with the chosen cluster in place of their source; the hierarchy stays as it was.
LaunchOptions withCluster(LaunchOptions options, const ConnectChoice& choice) {
    options.file.clear();
    options.demo.clear();
    options.kubeconfig = choice.kubeconfig;
    const bool slurm = choice.kind == ConnectChoice::Kind::Slurm;
    options.contexts = slurm ? QStringList() : QStringList{choice.context};
    options.inCluster = !slurm && choice.inCluster;
    options.slurm = slurm ? std::optional<SlurmTarget>(choice.slurm) : std::nullopt;
    options.slurmPoll = choice.slurmPoll;
    return options;
}

// One word of a topodeckctl command line, quoted as a shell wants it.
QString commandWord(const QString& word) {
    return QString::fromStdString(joinCommandWords({word.toStdString()}));
}

} // namespace

ClusterOpener::ClusterOpener(ClusterSession* session, QWidget* window)
    : QObject(window), m_session(session), m_window(window) {
    m_openFile = new QAction(tr("&Open Snapshot File…"), this);
    m_openFile->setShortcut(QKeySequence::Open);
    m_openFile->setToolTip(tr("Open a file written by kubectl get nodes,pods -A -o yaml (or json)"));
    connect(m_openFile, &QAction::triggered, this, &ClusterOpener::openFileDialog);
    m_connect = new QAction(tr("&Connect to a Cluster…"), this);
    // Ctrl+K is the command palette's, as in most consoles.
    m_connect->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_connect->setToolTip(tr("Follow a live cluster: Kubernetes through a kubeconfig context, or Slurm through "
                             "slurmrestd or the Slurm commands"));
    connect(m_connect, &QAction::triggered, this, &ClusterOpener::openConnectDialog);
    m_simulate = new QAction(tr("&Simulate"), this);
    m_simulate->setCheckable(true);
    m_simulate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_simulate->setToolTip(tr("Start and finish gangs on the demo cluster so occupancy changes live"));
    connect(m_simulate, &QAction::toggled, m_session, &ClusterSession::setSimulationEnabled);
    m_recentMenu = new RecentClustersMenu(window);
    connect(m_recentMenu, &RecentClustersMenu::chosen, this, &ClusterOpener::openRecent);
    m_demoChooser = new QComboBox(window);
    m_demoChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_demoChooser->setToolTip(tr("Open an embedded demo cluster"));
    for (const DemoEntry& demo : kDemos) m_demoChooser->addItem(tr(demo.label), QString::fromLatin1(demo.name));
    connect(m_demoChooser, &QComboBox::activated, this,
            [this](int row) { openDemo(m_demoChooser->itemData(row).toString()); });
}

void ClusterOpener::addToFileMenu(QMenu* file) {
    file->addAction(m_openFile);
    file->addAction(m_connect);
    QMenu* demos = file->addMenu(tr("Open &Demo Cluster"));
    for (const DemoEntry& demo : kDemos) {
        const QString name = QString::fromLatin1(demo.name);
        demos->addAction(tr(demo.label), this, [this, name] { openDemo(name); });
    }
    file->addMenu(m_recentMenu);
}

void ClusterOpener::addToToolBar(QToolBar* toolbar) {
    toolbar->addAction(m_openFile);
    toolbar->addAction(m_connect);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr("Demo:"), toolbar));
    toolbar->addWidget(m_demoChooser);
    toolbar->addAction(m_simulate);
}

void ClusterOpener::open(const LaunchOptions& options) {
    m_launch = options;
    m_session->setTopologyChoice(options.topology, options.levels, options.gpuResources, options.slurmTopologyFile,
                                 options.gpuClasses);
    m_simulate->setChecked(options.simulate);
    m_session->setSimulationEnabled(options.simulate);
    if (options.live())
        connectTo(firstLiveCluster(options));
    else if (!options.file.isEmpty())
        openFile(options.file);
    else
        openDemo(options.demo);
}

void ClusterOpener::connectTo(const ConnectChoice& choice) {
    m_demoChooser->setCurrentIndex(-1);
    m_simulate->setChecked(false);
    m_simulate->setEnabled(false);
    m_launch = withCluster(m_launch, choice);
    m_opening.reset(); // a pod's own service account is not worth a menu entry
    if (choice.kind == ConnectChoice::Kind::Slurm)
        m_opening =
            RecentCluster{RecentCluster::Kind::Slurm,
                          choice.slurm.kind == SlurmTarget::Kind::Cli ? QStringLiteral("cli")
                                                                      : QString::fromStdString(choice.slurm.url),
                          {}};
    else if (!choice.inCluster)
        m_opening = RecentCluster{RecentCluster::Kind::Context, choice.context, choice.kubeconfig};
    Q_EMIT sourceFlagsChanged(choice.kind == ConnectChoice::Kind::Slurm
                                  ? QStringLiteral("--slurm …")
                                  : QStringLiteral("--context ") + commandWord(choice.context));
    if (choice.kind == ConnectChoice::Kind::Kubernetes)
        return m_session->openKubernetes(choice.context, choice.kubeconfig, choice.inCluster);
    SlurmSourceOptions slurmOptions;
    slurmOptions.pollInterval = choice.slurmPoll;
    m_session->setSlurmSourceOptions(slurmOptions);
    m_session->openSlurm(choice.slurm);
}

void ClusterOpener::openRecent(const RecentCluster& cluster) {
    switch (cluster.kind) {
    case RecentCluster::Kind::Demo:
        return openDemo(cluster.target);
    case RecentCluster::Kind::File:
        return openFile(cluster.target);
    case RecentCluster::Kind::Context: {
        ConnectChoice choice;
        choice.context = cluster.target;
        choice.kubeconfig = cluster.kubeconfig;
        return connectTo(choice);
    }
    case RecentCluster::Kind::Slurm: {
        const Result<SlurmTarget> target = SlurmTarget::fromArgument(cluster.target.toStdString());
        if (!target) {
            Q_EMIT openFailed(tr("Slurm %1").arg(cluster.target), QString::fromStdString(target.error().message));
            return;
        }
        ConnectChoice choice;
        choice.kind = ConnectChoice::Kind::Slurm;
        choice.slurm = *target;
        return connectTo(choice);
    }
    }
}

void ClusterOpener::sourceShown() {
    m_showsCluster = true;
    if (m_opening) AppSettings().addRecentCluster(*std::exchange(m_opening, std::nullopt));
}

void ClusterOpener::openDemo(const QString& name) {
    Q_EMIT sourceFlagsChanged(QStringLiteral("--demo ") + commandWord(name));
    m_demoChooser->setCurrentIndex(m_demoChooser->findData(name));
    m_simulate->setEnabled(true);
    m_opening = RecentCluster{RecentCluster::Kind::Demo, name, {}};
    m_session->openDemo(name);
}

void ClusterOpener::openFile(const QString& path) {
    Q_EMIT sourceFlagsChanged(QStringLiteral("-f ") + commandWord(path));
    m_demoChooser->setCurrentIndex(-1);
    // The simulator only drives demo clusters.
    m_simulate->setChecked(false);
    m_simulate->setEnabled(false);
    m_opening = RecentCluster{RecentCluster::Kind::File, QFileInfo(path).absoluteFilePath(), {}};
    m_session->openFile(path);
}

void ClusterOpener::openFileDialog() {
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Snapshot File"), QString(),
                                                      tr("Cluster snapshots (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void ClusterOpener::openConnectDialog() {
    auto* dialog = new ConnectDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // A window that shows a cluster keeps it; another cluster gets a window of its own.
    dialog->start(m_launch.kubeconfig, m_showsCluster);
    if (m_launch.slurm) dialog->showSlurm(*m_launch.slurm, m_launch.slurmPoll);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectChoice choice = dialog->choice();
        if (!choice.newWindow) return connectTo(choice);
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->open(withCluster(m_launch, choice));
        window->show();
    });
    dialog->open();
}

} // namespace topodeck
