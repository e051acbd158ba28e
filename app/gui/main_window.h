#pragma once

#include "app/gui/cluster_opener.h"
#include "app/gui/launch_actions.h"
#include "session/cluster_session.h"
#include "views/chrome/app_settings.h"
#include "views/chrome/object_editors.h"
#include "views/chrome/tree_pane.h"
#include "views/chrome/what_if_bar.h"

#include <QMainWindow>

class QAction;
class QMenu;
class QModelIndex;
class QSplitter;
class QTreeView;

namespace topodeck {

class ChangesPage;
class ChartsPage;
class CommandPalette;
class DetailsPanel;
class GangsPage;
class MapBreadcrumbs;
class MapContextMenu;
class PlannerPanel;
class StatusWarnings;
class TopologyMapView;
class WhatIfPanel;

// Builds the pages (tree, map, details, docks, status bar) and connects them to one
// ClusterSession. Selection is kept in one place, the tree's selection model; the map and the
// details follow it. What a window opens is ClusterOpener's, what it says about its source
// StatusWarnings', and the command line's one-shot actions are LaunchActions'.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Applies the topology choice, the simulator setting and the filter, then opens the demo, the
    // file or the (first) live cluster.
    void open(const LaunchOptions& options);
    // A live Kubernetes or Slurm cluster in this window (newWindow is the caller's business).
    void connectTo(const ConnectChoice& choice) { m_opener->connectTo(choice); }
    // Selects the domain ("su-1/rack-3") or node ("su-1/rack-3/gb200-0042") at path; false if absent.
    bool selectPath(const QString& path) { return m_treePane->selectPath(path); }
    // Raises a page: "planner", "gangs", "charts", "what-if" or "changes"; false for another name.
    bool showPage(const QString& page);
    // Puts topodeckctl plan's flags in the planner and runs them once data is shown.
    void planOnceShown(const QString& flags) { LaunchActions::planOnceShown(*this, flags); }
    // Colours the map by free capacity (or occupancy) and, once data is shown, zooms it to the
    // domain at zoomPath (empty: fitted); a path that is not there is reported on stderr.
    void setMapView(const QString& zoomPath, bool freeCapacity);
    // Puts the window where it was last closed, with its docks and toolbars as they were, and
    // saves them when it closes (WindowLayoutMemory): for the application's first window only.
    void restoreLayout();
    // File › Recent Clusters, rebuilt from the settings each time it opens.
    RecentClustersMenu* recentClustersMenu() const { return m_opener->recentClustersMenu(); }
    // Opens a cluster from that list (a demo, a file, a context or a Slurm cluster).
    void openRecent(const RecentCluster& cluster) { m_opener->openRecent(cluster); }
    PlannerPanel* plannerPanel() const { return m_planner; }
    CommandPalette* commandPalette() const { return m_palette; }
    GangsPage* gangsPage() const { return m_gangs; }
    ChartsPage* chartsPage() const { return m_charts; }
    WhatIfPanel* whatIfPanel() const { return m_whatIf; }
    ChangesPage* changesPage() const { return m_changes; }
    // Changes › Edit HyperNodes… and Edit Topology Levels…: made on first use, then raised.
    HyperNodeEditor* showHyperNodeEditor() { return m_editors->showHyperNodeEditor(); }
    TopologyEditor* showTopologyEditor() { return m_editors->showTopologyEditor(); }
    WhatIfBanner* whatIfBanner() const { return m_whatIfBar->banner(); }

    ClusterSession* session() const { return m_session; }
    TopologyTreeModel* treeModel() const { return m_treePane->model(); }
    // What the tree view shows: the tree model narrowed by the filter bar.
    TopologyFilterModel* treeFilterModel() const { return m_treePane->filterModel(); }
    FilterBar* filterBar() const { return m_treePane->filterBar(); }
    QTreeView* treeView() const { return m_treePane->view(); }
    TopologyMapView* mapView() const { return m_map; }
    DetailsPanel* detailsPanel() const { return m_details; }
    MapBreadcrumbs* breadcrumbs() const { return m_breadcrumbs; }
    const ClusterSnapshotPtr& shownSnapshot() const { return m_shown; }

Q_SIGNALS:
    // Every view shows the first snapshot of a newly opened source, laid out.
    void dataShown();
    // Every view shows a (newer) snapshot.
    void snapshotShown();

private:
    void buildPages();
    void buildDocks();
    void buildActions();
    void buildWhatIf();  // its menu, the selection's actions and the band over a hypothetical cluster
    void buildChanges(); // its menu and the selection's Edit Labels
    void buildPalette();
    void showSnapshot(const ClusterSnapshotPtr& snapshot);
    void followTreeSelection(const QModelIndex& current);
    // The splitter gives the tree the width its columns want (growOnly: only more, after an expand).
    void fitTreeWidth(int treeWidth, bool growOnly);
    // The tree's selection as targets name it; none (and a word in the status bar) when nothing is.
    std::optional<TreeTarget> selectedTarget();
    void markSelected(int whatIfStepKind);
    void refreshPaletteEntries();                           // the shown cluster's domains and nodes
    void refreshPaletteGangs(const GangsReportPtr& report); // the running gangs and Slurm jobs

    ClusterSession* m_session = nullptr;
    ClusterSnapshotPtr m_shown;
    TreePane* m_treePane = nullptr;
    TopologyMapView* m_map = nullptr;
    MapBreadcrumbs* m_breadcrumbs = nullptr;
    DetailsPanel* m_details = nullptr;
    QSplitter* m_splitter = nullptr;
    StatusWarnings* m_status = nullptr;
    ClusterOpener* m_opener = nullptr;
    PlannerPanel* m_planner = nullptr;
    GangsPage* m_gangs = nullptr;
    ChartsPage* m_charts = nullptr;
    WhatIfPanel* m_whatIf = nullptr;
    ChangesPage* m_changes = nullptr;
    QMenu* m_pagesMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_zoomIn = nullptr; // the command palette's Go to… goes before it
    QAction* m_freeCapacity = nullptr;
    QAction* m_editLabels = nullptr;
    CommandPalette* m_palette = nullptr;
    QString m_pendingGang; // chosen in the palette before the gangs page had its report
    ObjectEditors* m_editors = nullptr;
    MapContextMenu* m_mapMenu = nullptr;
    WhatIfBar* m_whatIfBar = nullptr;
};

} // namespace topodeck
