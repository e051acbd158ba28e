#include "views/pages/change_plan_editor.h"

#include "core/text/command_args.h"
#include "views/pages/changes_page.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

// The parts of the changes page speak in the page's translation context (ChangesPage::tr): the
// catalogue keeps the plural forms of its strings there, and a translator sees the page as one.

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString describeOperation(const LabelOperation& operation) {
    QStringList edits;
    for (const LabelEdit& edit : operation.edits)
        edits << qs(edit.value ? edit.key + '=' + *edit.value : edit.key + '-');
    return qs(operation.target.describe()) + QStringLiteral(": ") + edits.join(QLatin1Char(' '));
}

std::string utcStamp() {
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
}

} // namespace

ChangePlanEditor::ChangePlanEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buildFields());
    m_operations = new QListWidget;
    m_operations->setMinimumHeight(60);
    m_operations->setToolTip(ChangesPage::tr("The plan's operations, in the order they apply"));
    layout->addWidget(m_operations, 1);
    layout->addLayout(buildButtons());

    connect(m_add, &QPushButton::clicked, this, &ChangePlanEditor::addOperation);
    connect(m_relabel, &QPushButton::clicked, this, &ChangePlanEditor::makeRelabelPlan);
    for (QLineEdit* field : {m_relabelKeys, m_relabelRemove})
        connect(field, &QLineEdit::returnPressed, this, &ChangePlanEditor::makeRelabelPlan);
    for (QLineEdit* field : {m_target, m_labels})
        connect(field, &QLineEdit::returnPressed, this, &ChangePlanEditor::addOperation);
}

QLayout* ChangePlanEditor::buildFields() {
    auto* form = new QFormLayout;
    m_target = new QLineEdit;
    m_target->setPlaceholderText(ChangesPage::tr("node names, -l SELECTOR or --domain PATH"));
    m_target->setToolTip(ChangesPage::tr("Which nodes, as topodeckctl label names them: names, a label selector (-l), "
                                         "or every node of a domain (--domain su-1/rack-1-03)"));
    form->addRow(ChangesPage::tr("&Nodes:"), m_target);
    auto* labelsRow = new QHBoxLayout;
    m_labels = new QLineEdit;
    m_labels->setPlaceholderText(ChangesPage::tr("key=value key-"));
    m_labels->setToolTip(ChangesPage::tr("kubectl label's syntax: key=value sets, key- removes"));
    m_add = new QPushButton(ChangesPage::tr("A&dd"));
    m_add->setToolTip(ChangesPage::tr("Adds the edit to the plan and previews it (Enter)"));
    labelsRow->addWidget(m_labels, 1);
    labelsRow->addWidget(m_add);
    auto* labelsLabel = new QLabel(ChangesPage::tr("La&bels:"));
    labelsLabel->setBuddy(m_labels);
    form->addRow(labelsLabel, labelsRow);
    auto* relabelRow = new QHBoxLayout;
    m_relabelKeys = new QLineEdit;
    m_relabelKeys->setPlaceholderText(
        ChangesPage::tr("a key per level, top first: example.com/block,example.com/rack"));
    m_relabelKeys->setToolTip(
        ChangesPage::tr("Labels every node with the domains it sits in under the hierarchy shown (a topology.conf, "
                        "HyperNodes, a Topology, other keys), as topodeckctl relabel --to does; - leaves a level out"));
    m_relabel = new QPushButton(ChangesPage::tr("Ma&ke Plan"));
    m_relabel->setToolTip(ChangesPage::tr("Replaces the plan with the relabel, and previews it"));
    relabelRow->addWidget(m_relabelKeys, 1);
    relabelRow->addWidget(m_relabel);
    auto* relabelLabel = new QLabel(ChangesPage::tr("Relabel from &hierarchy:"));
    relabelLabel->setBuddy(m_relabelKeys);
    form->addRow(relabelLabel, relabelRow);
    m_relabelRemove = new QLineEdit;
    m_relabelRemove->setPlaceholderText(ChangesPage::tr("KEY or PREFIX*, ... (optional)"));
    m_relabelRemove->setToolTip(
        ChangesPage::tr("Keys of an old scheme taken off every node in the same plan (the keys above are kept)"));
    auto* removeLabel = new QLabel(ChangesPage::tr("Remove old ke&ys:"));
    removeLabel->setBuddy(m_relabelRemove);
    form->addRow(removeLabel, m_relabelRemove);
    return form;
}

