#include "views/pages/what_if_panel.h"

#include "core/text/command_args.h"
#include "models/what_if_list_model.h"

#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStringListModel>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace topodeck {

namespace {

QToolButton* buttonFor(QAction* action, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

Result<std::vector<WhatIfStepText>> parseWhatIfSteps(const QString& words) {
    std::vector<WhatIfStepText> out;
    auto split = splitCommandWords(words.toStdString());
    if (!split) return split.error();
    for (std::size_t i = 0; i < split->size(); i += 2) {
        const std::string& flag = (*split)[i];
        WhatIfStep::Kind kind;
        if (flag == "--fail")
            kind = WhatIfStep::Kind::Fail;
        else if (flag == "--drain")
            kind = WhatIfStep::Kind::Drain;
        else if (flag == "--place")
            kind = WhatIfStep::Kind::Place;
        else
            return Error{"want --fail, --drain or --place, not \"" + flag + "\""};
        if (i + 1 >= split->size()) return Error{flag + " needs a value"};
        out.push_back({kind, QString::fromStdString((*split)[i + 1])});
    }
    return out;
}

WhatIfPanel::WhatIfPanel(ClusterSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_model(new WhatIfListModel(this)) {
    setAccessibleName(tr("What-if"));
    auto* layout = new QVBoxLayout(this);

    // Adding a step: its kind, then a target (or the planner's flags for Place).
    auto* addRow = new QHBoxLayout;
    m_kind = new QComboBox(this);
    m_kind->setAccessibleName(tr("Step kind"));
    m_kind->addItem(tr("Fail"), static_cast<int>(WhatIfStep::Kind::Fail));
    m_kind->addItem(tr("Drain"), static_cast<int>(WhatIfStep::Kind::Drain));
    m_kind->addItem(tr("Place"), static_cast<int>(WhatIfStep::Kind::Place));
    m_kind->setToolTip(tr("Fail: the nodes go NotReady and their pods are gone. Drain: no new pods there. "
                          "Place: a gang, given as the planner's flags"));
    addRow->addWidget(m_kind);
    m_target = new QLineEdit(this);
    m_target->setAccessibleName(tr("Step target"));
    m_target->setPlaceholderText(tr("node or domain, e.g. su-1/rack-1-02 (Place: --pods 8 -r nvidia.com/gpu=4)"));
    m_target->setClearButtonEnabled(true);
    m_completions = new QStringListModel(this);
    auto* completer = new QCompleter(m_completions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_target->setCompleter(completer);
    addRow->addWidget(m_target, 1);
    auto* add = new QPushButton(tr("&Add"), this);
    add->setToolTip(tr("Add the step at the end (Enter in the field)"));
    addRow->addWidget(add);
    auto* addGang = new QPushButton(tr("Add &Planner's Gang"), this);
    addGang->setToolTip(tr("Place the gang the planner's flags describe, as a step"));
    addRow->addWidget(addGang);
    layout->addLayout(addRow);
    connect(m_target, &QLineEdit::returnPressed, this, &WhatIfPanel::addFromField);
    connect(add, &QPushButton::clicked, this, &WhatIfPanel::addFromField);
    connect(addGang, &QPushButton::clicked, this, [this] {
        const QString flags = m_placeFlags ? m_placeFlags() : QString();
        if (flags.trimmed().isEmpty()) return setStatus(tr("The planner has no flags to place"), true);
        addPlaceStep(flags);
    });

    m_steps = new QTableView(this);
    m_steps->setModel(m_model);
    m_steps->setAccessibleName(tr("What-if steps"));
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    m_steps->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_steps->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_steps->horizontalHeader()->setSectionResizeMode(WhatIfListModel::KindColumn, QHeaderView::ResizeToContents);
    m_steps->horizontalHeader()->setSectionResizeMode(WhatIfListModel::TargetColumn, QHeaderView::Interactive);
    m_steps->horizontalHeader()->setStretchLastSection(true);
    m_steps->setColumnWidth(WhatIfListModel::TargetColumn, 220);
    m_steps->setWordWrap(false);
    m_steps->installEventFilter(this);
    layout->addWidget(m_steps, 2);
    // F2 edits the target, not the step number, wherever the row's current cell is.
    connect(m_steps->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (current.isValid() && current.column() != WhatIfListModel::TargetColumn)
            m_steps->setCurrentIndex(current.siblingAtColumn(WhatIfListModel::TargetColumn));
    });

    // Shortcuts on the list itself, so that Delete in the target field still deletes text.
    m_moveUp = new QAction(tr("Move &Up"), this);
    m_moveUp->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    m_moveDown = new QAction(tr("Move &Down"), this);
    m_moveDown->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    m_remove = new QAction(tr("&Remove"), this);
    m_remove->setShortcut(QKeySequence::Delete);
    for (QAction* action : {m_moveUp, m_moveDown, m_remove}) {
        action->setShortcutContext(Qt::WidgetShortcut);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')),
                                                         action->shortcut().toString(QKeySequence::NativeText)));
        m_steps->addAction(action);
    }
    connect(m_moveUp, &QAction::triggered, this, [this] { moveCurrent(-1); });
    connect(m_moveDown, &QAction::triggered, this, [this] { moveCurrent(1); });
    connect(m_remove, &QAction::triggered, this, &WhatIfPanel::removeCurrent);

    // Apply and Reset reach the whole window: the window's menu carries the same actions.
    m_apply = new QAction(tr("&Apply What-If"), this);
    m_apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_apply->setToolTip(tr("Show the cluster with the steps applied, in order (Ctrl+Return)"));
    m_reset = new QAction(tr("&Reset to Live"), this);
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Backspace));
    m_reset->setToolTip(tr("Show the live cluster again (Ctrl+Backspace)"));
    addAction(m_apply);
    addAction(m_reset);
    connect(m_apply, &QAction::triggered, this, &WhatIfPanel::apply);
    connect(m_reset, &QAction::triggered, this, &WhatIfPanel::reset);

    auto* buttons = new QHBoxLayout;
    for (QAction* action : {m_moveUp, m_moveDown, m_remove}) buttons->addWidget(buttonFor(action, this));
    buttons->addStretch(1);
    buttons->addWidget(buttonFor(m_reset, this));
    auto* applyButton = buttonFor(m_apply, this);
    buttons->addWidget(applyButton);
    layout->addLayout(buttons);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto* failuresTitle = new QLabel(tr("<b>Running gangs the failures break</b>"), this);
    layout->addWidget(failuresTitle);
    m_failures = new QTableWidget(0, FailureColumnCount, this);
    m_failures->setAccessibleName(tr("Failure impact"));
    m_failures->setHorizontalHeaderLabels(
        {tr("Gang"), tr("Fits again?"), tr("Lost pods"), tr("Engine"), tr("Kind"), tr("Why")});
    m_failures->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_failures->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_failures->verticalHeader()->hide();
    m_failures->horizontalHeader()->setStretchLastSection(true);
    m_failures->setWordWrap(false);
    m_failures->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(m_failures, 3);

    // Opening the page from the keyboard puts the keyboard in the target field.
    setFocusProxy(m_target);
    connect(m_session, &ClusterSession::whatIfAnswered, this, &WhatIfPanel::showAnswer);
    connect(m_session, &ClusterSession::whatIfCleared, this, &WhatIfPanel::showLive);
    showLive();
}

