#include "views/details_panel.h"

#include "core/level_capacity.h"
#include "core/natural_order.h"
#include "core/slurm/slurm_cluster.h"
#include "models/cluster_terms.h"
#include "models/topology_tree_model.h"
#include "views/occupancy_bar_delegate.h"
#include "views/occupancy_palette.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QResizeEvent>
#include <QPainter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace topodeck {

namespace {

// Enough for any real rack or block; a flat topology with thousands of domains under one parent
// is better browsed in the tree.
constexpr int kMaxChildRows = 1000;

enum ChildColumn { ChildName, ChildOccupancy, ChildFree, ChildState, ChildColumnCount };

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

QTableWidget* makeTable(QWidget* parent, const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
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

// The item at (row, column), created on first use, so refreshing keeps scroll and selection.
QTableWidgetItem* cell(QTableWidget* table, int row, int column,
                       Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    QTableWidgetItem* item = table->item(row, column);
    if (!item) {
        item = new QTableWidgetItem;
        item->setTextAlignment(align);
        table->setItem(row, column, item);
    }
    return item;
}

void setText(QTableWidgetItem* item, const QString& text) {
    if (item->text() != text) item->setText(text);
}

QString count(qint64 n) {
    return QLocale().toString(n);
}

QString percentOf(qint64 part, qint64 total) {
    if (total <= 0) return QString();
    return QStringLiteral(" (") % QLocale().toString(100.0 * double(part) / double(total), 'f', 0) %
           QStringLiteral("%)");
}

QString levelNameOf(const TopologyIndex& index, const Domain& domain) {
    if (domain.level < 0 || domain.level >= index.spec().depth()) return QString();
    return QString::fromStdString(index.spec().levels[std::size_t(domain.level)].name);
}

QString nodeCount(qint64 n) {
    return n == 1 ? DetailsPanel::tr("1 node") : DetailsPanel::tr("%1 nodes").arg(count(n));
}

QString phaseName(PodPhase phase) {
    switch (phase) {
    case PodPhase::Pending:
        return DetailsPanel::tr("Pending");
    case PodPhase::Running:
        return DetailsPanel::tr("Running");
    case PodPhase::Succeeded:
        return DetailsPanel::tr("Succeeded");
    case PodPhase::Failed:
        return DetailsPanel::tr("Failed");
    case PodPhase::Unknown:
        return DetailsPanel::tr("Unknown");
    }
    return {};
}

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// "2024-05-01 10:00" in the locale's short form, from an RFC 3339 time; the text itself otherwise.
QString sinceText(const std::string& since) {
    const QString text = QString::fromStdString(since);
    const QDateTime time = QDateTime::fromString(text, Qt::ISODate);
    return time.isValid() ? QLocale().toString(time.toLocalTime(), QLocale::ShortFormat) : text;
}

// The selected rows of a table (all of them when none is selected) as "key=value" lines.
QString rowsAsText(const QTableWidget* table) {
    QList<int> rows;
    for (const QModelIndex& index : table->selectionModel()->selectedRows()) rows << index.row();
    if (rows.isEmpty())
        for (int row = 0; row < table->rowCount(); ++row) rows << row;
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    for (int row : rows) {
        const QTableWidgetItem* key = table->item(row, 0);
        const QTableWidgetItem* value = table->item(row, 1);
        lines << (key ? key->text() : QString()) + QLatin1Char('=') + (value ? value->text() : QString());
    }
    return lines.join(QLatin1Char('\n'));
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
    m_children = makeTable(page, {tr("Name"), tr("Used"), tr("Free"), tr("Not ready")});
    m_children->setItemDelegateForColumn(ChildOccupancy, m_delegate);
    QHeaderView* header = m_children->horizontalHeader();
    // Names are never clipped; the bar takes what is left.
    header->setSectionResizeMode(ChildName, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ChildOccupancy, QHeaderView::Stretch);
    header->setSectionResizeMode(ChildFree, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ChildState, QHeaderView::ResizeToContents);
    layout->addWidget(m_children, 1);
    m_childrenNote = new QLabel(page);
    m_childrenNote->setForegroundRole(QPalette::PlaceholderText);
    m_childrenNote->hide();
    layout->addWidget(m_childrenNote);

    connect(m_children, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
        const QTableWidgetItem* name = m_children->item(item->row(), ChildName);
        if (!name) return;
        if (name->data(TopologyTreeModel::IsNodeRole).toBool())
            Q_EMIT nodeActivated(name->data(TopologyTreeModel::NodeIdRole).value<NodeId>());
        else
            Q_EMIT domainActivated(name->data(TopologyTreeModel::DomainIdRole).value<DomainId>());
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

    m_nodeTabs = new QTabWidget(page);
    m_podsTable = makeTable(m_nodeTabs, {tr("Pod"), tr("Workload"), tr("Phase"), tr("GPUs")});
    m_podsTable->setObjectName(QStringLiteral("nodePods"));
    m_labels = makeTable(m_nodeTabs, {tr("Key"), tr("Value")});
    m_labels->setObjectName(QStringLiteral("nodeLabels"));
    m_taints = makeTable(m_nodeTabs, {tr("Key"), tr("Value"), tr("Effect")});
    m_conditions = makeTable(m_nodeTabs, {tr("Type"), tr("Status"), tr("Reason"), tr("Since")});
    m_conditions->setObjectName(QStringLiteral("nodeConditions"));
    m_resources = makeTable(m_nodeTabs, {tr("Resource"), tr("Allocatable")});
    // Keys are never clipped; long values (hashes, ids) are elided in the middle, whole in the tooltip.
    for (QTableWidget* table : {m_podsTable, m_labels, m_taints, m_conditions, m_resources}) {
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setStretchLastSection(true);
    }
    // The pod's and the workload's names give way (elided in the middle) before its phase and GPUs do.
    m_podsTable->horizontalHeader()->setStretchLastSection(false);
    m_podsTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_podsTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
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
    connect(copyLabels, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setText(rowsAsText(m_labels)); });
    m_nodeTabs->addTab(m_podsTable, QString());
    m_nodeTabs->addTab(m_labels, QString());
    m_nodeTabs->addTab(m_taints, QString());
    m_nodeTabs->addTab(m_conditions, QString());
    m_nodeTabs->addTab(m_resources, tr("Resources"));
    layout->addWidget(m_nodeTabs, 1);
    return page;
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
    m_gangDomains = makeTable(page, {tr("Level"), tr("Domain"), tr("Pods"), tr("GPUs")});
    m_gangDomains->setObjectName(QStringLiteral("gangDomains"));
    QHeaderView* header = m_gangDomains->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(1, QHeaderView::Stretch);
    layout->addWidget(m_gangDomains, 1);
    m_gangNote = new QLabel(page);
    m_gangNote->setForegroundRole(QPalette::PlaceholderText);
    m_gangNote->setWordWrap(true);
    m_gangNote->hide();
    layout->addWidget(m_gangNote);
    connect(m_gangDomains, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
        const QTableWidgetItem* domain = m_gangDomains->item(item->row(), 1);
        if (domain && domain->data(TopologyTreeModel::DomainIdRole).isValid())
            Q_EMIT domainActivated(domain->data(TopologyTreeModel::DomainIdRole).value<DomainId>());
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
        const QString level = levelNameOf(index, domain);
        m_title->setText(domain.unlabelled ? tr("(no %1)").arg(level) : QString::fromStdString(domain.value));
        m_subtitle->setText(level % QStringLiteral(" · ") % QString::fromStdString(index.pathName(m_domain)));
    }
    static_cast<OccupancyBarWidget*>(m_bar)->setValues(t.gpusUsed, t.gpusFree, t.gpusUnavailable);

    m_domainFacts[GpusTotal]->setText(count(t.gpusTotal));
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
    fillChildren(domain);
}

void DetailsPanel::fillChildren(const Domain& domain) {
    const TopologyIndex& index = m_snapshot->index;
    const bool nodes = domain.children.empty();
    int total = 0;
    if (nodes) {
        total = int(domain.nodes.size());
        m_childrenTitle->setText(tr("Nodes (%1)").arg(total));
    } else {
        for (DomainId child : domain.children) total += index.domain(child).alive ? 1 : 0;
        const Domain* first = total > 0 ? &index.domain(domain.children.front()) : nullptr;
        const QString level = first ? levelNameOf(index, *first) : QString();
        m_childrenTitle->setText(tr("%1 (%2)").arg(level.isEmpty() ? tr("Domains") : level, count(total)));
    }
    const QString stateHeader = nodes ? tr("Status") : tr("Not ready");
    if (m_children->horizontalHeaderItem(ChildState)->text() != stateHeader)
        m_children->horizontalHeaderItem(ChildState)->setText(stateHeader);

    const int rows = std::min(total, kMaxChildRows);
    if (m_children->rowCount() != rows) m_children->setRowCount(rows);
    m_childrenNote->setVisible(total > rows);
    if (total > rows)
        m_childrenNote->setText(tr("Showing the first %1 of %2; the tree lists all.").arg(count(rows), count(total)));

    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    auto fill = [&](int row, const QString& name, bool isNode, quint32 id, qint64 gpusTotal, qint64 used, qint64 free,
                    qint64 unavailable, const QString& state) {
        QTableWidgetItem* nameItem = cell(m_children, row, ChildName);
        setText(nameItem, name);
        nameItem->setData(TopologyTreeModel::IsNodeRole, isNode);
        nameItem->setData(isNode ? TopologyTreeModel::NodeIdRole : TopologyTreeModel::DomainIdRole, id);
        QTableWidgetItem* bar = cell(m_children, row, ChildOccupancy);
        bar->setData(TopologyTreeModel::GpusTotalRole, gpusTotal);
        bar->setData(TopologyTreeModel::GpusUsedRole, used);
        bar->setData(TopologyTreeModel::GpusFreeRole, free);
        bar->setData(TopologyTreeModel::GpusUnavailableRole, unavailable);
        bar->setToolTip(tr("%1 of %2 GPUs used").arg(count(used), count(gpusTotal)));
        setText(cell(m_children, row, ChildFree, right), count(free));
        setText(cell(m_children, row, ChildState, right), state);
    };
    int row = 0;
    if (nodes) {
        for (NodeId id : domain.nodes) {
            if (row == rows) break;
            const NodeStats& s = index.node(id);
            const Node* node = m_snapshot->node(id);
            const qint64 rest = s.gpusTotal - s.gpusUsed;
            QString state;
            if (!s.ready)
                state = tr("NotReady");
            else if (!s.schedulable)
                state = tr("Cordoned");
            if (const QString slurm = slurmNodeState(node); !slurm.isEmpty() && !state.isEmpty()) state = slurm;
            fill(row++, node ? QString::fromStdString(node->name) : QString(), true, id, s.gpusTotal, s.gpusUsed,
                 s.schedulable ? rest : 0, s.schedulable ? 0 : rest, state);
        }
    } else {
        for (DomainId id : domain.children) {
            if (row == rows) break;
            const Domain& child = index.domain(id);
            if (!child.alive) continue;
            const DomainTotals& t = child.totals;
            fill(row++,
                 child.unlabelled ? tr("(no %1)").arg(levelNameOf(index, child)) : QString::fromStdString(child.value),
                 false, id, t.gpusTotal, t.gpusUsed, t.gpusFree, t.gpusUnavailable,
                 t.nodesTotal > t.nodesReady ? count(t.nodesTotal - t.nodesReady) : QString());
        }
    }
    m_children->viewport()->update();
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
    m_nodeFacts[NodeGpus]->setText(tr("%1 allocatable, %2 used, %3 free")
                                       .arg(count(s.gpusTotal), count(s.gpusUsed), count(s.schedulable ? rest : 0)));
    m_nodeFacts[NodePods]->setText(count(s.pods));
    m_nodeFacts[Nvlink]->setText(
        s.nvlinkDomain == kNoNvlinkDomain ? tr("none") : QString::fromStdString(index.nvlinkName(s.nvlinkDomain)));
    m_nodeFacts[NodePath]->setText(QString::fromStdString(index.pathName(s.leaf)));
    if (node) fillNodeTables(*node);
    requestPods();
    fillPods();
}

void DetailsPanel::fillNodeTables(const Node& node) {
    m_labels->setRowCount(int(node.labels.size()));
    for (int row = 0; row < int(node.labels.size()); ++row) {
        setText(cell(m_labels, row, 0), QString::fromStdString(node.labels[std::size_t(row)].first));
        QTableWidgetItem* value = cell(m_labels, row, 1);
        setText(value, QString::fromStdString(node.labels[std::size_t(row)].second));
        value->setToolTip(value->text());
    }
    m_taints->setRowCount(int(node.taints.size()));
    for (int row = 0; row < int(node.taints.size()); ++row) {
        const Taint& taint = node.taints[std::size_t(row)];
        setText(cell(m_taints, row, 0), QString::fromStdString(taint.key));
        setText(cell(m_taints, row, 1), QString::fromStdString(taint.value));
        setText(cell(m_taints, row, 2), QString::fromStdString(taint.effect));
    }
    // Readiness is always known; a source that lists no Ready condition (a demo, Slurm) gets one
    // row saying what `ready` says.
    const bool listsReady = std::any_of(node.conditions.begin(), node.conditions.end(),
                                        [](const NodeCondition& c) { return c.type == "Ready"; });
    const int extra = listsReady ? 0 : 1;
    m_conditions->setRowCount(int(node.conditions.size()) + extra);
    if (!listsReady) {
        setText(cell(m_conditions, 0, 0), tr("Ready"));
        setText(cell(m_conditions, 0, 1), node.ready ? tr("True") : tr("False"));
        setText(cell(m_conditions, 0, 2), QString());
        setText(cell(m_conditions, 0, 3), QString());
        cell(m_conditions, 0, 0)->setToolTip(tr("The source says only whether the node is ready"));
    }
    for (int i = 0; i < int(node.conditions.size()); ++i) {
        const NodeCondition& condition = node.conditions[std::size_t(i)];
        const int row = i + extra;
        setText(cell(m_conditions, row, 0), QString::fromStdString(condition.type));
        setText(cell(m_conditions, row, 1), QString::fromStdString(condition.status));
        setText(cell(m_conditions, row, 2), QString::fromStdString(condition.reason));
        QTableWidgetItem* since = cell(m_conditions, row, 3);
        setText(since, sinceText(condition.since));
        since->setToolTip(QString::fromStdString(condition.since));
    }
    const auto& resources = node.allocatable.entries();
    m_resources->setRowCount(int(resources.size()));
    for (int row = 0; row < int(resources.size()); ++row) {
        setText(cell(m_resources, row, 0), QString::fromStdString(resources[std::size_t(row)].first));
        setText(cell(m_resources, row, 1, Qt::AlignRight | Qt::AlignVCenter),
                QString::fromStdString(resources[std::size_t(row)].second.toString()));
    }
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
    const bool slurm = m_snapshot->index.spec().origin == kSlurmOrigin;
    const QString term = podsTerm(m_snapshot->index.spec());
    const QString nameHeader = slurm ? tr("Job") : tr("Pod");
    if (m_podsTable->horizontalHeaderItem(0)->text() != nameHeader) {
        m_podsTable->horizontalHeaderItem(0)->setText(nameHeader);
        m_podsTable->horizontalHeaderItem(1)->setText(slurm ? tr("Name") : tr("Workload"));
    }
    const bool current = m_pods && m_pods->node == m_node;
    const std::vector<Pod> none;
    const std::vector<Pod>& pods = current ? m_pods->pods : none;
    m_podsTable->setRowCount(int(pods.size()));
    const GpuResources& gpus = m_snapshot->index.gpuResources();
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    for (int row = 0; row < int(pods.size()); ++row) {
        const Pod& pod = pods[std::size_t(row)];
        QTableWidgetItem* name = cell(m_podsTable, row, 0);
        setText(name, QString::fromStdString(slurm ? pod.name : pod.key()));
        name->setToolTip(name->text());
        QTableWidgetItem* workload = cell(m_podsTable, row, 1);
        const std::string_view kind = workloadKindName(pod.workloadKind);
        setText(workload, QString::fromStdString(pod.workload));
        workload->setToolTip(kind.empty() ? QString::fromStdString(pod.workload)
                                          : tr("%1 %2").arg(fromView(kind), QString::fromStdString(pod.workload)));
        setText(cell(m_podsTable, row, 2), phaseName(pod.phase));
        const std::int64_t podGpus = gpus.count(pod.requests);
        setText(cell(m_podsTable, row, 3, right), podGpus > 0 ? count(podGpus) : QString());
    }
    m_nodeTabs->setTabText(0, current ? tr("%1 (%2)").arg(term).arg(pods.size()) : term);
}

void DetailsPanel::refreshGang() {
    m_pages->setCurrentWidget(m_gangPage);
    const Gang* gang = nullptr;
    if (m_gangsReport)
        for (const Gang& g : m_gangsReport->gangs)
            if (QString::fromStdString(g.qualifiedName()) == m_gang) gang = &g;
    m_title->setText(m_gang);
    if (!gang) {
        m_subtitle->setText(tr("running gang · no longer running"));
        for (QLabel* fact : m_gangFacts) fact->clear();
        m_gangDomains->setRowCount(0);
        m_gangNote->hide();
        return;
    }
    const std::string_view kind = workloadKindName(gang->kind);
    m_subtitle->setText(tr("running gang · %1").arg(kind.empty() ? tr("workload") : fromView(kind)));
    m_gangFacts[GangKind]->setText(kind.empty() ? tr("not said") : fromView(kind));
    m_gangFacts[GangPods]->setText(count(gang->pods));
    m_gangFacts[GangGpus]->setText(gang->gpusPerPod > 0
                                       ? tr("%1 (%2 per pod)").arg(count(gang->gpus), count(gang->gpusPerPod))
                                       : tr("%1 (pods differ)").arg(count(gang->gpus)));
    m_gangFacts[GangNodes]->setText(count(qint64(gang->nodes.size())));

    // Boundaries: per level of the report, the domains it is in against the fewest that hold it.
    QStringList boundaries;
    for (std::size_t level = 0; level < m_gangsReport->levels.size() && level < gang->levels.size(); ++level) {
        const GangsLevel& l = m_gangsReport->levels[level];
        const GangSpread& spread = gang->levels[level];
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

    // Its pods per domain at each level of the hierarchy shown, then per NVLink domain.
    const TopologyIndex& index = m_snapshot->index;
    struct Share {
        qint64 pods = 0;
        qint64 gpus = 0;
    };
    std::map<DomainId, Share> domains;
    std::map<std::int32_t, Share> nvlink;
    std::size_t gone = 0;
    for (std::size_t i = 0; i < gang->nodes.size(); ++i) {
        const NodeId id = gang->nodes[i];
        const qint64 pods = i < gang->nodePods.size() ? gang->nodePods[i] : 0;
        const qint64 podGpus = i < gang->nodeGpus.size() ? gang->nodeGpus[i] : 0;
        if (id >= index.nodeSlots() || index.node(id).leaf == kNoDomain) {
            ++gone;
            continue;
        }
        for (DomainId d : index.pathTo(index.node(id).leaf)) {
            if (d == kRootDomain) continue;
            domains[d].pods += pods;
            domains[d].gpus += podGpus;
        }
        if (const std::int32_t nv = index.node(id).nvlinkDomain; nv != kNoNvlinkDomain) {
            nvlink[nv].pods += pods;
            nvlink[nv].gpus += podGpus;
        }
    }
    struct Row {
        int level;
        QString levelName;
        QString name;
        DomainId id;
        Share share;
    };
    std::vector<Row> rows;
    for (const auto& [id, share] : domains) {
        const Domain& domain = index.domain(id);
        const QString level = levelNameOf(index, domain);
        rows.push_back({domain.level, level,
                        domain.unlabelled ? tr("(no %1)").arg(level) : QString::fromStdString(index.pathName(id)), id,
                        share});
    }
    for (const auto& [nv, share] : nvlink)
        rows.push_back(
            {index.spec().depth(), tr("NVLink"), QString::fromStdString(index.nvlinkName(nv)), kNoDomain, share});
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.level != b.level) return a.level < b.level;
        return naturalLess(a.name.toStdString(), b.name.toStdString());
    });
    const int shown = std::min(int(rows.size()), kMaxChildRows);
    m_gangDomains->setRowCount(shown);
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    for (int row = 0; row < shown; ++row) {
        const Row& r = rows[std::size_t(row)];
        setText(cell(m_gangDomains, row, 0), r.levelName);
        QTableWidgetItem* name = cell(m_gangDomains, row, 1);
        setText(name, r.name);
        name->setToolTip(r.name);
        name->setData(TopologyTreeModel::DomainIdRole, r.id == kNoDomain ? QVariant() : QVariant::fromValue(r.id));
        setText(cell(m_gangDomains, row, 2, right), count(r.share.pods));
        setText(cell(m_gangDomains, row, 3, right), count(r.share.gpus));
    }
    QStringList notes;
    if (int(rows.size()) > shown)
        notes << tr("Showing the first %1 of %2 domains.").arg(count(shown), count(qint64(rows.size())));
    if (gone > 0) notes << tr("%n of its nodes are no longer in the cluster.", nullptr, int(gone));
    m_gangNote->setVisible(!notes.isEmpty());
    m_gangNote->setText(notes.join(QLatin1Char(' ')));
}

} // namespace topodeck