QLayout* ChangePlanEditor::buildButtons() {
    auto* buttons = new QHBoxLayout;
    auto* remove = new QPushButton(ChangesPage::tr("Re&move"));
    auto* clear = new QPushButton(ChangesPage::tr("C&lear"));
    auto* open = new QPushButton(ChangesPage::tr("&Open Plan…"));
    auto* save = new QPushButton(ChangesPage::tr("&Save Plan…"));
    m_previewAgain = new QPushButton(ChangesPage::tr("Pre&view Again"));
    m_previewAgain->setToolTip(ChangesPage::tr("The plan against the cluster as it is now"));
    for (QPushButton* button : {remove, clear, open, save, m_previewAgain}) buttons->addWidget(button);
    buttons->addStretch(1);
    connect(remove, &QPushButton::clicked, this, &ChangePlanEditor::removeOperation);
    connect(clear, &QPushButton::clicked, this, &ChangePlanEditor::clearRequested);
    connect(m_previewAgain, &QPushButton::clicked, this, &ChangePlanEditor::previewAgain);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, ChangesPage::tr("Open Change Plan"), QString(),
                                         ChangesPage::tr("Change plans (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty()) openPlan(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, ChangesPage::tr("Save Change Plan"), QStringLiteral("plan.yaml"),
                                         ChangesPage::tr("Change plans (*.yaml *.yml)"));
        if (!path.isEmpty()) savePlan(path);
    });
    return buttons;
}

void ChangePlanEditor::setTarget(const QString& target, bool isNode) {
    m_target->setText(isNode ? target : qs("--domain " + joinCommandWords({target.toStdString()})));
    m_labels->setFocus();
}

void ChangePlanEditor::updateActions(bool applying) {
    m_previewAgain->setEnabled(!applying && !isEmpty());
    m_add->setEnabled(!applying);
    m_relabel->setEnabled(!applying);
}

bool ChangePlanEditor::addOperation() {
    if (m_planFromFile) {
        Q_EMIT refused(ChangesPage::tr(
            "This plan came from a file or a journal and keeps the values it found: Clear it to make a new one."));
        return false;
    }
    auto target = parseNodeTarget(m_target->text());
    if (!target) {
        Q_EMIT refused(ChangesPage::tr("Nodes: %1").arg(qs(target.error().message)));
        return false;
    }
    auto words = splitCommandWords(m_labels->text().toStdString());
    Result<std::vector<LabelEdit>> edits =
        words ? parseLabelEdits(*words) : Result<std::vector<LabelEdit>>(words.error());
    if (edits && edits->empty()) edits = Error{"give at least one key=value or key-"};
    if (!edits) {
        Q_EMIT refused(ChangesPage::tr("Labels: %1").arg(qs(edits.error().message)));
        return false;
    }
    nameIfUnnamed();
    m_plan.operations.push_back(LabelOperation{std::move(*target), std::move(*edits)});
    showOperations();
    requestPreview(planRequest(), Pending::Added);
    return true;
}

void ChangePlanEditor::makeRelabelPlan() {
    RelabelRequest relabel;
    relabel.keys = splitList(m_relabelKeys->text().toStdString());
    relabel.remove = splitList(m_relabelRemove->text().toStdString());
    if (relabel.keys.empty()) {
        Q_EMIT refused(ChangesPage::tr("Relabel: give the label key of each level, top level first."));
        return;
    }
    ChangePreviewRequest request = planRequest();
    request.plan = ChangePlan{};
    request.plan.name = "relabel-" + utcStamp();
    request.resolve = true;
    request.relabel = std::move(relabel);
    requestPreview(std::move(request), Pending::Made);
}

