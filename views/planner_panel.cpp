#include "views/planner_panel.h"

#include "core/placement/placement_report.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace topodeck {

namespace {

constexpr int kRerunDelayMs = 500; // a live cluster changes often; one re-run per quiet half second

QString verdictText(const PlacementResult& result) {
    if (result.feasible) return QObject::tr("fits");
    return QObject::tr("does not fit");
}

QString chosenText(const PlacementResult& result) {
    QStringList parts;
    for (const ChosenDomain& chosen : result.chosen)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(chosen.level),
                                             QString::fromStdString(chosen.domain));
    return parts.join(QStringLiteral(" › "));
}

} // namespace

PlannerPanel::PlannerPanel(ClusterSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_flags = new QLineEdit(this);
    m_flags->setPlaceholderText(tr("--pods 16 --request nvidia.com/gpu=4 --required rack --compare"));
    m_flags->setToolTip(tr("topodeckctl plan's flags: --pods, --request, --required/--preferred LEVEL, --engine or "
                           "--compare, --sbatch \"ARGS\", --slice-level/--slice-size, --drain NODE|DOMAIN, …"));
    m_flags->setAccessibleName(tr("Plan flags"));
    form->addRow(tr("Fla&gs:"), m_flags);
    setFocusProxy(m_flags);
    m_manifest = new QPlainTextEdit(this);
    m_manifest->setPlaceholderText(tr("Or paste a manifest (Job, JobSet, PyTorchJob, LeaderWorkerSet, Volcano Job) "
                                      "or an sbatch line / batch script here"));
    m_manifest->setTabChangesFocus(true);
    m_manifest->setMaximumHeight(110);
    m_manifest->setAccessibleName(tr("Pasted manifest"));
    form->addRow(tr("&Manifest:"), m_manifest);
    layout->addLayout(form);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("&Dry-run"), this);
    m_run->setToolTip(tr("Place the gang as the scheduler would (Enter in the flags, or Ctrl+Return)"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    auto* copy = new QPushButton(tr("Copy as &Command"), this);
    copy->setToolTip(tr("Copy the equivalent topodeckctl plan command line"));
    auto* save = new QPushButton(tr("&Save JSON…"), this);
    save->setToolTip(tr("Save the answer as topodeckctl plan -o json prints it"));
    auto* clearButton = new QPushButton(tr("C&lear"), this);
    for (QPushButton* button : {m_run, copy, save, clearButton}) buttons->addWidget(button);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    m_verdict = new QLabel(this);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdict);
    setVerdict(tr("Describe a gang and press Enter."));

    auto* results = new QSplitter(Qt::Vertical, this);
    m_engines = new QTreeWidget(results);
    m_engines->setHeaderLabels({tr("Engine"), tr("Result"), tr("Pods"), tr("Nodes"), tr("Chosen")});
    m_engines->setRootIsDecorated(false);
    m_engines->setAccessibleName(tr("Engines"));
    m_engines->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_trace = new QTreeWidget(results);
    m_trace->setHeaderLabels({tr("Level"), tr("Domain"), tr("Why")});
    m_trace->setRootIsDecorated(false);
    m_trace->setWordWrap(true);
    m_trace->setAccessibleName(tr("Trace"));
    m_trace->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_trace->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    layout->addWidget(results, 1);

    m_rerun.setSingleShot(true);
    m_rerun.setInterval(kRerunDelayMs);
    connect(&m_rerun, &QTimer::timeout, this, &PlannerPanel::run);
    connect(m_flags, &QLineEdit::returnPressed, this, &PlannerPanel::run);
    connect(m_run, &QPushButton::clicked, this, &PlannerPanel::run);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(commandLine()); });
    connect(save, &QPushButton::clicked, this, &PlannerPanel::saveJson);
    connect(clearButton, &QPushButton::clicked, this, &PlannerPanel::clear);
    connect(m_session, &ClusterSession::planAnswered, this, &PlannerPanel::showAnswer);
    connect(m_engines, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item) { showEngine(item ? m_engines->indexOfTopLevelItem(item) : -1); });
    auto activateTrace = [this](QTreeWidgetItem* item) {
        if (item && !item->text(1).isEmpty()) Q_EMIT pathActivated(item->text(1));
    };
    connect(m_trace, &QTreeWidget::itemActivated, this, activateTrace);
    connect(m_trace, &QTreeWidget::currentItemChanged, this, activateTrace);
}

void PlannerPanel::setFlags(const QString& flags) {
    m_flags->setText(flags);
}

QString PlannerPanel::flags() const {
    return m_flags->text();
}

