#include "app/gui/main_window.h"

#include "app/gui/command_line.h"
#include "core/command_args.h"
#include "core/label_selector.h"
#include "models/topology_filter_model.h"
#include "models/topology_tree_model.h"
#include "session/cluster_session.h"
#include "views/app_settings.h"
#include "views/changes_page.h"
#include "views/charts_page.h"
#include "views/cluster_totals_label.h"
#include "views/command_palette.h"
#include "views/connect_dialog.h"
#include "views/details_panel.h"
#include "views/export_dialog.h"
#include "views/filter_bar.h"
#include "views/gangs_page.h"
#include "views/hypernode_editor.h"
#include "views/map_breadcrumbs.h"
#include "views/map_legend.h"
#include "views/occupancy_bar_delegate.h"
#include "views/occupancy_notice.h"
#include "views/open_failure_banner.h"
#include "views/palette_entries.h"
#include "views/planner_panel.h"
#include "views/recent_clusters_menu.h"
#include "views/source_status_label.h"
#include "views/theme.h"
#include "views/topology_editor.h"
#include "views/topology_map_view.h"
#include "views/what_if_banner.h"
#include "views/what_if_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <utility>

namespace topodeck {

namespace {

struct DemoEntry {
    const char* name;
    const char* label;
};
constexpr DemoEntry kDemos[] = {
    {"gb200", QT_TRANSLATE_NOOP("MainWindow", "GB200 NVL72 SuperPOD (gb200)")},
    {"h100", QT_TRANSLATE_NOOP("MainWindow", "H100 HGX blocks (h100)")},
    {"scale:4096", QT_TRANSLATE_NOOP("MainWindow", "4,096 nodes (scale:4096)")},
    {"scale:65536", QT_TRANSLATE_NOOP("MainWindow", "65,536 nodes (scale:65536)")},
};

// A new cluster opens with as many levels expanded as fit in about this many rows.
constexpr int kInitialTreeRows = 40;
// A filter keeping at most this many nodes opens the tree down to them.
constexpr std::size_t kExpandFilteredNodes = 200;
constexpr int kDetailsWidth = 380;
constexpr int kMaxTreeWidth = 620;
constexpr int kMaxWarningWidth = 420; // the status bar's warning, elided; the tooltip has them all

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

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_session(new ClusterSession(this)), m_launch(std::make_unique<LaunchOptions>()) {
    setWindowTitle(tr("topodeck"));
    buildPages();
    buildDocks();
    buildActions();
    buildWhatIf();
    buildChanges();
    buildPalette();
    buildStatusBar();
    connect(m_session, &ClusterSession::snapshotPublished, this, &MainWindow::showSnapshot);
    connect(m_session, &ClusterSession::statusChanged, this, &MainWindow::showStatus);
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
    m_model = new TopologyTreeModel(this);
    m_filterModel = new TopologyFilterModel(m_model, this);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_filterModel);
    m_tree->setItemDelegateForColumn(TopologyTreeModel::OccupancyColumn, new OccupancyBarDelegate(m_tree));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->setAccessibleName(tr("Topology tree"));
    // Expanding shows deeper names (and node states): widen the columns so none is clipped.
    connect(m_tree, &QTreeView::expanded, this, [this] { fitTreeColumns(true); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { followTreeSelection(current); });

    m_map = new TopologyMapView(this);
    auto* mapPane = new QWidget(this);
    auto* mapLayout = new QVBoxLayout(mapPane);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->setSpacing(0);
    m_openFailure = new OpenFailureBanner(mapPane);
    mapLayout->addWidget(m_openFailure);
    m_notice = new OccupancyNotice(mapPane);
    mapLayout->addWidget(m_notice);
    m_breadcrumbs = new MapBreadcrumbs(mapPane);
    mapLayout->addWidget(m_breadcrumbs);
    mapLayout->addWidget(m_map, 1);
    mapLayout->addWidget(new MapLegend(mapPane));

    m_filterBar = new FilterBar(this);
    connect(m_filterBar, &FilterBar::selectorChanged, this, [this] {
        applyNodeFilter();
        expandToFewMatches();
    });
    auto* treePane = new QWidget(this);
    auto* treeLayout = new QVBoxLayout(treePane);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    treeLayout->setSpacing(0);
    treeLayout->addWidget(m_filterBar);
    treeLayout->addWidget(m_tree, 1);

    m_details = new DetailsPanel(this);
    m_details->setSession(m_session);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(treePane);
    m_splitter->addWidget(mapPane);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    auto selectDomain = [this](DomainId id) { selectIndex(m_model->indexForDomain(id)); };
    auto selectNode = [this](NodeId id) { selectIndex(m_model->indexForNode(id)); };
    connect(m_map, &TopologyMapView::domainSelected, this, selectDomain);
    connect(m_map, &TopologyMapView::nodeSelected, this, selectNode);
    connect(m_map, &TopologyMapView::selectionCleared, this, [this] { selectIndex(QModelIndex()); });
    connect(m_map, &TopologyMapView::focusChanged, m_breadcrumbs, &MapBreadcrumbs::setFocusDomain);
    connect(m_breadcrumbs, &MapBreadcrumbs::domainChosen, this, [this](DomainId id) {
        m_map->zoomToDomain(id);
        m_map->setFocus();
    });
    connect(m_details, &DetailsPanel::domainActivated, this, selectDomain);
    connect(m_details, &DetailsPanel::nodeActivated, this, selectNode);
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openFile = file->addAction(tr("&Open Snapshot File…"), this, &MainWindow::openFileDialog);
    m_openFile->setShortcut(QKeySequence::Open);
    m_openFile->setToolTip(tr("Open a file written by kubectl get nodes,pods -A -o yaml (or json)"));
    m_connect = file->addAction(tr("&Connect to a Cluster…"), this, &MainWindow::openConnectDialog);
    // Ctrl+K is the command palette's, as in most consoles.
    m_connect->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_connect->setToolTip(tr("Follow a live cluster: Kubernetes through a kubeconfig context, or Slurm through "
                             "slurmrestd or the Slurm commands"));
    QMenu* demos = file->addMenu(tr("Open &Demo Cluster"));
    for (const DemoEntry& demo : kDemos) {
        const QString name = QString::fromLatin1(demo.name);
        demos->addAction(tr(demo.label), this, [this, name] { openDemo(name); });
    }
    m_recentMenu = new RecentClustersMenu(this);
    connect(m_recentMenu, &RecentClustersMenu::chosen, this, &MainWindow::openRecent);
    file->addMenu(m_recentMenu);
    file->addSeparator();
    QAction* exportMap = file->addAction(tr("&Export Map View…"), this, &MainWindow::exportMapDialog);
    exportMap->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportMap->setToolTip(tr("Save the map as shown, as a PNG picture or an SVG drawing"));
    QAction* exportReview = file->addAction(tr("Export for &Review…"), this, &MainWindow::openExportDialog);
    exportReview->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    exportReview->setToolTip(tr("Write a review bundle of a change plan, or the hierarchy as Kueue, KAI, Volcano and "
                                "Slurm files, as topodeckctl export does"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu* view = m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, m_map, &TopologyMapView::zoomIn);
    m_zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, m_map, &TopologyMapView::zoomOut);
    m_zoomFit = view->addAction(tr("&Fit Map"), QKeySequence(Qt::CTRL | Qt::Key_0), m_map, &TopologyMapView::zoomToFit);
    m_freeCapacity = view->addAction(tr("Colour by Free &Capacity"));
    m_freeCapacity->setCheckable(true);
    m_freeCapacity->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_freeCapacity->setToolTip(tr("Colour each domain by how many pods of the planner's shape it could take now"));
    connect(m_freeCapacity, &QAction::toggled, this, [this](bool on) {
        m_map->setColourMode(on ? TopologyMapView::ColourMode::FreeCapacity : TopologyMapView::ColourMode::Occupancy);
    });
    m_focusFilter = view->addAction(tr("Fi&lter Nodes by Label…"), QKeySequence(Qt::CTRL | Qt::Key_L), m_filterBar,
                                    &FilterBar::focusFilter);
    m_focusFilter->setToolTip(tr("Type a Kubernetes label selector to narrow the tree and dim the map"));

    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    const std::pair<ThemeChoice, QString> themes[] = {{ThemeChoice::System, tr("Follow the &Desktop")},
                                                      {ThemeChoice::Light, tr("&Light")},
                                                      {ThemeChoice::Dark, tr("D&ark")}};
    auto* themeGroup = new QActionGroup(this);
    for (const auto& [choice, text] : themes) {
        QAction* action = theme->addAction(text);
        action->setCheckable(true);
        action->setChecked(choice == AppSettings().theme());
        themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [choice = choice] {
            AppSettings().setTheme(choice);
            Theme::apply(choice);
        });
    }
    view->addSeparator();
    view->addMenu(m_pagesMenu);

    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    m_simulate = simulation->addAction(tr("&Simulate"));
    m_simulate->setCheckable(true);
    m_simulate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_simulate->setToolTip(tr("Start and finish gangs on the demo cluster so occupancy changes live"));
    connect(m_simulate, &QAction::toggled, m_session, &ClusterSession::setSimulationEnabled);

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
    toolbar->addAction(m_openFile);
    toolbar->addAction(m_connect);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr("Demo:"), toolbar));
    m_demoChooser = new QComboBox(toolbar);
    m_demoChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_demoChooser->setToolTip(tr("Open an embedded demo cluster"));
    for (const DemoEntry& demo : kDemos) m_demoChooser->addItem(tr(demo.label), QString::fromLatin1(demo.name));
    connect(m_demoChooser, &QComboBox::activated, this,
            [this](int row) { openDemo(m_demoChooser->itemData(row).toString()); });
    toolbar->addWidget(m_demoChooser);
    toolbar->addAction(m_simulate);
    toolbar->addSeparator();
    toolbar->addAction(m_zoomIn);
    toolbar->addAction(m_zoomOut);
    toolbar->addAction(m_zoomFit);
    toolbar->addAction(m_freeCapacity);
}

