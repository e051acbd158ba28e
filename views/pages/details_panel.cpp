#include "views/pages/details_panel.h"

#include "core/topology/level_capacity.h"
#include "models/cluster_terms.h"
#include "models/compute_domain_terms.h"
#include "models/domain_children_model.h"
#include "models/domain_names.h"
#include "models/gang_domains_model.h"
#include "models/node_conditions_model.h"
#include "models/node_labels_model.h"
#include "models/node_pods_model.h"
#include "models/node_resources_model.h"
#include "models/node_taints_model.h"
#include "models/topology_tree_model.h"
#include "views/map/occupancy_bar_delegate.h"
#include "views/map/occupancy_palette.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QResizeEvent>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace topodeck {

namespace {

// The selected item's GPU occupancy as one wide bar.
class OccupancyBarWidget : public QWidget {
public:
    explicit OccupancyBarWidget(QWidget* parent) : QWidget(parent) {
        setFixedHeight(14);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    void setValues(qint64 used, qint64 free, qint64 unavailable) {
        m_used = used;
        m_free = free;
        m_unavailable = unavailable;
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        OccupancyBarDelegate::paintBar(&painter, QRectF(rect()), m_used, m_free, m_unavailable,
                                       OccupancyPalette::forPalette(palette()));
    }

private:
    qint64 m_used = 0;
    qint64 m_free = 0;
    qint64 m_unavailable = 0;
};

QString count(qint64 n) {
    return QLocale().toString(n);
}

QString percentOf(qint64 part, qint64 total) {
    if (total <= 0) return QString();
    return QStringLiteral(" (") % QLocale().toString(100.0 * double(part) / double(total), 'f', 0) %
           QStringLiteral("%)");
}

QString nodeCount(qint64 n) {
    return n == 1 ? DetailsPanel::tr("1 node") : DetailsPanel::tr("%1 nodes").arg(count(n));
}

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// A read-only table of whole rows, compact enough for the narrow pane.
QTableView* makeTable(QWidget* parent, QAbstractItemModel* model) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setHighlightSections(false);
    return table;
}

QLabel* valueLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

// A name: value form of selectable labels, one per name, written into `values`.
template <std::size_t N>
QFormLayout* factForm(QWidget* page, const std::array<QString, N>& names, std::array<QLabel*, N>& values) {
    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignLeft);
    form->setHorizontalSpacing(14);
    form->setVerticalSpacing(3);
    for (std::size_t i = 0; i < N; ++i) {
        values[i] = valueLabel(page);
        auto* name = new QLabel(names[i], page);
        name->setForegroundRole(QPalette::PlaceholderText); // names quieter than values, stacked or not
        form->addRow(name, values[i]);
    }
    return form;
}

} // namespace

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent) {
    setMinimumWidth(260);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);

    m_title = new QLabel(this);
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_subtitle = new QLabel(this);
    m_subtitle->setForegroundRole(QPalette::PlaceholderText);
    m_subtitle->setWordWrap(true);
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bar = new OccupancyBarWidget(this);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addWidget(m_bar);

    m_delegate = new OccupancyBarDelegate(this);
    m_pages = new QStackedWidget(this);
    m_emptyPage = new QLabel(tr("Waiting for cluster data…"), this);
    static_cast<QLabel*>(m_emptyPage)->setAlignment(Qt::AlignCenter);
    m_domainPage = buildDomainPage();
    m_nodePage = buildNodePage();
    m_pages->addWidget(m_emptyPage);
    m_pages->addWidget(m_domainPage);
    m_gangPage = buildGangPage();
    m_pages->addWidget(m_nodePage);
    m_pages->addWidget(m_gangPage);
    layout->addWidget(m_pages, 1);
    refresh();
}

void DetailsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const QFormLayout::RowWrapPolicy policy =
        width() < kStackedFactsWidth ? QFormLayout::WrapAllRows : QFormLayout::DontWrapRows;
    for (QFormLayout* form : m_factForms)
        if (form->rowWrapPolicy() != policy) form->setRowWrapPolicy(policy);
}

