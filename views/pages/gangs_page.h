#pragma once

#include "core/model/cluster_state.h"
#include "session/cluster_session.h"

#include <QString>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QTableView;

namespace topodeck {

class GangsModel;

// The running gangs and the network boundaries each crosses, as a table under a one-line
// explanation. While visible it asks the session for a new report when newer snapshots arrive,
// at most about once a second; selecting a gang says which nodes it runs on.
class GangsPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshDelayMs = 1000;

    explicit GangsPage(ClusterSession* session, QWidget* parent = nullptr);

    GangsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // Asks for a report now (the page also does when shown and as snapshots arrive).
    void refresh();
    // Selects the gang "namespace/name" (the palette's gangs); false when it is not listed.
    bool selectGang(const QString& qualifiedName);

Q_SIGNALS:
    void gangSelected(const QString& name, const std::vector<topodeck::NodeId>& nodes);
    // The gang selected, for its details; refreshOnly: the same gang again in a newer report.
    void gangDetails(const topodeck::GangsReportPtr& report, const QString& qualifiedName, bool refreshOnly);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void snapshotArrived(const ClusterSnapshotPtr& snapshot);
    void reportArrived(const GangsReportPtr& report, quint64 generation);
    void selectionChanged();
    void updateSummary();

    ClusterSession* m_session;
    GangsModel* m_model;
    QLabel* m_explanation;
    QLabel* m_summary;
    QTableView* m_table;
    QTimer m_refreshTimer;
    std::uint64_t m_shownGeneration = 0;
    std::uint64_t m_shownEpoch = 0;
    std::uint64_t m_latestGeneration = 0;
    std::uint64_t m_latestEpoch = 0;
    bool m_waiting = false; // a request is out
};

} // namespace topodeck
