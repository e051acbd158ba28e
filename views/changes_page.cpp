#include "views/changes_page.h"

#include "core/command_args.h"
#include "models/label_changes_model.h"
#include "views/diff_highlighter.h"
#include "views/theme.h"

#include <QCheckBox>
#include <QDateTime>
#include <QEvent>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace topodeck {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

// What goes and what comes, readable on either theme.
struct DiffColours {
    QColor problem, good;
};
DiffColours diffColours(const QPalette& palette) {
    if (Theme::isDark(palette)) return {QColor(0xef, 0x6c, 0x6c), QColor(0x7c, 0xc8, 0x7f)};
    return {QColor(0xc6, 0x28, 0x28), QColor(0x2e, 0x7d, 0x32)};
}

// At most `shown` names, then how many more: risks name nodes by the thousand.
QString someOf(const std::vector<std::string>& names, std::size_t shown = 5) {
    QStringList listed;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i) listed << qs(names[i]);
    QString text = listed.join(QStringLiteral(", "));
    if (names.size() > shown) text += ChangesPage::tr(" and %n more", nullptr, int(names.size() - shown));
    return text;
}

QString describeOperation(const LabelOperation& operation) {
    QStringList edits;
    for (const LabelEdit& edit : operation.edits)
        edits << qs(edit.value ? edit.key + '=' + *edit.value : edit.key + '-');
    return qs(operation.target.describe()) + QStringLiteral(": ") + edits.join(QLatin1Char(' '));
}

// Nodes with changes, each once (the plan keeps its changes by node).
std::size_t nodesOf(const ChangePlan& plan) {
    std::size_t nodes = 0;
    for (std::size_t i = 0; i < plan.labelChanges.size(); ++i)
        if (i == 0 || plan.labelChanges[i].node != plan.labelChanges[i - 1].node) ++nodes;
    return nodes;
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
        if (word == "-l" || word == "--selector") taken = once(target.selector, next(), "-l");
        else if (word.starts_with("--selector=")) taken = once(target.selector, word.substr(11), "-l");
        else if (word.starts_with("-l") && word.size() > 2) taken = once(target.selector, word.substr(word[2] == '=' ? 3 : 2), "-l");
        else if (word == "--domain") taken = once(target.domain, next(), "--domain");
        else if (word.starts_with("--domain=")) taken = once(target.domain, word.substr(9), "--domain");
        else if (word.starts_with("-")) taken = Error{"unknown flag " + word + ": name nodes, -l SELECTOR or --domain PATH"};
        else target.nodes.push_back(word);
        if (!taken) return taken.error();
    }
    if (target.empty()) return Error{"name the nodes: node names, -l SELECTOR or --domain PATH"};
    return target;
}

