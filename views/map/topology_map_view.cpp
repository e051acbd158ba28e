#include "views/map/topology_map_view.h"

#include "core/topology/level_capacity.h"
#include "models/cluster_terms.h"
#include "views/map/occupancy_bar_delegate.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QSvgGenerator>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace topodeck {

namespace {

constexpr double kFitMargin = 10.0;
constexpr double kMaxScale = 64.0;    // a GPU cell 64 px wide is as close as anyone needs
constexpr double kMaxFitScale = 18.0; // a small cluster is shown at a calm size, not blown up
constexpr double kZoomStep = 1.25;
constexpr double kMinLabelPixels = 12.0; // header height below which a domain shows no name
constexpr double kMaxFontPixels = 15.0;
constexpr double kMinFontPixels = 8.0;
// Below this size a collapsed domain is one mixed colour instead of a used/free/unavailable bar.
constexpr double kMinBarBlockWidth = 24.0;
constexpr double kMinBarBlockHeight = 12.0;
// GPU cells are drawn one by one from this size (pixels per cell) up.
constexpr double kMinCellPixels = 3.0;
// The zoomed domain, for the breadcrumbs after a wheel or a drag: the deepest one under the
// centre of the view that still fills this share of it.
constexpr double kFocusShare = 0.5;

QString levelName(const TopologyIndex& index, const Domain& domain) {
    if (domain.level < 0 || domain.level >= index.spec().depth()) return TopologyMapView::tr("cluster");
    return QString::fromStdString(index.spec().levels[static_cast<std::size_t>(domain.level)].name);
}

QString displayName(const TopologyIndex& index, const Domain& domain) {
    if (domain.unlabelled) return TopologyMapView::tr("(no %1)").arg(levelName(index, domain));
    return QString::fromStdString(domain.value);
}

} // namespace

TopologyMapView::TopologyMapView(QWidget* parent)
    : QWidget(parent), m_palette(OccupancyPalette::forPalette(palette())) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::OpenHandCursor);
    setAccessibleName(tr("Topology map"));
}

void TopologyMapView::setSnapshot(ClusterSnapshotPtr snapshot) {
    const bool otherSource = !m_snapshot || !snapshot || m_snapshot->sourceEpoch != snapshot->sourceEpoch;
    m_snapshot = std::move(snapshot);
    m_domainMarks.build(m_snapshot);
    if (otherSource) {
        // Another cluster: nothing of the old view (zoom, selection) means anything there.
        m_layout.clear();
        m_selection = m_hover = {};
        m_fitMode = true;
        setFocusDomain(kRootDomain);
    }
    if (!m_snapshot) {
        m_layout.clear();
        m_selection = m_hover = {};
        m_capacityPods.clear();
        update();
        return;
    }
    const TopologyIndex& index = m_snapshot->index;
    if (m_layout.isEmpty() || TopologyMapLayout::signatureOf(index) != m_layout.signature()) {
        rebuildLayout();
        if (m_fitMode) zoomToFit();
    }
    // Ids are stable while a domain lives; drop what disappeared rather than point at a reused slot.
    auto stillThere = [&index](const TopologyMapLayout::Hit& hit) {
        if (hit.node != TopologyMapLayout::kNoNode)
            return hit.node < index.nodeSlots() && index.node(hit.node).leaf != kNoDomain;
        return hit.domain < index.domainSlots() && index.domain(hit.domain).alive;
    };
    if (m_selection.domain != kNoDomain && !stillThere(m_selection))
        m_selection = {};
    else if (m_selection.node != TopologyMapLayout::kNoNode)
        m_selection.domain = index.node(m_selection.node).leaf;
    if (m_hover.domain != kNoDomain && !stillThere(m_hover)) m_hover = {};
    if (!stillThere({m_focus, TopologyMapLayout::kNoNode})) setFocusDomain(kRootDomain);
    recomputeCapacity();
    update();
}

void TopologyMapView::setFocusDomain(DomainId id) {
    if (id == m_focus) return;
    m_focus = id;
    Q_EMIT focusChanged(id);
}

void TopologyMapView::updateFocusFromView() {
    if (!m_snapshot || m_layout.isEmpty()) return;
    const TopologyIndex& index = m_snapshot->index;
    const QPointF centre = screenToWorld(QPointF(width() / 2.0, height() / 2.0));
    DomainId focus = kRootDomain;
    for (DomainId current = kRootDomain;;) {
        DomainId next = kNoDomain;
        for (DomainId child : index.domain(current).children) {
            if (!index.domain(child).alive || !m_layout.domainRect(child).contains(centre)) continue;
            next = child;
            break;
        }
        if (next == kNoDomain) break;
        const QRectF screen = worldToScreen(m_layout.domainRect(next));
        if (screen.width() < width() * kFocusShare && screen.height() < height() * kFocusShare) break;
        focus = current = next;
    }
    setFocusDomain(focus);
}

QRectF TopologyMapView::worldToScreen(const QRectF& world) const {
    return QRectF(worldToScreen(world.topLeft()), world.size() * m_scale);
}

TopologyMapLayout::Hit TopologyMapView::hitAt(QPointF pos) const {
    if (!m_snapshot) return {};
    return m_layout.hitTest(m_snapshot->index, screenToWorld(pos), m_scale);
}

void TopologyMapView::rebuildLayout() {
    if (!m_snapshot) {
        m_layout.clear();
        return;
    }
    const double aspect = height() > 0 ? double(width()) / double(height()) : 1.0;
    m_layout.build(m_snapshot->index, aspect);
}

double TopologyMapView::fitScale() const {
    const QRectF bounds = m_layout.bounds();
    if (bounds.isEmpty()) return 1.0;
    const double w = std::max(1.0, width() - 2 * kFitMargin);
    const double h = std::max(1.0, height() - 2 * kFitMargin);
    return std::min({w / bounds.width(), h / bounds.height(), kMaxFitScale});
}

