#include "views/pages/changes_page.h"

#include "core/text/command_args.h"
#include "views/pages/change_apply_bar.h"
#include "views/pages/change_journal_tab.h"
#include "views/pages/change_plan_editor.h"
#include "views/pages/change_preview_tabs.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

Result<NodeTarget> parseNodeTarget(const QString& words) {
    auto split = splitCommandWords(words.toStdString());
    if (!split) return split.error();
    NodeTarget target;
    const auto once = [](std::string& field, const std::string& value, const char* flag) -> Status {
        if (value.empty()) return Error{std::string(flag) + " needs a value"};
        if (!field.empty()) return Error{std::string(flag) + " is given twice: name one, or add a second operation"};
        field = value;
        return {};
    };
    const std::vector<std::string>& list = *split;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string& word = list[i];
        const auto next = [&]() -> std::string { return i + 1 < list.size() ? list[++i] : std::string(); };
        Status taken;
        if (word == "-l" || word == "--selector")
            taken = once(target.selector, next(), "-l");
        else if (word.starts_with("--selector="))
            taken = once(target.selector, word.substr(11), "-l");
        else if (word.starts_with("-l") && word.size() > 2)
            taken = once(target.selector, word.substr(word[2] == '=' ? 3 : 2), "-l");
        else if (word == "--domain")
            taken = once(target.domain, next(), "--domain");
        else if (word.starts_with("--domain="))
            taken = once(target.domain, word.substr(9), "--domain");
        else if (word.starts_with("-"))
            taken = Error{"unknown flag " + word + ": name nodes, -l SELECTOR or --domain PATH"};
        else
            target.nodes.push_back(word);
        if (!taken) return taken.error();
    }
    if (target.empty()) return Error{"name the nodes: node names, -l SELECTOR or --domain PATH"};
    return target;
}

