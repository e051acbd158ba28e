#include "views/details_panel.h"

#include "models/cluster_terms.h"
#include "models/topology_tree_model.h"
#include "views/occupancy_bar_delegate.h"
#include "views/occupancy_palette.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

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

QLabel* valueLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
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
    m_pages->addWidget(m_nodePage);
    layout->addWidget(m_pages, 1);
    refresh();
}

QWidget* DetailsPanel::buildDomainPage() {
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignLeft);
    form->setHorizontalSpacing(14);
    form->setVerticalSpacing(3);
    const std::array<QString, DomainFactCount> names = {
        tr("GPUs"),  tr("Used"),  tr("Free"),        tr("Unavailable"), tr("Fragmented"), tr("Largest free block"),
        tr("Nodes"), tr("Ready"), tr("Schedulable"), tr("Fully free"),  tr("Pods"),
    };
    for (int i = 0; i < DomainFactCount; ++i) {
        m_domainFacts[i] = valueLabel(page);
        form->addRow(names[i], m_domainFacts[i]);
    }
    m_podsNames[0] = qobject_cast<QLabel*>(form->labelForField(m_domainFacts[Pods]));
    m_domainFacts[GpusFragmented]->setToolTip(tr("Free GPUs on nodes that are partly used"));
    m_domainFacts[NodesFree]->setToolTip(tr("Schedulable nodes with GPUs, none of them used"));
    layout->addLayout(form);

    m_childrenTitle = new QLabel(page);
    QFont bold = font();
    bold.setBold(true);
    m_childrenTitle->setFont(bold);
    layout->addSpacing(6);
    layout->addWidget(m_childrenTitle);
    m_children = makeTable(page, {tr("Name"), tr("GPUs used"), tr("Free"), tr("Not ready")});
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
    auto* form = new QFormLayout;
    form->setHorizontalSpacing(14);
    form->setVerticalSpacing(3);
    const std::array<QString, NodeFactCount> names = {tr("Status"), tr("GPUs"), tr("Pods"), tr("NVLink domain"),
                                                      tr("Topology path")};
    for (int i = 0; i < NodeFactCount; ++i) {
        m_nodeFacts[i] = valueLabel(page);
        form->addRow(names[i], m_nodeFacts[i]);
        if (i == NodePods) m_podsNames[1] = qobject_cast<QLabel*>(form->labelForField(m_nodeFacts[i]));
    }
    layout->addLayout(form);
    layout->addSpacing(6);

    m_nodeTabs = new QTabWidget(page);
    m_labels = makeTable(m_nodeTabs, {tr("Key"), tr("Value")});
    m_taints = makeTable(m_nodeTabs, {tr("Key"), tr("Value"), tr("Effect")});
    m_resources = makeTable(m_nodeTabs, {tr("Resource"), tr("Allocatable")});
    // Keys are never clipped; long values (hashes, ids) are elided in the middle, whole in the tooltip.
    for (QTableWidget* table : {m_labels, m_taints, m_resources}) {
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setStretchLastSection(true);
    }
    m_nodeTabs->addTab(m_labels, QString());
    m_nodeTabs->addTab(m_taints, QString());
    m_nodeTabs->addTab(m_resources, tr("Allocatable"));
    layout->addWidget(m_nodeTabs, 1);
    return page;
}

void DetailsPanel::setSnapshot(ClusterSnapshotPtr snapshot) {
    const bool otherSource = !m_snapshot || !snapshot || m_snapshot->sourceEpoch != snapshot->sourceEpoch;
    m_snapshot = std::move(snapshot);
    if (otherSource) {
        m_domain = kRootDomain;
        m_node = kNoNode;
        // A Slurm cluster's "pods" are its jobs' allocations.
        for (QLabel* name : m_podsNames)
            if (name && m_snapshot) name->setText(podsTerm(m_snapshot->index.spec()));
    }
    refresh();
}

void DetailsPanel::showDomain(DomainId id) {
    m_domain = id;
    m_node = kNoNode;
    refresh();
}

void DetailsPanel::showNode(NodeId id) {
    m_node = id;
    refresh();
}

void DetailsPanel::showCluster() {
    showDomain(kRootDomain);
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
    m_bar->show();
    if (m_node != kNoNode)
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
        status = (s.schedulable ? tr("%1, schedulable") : s.ready ? tr("%1, unschedulable") : tr("%1, not ready")).arg(slurm);
    m_nodeFacts[Status]->setText(status);
    m_nodeFacts[NodeGpus]->setText(
        tr("%1 used of %2, %3 free").arg(count(s.gpusUsed), count(s.gpusTotal), count(s.schedulable ? rest : 0)));
    m_nodeFacts[NodePods]->setText(count(s.pods));
    m_nodeFacts[Nvlink]->setText(
        s.nvlinkDomain == kNoNvlinkDomain ? tr("none") : QString::fromStdString(index.nvlinkName(s.nvlinkDomain)));
    m_nodeFacts[NodePath]->setText(QString::fromStdString(index.pathName(s.leaf)));
    if (!node) return;

    m_labels->setRowCount(int(node->labels.size()));
    for (int row = 0; row < int(node->labels.size()); ++row) {
        setText(cell(m_labels, row, 0), QString::fromStdString(node->labels[std::size_t(row)].first));
        QTableWidgetItem* value = cell(m_labels, row, 1);
        setText(value, QString::fromStdString(node->labels[std::size_t(row)].second));
        value->setToolTip(value->text());
    }
    m_taints->setRowCount(int(node->taints.size()));
    for (int row = 0; row < int(node->taints.size()); ++row) {
        const Taint& taint = node->taints[std::size_t(row)];
        setText(cell(m_taints, row, 0), QString::fromStdString(taint.key));
        setText(cell(m_taints, row, 1), QString::fromStdString(taint.value));
        setText(cell(m_taints, row, 2), QString::fromStdString(taint.effect));
    }
    const auto& resources = node->allocatable.entries();
    m_resources->setRowCount(int(resources.size()));
    for (int row = 0; row < int(resources.size()); ++row) {
        setText(cell(m_resources, row, 0), QString::fromStdString(resources[std::size_t(row)].first));
        setText(cell(m_resources, row, 1, Qt::AlignRight | Qt::AlignVCenter),
                QString::fromStdString(resources[std::size_t(row)].second.toString()));
    }
    m_nodeTabs->setTabText(0, tr("Labels (%1)").arg(node->labels.size()));
    m_nodeTabs->setTabText(1, tr("Taints (%1)").arg(node->taints.size()));
}

} // namespace topodeck
