#include "views/chrome/status_warnings.h"

#include "views/chrome/cluster_totals_label.h"
#include "views/chrome/occupancy_notice.h"
#include "views/chrome/open_failure_banner.h"
#include "views/chrome/source_status_label.h"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

#include <algorithm>

namespace topodeck {

namespace {
constexpr int kMaxWarningWidth = 420; // the status bar's warning, elided; the tooltip has them all
constexpr qsizetype kMaxTooltipWarnings = 20;
} // namespace

StatusWarnings::StatusWarnings(QStatusBar* statusBar, QWidget* bandParent, QObject* parent)
    : QObject(parent), m_stateLabel(new SourceStatusLabel(statusBar)), m_totalsLabel(new ClusterTotalsLabel(statusBar)),
      m_warningsLabel(new QLabel(statusBar)), m_openFailure(new OpenFailureBanner(bandParent)),
      m_notice(new OccupancyNotice(bandParent)) {
    statusBar->addWidget(m_stateLabel, 1);
    statusBar->addPermanentWidget(m_totalsLabel);
    statusBar->addPermanentWidget(m_warningsLabel);
    showStatus(SourceStatus{tr("no source"), SourceHealth::Connecting, QString(), {}});
}

void StatusWarnings::showSnapshot(const ClusterSnapshotPtr& snapshot, bool newSource) {
    m_shown = snapshot;
    showStatus(snapshot->status);
    if (newSource) m_openFailure->hide();
}

void StatusWarnings::showOpenFailure(const QString& source, const QString& message) {
    m_openFailure->showFailure(source, message, m_shown ? m_shown->status.sourceName : QString());
}

void StatusWarnings::showStatus(const SourceStatus& status) {
    // A source that failed to open while another is shown: the error goes above the map, and the
    // status bar describes again what the window shows (it said "reading …" meanwhile).
    const bool failedBesideShown =
        status.health == SourceHealth::Error && m_shown && status.sourceName != m_shown->status.sourceName;
    if (status.health == SourceHealth::Error && (failedBesideShown || !m_shown))
        showOpenFailure(status.sourceName, status.detail);
    if (failedBesideShown) return showStatus(m_shown->status);
    m_stateLabel->setStatus(status);
    // A live cluster's first problem (no permission to list pods, say) matters enough to show as is.
    const auto warnings = static_cast<qsizetype>(status.warnings.size());
    const QString first = warnings > 0 ? QString::fromStdString(status.warnings.front()) : QString();
    if (warnings == 0)
        m_warningsLabel->setText(tr("No warnings"));
    else if (!status.resources.empty())
        m_warningsLabel->setText(m_warningsLabel->fontMetrics().elidedText(
            warnings == 1 ? tr("⚠ %1").arg(first) : tr("⚠ %1 (+%2 more)").arg(first).arg(warnings - 1), Qt::ElideRight,
            kMaxWarningWidth));
    else
        m_warningsLabel->setText(warnings == 1 ? tr("⚠ 1 warning")
                                               : tr("⚠ %1 warnings").arg(QLocale().toString(warnings)));
    QStringList lines;
    for (qsizetype i = 0; i < std::min(warnings, kMaxTooltipWarnings); ++i)
        lines << QString::fromStdString(status.warnings[std::size_t(i)]);
    if (warnings > kMaxTooltipWarnings) lines << tr("… and %1 more").arg(warnings - kMaxTooltipWarnings);
    m_warningsLabel->setToolTip(lines.join(QLatin1Char('\n')));
    m_totalsLabel->setSnapshot(m_shown);
    m_notice->setSnapshot(m_shown);
}

} // namespace topodeck
