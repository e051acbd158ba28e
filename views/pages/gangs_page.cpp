#include "views/pages/gangs_page.h"

#include "models/gangs_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

namespace topodeck {

GangsPage::GangsPage(ClusterSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_model(new GangsModel(this)), m_explanation(new QLabel(this)),
      m_summary(new QLabel(this)), m_table(new QTableView(this)) {
    m_explanation->setText(tr("Per level: domains a running gang's pods are in / the fewest that could hold it by "
                              "capacity. Bold: more than it needs."));
    m_explanation->setWordWrap(true);
    m_summary->setText(tr("Waiting for the cluster…"));

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(GangsModel::NameColumn, QHeaderView::Stretch);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_explanation);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshDelayMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &GangsPage::refresh);
    connect(m_session, &ClusterSession::snapshotPublished, this, &GangsPage::snapshotArrived);
    connect(m_session, &ClusterSession::gangsReportReady, this, &GangsPage::reportArrived);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &GangsPage::selectionChanged);
    if (const ClusterSnapshotPtr latest = m_session->latestSnapshot()) {
        m_latestGeneration = latest->generation;
        m_latestEpoch = latest->sourceEpoch;
    }
}

void GangsPage::refresh() {
    m_refreshTimer.stop();
    m_waiting = true;
    m_session->requestGangsReport();
}

void GangsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_model->report() || m_latestGeneration != m_shownGeneration || m_latestEpoch != m_shownEpoch) refresh();
}

void GangsPage::snapshotArrived(const ClusterSnapshotPtr& snapshot) {
    m_latestGeneration = snapshot->generation;
    m_latestEpoch = snapshot->sourceEpoch;
    if (!isVisible()) return; // asked again when shown
    // Another cluster is shown at once; the same one's newer data at most once a second, since a
    // report reads every pod.
    if (m_latestEpoch != m_shownEpoch || !m_model->report()) {
        refresh();
    } else if (!m_refreshTimer.isActive() && !m_waiting) {
        m_refreshTimer.start();
    }
}

void GangsPage::reportArrived(const GangsReportPtr& report, quint64 generation) {
    m_waiting = false;
    // Keep the selected gang selected across refreshes.
    QString selected;
    if (const QModelIndexList rows = m_table->selectionModel()->selectedRows(); !rows.isEmpty())
        selected = rows.front().data(GangsModel::QualifiedNameRole).toString();
    m_model->setReport(report);
    m_shownGeneration = generation;
    m_shownEpoch = m_latestEpoch;
    if (!selected.isEmpty())
        if (const int row = m_model->rowOf(selected); row >= 0) {
            {
                const QSignalBlocker block(m_table->selectionModel());
                m_table->selectRow(row);
            }
            Q_EMIT gangDetails(report, selected, true);
        }
    updateSummary();
    // Snapshots that came while this one was computed.
    if (isVisible() && m_latestGeneration != generation && !m_refreshTimer.isActive()) m_refreshTimer.start();
}

void GangsPage::updateSummary() {
    const GangsReportPtr& report = m_model->report();
    if (!report) return;
    if (report->gangs.empty()) {
        m_summary->setText(tr("No running gang holds GPUs."));
        return;
    }
    const QLocale locale;
    QString summary = tr("%1 running gangs with GPUs; %2 in more domains than they need")
                          .arg(locale.toString(static_cast<qulonglong>(report->gangs.size())),
                               locale.toString(static_cast<qulonglong>(report->spreadCount())));
    // On a cluster with ComputeDomains: how many gangs the ComputeDomain column marks, and why.
    if (!report->computeDomains.empty())
        summary += tr("; %1 with their ComputeDomain flagged (⚠: across NVLink cliques, or pods outside them)")
                       .arg(locale.toString(static_cast<qulonglong>(report->computeDomainFlagCount())));
    m_summary->setText(summary);
    m_summary->setWordWrap(true);
}

bool GangsPage::selectGang(const QString& qualifiedName) {
    const int row = m_model->rowOf(qualifiedName);
    if (row < 0) return false;
    m_table->selectRow(row);
    m_table->scrollTo(m_model->index(row, GangsModel::NameColumn));
    m_table->setFocus();
    return true;
}

void GangsPage::selectionChanged() {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const Gang* gang = m_model->gang(rows.front().row());
    if (!gang) return;
    Q_EMIT gangSelected(QString::fromStdString(gang->qualifiedName()), gang->nodes);
    Q_EMIT gangDetails(m_model->report(), QString::fromStdString(gang->qualifiedName()), false);
}

} // namespace topodeck
