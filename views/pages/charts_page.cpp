#include "views/pages/charts_page.h"

#include "models/level_capacity_model.h"
#include "models/occupancy_history_model.h"
#include "views/chrome/theme.h"
#include "views/map/occupancy_palette.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QHorizontalPercentBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace topodeck {

namespace {

constexpr int kDefaultSampleMs = 10'000;
constexpr int kDefaultRedrawMs = 1'000;
// More points than a chart is pixels wide only costs time: a day is averaged down to this many.
constexpr std::size_t kMaxPoints = 1440;

// Okabe–Ito colours, told apart with the common colour-vision deficiencies, for the levels in the
// slots chart.
const QColor kLevelColors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                               QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                               QColor(0xf0, 0xe4, 0x42)};

QChartView* makeView(QChart* chart, QWidget* parent) {
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 180);
    return view;
}

double percent(std::uint32_t part, std::uint32_t total) { return total > 0 ? 100.0 * part / total : 0.0; }

} // namespace

ChartsPage::ChartsPage(QWidget* parent)
    : QWidget(parent), m_history(new OccupancyHistoryModel(this)), m_capacity(new LevelCapacityModel(this)) {
    setAccessibleName(tr("Occupancy charts"));
    m_history->setIntervalMs(kDefaultSampleMs);
    buildHistoryChart();
    buildFragmentationChart();
    buildSlotsChart();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_historyView, 3);
    auto* bars = new QHBoxLayout;
    bars->setSpacing(0);
    bars->addWidget(m_fragmentationView, 1);
    bars->addWidget(m_slotsView, 1);
    layout->addLayout(bars, 2);

    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(kDefaultRedrawMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, [this] {
        if (m_pending) redraw();
    });
    m_sampleTimer.setInterval(kDefaultSampleMs / 2);
    connect(&m_sampleTimer, &QTimer::timeout, this, [this] {
        if (!m_latest) return;
        m_history->addSnapshot(m_latest, QDateTime::currentMSecsSinceEpoch());
        scheduleRedraw();
    });
    connect(m_capacity, &QAbstractItemModel::modelReset, this, [this] { m_barSetsStale = true; });
    applyTheme();
}

ChartsPage::~ChartsPage() = default;

void ChartsPage::setSampleInterval(int ms) {
    ms = std::max(ms, 10);
    m_history->setIntervalMs(ms);
    // Twice per interval, so that no interval goes without a point when snapshots stop.
    m_sampleTimer.setInterval(std::max(ms / 2, 5));
}

int ChartsPage::sampleInterval() const { return int(m_history->intervalMs()); }

void ChartsPage::buildHistoryChart() {
    m_historyChart = new QChart;
    m_historyChart->setTitle(tr("GPUs in use over time"));
    m_historyChart->setMargins(QMargins(4, 4, 4, 4));
    m_clusterUsed = new QLineSeries(this);
    m_clusterArea = new QAreaSeries(m_clusterUsed);
    m_clusterArea->setName(tr("Cluster: in use"));
    m_clusterUnavailable = new QLineSeries;
    m_clusterUnavailable->setName(tr("Cluster: unavailable"));
    m_selectedUsed = new QLineSeries;
    m_selectedUsed->setVisible(false);
    m_historyChart->addSeries(m_clusterArea);
    m_historyChart->addSeries(m_clusterUnavailable);
    m_historyChart->addSeries(m_selectedUsed);

    m_timeAxis = new QDateTimeAxis;
    m_timeAxis->setTickCount(6);
    m_timeAxis->setFormat(QStringLiteral("HH:mm"));
    m_percentAxis = new QValueAxis;
    m_percentAxis->setRange(0, 100);
    m_percentAxis->setTickCount(6);
    m_percentAxis->setLabelFormat(QStringLiteral("%d%%"));
    m_percentAxis->setTitleText(tr("share of GPUs"));
    m_historyChart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_historyChart->addAxis(m_percentAxis, Qt::AlignLeft);
    for (QAbstractSeries* series : m_historyChart->series()) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_percentAxis);
    }
    m_historyChart->legend()->setAlignment(Qt::AlignBottom);
    m_historyView = makeView(m_historyChart, this);
    m_historyView->setAccessibleName(tr("GPUs in use over time"));
}

