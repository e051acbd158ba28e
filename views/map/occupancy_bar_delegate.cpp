#include "views/map/occupancy_bar_delegate.h"

#include "models/topology_tree_model.h"
#include "views/map/occupancy_palette.h"

#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace topodeck {

namespace {

constexpr int kMargin = 4;
constexpr int kGap = 6;
constexpr int kMinBarWidth = 24;
constexpr int kPreferredBarWidth = 96;

qint64 roleValue(const QModelIndex& index, int role) {
    return index.data(role).toLongLong();
}

// The widest "used/total" text in the subtree: the top-level ancestor has the largest total.
QString widestText(const QModelIndex& index) {
    QModelIndex top = index;
    while (top.parent().isValid()) top = top.parent();
    const qint64 total =
        std::max(roleValue(top, TopologyTreeModel::GpusTotalRole), roleValue(index, TopologyTreeModel::GpusTotalRole));
    return OccupancyBarDelegate::usedOfTotalText(total, total);
}

} // namespace

OccupancyBarDelegate::OccupancyBarDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QString OccupancyBarDelegate::usedOfTotalText(qint64 used, qint64 total) {
    const QLocale locale;
    return locale.toString(used) % QLatin1Char('/') % locale.toString(total);
}

void OccupancyBarDelegate::paintBar(QPainter* painter, const QRectF& rect, qint64 used, qint64 free, qint64 unavailable,
                                    const OccupancyPalette& palette) {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPainterPath clip;
    clip.addRoundedRect(rect, 2.5, 2.5);
    painter->setClipPath(clip);
    const qint64 total = used + free + unavailable;
    if (total <= 0) {
        painter->fillRect(rect, palette.nodeFill);
    } else {
        const double w = rect.width();
        const double usedW = w * double(used) / double(total);
        const double freeW = w * double(free) / double(total);
        const QRectF usedRect(rect.left(), rect.top(), usedW, rect.height());
        const QRectF freeRect(usedRect.right(), rect.top(), freeW, rect.height());
        const QRectF unavailableRect(freeRect.right(), rect.top(), rect.right() - freeRect.right(), rect.height());
        painter->fillRect(usedRect, palette.used);
        painter->fillRect(freeRect, palette.free);
        if (unavailable > 0) palette.fillUnavailable(painter, unavailableRect);
    }
    painter->setClipping(false);
    painter->setPen(QPen(palette.domainBorder, 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 2.5, 2.5);
    painter->restore();
}

void OccupancyBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const qint64 total = roleValue(index, TopologyTreeModel::GpusTotalRole);
    const qint64 used = roleValue(index, TopologyTreeModel::GpusUsedRole);
    const qint64 free = roleValue(index, TopologyTreeModel::GpusFreeRole);
    const qint64 unavailable = roleValue(index, TopologyTreeModel::GpusUnavailableRole);

    const QRect area = option.rect.adjusted(kMargin, 0, -kMargin, 0);
    const QFontMetrics& fm = option.fontMetrics;
    const int barHeight = std::min(area.height() - 8, std::max(8, fm.height() - 4));
    auto drawBar = [&](int width) {
        const QRectF bar(area.left(), area.top() + (area.height() - barHeight) / 2.0, width, barHeight);
        paintBar(painter, bar, used, free, unavailable, OccupancyPalette::forPalette(option.palette));
    };
    const int textWidth = fm.horizontalAdvance(widestText(index));
    // Too narrow for the figures (a squeezed details pane): the bar alone, never digits cut off
    // or drawn over the next column; the figures are in the tooltip.
    if (textWidth + kGap + kMinBarWidth > area.width()) {
        if (area.width() >= kMinBarWidth) drawBar(area.width());
        return;
    }
    const QRect textRect(area.right() - textWidth + 1, area.top(), textWidth, area.height());
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = (option.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    painter->save();
    painter->setPen(option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    painter->setFont(option.font);
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, usedOfTotalText(used, total));
    painter->restore();
    drawBar(area.width() - textWidth - kGap);
}

QSize OccupancyBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    const int width = 2 * kMargin + kPreferredBarWidth + kGap + option.fontMetrics.horizontalAdvance(widestText(index));
    return QSize(width, std::max(base.height(), option.fontMetrics.height() + 6));
}

} // namespace topodeck