double TopologyMapView::maxScale() const {
    return std::max(kMaxScale, fitScale());
}

void TopologyMapView::setScaleAndOffset(double scale, QPointF offset) {
    m_scale = scale;
    m_offset = offset;
    update();
}

void TopologyMapView::zoomToFit() {
    m_fitMode = true;
    m_focusFitted = false;
    setFocusDomain(kRootDomain);
    // The layout was shaped for another window (a page opened beside the map since): reshape it.
    const double aspect = height() > 0 ? double(width()) / double(height()) : 1.0;
    if (!m_layout.isEmpty() && std::abs(std::log(aspect / m_layout.targetAspect())) > 0.05) rebuildLayout();
    const QRectF bounds = m_layout.bounds();
    if (bounds.isEmpty()) return update();
    const double scale = fitScale();
    const QPointF centre(width() / 2.0, height() / 2.0);
    setScaleAndOffset(scale, centre - bounds.center() * scale);
}

void TopologyMapView::zoomToDomain(DomainId id) {
    const QRectF world = m_layout.domainRect(id);
    if (world.isEmpty()) return;
    if (id == kRootDomain) return zoomToFit();
    m_fitMode = false;
    m_focusFitted = true;
    setFocusDomain(id);
    const double w = std::max(1.0, width() - 4 * kFitMargin);
    const double h = std::max(1.0, height() - 4 * kFitMargin);
    const double scale = std::clamp(std::min(w / world.width(), h / world.height()), fitScale() * 0.5, maxScale());
    const QPointF centre(width() / 2.0, height() / 2.0);
    setScaleAndOffset(scale, centre - world.center() * scale);
}

void TopologyMapView::zoomAround(QPointF anchor, double factor) {
    if (m_layout.isEmpty()) return;
    const double scale = std::clamp(m_scale * factor, fitScale() * 0.5, maxScale());
    m_fitMode = m_focusFitted = false;
    setScaleAndOffset(scale, anchor - (anchor - m_offset) * (scale / m_scale));
    updateFocusFromView();
}

void TopologyMapView::zoomOutOfFocus() {
    if (!m_snapshot || m_focus == kRootDomain) return zoomToFit();
    const DomainId from = m_focus;
    const DomainId parent = m_snapshot->index.domain(from).parent;
    if (parent == kNoDomain || parent == kRootDomain)
        zoomToFit();
    else
        zoomToDomain(parent);
    selectHit({from, TopologyMapLayout::kNoNode});
}

void TopologyMapView::zoomIn() {
    zoomAround(QPointF(width() / 2.0, height() / 2.0), kZoomStep);
}

void TopologyMapView::zoomOut() {
    zoomAround(QPointF(width() / 2.0, height() / 2.0), 1.0 / kZoomStep);
}

void TopologyMapView::centreOn(const QRectF& world) {
    const QRectF screen = worldToScreen(world);
    if (rect().contains(screen.toAlignedRect())) return;
    m_fitMode = m_focusFitted = false;
    setScaleAndOffset(m_scale, m_offset + QPointF(width() / 2.0, height() / 2.0) - screen.center());
    updateFocusFromView();
}

QRectF TopologyMapView::selectionWorldRect(const TopologyMapLayout::Hit& hit) const {
    if (hit.node != TopologyMapLayout::kNoNode) return m_layout.nodeRect(hit.node);
    if (hit.domain != kNoDomain && hit.domain != kRootDomain) return m_layout.domainRect(hit.domain);
    return {};
}

void TopologyMapView::setSelectedDomain(DomainId id) {
    if (!m_snapshot || id >= m_snapshot->index.domainSlots() || !m_snapshot->index.domain(id).alive)
        return clearSelection();
    m_selection = {id, TopologyMapLayout::kNoNode};
    centreOn(selectionWorldRect(m_selection));
    update();
}

void TopologyMapView::setSelectedNode(NodeId id) {
    if (!m_snapshot || id >= m_snapshot->index.nodeSlots() || m_snapshot->index.node(id).leaf == kNoDomain)
        return clearSelection();
    m_selection = {m_snapshot->index.node(id).leaf, id};
    centreOn(selectionWorldRect(m_selection));
    update();
}

void TopologyMapView::clearSelection() {
    m_selection = {};
    update();
}

void TopologyMapView::updateHit(const TopologyMapLayout::Hit& hit) {
    if (hit == m_hover) return;
    m_hover = hit;
    update();
}

// ---- painting ------------------------------------------------------------------------------

void TopologyMapView::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    paintView(painter, event->rect());
}

void TopologyMapView::paintView(QPainter& painter, const QRect& exposed) const {
    painter.fillRect(exposed, m_palette.background);
    m_badges.clear();
    if (!m_snapshot || m_layout.isEmpty()) {
        painter.setPen(m_palette.mutedText);
        painter.drawText(rect(), Qt::AlignCenter,
                         m_snapshot ? tr("No nodes to show") : tr("Waiting for cluster data…"));
        return;
    }
    const QRectF exposedWorld(screenToWorld(exposed.topLeft()), screenToWorld(exposed.bottomRight() + QPoint(1, 1)));
    paintDomain(painter, kRootDomain, exposedWorld);
    paintFilterVeil(painter, kRootDomain, exposedWorld);
    paintFilterCaption(painter);

    if (m_hover != m_selection) {
        const QRectF hover = selectionWorldRect(m_hover);
        if (!hover.isEmpty()) paintOutline(painter, worldToScreen(hover), m_palette.hover, 1.5);
    }
    paintHighlight(painter, exposedWorld);
    const QRectF selected = selectionWorldRect(m_selection);
    if (!selected.isEmpty()) {
        QRectF screen = worldToScreen(selected);
        // A node too small to see still gets a visible marker.
        if (screen.width() < 8 || screen.height() < 8) screen = QRectF(screen.center() - QPointF(5, 5), QSizeF(10, 10));
        paintOutline(painter, screen.adjusted(-1, -1, 1, 1), m_palette.background, 5);
        paintOutline(painter, screen.adjusted(-1, -1, 1, 1), m_palette.selection, 3);
    }
    paintCaptions(painter);
}