ChangesPage::ChangesPage(ClusterSession* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_journalFolder(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journals")) {
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Apply Change Plan"), question, QMessageBox::Apply | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Apply;
    };
    auto* layout = new QVBoxLayout(this);

    auto* clusterRow = new QHBoxLayout;
    m_cluster = new QLabel(tr("No cluster open"));
    m_cluster->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_writes = new QCheckBox(tr("Allow &writes to this cluster"));
    m_writes->setToolTip(tr("Off for every cluster until turned on here, for this window only"));
    clusterRow->addWidget(m_cluster, 1);
    clusterRow->addWidget(m_writes);
    layout->addLayout(clusterRow);

    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->setChildrenCollapsible(false);
    vertical->addWidget(buildPlanArea());

    m_tabs = new QTabWidget;
    m_model = new LabelChangesModel(this);
    m_changes = new QTableView;
    m_changes->setModel(m_model);
    m_changes->setSortingEnabled(false);
    m_changes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_changes->verticalHeader()->hide();
    m_changes->horizontalHeader()->setStretchLastSection(true);
    m_changes->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_tabs->addTab(m_changes, tr("&Labels"));
    m_topology = new QPlainTextEdit;
    m_topology->setReadOnly(true);
    m_topology->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_topology->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_topology->setPlaceholderText(tr("What the plan does to the hierarchy shows here once it is previewed."));
    m_tabs->addTab(m_topology, tr("&Topology"));
    m_risks = new QListWidget;
    m_risks->setWordWrap(true);
    m_tabs->addTab(m_risks, tr("&Risks"));
    auto* gangTab = new QWidget;
    auto* gangLayout = new QVBoxLayout(gangTab);
    m_gangNote = new QLabel;
    m_gangNote->setWordWrap(true);
    m_gang = new QTableWidget(0, GangColumnCount);
    m_gang->setHorizontalHeaderLabels({tr("Engine"), tr("Now"), tr("After the plan")});
    m_gang->verticalHeader()->hide();
    m_gang->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Verdicts are sentences: they wrap, whole, and each row is as tall as its longest one.
    m_gang->setWordWrap(true);
    m_gang->setTextElideMode(Qt::ElideNone);
    m_gang->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gang->horizontalHeader()->setSectionResizeMode(EngineColumn, QHeaderView::ResizeToContents);
    m_gang->horizontalHeader()->setSectionResizeMode(BeforeColumn, QHeaderView::Stretch);
    m_gang->horizontalHeader()->setSectionResizeMode(AfterColumn, QHeaderView::Stretch);
    gangLayout->addWidget(m_gangNote);
    gangLayout->addWidget(m_gang, 1);
    m_tabs->addTab(gangTab, tr("&Gang"));
    m_objects = new QPlainTextEdit;
    m_objects->setReadOnly(true);
    m_objects->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_objects->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_objects->setPlaceholderText(tr("HyperNodes, Topologies and ResourceFlavors the plan creates, updates or deletes "
                                     "(Changes › Edit HyperNodes…, Edit Topology Levels…) show here."));
    m_objectColours = new DiffHighlighter(m_objects->document());
    m_tabs->addTab(m_objects, tr("&Objects"));
    m_tabs->addTab(buildJournalTab(), tr("&Journal"));
    vertical->addWidget(m_tabs);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({180, 600}); // a plan is a few operations; its preview needs the room
    layout->addWidget(vertical, 1);

    auto* applyRow = new QHBoxLayout;
    m_dryRun = new QPushButton(tr("Dry &Run on Server"));
    m_dryRun->setToolTip(tr("Every node's patch sent with dryRun=All: the server checks it and changes nothing"));
    m_apply = new QPushButton(tr("&Apply"));
    m_cancel = new QPushButton(tr("&Cancel"));
    m_cancel->setToolTip(tr("Stops before the next batch; what was applied stays in the journal"));
    applyRow->addWidget(m_dryRun);
    applyRow->addWidget(m_apply);
    applyRow->addWidget(m_cancel);
    applyRow->addStretch(1);
    layout->addLayout(applyRow);
    m_progress = new QProgressBar;
    m_progress->setFormat(tr("%v of %m changes"));
    m_progress->hide();
    layout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A dock does not give a wrapped label its height for width: keep room for two lines.
    m_status->setMinimumHeight(2 * m_status->fontMetrics().lineSpacing());
    layout->addWidget(m_status);

    connect(m_add, &QPushButton::clicked, this, &ChangesPage::addOperation);
    connect(m_relabel, &QPushButton::clicked, this, &ChangesPage::makeRelabelPlan);
    for (QLineEdit* field : {m_relabelKeys, m_relabelRemove})
        connect(field, &QLineEdit::returnPressed, this, &ChangesPage::makeRelabelPlan);
    for (QLineEdit* field : {m_target, m_labels}) connect(field, &QLineEdit::returnPressed, this, &ChangesPage::addOperation);
    connect(m_writes, &QCheckBox::toggled, this, [this](bool allowed) {
        if (!m_sourceName.isEmpty()) m_writesByCluster[m_sourceName] = allowed;
        updateActions();
    });
    connect(m_dryRun, &QPushButton::clicked, this, &ChangesPage::dryRunOnServer);
    connect(m_apply, &QPushButton::clicked, this, &ChangesPage::apply);
    connect(m_cancel, &QPushButton::clicked, this, &ChangesPage::cancel);
    connect(m_session, &ClusterSession::statusChanged, this, &ChangesPage::sourceChanged);
    connect(m_session, &ClusterSession::changePreviewReady, this, &ChangesPage::showPreview);
    connect(m_session, &ClusterSession::applyProgressed, this, &ChangesPage::showProgress);
    connect(m_session, &ClusterSession::applyFinished, this, &ChangesPage::showApplied);
    const DiffColours colours = diffColours(palette());
    m_model->setDiffColours(colours.problem, colours.good);
    m_objectColours->setColours(colours.problem, colours.good);
    setFocusProxy(m_target);
    updateActions();
}

