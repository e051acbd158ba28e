#include "views/dialogs/hypernode_editor.h"

#include "models/hypernode_tree_model.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeView>
#include <QVBoxLayout>

#include <set>

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

using ItemKind = HyperNodeTreeModel::ItemKind;

} // namespace

HyperNodeEditor::HyperNodeEditor(ClusterSession* session, QWidget* parent) : QDialog(parent), m_session(session) {
    setWindowTitle(tr("Edit HyperNodes"));
    setObjectName(QStringLiteral("hyperNodeEditor"));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    m_fromHierarchy = new QPushButton(tr("Start from the &Hierarchy Shown"));
    m_fromHierarchy->setToolTip(tr("Replaces the copy with one HyperNode per domain of the hierarchy shown: the lowest "
                                   "level's list their nodes, each higher one its children"));
    summaryRow->addWidget(m_fromHierarchy);
    layout->addLayout(summaryRow);

    m_model = new HyperNodeTreeModel(this);
    m_tree = new QTreeView;
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setDragDropMode(QAbstractItemView::DragDrop);
    m_tree->setDefaultDropAction(Qt::MoveAction);
    m_tree->setDragEnabled(true);
    m_tree->setAcceptDrops(true);
    m_tree->setDropIndicatorShown(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setSectionResizeMode(HyperNodeTreeModel::NameColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setToolTip(tr("Drag a node or a HyperNode onto another HyperNode to move it there, or a HyperNode onto "
                          "the empty area to make it a top"));
    layout->addWidget(m_tree, 1);

    auto* edits = new QHBoxLayout;
    m_move = new QPushButton(tr("&Move To…"));
    m_move->setToolTip(tr("Moves the selected node or HyperNode under another HyperNode"));
    m_renameTier = new QPushButton(tr("Rename &Tier…"));
    m_renameTier->setToolTip(tr("Sets the tier name of every HyperNode of the selected one's tier"));
    m_add = new QPushButton(tr("&Add HyperNode…"));
    m_add->setToolTip(tr("A new HyperNode without members, under the selected HyperNode or at the top"));
    m_delete = new QPushButton(tr("&Delete"));
    m_delete->setToolTip(tr("Deletes the selected HyperNode; the HyperNodes it held become tops"));
    m_undo = new QPushButton(tr("&Undo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_reset = new QPushButton(tr("&Reset"));
    m_reset->setToolTip(tr("Back to the cluster's HyperNodes as they are now"));
    for (QPushButton* button : {m_move, m_renameTier, m_add, m_delete, m_undo, m_reset}) {
        button->setAutoDefault(false);
        edits->addWidget(button);
    }
    edits->addStretch(1);
    layout->addLayout(edits);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_preview = buttons->addButton(tr("&Preview Changes"), QDialogButtonBox::ApplyRole);
    m_preview->setToolTip(tr("Shows on the Changes page what it takes to make the cluster's HyperNodes into these: "
                             "each object's diff, the hierarchy's diff, the risks, a dry run and the apply"));
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_preview, &QPushButton::clicked, this, &HyperNodeEditor::previewChanges);
    connect(m_fromHierarchy, &QPushButton::clicked, this, &HyperNodeEditor::startFromHierarchy);
    connect(m_move, &QPushButton::clicked, this, &HyperNodeEditor::chooseParent);
    connect(m_renameTier, &QPushButton::clicked, this, &HyperNodeEditor::chooseTierName);
    connect(m_add, &QPushButton::clicked, this, &HyperNodeEditor::chooseNewHyperNode);
    connect(m_delete, &QPushButton::clicked, this, &HyperNodeEditor::deleteSelected);
    connect(m_undo, &QPushButton::clicked, this, [this] {
        if (m_model->undo()) setStatus(tr("Undone."));
    });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        m_edited = false;
        refresh();
    });
    connect(m_model, &HyperNodeTreeModel::edited, this, [this] {
        m_edited = true;
        updateActions();
    });
    connect(m_model, &HyperNodeTreeModel::dropRefused, this, [this](const QString& why) { setStatus(why, true); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_tree->expandToDepth(0); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &HyperNodeEditor::updateActions);
    connect(m_session, &ClusterSession::topologyObjectsReady, this, &HyperNodeEditor::showObjects);
    resize(760, 560);
    updateActions();
}

void HyperNodeEditor::refresh() {
    m_summary->setText(tr("Reading the cluster's HyperNodes…"));
    m_session->requestTopologyObjects();
}

void HyperNodeEditor::showObjects(const TopologyObjectsPtr& objects) {
    m_objects = objects;
    if (!objects->error.empty()) {
        m_summary->setText(tr("No HyperNodes: %1").arg(qs(objects->error)));
    } else if (!m_edited) {
        std::vector<HyperNode> hyperNodes;
        for (const auto& [name, hyperNode] : objects->objects.hyperNodes()) hyperNodes.push_back(hyperNode);
        m_model->setEdits(HyperNodeEdits(std::move(hyperNodes)));
    }
    const std::size_t count = objects->objects.hyperNodes().size();
    if (objects->error.empty())
        m_summary->setText(
            count ? tr("The cluster has %n HyperNode(s). Edits stay in this copy until previewed and applied.", nullptr,
                       int(count))
                  : tr("The cluster has no HyperNodes. Start from the hierarchy shown, or add them."));
    updateActions();
    Q_EMIT objectsShown();
}

void HyperNodeEditor::startFromHierarchy() {
    if (!m_objects) return;
    m_model->setEdits(HyperNodeEdits(m_objects->fromHierarchy));
    m_edited = true;
    setStatus(tr("%n HyperNode(s) from the hierarchy shown.", nullptr, int(m_objects->fromHierarchy.size())));
    updateActions();
}

QModelIndex HyperNodeEditor::selected() const {
    const QModelIndex current = m_tree->selectionModel()->currentIndex();
    return current.isValid() ? current.siblingAtColumn(0) : QModelIndex();
}

bool HyperNodeEditor::report(const Status& status) {
    if (status)
        setStatus(QString());
    else
        setStatus(qs(status.error().message), true);
    updateActions();
    return status.ok();
}

bool HyperNodeEditor::refuse(const QString& why) {
    setStatus(why, true);
    return false;
}

bool HyperNodeEditor::moveSelectedTo(const QString& parent) {
    const QModelIndex index = selected();
    if (!index.isValid()) return refuse(tr("Select a node or a HyperNode first."));
    const auto kind = ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt());
    if (kind == ItemKind::Selector) return refuse(tr("A member by selector cannot be moved."));
    const QString name = index.data(HyperNodeTreeModel::ItemNameRole).toString();
    const Status moved = m_model->moveMember(
        kind == ItemKind::Node ? HyperNodeMember::Type::Node : HyperNodeMember::Type::HyperNode, name.toStdString(),
        index.data(HyperNodeTreeModel::ParentNameRole).toString().toStdString(), parent.toStdString());
    if (moved) {
        const QModelIndex found = m_model->indexOf(kind, name);
        if (found.isValid()) {
            m_tree->setCurrentIndex(found);
            m_tree->scrollTo(found);
        }
    }
    return report(moved);
}

bool HyperNodeEditor::renameTier(int tier, const QString& tierName) {
    return report(m_model->renameTier(tier, tierName.trimmed().toStdString()));
}

bool HyperNodeEditor::addHyperNode(const QString& name, int tier, const QString& tierName, const QString& parent) {
    const Status added = m_model->addHyperNode(name.trimmed().toStdString(), tier, tierName.trimmed().toStdString(),
                                               parent.toStdString());
    if (added) m_tree->setCurrentIndex(m_model->indexOf(ItemKind::HyperNode, name.trimmed()));
    return report(added);
}

bool HyperNodeEditor::deleteSelected() {
    const QModelIndex index = selected();
    if (!index.isValid() || ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt()) != ItemKind::HyperNode)
        return refuse(tr("Select a HyperNode to delete."));
    return report(m_model->removeHyperNode(index.data(HyperNodeTreeModel::ItemNameRole).toString().toStdString()));
}

