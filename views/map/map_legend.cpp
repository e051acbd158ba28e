#include "views/map/map_legend.h"

#include "views/map/occupancy_palette.h"

#include <QEvent>
#include <QLinearGradient>
#include <QPainter>

namespace topodeck {

namespace {
constexpr int kSpacing = 18;
constexpr int kTextGap = 6;
constexpr int kMargin = 8;
} // namespace

MapLegend::MapLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAccessibleName(tr("Map legend"));
    setToolTip(tr("Unavailable: GPUs on nodes that are NotReady or cordoned.\n"
                  "Share used: zoomed out, a domain too small to show its nodes takes one colour "
                  "between free and used.\n"
                  "ComputeDomain: an NVIDIA ComputeDomain has nodes in this NVLink domain; ⚠ (red) when its "
                  "nodes sit in more than one NVLink clique, where IMEX shares GPU memory only inside each.\n"
                  "Wheel or +/- to zoom, drag to pan, double-click to zoom into a domain, 0 to fit."));
}

void MapLegend::setComputeDomainsShown(bool shown) {
    if (shown == m_computeDomains) return;
    m_computeDomains = shown;
    updateGeometry();
    update();
}

QList<MapLegend::Entry> MapLegend::entries() const {
    QList<Entry> list = {
        {Swatch::Used, tr("Used")},
        {Swatch::Free, tr("Free")},
        {Swatch::Unavailable, tr("Unavailable")},
        {Swatch::Mix, tr("Share used")},
        {Swatch::Nvlink, tr("NVLink domain")},
    };
    if (m_computeDomains) list.push_back({Swatch::ComputeDomain, tr("ComputeDomain")});
    list.push_back({Swatch::Selection, tr("Selected")});
    return list;
}

int MapLegend::swatchSize() const {
    return fontMetrics().height() - 4;
}

int MapLegend::swatchWidth(Swatch swatch) const {
    return swatch == Swatch::Mix ? 3 * swatchSize() : swatchSize();
}

QSize MapLegend::sizeHint() const {
    int width = 2 * kMargin;
    for (const Entry& e : entries())
        width += swatchWidth(e.swatch) + kTextGap + fontMetrics().horizontalAdvance(e.text) + kSpacing;
    return QSize(width, fontMetrics().height() + 10);
}

QSize MapLegend::minimumSizeHint() const {
    return QSize(100, fontMetrics().height() + 10);
}

void MapLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const OccupancyPalette palette = OccupancyPalette::forPalette(this->palette());
    painter.fillRect(rect(), this->palette().color(QPalette::Window));
    const int s = swatchSize();
    int x = kMargin;
    const int y = (height() - s) / 2;
    for (const Entry& e : entries()) {
        const int textWidth = fontMetrics().horizontalAdvance(e.text);
        const int w = swatchWidth(e.swatch);
        if (x + w + kTextGap + textWidth > width() - kMargin) break; // never paint a clipped entry
        const QRectF swatch(x + 0.5, y + 0.5, w - 1, s - 1);
        switch (e.swatch) {
        case Swatch::Used:
            painter.fillRect(swatch, palette.used);
            break;
        case Swatch::Free:
            painter.fillRect(swatch, palette.free);
            break;
        case Swatch::Unavailable:
            palette.fillUnavailable(&painter, swatch);
            break;
        case Swatch::Mix: {
            // Far out, a domain is one colour between free and used: the gradient shows the scale.
            QLinearGradient gradient(swatch.topLeft(), swatch.topRight());
            gradient.setColorAt(0, palette.free);
            gradient.setColorAt(1, palette.used);
            painter.fillRect(swatch, gradient);
            break;
        }
        case Swatch::Nvlink:
            painter.setPen(QPen(palette.nvlink, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(swatch.adjusted(1, 1, -1, -1));
            break;
        case Swatch::ComputeDomain:
            painter.fillRect(swatch, palette.computeDomain);
            break;
        case Swatch::Selection:
            painter.setPen(QPen(palette.selection, 2.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(swatch.adjusted(1, 1, -1, -1));
            break;
        }
        x += w + kTextGap;
        painter.setPen(this->palette().color(QPalette::WindowText));
        painter.drawText(QRect(x, 0, textWidth + 1, height()), Qt::AlignLeft | Qt::AlignVCenter, e.text);
        x += textWidth + kSpacing;
    }
}

void MapLegend::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace topodeck