void ChartsPage::buildFragmentationChart() {
    m_fragmentationChart = new QChart;
    m_fragmentationChart->setTitle(tr("Where the free GPUs are"));
    m_fragmentationChart->setMargins(QMargins(4, 4, 4, 4));
    m_fragmentation = new QHorizontalPercentBarSeries;
    m_freeWhole = new QBarSet(tr("in unused domains"));
    m_freeScattered = new QBarSet(tr("in partly used domains"));
    m_fragmentation->append(m_freeWhole);
    m_fragmentation->append(m_freeScattered);
    m_fragmentationChart->addSeries(m_fragmentation);
    m_fragmentationLevels = new QBarCategoryAxis;
    m_fragmentationAxis = new QValueAxis;
    m_fragmentationAxis->setLabelFormat(QStringLiteral("%d%%"));
    m_fragmentationAxis->setTickCount(5);
    m_fragmentationChart->addAxis(m_fragmentationLevels, Qt::AlignLeft);
    m_fragmentationChart->addAxis(m_fragmentationAxis, Qt::AlignBottom);
    m_fragmentation->attachAxis(m_fragmentationLevels);
    m_fragmentation->attachAxis(m_fragmentationAxis);
    m_fragmentationChart->legend()->setAlignment(Qt::AlignBottom);
    connect(m_fragmentation, &QHorizontalPercentBarSeries::hovered, this, [this](bool on, int index, QBarSet*) {
        // Categories run bottom-up; rows top-down.
        const int row = m_capacity->rowCount() - 1 - index;
        if (!on || row < 0 || row >= m_capacity->rowCount()) return QToolTip::hideText();
        const LevelCapacity& level = m_capacity->rows()[std::size_t(row)];
        const QLocale locale;
        QToolTip::showText(QCursor::pos(),
                           tr("%1: %2 of %3 free GPUs in unused domains, %4 in partly used ones (%5 domains)")
                               .arg(m_capacity->levelName(row), locale.toString(qint64(level.gpusFreeWhole)),
                                    locale.toString(qint64(level.gpusFree)),
                                    locale.toString(qint64(level.gpusFreeScattered())),
                                    locale.toString(qint64(level.domains))),
                           m_fragmentationView);
    });
    m_fragmentationView = makeView(m_fragmentationChart, this);
    m_fragmentationView->setAccessibleName(tr("Fragmentation per level"));
}

void ChartsPage::buildSlotsChart() {
    m_slotsChart = new QChart;
    m_slotsChart->setTitle(tr("Gangs that fit now, inside one domain"));
    m_slotsChart->setMargins(QMargins(4, 4, 4, 4));
    m_slots = new QBarSeries;
    m_slotsChart->addSeries(m_slots);
    m_slotSizes = new QBarCategoryAxis;
    for (std::int64_t size : kSlotGangSizes) m_slotSizes->append(QLocale().toString(qint64(size)));
    m_slotSizes->setTitleText(tr("gang size (GPUs)"));
    m_slotsAxis = new QLogValueAxis;
    m_slotsAxis->setBase(10);
    m_slotsAxis->setLabelFormat(QStringLiteral("%g"));
    m_slotsAxis->setRange(0.8, 10);
    m_slotsChart->addAxis(m_slotSizes, Qt::AlignBottom);
    m_slotsChart->addAxis(m_slotsAxis, Qt::AlignLeft);
    m_slots->attachAxis(m_slotSizes);
    m_slots->attachAxis(m_slotsAxis);
    m_slotsChart->legend()->setAlignment(Qt::AlignBottom);
    connect(m_slots, &QBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
        if (!on || !set) return QToolTip::hideText();
        const qsizetype level = m_slots->barSets().indexOf(set);
        if (level < 0 || level >= m_capacity->rowCount() || index < 0 || std::size_t(index) >= kSlotGangSizes.size())
            return QToolTip::hideText();
        const LevelCapacity& row = m_capacity->rows()[std::size_t(level)];
        QToolTip::showText(QCursor::pos(),
                           tr("%1 gangs of %2 GPUs fit, each inside one %3")
                               .arg(QLocale().toString(qint64(row.gangs[std::size_t(index)])),
                                    QLocale().toString(qint64(kSlotGangSizes[std::size_t(index)])),
                                    m_capacity->levelName(int(level))),
                           m_slotsView);
    });
    m_slotsView = makeView(m_slotsChart, this);
    m_slotsView->setAccessibleName(tr("Gang slots by size"));
}