QWidget* DetailsPanel::buildDomainPage() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    const std::array<QString, DomainFactCount> names = {
        tr("GPUs"),
        tr("Used"),
        tr("Free"),
        tr("Unavailable"),
        tr("Fragmented"),
        tr("Largest free block"),
        tr("Largest free slot"),
        tr("Slots"),
        tr("Nodes"),
        tr("Ready"),
        tr("Schedulable"),
        tr("Fully free"),
        tr("Pods"),
    };
    QFormLayout* form = m_factForms.emplace_back(factForm(page, names, m_domainFacts));
    m_podsNames[0] = qobject_cast<QLabel*>(form->labelForField(m_domainFacts[Pods]));
    m_domainFacts[GpusFragmented]->setToolTip(tr("Free GPUs on nodes that are partly used"));
    m_domainFacts[NodesFree]->setToolTip(tr("Schedulable nodes with GPUs, none of them used"));
    m_domainFacts[LargestSlot]->setToolTip(tr("The largest gang that fits in this domain now: one node's free GPUs, "
                                              "or whole free nodes' worth"));
    m_domainFacts[Slots]->setToolTip(tr("How many gangs of each size fit in this domain now, in pods of a node's "
                                        "worth of GPUs (or fewer); each count on its own, not all at once"));
    m_domainFacts[Slots]->setTextFormat(Qt::RichText);
    layout->addLayout(form);

    m_childrenTitle = new QLabel(page);
    QFont bold = font();
    bold.setBold(true);
    m_childrenTitle->setFont(bold);
    layout->addSpacing(6);
    layout->addWidget(m_childrenTitle);
    m_childrenModel = new DomainChildrenModel(this);
    m_children = makeTable(page, m_childrenModel);
    m_children->setItemDelegateForColumn(DomainChildrenModel::OccupancyColumn, m_delegate);
    QHeaderView* header = m_children->horizontalHeader();
    // Names are never clipped; the bar takes what is left.
    header->setSectionResizeMode(DomainChildrenModel::NameColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(DomainChildrenModel::OccupancyColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(DomainChildrenModel::FreeColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(DomainChildrenModel::StateColumn, QHeaderView::ResizeToContents);
    layout->addWidget(m_children, 1);
    m_childrenNote = new QLabel(page);
    m_childrenNote->setForegroundRole(QPalette::PlaceholderText);
    m_childrenNote->hide();
    layout->addWidget(m_childrenNote);

    connect(m_children, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (index.data(TopologyTreeModel::IsNodeRole).toBool())
            Q_EMIT nodeActivated(index.data(TopologyTreeModel::NodeIdRole).value<NodeId>());
        else
            Q_EMIT domainActivated(index.data(TopologyTreeModel::DomainIdRole).value<DomainId>());
    });
    return page;
}

QWidget* DetailsPanel::buildNodePage() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    const std::array<QString, NodeFactCount> names = {tr("Status"), tr("GPUs"), tr("Pods"), tr("NVLink domain"),
                                                      tr("Topology path")};
    QFormLayout* form = m_factForms.emplace_back(factForm(page, names, m_nodeFacts));
    m_podsNames[1] = qobject_cast<QLabel*>(form->labelForField(m_nodeFacts[NodePods]));
    layout->addLayout(form);
    layout->addSpacing(6);
    layout->addWidget(buildNodeTabs(page), 1);
    return page;
}

