#pragma once

#include <QColor>
#include <QPalette>

class QPainter;
class QRectF;

namespace topodeck {

// The colours every occupancy picture shares (tree bars, map, legend, details), so that "used"
// means the same blue everywhere. Chosen to stay distinct for colour-blind people: used and free
// differ in hue *and* lightness, unavailable is grey and hatched, never a red/green pair.
struct OccupancyPalette {
    bool dark = false;
    QColor used;
    QColor free;
    QColor unavailable;
    QColor hatch;  // lines over unavailable capacity
    QColor nvlink; // outline of an NVLink domain
    QColor computeDomain;        // badge of a ComputeDomain on an NVLink domain
    QColor computeDomainFlagged; // the same when one there spans more than one NVLink clique
    QColor selection;
    QColor hover;
    QColor background; // behind the map
    QColor domainFill;
    QColor domainBorder;
    QColor headerFill;
    QColor text;
    QColor mutedText;
    QColor nodeFill;
    QColor nodeBorder;

    static OccupancyPalette forPalette(const QPalette& palette);

    // Fills rect with the unavailable colour and diagonal hatching, in device pixels.
    void fillUnavailable(QPainter* painter, const QRectF& rect) const;
};

} // namespace topodeck