QWidget* ChangesPage::buildPlanArea() {
    auto* area = new QWidget;
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    m_target = new QLineEdit;
    m_target->setPlaceholderText(tr("node names, -l SELECTOR or --domain PATH"));
    m_target->setToolTip(tr("Which nodes, as topodeckctl label names them: names, a label selector (-l), or every "
                            "node of a domain (--domain su-1/rack-1-03)"));
    form->addRow(tr("&Nodes:"), m_target);
    auto* labelsRow = new QHBoxLayout;
    m_labels = new QLineEdit;
    m_labels->setPlaceholderText(tr("key=value key-"));
    m_labels->setToolTip(tr("kubectl label's syntax: key=value sets, key- removes"));
    m_add = new QPushButton(tr("A&dd"));
    m_add->setToolTip(tr("Adds the edit to the plan and previews it (Enter)"));
    labelsRow->addWidget(m_labels, 1);
    labelsRow->addWidget(m_add);
    auto* labelsLabel = new QLabel(tr("La&bels:"));
    labelsLabel->setBuddy(m_labels);
    form->addRow(labelsLabel, labelsRow);
    auto* relabelRow = new QHBoxLayout;
    m_relabelKeys = new QLineEdit;
    m_relabelKeys->setPlaceholderText(tr("a key per level, top first: example.com/block,example.com/rack"));
    m_relabelKeys->setToolTip(tr("Labels every node with the domains it sits in under the hierarchy shown (a topology.conf, "
                                 "HyperNodes, a Topology, other keys), as topodeckctl relabel --to does; - leaves a level out"));
    m_relabel = new QPushButton(tr("Ma&ke Plan"));
    m_relabel->setToolTip(tr("Replaces the plan with the relabel, and previews it"));
    relabelRow->addWidget(m_relabelKeys, 1);
    relabelRow->addWidget(m_relabel);
    auto* relabelLabel = new QLabel(tr("Relabel from &hierarchy:"));
    relabelLabel->setBuddy(m_relabelKeys);
    form->addRow(relabelLabel, relabelRow);
    m_relabelRemove = new QLineEdit;
    m_relabelRemove->setPlaceholderText(tr("KEY or PREFIX*, ... (optional)"));
    m_relabelRemove->setToolTip(tr("Keys of an old scheme taken off every node in the same plan (the keys above are kept)"));
    auto* removeLabel = new QLabel(tr("Remove old ke&ys:"));
    removeLabel->setBuddy(m_relabelRemove);
    form->addRow(removeLabel, m_relabelRemove);
    layout->addLayout(form);

    m_operations = new QListWidget;
    m_operations->setMinimumHeight(60);
    m_operations->setToolTip(tr("The plan's operations, in the order they apply"));
    layout->addWidget(m_operations, 1);
    auto* buttons = new QHBoxLayout;
    auto* remove = new QPushButton(tr("Re&move"));
    auto* clear = new QPushButton(tr("C&lear"));
    auto* open = new QPushButton(tr("&Open Plan…"));
    auto* save = new QPushButton(tr("&Save Plan…"));
    m_previewAgain = new QPushButton(tr("Pre&view Again"));
    m_previewAgain->setToolTip(tr("The plan against the cluster as it is now"));
    for (QPushButton* button : {remove, clear, open, save, m_previewAgain}) buttons->addWidget(button);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(remove, &QPushButton::clicked, this, &ChangesPage::removeOperation);
    connect(clear, &QPushButton::clicked, this, &ChangesPage::clearPlan);
    connect(m_previewAgain, &QPushButton::clicked, this, &ChangesPage::previewAgain);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Change Plan"), QString(),
                                                          tr("Change plans (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty()) openPlan(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Change Plan"), QStringLiteral("plan.yaml"),
                                                          tr("Change plans (*.yaml *.yml)"));
        if (!path.isEmpty()) savePlan(path);
    });
    return area;
}

QWidget* ChangesPage::buildJournalTab() {
    auto* tab = new QWidget;
    auto* layout = new QVBoxLayout(tab);
    m_serverAnswer = new QPlainTextEdit;
    m_serverAnswer->setReadOnly(true);
    m_serverAnswer->setPlaceholderText(tr("The server's answer to a dry run or an apply shows here."));
    layout->addWidget(m_serverAnswer, 1);
    layout->addWidget(new QLabel(tr("Applies of this session (each one's journal file in its tooltip):")));
    m_journals = new QListWidget;
    layout->addWidget(m_journals, 1);
    auto* buttons = new QHBoxLayout;
    m_undo = new QPushButton(tr("&Undo Selected…"));
    m_undo->setToolTip(tr("Previews the plan that puts back what the selected apply changed"));
    auto* openJournalButton = new QPushButton(tr("Undo from &File…"));
    openJournalButton->setToolTip(tr("Previews the undo of a journal written by an earlier apply"));
    buttons->addWidget(m_undo);
    buttons->addWidget(openJournalButton);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_undo, &QPushButton::clicked, this, &ChangesPage::undoSelected);
    connect(m_journals, &QListWidget::currentRowChanged, this, &ChangesPage::updateActions);
    connect(openJournalButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Undo from Journal"), m_journalFolder,
                                                          tr("Journals (*.journal.yaml *.yaml);;All files (*)"));
        if (!path.isEmpty()) openJournal(path);
    });
    return tab;
}