QTabWidget* DetailsPanel::buildNodeTabs(QWidget* page) {
    m_nodeTabs = new QTabWidget(page);
    m_podsModel = new NodePodsModel(this);
    m_labelsModel = new NodeLabelsModel(this);
    m_taintsModel = new NodeTaintsModel(this);
    m_conditionsModel = new NodeConditionsModel(this);
    m_resourcesModel = new NodeResourcesModel(this);
    m_podsTable = makeTable(m_nodeTabs, m_podsModel);
    m_podsTable->setObjectName(QStringLiteral("nodePods"));
    m_labels = makeTable(m_nodeTabs, m_labelsModel);
    m_labels->setObjectName(QStringLiteral("nodeLabels"));
    m_taints = makeTable(m_nodeTabs, m_taintsModel);
    m_conditions = makeTable(m_nodeTabs, m_conditionsModel);
    m_conditions->setObjectName(QStringLiteral("nodeConditions"));
    m_resources = makeTable(m_nodeTabs, m_resourcesModel);
    // Keys are never clipped; long values (hashes, ids) are elided in the middle, whole in the tooltip.
    for (QTableView* table : {m_podsTable, m_labels, m_taints, m_conditions, m_resources}) {
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setStretchLastSection(true);
    }
    // The pod's and the workload's names give way (elided in the middle) before its phase and GPUs do.
    m_podsTable->horizontalHeader()->setStretchLastSection(false);
    m_podsTable->horizontalHeader()->setSectionResizeMode(NodePodsModel::NameColumn, QHeaderView::Stretch);
    m_podsTable->horizontalHeader()->setSectionResizeMode(NodePodsModel::WorkloadColumn, QHeaderView::Stretch);
    // Five tabs in a narrow pane: slim tabs, whole words.
    m_nodeTabs->setDocumentMode(true);
    m_nodeTabs->setElideMode(Qt::ElideNone);
    // Labels are copied as key=value lines (the selected ones, or all), for kubectl or a bug report.
    m_labels->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* copyLabels = new QAction(tr("&Copy as key=value"), m_labels);
    copyLabels->setShortcut(QKeySequence::Copy);
    copyLabels->setShortcutContext(Qt::WidgetShortcut);
    m_labels->addAction(copyLabels);
    m_labels->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(copyLabels, &QAction::triggered, this, [this] {
        QList<int> rows;
        for (const QModelIndex& index : m_labels->selectionModel()->selectedRows()) rows << index.row();
        QApplication::clipboard()->setText(m_labelsModel->keyValueLines(rows));
    });
    m_nodeTabs->addTab(m_podsTable, QString());
    m_nodeTabs->addTab(m_labels, QString());
    m_nodeTabs->addTab(m_taints, QString());
    m_nodeTabs->addTab(m_conditions, QString());
    m_nodeTabs->addTab(m_resources, tr("Resources"));
    return m_nodeTabs;
}

QWidget* DetailsPanel::buildGangPage() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    const std::array<QString, GangFactCount> names = {tr("Kind"), tr("Pods"), tr("GPUs"), tr("Nodes"),
                                                      tr("Boundaries")};
    QFormLayout* form = m_factForms.emplace_back(factForm(page, names, m_gangFacts));
    m_gangFacts[GangBoundaries]->setToolTip(tr("Per level: the domains its pods are in, against the fewest that "
                                               "could hold it by capacity"));
    layout->addLayout(form);
    layout->addSpacing(6);
    auto* title = new QLabel(tr("Its pods per domain"), page);
    QFont bold = font();
    bold.setBold(true);
    title->setFont(bold);
    layout->addWidget(title);
    m_gangDomainsModel = new GangDomainsModel(this);
    m_gangDomains = makeTable(page, m_gangDomainsModel);
    m_gangDomains->setObjectName(QStringLiteral("gangDomains"));
    QHeaderView* header = m_gangDomains->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(GangDomainsModel::DomainColumn, QHeaderView::Stretch);
    layout->addWidget(m_gangDomains, 1);
    m_gangNote = new QLabel(page);
    m_gangNote->setForegroundRole(QPalette::PlaceholderText);
    m_gangNote->setWordWrap(true);
    m_gangNote->hide();
    layout->addWidget(m_gangNote);
    connect(m_gangDomains, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const QVariant domain = index.data(TopologyTreeModel::DomainIdRole);
        if (domain.isValid()) Q_EMIT domainActivated(domain.value<DomainId>());
    });
    return page;
}

