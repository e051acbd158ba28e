#include "views/chrome/object_editors.h"

#include "views/dialogs/hypernode_editor.h"
#include "views/dialogs/topology_editor.h"

#include <QAction>
#include <QMenu>

namespace topodeck {

ObjectEditors::ObjectEditors(ClusterSession* session, QWidget* window)
    : QObject(window), m_session(session), m_window(window) {}

void ObjectEditors::addToMenu(QMenu* menu) {
    menu->addAction(tr("Edit &HyperNodes…"), this, &ObjectEditors::showHyperNodeEditor)
        ->setToolTip(tr("The cluster's Volcano HyperNode tree, edited on a copy and previewed as a change plan"));
    menu->addAction(tr("Edit &Topology Levels…"), this, &ObjectEditors::showTopologyEditor)
        ->setToolTip(tr("A Kueue or KAI Topology's levels (and a flavor naming it), previewed as a change plan"));
}

HyperNodeEditor* ObjectEditors::showHyperNodeEditor() {
    return show(m_hyperNodeEditor);
}

TopologyEditor* ObjectEditors::showTopologyEditor() {
    return show(m_topologyEditor);
}

template <class Editor> Editor* ObjectEditors::show(Editor*& editor) {
    if (!editor) {
        editor = new Editor(m_session, m_window);
        connect(editor, &Editor::previewRequested, this, &ObjectEditors::previewRequested);
    }
    editor->refresh();
    editor->show();
    editor->raise();
    editor->activateWindow();
    return editor;
}

} // namespace topodeck