void ChangesPage::setTarget(const QString& target, bool isNode) {
    m_target->setText(isNode ? target : qs("--domain " + joinCommandWords({target.toStdString()})));
    m_labels->setFocus();
}

QString ChangesPage::statusText() const { return m_status->text(); }

void ChangesPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    const DiffColours colours = diffColours(palette());
    m_model->setDiffColours(colours.problem, colours.good);
    m_objectColours->setColours(colours.problem, colours.good);
}

void ChangesPage::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: %1").arg(diffColours(palette()).problem.name()) : QString());
}

void ChangesPage::sourceChanged(const SourceStatus& status) {
    if (status.sourceName == m_sourceName) return; // a live status, same cluster
    m_sourceName = status.sourceName;
    m_cluster->setText(m_sourceName.isEmpty() ? tr("No cluster open") : tr("Cluster: %1").arg(m_sourceName));
    const QSignalBlocker blocker(m_writes);
    m_writes->setChecked(m_writesByCluster[m_sourceName]);
    // A plan is made against one cluster: another one starts afresh.
    if (!m_applying) clearPlan();
    updateActions();
}

bool ChangesPage::addOperation() {
    if (m_planFromFile) {
        setStatus(tr("This plan came from a file or a journal and keeps the values it found: Clear it to make a new one."), true);
        return false;
    }
    auto target = parseNodeTarget(m_target->text());
    if (!target) {
        setStatus(tr("Nodes: %1").arg(qs(target.error().message)), true);
        return false;
    }
    auto words = splitCommandWords(m_labels->text().toStdString());
    Result<std::vector<LabelEdit>> edits = words ? parseLabelEdits(*words) : Result<std::vector<LabelEdit>>(words.error());
    if (edits && edits->empty()) edits = Error{"give at least one key=value or key-"};
    if (!edits) {
        setStatus(tr("Labels: %1").arg(qs(edits.error().message)), true);
        return false;
    }
    if (m_plan.name.empty())
        m_plan.name = "console-" + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
    m_plan.operations.push_back(LabelOperation{std::move(*target), std::move(*edits)});
    showOperations();
    requestPreview(planRequest(), Pending::Added);
    return true;
}

void ChangesPage::makeRelabelPlan() {
    RelabelRequest relabel;
    relabel.keys = splitList(m_relabelKeys->text().toStdString());
    relabel.remove = splitList(m_relabelRemove->text().toStdString());
    if (relabel.keys.empty()) {
        setStatus(tr("Relabel: give the label key of each level, top level first."), true);
        return;
    }
    ChangePreviewRequest request = planRequest();
    request.plan = ChangePlan{};
    request.plan.name = "relabel-" + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
    request.resolve = true;
    request.relabel = std::move(relabel);
    requestPreview(std::move(request), Pending::Made);
}

void ChangesPage::removeOperation() {
    const int row = m_operations->currentRow();
    if (row < 0 || m_planFromFile) return;
    const auto objectRow = std::size_t(row) - m_plan.operations.size();
    if (row < int(m_plan.operations.size()))
        m_plan.operations.erase(m_plan.operations.begin() + row);
    else if (objectRow < m_plan.objectChanges.size())
        m_plan.objectChanges.erase(m_plan.objectChanges.begin() + std::ptrdiff_t(objectRow));
    else
        return;
    showOperations();
    if (m_plan.operations.empty() && m_plan.objectChanges.empty())
        clearPlan();
    else requestPreview(planRequest(), Pending::Made);
}

void ChangesPage::clearPlan() {
    m_plan = ChangePlan{};
    m_planFromFile = false;
    m_preview.reset();
    m_model->setPreview(nullptr);
    m_topology->clear();
    m_objects->clear();
    m_risks->clear();
    m_gang->setRowCount(0);
    m_gangNote->clear();
    showOperations();
    Q_EMIT nodesChanged({}, QString());
    setStatus(QString());
    updateActions();
}

void ChangesPage::openPlan(const QString& path) {
    ChangePreviewRequest request = planRequest();
    request.planFile = path.toStdString();
    requestPreview(std::move(request), Pending::FromFile);
}

void ChangesPage::openJournal(const QString& path) {
    ChangePreviewRequest request = planRequest();
    request.undoJournal = path.toStdString();
    requestPreview(std::move(request), Pending::FromFile);
}