void MainWindow::openRecent(const RecentCluster& cluster) {
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
        if (!target)
            return m_openFailure->showFailure(tr("Slurm %1").arg(cluster.target),
                                              QString::fromStdString(target.error().message),
                                              m_shown ? m_shown->status.sourceName : QString());
        ConnectChoice choice;
        choice.kind = ConnectChoice::Kind::Slurm;
        choice.slurm = *target;
        return connectTo(choice);
    }
    }
}

void MainWindow::restoreLayout() {
    m_remembersLayout = true;
    const AppSettings settings;
    const QByteArray geometry = settings.windowGeometry();
    // Qt puts a window saved on a screen that is gone back on one that is there.
    if (!geometry.isEmpty()) restoreGeometry(geometry);
    const QByteArray state = settings.windowState();
    if (!state.isEmpty()) restoreState(state);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_remembersLayout) {
        AppSettings settings;
        settings.setWindowGeometry(saveGeometry());
        settings.setWindowState(saveState());
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::openExportDialog() {
    auto* dialog = new ExportDialog(m_session, this);
    dialog->setObjectName(QStringLiteral("exportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const ClusterSnapshotPtr shown = m_session->latestSnapshot();
    dialog->start(m_planner->flags(), shown ? shown->title : QString());
    dialog->open();
}

void MainWindow::exportMapDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Map View"), QStringLiteral("topodeck-map.png"),
                                                      tr("PNG picture (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_map->exportView(path, &error)) QMessageBox::warning(this, tr("Export Map View"), error);
}

void MainWindow::buildStatusBar() {
    m_stateLabel = new SourceStatusLabel(this);
    m_totalsLabel = new ClusterTotalsLabel(this);
    m_warningsLabel = new QLabel(this);
    statusBar()->addWidget(m_stateLabel, 1);
    statusBar()->addPermanentWidget(m_totalsLabel);
    statusBar()->addPermanentWidget(m_warningsLabel);
    showStatus(SourceStatus{tr("no source"), SourceHealth::Connecting, QString(), {}});
}

void MainWindow::open(const LaunchOptions& options) {
    *m_launch = options;
    m_session->setTopologyChoice(options.topology, options.levels, options.gpuResources, options.slurmTopologyFile);
    m_simulate->setChecked(options.simulate);
    m_session->setSimulationEnabled(options.simulate);
    if (!options.filter.isEmpty()) m_filterBar->setFilterText(options.filter);
    if (options.live())
        connectTo(firstLiveCluster(options));
    else if (!options.file.isEmpty())
        openFile(options.file);
    else
        openDemo(options.demo);
}

void MainWindow::connectTo(const ConnectChoice& choice) {
    m_demoChooser->setCurrentIndex(-1);
    m_simulate->setChecked(false);
    m_simulate->setEnabled(false);
    *m_launch = withCluster(*m_launch, choice);
    m_opening.reset(); // a pod's own service account is not worth a menu entry
    if (choice.kind == ConnectChoice::Kind::Slurm)
        m_opening = RecentCluster{RecentCluster::Kind::Slurm,
                                  choice.slurm.kind == SlurmTarget::Kind::Cli ? QStringLiteral("cli")
                                                                              : QString::fromStdString(choice.slurm.url),
                                  {}};
    else if (!choice.inCluster)
        m_opening = RecentCluster{RecentCluster::Kind::Context, choice.context, choice.kubeconfig};
    m_planner->setSourceFlags(choice.kind == ConnectChoice::Kind::Slurm
                                  ? QStringLiteral("--slurm …")
                                  : QStringLiteral("--context ") +
                                        QString::fromStdString(joinCommandWords({choice.context.toStdString()})));
    if (choice.kind == ConnectChoice::Kind::Kubernetes)
        return m_session->openKubernetes(choice.context, choice.kubeconfig, choice.inCluster);
    SlurmSourceOptions slurmOptions;
    slurmOptions.pollInterval = choice.slurmPoll;
    m_session->setSlurmSourceOptions(slurmOptions);
    m_session->openSlurm(choice.slurm);
}

void MainWindow::openConnectDialog() {
    auto* dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // A window that shows a cluster keeps it; another cluster gets a window of its own.
    dialog->start(m_launch->kubeconfig, m_shown != nullptr);
    if (m_launch->slurm) dialog->showSlurm(*m_launch->slurm, m_launch->slurmPoll);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectChoice choice = dialog->choice();
        if (!choice.newWindow) return connectTo(choice);
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->open(withCluster(*m_launch, choice));
        window->show();
    });
    dialog->open();
}

void MainWindow::openDemo(const QString& name) {
    m_planner->setSourceFlags(QStringLiteral("--demo ") +
                              QString::fromStdString(joinCommandWords({name.toStdString()})));
    m_demoChooser->setCurrentIndex(m_demoChooser->findData(name));
    m_simulate->setEnabled(true);
    m_opening = RecentCluster{RecentCluster::Kind::Demo, name, {}};
    m_session->openDemo(name);
}

void MainWindow::openFileDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Snapshot File"), QString(),
                                                      tr("Cluster snapshots (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path) {
    m_planner->setSourceFlags(QStringLiteral("-f ") + QString::fromStdString(joinCommandWords({path.toStdString()})));
    m_demoChooser->setCurrentIndex(-1);
    // The simulator only drives demo clusters.
    m_simulate->setChecked(false);
    m_simulate->setEnabled(false);
    m_opening = RecentCluster{RecentCluster::Kind::File, QFileInfo(path).absoluteFilePath(), {}};
    m_session->openFile(path);
}

void MainWindow::showSnapshot(const ClusterSnapshotPtr& snapshot) {
    if (!snapshot) return;
    // While a what-if is applied the views show its hypothetical cluster; live snapshots go on
    // feeding the charts' history only.
    if (m_session->whatIfActive() && !snapshot->hypothetical()) return m_charts->setSnapshot(snapshot);
    m_whatIfBanner->setSnapshot(snapshot);
    m_whatIfBar->setVisible(m_whatIfBanner->active());
    m_whatIf->setCompletionSnapshot(snapshot);
    const bool newSource = !m_shown || m_shown->sourceEpoch != snapshot->sourceEpoch;
    m_shown = snapshot;
    m_model->setSnapshot(snapshot);
    m_map->setSnapshot(snapshot);
    applyNodeFilter();
    m_breadcrumbs->setSnapshot(snapshot);
    m_details->setSnapshot(snapshot);
    if (!snapshot->hypothetical()) m_charts->setSnapshot(snapshot);
    m_planner->snapshotShown(snapshot->generation);
    showStatus(snapshot->status);
    if (newSource) {
        m_openFailure->hide();
        if (m_opening) AppSettings().addRecentCluster(*std::exchange(m_opening, std::nullopt));
        setWindowTitle(
            tr("%1 — topodeck").arg(snapshot->title.isEmpty() ? snapshot->status.sourceName : snapshot->title));
        expandInitialLevels(snapshot->index);
        expandToFewMatches();
        refreshPaletteEntries();
        fitTreeColumns(false);
        Q_EMIT dataShown();
    }
    Q_EMIT snapshotShown();
}

void MainWindow::expandInitialLevels(const TopologyIndex& index) {
    std::vector<int> perLevel(std::size_t(std::max(0, index.spec().depth())), 0);
    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (domain.alive && domain.level >= 0 && std::size_t(domain.level) < perLevel.size())
            ++perLevel[std::size_t(domain.level)];
    }
    // Expanding depth d shows the domains of levels 0..d+1; nodes (below the last level) never.
    int rows = perLevel.empty() ? 0 : perLevel[0];
    int depth = -1;
    while (std::size_t(depth + 2) < perLevel.size() && rows + perLevel[std::size_t(depth + 2)] <= kInitialTreeRows)
        rows += perLevel[std::size_t(++depth + 1)];
    if (depth >= 0) m_tree->expandToDepth(depth);
}