void ChartsPage::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    if (!snapshot) return;
    m_latest = snapshot;
    m_history->addSnapshot(snapshot, QDateTime::currentMSecsSinceEpoch());
    m_capacityStale = true;
    if (!m_sampleTimer.isActive()) m_sampleTimer.start();
    scheduleRedraw();
}

void ChartsPage::setSelectedDomain(DomainId id) {
    m_history->setSelectedDomain(id);
    scheduleRedraw();
}

void ChartsPage::scheduleRedraw() {
    // The first change redraws at once; the ones after it wait for the interval to end.
    if (m_redrawTimer.isActive()) {
        m_pending = true;
        return;
    }
    redraw();
}

void ChartsPage::redraw() {
    if (!isVisible()) {
        // Hidden (a closed dock): keep the history, draw when shown.
        m_pending = true;
        return;
    }
    m_pending = false;
    m_redrawTimer.start();
    redrawHistory();
    if (m_capacityStale) redrawCapacity();
    ++m_redraws;
    Q_EMIT redrawn();
}

void ChartsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_pending || m_redraws == 0) {
        m_redrawTimer.stop();
        redraw();
    }
}

void ChartsPage::redrawHistory() {
    const OccupancyHistory& history = m_history->history();
    const OccupancyHistory::Series* cluster = history.cluster();
    const OccupancyHistory::Series* selected = m_history->selectedSeries();
    const std::size_t n = history.size();
    const std::size_t bucket = std::max<std::size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
    QList<QPointF> used, unavailable, chosen;
    used.reserve(qsizetype(n / bucket + 1));
    unavailable.reserve(used.capacity());
    if (selected) chosen.reserve(used.capacity());
    for (std::size_t start = 0; cluster && start < n; start += bucket) {
        const std::size_t end = std::min(n, start + bucket);
        double u = 0, na = 0, s = 0;
        int present = 0, selectedPresent = 0;
        for (std::size_t i = start; i < end; ++i) {
            const OccupancySample c = history.at(*cluster, i);
            if (c.present()) {
                u += percent(c.used, c.total);
                na += percent(c.unavailable, c.total);
                ++present;
            }
            if (selected) {
                const OccupancySample d = history.at(*selected, i);
                if (d.present()) {
                    s += percent(d.used, d.total);
                    ++selectedPresent;
                }
            }
        }
        const auto x = qreal(history.timeAt(end - 1));
        if (present > 0) {
            used.append(QPointF(x, u / present));
            unavailable.append(QPointF(x, na / present));
        }
        if (selectedPresent > 0) chosen.append(QPointF(x, s / selectedPresent));
    }
    m_clusterUsed->replace(used);
    m_clusterUnavailable->replace(unavailable);
    m_selectedUsed->replace(chosen);
    const bool showSelected = selected != nullptr;
    if (showSelected) m_selectedUsed->setName(tr("%1: in use").arg(m_history->selectedPath()));
    if (m_selectedUsed->isVisible() != showSelected) m_selectedUsed->setVisible(showSelected);

    if (n == 0) return;
    const qint64 last = history.timeAt(n - 1);
    const qint64 first = std::min<qint64>(history.timeAt(0), last - m_history->intervalMs());
    m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(first), QDateTime::fromMSecsSinceEpoch(last));
    m_timeAxis->setFormat(last - first <= 15 * 60 * 1000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
}

