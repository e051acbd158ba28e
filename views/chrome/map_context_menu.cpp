#include "views/chrome/map_context_menu.h"

#include "views/chrome/tree_pane.h"
#include "views/map/topology_map_view.h"

namespace topodeck {

MapContextMenu::MapContextMenu(TopologyMapView* map, TreePane* tree, QWidget* parent)
    : QMenu(parent), m_map(map), m_tree(tree) {
    m_map->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_map, &QWidget::customContextMenuRequested, this, &MapContextMenu::popUpAt);
}

void MapContextMenu::popUpAt(const QPoint& pos) {
    const TopologyMapLayout::Hit hit = m_map->hitAt(pos);
    if (hit.node != TopologyMapLayout::kNoNode)
        m_tree->selectNode(hit.node);
    else if (hit.domain != kNoDomain && hit.domain != kRootDomain)
        m_tree->selectDomain(hit.domain);
    else
        return;
    exec(m_map->mapToGlobal(pos));
}

} // namespace topodeck