void MainWindow::fitTreeColumns(bool growOnly) {
    int treeWidth = 2 * m_tree->frameWidth() + m_tree->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < TopologyTreeModel::ColumnCount; ++column) {
        const int before = m_tree->columnWidth(column);
        m_tree->resizeColumnToContents(column);
        if (growOnly && m_tree->columnWidth(column) < before) m_tree->setColumnWidth(column, before);
        // Room for deeper names once the user expands a rack.
        if (!growOnly && column == TopologyTreeModel::NameColumn)
            m_tree->setColumnWidth(column, m_tree->columnWidth(column) + 24);
        treeWidth += m_tree->columnWidth(column);
    }
    QList<int> sizes = m_splitter->sizes();
    const int total = std::max(m_splitter->width(), width());
    const int tree = std::min(treeWidth, kMaxTreeWidth);
    if (sizes.size() != 3 || (growOnly && tree <= sizes[0])) return;
    const int details = growOnly ? sizes[2] : kDetailsWidth;
    m_splitter->setSizes({tree, std::max(200, total - tree - details), details});
}

void MainWindow::showStatus(const SourceStatus& status) {
    // A source that failed to open while another is shown: the error goes above the map, and the
    // status bar describes again what the window shows (it said "reading …" meanwhile).
    const bool failedBesideShown =
        status.health == SourceHealth::Error && m_shown && status.sourceName != m_shown->status.sourceName;
    if (status.health == SourceHealth::Error && (failedBesideShown || !m_shown))
        m_openFailure->showFailure(status.sourceName, status.detail, m_shown ? m_shown->status.sourceName : QString());
    if (failedBesideShown) return showStatus(m_shown->status);
    m_stateLabel->setStatus(status);
    // A live cluster's first problem (no permission to list pods, say) matters enough to show as is.
    const auto warnings = static_cast<qsizetype>(status.warnings.size());
    const QString first = warnings > 0 ? QString::fromStdString(status.warnings.front()) : QString();
    if (warnings == 0)
        m_warningsLabel->setText(tr("No warnings"));
    else if (!status.resources.empty())
        m_warningsLabel->setText(m_warningsLabel->fontMetrics().elidedText(
            warnings == 1 ? tr("⚠ %1").arg(first) : tr("⚠ %1 (+%2 more)").arg(first).arg(warnings - 1), Qt::ElideRight,
            kMaxWarningWidth));
    else
        m_warningsLabel->setText(warnings == 1 ? tr("⚠ 1 warning")
                                               : tr("⚠ %1 warnings").arg(QLocale().toString(warnings)));
    QStringList lines;
    for (qsizetype i = 0; i < std::min<qsizetype>(warnings, 20); ++i)
        lines << QString::fromStdString(status.warnings[std::size_t(i)]);
    if (warnings > 20) lines << tr("… and %1 more").arg(warnings - 20);
    m_warningsLabel->setToolTip(lines.join(QLatin1Char('\n')));
    updateTotals();
}

