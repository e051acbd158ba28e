#include "views/pages/planner_panel.h"

#include "core/placement/reports/placement_report.h"
#include "models/plan_result_model.h"
#include "models/plan_trace_model.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPromise>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QThreadPool>
#include <QTreeView>
#include <QVBoxLayout>

namespace topodeck {

namespace {

constexpr int kRerunDelayMs = 500;   // a live cluster changes often; one re-run per quiet half second
constexpr int kMaxPods = 10'000'000; // as --pods takes

QString verdictText(const PlacementResult& result) {
    if (result.feasible) return QObject::tr("fits");
    return QObject::tr("does not fit");
}

// The local file a drag carries, or empty.
QString droppedFile(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) return url.toLocalFile();
    return {};
}

// The paste area: a file dropped on it is read as the manifest (through the panel, which checks
// its size and reads it off the GUI thread), not inserted as its URL.
class ManifestEdit : public QPlainTextEdit {
public:
    ManifestEdit(PlannerPanel* panel, QWidget* parent) : QPlainTextEdit(parent), m_panel(panel) {}

protected:
    bool canInsertFromMimeData(const QMimeData* source) const override {
        return !droppedFile(source).isEmpty() || QPlainTextEdit::canInsertFromMimeData(source);
    }
    void insertFromMimeData(const QMimeData* source) override {
        if (const QString file = droppedFile(source); !file.isEmpty())
            m_panel->loadManifestFile(file);
        else
            QPlainTextEdit::insertFromMimeData(source);
    }

private:
    PlannerPanel* m_panel;
};

QComboBox* levelCombo(QWidget* parent, const QString& name) {
    auto* combo = new QComboBox(parent);
    combo->setEditable(true);
    combo->setInsertPolicy(QComboBox::NoInsert);
    combo->setAccessibleName(name);
    combo->setMinimumContentsLength(8);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    return combo;
}

QSpinBox* countSpin(QWidget* parent, const QString& name, const QString& none) {
    auto* spin = new QSpinBox(parent);
    spin->setRange(0, kMaxPods);
    spin->setSpecialValueText(none); // 0: the flag is not given
    spin->setAccessibleName(name);
    spin->setKeyboardTracking(true);
    return spin;
}

} // namespace

