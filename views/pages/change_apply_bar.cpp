#include "views/pages/change_apply_bar.h"

#include "views/pages/changes_page.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

// The parts of the changes page speak in the page's translation context (ChangesPage::tr): the
// catalogue keeps the plural forms of its strings there, and a translator sees the page as one.

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// The first line says what happened, said as what the plan changes: labels, objects, or both.
QString outcomeLine(const ApplyAnswer& answer, bool& problem) {
    const ApplyResult& result = answer.result;
    const ChangeJournal& journal = result.journal;
    problem = true;
    switch (result.stage) {
    case ApplyResult::Stage::DryRunRefused:
        return ChangesPage::tr("The server's dry run refused %n node(s); nothing was applied:", nullptr,
                               int(result.dryRunRefusals.size()));
    case ApplyResult::Stage::DryRunPassed:
        problem = false;
        return ChangesPage::tr(
                   "The server's dry run passed: all %n node patch(es) would apply to %1; nothing was changed.",
                   nullptr, int(result.nodes))
            .arg(qs(answer.target));
    case ApplyResult::Stage::Applied: {
        problem = false;
        const int applied = int(journal.count(ChangeOutcome::Applied));
        return (journal.objectChanges.empty() ? ChangesPage::tr("Applied %n label change(s) to %1.", nullptr, applied)
                : journal.changes.empty()     ? ChangesPage::tr("Applied %n object change(s) to %1.", nullptr, applied)
                                              : ChangesPage::tr("Applied %n change(s) to %1.", nullptr, applied))
            .arg(qs(answer.target));
    }
    case ApplyResult::Stage::Stopped:
        return (result.cancelled
                    ? ChangesPage::tr("Cancelled: %1 of %2 changes were applied before it stopped.")
                    : ChangesPage::tr("Stopped at a refusal: %1 of %2 changes were applied, the rest not sent."))
            .arg(journal.count(ChangeOutcome::Applied))
            .arg(journal.changes.size() + journal.objectChanges.size());
    }
    return {};
}

// The server's answer, line by line: the outcome, each refusal, the journal.
QStringList answerLines(const ApplyAnswer& answer, bool& problem) {
    problem = true;
    if (!answer.refused.empty()) return {ChangesPage::tr("Nothing was sent: %1").arg(qs(answer.refused))};
    QStringList lines{outcomeLine(answer, problem)};
    for (const auto& [node, said] : answer.refusals) lines << QStringLiteral("  %1: %2").arg(qs(node), qs(said));
    if (!answer.journalFile.empty()) lines << ChangesPage::tr("Journal: %1").arg(qs(answer.journalFile));
    if (!answer.journalProblem.empty())
        lines << ChangesPage::tr("The journal could not be written: %1").arg(qs(answer.journalProblem));
    return lines;
}

} // namespace

std::size_t nodesWithChanges(const ChangePlan& plan) {
    std::size_t nodes = 0;
    for (std::size_t i = 0; i < plan.labelChanges.size(); ++i)
        if (i == 0 || plan.labelChanges[i].node != plan.labelChanges[i - 1].node) ++nodes;
    return nodes;
}