void MainWindow::updateTotals() {
    m_totalsLabel->setSnapshot(m_shown);
    m_notice->setSnapshot(m_shown);
}

void MainWindow::selectIndex(const QModelIndex& index) {
    const QModelIndex shown = m_filterModel->mapFromSource(index);
    if (!shown.isValid()) {
        m_tree->selectionModel()->clear();
        followTreeSelection(index);
        return;
    }
    for (QModelIndex parent = shown.parent(); parent.isValid(); parent = parent.parent()) m_tree->expand(parent);
    m_tree->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(shown, QAbstractItemView::EnsureVisible);
}

void MainWindow::expandToFewMatches() {
    const NodeMask* mask = m_filterModel->nodeMask().get();
    if (mask && std::size_t(std::count(mask->begin(), mask->end(), 1)) <= kExpandFilteredNodes) m_tree->expandAll();
}

void MainWindow::applyNodeFilter() {
    // 65,536 nodes take a few milliseconds (bench_filter), so each snapshot's mask is made here.
    const std::shared_ptr<const LabelSelector>& selector = m_filterBar->selector();
    std::shared_ptr<const NodeMask> mask;
    if (selector && m_shown)
        mask = std::make_shared<const NodeMask>(matchNodes(*selector, m_shown->nodes, m_shown->index));
    m_filterModel->setNodeMask(mask);
    m_map->setNodeFilter(std::move(mask));
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
    connect(m_planner, &PlannerPanel::pathActivated, this, [this](const QString& path) { selectPath(path); });
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
        std::vector<std::pair<NodeId, std::int32_t>> highlight;
        highlight.reserve(nodes.size());
        for (NodeId id : nodes) highlight.emplace_back(id, 0);
        m_map->setHighlight(highlight,
                            nodes.empty() ? QString() : tr("gang %1 (%2 nodes)").arg(name).arg(nodes.size()));
    });
    connect(m_changes, &ChangesPage::nodesChanged, this, [this](const std::vector<NodeId>& nodes, const QString& meaning) {
        std::vector<std::pair<NodeId, std::int32_t>> highlight;
        highlight.reserve(nodes.size());
        for (NodeId id : nodes) highlight.emplace_back(id, 0);
        m_map->setHighlight(highlight, meaning);
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

void MainWindow::refreshPaletteEntries() {
    if (!m_shown) return;
    // A domain or node found goes to the map, where the arrows go on from it.
    m_palette->setEntries(tr("domain"), domainEntries(m_shown->index, [this](DomainId id) {
                              selectIndex(m_model->indexForDomain(id));
                              m_map->setFocus();
                          }));
    m_palette->setEntries(tr("node"), nodeEntries(*m_shown, [this](NodeId id) {
                              selectIndex(m_model->indexForNode(id));
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

void MainWindow::planOnceShown(const QString& flags) {
    showPage(QStringLiteral("planner"));
    m_planner->setFlags(flags);
    // Once: the first data of the source opened next.
    connect(
        this, &MainWindow::dataShown, this, [this] { m_planner->run(); }, Qt::SingleShotConnection);
}

void MainWindow::setMapView(const QString& zoomPath, bool freeCapacity) {
    m_freeCapacity->setChecked(freeCapacity);
    if (zoomPath.isEmpty()) return;
    // Once: the first data of the source opened next.
    connect(
        this, &MainWindow::dataShown, this,
        [this, zoomPath] {
            const std::optional<QModelIndex> index = m_model->indexForPath(zoomPath);
            const QVariant domain = index ? index->data(TopologyTreeModel::DomainIdRole) : QVariant();
            if (domain.isValid())
                m_map->zoomToDomain(domain.value<DomainId>());
            else
                qWarning("topodeck: no domain at path '%s' to zoom to", qPrintable(zoomPath));
        },
        Qt::SingleShotConnection);
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
    m_tree->addAction(fail);
    m_tree->addAction(drain);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    // On the map, a right-click acts on what is under it: that is selected first.
    m_map->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_map, &QWidget::customContextMenuRequested, this, [this, fail, drain](const QPoint& pos) {
        const TopologyMapLayout::Hit hit = m_map->hitAt(pos);
        if (hit.node != TopologyMapLayout::kNoNode)
            selectIndex(m_model->indexForNode(hit.node));
        else if (hit.domain != kNoDomain && hit.domain != kRootDomain)
            selectIndex(m_model->indexForDomain(hit.domain));
        else
            return;
        QMenu contextMenu(this);
        contextMenu.addAction(fail);
        contextMenu.addAction(drain);
        contextMenu.addSeparator();
        contextMenu.addAction(m_editLabels);
        contextMenu.exec(m_map->mapToGlobal(pos));
    });

    // A band across the window, above the tree and the map, while they show a what-if.
    m_whatIfBanner = new WhatIfBanner(this);
    m_whatIfBar = new QToolBar(tr("What-If"), this);
    m_whatIfBar->setObjectName(QStringLiteral("whatIfBar"));
    m_whatIfBar->setMovable(false);
    m_whatIfBar->setFloatable(false);
    m_whatIfBar->toggleViewAction()->setVisible(false);
    m_whatIfBar->addWidget(m_whatIfBanner);
    addToolBarBreak();
    addToolBar(m_whatIfBar);
    m_whatIfBar->hide();
    connect(m_whatIfBanner, &WhatIfBanner::resetRequested, m_whatIf, &WhatIfPanel::reset);

    connect(m_session, &ClusterSession::whatIfAnswered, this, [this](const WhatIfAnswerPtr& answer) {
        if (!answer->snapshot) return;
        showSnapshot(answer->snapshot);
        std::vector<std::pair<NodeId, std::int32_t>> changed;
        for (NodeId id : answer->changedNodes) changed.emplace_back(id, 0);
        const auto steps = answer->snapshot->hypotheticalSteps.size();
        m_map->setHighlight(changed, tr("Hypothetical: %1").arg(steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps)));
    });
    connect(m_session, &ClusterSession::whatIfCleared, this, [this] {
        m_map->setHighlight({}, QString());
        if (ClusterSnapshotPtr live = m_session->latestSnapshot()) showSnapshot(live);
    });
}

std::optional<std::pair<QString, bool>> MainWindow::selectedTarget() {
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid() || !m_shown) {
        statusBar()->showMessage(tr("Select a node or a domain first"), 4000);
        return std::nullopt;
    }
    if (current.data(TopologyTreeModel::IsNodeRole).toBool())
        if (const Node* node = m_shown->node(current.data(TopologyTreeModel::NodeIdRole).value<NodeId>()))
            return std::pair{QString::fromStdString(node->name), true};
    return std::pair{current.siblingAtColumn(0).data(TopologyTreeModel::PathRole).toString(), false};
}

void MainWindow::markSelected(int whatIfStepKind) {
    const auto target = selectedTarget();
    if (!target) return;
    showPage(QStringLiteral("what-if"));
    m_whatIf->addTargetStep(static_cast<WhatIfStep::Kind>(whatIfStepKind), target->first);
    m_whatIf->apply();
}

void MainWindow::buildChanges() {
    // Before Help, which stays last.
    auto* menu = new QMenu(tr("&Changes"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), menu);
    m_editLabels = menu->addAction(tr("Edit &Labels of Selected…"), this, [this] {
        const auto target = selectedTarget();
        if (!target) return;
        showPage(QStringLiteral("changes"));
        m_changes->setTarget(target->first, target->second);
    });
    m_editLabels->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_editLabels->setToolTip(tr("A change plan for the selected node, or every node of the selected domain"));
    m_tree->addAction(m_editLabels);
    menu->addSeparator();
    menu->addAction(tr("Edit &HyperNodes…"), this, &MainWindow::showHyperNodeEditor)
        ->setToolTip(tr("The cluster's Volcano HyperNode tree, edited on a copy and previewed as a change plan"));
    menu->addAction(tr("Edit &Topology Levels…"), this, &MainWindow::showTopologyEditor)
        ->setToolTip(tr("A Kueue or KAI Topology's levels (and a flavor naming it), previewed as a change plan"));
}

template <class Editor> Editor* MainWindow::showEditor(Editor*& editor) {
    if (!editor) {
        editor = new Editor(m_session, this);
        connect(editor, &Editor::previewRequested, this,
                [this](const std::vector<ObjectKind>& kinds, const std::vector<ObjectChange>& changes) {
                    showPage(QStringLiteral("changes"));
                    m_changes->previewObjectChanges(kinds, changes);
                });
    }
    editor->refresh();
    editor->show();
    editor->raise();
    editor->activateWindow();
    return editor;
}

HyperNodeEditor* MainWindow::showHyperNodeEditor() {
    return showEditor(m_hyperNodeEditor);
}

TopologyEditor* MainWindow::showTopologyEditor() {
    return showEditor(m_topologyEditor);
}

void MainWindow::whatIfOnceShown(const QString& steps) {
    showPage(QStringLiteral("what-if"));
    if (!m_whatIf->addSteps(steps)) return;
    // Once: the first data of the source opened next.
    connect(
        this, &MainWindow::dataShown, this, [this] { m_whatIf->apply(); }, Qt::SingleShotConnection);
}

bool MainWindow::selectPath(const QString& path) {
    const std::optional<QModelIndex> index = m_model->indexForPath(path);
    if (index) selectIndex(*index);
    return index.has_value();
}

} // namespace topodeck