void HyperNodeEditor::chooseParent() {
    const QModelIndex index = selected();
    if (!index.isValid()) return;
    const auto kind = ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt());
    if (kind == ItemKind::Selector) return;
    const QString name = index.data(HyperNodeTreeModel::ItemNameRole).toString();
    const QString from = index.data(HyperNodeTreeModel::ParentNameRole).toString();
    QStringList parents;
    const QString top = tr("(the top)");
    if (kind == ItemKind::HyperNode && !from.isEmpty()) parents << top;
    const auto type = kind == ItemKind::Node ? HyperNodeMember::Type::Node : HyperNodeMember::Type::HyperNode;
    for (const std::string& parent : m_model->edits().possibleParents(type, name.toStdString()))
        if (qs(parent) != from) parents << qs(parent);
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        this, tr("Move To"), tr("Move %1 from %2 to:").arg(name, from.isEmpty() ? top : from), parents, 0, true, &ok);
    if (ok && !chosen.isEmpty()) moveSelectedTo(chosen == top ? QString() : chosen);
}

void HyperNodeEditor::chooseTierName() {
    const QModelIndex index = selected();
    const HyperNode* hyperNode =
        index.isValid() ? m_model->edits().find(index.data(HyperNodeTreeModel::ItemNameRole).toString().toStdString())
                        : nullptr;
    if (!hyperNode || ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt()) != ItemKind::HyperNode) {
        setStatus(tr("Select a HyperNode of the tier to rename."), true);
        return;
    }
    bool ok = false;
    const int tier = hyperNode->tier;
    const QString name =
        QInputDialog::getText(this, tr("Rename Tier"), tr("Tier name of every HyperNode of tier %1:").arg(tier),
                              QLineEdit::Normal, qs(hyperNode->tierName), &ok);
    if (ok) renameTier(tier, name);
}