void DetailsPanel::setSession(ClusterSession* session) {
    if (m_session) disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (m_session) connect(m_session, &ClusterSession::nodePodsReady, this, &DetailsPanel::podsArrived);
}

void DetailsPanel::setSnapshot(ClusterSnapshotPtr snapshot) {
    const bool otherSource = !m_snapshot || !snapshot || m_snapshot->sourceEpoch != snapshot->sourceEpoch;
    m_snapshot = std::move(snapshot);
    if (otherSource) {
        m_domain = kRootDomain;
        m_node = kNoNode;
        m_gang.clear();
        m_gangsReport.reset();
        m_pods.reset();
        m_podsAskedNode = kNoNode;
        // A Slurm cluster's "pods" are its jobs' allocations.
        for (QLabel* name : m_podsNames)
            if (name && m_snapshot) name->setText(podsTerm(m_snapshot->index.spec()));
    }
    refresh();
}

void DetailsPanel::showDomain(DomainId id) {
    m_domain = id;
    m_node = kNoNode;
    m_gang.clear();
    refresh();
}

void DetailsPanel::showNode(NodeId id) {
    if (id != m_node) m_pods.reset();
    m_node = id;
    m_gang.clear();
    refresh();
}

void DetailsPanel::showCluster() {
    showDomain(kRootDomain);
}

void DetailsPanel::showGang(const GangsReportPtr& report, const QString& qualifiedName, bool refreshOnly) {
    if (refreshOnly && m_gang != qualifiedName) return;
    m_gangsReport = report;
    m_gang = qualifiedName;
    refresh();
}

void DetailsPanel::refresh() {
    if (!m_snapshot) {
        m_title->setText(tr("No cluster"));
        m_subtitle->clear();
        m_bar->hide();
        m_pages->setCurrentWidget(m_emptyPage);
        return;
    }
    const TopologyIndex& index = m_snapshot->index;
    if (m_node != kNoNode && (m_node >= index.nodeSlots() || index.node(m_node).leaf == kNoDomain)) m_node = kNoNode;
    if (m_domain >= index.domainSlots() || !index.domain(m_domain).alive) m_domain = kRootDomain;
    if (m_snapshot.get() != m_gpusPerNodeOf) m_gpusPerNode = -1; // computed again when needed
    m_bar->setVisible(m_gang.isEmpty());
    if (!m_gang.isEmpty())
        refreshGang();
    else if (m_node != kNoNode)
        refreshNode();
    else
        refreshDomain();
}

void DetailsPanel::refreshDomain() {
    const TopologyIndex& index = m_snapshot->index;
    const Domain& domain = index.domain(m_domain);
    const DomainTotals& t = domain.totals;
    m_pages->setCurrentWidget(m_domainPage);

    if (m_domain == kRootDomain) {
        m_title->setText(m_snapshot->title.isEmpty() ? tr("Cluster") : m_snapshot->title);
        m_subtitle->setText(tr("Whole cluster"));
    } else {
        m_title->setText(domainNameOf(index, domain));
        m_subtitle->setText(levelNameOf(index, domain) % QStringLiteral(" · ") %
                            QString::fromStdString(index.pathName(m_domain)));
    }
    static_cast<OccupancyBarWidget*>(m_bar)->setValues(t.gpusUsed, t.gpusFree, t.gpusUnavailable);
    showDomainFacts(domain);
    showChildren(domain);
}

