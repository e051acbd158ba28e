#pragma once

#include <QObject>

#include <functional>
#include <utility>

class QMenu;
class QWidget;

namespace topodeck {

class ClusterSession;
class TopologyMapView;

// File › Export Map View… (the map as shown, a PNG picture or an SVG drawing) and Export for
// Review… (a change plan's review bundle, or the hierarchy as Kueue, KAI, Volcano and Slurm files).
class ExportActions : public QObject {
    Q_OBJECT
public:
    // window: the dialogs' parent.
    ExportActions(ClusterSession* session, TopologyMapView* map, QWidget* window);

    // The planner's flags: a review starts from the gang planned there.
    void setPlannerFlagsProvider(std::function<QString()> flags) { m_plannerFlags = std::move(flags); }
    void addToMenu(QMenu* menu);

private:
    void exportMapView();
    void exportForReview();

    ClusterSession* m_session;
    TopologyMapView* m_map;
    QWidget* m_window;
    std::function<QString()> m_plannerFlags;
};

} // namespace topodeck