bool TopologyMapView::exportView(const QString& path, QString* error) const {
    const bool svg = QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
    const QRect area = rect();
    if (svg) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(area.size());
        generator.setViewBox(area);
        generator.setResolution(logicalDpiX());
        generator.setTitle(windowTitle().isEmpty() ? tr("topodeck map") : windowTitle());
        generator.setDescription(m_snapshot ? m_snapshot->title : QString());
        QPainter painter;
        if (!painter.begin(&generator)) {
            if (error) *error = tr("cannot write %1").arg(path);
            return false;
        }
        paintView(painter, area);
        if (painter.end()) return true;
        if (error) *error = tr("cannot write %1").arg(path);
        return false;
    }
    QImage image(area.size() * devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatioF());
    {
        QPainter painter(&image);
        paintView(painter, area);
    }
    if (image.save(path)) return true;
    if (error) *error = tr("cannot write %1 (the name should end in .png or .svg)").arg(path);
    return false;
}

// ---- free capacity -------------------------------------------------------------------------

void TopologyMapView::setCapacityShape(std::int64_t gpusPerPod, std::int64_t podsWanted) {
    if (gpusPerPod == m_capacityGpusPerPod && podsWanted == m_capacityPodsWanted) return;
    m_capacityGpusPerPod = gpusPerPod;
    m_capacityPodsWanted = podsWanted;
    recomputeCapacity();
    if (m_colourMode == ColourMode::FreeCapacity) update();
}

void TopologyMapView::setColourMode(ColourMode mode) {
    if (mode == m_colourMode) return;
    m_colourMode = mode;
    update();
}

void TopologyMapView::recomputeCapacity() {
    m_capacityPods.clear();
    if (!m_snapshot || m_capacityGpusPerPod <= 0) return;
    // O(domains x histogram width): each domain's free-GPU histogram says it without the nodes.
    const TopologyIndex& index = m_snapshot->index;
    m_capacityPods.assign(index.domainSlots(), 0);
    for (DomainId id = 0; id < index.domainSlots(); ++id)
        if (index.domain(id).alive) m_capacityPods[id] = podsThatFit(index.domain(id).freeGpuHistogram, m_capacityGpusPerPod);
}

std::int64_t TopologyMapView::podsThatFitIn(DomainId id) const {
    return id < m_capacityPods.size() ? m_capacityPods[id] : -1;
}

QColor TopologyMapView::capacityColour(std::int64_t pods) const {
    if (pods <= 0) return m_palette.nodeFill;
    // Pale amber for a few pods, through green, to deep green for room for the whole gang.
    const double share = m_capacityPodsWanted > 0 ? std::min(1.0, double(pods) / double(m_capacityPodsWanted)) : 1.0;
    const QColor few(253, 224, 139), whole(26, 152, 80);
    if (share >= 1.0) return whole;
    auto mix = [share](int a, int b) { return int(a + (b - a) * share * 0.75 + 0.5); };
    return QColor(mix(few.red(), whole.red()), mix(few.green(), whole.green()), mix(few.blue(), whole.blue()));
}

void TopologyMapView::paintCaptions(QPainter& painter) const {
    if (m_colourMode != ColourMode::FreeCapacity) return;
    const QString text = m_capacityGpusPerPod > 0
                             ? tr("Free capacity for pods of %1 GPUs: deep green has room for the whole gang of %2")
                                   .arg(m_capacityGpusPerPod)
                                   .arg(m_capacityPodsWanted)
                             : tr("Free capacity: run a dry-run in the planner to give the pod shape");
    QFont captionFont = font();
    painter.setFont(captionFont);
    const QFontMetrics metrics(captionFont);
    // Bottom right: the plan's caption is bottom left, and domain names run along the top.
    const QSizeF size(metrics.horizontalAdvance(text) + 12, metrics.height() + 4);
    const QRectF box(QPointF(width() - size.width() - 8, height() - size.height() - 10), size);
    painter.fillRect(box, m_palette.headerFill);
    painter.setPen(QPen(m_palette.domainBorder, 1));
    painter.drawRect(box);
    painter.setPen(m_palette.text);
    painter.drawText(box, Qt::AlignCenter, text);
}

void TopologyMapView::setHighlight(const std::vector<std::pair<NodeId, std::int32_t>>& nodePods,
                                   const QString& caption) {
    m_highlight = nodePods;
    m_highlightCaption = caption;
    update();
}

void TopologyMapView::paintHighlight(QPainter& painter, const QRectF& exposedWorld) const {
    if (m_highlight.empty()) return;
    // Magenta reads against every occupancy colour, light or dark.
    const QColor accent(214, 51, 132);
    QFont countFont = font();
    countFont.setBold(true);
    painter.setFont(countFont);
    const QFontMetrics metrics(countFont);
    for (const auto& [id, pods] : m_highlight) {
        const QRectF world = m_layout.nodeRect(id);
        if (world.isEmpty() || !world.intersects(exposedWorld)) continue;
        QRectF screen = worldToScreen(world);
        // A node too small to see still gets a marker.
        if (screen.width() < 4 || screen.height() < 4) screen = QRectF(screen.center() - QPointF(2, 2), QSizeF(4, 4));
        paintOutline(painter, screen, accent, 2);
        const QString count = QString::number(pods);
        if (pods > 0 && screen.height() >= metrics.height() + 2 && screen.width() >= metrics.horizontalAdvance(count) + 6) {
            const QRectF badge(screen.topLeft() + QPointF(2, 2),
                               QSizeF(metrics.horizontalAdvance(count) + 4, metrics.height()));
            painter.fillRect(badge, accent);
            painter.setPen(Qt::white);
            painter.drawText(badge, Qt::AlignCenter, count);
        }
    }
    if (m_highlightCaption.isEmpty()) return;
    const QRectF caption(QPointF(8, height() - metrics.height() - 10),
                         QSizeF(metrics.horizontalAdvance(m_highlightCaption) + 12, metrics.height() + 4));
    painter.fillRect(caption, accent);
    painter.setPen(Qt::white);
    painter.drawText(caption, Qt::AlignCenter, m_highlightCaption);
}

