#pragma once

#include "core/topology/label_selector.h"
#include "session/cluster_snapshot.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QModelIndex;
class QTreeView;

namespace topodeck {

class FilterBar;
class TopologyFilterModel;
class TopologyTreeModel;

// What an action on the selection targets, as topodeckctl names it: a node's name, or a domain's
// path ("su-1/rack-3").
struct TreeTarget {
    QString name;
    bool isNode = false;
};

// The hierarchy beside the map: the label filter bar over the tree, the tree model narrowed by
// it, occupancy bars and the selection's context menu. The window keeps its one selection in this
// tree's current row: the pane says when it changes and selects what the map or a page chose.
class TreePane : public QWidget {
    Q_OBJECT
public:
    explicit TreePane(QWidget* parent = nullptr);

    TopologyTreeModel* model() const { return m_model; }
    // What the tree view shows: the model narrowed by the filter bar.
    TopologyFilterModel* filterModel() const { return m_filterModel; }
    FilterBar* filterBar() const { return m_filterBar; }
    QTreeView* view() const { return m_tree; }

    // The model shows the snapshot; applyNodeFilter() matches the filter against it afterwards.
    void setSnapshot(const ClusterSnapshotPtr& snapshot);
    // The filter bar's selector over the shown snapshot, to the filter model (and nodeFilterChanged).
    void applyNodeFilter();
    // A newly opened cluster: as many levels open as fit in about 40 rows, or down to the few
    // nodes the filter keeps.
    void expandForNewCluster();
    // Sizes the columns to what they show (growOnly: none narrower, after an expand) and returns
    // the width that shows them all.
    int fitColumns(bool growOnly);

    // index is the tree model's (not the filter's): a row the filter hides is reported by
    // currentChanged all the same, with nothing selected in the tree.
    void select(const QModelIndex& index);
    void selectDomain(DomainId id);
    void selectNode(NodeId id);
    // The domain ("su-1/rack-3") or node ("su-1/rack-3/gb200-0042") at path; false if absent.
    bool selectPath(const QString& path);
    // The current row as a target; none when nothing is selected or nothing is shown.
    std::optional<TreeTarget> currentTarget() const;
    // Offered on a right-click in the tree, after those added before.
    void addContextAction(QAction* action);

Q_SIGNALS:
    // The selection moved: an index of the tree model or of the filter model; invalid for none.
    void currentChanged(const QModelIndex& current);
    // The nodes the filter keeps (null: all of them), for the map to dim the others.
    void nodeFilterChanged(std::shared_ptr<const topodeck::NodeMask> mask);
    // Expanding a row widened the columns: the tree wants this width now.
    void columnsWidened(int width);

private:
    void expandInitialLevels(const TopologyIndex& index);
    // Opens the tree down to the nodes a filter keeps when they are few enough to list.
    void expandToFewMatches();

    TopologyTreeModel* m_model;
    TopologyFilterModel* m_filterModel;
    QTreeView* m_tree;
    FilterBar* m_filterBar;
};

} // namespace topodeck