PlannerPanel::PlannerPanel(ClusterSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_results(new PlanResultModel(this)),
      m_traceModel(new PlanTraceModel(this)) {
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    // The flags line is the panel's first line edit and its focus proxy: opening the planner from
    // the keyboard lands there.
    m_flags = new QLineEdit(this);
    m_flags->setPlaceholderText(tr("--pods 16 --request nvidia.com/gpu=4 --required rack --compare"));
    m_flags->setToolTip(tr("topodeckctl plan's flags: --pods, --request, --required/--preferred LEVEL, --engine or "
                           "--compare, --sbatch \"ARGS\", --slice-level/--slice-size, --drain NODE|DOMAIN, …\n"
                           "The fields above edit it; flags they do not show stay as typed."));
    m_flags->setAccessibleName(tr("Plan flags"));
    setFocusProxy(m_flags);
    QWidget* form = buildForm();
    layout->addWidget(form);

    auto* lines = new QFormLayout;
    lines->addRow(tr("Fla&gs:"), m_flags);
    m_manifest = new ManifestEdit(this, this);
    m_manifest->setPlaceholderText(tr("Or paste a manifest (Job, JobSet, PyTorchJob, LeaderWorkerSet, Volcano Job) "
                                      "or an sbatch line / batch script here, or drop its file"));
    m_manifest->setTabChangesFocus(true);
    m_manifest->setMaximumHeight(110);
    m_manifest->setAccessibleName(tr("Pasted manifest"));
    lines->addRow(tr("&Manifest:"), m_manifest);
    layout->addLayout(lines);

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
    m_engines = new QTreeView(results);
    m_engines->setModel(m_results);
    m_engines->setRootIsDecorated(false);
    m_engines->setUniformRowHeights(true);
    m_engines->setAllColumnsShowFocus(true);
    m_engines->setAccessibleName(tr("Engines"));
    m_engines->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_engines->header()->setStretchLastSection(true);
    m_trace = new QTreeView(results);
    m_trace->setModel(m_traceModel);
    m_trace->setRootIsDecorated(false);
    m_trace->setWordWrap(true);
    m_trace->setAllColumnsShowFocus(true);
    m_trace->setAccessibleName(tr("Trace"));
    m_trace->header()->setSectionResizeMode(PlanTraceModel::LevelColumn, QHeaderView::ResizeToContents);
    m_trace->header()->setSectionResizeMode(PlanTraceModel::DomainColumn, QHeaderView::ResizeToContents);
    m_trace->header()->setStretchLastSection(true);
    results->setStretchFactor(0, 1);
    results->setStretchFactor(1, 2);
    layout->addWidget(results, 1);

    // Top to bottom, left to right, as the panel reads.
    QWidget* order[] = {m_pods,  m_request,  m_engine, m_required, m_preferred, m_sliceSize, m_sliceLevel, m_sbatch,
                        m_flags, m_manifest, m_run,    copy,       save,        clearButton, m_engines,    m_trace};
    for (std::size_t i = 1; i < std::size(order); ++i) setTabOrder(order[i - 1], order[i]);

    m_rerun.setSingleShot(true);
    m_rerun.setInterval(kRerunDelayMs);
    connect(&m_rerun, &QTimer::timeout, this, &PlannerPanel::run);
    connect(m_flags, &QLineEdit::returnPressed, this, &PlannerPanel::run);
    connect(m_flags, &QLineEdit::textChanged, this, [this] {
        if (!m_syncing) readFields();
    });
    connect(m_run, &QPushButton::clicked, this, &PlannerPanel::run);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(commandLine()); });
    connect(save, &QPushButton::clicked, this, &PlannerPanel::saveJson);
    connect(clearButton, &QPushButton::clicked, this, &PlannerPanel::clear);
    connect(m_session, &ClusterSession::planAnswered, this, &PlannerPanel::showAnswer);
    connect(m_engines->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showEngine(current.isValid() ? current.row() : -1); });
    auto activateTrace = [this](const QModelIndex& index) {
        if (const QString path = m_traceModel->pathAt(index.row()); index.isValid() && !path.isEmpty())
            Q_EMIT pathActivated(path);
    };
    connect(m_trace, &QTreeView::activated, this, activateTrace);
    connect(m_trace->selectionModel(), &QItemSelectionModel::currentRowChanged, this, activateTrace);
    refreshLevelChoices();
}

