#include "views/map/occupancy_palette.h"

#include <QPaintEngine>
#include <QPainter>
#include <QRectF>

namespace topodeck {

OccupancyPalette OccupancyPalette::forPalette(const QPalette& palette) {
    OccupancyPalette p;
    const QColor window = palette.color(QPalette::Window);
    p.dark = window.lightness() < 128;
    p.text = palette.color(QPalette::WindowText);
    if (p.dark) {
        p.used = QColor(0x4f, 0x94, 0xe8);
        p.free = QColor(0x4d, 0x9a, 0x6a);
        p.unavailable = QColor(0x5c, 0x5f, 0x66);
        p.hatch = QColor(0x9a, 0x9e, 0xa8);
        p.nvlink = QColor(0xf0, 0xa8, 0x20);
        p.computeDomain = QColor(0x7e, 0x57, 0xc2);
        p.computeDomainFlagged = QColor(0xc6, 0x28, 0x28);
        p.selection = QColor(0xff, 0x6e, 0xc7);
        p.hover = QColor(0xf2, 0xf2, 0xf2);
        p.background = QColor(0x1e, 0x20, 0x24);
        p.domainFill = QColor(0x2a, 0x2d, 0x33);
        p.domainBorder = QColor(0x4a, 0x4e, 0x57);
        p.headerFill = QColor(0x34, 0x38, 0x40);
        p.mutedText = QColor(0xa8, 0xad, 0xb6);
        p.nodeFill = QColor(0x3a, 0x3e, 0x46);
        p.nodeBorder = QColor(0x55, 0x5a, 0x64);
    } else {
        p.used = QColor(0x23, 0x64, 0xb0);
        p.free = QColor(0x97, 0xd3, 0xa6);
        p.unavailable = QColor(0xc4, 0xc6, 0xcb);
        p.hatch = QColor(0x6e, 0x72, 0x7a);
        p.nvlink = QColor(0xe0, 0x8a, 0x00);
        p.computeDomain = QColor(0x5e, 0x35, 0xb1);
        p.computeDomainFlagged = QColor(0xb7, 0x1c, 0x1c);
        p.selection = QColor(0xc0, 0x1f, 0x7e);
        p.hover = QColor(0x20, 0x22, 0x26);
        p.background = QColor(0xee, 0xf0, 0xf3);
        p.domainFill = QColor(0xff, 0xff, 0xff);
        p.domainBorder = QColor(0xb4, 0xb9, 0xc2);
        p.headerFill = QColor(0xe4, 0xe8, 0xee);
        p.mutedText = QColor(0x5f, 0x66, 0x70);
        p.nodeFill = QColor(0xf4, 0xf5, 0xf7);
        p.nodeBorder = QColor(0xa8, 0xae, 0xb8);
    }
    return p;
}

void OccupancyPalette::fillUnavailable(QPainter* painter, const QRectF& rect) const {
    painter->fillRect(rect, unavailable);
    if (rect.width() < 3 || rect.height() < 3) return;
    // SVG has no device pattern brushes (viewers show nothing, or an unresolved fill): flat there.
    if (painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::SVG) return;
    QBrush lines(hatch, Qt::BDiagPattern);
    painter->save();
    // Pattern brushes are aligned to the device, so hatching stays crisp at any zoom.
    painter->setBrushOrigin(0, 0);
    painter->fillRect(rect, lines);
    painter->restore();
}

} // namespace topodeck