void HyperNodeEditor::chooseNewHyperNode() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Add HyperNode"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit;
    auto* tier = new QSpinBox;
    tier->setRange(0, 100);
    auto* tierName = new QLineEdit;
    auto* parent = new QComboBox;
    parent->addItem(tr("(the top)"));
    for (const HyperNode& hyperNode : m_model->edits().hyperNodes()) parent->addItem(qs(hyperNode.name));
    const QModelIndex index = selected();
    if (index.isValid() && ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt()) == ItemKind::HyperNode)
        if (const HyperNode* selectedNode =
                m_model->edits().find(index.data(HyperNodeTreeModel::ItemNameRole).toString().toStdString())) {
            parent->setCurrentText(qs(selectedNode->name));
            tier->setValue(std::max(selectedNode->tier - 1, 0));
        }
    tierName->setText(qs(m_model->edits().tierName(tier->value())));
    connect(tier, &QSpinBox::valueChanged, tierName,
            [this, tierName](int value) { tierName->setText(qs(m_model->edits().tierName(value))); });
    form->addRow(tr("&Name:"), name);
    form->addRow(tr("&Tier:"), tier);
    form->addRow(tr("Tier na&me:"), tierName);
    form->addRow(tr("&Under:"), parent);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return;
    addHyperNode(name->text(), tier->value(), tierName->text(),
                 parent->currentIndex() == 0 ? QString() : parent->currentText());
}

std::vector<ObjectChange> HyperNodeEditor::changes() const {
    if (!m_objects) return {};
    return m_model->edits().changesAgainst(m_objects->objects);
}

void HyperNodeEditor::previewChanges() {
    if (!m_objects || !m_objects->error.empty()) {
        setStatus(tr("No cluster's HyperNodes to compare with yet."), true);
        return;
    }
    const std::vector<ObjectChange> made = changes();
    setStatus(made.empty() ? tr("The copy is the same as the cluster's HyperNodes: nothing to preview.")
                           : tr("%n HyperNode change(s) sent to the Changes page.", nullptr, int(made.size())));
    Q_EMIT previewRequested({ObjectKind::HyperNode}, made);
}

void HyperNodeEditor::updateActions() {
    const QModelIndex index = selected();
    const auto kind = index.isValid() ? ItemKind(index.data(HyperNodeTreeModel::KindRole).toInt()) : ItemKind::Selector;
    const bool member = index.isValid() && kind != ItemKind::Selector;
    const bool hyperNode = index.isValid() && kind == ItemKind::HyperNode &&
                           m_model->edits().find(index.data(HyperNodeTreeModel::ItemNameRole).toString().toStdString());
    m_move->setEnabled(member);
    m_renameTier->setEnabled(hyperNode);
    m_delete->setEnabled(hyperNode);
    m_undo->setEnabled(m_model->edits().canUndo());
    m_reset->setEnabled(m_edited);
    m_preview->setEnabled(m_objects && m_objects->error.empty());
    m_fromHierarchy->setEnabled(m_objects && !m_objects->fromHierarchy.empty());
}

void HyperNodeEditor::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #c62828") : QString());
}

QString HyperNodeEditor::statusText() const {
    return m_status->text();
}

} // namespace topodeck
