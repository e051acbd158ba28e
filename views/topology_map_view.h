#pragma once

#include "session/cluster_snapshot.h"
#include "views/occupancy_palette.h"
#include "views/topology_map_layout.h"

#include <QWidget>

namespace topodeck {

// The topology map: nested boxes for the hierarchy, nodes and their GPU cells coloured by
// occupancy, NVLink domains outlined. Zoom (wheel, +/-, fit), pan (drag), hover tooltips and click
// to select. Level of detail keeps a 65,536-node cluster fluid: domains whose nodes would be a
// few pixels wide are drawn as one block, and only what intersects the exposed area is painted.
class TopologyMapView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyMapView(QWidget* parent = nullptr);

    void setSnapshot(ClusterSnapshotPtr snapshot);
    const ClusterSnapshotPtr& snapshot() const { return m_snapshot; }
    const TopologyMapLayout& mapLayout() const { return m_layout; }

    double scale() const { return m_scale; } // pixels per world unit
    QPointF worldToScreen(QPointF world) const { return m_offset + world * m_scale; }
    QRectF worldToScreen(const QRectF& world) const;
    QPointF screenToWorld(QPointF screen) const { return (screen - m_offset) / m_scale; }
    // The domain or node drawn under a widget position.
    TopologyMapLayout::Hit hitAt(QPointF pos) const;

    DomainId selectedDomain() const { return m_selection.domain; }
    NodeId selectedNode() const { return m_selection.node; }
    // What setHighlight() last outlined, and its caption.
    const std::vector<std::pair<NodeId, std::int32_t>>& highlight() const { return m_highlight; }
    const QString& highlightCaption() const { return m_highlightCaption; }

    QSize sizeHint() const override { return QSize(900, 700); }
    QSize minimumSizeHint() const override { return QSize(200, 150); }

Q_SIGNALS:
    // Emitted for clicks in the map only, not for the set*() slots.
    void domainSelected(topodeck::DomainId id);
    void nodeSelected(topodeck::NodeId id);
    void selectionCleared();

public Q_SLOTS:
    void setSelectedDomain(topodeck::DomainId id);
    void setSelectedNode(topodeck::NodeId id);
    void clearSelection();
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToDomain(topodeck::DomainId id);
    // Outlines these nodes over the occupancy (a dry-run's placement, a running gang's pods), with
    // the pod count on each node large enough to show it (0: no count), and a caption in the
    // corner saying what is outlined. Empty: no overlay.
    void setHighlight(const std::vector<std::pair<topodeck::NodeId, std::int32_t>>& nodePods, const QString& caption);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void rebuildLayout();
    void zoomAround(QPointF anchor, double factor);
    void setScaleAndOffset(double scale, QPointF offset);
    void centreOn(const QRectF& world);
    double fitScale() const;
    double maxScale() const;
    QRectF selectionWorldRect(const TopologyMapLayout::Hit& hit) const;
    void updateHit(const TopologyMapLayout::Hit& hit);
    QString toolTipFor(const TopologyMapLayout::Hit& hit) const;

    void paintDomain(QPainter& painter, DomainId id, const QRectF& exposedWorld) const;
    void paintHeader(QPainter& painter, DomainId id, const QRectF& screenHeader) const;
    void paintBlock(QPainter& painter, const DomainTotals& totals, const QRectF& screen, bool asBar = false) const;
    void paintNode(QPainter& painter, NodeId id) const;
    void paintOutline(QPainter& painter, const QRectF& screen, const QColor& color, qreal width) const;
    void paintHighlight(QPainter& painter, const QRectF& exposedWorld) const;

    ClusterSnapshotPtr m_snapshot;
    TopologyMapLayout m_layout;
    OccupancyPalette m_palette;
    double m_scale = 1.0;
    QPointF m_offset;
    bool m_fitMode = true; // follows the widget size until the user zooms or pans
    TopologyMapLayout::Hit m_selection;
    std::vector<std::pair<NodeId, std::int32_t>> m_highlight;
    QString m_highlightCaption;
    TopologyMapLayout::Hit m_hover;
    bool m_pressed = false;
    bool m_dragging = false;
    QPoint m_pressPos;
    QPointF m_pressOffset;
};

} // namespace topodeck
