#pragma once

#include <QMenu>

namespace topodeck {

class TopologyMapView;
class TreePane;

// The map's right-click menu, holding the selection's actions. What is under the pointer (a node
// or a domain, not the whole cluster) is selected in the tree first, so that they act on it.
class MapContextMenu : public QMenu {
    Q_OBJECT
public:
    // parent: the window, whose look the menu takes.
    MapContextMenu(TopologyMapView* map, TreePane* tree, QWidget* parent);

private:
    void popUpAt(const QPoint& pos);

    TopologyMapView* m_map;
    TreePane* m_tree;
};

} // namespace topodeck
