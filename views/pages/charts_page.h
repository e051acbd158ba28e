#pragma once

#include "core/topology/topology_index.h"
#include "session/cluster_snapshot.h"

#include <QTimer>
#include <QWidget>

#include <vector>

class QAbstractAxis;
class QAreaSeries;
class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QDateTimeAxis;
class QHorizontalPercentBarSeries;
class QBarSeries;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace topodeck {

class LevelCapacityModel;
class OccupancyHistoryModel;

// Occupancy over time and capacity now: the cluster's and the selected domain's GPU use over the
// last day (area and line on a time axis), how fragmented the free GPUs are at each level (the
// share in partly used domains), and how many gangs of 8 to 128 GPUs fit at each level. Snapshots
// feed a history at one point per sample interval (10 s; shorter for a fast demo simulator); the
// charts redraw at most once per redraw interval, replacing each series' points in bulk.
class ChartsPage : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPage(QWidget* parent = nullptr);
    ~ChartsPage() override;

    void setSampleInterval(int ms);
    int sampleInterval() const;
    void setRedrawInterval(int ms) { m_redrawTimer.setInterval(ms); }

    OccupancyHistoryModel* historyModel() const { return m_history; }
    LevelCapacityModel* capacityModel() const { return m_capacity; }
    QChart* historyChart() const { return m_historyChart; }
    QChart* fragmentationChart() const { return m_fragmentationChart; }
    QChart* slotsChart() const { return m_slotsChart; }
    QLineSeries* clusterUsedSeries() const { return m_clusterUsed; }
    QLineSeries* clusterUnavailableSeries() const { return m_clusterUnavailable; }
    QLineSeries* selectedUsedSeries() const { return m_selectedUsed; }
    int redraws() const { return m_redraws; }

public Q_SLOTS:
    void setSnapshot(const topodeck::ClusterSnapshotPtr& snapshot);
    // The domain of the latest snapshot whose history to draw beside the cluster's; kRootDomain or
    // kNoDomain for none.
    void setSelectedDomain(topodeck::DomainId id);

Q_SIGNALS:
    void redrawn();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildHistoryChart();
    void buildFragmentationChart();
    void buildSlotsChart();
    void scheduleRedraw();
    void redraw();
    void redrawHistory();
    void redrawCapacity();
    void rebuildBarSets();
    void applyTheme();

    OccupancyHistoryModel* m_history = nullptr;
    LevelCapacityModel* m_capacity = nullptr;
    ClusterSnapshotPtr m_latest;
    bool m_capacityStale = true;
    bool m_barSetsStale = true;
    bool m_pending = false; // a change came in while the redraw interval ran, or while hidden
    QTimer m_redrawTimer; // single shot: the next redraw, at most one per interval
    QTimer m_sampleTimer; // records the latest snapshot again, so an idle cluster still draws a line
    int m_redraws = 0;

    QChartView* m_historyView = nullptr;
    QChart* m_historyChart = nullptr;
    QDateTimeAxis* m_timeAxis = nullptr;
    QValueAxis* m_percentAxis = nullptr;
    QLineSeries* m_clusterUsed = nullptr;
    QLineSeries* m_clusterBaseline = nullptr;
    QAreaSeries* m_clusterArea = nullptr;
    QLineSeries* m_clusterUnavailable = nullptr;
    QLineSeries* m_selectedUsed = nullptr;

    QChartView* m_fragmentationView = nullptr;
    QChart* m_fragmentationChart = nullptr;
    QHorizontalPercentBarSeries* m_fragmentation = nullptr;
    QBarSet* m_freeWhole = nullptr;
    QBarSet* m_freeScattered = nullptr;
    QBarCategoryAxis* m_fragmentationLevels = nullptr;
    QValueAxis* m_fragmentationAxis = nullptr;

    QChartView* m_slotsView = nullptr;
    QChart* m_slotsChart = nullptr;
    QBarSeries* m_slots = nullptr;
    std::vector<QBarSet*> m_slotSets; // one per level
    QBarCategoryAxis* m_slotSizes = nullptr;
    QLogValueAxis* m_slotsAxis = nullptr;
};

} // namespace topodeck
