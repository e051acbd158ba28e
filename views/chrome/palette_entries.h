#pragma once
// What the command palette and Help › Keyboard Shortcuts list, built from the window's menus and
// the shown cluster: kept out of the main window, which only connects the pieces.

#include "session/cluster_session.h"
#include "views/chrome/command_palette.h"

#include <QList>
#include <QString>

#include <functional>
#include <vector>

class QAction;
class QMenuBar;

namespace topodeck {

// Every action of the menus and their submenus, in menu order.
QList<QAction*> menuBarActions(const QMenuBar* menuBar);
// Each action as an entry ("Zoom In  (Ctrl++)") that triggers it; `skip` (the palette's own) is left out.
std::vector<CommandPalette::Entry> actionEntries(const QList<QAction*>& actions, const QAction* skip);
// "rack su-1/rack-1-04" for each domain of a level.
std::vector<CommandPalette::Entry> domainEntries(const TopologyIndex& index, const std::function<void(DomainId)>& go);
std::vector<CommandPalette::Entry> nodeEntries(const ClusterSnapshot& snapshot, const std::function<void(NodeId)>& go);
// "ml/trainer (16 pods)" for each running gang or Slurm job; go gets "namespace/name".
std::vector<CommandPalette::Entry> gangEntries(const GangsReport& report,
                                               const std::function<void(const QString&)>& go);
// An HTML table of the actions' shortcuts, then the keys of the planner and the map.
QString shortcutsTable(const QList<QAction*>& actions);

} // namespace topodeck
