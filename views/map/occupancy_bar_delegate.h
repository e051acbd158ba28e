#pragma once

#include <QStyledItemDelegate>

namespace topodeck {

struct OccupancyPalette;

// Paints a GPU occupancy bar (used / free / unavailable) followed by "used/total" in any item view
// whose items carry TopologyTreeModel's GPU roles (GpusTotalRole, GpusUsedRole, GpusFreeRole,
// GpusUnavailableRole). The text of every row in one top-level subtree gets the same width, so
// the bars line up.
class OccupancyBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit OccupancyBarDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The bar alone, in rect (device pixels); shared with the details panel.
    static void paintBar(QPainter* painter, const QRectF& rect, qint64 used, qint64 free, qint64 unavailable,
                         const OccupancyPalette& palette);
    static QString usedOfTotalText(qint64 used, qint64 total);
};

} // namespace topodeck