void DetailsPanel::showDomainFacts(const Domain& domain) {
    const TopologyIndex& index = m_snapshot->index;
    const DomainTotals& t = domain.totals;
    m_domainFacts[GpusTotal]->setText(count(t.gpusTotal));
    if (t.gpusPartlyUsed > 0)
        m_domainFacts[GpusUsed]->setText(tr("%1 of it partly: %2 GPUs' worth (MIG slices, shared GPUs)")
                                             .arg(count(t.gpusUsed) % percentOf(t.gpusUsed, t.gpusTotal),
                                                  QString::fromStdString(t.gpuShareUsed.text())));
    else
        m_domainFacts[GpusUsed]->setText(count(t.gpusUsed) % percentOf(t.gpusUsed, t.gpusTotal));
    m_domainFacts[GpusFree]->setText(count(t.gpusFree) % percentOf(t.gpusFree, t.gpusTotal));
    m_domainFacts[GpusUnavailable]->setText(count(t.gpusUnavailable));
    m_domainFacts[GpusFragmented]->setText(count(t.gpusFragmented));
    const std::int64_t largest = domain.maxFreeGpusOnNode();
    m_domainFacts[LargestFree]->setText(
        largest > 0
            ? tr("%1 free GPUs on one node (%2)").arg(count(largest), nodeCount(domain.nodesWithFreeGpus(largest)))
            : tr("none"));
    if (m_gpusPerNode < 0) {
        m_gpusPerNode = largestNodeGpus(index);
        m_gpusPerNodeOf = m_snapshot.get();
    }
    const DomainSlots slots = domainSlots(domain, m_gpusPerNode);
    m_domainFacts[LargestSlot]->setText(
        slots.largestGang <= 0 ? tr("none")
        : slots.wholeNodes > 0 && slots.largestGang == slots.wholeNodes * m_gpusPerNode
            ? tr("%1 GPUs (%2 whole)").arg(count(slots.largestGang), nodeCount(slots.wholeNodes))
            : tr("%1 GPUs on one node").arg(count(slots.largestGang)));
    // Gang size over the count that fits, as a small two-row table.
    QString sizes, fits;
    for (std::size_t i = 0; i < kSlotGangSizes.size(); ++i) {
        sizes += QStringLiteral("<td align=right>&nbsp;%1</td>").arg(count(kSlotGangSizes[i]));
        fits += QStringLiteral("<td align=right>&nbsp;%1</td>").arg(count(slots.gangs[i]));
    }
    m_domainFacts[Slots]->setText(
        QStringLiteral("<table cellspacing=0><tr><td>%1</td>%2</tr><tr><td>%3</td>%4</tr></table>")
            .arg(tr("GPUs"), sizes, tr("gangs"), fits));
    m_domainFacts[Nodes]->setText(count(t.nodesTotal));
    m_domainFacts[NodesReady]->setText(
        count(t.nodesReady) %
        (t.nodesTotal > t.nodesReady ? tr(" (%1 not ready)").arg(count(t.nodesTotal - t.nodesReady)) : QString()));
    m_domainFacts[NodesSchedulable]->setText(count(t.nodesSchedulable));
    m_domainFacts[NodesFree]->setText(count(t.nodesFree));
    m_domainFacts[Pods]->setText(count(t.pods));
}

void DetailsPanel::showChildren(const Domain& domain) {
    const TopologyIndex& index = m_snapshot->index;
    m_childrenModel->setDomain(m_snapshot, m_domain);
    const int total = m_childrenModel->total();
    if (m_childrenModel->listsNodes()) {
        m_childrenTitle->setText(tr("Nodes (%1)").arg(total));
    } else {
        const QString level = total > 0 ? levelNameOf(index, index.domain(domain.children.front())) : QString();
        m_childrenTitle->setText(tr("%1 (%2)").arg(level.isEmpty() ? tr("Domains") : level, count(total)));
    }
    const int rows = m_childrenModel->rowCount();
    m_childrenNote->setVisible(total > rows);
    if (total > rows)
        m_childrenNote->setText(tr("Showing the first %1 of %2; the tree lists all.").arg(count(rows), count(total)));
}