void ChangePlanEditor::removeOperation() {
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
        Q_EMIT clearRequested();
    else
        requestPreview(planRequest(), Pending::Made);
}

void ChangePlanEditor::clear() {
    m_plan = ChangePlan{};
    m_planFromFile = false;
    showOperations();
}

void ChangePlanEditor::openPlan(const QString& path) {
    ChangePreviewRequest request = planRequest();
    request.planFile = path.toStdString();
    requestPreview(std::move(request), Pending::FromFile);
}

void ChangePlanEditor::openJournal(const QString& path) {
    ChangePreviewRequest request = planRequest();
    request.undoJournal = path.toStdString();
    requestPreview(std::move(request), Pending::FromFile);
}

void ChangePlanEditor::savePlan(const QString& path) {
    if (isEmpty()) {
        Q_EMIT refused(ChangesPage::tr("The plan is empty: nothing to save."));
        return;
    }
    ChangePreviewRequest request = planRequest();
    request.saveTo = path.toStdString();
    requestPreview(std::move(request), m_planFromFile ? Pending::FromFile : Pending::Made);
}

void ChangePlanEditor::previewAgain() {
    if (isEmpty()) return;
    requestPreview(planRequest(), m_planFromFile ? Pending::FromFile : Pending::Made);
}

void ChangePlanEditor::previewFixedPlan(ChangePlan plan) {
    m_plan = std::move(plan);
    m_planFromFile = true;
    showOperations();
    requestPreview(planRequest(), Pending::FromFile);
}

void ChangePlanEditor::previewObjectChanges(const std::vector<ObjectKind>& kinds,
                                            const std::vector<ObjectChange>& changes) {
    if (m_planFromFile) {
        m_plan = ChangePlan{};
        m_planFromFile = false;
    }
    std::erase_if(m_plan.objectChanges, [&](const ObjectChange& change) {
        return std::find(kinds.begin(), kinds.end(), change.kind) != kinds.end();
    });
    m_plan.objectChanges.insert(m_plan.objectChanges.end(), changes.begin(), changes.end());
    nameIfUnnamed();
    showOperations();
    requestPreview(planRequest(), Pending::Made);
}

bool ChangePlanEditor::takePreview(const ChangePreview& preview) {
    if (!preview.error.empty()) {
        if (m_pending == Pending::Added && !m_plan.operations.empty()) {
            m_plan.operations.pop_back(); // it did not resolve: the plan stays as it was
            showOperations();
        }
        return false;
    }
    m_planFromFile = m_pending == Pending::FromFile;
    m_plan = preview.plan;
    showOperations();
    return true;
}

ChangePreviewRequest ChangePlanEditor::planRequest() const {
    ChangePreviewRequest request;
    request.plan = m_plan;
    request.resolve = !m_planFromFile;
    return request;
}

void ChangePlanEditor::requestPreview(ChangePreviewRequest request, Pending pending) {
    m_pending = pending;
    Q_EMIT previewRequested(request);
}

void ChangePlanEditor::nameIfUnnamed() {
    if (m_plan.name.empty()) m_plan.name = "console-" + utcStamp();
}

void ChangePlanEditor::showOperations() {
    m_operations->clear();
    for (const LabelOperation& operation : m_plan.operations) m_operations->addItem(describeOperation(operation));
    if (m_planFromFile && m_plan.operations.empty() && !m_plan.labelChanges.empty())
        m_operations->addItem(
            ChangesPage::tr("%n label change(s) with the values they expect (from a file or a journal)", nullptr,
                            int(m_plan.labelChanges.size())));
    for (const ObjectChange& change : m_plan.objectChanges) m_operations->addItem(qs(change.describe()));
}

} // namespace topodeck