void ChangesPage::savePlan(const QString& path) {
    if (m_plan.operations.empty() && m_plan.empty()) {
        setStatus(tr("The plan is empty: nothing to save."), true);
        return;
    }
    ChangePreviewRequest request = planRequest();
    request.saveTo = path.toStdString();
    requestPreview(std::move(request), m_planFromFile ? Pending::FromFile : Pending::Made);
}

void ChangesPage::previewAgain() {
    if (m_plan.operations.empty() && m_plan.empty()) return;
    requestPreview(planRequest(), m_planFromFile ? Pending::FromFile : Pending::Made);
}

void ChangesPage::previewObjectChanges(const std::vector<ObjectKind>& kinds, const std::vector<ObjectChange>& changes) {
    if (m_planFromFile) {
        m_plan = ChangePlan{};
        m_planFromFile = false;
    }
    std::erase_if(m_plan.objectChanges, [&](const ObjectChange& change) {
        return std::find(kinds.begin(), kinds.end(), change.kind) != kinds.end();
    });
    m_plan.objectChanges.insert(m_plan.objectChanges.end(), changes.begin(), changes.end());
    if (m_plan.name.empty())
        m_plan.name =
            "console-" + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
    showOperations();
    requestPreview(planRequest(), Pending::Made);
}

ChangePreviewRequest ChangesPage::planRequest() const {
    ChangePreviewRequest request;
    request.plan = m_plan;
    request.resolve = !m_planFromFile;
    if (m_gangFlags) {
        const QString flags = m_gangFlags().trimmed();
        if (!flags.isEmpty())
            if (auto query = parsePlanQuery(flags.toStdString())) request.gang = std::move(*query);
    }
    return request;
}

void ChangesPage::requestPreview(ChangePreviewRequest request, Pending pending) {
    m_pending = pending;
    setStatus(tr("Previewing…"));
    m_session->requestChangePreview(request);
}

void ChangesPage::showOperations() {
    m_operations->clear();
    for (const LabelOperation& operation : m_plan.operations) m_operations->addItem(describeOperation(operation));
    if (m_planFromFile && m_plan.operations.empty() && !m_plan.labelChanges.empty())
        m_operations->addItem(tr("%n label change(s) with the values they expect (from a file or a journal)", nullptr,
                                 int(m_plan.labelChanges.size())));
    for (const ObjectChange& change : m_plan.objectChanges) m_operations->addItem(qs(change.describe()));
}

