#pragma once

#include "core/topology/label_selector.h"
#include "session/cluster_snapshot.h"
#include "views/map/compute_domain_marks.h"
#include "views/map/occupancy_palette.h"
#include "views/map/topology_map_layout.h"

#include <QWidget>

namespace topodeck {

// The topology map: nested boxes for the hierarchy, nodes and their GPU cells coloured by
// occupancy (or by the free capacity for the planner's pod shape), NVLink domains outlined with
// their partitions, and a badge on each NVLink domain an NVIDIA ComputeDomain occupies (its name
// and flags on hover). Zoom (wheel, +/-, fit), pan (drag), hover tooltips and click to select; from
// the keyboard, arrows move the selection among siblings, Enter zooms into it, Backspace out,
// Home fits. Level of detail keeps a 65,536-node cluster fluid: domains whose nodes would be a
// few pixels wide are drawn as one block, and only what intersects the exposed area is painted.
class TopologyMapView : public QWidget {
    Q_OBJECT
public:
    enum class ColourMode { Occupancy, FreeCapacity };

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
    // The domain the view is zoomed to (the breadcrumbs' last entry); the root when fitted.
    DomainId focusDomain() const { return m_focus; }

    ColourMode colourMode() const { return m_colourMode; }
    // Pods of this many GPUs each, a gang of podsWanted of them: the free-capacity colours.
    void setCapacityShape(std::int64_t gpusPerPod, std::int64_t podsWanted);
    std::int64_t capacityGpusPerPod() const { return m_capacityGpusPerPod; }
    // Pods of the shape the domain could take now (free-capacity mode), or -1 without a shape.
    std::int64_t podsThatFitIn(DomainId id) const;

    // Draws what the widget shows now into any paint device of the widget's size (PNG and SVG
    // export, benchmarks).
    void paintView(QPainter& painter, const QRect& exposed) const;
    // Writes the current view as PNG or SVG (by the file's suffix); false with the reason.
    bool exportView(const QString& path, QString* error) const;
    // What setHighlight() last outlined, and its caption.
    const std::vector<std::pair<NodeId, std::int32_t>>& highlight() const { return m_highlight; }
    // The ComputeDomains on each NVLink domain, and the badges the last paint drew for them (widget
    // coordinates, NVLink domain).
    const ComputeDomainMarks& computeDomainMarks() const { return m_domainMarks; }
    const std::vector<std::pair<QRectF, std::int32_t>>& computeDomainBadges() const { return m_badges; }
    const QString& highlightCaption() const { return m_highlightCaption; }

    QSize sizeHint() const override { return QSize(900, 700); }
    QSize minimumSizeHint() const override { return QSize(200, 150); }

Q_SIGNALS:
    // Emitted for clicks in the map only, not for the set*() slots.
    void domainSelected(topodeck::DomainId id);
    void nodeSelected(topodeck::NodeId id);
    void selectionCleared();
    // The zoomed domain changed (zoom to a domain, Enter, Backspace, fit, or wheel and drag).
    void focusChanged(topodeck::DomainId id);

public Q_SLOTS:
    void setSelectedDomain(topodeck::DomainId id);
    void setSelectedNode(topodeck::NodeId id);
    void clearSelection();
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomToDomain(topodeck::DomainId id);
    // Backspace: the focus's parent, selecting the domain zoomed out of.
    void zoomOutOfFocus();
    void setColourMode(topodeck::TopologyMapView::ColourMode mode);
    // Outlines these nodes over the occupancy (a dry-run's placement, a running gang's pods), with
    // the pod count on each node large enough to show it (0: no count), and a caption in the
    // corner saying what is outlined. Empty: no overlay.
    void setHighlight(const std::vector<std::pair<topodeck::NodeId, std::int32_t>>& nodePods, const QString& caption);
    // Dims the nodes the mask leaves out (a label selector's matches by NodeId, shared with the
    // tree; null: no filter), and says in a caption how many nodes it keeps.
    void setNodeFilter(std::shared_ptr<const topodeck::NodeMask> mask);

public:
    const std::shared_ptr<const NodeMask>& nodeFilter() const { return m_nodeFilter; }
    // "Filter: 1,234 of 65,536 nodes"; empty without a filter.
    QString filterCaption() const;

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
    void paintCaptions(QPainter& painter) const;
    void paintPartition(QPainter& painter, const TopologyMapLayout::NvlinkOutline& outline, const QRectF& screen,
                        qreal width) const;
    void paintCapacityBlock(QPainter& painter, std::int64_t pods, const QRectF& screen) const;
    void paintComputeDomainBadge(QPainter& painter, std::int32_t nvlinkDomain, const QRectF& screen) const;
    bool showsCapacity() const { return m_colourMode == ColourMode::FreeCapacity && !m_capacityPods.empty(); }
    QColor capacityColour(std::int64_t pods) const;
    void recomputeCapacity();
    void updateFocusFromView();
    void setFocusDomain(DomainId id);
    // Arrow keys: the sibling (domain or node) of the selection nearest in that direction.
    void moveSelection(int dx, int dy);
    // Enter: zooms into the selected domain (the focus without one) and selects its first child.
    void zoomIntoSelection();
    void selectHit(const TopologyMapLayout::Hit& hit);

    ClusterSnapshotPtr m_snapshot;
    TopologyMapLayout m_layout;
    OccupancyPalette m_palette;
    double m_scale = 1.0;
    QPointF m_offset;
    bool m_fitMode = true;      // follows the widget size until the user zooms or pans
    bool m_focusFitted = false; // zoomed to m_focus (Enter, a breadcrumb): refitted on resize
    TopologyMapLayout::Hit m_selection;
    DomainId m_focus = kRootDomain;
    ColourMode m_colourMode = ColourMode::Occupancy;
    std::int64_t m_capacityGpusPerPod = 0;
    std::int64_t m_capacityPodsWanted = 0;
    std::vector<std::int64_t> m_capacityPods; // by DomainId, for the shape; empty without one
    std::vector<std::pair<NodeId, std::int32_t>> m_highlight;
    QString m_highlightCaption;
    ComputeDomainMarks m_domainMarks;
    mutable std::vector<std::pair<QRectF, std::int32_t>> m_badges; // drawn by the last paint, for tooltips
    TopologyMapLayout::Hit m_hover;
    bool m_pressed = false;
    bool m_dragging = false;
    QPoint m_pressPos;
    QPointF m_pressOffset;

    // The node filter: what it keeps per domain is counted again for each snapshot, on first paint.
    bool filteredOut(NodeId id) const;
    const std::vector<std::uint32_t>& filterMatches() const;
    void paintFilterVeil(QPainter& painter, DomainId id, const QRectF& exposedWorld) const;
    void paintFilterDim(QPainter& painter, const QRectF& screen, double excluded) const;
    void paintFilterCaption(QPainter& painter) const;
    std::shared_ptr<const NodeMask> m_nodeFilter;
    mutable std::vector<std::uint32_t> m_filterMatches;
    mutable std::weak_ptr<const ClusterSnapshot> m_filterCountedFor;
};

} // namespace topodeck