QWidget* PlannerPanel::buildForm() {
    auto* form = new QWidget(this);
    auto* grid = new QGridLayout(form);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    // The fields are the panel's own children, after the flags line (see the constructor).
    m_pods = countSpin(this, tr("Pods"), tr("—"));
    m_pods->setToolTip(tr("Pods in the gang (--pods); — leaves it to the flags, a manifest or --sbatch"));
    m_request = new QLineEdit(this);
    m_request->setPlaceholderText(tr("nvidia.com/gpu=4,cpu=32"));
    m_request->setToolTip(tr("Per-pod requests (--request RESOURCE=QUANTITY,...)"));
    m_request->setAccessibleName(tr("Per-pod request"));
    m_engine = new QComboBox(this);
    m_engine->setAccessibleName(tr("Engine"));
    m_engine->addItem(tr("as written"), QString());
    m_engine->setItemData(0,
                          tr("The engine the request is written for: an sbatch line means Slurm, a Volcano or KAI "
                             "manifest that scheduler, else Kueue"),
                          Qt::ToolTipRole);
    for (const PlacementEngine* engine : placementEngines()) {
        const QString name = QString::fromUtf8(engine->name().data(), qsizetype(engine->name().size()));
        m_engine->addItem(name, name);
    }
    m_engine->addItem(tr("all (--compare)"), QStringLiteral("compare"));
    m_required = levelCombo(this, tr("Required level"));
    m_required->setToolTip(tr("All pods inside one domain of this level (--required; a level name or label key)"));
    m_preferred = levelCombo(this, tr("Preferred level"));
    m_preferred->setToolTip(tr("Inside one domain of this level if possible (--preferred)"));
    m_sliceSize = countSpin(this, tr("Slice size"), tr("—"));
    m_sliceSize->setToolTip(tr("Pods per slice (--slice-size): a Kueue slice, a KAI segment, a Volcano partition"));
    m_sliceLevel = levelCombo(this, tr("Slice level"));
    m_sliceLevel->setToolTip(tr("Each slice inside one domain of this level (--slice-level)"));
    m_sbatch = new QLineEdit(this);
    m_sbatch->setPlaceholderText(tr("-N 16 --gres=gpu:4 --switches=1"));
    m_sbatch->setToolTip(tr("An sbatch command line (--sbatch \"ARGS\"), or options added to a pasted batch script"));
    m_sbatch->setAccessibleName(tr("Slurm flags"));

    auto addLabelled = [&](int row, int column, const QString& text, QWidget* field) {
        auto* label = new QLabel(text, form);
        label->setBuddy(field);
        grid->addWidget(label, row, column * 2);
        grid->addWidget(field, row, column * 2 + 1);
    };
    addLabelled(0, 0, tr("&Pods:"), m_pods);
    addLabelled(0, 1, tr("Per p&od:"), m_request);
    addLabelled(1, 0, tr("&Engine:"), m_engine);
    addLabelled(2, 0, tr("&Required:"), m_required);
    addLabelled(2, 1, tr("Pre&ferred:"), m_preferred);
    addLabelled(3, 0, tr("Sl&ices of:"), m_sliceSize);
    addLabelled(3, 1, tr("pods in &each:"), m_sliceLevel);
    auto* slurmLabel = new QLabel(tr("Sl&urm:"), form);
    slurmLabel->setBuddy(m_sbatch);
    grid->addWidget(slurmLabel, 4, 0);
    grid->addWidget(m_sbatch, 4, 1, 1, 3);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 2);

    connect(m_pods, &QSpinBox::valueChanged, this,
            [this](int pods) { setFlag("pods", pods > 0 ? QStringList{QString::number(pods)} : QStringList{}); });
    connect(m_request, &QLineEdit::textEdited, this, [this](const QString& text) {
        setFlag("request", text.trimmed().isEmpty() ? QStringList{} : QStringList{text.trimmed()});
    });
    connect(m_engine, &QComboBox::activated, this, [this](int index) {
        const QString engine = m_engine->itemData(index).toString();
        const bool compare = engine == QLatin1String("compare");
        setFlag("compare", compare ? QStringList{QString()} : QStringList{});
        setFlag("engine", compare || engine.isEmpty() ? QStringList{} : QStringList{engine});
    });
    const std::pair<QComboBox*, const char*> levels[] = {
        {m_required, "required"}, {m_preferred, "preferred"}, {m_sliceLevel, "slice-level"}};
    for (const auto& [combo, flag] : levels)
        connect(combo, &QComboBox::currentTextChanged, this, [this, name = flag](const QString& text) {
            setFlag(name, text.trimmed().isEmpty() ? QStringList{} : QStringList{text.trimmed()});
        });
    connect(m_sliceSize, &QSpinBox::valueChanged, this,
            [this](int size) { setFlag("slice-size", size > 0 ? QStringList{QString::number(size)} : QStringList{}); });
    connect(m_sbatch, &QLineEdit::textEdited, this, [this](const QString& text) {
        setFlag("sbatch", text.trimmed().isEmpty() ? QStringList{} : QStringList{text.trimmed()});
    });
    // Enter in any field runs the dry-run, as in the flags line.
    for (QLineEdit* edit :
         {m_request, m_sbatch, m_required->lineEdit(), m_preferred->lineEdit(), m_sliceLevel->lineEdit()})
        connect(edit, &QLineEdit::returnPressed, this, &PlannerPanel::run);
    for (QSpinBox* spin : {m_pods, m_sliceSize})
        connect(spin, &QSpinBox::editingFinished, this, [this, spin] {
            if (spin->hasFocus()) run(); // Enter, not leaving the field
        });
    return form;
}