void ChangesPage::showPreview(const ChangePreviewPtr& preview) {
    if (!preview->error.empty()) {
        if (m_pending == Pending::Added && !m_plan.operations.empty()) {
            m_plan.operations.pop_back(); // it did not resolve: the plan stays as it was
            showOperations();
        }
        setStatus(tr("Not previewed: %1").arg(qs(preview->error)), true);
        return;
    }
    m_planFromFile = m_pending == Pending::FromFile;
    m_preview = preview;
    m_plan = preview->plan;
    showOperations();
    m_model->setPreview(preview);
    m_changes->resizeColumnsToContents();
    m_topology->setPlainText(qs(preview->text));
    QStringList objectDiffs;
    for (const ObjectChange& change : preview->plan.objectChanges) objectDiffs << qs(objectDiffText(change, false));
    m_objects->setPlainText(objectDiffs.join(QLatin1Char('\n')));
    m_tabs->setTabText(m_tabs->indexOf(m_objects), preview->plan.objectChanges.empty()
                                                       ? tr("&Objects")
                                                       : tr("&Objects (%1)").arg(preview->plan.objectChanges.size()));
    if (preview->plan.labelChanges.empty() && !preview->plan.objectChanges.empty() && m_tabs->currentIndex() == 0)
        m_tabs->setCurrentWidget(m_objects); // nothing on the Labels tab to look at

    m_risks->clear();
    const DiffColours colours = diffColours(palette());
    const auto risk = [&](const QString& text, bool severe) {
        auto* item = new QListWidgetItem(text, m_risks);
        if (severe) item->setForeground(colours.problem);
    };
    for (const std::string& drift : preview->drift)
        risk(tr("Drift: %1 (an apply is refused until the plan is previewed again)").arg(qs(drift)), true);
    const TopologyDiff& diff = preview->diff;
    for (const std::string& problem : diff.objectProblems)
        risk(tr("Refused: %1 (an apply is refused until the plan is changed)").arg(qs(problem)), true);
    for (const std::string& objectRisk : diff.objectRisks) risk(qs(objectRisk), false);
    for (const TopologyDiff::Stranded& stranded : diff.stranded)
        risk(tr("Strands %1: %n running pod(s) no longer match their nodeSelector or node affinity (%2)", nullptr, int(stranded.pods))
                 .arg(qs(stranded.workload), qs(stranded.example)),
             true);
    for (const TopologyDiff::OwnedElsewhere& owned : diff.ownedElsewhere)
        risk(tr("Label %1 on %n node(s) is managed by %2, which is likely to put it back (node %3)", nullptr, int(owned.nodes))
                 .arg(qs(owned.key), qs(owned.manager), qs(owned.example)),
             true);
    if (!preview->relabelFaithful) risk(qs(preview->relabelCheck), true);
    for (const std::string& domain : diff.nvlinkSplit)
        risk(tr("NVLink domain %1 would span more than one rack").arg(qs(domain)), true);
    if (!diff.leftLevelCapacity.empty())
        risk(tr("%n node(s) lose a level label and leave Kueue TAS capacity: %1", nullptr, int(diff.leftLevelCapacity.size()))
                 .arg(someOf(diff.leftLevelCapacity)),
             true);
    if (!diff.domainsSplit.empty())
        risk(tr("%n domain(s) split: %1", nullptr, int(diff.domainsSplit.size())).arg(someOf(diff.domainsSplit)), false);
    if (!diff.domainsMerged.empty())
        risk(tr("%n domain(s) merged: %1", nullptr, int(diff.domainsMerged.size())).arg(someOf(diff.domainsMerged)), false);
    if (preview->gang)
        for (const PlacementResult& before : preview->gang->before)
            if (const PlacementResult* after = preview->gang->afterOf(before.engine); after && before.feasible && !after->feasible)
                risk(tr("The planner's gang fits now under %1 and would not after the plan").arg(qs(before.engine)), true);
    if (m_risks->count() == 0)
        risk(tr("No risk found: no running workload loses its nodes' labels, no label another manager owns is changed, "
                "no NVLink domain crosses racks, no node leaves Kueue TAS capacity."),
             false);
    const auto risks = int(diff.objectProblems.size() + diff.objectRisks.size() + preview->drift.size() +
                           diff.stranded.size() + diff.ownedElsewhere.size() + diff.nvlinkSplit.size()) +
                       (diff.leftLevelCapacity.empty() ? 0 : 1) + (preview->relabelFaithful ? 0 : 1);
    m_tabs->setTabText(m_tabs->indexOf(m_risks), risks ? tr("&Risks (%1)").arg(risks) : tr("&Risks"));

    m_gang->setRowCount(0);
    if (preview->gang) {
        m_gangNote->setText(tr("The planner's gang (%1), dry-run on the cluster now and with the plan made:")
                                .arg(m_gangFlags ? m_gangFlags() : QString()));
        for (const PlacementResult& before : preview->gang->before) {
            const int row = m_gang->rowCount();
            m_gang->insertRow(row);
            const PlacementResult* after = preview->gang->afterOf(before.engine);
            m_gang->setItem(row, EngineColumn, new QTableWidgetItem(qs(before.engine)));
            auto* beforeItem = new QTableWidgetItem(qs(placementVerdict(&before)));
            beforeItem->setToolTip(beforeItem->text());
            m_gang->setItem(row, BeforeColumn, beforeItem);
            auto* afterItem = new QTableWidgetItem(qs(placementVerdict(after)));
            afterItem->setToolTip(afterItem->text());
            if (after && before.feasible != after->feasible) afterItem->setForeground(after->feasible ? colours.good : colours.problem);
            m_gang->setItem(row, AfterColumn, afterItem);
        }
        for (const auto& [engine, why] : preview->gang->skipped) {
            const int row = m_gang->rowCount();
            m_gang->insertRow(row);
            m_gang->setItem(row, EngineColumn, new QTableWidgetItem(qs(engine)));
            m_gang->setItem(row, BeforeColumn, new QTableWidgetItem(tr("not run: %1").arg(qs(why))));
            m_gang->setItem(row, AfterColumn, new QTableWidgetItem(QString()));
        }
    } else {
        m_gangNote->setText(preview->gangError.empty()
                                ? tr("Plan a gang in the Planner (F2) to see its placement before and after the plan.")
                                : tr("The planner's gang does not run: %1").arg(qs(preview->gangError)));
    }

    const std::size_t changes = preview->plan.labelChanges.size();
    const std::size_t objects = preview->plan.objectChanges.size();
    QStringList parts;
    if (changes)
        parts << tr("%n label change(s)", nullptr, int(changes)) +
                     tr(" on %n node(s)", nullptr, int(nodesOf(preview->plan)));
    if (objects) parts << tr("%n object change(s)", nullptr, int(objects));
    QString status = parts.isEmpty() ? tr("The plan changes nothing on %1.").arg(m_sourceName)
                                     : parts.join(QStringLiteral(", ")) + QLatin1Char('.');
    if (!diff.objectProblems.empty()) status += QLatin1Char(' ') + tr("The cluster would refuse it: see Risks.");
    if (!preview->saved.empty()) status += QLatin1Char(' ') + tr("Saved to %1.").arg(qs(preview->saved));
    if (!preview->cannotApply.empty()) status += QLatin1Char(' ') + tr("Preview only: %1.").arg(qs(preview->cannotApply));
    setStatus(status, !preview->drift.empty() || !diff.objectProblems.empty());
    Q_EMIT nodesChanged(preview->nodes, !preview->nodes.empty() ? tr("changed by the plan (%n node(s))", nullptr,
                                                                     int(preview->nodes.size()))
                                                                : QString());
    updateActions();
    Q_EMIT previewShown();
}