ChangesPage::ChangesPage(ClusterSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    // Built in the order they sit, top to bottom, which is the order Tab goes through them.
    m_applyBar = new ChangeApplyBar(session);
    m_editor = new ChangePlanEditor;
    m_previewTabs = new ChangePreviewTabs;
    m_journal = new ChangeJournalTab;
    m_previewTabs->addTab(m_journal, tr("&Journal"));
    auto* layout = new QVBoxLayout(this);

    auto* clusterRow = new QHBoxLayout;
    m_cluster = new QLabel(tr("No cluster open"));
    m_cluster->setTextInteractionFlags(Qt::TextSelectableByMouse);
    clusterRow->addWidget(m_cluster, 1);
    clusterRow->addWidget(m_applyBar->writesAllowed());
    layout->addLayout(clusterRow);

    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->setChildrenCollapsible(false);
    vertical->addWidget(m_editor);
    vertical->addWidget(m_previewTabs);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({180, 600}); // a plan is a few operations; its preview needs the room
    layout->addWidget(vertical, 1);
    layout->addWidget(m_applyBar);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A dock does not give a wrapped label its height for width: keep room for two lines.
    m_status->setMinimumHeight(2 * m_status->fontMetrics().lineSpacing());
    layout->addWidget(m_status);

    setJournalFolder(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journals"));
    setConfirmation([this](const QString& question) {
        return QMessageBox::question(this, tr("Apply Change Plan"), question, QMessageBox::Apply | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Apply;
    });
    connect(m_editor, &ChangePlanEditor::previewRequested, this, &ChangesPage::requestPreview);
    connect(m_editor, &ChangePlanEditor::clearRequested, this, &ChangesPage::clearPlan);
    connect(m_editor, &ChangePlanEditor::refused, this, [this](const QString& why) { setStatus(why, true); });
    connect(m_applyBar, &ChangeApplyBar::statusChanged, this, &ChangesPage::setStatus);
    connect(m_applyBar, &ChangeApplyBar::started, this, &ChangesPage::updateActions);
    connect(m_applyBar, &ChangeApplyBar::answered, this, &ChangesPage::showApplied);
    connect(m_journal, &ChangeJournalTab::undoSelectedRequested, this, &ChangesPage::undoSelected);
    connect(m_journal, &ChangeJournalTab::undoFileChosen, this, &ChangesPage::openJournal);
    connect(m_journal, &ChangeJournalTab::selectionChanged, this, &ChangesPage::updateActions);
    connect(m_session, &ClusterSession::statusChanged, this, &ChangesPage::sourceChanged);
    connect(m_session, &ClusterSession::changePreviewReady, this, &ChangesPage::showPreview);
    setFocusProxy(m_editor->targetEdit());
    updateActions();
}

void ChangesPage::setJournalFolder(const QString& folder) {
    m_applyBar->setJournalFolder(folder);
    m_journal->setJournalFolder(folder);
}

void ChangesPage::setBatchSize(std::size_t nodes) {
    m_applyBar->setBatchSize(nodes);
}

void ChangesPage::setConfirmation(std::function<bool(const QString& question)> confirm) {
    m_applyBar->setConfirmation(std::move(confirm));
}

QLineEdit* ChangesPage::targetEdit() const {
    return m_editor->targetEdit();
}
QLineEdit* ChangesPage::labelsEdit() const {
    return m_editor->labelsEdit();
}
QLineEdit* ChangesPage::relabelKeysEdit() const {
    return m_editor->relabelKeysEdit();
}
QLineEdit* ChangesPage::relabelRemoveEdit() const {
    return m_editor->relabelRemoveEdit();
}
QCheckBox* ChangesPage::writesAllowed() const {
    return m_applyBar->writesAllowed();
}
QPushButton* ChangesPage::addButton() const {
    return m_editor->addButton();
}
QPushButton* ChangesPage::dryRunButton() const {
    return m_applyBar->dryRunButton();
}
QPushButton* ChangesPage::applyButton() const {
    return m_applyBar->applyButton();
}
QPushButton* ChangesPage::cancelButton() const {
    return m_applyBar->cancelButton();
}
QPushButton* ChangesPage::undoButton() const {
    return m_journal->undoButton();
}
QListWidget* ChangesPage::operationsList() const {
    return m_editor->operationsList();
}
QListWidget* ChangesPage::risksList() const {
    return m_previewTabs->risksList();
}
QListWidget* ChangesPage::journalList() const {
    return m_journal->journalList();
}
QPlainTextEdit* ChangesPage::serverAnswer() const {
    return m_journal->serverAnswer();
}
QPlainTextEdit* ChangesPage::topologyText() const {
    return m_previewTabs->topologyText();
}
QPlainTextEdit* ChangesPage::objectsText() const {
    return m_previewTabs->objectsText();
}
QTableWidget* ChangesPage::gangTable() const {
    return m_previewTabs->gangTable();
}
QTabWidget* ChangesPage::previewTabs() const {
    return m_previewTabs;
}
LabelChangesModel* ChangesPage::labelChanges() const {
    return m_previewTabs->labelChanges();
}

void ChangesPage::setTarget(const QString& target, bool isNode) {
    m_editor->setTarget(target, isNode);
}

QString ChangesPage::statusText() const {
    return m_status->text();
}

bool ChangesPage::addOperation() {
    return m_editor->addOperation();
}
void ChangesPage::makeRelabelPlan() {
    m_editor->makeRelabelPlan();
}
void ChangesPage::removeOperation() {
    m_editor->removeOperation();
}
void ChangesPage::openPlan(const QString& path) {
    m_editor->openPlan(path);
}
void ChangesPage::savePlan(const QString& path) {
    m_editor->savePlan(path);
}
void ChangesPage::openJournal(const QString& path) {
    m_editor->openJournal(path);
}
void ChangesPage::previewAgain() {
    m_editor->previewAgain();
}
void ChangesPage::dryRunOnServer() {
    m_applyBar->dryRunOnServer();
}
void ChangesPage::apply() {
    m_applyBar->apply();
}
void ChangesPage::cancel() {
    m_applyBar->cancel();
}

void ChangesPage::previewObjectChanges(const std::vector<ObjectKind>& kinds, const std::vector<ObjectChange>& changes) {
    m_editor->previewObjectChanges(kinds, changes);
}

void ChangesPage::clearPlan() {
    m_editor->clear();
    m_preview.reset();
    m_applyBar->setPreview(nullptr);
    m_previewTabs->clear();
    Q_EMIT nodesChanged({}, QString());
    setStatus(QString());
    updateActions();
}

void ChangesPage::undoSelected() {
    const ChangeJournal* journal = m_journal->selectedJournal();
    if (!journal) return;
    ChangePlan undo = undoPlan(*journal);
    if (undo.empty()) {
        setStatus(tr("That apply changed nothing: there is nothing to undo."), true);
        return;
    }
    m_editor->previewFixedPlan(std::move(undo));
}

void ChangesPage::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(
        problem ? QStringLiteral("color: %1").arg(ChangePreviewTabs::diffColours(palette()).problem.name())
                : QString());
}

void ChangesPage::sourceChanged(const SourceStatus& status) {
    if (status.sourceName == m_sourceName) return; // a live status, same cluster
    m_sourceName = status.sourceName;
    m_cluster->setText(m_sourceName.isEmpty() ? tr("No cluster open") : tr("Cluster: %1").arg(m_sourceName));
    m_applyBar->setCluster(m_sourceName);
    // A plan is made against one cluster: another one starts afresh.
    if (!m_applyBar->isApplying()) clearPlan();
    updateActions();
}

void ChangesPage::requestPreview(ChangePreviewRequest request) {
    if (m_gangFlags) {
        const QString flags = m_gangFlags().trimmed();
        if (!flags.isEmpty())
            if (auto query = parsePlanQuery(flags.toStdString())) request.gang = std::move(*query);
    }
    setStatus(tr("Previewing…"));
    m_session->requestChangePreview(request);
}

void ChangesPage::showPreview(const ChangePreviewPtr& preview) {
    if (!m_editor->takePreview(*preview)) {
        setStatus(tr("Not previewed: %1").arg(qs(preview->error)), true);
        return;
    }
    m_preview = preview;
    m_applyBar->setPreview(preview);
    m_previewTabs->showPreview(preview, m_gangFlags ? m_gangFlags() : QString());
    setStatus(previewSummary(*preview), !preview->drift.empty() || !preview->diff.objectProblems.empty());
    Q_EMIT nodesChanged(preview->nodes, !preview->nodes.empty() ? tr("changed by the plan (%n node(s))", nullptr,
                                                                     int(preview->nodes.size()))
                                                                : QString());
    updateActions();
    Q_EMIT previewShown();
}

// "12 label changes on 4 nodes, 1 object change.", and what stands in an apply's way.
QString ChangesPage::previewSummary(const ChangePreview& preview) const {
    const std::size_t changes = preview.plan.labelChanges.size();
    const std::size_t objects = preview.plan.objectChanges.size();
    QStringList parts;
    if (changes)
        parts << tr("%n label change(s)", nullptr, int(changes)) +
                     tr(" on %n node(s)", nullptr, int(nodesWithChanges(preview.plan)));
    if (objects) parts << tr("%n object change(s)", nullptr, int(objects));
    QString status = parts.isEmpty() ? tr("The plan changes nothing on %1.").arg(m_sourceName)
                                     : parts.join(QStringLiteral(", ")) + QLatin1Char('.');
    if (!preview.diff.objectProblems.empty())
        status += QLatin1Char(' ') + tr("The cluster would refuse it: see Risks.");
    if (!preview.saved.empty()) status += QLatin1Char(' ') + tr("Saved to %1.").arg(qs(preview.saved));
    if (!preview.cannotApply.empty()) status += QLatin1Char(' ') + tr("Preview only: %1.").arg(qs(preview.cannotApply));
    return status;
}

void ChangesPage::showApplied(const ApplyAnswerPtr& answer, const QStringList& lines, bool problem) {
    m_journal->showServerAnswer(lines.join(QLatin1Char('\n')));
    setStatus(lines.front() + (lines.size() > 1 ? QLatin1Char(' ') + tr("(details in the Journal tab)") : QString()),
              problem);
    if (!answer->journalFile.empty()) m_journal->addJournal(answer->result.journal, qs(answer->journalFile));
    const ApplyResult::Stage stage = answer->result.stage;
    if (answer->refused.empty() && stage == ApplyResult::Stage::Applied) {
        // Done: the cluster holds the plan now, so a preview of it would find nothing to change.
        clearPlan();
        setStatus(lines.front());
    }
    if (!answer->refused.empty() || stage != ApplyResult::Stage::DryRunPassed)
        m_previewTabs->setCurrentWidget(m_journal);
    updateActions();
    Q_EMIT applyDone();
}

void ChangesPage::updateActions() {
    const bool applying = m_applyBar->isApplying();
    m_applyBar->updateActions();
    m_editor->updateActions(applying);
    m_journal->updateActions(applying);
}

} // namespace topodeck