void PlannerPanel::run() {
    const QString pasted = m_manifest->toPlainText();
    const bool hasPaste = !pasted.trimmed().isEmpty();
    // A pasted manifest is the gang, as --manifest FILE is for topodeckctl; the flags add the rest.
    auto query = parsePlanQuery(m_flags->text().toStdString() + (hasPaste ? " --manifest pasted" : ""));
    if (!query) {
        setVerdict(tr("⚠ %1").arg(QString::fromStdString(query.error().message)));
        return;
    }
    if (hasPaste) query->manifestText = pasted.toStdString();
    m_asked = true;
    setVerdict(tr("Running the dry-run…"));
    m_session->requestPlan(*query);
}

void PlannerPanel::clear() {
    m_asked = false;
    m_rerun.stop();
    m_answer.reset();
    m_engines->clear();
    m_trace->clear();
    setVerdict(tr("Describe a gang and press Enter."));
    Q_EMIT placementShown({}, QString());
}

QString PlannerPanel::commandLine() const {
    QString line = QStringLiteral("topodeckctl plan ");
    if (!m_sourceFlags.isEmpty()) line += m_sourceFlags + QLatin1Char(' ');
    line += m_flags->text().trimmed();
    const QString pasted = m_manifest->toPlainText();
    if (pasted.trimmed().isEmpty()) return line;
    // The pasted text goes through standard input, so the line stands on its own.
    return QStringLiteral("%1 --manifest - <<'EOF'\n%2\nEOF").arg(line, pasted.trimmed());
}

void PlannerPanel::snapshotShown(std::uint64_t generation) {
    if (!m_asked || !m_answer || m_answer->generation == generation) return;
    setVerdict(m_verdictText, true);
    m_rerun.start();
}

void PlannerPanel::setVerdict(const QString& text, bool stale) {
    m_verdictText = text;
    m_verdict->setText(stale ? text + QLatin1Char('\n') + tr("(as of an earlier state of the cluster; re-running…)")
                             : text);
}

void PlannerPanel::showAnswer(const PlanAnswerPtr& answer) {
    if (!answer) return;
    m_answer = answer;
    m_engines->clear();
    m_trace->clear();
    if (!answer->error.empty()) {
        setVerdict(tr("⚠ %1").arg(QString::fromStdString(answer->error)));
        Q_EMIT placementShown({}, QString());
        Q_EMIT answerShown();
        return;
    }
    const PlanOutcome& outcome = answer->outcome;
    int fitting = 0;
    for (const PlacementResult& result : outcome.results) {
        std::int64_t pods = 0;
        for (const NodePods& node : result.nodes) pods += node.pods;
        auto* item = new QTreeWidgetItem(m_engines, {QString::fromStdString(result.engine), verdictText(result),
                                                     QString::number(pods), QString::number(result.nodes.size()),
                                                     chosenText(result)});
        item->setToolTip(1, QString::fromStdString(result.message));
        fitting += result.feasible ? 1 : 0;
    }
    for (const auto& [engine, why] : outcome.skipped)
        new QTreeWidgetItem(m_engines, {QString::fromStdString(engine), tr("not run"), QString(), QString(),
                                        QString::fromStdString(why)});
    const QString gang = QString::fromStdString(describeGang(outcome.gang));
    setVerdict(outcome.results.size() == 1
                   ? tr("%1: %2").arg(gang, verdictText(outcome.results.front()))
                   : tr("%1: fits under %2 of %3 engines").arg(gang).arg(fitting).arg(outcome.results.size()));
    if (!outcome.results.empty()) m_engines->setCurrentItem(m_engines->topLevelItem(0));
    Q_EMIT answerShown();
}

void PlannerPanel::showEngine(int row) {
    m_trace->clear();
    if (!m_answer || row < 0 || std::size_t(row) >= m_answer->outcome.results.size()) return;
    const PlacementResult& result = m_answer->outcome.results[std::size_t(row)];
    new QTreeWidgetItem(m_trace, {tr("message"), QString(), QString::fromStdString(result.message)});
    for (const std::string& note : result.notes)
        new QTreeWidgetItem(m_trace, {tr("note"), QString(), QString::fromStdString(note)});
    for (const TraceEntry& entry : result.trace) {
        auto* item =
            new QTreeWidgetItem(m_trace, {QString::fromStdString(entry.level), QString::fromStdString(entry.domain),
                                          QString::fromStdString(entry.reason)});
        item->setToolTip(2, item->text(2));
        if (entry.taken) item->setText(0, tr("✓ %1").arg(item->text(0)));
    }
    const auto& nodes = m_answer->nodePods[std::size_t(row)];
    Q_EMIT placementShown(
        nodes,
        tr("%1: %2 (%3 nodes)").arg(QString::fromStdString(result.engine), verdictText(result)).arg(nodes.size()));
}

void PlannerPanel::saveJson() {
    if (!m_answer || m_answer->json.empty()) return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Dry-run"), QStringLiteral("plan.json"), tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_answer->json.data(), qint64(m_answer->json.size())) < 0)
        setVerdict(tr("⚠ cannot write %1: %2").arg(path, file.errorString()));
}

} // namespace topodeck