void ChangesPage::updateActions() {
    const bool previewed = m_preview && !m_preview->plan.empty();
    const bool kube = m_preview && m_preview->cannotApply.empty();
    QString why; // why apply is off
    if (m_applying) why = tr("An apply is running");
    else if (!previewed) why = tr("Preview a plan that changes something first");
    else if (!kube) why = qs(m_preview->cannotApply);
    else if (!m_preview->drift.empty()) why = tr("The cluster has drifted from the plan: preview it again");
    else if (!m_preview->diff.objectProblems.empty())
        why = tr("The cluster would refuse the plan's objects: see Risks");
    m_dryRun->setEnabled(why.isEmpty());
    m_dryRun->setToolTip(why.isEmpty() ? tr("Every node's patch sent with dryRun=All: the server checks it and changes nothing") : why);
    if (why.isEmpty() && !m_writes->isChecked()) why = tr("Writes to %1 are off: allow them above first").arg(m_sourceName);
    m_apply->setEnabled(why.isEmpty());
    m_apply->setText(kube && m_preview ? tr("&Apply to %1").arg(qs(m_preview->target)) : tr("&Apply"));
    m_apply->setToolTip(why.isEmpty() ? tr("Sends the plan in batches; a conflict stops it, and nothing is overwritten") : why);
    m_writes->setEnabled(!m_applying && (!m_preview || m_preview->cannotApply.empty()));
    m_cancel->setEnabled(m_applying);
    m_previewAgain->setEnabled(!m_applying && (!m_plan.operations.empty() || !m_plan.empty()));
    m_add->setEnabled(!m_applying);
    m_relabel->setEnabled(!m_applying);
    m_undo->setEnabled(!m_applying && m_journals->currentRow() >= 0);
}

void ChangesPage::dryRunOnServer() { startApply(true); }

void ChangesPage::apply() { startApply(false); }

void ChangesPage::startApply(bool dryRunOnly) {
    updateActions();
    if (!(dryRunOnly ? m_dryRun : m_apply)->isEnabled()) return;
    ApplyRequest request;
    request.plan = m_preview->plan;
    request.dryRunOnly = dryRunOnly;
    request.batchSize = m_batchSize;
    if (!dryRunOnly) {
        const ChangePlan& plan = request.plan;
        const QString target = qs(m_preview->target);
        const QString labels = tr("Apply %n label change(s)", nullptr, int(plan.labelChanges.size()));
        const QString what =
            plan.objectChanges.empty()
                ? labels + tr(" on %n node(s) to %1?", nullptr, int(nodesOf(plan))).arg(target)
            : plan.labelChanges.empty()
                ? tr("Apply %n object change(s) to %1?", nullptr, int(plan.objectChanges.size())).arg(target)
                : labels + tr(" on %n node(s)", nullptr, int(nodesOf(plan))) +
                      tr(" and %n object change(s)", nullptr, int(plan.objectChanges.size())) + tr(" to %1?").arg(target);
        const QString question =
            what + QStringLiteral("\n\n") +
            tr("The server checks every change first; a conflict stops the apply. Undo is in the Journal tab.");
        if (!m_confirm(question)) return;
        request.journalFile = journalPathFor(request.plan).toStdString();
    }
    m_applying = true;
    m_progress->setRange(0, 0); // busy until the first batch
    m_progress->show();
    setStatus(dryRunOnly ? tr("Dry run on %1…").arg(qs(m_preview->target)) : tr("Applying to %1…").arg(qs(m_preview->target)));
    updateActions();
    m_session->requestApply(request);
}

void ChangesPage::cancel() {
    if (!m_applying) return;
    m_session->cancelApply();
    setStatus(tr("Cancelling after the batch in flight…"));
}

