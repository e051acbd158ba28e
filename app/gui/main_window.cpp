#include "app/gui/main_window.h"

#include "models/topology_tree_model.h"
#include "views/chrome/command_palette.h"
#include "views/chrome/export_actions.h"
#include "views/chrome/filter_bar.h"
#include "views/chrome/map_context_menu.h"
#include "views/chrome/object_editors.h"
#include "views/chrome/occupancy_notice.h"
#include "views/chrome/open_failure_banner.h"
#include "views/chrome/palette_entries.h"
#include "views/chrome/status_warnings.h"
#include "views/chrome/theme_menu.h"
#include "views/chrome/what_if_banner.h"
#include "views/chrome/what_if_bar.h"
#include "views/chrome/window_layout_memory.h"
#include "views/map/map_breadcrumbs.h"
#include "views/map/map_legend.h"
#include "views/map/topology_map_view.h"
#include "views/pages/changes_page.h"
#include "views/pages/charts_page.h"
#include "views/pages/details_panel.h"
#include "views/pages/gangs_page.h"
#include "views/pages/planner_panel.h"
#include "views/pages/what_if_panel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace topodeck {

namespace {

constexpr int kDetailsWidth = 380;
constexpr int kMaxTreeWidth = 620;

// Nodes outlined on the map, with no pod count of their own.
std::vector<std::pair<NodeId, std::int32_t>> outlined(const std::vector<NodeId>& nodes) {
    std::vector<std::pair<NodeId, std::int32_t>> highlight;
    highlight.reserve(nodes.size());
    for (NodeId id : nodes) highlight.emplace_back(id, 0);
    return highlight;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_session(new ClusterSession(this)) {
    setWindowTitle(tr("topodeck"));
    buildPages();
    buildDocks();
    buildActions();
    buildWhatIf();
    buildChanges();
    buildPalette();
    connect(m_session, &ClusterSession::snapshotPublished, this, &MainWindow::showSnapshot);
    connect(m_session, &ClusterSession::statusChanged, m_status, &StatusWarnings::showStatus);
    connect(m_session, &ClusterSession::gangsReportReady, this,
            [this](const GangsReportPtr& report, quint64) { refreshPaletteGangs(report); });
    // The minimum size Qt took while the docks were still shown would keep the window that large
    // (too tall for a laptop) until it is first shown, and clamp a restored geometry.
    layout()->invalidate();
    layout()->activate();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildPages() {
    m_treePane = new TreePane(this);
    connect(m_treePane, &TreePane::currentChanged, this, &MainWindow::followTreeSelection);
    connect(m_treePane, &TreePane::columnsWidened, this, [this](int width) { fitTreeWidth(width, true); });

    m_map = new TopologyMapView(this);
    connect(m_treePane, &TreePane::nodeFilterChanged, m_map, &TopologyMapView::setNodeFilter);
    auto* mapPane = new QWidget(this);
    auto* mapLayout = new QVBoxLayout(mapPane);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->setSpacing(0);
    m_status = new StatusWarnings(statusBar(), mapPane, this);
    mapLayout->addWidget(m_status->openFailureBanner());
    mapLayout->addWidget(m_status->occupancyNotice());
    m_breadcrumbs = new MapBreadcrumbs(mapPane);
    mapLayout->addWidget(m_breadcrumbs);
    mapLayout->addWidget(m_map, 1);
    auto* legend = new MapLegend(mapPane);
    mapLayout->addWidget(legend);
    connect(m_session, &ClusterSession::snapshotPublished, legend, [legend](const ClusterSnapshotPtr& snapshot) {
        legend->setComputeDomainsShown(snapshot && !snapshot->computeDomains.empty());
    });
    // Tab goes tree, map, the bands' buttons and only then the filter above the tree: its line
    // follows the last tab stop made so far.
    QWidget* lastTabStop = previousInFocusChain();
    while (!(lastTabStop->focusPolicy() & Qt::TabFocus)) lastTabStop = lastTabStop->previousInFocusChain();
    setTabOrder(lastTabStop, filterBar()->lineEdit());

    m_details = new DetailsPanel(this);
    m_details->setSession(m_session);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_treePane);
    m_splitter->addWidget(mapPane);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    connect(m_map, &TopologyMapView::domainSelected, m_treePane, &TreePane::selectDomain);
    connect(m_map, &TopologyMapView::nodeSelected, m_treePane, &TreePane::selectNode);
    connect(m_map, &TopologyMapView::selectionCleared, this, [this] { m_treePane->select(QModelIndex()); });
    connect(m_map, &TopologyMapView::focusChanged, m_breadcrumbs, &MapBreadcrumbs::setFocusDomain);
    connect(m_breadcrumbs, &MapBreadcrumbs::domainChosen, this, [this](DomainId id) {
        m_map->zoomToDomain(id);
        m_map->setFocus();
    });
    connect(m_details, &DetailsPanel::domainActivated, m_treePane, &TreePane::selectDomain);
    connect(m_details, &DetailsPanel::nodeActivated, m_treePane, &TreePane::selectNode);
}

void MainWindow::buildDocks() {
    m_pagesMenu = new QMenu(tr("&Pages"), this);
    auto addDock = [this](QWidget* page, const QString& title, const QString& name, Qt::DockWidgetArea area,
                          const QKeySequence& shortcut) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(page);
        addDockWidget(area, dock);
        QAction* toggle = dock->toggleViewAction();
        toggle->setShortcut(shortcut);
        // Opening a page from the keyboard puts the keyboard in it.
        connect(toggle, &QAction::triggered, page, [page](bool shown) {
            if (shown) page->setFocus();
        });
        m_pagesMenu->addAction(toggle);
        return dock;
    };
    m_planner = new PlannerPanel(m_session, this);
    m_planner->setFlags(AppSettings().plannerInputs());
    QDockWidget* planner = addDock(m_planner, tr("Planner"), QStringLiteral("plannerDock"), Qt::RightDockWidgetArea,
                                   QKeySequence(Qt::Key_F2));
    planner->setMinimumWidth(460);
    m_gangs = new GangsPage(m_session, this);
    QDockWidget* gangs = addDock(m_gangs, tr("Running Gangs"), QStringLiteral("gangsDock"), Qt::BottomDockWidgetArea,
                                 QKeySequence(Qt::Key_F3));
    m_charts = new ChartsPage(this);
    QDockWidget* charts = addDock(m_charts, tr("Charts"), QStringLiteral("chartsDock"), Qt::BottomDockWidgetArea,
                                  QKeySequence(Qt::Key_F4));
    tabifyDockWidget(gangs, charts);
    m_whatIf = new WhatIfPanel(m_session, this);
    m_whatIf->setPlaceFlagsProvider([this] { return m_planner->flags(); });
    QDockWidget* whatIf = addDock(m_whatIf, tr("What-If"), QStringLiteral("whatIfDock"), Qt::RightDockWidgetArea,
                                  QKeySequence(Qt::Key_F5));
    tabifyDockWidget(planner, whatIf);
    m_changes = new ChangesPage(m_session, this);
    m_changes->setGangFlagsProvider([this] { return m_planner->flags(); });
    QDockWidget* changes = addDock(m_changes, tr("Changes"), QStringLiteral("changesDock"), Qt::RightDockWidgetArea,
                                   QKeySequence(Qt::Key_F6));
    tabifyDockWidget(whatIf, changes);
    for (QDockWidget* dock : {planner, gangs, charts, whatIf, changes}) dock->hide();

    connect(m_planner, &PlannerPanel::placementShown, m_map, &TopologyMapView::setHighlight);
    connect(m_planner, &PlannerPanel::pathActivated, m_treePane, &TreePane::selectPath);
    connect(m_planner, &PlannerPanel::answerShown, this, [this] {
        AppSettings().setPlannerInputs(m_planner->flags());
        // The free-capacity colours count pods of the gang just planned.
        const PlanAnswerPtr& answer = m_planner->answer();
        if (!answer || !answer->error.empty() || !m_shown) return;
        const GangRequest& gang = answer->outcome.gang;
        m_map->setCapacityShape(gpusPerPod(gang, m_shown->index.gpuResources()), gang.pods);
    });
    connect(m_gangs, &GangsPage::gangDetails, m_details, &DetailsPanel::showGang);
    connect(m_gangs, &GangsPage::gangSelected, this, [this](const QString& name, const std::vector<NodeId>& nodes) {
        m_map->setHighlight(outlined(nodes),
                            nodes.empty() ? QString() : tr("gang %1 (%2 nodes)").arg(name).arg(nodes.size()));
    });
    connect(m_changes, &ChangesPage::nodesChanged, this,
            [this](const std::vector<NodeId>& nodes, const QString& meaning) {
                m_map->setHighlight(outlined(nodes), meaning);
            });
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_opener = new ClusterOpener(m_session, this);
    connect(m_opener, &ClusterOpener::sourceFlagsChanged, m_planner, &PlannerPanel::setSourceFlags);
    connect(m_opener, &ClusterOpener::openFailed, m_status, &StatusWarnings::showOpenFailure);
    m_opener->addToFileMenu(file);
    file->addSeparator();
    auto* exports = new ExportActions(m_session, m_map, this);
    exports->setPlannerFlagsProvider([this] { return m_planner->flags(); });
    exports->addToMenu(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu* view = m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, m_map, &TopologyMapView::zoomIn);
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, m_map, &TopologyMapView::zoomOut);
    QAction* zoomFit =
        view->addAction(tr("&Fit Map"), QKeySequence(Qt::CTRL | Qt::Key_0), m_map, &TopologyMapView::zoomToFit);
    m_freeCapacity = view->addAction(tr("Colour by Free &Capacity"));
    m_freeCapacity->setCheckable(true);
    m_freeCapacity->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_freeCapacity->setToolTip(tr("Colour each domain by how many pods of the planner's shape it could take now"));
    connect(m_freeCapacity, &QAction::toggled, this, [this](bool on) {
        m_map->setColourMode(on ? TopologyMapView::ColourMode::FreeCapacity : TopologyMapView::ColourMode::Occupancy);
    });
    view->addAction(tr("Fi&lter Nodes by Label…"), QKeySequence(Qt::CTRL | Qt::Key_L), filterBar(),
                    &FilterBar::focusFilter)
        ->setToolTip(tr("Type a Kubernetes label selector to narrow the tree and dim the map"));