void DetailsPanel::refreshNode() {
    const TopologyIndex& index = m_snapshot->index;
    const NodeStats& s = index.node(m_node);
    const Node* node = m_snapshot->node(m_node);
    m_pages->setCurrentWidget(m_nodePage);
    m_title->setText(node ? QString::fromStdString(node->name) : tr("Node"));
    m_subtitle->setText(tr("node · %1").arg(QString::fromStdString(index.pathName(s.leaf))));
    const qint64 rest = s.gpusTotal - s.gpusUsed;
    static_cast<OccupancyBarWidget*>(m_bar)->setValues(s.gpusUsed, s.schedulable ? rest : 0, s.schedulable ? 0 : rest);

    QString status = s.ready ? tr("Ready") : tr("NotReady");
    if (node && node->unschedulable)
        status += tr(", cordoned (unschedulable)");
    else if (s.ready)
        status += tr(", schedulable");
    if (const QString slurm = slurmNodeState(node); !slurm.isEmpty())
        status = (s.schedulable ? tr("%1, schedulable")
                  : s.ready     ? tr("%1, unschedulable")
                                : tr("%1, not ready"))
                     .arg(slurm);
    m_nodeFacts[Status]->setText(status);
    if (s.gpuSource == GpuSource::DevicePlugin && s.gpusPartlyUsed == 0) {
        m_nodeFacts[NodeGpus]->setText(tr("%1 allocatable, %2 used, %3 free")
                                           .arg(count(s.gpusTotal), count(s.gpusUsed), count(s.schedulable ? rest : 0)));
    } else {
        // Counted through DRA, or with MIG slices or shared GPUs: say which world counted them and
        // the exact share in use.
        const QString source = s.gpuSource == GpuSource::Dra            ? tr("through DRA")
                               : s.gpuSource == GpuSource::Both         ? tr("through the device plugin and DRA, each once")
                               : s.gpuSource == GpuSource::DevicePlugin ? tr("through the device plugin")
                                                                        : tr("none found");
        QString used = QString::fromStdString(s.gpuShareUsed.text());
        if (s.gpusPartlyUsed > 0) used = tr("%1 (%2 partly)").arg(used, count(s.gpusPartlyUsed));
        m_nodeFacts[NodeGpus]->setText(
            tr("%1 %2, %3 used, %4 free").arg(count(s.gpusTotal), source, used, count(s.schedulable ? rest : 0)));
    }
    m_nodeFacts[NodePods]->setText(count(s.pods));
    m_nodeFacts[Nvlink]->setText(
        s.nvlinkDomain == kNoNvlinkDomain ? tr("none") : QString::fromStdString(index.nvlinkName(s.nvlinkDomain)));
    m_nodeFacts[NodePath]->setText(QString::fromStdString(index.pathName(s.leaf)));
    if (node) showNodeTables(*node);
    requestPods();
    fillPods();
}

void DetailsPanel::showNodeTables(const Node& node) {
    m_labelsModel->setNode(&node);
    m_taintsModel->setNode(&node);
    m_conditionsModel->setNode(&node);
    m_resourcesModel->setNode(&node);
    m_nodeTabs->setTabText(1, tr("Labels (%1)").arg(node.labels.size()));
    m_nodeTabs->setTabText(2, node.taints.empty() ? tr("Taints") : tr("Taints (%1)").arg(node.taints.size()));
    m_nodeTabs->setTabText(3, tr("Conditions"));
}

void DetailsPanel::requestPods() {
    if (!m_session || m_node == kNoNode) return;
    if (m_podsAskedNode == m_node && m_podsAskedGeneration == m_snapshot->generation) return;
    m_podsAskedNode = m_node;
    m_podsAskedGeneration = m_snapshot->generation;
    m_session->requestNodePods(m_node);
}

void DetailsPanel::podsArrived(const NodePodsPtr& pods) {
    if (!pods || !m_snapshot || pods->node != m_node || pods->sourceEpoch != m_snapshot->sourceEpoch) return;
    m_pods = pods;
    if (m_gang.isEmpty() && m_node != kNoNode) fillPods();
}