void ChangesPage::showProgress(quint64 done, quint64 total) {
    if (!m_applying) return;
    m_progress->setRange(0, int(total));
    m_progress->setValue(int(done));
}

void ChangesPage::showApplied(const ApplyAnswerPtr& answer) {
    if (!m_applying) return;
    m_applying = false;
    m_progress->hide();
    const ApplyResult& result = answer->result;
    const ChangeJournal& journal = result.journal;
    QStringList lines;
    bool problem = true;
    if (!answer->refused.empty()) {
        lines << tr("Nothing was sent: %1").arg(qs(answer->refused));
    } else {
        switch (result.stage) {
        case ApplyResult::Stage::DryRunRefused:
            lines << tr("The server's dry run refused %n node(s); nothing was applied:", nullptr, int(result.dryRunRefusals.size()));
            break;
        case ApplyResult::Stage::DryRunPassed:
            lines << tr("The server's dry run passed: all %n node patch(es) would apply to %1; nothing was changed.", nullptr,
                        int(result.nodes))
                         .arg(qs(answer->target));
            problem = false;
            break;
        case ApplyResult::Stage::Applied:
            // Said as what the plan changes: labels, objects, or both.
            lines << (journal.objectChanges.empty() ? tr("Applied %n label change(s) to %1.", nullptr,
                                                         int(journal.count(ChangeOutcome::Applied)))
                      : journal.changes.empty()     ? tr("Applied %n object change(s) to %1.", nullptr,
                                                         int(journal.count(ChangeOutcome::Applied)))
                                                    : tr("Applied %n change(s) to %1.", nullptr,
                                                         int(journal.count(ChangeOutcome::Applied))))
                         .arg(qs(answer->target));
            problem = false;
            break;
        case ApplyResult::Stage::Stopped:
            lines << (result.cancelled ? tr("Cancelled: %1 of %2 changes were applied before it stopped.")
                                       : tr("Stopped at a refusal: %1 of %2 changes were applied, the rest not sent."))
                         .arg(journal.count(ChangeOutcome::Applied))
                         .arg(journal.changes.size() + journal.objectChanges.size());
            break;
        }
        for (const auto& [node, said] : answer->refusals) lines << QStringLiteral("  %1: %2").arg(qs(node), qs(said));
        if (!answer->journalFile.empty()) lines << tr("Journal: %1").arg(qs(answer->journalFile));
        if (!answer->journalProblem.empty()) lines << tr("The journal could not be written: %1").arg(qs(answer->journalProblem));
    }
    m_serverAnswer->setPlainText(lines.join(QLatin1Char('\n')));
    setStatus(lines.front() + (lines.size() > 1 ? QLatin1Char(' ') + tr("(details in the Journal tab)") : QString()), problem);

    if (!answer->journalFile.empty()) {
        m_journalEntries.push_back(journal);
        auto* item = new QListWidgetItem(tr("%1 — %2 of %3 applied, %4")
                                             .arg(qs(journal.plan))
                                             .arg(journal.count(ChangeOutcome::Applied))
                                             .arg(journal.changes.size() + journal.objectChanges.size())
                                             .arg(qs(journal.started)),
                                         m_journals);
        item->setToolTip(qs(answer->journalFile));
        m_journals->setCurrentItem(item);
    }
    if (answer->refused.empty() && result.stage == ApplyResult::Stage::Applied) {
        // Done: the cluster holds the plan now, so a preview of it would find nothing to change.
        clearPlan();
        setStatus(lines.front());
    }
    if (!answer->refused.empty() || result.stage != ApplyResult::Stage::DryRunPassed) m_tabs->setCurrentIndex(m_tabs->count() - 1);
    updateActions();
    Q_EMIT applyDone();
}

void ChangesPage::undoSelected() {
    const int row = m_journals->currentRow();
    if (row < 0 || row >= int(m_journalEntries.size())) return;
    ChangePlan undo = undoPlan(m_journalEntries[std::size_t(row)]);
    if (undo.empty()) {
        setStatus(tr("That apply changed nothing: there is nothing to undo."), true);
        return;
    }
    m_plan = std::move(undo);
    m_planFromFile = true;
    showOperations();
    requestPreview(planRequest(), Pending::FromFile);
}

QString ChangesPage::journalPathFor(const ChangePlan& plan) const {
    QString name = qs(plan.name.empty() ? std::string("change-plan") : plan.name);
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return QDir(m_journalFolder)
        .filePath(name + QLatin1Char('-') + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")) +
                  QStringLiteral(".journal.yaml"));
}

} // namespace topodeck
