#pragma once

#include "session/cluster_session.h"
#include "views/app_settings.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QCloseEvent;
class QComboBox;
class QDockWidget;
class QMenu;
class QLabel;
class QModelIndex;
class QSplitter;
class QToolBar;
class QTreeView;

namespace topodeck {

class ChangesPage;
class HyperNodeEditor;
class TopologyEditor;
class ChartsPage;
class CommandPalette;
class ClusterSession;
class GangsPage;
class PlannerPanel;
class RecentClustersMenu;
class ClusterTotalsLabel;
class DetailsPanel;
class FilterBar;
class MapBreadcrumbs;
class OccupancyNotice;
class OpenFailureBanner;
class SourceStatusLabel;
class TopologyFilterModel;
class TopologyMapView;
class TopologyTreeModel;
class WhatIfBanner;
class WhatIfPanel;
struct ConnectChoice;
struct LaunchOptions;

// Builds the pages (tree, map, details, status bar) and connects them to one ClusterSession.
// Selection is kept in one place, the tree's selection model; the map and the details follow it.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Applies the topology choice and the simulator setting, then opens the demo, the file or the
    // (first) live cluster.
    void open(const LaunchOptions& options);
    // A live Kubernetes or Slurm cluster in this window (newWindow is the caller's business).
    void connectTo(const ConnectChoice& choice);
    // Selects the domain ("su-1/rack-3") or node ("su-1/rack-3/gb200-0042") at path; false if absent.
    bool selectPath(const QString& path);
    // Raises a page: "planner", "gangs", "charts", "what-if" or "changes"; false for another name.
    bool showPage(const QString& page);
    // Puts topodeckctl plan's flags in the planner and runs them once data is shown.
    void planOnceShown(const QString& flags);
    // Colours the map by free capacity (or occupancy) and, once data is shown, zooms it to the
    // domain at zoomPath (empty: fitted); a path that is not there is reported on stderr.
    void setMapView(const QString& zoomPath, bool freeCapacity);
    // Adds the what-if steps (topodeck --what-if) and applies them once data is shown.
    void whatIfOnceShown(const QString& steps);
    // Puts the window where it was last closed, with its docks and toolbars as they were, and
    // saves them when it closes. For the application's first window only: further windows,
    // screenshots and tests keep a layout of their own.
    void restoreLayout();
    // File › Recent Clusters, rebuilt from the settings each time it opens.
    RecentClustersMenu* recentClustersMenu() const { return m_recentMenu; }
    // Opens a cluster from that list (a demo, a file, a context or a Slurm cluster).
    void openRecent(const RecentCluster& cluster);
    PlannerPanel* plannerPanel() const { return m_planner; }
    CommandPalette* commandPalette() const { return m_palette; }
    GangsPage* gangsPage() const { return m_gangs; }
    ChartsPage* chartsPage() const { return m_charts; }
    WhatIfPanel* whatIfPanel() const { return m_whatIf; }
    ChangesPage* changesPage() const { return m_changes; }
    // Changes › Edit HyperNodes… and Edit Topology Levels…: made on first use, then raised.
    HyperNodeEditor* showHyperNodeEditor();
    TopologyEditor* showTopologyEditor();
    WhatIfBanner* whatIfBanner() const { return m_whatIfBanner; }