void DetailsPanel::fillPods() {
    const bool current = m_pods && m_pods->node == m_node;
    m_podsModel->setPods(m_snapshot, current ? m_pods : nullptr);
    const QString term = podsTerm(m_snapshot->index.spec());
    m_nodeTabs->setTabText(0, current ? tr("%1 (%2)").arg(term).arg(m_pods->pods.size()) : term);
}

void DetailsPanel::refreshGang() {
    m_pages->setCurrentWidget(m_gangPage);
    const Gang* gang = nullptr;
    if (m_gangsReport)
        for (const Gang& g : m_gangsReport->gangs)
            if (QString::fromStdString(g.qualifiedName()) == m_gang) gang = &g;
    m_title->setText(m_gang);
    m_gangDomainsModel->setGang(m_snapshot, gang);
    if (!gang) {
        m_subtitle->setText(tr("running gang · no longer running"));
        for (QLabel* fact : m_gangFacts) fact->clear();
        m_gangNote->hide();
        return;
    }
    showGangFacts(*gang);
    QStringList notes;
    const int shown = m_gangDomainsModel->rowCount();
    if (m_gangDomainsModel->total() > shown)
        notes << tr("Showing the first %1 of %2 domains.").arg(count(shown), count(m_gangDomainsModel->total()));
    if (const int gone = m_gangDomainsModel->nodesGone(); gone > 0)
        notes << tr("%n of its nodes are no longer in the cluster.", nullptr, gone);
    if (!gang->computeDomain.empty()) {
        notes << tr("ComputeDomain %1.").arg(QString::fromStdString(gang->computeDomain));
        if (gang->computeDomainSpansCliques())
            notes << ComputeDomainTerms::spans(gang->computeDomainCliques.size()) + QLatin1Char('.');
        if (!gang->outsideComputeDomain.empty()) notes << ComputeDomainTerms::gangOutside(*gang) + QLatin1Char('.');
    }
    m_gangNote->setVisible(!notes.isEmpty());
    m_gangNote->setText(notes.join(QLatin1Char(' ')));
}

void DetailsPanel::showGangFacts(const Gang& gang) {
    const std::string_view kind = workloadKindName(gang.kind);
    m_subtitle->setText(tr("running gang · %1").arg(kind.empty() ? tr("workload") : fromView(kind)));
    m_gangFacts[GangKind]->setText(kind.empty() ? tr("not said") : fromView(kind));
    m_gangFacts[GangPods]->setText(count(gang.pods));
    m_gangFacts[GangGpus]->setText(gang.gpusPerPod > 0
                                       ? tr("%1 (%2 per pod)").arg(count(gang.gpus), count(gang.gpusPerPod))
                                       : tr("%1 (pods differ)").arg(count(gang.gpus)));
    m_gangFacts[GangNodes]->setText(count(qint64(gang.nodes.size())));

    // Boundaries: per level of the report, the domains it is in against the fewest that hold it.
    QStringList boundaries;
    for (std::size_t level = 0; level < m_gangsReport->levels.size() && level < gang.levels.size(); ++level) {
        const GangsLevel& l = m_gangsReport->levels[level];
        const GangSpread& spread = gang.levels[level];
        const QString name = l.nvlink ? tr("NVLink") : QString::fromStdString(l.name);
        QString line = tr("%1: in %2 where %3 would hold it")
                           .arg(name.toHtmlEscaped(), tr("%n domain(s)", nullptr, spread.spans))
                           .arg(spread.least);
        if (spread.excess() > 0) line = QStringLiteral("<b>%1</b>").arg(line);
        if (spread.outside > 0) line += tr(" (%n of its nodes outside the level)", nullptr, spread.outside);
        boundaries << line;
    }
    m_gangFacts[GangBoundaries]->setTextFormat(Qt::RichText);
    m_gangFacts[GangBoundaries]->setText(boundaries.join(QStringLiteral("<br>")));
}

} // namespace topodeck