void TopologyMapView::paintOutline(QPainter& painter, const QRectF& screen, const QColor& color, qreal width) const {
    painter.setPen(QPen(color, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(screen);
}

void TopologyMapView::paintDomain(QPainter& painter, DomainId id, const QRectF& exposedWorld) const {
    const TopologyIndex& index = m_snapshot->index;
    const QRectF world = m_layout.domainRect(id);
    if (!world.intersects(exposedWorld)) return;
    const Domain& domain = index.domain(id);
    const bool isRoot = id == kRootDomain;
    const QRectF screen = worldToScreen(world);
    const QRectF header = worldToScreen(m_layout.headerRect(id));
    const bool labelled = !isRoot && header.height() >= kMinLabelPixels;

    if (!isRoot && (labelled || !m_layout.collapsedAt(id, m_scale))) {
        painter.setPen(QPen(m_palette.domainBorder, 1, domain.unlabelled ? Qt::DashLine : Qt::SolidLine));
        // Racks are white cards; the domains holding them stay in the map's colour, so a gap in a
        // grid reads as a gap rather than as an empty rack.
        // Free capacity: racks wear their colour (higher domains get a frame, below).
        QColor fill = domain.children.empty() ? m_palette.domainFill : m_palette.background;
        if (showsCapacity() && domain.children.empty()) fill = capacityColour(podsThatFitIn(id));
        painter.setBrush(fill);
        painter.drawRect(screen);
        if (labelled) paintHeader(painter, id, header);
    }
    if (m_layout.collapsedAt(id, m_scale)) {
        const QRectF block = labelled ? worldToScreen(m_layout.contentRect(id)) : screen;
        if (showsCapacity())
            paintCapacityBlock(painter, podsThatFitIn(id), block);
        else
            paintBlock(painter, domain.totals, block);
        return;
    }
    for (DomainId child : domain.children)
        if (index.domain(child).alive) paintDomain(painter, child, exposedWorld);
    for (NodeId node : domain.nodes)
        if (m_layout.nodeRect(node).intersects(exposedWorld)) paintNode(painter, node);
    // A domain above the racks with room for the whole gang is framed in the gang's green, so the
    // levels the racks cannot show say where the gang could go too.
    if (showsCapacity() && !isRoot && !domain.children.empty() && m_capacityPodsWanted > 0 &&
        podsThatFitIn(id) >= m_capacityPodsWanted)
        paintOutline(painter, screen.adjusted(1, 1, -1, -1), capacityColour(m_capacityPodsWanted), 3);
    const qreal outlineWidth = std::clamp(m_scale * 0.12, 1.0, 3.0);
    for (const TopologyMapLayout::NvlinkOutline& outline : m_layout.nvlinkOutlines(id)) {
        if (!outline.rect.intersects(exposedWorld)) continue;
        const QRectF frame = worldToScreen(outline.rect);
        if (outline.partition < 0) {
            paintOutline(painter, frame, m_palette.nvlink, outlineWidth);
            // A split domain's ComputeDomains are marked on the partitions (cliques) they are in.
            if (outline.partitions < 2) paintComputeDomainBadge(painter, outline.nvlinkDomain, frame);
            continue;
        }
        paintPartition(painter, outline, frame, outlineWidth);
        paintComputeDomainBadge(painter, outline.nvlinkDomain, frame);
    }
}

void TopologyMapView::paintComputeDomainBadge(QPainter& painter, std::int32_t nvlinkDomain,
                                              const QRectF& screen) const {
    // A tab on the frame's bottom edge, left, in the ComputeDomain colour (the warning colour when
    // one of them spans cliques): its name when it fits, "CD" when not, nothing on a tiny frame.
    if (m_domainMarks.on(nvlinkDomain).empty()) return;
    QFont badgeFont = font();
    badgeFont.setPixelSize(static_cast<int>(std::clamp(m_scale * 0.8, kMinFontPixels, 12.0)));
    const QFontMetricsF metrics(badgeFont);
    QString label = m_domainMarks.badgeText(nvlinkDomain, false);
    const double room = screen.width() - 16;
    if (metrics.horizontalAdvance(label) + 6 > room) label = m_domainMarks.badgeText(nvlinkDomain, true);
    if (metrics.horizontalAdvance(label) + 6 > room || screen.height() < 3 * metrics.height()) return;
    const QRectF badge(screen.left() + 6, screen.bottom() - metrics.height() / 2, metrics.horizontalAdvance(label) + 6,
                       metrics.height());
    const bool flagged = m_domainMarks.flagged(nvlinkDomain);
    painter.fillRect(badge, flagged ? m_palette.computeDomainFlagged : m_palette.computeDomain);
    painter.setFont(badgeFont);
    painter.setPen(QColor(Qt::white));
    painter.drawText(badge, Qt::AlignCenter, label);
    m_badges.emplace_back(badge, nvlinkDomain);
}

void TopologyMapView::paintPartition(QPainter& painter, const TopologyMapLayout::NvlinkOutline& outline,
                                     const QRectF& screen, qreal width) const {
    // A partition (CliqueID) of a physical NVLink domain: dashed, in the NVLink colour, with its
    // clique id in the corner when there is room.
    painter.setPen(QPen(m_palette.nvlink, std::max<qreal>(1.0, width * 0.75), Qt::DashLine, Qt::FlatCap, Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(screen);
    QFont badgeFont = font();
    badgeFont.setPixelSize(static_cast<int>(std::clamp(m_scale * 0.8, kMinFontPixels, 12.0)));
    const QFontMetricsF metrics(badgeFont);
    const std::string& clique = m_snapshot->index.nvlinkName(outline.nvlinkDomain);
    const QString label = tr("clique %1").arg(QString::fromStdString(clique.substr(clique.rfind('.') + 1)));
    if (screen.height() < 3 * metrics.height() || screen.width() < metrics.horizontalAdvance(label) + 8) return;
    const QRectF badge(screen.right() - metrics.horizontalAdvance(label) - 6, screen.top() - metrics.height() / 2,
                       metrics.horizontalAdvance(label) + 6, metrics.height());
    painter.fillRect(badge, m_palette.nvlink);
    painter.setFont(badgeFont);
    painter.setPen(m_palette.background);
    painter.drawText(badge, Qt::AlignCenter, label);
}

void TopologyMapView::paintCapacityBlock(QPainter& painter, std::int64_t pods, const QRectF& screen) const {
    painter.fillRect(screen, capacityColour(pods));
    if (screen.width() >= 5 && screen.height() >= 5) {
        painter.setPen(QPen(m_palette.domainBorder, 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(screen);
    }
}

void TopologyMapView::paintHeader(QPainter& painter, DomainId id, const QRectF& header) const {
    const TopologyIndex& index = m_snapshot->index;
    const Domain& domain = index.domain(id);
    painter.fillRect(header.adjusted(1, 1, 0, 0), m_palette.headerFill);

    QFont font = this->font();
    font.setPixelSize(static_cast<int>(std::clamp(header.height() * 0.6, kMinFontPixels, kMaxFontPixels)));
    font.setBold(domain.level == 0);
    font.setItalic(domain.unlabelled);
    painter.setFont(font);
    const QFontMetricsF fm(font);
    const double inset = std::max(3.0, header.height() * 0.3);
    QRectF text = header.adjusted(inset, 0, -inset, 0);

    // "used/total" and a small bar on the right when there is room for them next to the name.
    const QString numbers =
        !showsCapacity()          ? OccupancyBarDelegate::usedOfTotalText(domain.totals.gpusUsed, domain.totals.gpusTotal)
        : podsThatFitIn(id) == 1 ? tr("room for 1 pod")
                                 : tr("room for %1 pods").arg(QLocale().toString(qlonglong(podsThatFitIn(id))));
    const QString name = displayName(index, domain);
    const double numbersWidth = fm.horizontalAdvance(numbers);
    const double barWidth = std::min(60.0, text.width() * 0.25);
    if (!showsCapacity() && text.width() > fm.horizontalAdvance(name) + numbersWidth + barWidth + 3 * inset) {
        painter.setPen(m_palette.mutedText);
        painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter, numbers);
        const double barHeight = std::max(4.0, header.height() * 0.35);
        const QRectF bar(text.right() - numbersWidth - inset - barWidth, header.center().y() - barHeight / 2, barWidth,
                         barHeight);
        paintBlock(painter, domain.totals, bar, true);
        text.setRight(bar.left() - inset);
    } else if (text.width() > fm.horizontalAdvance(name) + numbersWidth + 2 * inset) {
        painter.setPen(m_palette.mutedText);
        painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter, numbers);
        text.setRight(text.right() - numbersWidth - inset);
    }
    painter.setPen(m_palette.text);
    painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(name, Qt::ElideRight, text.width()));
}

void TopologyMapView::paintBlock(QPainter& painter, const DomainTotals& totals, const QRectF& screen,
                                 bool asBar) const {
    const double used = double(totals.gpusUsed);
    const double free = double(totals.gpusFree);
    const double unavailable = double(totals.gpusUnavailable);
    const double total = used + free + unavailable;
    if (total <= 0) {
        painter.fillRect(screen, m_palette.nodeFill);
    } else if (!asBar && (screen.width() < kMinBarBlockWidth || screen.height() < kMinBarBlockHeight)) {
        // Too small for a readable bar: one colour, the mix of used, free and unavailable.
        const QColor& u = m_palette.used;
        const QColor& f = m_palette.free;
        const QColor& n = m_palette.unavailable;
        auto mix = [&](int a, int b, int c) { return int((a * used + b * free + c * unavailable) / total + 0.5); };
        painter.fillRect(screen, QColor(mix(u.red(), f.red(), n.red()), mix(u.green(), f.green(), n.green()),
                                        mix(u.blue(), f.blue(), n.blue())));
    } else {
        const double usedW = screen.width() * used / total;
        const double freeW = screen.width() * free / total;
        painter.fillRect(QRectF(screen.left(), screen.top(), usedW, screen.height()), m_palette.used);
        painter.fillRect(QRectF(screen.left() + usedW, screen.top(), freeW, screen.height()), m_palette.free);
        if (totals.gpusUnavailable > 0)
            m_palette.fillUnavailable(&painter, QRectF(screen.left() + usedW + freeW, screen.top(),
                                                       screen.width() - usedW - freeW, screen.height()));
    }
    if (screen.width() >= 5 && screen.height() >= 5) {
        painter.setPen(QPen(m_palette.domainBorder, 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(screen);
    }
}

void TopologyMapView::paintNode(QPainter& painter, NodeId id) const {
    const NodeStats& stats = m_snapshot->index.node(id);
    const QRectF screen = worldToScreen(m_layout.nodeRect(id));
    const bool unavailable = !stats.schedulable;
    const std::int64_t rest = stats.gpusTotal - stats.gpusUsed;
    const bool capacity = showsCapacity();
    // Free capacity: a node wears its rack's colour (the question is which rack could take the
    // gang); its free GPUs that no pod of the shape could use stay grey.
    const bool tooSmall = capacity && !unavailable && stats.gpusFree() < m_capacityGpusPerPod;
    if (capacity && m_scale < kMinCellPixels) return paintCapacityBlock(painter, podsThatFitIn(stats.leaf), screen);
    if (m_scale < kMinCellPixels) {
        // GPU cells would be a pixel or two: the node's share is enough, and far cheaper.
        DomainTotals totals;
        totals.gpusUsed = stats.gpusUsed;
        (unavailable ? totals.gpusUnavailable : totals.gpusFree) = rest;
        paintBlock(painter, totals, screen, true);
        return;
    }
    painter.setPen(QPen(unavailable ? m_palette.hatch : m_palette.nodeBorder, unavailable ? 1.5 : 1.0));
    painter.setBrush(capacity ? capacityColour(podsThatFitIn(stats.leaf)) : m_palette.nodeFill);
    painter.drawRect(screen);
    const int cells =
        static_cast<int>(std::min<std::int64_t>(stats.gpusTotal, m_layout.gpuColumns() * m_layout.gpuRows()));
    for (int gpu = 0; gpu < cells; ++gpu) {
        const QRectF cell = worldToScreen(m_layout.gpuRect(id, gpu));
        if (gpu < stats.gpusUsed)
            painter.fillRect(cell, m_palette.used);
        else if (unavailable)
            m_palette.fillUnavailable(&painter, cell);
        else if (tooSmall)
            painter.fillRect(cell, m_palette.nodeFill);
        else if (!capacity) // in capacity mode a usable free cell shows the rack's colour
            painter.fillRect(cell, m_palette.free);
    }
    if (stats.gpusTotal == 0 && screen.height() > 2 * fontMetrics().height()) {
        painter.setPen(m_palette.mutedText);
        painter.setFont(font());
        painter.drawText(screen, Qt::AlignCenter, tr("no GPUs"));
    }
}

// ---- node filter ---------------------------------------------------------------------------

void TopologyMapView::setNodeFilter(std::shared_ptr<const NodeMask> mask) {
    m_nodeFilter = std::move(mask);
    m_filterCountedFor.reset();
    update();
}

bool TopologyMapView::filteredOut(NodeId id) const {
    return m_nodeFilter && (id >= m_nodeFilter->size() || (*m_nodeFilter)[id] == 0);
}

const std::vector<std::uint32_t>& TopologyMapView::filterMatches() const {
    if (m_filterCountedFor.lock() != m_snapshot) {
        m_filterMatches = m_snapshot && m_nodeFilter ? matchesPerDomain(m_snapshot->index, *m_nodeFilter)
                                                     : std::vector<std::uint32_t>();
        m_filterMatches.resize(m_snapshot ? m_snapshot->index.domainSlots() : 0, 0);
        m_filterCountedFor = m_snapshot;
    }
    return m_filterMatches;
}

QString TopologyMapView::filterCaption() const {
    if (!m_nodeFilter || !m_snapshot) return {};
    const QLocale locale;
    return tr("Filter: %1 of %2 nodes")
        .arg(locale.toString(qulonglong(filterMatches()[kRootDomain])),
             locale.toString(qlonglong(m_snapshot->index.root().totals.nodesTotal)));
}

void TopologyMapView::paintFilterVeil(QPainter& painter, DomainId id, const QRectF& exposedWorld) const {
    // A pass of its own over the finished map, at the level of detail paintDomain drew: collapsed
    // domains as one block, else each node.
    if (!m_nodeFilter) return;
    const QRectF world = m_layout.domainRect(id);
    if (!world.intersects(exposedWorld)) return;
    const TopologyIndex& index = m_snapshot->index;
    const Domain& domain = index.domain(id);
    if (m_layout.collapsedAt(id, m_scale)) {
        const bool labelled = id != kRootDomain && worldToScreen(m_layout.headerRect(id)).height() >= kMinLabelPixels;
        if (domain.totals.nodesTotal > 0)
            paintFilterDim(painter, worldToScreen(labelled ? m_layout.contentRect(id) : world),
                           1.0 - double(filterMatches()[id]) / double(domain.totals.nodesTotal));
        return;
    }
    for (DomainId child : domain.children)
        if (index.domain(child).alive) paintFilterVeil(painter, child, exposedWorld);
    for (NodeId node : domain.nodes)
        if (filteredOut(node) && m_layout.nodeRect(node).intersects(exposedWorld))
            paintFilterDim(painter, worldToScreen(m_layout.nodeRect(node)), 1.0);
}

void TopologyMapView::paintFilterDim(QPainter& painter, const QRectF& screen, double excluded) const {
    if (excluded <= 0) return;
    // What the filter leaves out shows at a quarter of its strength, as if seen through the map's
    // background; a collapsed domain fades by the share of its nodes left out.
    QColor veil = m_palette.background;
    veil.setAlphaF(float(0.75 * std::min(excluded, 1.0)));
    painter.fillRect(screen, veil);
}

void TopologyMapView::paintFilterCaption(QPainter& painter) const {
    const QString caption = filterCaption();
    if (caption.isEmpty()) return;
    painter.setFont(font());
    const QFontMetrics metrics(font());
    // Bottom right: the highlight's caption takes the bottom left, the top domains' names the top.
    const QSizeF size(metrics.horizontalAdvance(caption) + 12, metrics.height() + 4);
    const QRectF box(QPointF(width() - size.width() - 8, height() - size.height() - 10), size);
    painter.setPen(m_palette.domainBorder);
    painter.setBrush(m_palette.headerFill);
    painter.drawRect(box);
    painter.setPen(m_palette.text);
    painter.drawText(box, Qt::AlignCenter, caption);
}

// ---- interaction ---------------------------------------------------------------------------

QString TopologyMapView::toolTipFor(const TopologyMapLayout::Hit& hit) const {
    if (!m_snapshot || hit.domain == kNoDomain) return {};
    const TopologyIndex& index = m_snapshot->index;
    const QLocale locale;
    auto row = [](const QString& key, const QString& value) -> QString {
        return QStringLiteral("<tr><td style='padding-right:10px'>") % key % QStringLiteral("</td><td>") % value %
               QStringLiteral("</td></tr>");
    };
    auto gpuLine = [&](std::int64_t used, std::int64_t total, std::int64_t free, std::int64_t unavailable) -> QString {
        QString text =
            tr("%1 used of %2, %3 free").arg(locale.toString(used), locale.toString(total), locale.toString(free));
        if (unavailable > 0) text += tr(", %1 unavailable").arg(locale.toString(unavailable));
        return text;
    };

    if (hit.node != TopologyMapLayout::kNoNode) {
        const NodeStats& stats = index.node(hit.node);
        const Node* node = m_snapshot->node(hit.node);
        QString status = stats.ready ? tr("Ready") : tr("NotReady");
        if (node && node->unschedulable) status += tr(", cordoned");
        if (const QString slurm = slurmNodeState(node); !slurm.isEmpty()) status = slurm.toHtmlEscaped();
        const QString nvlink = stats.nvlinkDomain == kNoNvlinkDomain
                                   ? tr("none")
                                   : QString::fromStdString(index.nvlinkName(stats.nvlinkDomain)).toHtmlEscaped();
        const std::int64_t rest = stats.gpusTotal - stats.gpusUsed;
        const QString domains = node ? m_domainMarks.namesOfNode(node->name) : QString();
        return QStringLiteral("<b>") % (node ? QString::fromStdString(node->name).toHtmlEscaped() : QString()) %
               QStringLiteral("</b><br><span>") % QString::fromStdString(index.pathName(stats.leaf)).toHtmlEscaped() %
               QStringLiteral("</span><table>") %
               row(tr("GPUs"), gpuLine(stats.gpusUsed, stats.gpusTotal, stats.schedulable ? rest : 0,
                                       stats.schedulable ? 0 : rest)) %
               row(tr("Status"), status) % row(podsTerm(index.spec()), locale.toString(qulonglong(stats.pods))) %
               row(tr("NVLink domain"), nvlink) %
               (domains.isEmpty() ? QString() : row(tr("ComputeDomain"), domains.toHtmlEscaped())) %
               QStringLiteral("</table>");
    }

    const Domain& domain = index.domain(hit.domain);
    const DomainTotals& t = domain.totals;
    const QString title =
        hit.domain == kRootDomain ? tr("Cluster") : QString::fromStdString(index.pathName(hit.domain)).toHtmlEscaped();
    QString html =
        QStringLiteral("<b>") % title % QStringLiteral("</b> <i>") % levelName(index, domain) %
        QStringLiteral("</i><table>") %
        row(tr("GPUs"), gpuLine(t.gpusUsed, t.gpusTotal, t.gpusFree, t.gpusUnavailable)) %
        row(tr("Nodes"), tr("%1 of %2 ready").arg(locale.toString(t.nodesReady), locale.toString(t.nodesTotal))) %
        row(tr("Largest free block"), tr("%1 GPUs on one node").arg(domain.maxFreeGpusOnNode()));
    const auto outlines = m_layout.nvlinkOutlines(hit.domain);
    if (outlines.size() == 1)
        html += row(tr("NVLink domain"),
                    QString::fromStdString(index.nvlinkName(outlines.front().nvlinkDomain)).toHtmlEscaped());
    else if (outlines.size() > 1)
        html += row(tr("NVLink domains"), locale.toString(qulonglong(outlines.size())));
    return html % QStringLiteral("</table>");
}

bool TopologyMapView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        // A ComputeDomain badge names its domains; the latest drawn lies on top.
        for (auto it = m_badges.rbegin(); it != m_badges.rend(); ++it)
            if (it->first.contains(help->pos())) {
                QToolTip::showText(help->globalPos(), m_domainMarks.toolTip(it->second), this,
                                   it->first.toAlignedRect());
                return true;
            }
        const TopologyMapLayout::Hit hit = hitAt(help->pos());
        const QString text = toolTipFor(hit);
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this, worldToScreen(selectionWorldRect(hit)).toAlignedRect());
        }
        return true;
    }
    return QWidget::event(event);
}

void TopologyMapView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_fitMode) {
        rebuildLayout();
        zoomToFit();
    } else if (m_focusFitted) {
        zoomToDomain(m_focus); // the zoomed domain stays fitted as the window changes
    } else {
        const QSizeF delta = QSizeF(event->size() - event->oldSize()) / 2.0;
        if (event->oldSize().isValid()) m_offset += QPointF(delta.width(), delta.height());
    }
}