void PlannerPanel::setFlag(const char* name, const QStringList& values) {
    if (m_syncing) return;
    std::vector<std::string> list;
    for (const QString& value : values) list.push_back(value.toStdString());
    auto line = withPlanFlag(m_flags->text().toStdString(), name, list);
    if (!line) {
        setVerdict(tr("⚠ the flags line cannot be edited from the form: %1")
                       .arg(QString::fromStdString(line.error().message)));
        return;
    }
    m_syncing = true;
    m_flags->setText(QString::fromStdString(*line));
    m_syncing = false;
}

void PlannerPanel::readFields() {
    const std::string line = m_flags->text().toStdString();
    // The last value given counts, as for parsePlanQuery; an unreadable line leaves the form as it was.
    auto last = [&](const char* name) -> std::optional<QString> {
        auto values = planFlagValues(line, name);
        if (!values) return std::nullopt;
        return values->empty() ? QString() : QString::fromStdString(values->back());
    };
    const auto pods = last("pods");
    if (!pods) return;
    m_syncing = true;
    m_pods->setValue(pods->toInt()); // not a number: 0, shown as not given; the line keeps the text
    if (!m_request->hasFocus()) m_request->setText(last("request").value_or(QString()));
    if (!m_sbatch->hasFocus()) m_sbatch->setText(last("sbatch").value_or(QString()));
    m_sliceSize->setValue(last("slice-size").value_or(QString()).toInt());
    for (const auto& [combo, flag] : {std::pair{m_required, "required"}, std::pair{m_preferred, "preferred"},
                                      std::pair{m_sliceLevel, "slice-level"}}) {
        const QString level = last(flag).value_or(QString());
        if (combo->currentText() != level) combo->setCurrentText(level);
    }
    const auto engines = planFlagValues(line, "engine");
    const auto compare = planFlagValues(line, "compare");
    QString engine;
    if (compare && !compare->empty())
        engine = QStringLiteral("compare");
    else if (engines && engines->size() == 1)
        engine = QString::fromStdString(engines->front());
    // Several --engine flags: no one choice says that, so none is shown.
    const int index = engines && engines->size() > 1 && engine.isEmpty() ? -1 : m_engine->findData(engine);
    m_engine->setCurrentIndex(index);
    m_syncing = false;
}

void PlannerPanel::refreshLevelChoices() {
    QStringList names;
    if (const ClusterSnapshotPtr snapshot = m_session->latestSnapshot())
        for (const TopologyLevel& level : snapshot->index.spec().levels) names << QString::fromStdString(level.name);
    if (names == m_levelNames && m_required->count() > 0) return;
    m_levelNames = names;
    m_syncing = true;
    for (QComboBox* combo : {m_required, m_preferred, m_sliceLevel}) {
        const QString text = combo->currentText();
        combo->clear();
        combo->addItem(QString());
        combo->addItems(names);
        combo->setCurrentText(text);
    }
    m_syncing = false;
}

void PlannerPanel::setFlags(const QString& flags) {
    m_flags->setText(flags);
}

QString PlannerPanel::flags() const {
    return m_flags->text();
}

QString PlannerPanel::manifestText() const {
    return m_manifest->toPlainText();
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
    m_results->setAnswer(nullptr);
    m_traceModel->clear();
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
    refreshLevelChoices();
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
    m_results->setAnswer(answer);
    m_traceModel->clear();
    if (!answer->error.empty()) {
        setVerdict(tr("⚠ %1").arg(QString::fromStdString(answer->error)));
        Q_EMIT placementShown({}, QString());
        Q_EMIT answerShown();
        return;
    }
    const PlanOutcome& outcome = answer->outcome;
    int fitting = 0;
    for (const PlacementResult& result : outcome.results) fitting += result.feasible ? 1 : 0;
    const QString gang = QString::fromStdString(describeGang(outcome.gang));
    setVerdict(outcome.results.size() == 1
                   ? tr("%1: %2").arg(gang, verdictText(outcome.results.front()))
                   : tr("%1: fits under %2 of %3 engines").arg(gang).arg(fitting).arg(outcome.results.size()));
    if (!outcome.results.empty()) {
        {
            const QSignalBlocker block(m_engines->selectionModel());
            m_engines->setCurrentIndex(m_results->index(0, 0));
        }
        showEngine(0);
    }
    Q_EMIT answerShown();
}

