#pragma once

#include "app/gui/command_line.h"
#include "views/chrome/app_settings.h"

#include <QObject>

#include <optional>

class QAction;
class QComboBox;
class QMenu;
class QToolBar;
class QWidget;

namespace topodeck {

class ClusterSession;
class RecentClustersMenu;
struct ConnectChoice;

// Opens what a window shows: a demo, a snapshot file, a kubeconfig context or a Slurm cluster,
// from the command line, the File menu and toolbar, the Connect dialog or File › Recent Clusters.
// It keeps how the window was opened, so that the Connect dialog starts from the same kubeconfig
// or Slurm cluster and a window opened from it reads the same hierarchy; and it owns Simulate,
// which only a demo cluster can do.
class ClusterOpener : public QObject {
    Q_OBJECT
public:
    // window: the dialogs' parent; a further cluster gets a window of its own.
    ClusterOpener(ClusterSession* session, QWidget* window);

    // Open Snapshot File…, Connect to a Cluster…, Open Demo Cluster and Recent Clusters.
    void addToFileMenu(QMenu* file);
    // Open, Connect, the demo chooser and Simulate.
    void addToToolBar(QToolBar* toolbar);
    QAction* simulateAction() const { return m_simulate; }
    RecentClustersMenu* recentClustersMenu() const { return m_recentMenu; }

    // Applies the topology choice and the simulator setting, then opens the demo, the file or the
    // (first) live cluster.
    void open(const LaunchOptions& options);
    // A live Kubernetes or Slurm cluster in this window (newWindow is the caller's business).
    void connectTo(const ConnectChoice& choice);
    void openRecent(const RecentCluster& cluster);
    // The cluster being opened shows its first data: only now does File › Recent Clusters
    // remember it, so that a cluster that cannot be opened is not.
    void sourceShown();

Q_SIGNALS:
    // The topodeckctl flags that name the source ("--demo gb200"), for the planner's command.
    void sourceFlagsChanged(const QString& flags);
    // A cluster from the recent list that cannot be opened as it was written.
    void openFailed(const QString& source, const QString& message);

private:
    void openDemo(const QString& name);
    void openFile(const QString& path);
    void openFileDialog();
    void openConnectDialog();

    ClusterSession* m_session;
    QWidget* m_window;
    QAction* m_openFile = nullptr;
    QAction* m_connect = nullptr;
    QAction* m_simulate = nullptr;
    QComboBox* m_demoChooser = nullptr;
    RecentClustersMenu* m_recentMenu = nullptr;
    LaunchOptions m_launch; // the hierarchy, and the cluster last connected to
    // What File › Recent Clusters gets once the cluster being opened shows data.
    std::optional<RecentCluster> m_opening;
    bool m_showsCluster = false;
};

} // namespace topodeck