void TopologyMapView::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) return;
    zoomAround(event->position(), std::pow(kZoomStep, notches));
    event->accept();
}

void TopologyMapView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)
        return QWidget::mousePressEvent(event);
    m_pressed = true;
    m_dragging = event->button() == Qt::MiddleButton;
    m_pressPos = event->position().toPoint();
    m_pressOffset = m_offset;
    if (m_dragging) setCursor(Qt::ClosedHandCursor);
}

void TopologyMapView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_pressed) {
        if (!m_dragging && (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging) {
            m_fitMode = m_focusFitted = false;
            setScaleAndOffset(m_scale, m_pressOffset + QPointF(pos - m_pressPos));
            return;
        }
    }
    updateHit(hitAt(event->position()));
}

void TopologyMapView::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_pressed) return QWidget::mouseReleaseEvent(event);
    const bool wasDrag = m_dragging;
    m_pressed = m_dragging = false;
    setCursor(Qt::OpenHandCursor);
    if (wasDrag) updateFocusFromView();
    if (wasDrag || event->button() != Qt::LeftButton) return;

    const TopologyMapLayout::Hit hit = hitAt(event->position());
    if (hit.node != TopologyMapLayout::kNoNode) {
        m_selection = hit;
        update();
        Q_EMIT nodeSelected(hit.node);
    } else if (hit.domain != kNoDomain && hit.domain != kRootDomain) {
        m_selection = {hit.domain, TopologyMapLayout::kNoNode};
        update();
        Q_EMIT domainSelected(hit.domain);
    } else if (m_selection.domain != kNoDomain) {
        clearSelection();
        Q_EMIT selectionCleared();
    }
}