void PlannerPanel::showEngine(int row) {
    const PlacementResult* result = m_results->result(row);
    if (!m_answer || !result) {
        m_traceModel->clear();
        return;
    }
    m_traceModel->setResult(m_answer, row, m_session->latestSnapshot());
    const auto& nodes = m_answer->nodePods[std::size_t(row)];
    Q_EMIT placementShown(
        nodes,
        tr("%1: %2 (%3 nodes)").arg(QString::fromStdString(result->engine), verdictText(*result)).arg(nodes.size()));
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

void PlannerPanel::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedFile(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void PlannerPanel::dropEvent(QDropEvent* event) {
    const QString file = droppedFile(event->mimeData());
    if (file.isEmpty()) return;
    event->acceptProposedAction();
    loadManifestFile(file);
}

void PlannerPanel::loadManifestFile(const QString& path) {
    const QFileInfo info(path);
    const QString name = info.fileName();
    QString refused;
    if (!info.exists())
        refused = tr("⚠ %1: no such file").arg(name);
    else if (!info.isFile())
        refused = tr("⚠ %1 is not a file").arg(name);
    else if (info.size() > kMaxManifestBytes)
        refused =
            tr("⚠ %1 is %2: a manifest or batch script is at most %3")
                .arg(name, QLocale().formattedDataSize(info.size()), QLocale().formattedDataSize(kMaxManifestBytes));
    if (!refused.isEmpty()) {
        setVerdict(refused);
        Q_EMIT manifestLoaded(false);
        return;
    }
    // A file on a slow or network disk must not freeze the window: read it on the thread pool.
    const quint64 load = ++m_loads;
    setVerdict(tr("Reading %1…").arg(name));
    auto* watcher = new QFutureWatcher<std::pair<QByteArray, QString>>(this);
    // QThreadPool takes a copyable task; the promise is not.
    auto promise = std::make_shared<QPromise<std::pair<QByteArray, QString>>>();
    watcher->setFuture(promise->future());
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, load] {
        watcher->deleteLater();
        if (load != m_loads) return; // a newer file was dropped since
        const auto [bytes, error] = watcher->result();
        manifestRead(path, bytes, error);
    });
    QThreadPool::globalInstance()->start([promise, path] {
        promise->start();
        QFile file(path);
        std::pair<QByteArray, QString> read;
        if (!file.open(QIODevice::ReadOnly))
            read.second = file.errorString();
        else
            read.first = file.read(kMaxManifestBytes + 1); // one more says it grew past the limit
        promise->addResult(std::move(read));
        promise->finish();
    });
}

void PlannerPanel::manifestRead(const QString& path, const QByteArray& bytes, const QString& error) {
    const QString name = QFileInfo(path).fileName();
    QString refused;
    if (!error.isEmpty())
        refused = tr("⚠ cannot read %1: %2").arg(name, error);
    else if (bytes.size() > kMaxManifestBytes)
        refused = tr("⚠ %1 is larger than %2").arg(name, QLocale().formattedDataSize(kMaxManifestBytes));
    else if (bytes.contains('\0'))
        refused = tr("⚠ %1 is not a text file").arg(name);
    if (!refused.isEmpty()) {
        setVerdict(refused);
        Q_EMIT manifestLoaded(false);
        return;
    }
    m_manifest->setPlainText(QString::fromUtf8(bytes));
    setVerdict(tr("Read %1. Press Ctrl+Return to dry-run it.").arg(name));
    Q_EMIT manifestLoaded(true);
}

} // namespace topodeck