WhatIfPanel::~WhatIfPanel() = default;

void WhatIfPanel::setCompletionSnapshot(const ClusterSnapshotPtr& snapshot) {
    // Domain paths and node names change with the source, not with every update.
    if (!snapshot || snapshot->hypothetical() || (m_hasCompletions && snapshot->sourceEpoch == m_completionEpoch))
        return;
    m_completionEpoch = snapshot->sourceEpoch;
    m_hasCompletions = true;
    QStringList names;
    const TopologyIndex& index = snapshot->index;
    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (domain.alive && domain.level >= 0 && !domain.unlabelled)
            names << QString::fromStdString(index.pathName(id));
    }
    for (NodeId id = 0; id < snapshot->nodes.size(); ++id)
        if (const Node* node = snapshot->node(id)) names << QString::fromStdString(node->name);
    m_completions->setStringList(names);
}

bool WhatIfPanel::eventFilter(QObject* watched, QEvent* event) {
    // In the list F2 edits the step, as in every item view, before the window's F2 (the Planner)
    // can take it.
    if (watched == m_steps && event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_F2 && key->modifiers() == Qt::NoModifier) {
            event->accept();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString WhatIfPanel::statusText() const {
    return m_status->text();
}

void WhatIfPanel::addFromField() {
    const QString text = m_target->text().trimmed();
    if (text.isEmpty()) return;
    const auto kind = static_cast<WhatIfStep::Kind>(m_kind->currentData().toInt());
    if (kind == WhatIfStep::Kind::Place)
        addPlaceStep(text);
    else
        addTargetStep(kind, text);
    m_target->clear();
}

void WhatIfPanel::addPlaceStep(const QString& flags) {
    const int row = m_model->addStep(WhatIfStep::Kind::Place, flags);
    m_steps->setCurrentIndex(m_model->index(row, WhatIfListModel::TargetColumn));
    setStatus(tr("Step %1 added; Apply (Ctrl+Return) to see it").arg(row + 1));
}

void WhatIfPanel::addTargetStep(WhatIfStep::Kind kind, const QString& target) {
    const int row = m_model->addStep(kind, target);
    m_steps->setCurrentIndex(m_model->index(row, WhatIfListModel::TargetColumn));
    setStatus(tr("Step %1 added; Apply (Ctrl+Return) to see it").arg(row + 1));
}

bool WhatIfPanel::addSteps(const QString& words) {
    const auto parsed = parseWhatIfSteps(words);
    if (!parsed) {
        setStatus(QString::fromStdString(parsed.error().message), true);
        return false;
    }
    for (const WhatIfStepText& step : *parsed) m_model->addStep(step.kind, step.text);
    return true;
}

void WhatIfPanel::moveCurrent(int delta) {
    const QModelIndex current = m_steps->currentIndex();
    if (!current.isValid()) return;
    const int row = current.row();
    const int to = row + delta;
    if (to < 0 || to >= m_model->rowCount()) return;
    // moveRows names the row the moved one goes before.
    if (!m_model->moveRows(QModelIndex(), row, 1, QModelIndex(), delta > 0 ? to + 1 : to)) return;
    m_steps->setCurrentIndex(m_model->index(to, WhatIfListModel::TargetColumn));
}

void WhatIfPanel::removeCurrent() {
    const QModelIndex current = m_steps->currentIndex();
    if (!current.isValid()) return;
    const int row = current.row();
    m_model->removeRows(row, 1);
    if (m_model->rowCount() > 0)
        m_steps->setCurrentIndex(m_model->index(std::min(row, m_model->rowCount() - 1), WhatIfListModel::TargetColumn));
}

void WhatIfPanel::apply() {
    auto steps = m_model->whatIfSteps();
    if (!steps) return setStatus(QString::fromStdString(steps.error().message), true);
    if (steps->empty()) return setStatus(tr("Add a step first: Fail, Drain or Place"), true);
    m_model->clearOutcomes();
    setStatus(tr("Applying %1 step(s)…").arg(steps->size()));
    m_session->requestWhatIf(*steps);
}

void WhatIfPanel::reset() {
    m_session->clearWhatIf();
    showLive();
}

void WhatIfPanel::showAnswer(const WhatIfAnswerPtr& answer) {
    m_answer = answer;
    if (!answer->error.empty()) {
        setStatus(QString::fromStdString(answer->error), true);
        Q_EMIT answerShown();
        return;
    }
    m_model->setOutcomes(answer->steps);
    const QLocale locale;
    m_failures->setRowCount(static_cast<int>(answer->failures.size()));
    int row = 0;
    for (const GangFailure& gang : answer->failures) {
        const QString why = QString::fromStdString(gang.message);
        QString cells[FailureColumnCount];
        cells[GangColumn] = QString::fromStdString(gang.gang);
        cells[FitsColumn] = !gang.placedAgain ? tr("not judged") : gang.fits ? tr("yes") : tr("no");
        cells[LostColumn] = tr("%1 of %2").arg(locale.toString(gang.lostPods), locale.toString(gang.pods));
        cells[EngineColumn] = QString::fromStdString(gang.engine);
        cells[KindColumn] = QString::fromStdString(std::string(workloadKindName(gang.kind)));
        cells[WhyColumn] = why;
        for (int column = 0; column < FailureColumnCount; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (column == EngineColumn) item->setToolTip(QString::fromStdString(gang.engineReason));
            if (column == WhyColumn) item->setToolTip(why);
            if (column == GangColumn) item->setToolTip(cells[column]);
            if (column == FitsColumn)
                item->setForeground(gang.fits ? QColor(0x16, 0x80, 0x3d) : QColor(0xc0, 0x39, 0x2b));
            m_failures->setItem(row, column, item);
        }
        ++row;
    }
    m_failures->resizeColumnsToContents();
    // Long gang names elide, so the verdict stays in view in a narrow dock (the tooltip has it all).
    for (const auto& [column, widest] : {std::pair{GangColumn, 180}, std::pair{KindColumn, 110}})
        m_failures->setColumnWidth(column, std::min(m_failures->columnWidth(column), widest));
    std::size_t skipped = 0;
    for (const WhatIfStepOutcome& outcome : answer->steps) skipped += outcome.applied ? 0 : 1;
    const int steps = static_cast<int>(answer->steps.size());
    QString text = tr("Hypothetical: %1 applied — not the live cluster. Reset (Ctrl+Backspace)")
                       .arg(steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps));
    if (skipped > 0) text += tr("; %1 changed nothing (see Outcome)").arg(skipped);
    setStatus(text, skipped > 0);
    Q_EMIT answerShown();
}

void WhatIfPanel::showLive() {
    m_answer.reset();
    m_model->clearOutcomes();
    m_failures->setRowCount(0);
    setStatus(tr("Showing the live cluster. Add steps, then Apply (Ctrl+Return)."));
}

void WhatIfPanel::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color:#c0392b;") : QString());
}

} // namespace topodeck
