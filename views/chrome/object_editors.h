#pragma once

#include "session/cluster_session.h"

#include <QObject>

#include <vector>

class QMenu;
class QWidget;

namespace topodeck {

class ClusterSession;
class HyperNodeEditor;
class TopologyEditor;

// Changes › Edit HyperNodes… and Edit Topology Levels…: the topology object editors, each made on
// first use and raised after, their previews passed on for the Changes page.
class ObjectEditors : public QObject {
    Q_OBJECT
public:
    // window: the editors' parent.
    ObjectEditors(ClusterSession* session, QWidget* window);

    void addToMenu(QMenu* menu);
    HyperNodeEditor* showHyperNodeEditor();
    TopologyEditor* showTopologyEditor();

Q_SIGNALS:
    // An editor's Preview Changes, for the Changes page.
    void previewRequested(const std::vector<topodeck::ObjectKind>& kinds,
                          const std::vector<topodeck::ObjectChange>& changes);

private:
    template <class Editor> Editor* show(Editor*& editor);

    ClusterSession* m_session;
    QWidget* m_window;
    HyperNodeEditor* m_hyperNodeEditor = nullptr;
    TopologyEditor* m_topologyEditor = nullptr;
};

} // namespace topodeck