    ClusterSession* session() const { return m_session; }
    TopologyTreeModel* treeModel() const { return m_model; }
    // What the tree view shows: the tree model narrowed by the filter bar.
    TopologyFilterModel* treeFilterModel() const { return m_filterModel; }
    FilterBar* filterBar() const { return m_filterBar; }
    QTreeView* treeView() const { return m_tree; }
    TopologyMapView* mapView() const { return m_map; }
    DetailsPanel* detailsPanel() const { return m_details; }
    MapBreadcrumbs* breadcrumbs() const { return m_breadcrumbs; }
    const ClusterSnapshotPtr& shownSnapshot() const { return m_shown; }

protected:
    void closeEvent(QCloseEvent* event) override;

Q_SIGNALS:
    // Every view shows the first snapshot of a newly opened source, laid out.
    void dataShown();
    // Every view shows a (newer) snapshot.
    void snapshotShown();

private:
    void buildActions();
    void buildPages();
    void buildStatusBar();
    void showSnapshot(const ClusterSnapshotPtr& snapshot);
    void showStatus(const SourceStatus& status);
    void updateTotals(); // the status bar's totals and the notice above the map
    // Sizes the tree's columns to what they show and the splitter to the tree; growOnly after an expand.
    void fitTreeColumns(bool growOnly);
    void expandInitialLevels(const TopologyIndex& index);
    // index is the tree model's (not the filter's): a row the filter hides is still shown in the
    // map and the details, with nothing selected in the tree.
    void selectIndex(const QModelIndex& index);
    // The filter bar's selector over the shown snapshot, to the tree and the map.
    void applyNodeFilter();
    // Opens the tree down to the nodes a filter keeps when they are few enough to list.
    void expandToFewMatches();
    void followTreeSelection(const QModelIndex& current);
    void openDemo(const QString& name);
    void openFile(const QString& path);
    void openFileDialog();
    void openConnectDialog();
    void buildDocks();
    void buildPalette();
    void buildWhatIf(); // its menu, the selection's actions and the band over a hypothetical cluster
    void markSelected(int whatIfStepKind);
    // The tree's selection as targets name it: a node's name (true) or a domain's path (false).
    std::optional<std::pair<QString, bool>> selectedTarget();
    void buildChanges(); // its menu and the selection's Edit Labels
    template <class Editor> Editor* showEditor(Editor*& editor); // made once, connected to the Changes page
    void refreshPaletteEntries(); // the shown cluster's domains and nodes
    void exportMapDialog();
    void openExportDialog();
    void refreshPaletteGangs(const GangsReportPtr& report); // the running gangs and Slurm jobs

    ClusterSession* m_session = nullptr;
    ClusterSnapshotPtr m_shown;
    TopologyTreeModel* m_model = nullptr;
    TopologyFilterModel* m_filterModel = nullptr;
    FilterBar* m_filterBar = nullptr;
    QTreeView* m_tree = nullptr;
    TopologyMapView* m_map = nullptr;
    MapBreadcrumbs* m_breadcrumbs = nullptr;
    DetailsPanel* m_details = nullptr;
    QSplitter* m_splitter = nullptr;
    PlannerPanel* m_planner = nullptr;
    GangsPage* m_gangs = nullptr;
    ChartsPage* m_charts = nullptr;
    QMenu* m_pagesMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    RecentClustersMenu* m_recentMenu = nullptr;
    // What File › Recent Clusters gets once the cluster being opened shows data: a cluster that
    // cannot be opened is not remembered.
    std::optional<RecentCluster> m_opening;
    bool m_remembersLayout = false;
    CommandPalette* m_palette = nullptr;
    QString m_pendingGang; // chosen in the palette before the gangs page had its report
    WhatIfPanel* m_whatIf = nullptr;
    ChangesPage* m_changes = nullptr;
    QAction* m_editLabels = nullptr;
    HyperNodeEditor* m_hyperNodeEditor = nullptr;
    TopologyEditor* m_topologyEditor = nullptr;
    WhatIfBanner* m_whatIfBanner = nullptr;
    QToolBar* m_whatIfBar = nullptr;

    QAction* m_openFile = nullptr;
    QAction* m_connect = nullptr;
    QAction* m_simulate = nullptr;
    QAction* m_zoomIn = nullptr;
    QAction* m_zoomOut = nullptr;
    QAction* m_zoomFit = nullptr;
    QAction* m_focusFilter = nullptr;
    QAction* m_freeCapacity = nullptr;
    QComboBox* m_demoChooser = nullptr;

    SourceStatusLabel* m_stateLabel = nullptr;
    ClusterTotalsLabel* m_totalsLabel = nullptr;
    QLabel* m_warningsLabel = nullptr;
    OccupancyNotice* m_notice = nullptr; // above the map: what the picture cannot be trusted for
    OpenFailureBanner* m_openFailure = nullptr; // above the map: what could not be opened, and why
    // How this window was opened (the hierarchy, the cluster last connected to): a window opened
    // from it reads the same, and the connect dialog starts from that kubeconfig or Slurm cluster.
    std::unique_ptr<LaunchOptions> m_launch;
};

} // namespace topodeck