    view->addSeparator();
    view->addMenu(new ThemeMenu(view));
    view->addSeparator();
    view->addMenu(m_pagesMenu);

    menuBar()->addMenu(tr("&Simulation"))->addAction(m_opener->simulateAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About topodeck"), this, [this] {
        QMessageBox::about(this, tr("About topodeck"),
                           tr("<b>topodeck %1</b><p>A topology console for GPU clusters: how each block, rack "
                              "and NVLink domain is occupied, down to every GPU.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_opener->addToToolBar(toolbar);
    toolbar->addSeparator();
    toolbar->addActions({m_zoomIn, zoomOut, zoomFit, m_freeCapacity});
}

void MainWindow::buildWhatIf() {
    // Before Help, which stays last.
    auto* menu = new QMenu(tr("What-&If"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), menu);
    QAction* fail = menu->addAction(tr("Mark Selected &Failed"), this,
                                    [this] { markSelected(static_cast<int>(WhatIfStep::Kind::Fail)); });
    fail->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    fail->setToolTip(tr("What-if: the selected node or domain fails; which running gangs break?"));
    QAction* drain = menu->addAction(tr("&Drain Selected"), this,
                                     [this] { markSelected(static_cast<int>(WhatIfStep::Kind::Drain)); });
    drain->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    drain->setToolTip(tr("What-if: no new pods on the selected node or domain"));
    menu->addSeparator();
    menu->addAction(m_whatIf->applyAction());
    menu->addAction(m_whatIf->resetAction());
    m_treePane->addContextAction(fail);
    m_treePane->addContextAction(drain);
    m_mapMenu = new MapContextMenu(m_map, m_treePane, this);
    m_mapMenu->addActions({fail, drain});

    m_whatIfBar = new WhatIfBar(this);
    addToolBarBreak();
    addToolBar(m_whatIfBar);
    m_whatIfBar->hide();
    connect(m_whatIfBar->banner(), &WhatIfBanner::resetRequested, m_whatIf, &WhatIfPanel::reset);

    connect(m_session, &ClusterSession::whatIfAnswered, this, [this](const WhatIfAnswerPtr& answer) {
        if (!answer->snapshot) return;
        showSnapshot(answer->snapshot);
        const auto steps = answer->snapshot->hypotheticalSteps.size();
        m_map->setHighlight(outlined(answer->changedNodes),
                            tr("Hypothetical: %1").arg(steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps)));
    });
    connect(m_session, &ClusterSession::whatIfCleared, this, [this] {
        m_map->setHighlight({}, QString());
        if (ClusterSnapshotPtr live = m_session->latestSnapshot()) showSnapshot(live);
    });
}

void MainWindow::buildChanges() {
    // Before Help, which stays last.
    auto* menu = new QMenu(tr("&Changes"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), menu);
    m_editLabels = menu->addAction(tr("Edit &Labels of Selected…"), this, [this] {
        const std::optional<TreeTarget> target = selectedTarget();
        if (!target) return;
        showPage(QStringLiteral("changes"));
        m_changes->setTarget(target->name, target->isNode);
    });
    m_editLabels->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_editLabels->setToolTip(tr("A change plan for the selected node, or every node of the selected domain"));
    m_treePane->addContextAction(m_editLabels);
    m_mapMenu->addSeparator();
    m_mapMenu->addAction(m_editLabels);
    menu->addSeparator();
    m_editors = new ObjectEditors(m_session, this);
    m_editors->addToMenu(menu);
    connect(m_editors, &ObjectEditors::previewRequested, this,
            [this](const std::vector<ObjectKind>& kinds, const std::vector<ObjectChange>& changes) {
                showPage(QStringLiteral("changes"));
                m_changes->previewObjectChanges(kinds, changes);
            });
}

void MainWindow::buildPalette() {
    m_palette = new CommandPalette(this);
    auto* open = new QAction(tr("&Go to…"), this);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    open->setToolTip(tr("Find a node, domain or action by name"));
    connect(open, &QAction::triggered, m_palette, &CommandPalette::popup);
    m_viewMenu->insertAction(m_zoomIn, open);
    // Help › Keyboard Shortcuts lists what the menus hold, so it cannot fall behind them.
    menuBar()->actions().constLast()->menu()->addAction(
        tr("&Keyboard Shortcuts"), QKeySequence(Qt::Key_F1), this, [this] {
            QMessageBox::information(this, tr("Keyboard Shortcuts"), shortcutsTable(menuBarActions(menuBar())));
        });
    m_palette->setEntries(tr("action"), actionEntries(menuBarActions(menuBar()), open));
}

void MainWindow::showSnapshot(const ClusterSnapshotPtr& snapshot) {
    if (!snapshot) return;
    // While a what-if is applied the views show its hypothetical cluster; live snapshots go on
    // feeding the charts' history only.
    if (m_session->whatIfActive() && !snapshot->hypothetical()) return m_charts->setSnapshot(snapshot);
    m_whatIfBar->setSnapshot(snapshot);
    m_whatIf->setCompletionSnapshot(snapshot);
    const bool newSource = !m_shown || m_shown->sourceEpoch != snapshot->sourceEpoch;
    m_shown = snapshot;
    m_treePane->setSnapshot(snapshot);
    m_map->setSnapshot(snapshot);
    m_treePane->applyNodeFilter(); // after the map has the snapshot: the filter's mask goes to it
    m_breadcrumbs->setSnapshot(snapshot);
    m_details->setSnapshot(snapshot);
    if (!snapshot->hypothetical()) m_charts->setSnapshot(snapshot);
    m_planner->snapshotShown(snapshot->generation);
    m_status->showSnapshot(snapshot, newSource);
    if (newSource) {
        m_opener->sourceShown();
        setWindowTitle(
            tr("%1 — topodeck").arg(snapshot->title.isEmpty() ? snapshot->status.sourceName : snapshot->title));
        m_treePane->expandForNewCluster();
        refreshPaletteEntries();
        fitTreeWidth(m_treePane->fitColumns(false), false);
        Q_EMIT dataShown();
    }
    Q_EMIT snapshotShown();
}

void MainWindow::followTreeSelection(const QModelIndex& current) {
    if (!current.isValid()) {
        m_map->clearSelection();
        m_details->showCluster();
    } else if (current.data(TopologyTreeModel::IsNodeRole).toBool()) {
        const auto id = current.data(TopologyTreeModel::NodeIdRole).value<NodeId>();
        m_map->setSelectedNode(id);
        m_details->showNode(id);
    } else {
        const auto id = current.data(TopologyTreeModel::DomainIdRole).value<DomainId>();
        m_map->setSelectedDomain(id);
        m_charts->setSelectedDomain(id);
        m_details->showDomain(id);
    }
}

void MainWindow::fitTreeWidth(int treeWidth, bool growOnly) {
    const QList<int> sizes = m_splitter->sizes();
    const int total = std::max(m_splitter->width(), width());
    const int tree = std::min(treeWidth, kMaxTreeWidth);
    if (sizes.size() != 3 || (growOnly && tree <= sizes[0])) return;
    const int details = growOnly ? sizes[2] : kDetailsWidth;
    m_splitter->setSizes({tree, std::max(200, total - tree - details), details});
}

std::optional<TreeTarget> MainWindow::selectedTarget() {
    std::optional<TreeTarget> target = m_treePane->currentTarget();
    if (!target) statusBar()->showMessage(tr("Select a node or a domain first"), 4000);
    return target;
}

void MainWindow::markSelected(int whatIfStepKind) {
    const std::optional<TreeTarget> target = selectedTarget();
    if (!target) return;
    showPage(QStringLiteral("what-if"));
    m_whatIf->addTargetStep(static_cast<WhatIfStep::Kind>(whatIfStepKind), target->name);
    m_whatIf->apply();
}

void MainWindow::refreshPaletteEntries() {
    if (!m_shown) return;
    // A domain or node found goes to the map, where the arrows go on from it.
    m_palette->setEntries(tr("domain"), domainEntries(m_shown->index, [this](DomainId id) {
                              m_treePane->selectDomain(id);
                              m_map->setFocus();
                          }));
    m_palette->setEntries(tr("node"), nodeEntries(*m_shown, [this](NodeId id) {
                              m_treePane->selectNode(id);
                              m_map->setFocus();
                          }));
    // Gangs and Slurm jobs come with the next gangs report.
    m_session->requestGangsReport();
}

void MainWindow::refreshPaletteGangs(const GangsReportPtr& report) {
    if (!report) return;
    m_palette->setEntries(tr("gang"), gangEntries(*report, [this](const QString& name) {
                              showPage(QStringLiteral("gangs"));
                              // The page may still be waiting for its own first report.
                              if (!m_gangs->selectGang(name)) m_pendingGang = name;
                          }));
    if (!m_pendingGang.isEmpty() && m_gangs->selectGang(m_pendingGang)) m_pendingGang.clear();
}

void MainWindow::open(const LaunchOptions& options) {
    if (!options.filter.isEmpty()) filterBar()->setFilterText(options.filter);
    m_opener->open(options);
}

bool MainWindow::showPage(const QString& page) {
    const QWidget* widget = page == QLatin1String("planner")   ? static_cast<QWidget*>(m_planner)
                            : page == QLatin1String("gangs")   ? static_cast<QWidget*>(m_gangs)
                            : page == QLatin1String("charts")  ? static_cast<QWidget*>(m_charts)
                            : page == QLatin1String("what-if") ? static_cast<QWidget*>(m_whatIf)
                            : page == QLatin1String("changes") ? static_cast<QWidget*>(m_changes)
                                                               : nullptr;
    if (!widget) return false;
    auto* dock = qobject_cast<QDockWidget*>(widget->parentWidget());
    dock->show();
    dock->raise();
    dock->widget()->setFocus();
    return true;
}

void MainWindow::setMapView(const QString& zoomPath, bool freeCapacity) {
    m_freeCapacity->setChecked(freeCapacity);
    LaunchActions::zoomOnceShown(*this, zoomPath);
}

void MainWindow::restoreLayout() {
    new WindowLayoutMemory(this);
}

} // namespace topodeck