ChangeApplyBar::ChangeApplyBar(ClusterSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    // Not in this bar's layout: the page puts it in its cluster row.
    m_writes = new QCheckBox(ChangesPage::tr("Allow &writes to this cluster"), this);
    m_writes->setToolTip(ChangesPage::tr("Off for every cluster until turned on here, for this window only"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* applyRow = new QHBoxLayout;
    m_dryRun = new QPushButton(ChangesPage::tr("Dry &Run on Server"));
    m_dryRun->setToolTip(
        ChangesPage::tr("Every node's patch sent with dryRun=All: the server checks it and changes nothing"));
    m_apply = new QPushButton(ChangesPage::tr("&Apply"));
    m_cancel = new QPushButton(ChangesPage::tr("&Cancel"));
    m_cancel->setToolTip(ChangesPage::tr("Stops before the next batch; what was applied stays in the journal"));
    applyRow->addWidget(m_dryRun);
    applyRow->addWidget(m_apply);
    applyRow->addWidget(m_cancel);
    applyRow->addStretch(1);
    layout->addLayout(applyRow);
    m_progress = new QProgressBar;
    m_progress->setFormat(ChangesPage::tr("%v of %m changes"));
    m_progress->hide();
    layout->addWidget(m_progress);

    connect(m_writes, &QCheckBox::toggled, this, [this](bool allowed) {
        if (!m_sourceName.isEmpty()) m_writesByCluster[m_sourceName] = allowed;
        updateActions();
    });
    connect(m_dryRun, &QPushButton::clicked, this, &ChangeApplyBar::dryRunOnServer);
    connect(m_apply, &QPushButton::clicked, this, &ChangeApplyBar::apply);
    connect(m_cancel, &QPushButton::clicked, this, &ChangeApplyBar::cancel);
    connect(m_session, &ClusterSession::applyProgressed, this, &ChangeApplyBar::showProgress);
    connect(m_session, &ClusterSession::applyFinished, this, &ChangeApplyBar::showAnswer);
}

void ChangeApplyBar::setCluster(const QString& sourceName) {
    m_sourceName = sourceName;
    const QSignalBlocker blocker(m_writes);
    m_writes->setChecked(m_writesByCluster[m_sourceName]);
}

void ChangeApplyBar::updateActions() {
    const bool previewed = m_preview && !m_preview->plan.empty();
    const bool kube = m_preview && m_preview->cannotApply.empty();
    QString why; // why apply is off
    if (m_applying)
        why = ChangesPage::tr("An apply is running");
    else if (!previewed)
        why = ChangesPage::tr("Preview a plan that changes something first");
    else if (!kube)
        why = qs(m_preview->cannotApply);
    else if (!m_preview->drift.empty())
        why = ChangesPage::tr("The cluster has drifted from the plan: preview it again");
    else if (!m_preview->diff.objectProblems.empty())
        why = ChangesPage::tr("The cluster would refuse the plan's objects: see Risks");
    m_dryRun->setEnabled(why.isEmpty());
    m_dryRun->setToolTip(why.isEmpty()
                             ? ChangesPage::tr("Every node's patch sent with dryRun=All: the server checks it "
                                               "and changes nothing")
                             : why);
    if (why.isEmpty() && !m_writes->isChecked())
        why = ChangesPage::tr("Writes to %1 are off: allow them above first").arg(m_sourceName);
    m_apply->setEnabled(why.isEmpty());
    m_apply->setText(kube && m_preview ? ChangesPage::tr("&Apply to %1").arg(qs(m_preview->target))
                                       : ChangesPage::tr("&Apply"));
    m_apply->setToolTip(why.isEmpty()
                            ? ChangesPage::tr("Sends the plan in batches; a conflict stops it, and nothing is "
                                              "overwritten")
                            : why);
    m_writes->setEnabled(!m_applying && (!m_preview || m_preview->cannotApply.empty()));
    m_cancel->setEnabled(m_applying);
}

void ChangeApplyBar::startApply(bool dryRunOnly) {
    updateActions();
    if (!(dryRunOnly ? m_dryRun : m_apply)->isEnabled()) return;
    ApplyRequest request;
    request.plan = m_preview->plan;
    request.dryRunOnly = dryRunOnly;
    request.batchSize = m_batchSize;
    if (!dryRunOnly) {
        if (!m_confirm(confirmationQuestion(request.plan))) return;
        request.journalFile = journalPathFor(request.plan).toStdString();
    }
    m_applying = true;
    m_progress->setRange(0, 0); // busy until the first batch
    m_progress->show();
    const QString target = qs(m_preview->target);
    Q_EMIT statusChanged(dryRunOnly ? ChangesPage::tr("Dry run on %1…").arg(target)
                                    : ChangesPage::tr("Applying to %1…").arg(target),
                         false);
    Q_EMIT started();
    m_session->requestApply(request);
}

QString ChangeApplyBar::confirmationQuestion(const ChangePlan& plan) const {
    const QString target = qs(m_preview->target);
    const QString labels = ChangesPage::tr("Apply %n label change(s)", nullptr, int(plan.labelChanges.size()));
    const QString what =
        plan.objectChanges.empty()
            ? labels + ChangesPage::tr(" on %n node(s) to %1?", nullptr, int(nodesWithChanges(plan))).arg(target)
        : plan.labelChanges.empty()
            ? ChangesPage::tr("Apply %n object change(s) to %1?", nullptr, int(plan.objectChanges.size())).arg(target)
            : labels + ChangesPage::tr(" on %n node(s)", nullptr, int(nodesWithChanges(plan))) +
                  ChangesPage::tr(" and %n object change(s)", nullptr, int(plan.objectChanges.size())) +
                  ChangesPage::tr(" to %1?").arg(target);
    return what + QStringLiteral("\n\n") +
           ChangesPage::tr(
               "The server checks every change first; a conflict stops the apply. Undo is in the Journal tab.");
}

QString ChangeApplyBar::journalPathFor(const ChangePlan& plan) const {
    QString name = qs(plan.name.empty() ? std::string("change-plan") : plan.name);
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return QDir(m_journalFolder)
        .filePath(name + QLatin1Char('-') +
                  QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")) +
                  QStringLiteral(".journal.yaml"));
}

void ChangeApplyBar::cancel() {
    if (!m_applying) return;
    m_session->cancelApply();
    Q_EMIT statusChanged(ChangesPage::tr("Cancelling after the batch in flight…"), false);
}

void ChangeApplyBar::showProgress(quint64 done, quint64 total) {
    if (!m_applying) return;
    m_progress->setRange(0, int(total));
    m_progress->setValue(int(done));
}

void ChangeApplyBar::showAnswer(const ApplyAnswerPtr& answer) {
    if (!m_applying) return;
    m_applying = false;
    m_progress->hide();
    bool problem = true;
    const QStringList lines = answerLines(*answer, problem);
    Q_EMIT answered(answer, lines, problem);
}

} // namespace topodeck
