#include "views/chrome/tree_pane.h"

#include "models/topology_filter_model.h"
#include "models/topology_tree_model.h"
#include "views/chrome/filter_bar.h"
#include "views/map/occupancy_bar_delegate.h"

#include <QAction>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace topodeck {

namespace {
// A new cluster opens with as many levels expanded as fit in about this many rows.
constexpr int kInitialTreeRows = 40;
// A filter keeping at most this many nodes opens the tree down to them.
constexpr std::size_t kExpandFilteredNodes = 200;
// Room for deeper names once the user expands a rack.
constexpr int kNameColumnSlack = 24;
} // namespace

TreePane::TreePane(QWidget* parent)
    : QWidget(parent), m_model(new TopologyTreeModel(this)), m_filterModel(new TopologyFilterModel(m_model, this)),
      m_tree(new QTreeView(this)), m_filterBar(new FilterBar(this)) {
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
    connect(m_tree, &QTreeView::expanded, this, [this] { Q_EMIT columnsWidened(fitColumns(true)); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &TreePane::currentChanged);
    connect(m_filterBar, &FilterBar::selectorChanged, this, [this] {
        applyNodeFilter();
        expandToFewMatches();
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_tree, 1);
}

void TreePane::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    m_model->setSnapshot(snapshot);
}

void TreePane::applyNodeFilter() {
    // 65,536 nodes take a few milliseconds (bench_filter), so each snapshot's mask is made here.
    const std::shared_ptr<const LabelSelector>& selector = m_filterBar->selector();
    const ClusterSnapshotPtr shown = m_model->snapshot();
    std::shared_ptr<const NodeMask> mask;
    if (selector && shown) mask = std::make_shared<const NodeMask>(matchNodes(*selector, shown->nodes, shown->index));
    m_filterModel->setNodeMask(mask);
    Q_EMIT nodeFilterChanged(std::move(mask));
}

void TreePane::expandForNewCluster() {
    if (const ClusterSnapshotPtr shown = m_model->snapshot()) expandInitialLevels(shown->index);
    expandToFewMatches();
}

void TreePane::expandInitialLevels(const TopologyIndex& index) {
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

void TreePane::expandToFewMatches() {
    const NodeMask* mask = m_filterModel->nodeMask().get();
    if (mask && std::size_t(std::count(mask->begin(), mask->end(), 1)) <= kExpandFilteredNodes) m_tree->expandAll();
}

int TreePane::fitColumns(bool growOnly) {
    int width = 2 * m_tree->frameWidth() + m_tree->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < TopologyTreeModel::ColumnCount; ++column) {
        const int before = m_tree->columnWidth(column);
        m_tree->resizeColumnToContents(column);
        if (growOnly && m_tree->columnWidth(column) < before) m_tree->setColumnWidth(column, before);
        if (!growOnly && column == TopologyTreeModel::NameColumn)
            m_tree->setColumnWidth(column, m_tree->columnWidth(column) + kNameColumnSlack);
        width += m_tree->columnWidth(column);
    }
    return width;
}

void TreePane::select(const QModelIndex& index) {
    const QModelIndex shown = m_filterModel->mapFromSource(index);
    if (!shown.isValid()) {
        m_tree->selectionModel()->clear();
        Q_EMIT currentChanged(index);
        return;
    }
    for (QModelIndex parent = shown.parent(); parent.isValid(); parent = parent.parent()) m_tree->expand(parent);
    m_tree->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(shown, QAbstractItemView::EnsureVisible);
}

void TreePane::selectDomain(DomainId id) {
    select(m_model->indexForDomain(id));
}

void TreePane::selectNode(NodeId id) {
    select(m_model->indexForNode(id));
}

bool TreePane::selectPath(const QString& path) {
    const std::optional<QModelIndex> index = m_model->indexForPath(path);
    if (index) select(*index);
    return index.has_value();
}

std::optional<TreeTarget> TreePane::currentTarget() const {
    const QModelIndex current = m_tree->currentIndex();
    const ClusterSnapshotPtr shown = m_model->snapshot();
    if (!current.isValid() || !shown) return std::nullopt;
    if (current.data(TopologyTreeModel::IsNodeRole).toBool())
        if (const Node* node = shown->node(current.data(TopologyTreeModel::NodeIdRole).value<NodeId>()))
            return TreeTarget{QString::fromStdString(node->name), true};
    return TreeTarget{current.siblingAtColumn(0).data(TopologyTreeModel::PathRole).toString(), false};
}

void TreePane::addContextAction(QAction* action) {
    m_tree->addAction(action);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace topodeck