void ChartsPage::redrawCapacity() {
    m_capacityStale = false;
    m_capacity->setSnapshot(m_latest);
    if (m_barSetsStale) rebuildBarSets();
    const std::vector<LevelCapacity>& rows = m_capacity->rows();
    const auto count = qsizetype(rows.size());
    const qint64 free = rows.empty() ? 0 : rows.front().gpusFree;
    m_fragmentationChart->setTitle(tr("Where the %Ln free GPU(s) are", nullptr, int(std::min<qint64>(free, INT_MAX))));
    // Percent bars: top level at the top, so the categories run bottom-up.
    for (qsizetype i = 0; i < count; ++i) {
        const LevelCapacity& level = rows[std::size_t(count - 1 - i)];
        m_freeWhole->replace(i, qreal(level.gpusFreeWhole));
        m_freeScattered->replace(i, qreal(level.gpusFreeScattered()));
    }
    std::int64_t most = 1;
    for (qsizetype l = 0; l < count && std::size_t(l) < m_slotSets.size(); ++l) {
        const LevelCapacity& level = rows[std::size_t(l)];
        for (std::size_t s = 0; s < level.gangs.size(); ++s) {
            // On the log axis, none is drawn as nothing rather than as minus infinity.
            m_slotSets[std::size_t(l)]->replace(qsizetype(s), level.gangs[s] > 0 ? qreal(level.gangs[s]) : 0.8);
            most = std::max(most, level.gangs[s]);
        }
    }
    m_slotsAxis->setRange(0.8, std::pow(10.0, std::ceil(std::log10(double(most) * 1.5))));
}

void ChartsPage::rebuildBarSets() {
    m_barSetsStale = false;
    const std::vector<LevelCapacity>& rows = m_capacity->rows();
    const auto count = qsizetype(rows.size());
    QStringList levels;
    for (qsizetype i = count - 1; i >= 0; --i) levels << m_capacity->levelName(int(i));
    m_fragmentationLevels->clear();
    m_fragmentationLevels->append(levels);
    QList<qreal> zeros(count, 0.0);
    m_freeWhole->remove(0, m_freeWhole->count());
    m_freeWhole->append(zeros);
    m_freeScattered->remove(0, m_freeScattered->count());
    m_freeScattered->append(zeros);

    m_slots->clear(); // deletes the sets
    m_slotSets.clear();
    for (qsizetype i = 0; i < count; ++i) {
        auto* set = new QBarSet(m_capacity->levelName(int(i)));
        set->append(QList<qreal>(qsizetype(kSlotGangSizes.size()), 0.8));
        m_slotSets.push_back(set);
        m_slots->append(set);
    }
    applyTheme();
}

void ChartsPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) applyTheme();
    QWidget::changeEvent(event);
}

void ChartsPage::applyTheme() {
    const QPalette pal = palette();
    const OccupancyPalette colors = OccupancyPalette::forPalette(pal);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    const QColor background = pal.color(QPalette::Window);
    QFont titleFont = font();
    titleFont.setBold(true);
    for (QChart* chart : {m_historyChart, m_fragmentationChart, m_slotsChart}) {
        chart->setTheme(Theme::chartTheme(pal)); // resets the colours below
        chart->setBackgroundBrush(background);
        chart->setBackgroundRoundness(0);
        chart->setTitleBrush(text);
        chart->setTitleFont(titleFont);
        chart->legend()->setLabelColor(text);
        chart->legend()->setFont(font());
        for (QAbstractAxis* axis : chart->axes()) {
            axis->setLabelsBrush(text);
            axis->setLabelsFont(font());
            axis->setTitleBrush(text);
            axis->setTitleFont(font());
            axis->setGridLineColor(colors.dark ? grid.lighter(160) : grid.lighter(130));
            axis->setLinePenColor(grid);
        }
    }
    QColor area = colors.used;
    area.setAlpha(110);
    m_clusterArea->setBrush(area);
    m_clusterArea->setPen(QPen(colors.used, 2));
    m_clusterUnavailable->setPen(QPen(colors.hatch, 2, Qt::DashLine));
    m_selectedUsed->setPen(QPen(colors.selection, 2));
    m_freeWhole->setColor(colors.free);
    m_freeWhole->setBorderColor(colors.free);
    m_freeScattered->setColor(colors.nvlink);
    m_freeScattered->setBorderColor(colors.nvlink);
    for (std::size_t i = 0; i < m_slotSets.size(); ++i) {
        const QColor color = kLevelColors[i % std::size(kLevelColors)];
        m_slotSets[i]->setColor(color);
        m_slotSets[i]->setBorderColor(color);
    }
}

} // namespace topodeck