void TopologyMapView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mouseDoubleClickEvent(event);
    const TopologyMapLayout::Hit hit = hitAt(event->position());
    if (hit.domain == kNoDomain || hit.domain == kRootDomain)
        zoomToFit();
    else
        zoomToDomain(hit.domain);
}

void TopologyMapView::keyPressEvent(QKeyEvent* event) {
    const double step = 0.15;
    // Ctrl+arrows pan; plain arrows move the selection.
    auto pan = [this](QPointF by) {
        m_fitMode = m_focusFitted = false;
        setScaleAndOffset(m_scale, m_offset + by);
        updateFocusFromView();
    };
    const bool panning = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        zoomToFit();
        break;
    case Qt::Key_Left:
        panning ? pan(QPointF(width() * step, 0)) : moveSelection(-1, 0);
        break;
    case Qt::Key_Right:
        panning ? pan(QPointF(-width() * step, 0)) : moveSelection(1, 0);
        break;
    case Qt::Key_Up:
        panning ? pan(QPointF(0, height() * step)) : moveSelection(0, -1);
        break;
    case Qt::Key_Down:
        panning ? pan(QPointF(0, -height() * step)) : moveSelection(0, 1);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        zoomIntoSelection();
        break;
    case Qt::Key_Backspace:
        zoomOutOfFocus();
        break;
    case Qt::Key_Escape:
        if (m_selection.domain == kNoDomain) return QWidget::keyPressEvent(event);
        clearSelection();
        Q_EMIT selectionCleared();
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TopologyMapView::zoomIntoSelection() {
    if (!m_snapshot) return;
    const TopologyIndex& index = m_snapshot->index;
    if (m_selection.node != TopologyMapLayout::kNoNode) return zoomToDomain(m_selection.domain);
    const DomainId target = m_selection.domain == kNoDomain ? m_focus : m_selection.domain;
    if (target != kRootDomain) zoomToDomain(target);
    // Inside, the first child (or node) is selected, so the arrows go on within it.
    const Domain& domain = index.domain(target);
    for (DomainId child : domain.children)
        if (index.domain(child).alive) return selectHit({child, TopologyMapLayout::kNoNode});
    if (!domain.nodes.empty()) selectHit({target, domain.nodes.front()});
}

void TopologyMapView::moveSelection(int dx, int dy) {
    if (!m_snapshot || m_layout.isEmpty()) return;
    const TopologyIndex& index = m_snapshot->index;
    if (m_selection.domain == kNoDomain) {
        // Nothing selected yet: start inside the zoomed domain.
        const Domain& focus = index.domain(m_focus);
        for (DomainId child : focus.children)
            if (index.domain(child).alive) return selectHit({child, TopologyMapLayout::kNoNode});
        if (!focus.nodes.empty()) selectHit({m_focus, focus.nodes.front()});
        return;
    }
    const bool onNode = m_selection.node != TopologyMapLayout::kNoNode;
    const QPointF from = selectionWorldRect(m_selection).center();
    // Nearest sibling in the direction, staying in the same row or column where one is.
    TopologyMapLayout::Hit best;
    double bestScore = std::numeric_limits<double>::max();
    auto consider = [&](const TopologyMapLayout::Hit& candidate, const QRectF& rect) {
        const QPointF d = rect.center() - from;
        const double along = dx != 0 ? d.x() * dx : d.y() * dy;
        if (along <= 1e-6) return;
        const double across = std::abs(dx != 0 ? d.y() : d.x());
        const double score = along + 4 * across;
        if (score < bestScore) {
            bestScore = score;
            best = candidate;
        }
    };
    if (onNode) {
        for (NodeId node : index.domain(m_selection.domain).nodes) consider({m_selection.domain, node}, m_layout.nodeRect(node));
    } else {
        const DomainId parent = index.domain(m_selection.domain).parent;
        if (parent == kNoDomain) return;
        for (DomainId sibling : index.domain(parent).children)
            if (index.domain(sibling).alive) consider({sibling, TopologyMapLayout::kNoNode}, m_layout.domainRect(sibling));
    }
    if (best.domain != kNoDomain) selectHit(best);
}

void TopologyMapView::selectHit(const TopologyMapLayout::Hit& hit) {
    if (hit.domain == kNoDomain) return;
    m_selection = hit;
    centreOn(selectionWorldRect(hit));
    update();
    if (hit.node != TopologyMapLayout::kNoNode)
        Q_EMIT nodeSelected(hit.node);
    else
        Q_EMIT domainSelected(hit.domain);
}

void TopologyMapView::leaveEvent(QEvent* event) {
    updateHit({});
    QWidget::leaveEvent(event);
}

void TopologyMapView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        m_palette = OccupancyPalette::forPalette(palette());
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace topodeck
