#include "views/dialogs/topology_editor.h"

#include "models/topology_object_edits.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

TopologyEditor::TopologyEditor(ClusterSession* session, QWidget* parent) : QDialog(parent), m_session(session) {
    setWindowTitle(tr("Edit Topology Levels"));
    setObjectName(QStringLiteral("topologyEditor"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_kind = new QComboBox;
    m_kind->addItem(tr("Kueue Topology"));
    m_kind->addItem(tr("KAI Topology"));
    form->addRow(tr("&Kind:"), m_kind);
    m_name = new QComboBox;
    m_name->setEditable(true);
    m_name->setToolTip(tr("A Topology the cluster has, or the name of a new one"));
    form->addRow(tr("&Topology:"), m_name);
    m_existing = new QLabel;
    m_existing->setWordWrap(true);
    form->addRow(QString(), m_existing);
    layout->addLayout(form);

    auto* levelsLabel = new QLabel(tr("&Levels, top level first (each a node label key):"));
    layout->addWidget(levelsLabel);
    m_levels = new QListWidget;
    levelsLabel->setBuddy(m_levels);
    auto* levelRow = new QHBoxLayout;
    levelRow->addWidget(m_levels, 1);
    auto* levelButtons = new QVBoxLayout;
    m_up = new QPushButton(tr("Move &Up"));
    m_down = new QPushButton(tr("Move Do&wn"));
    m_remove = new QPushButton(tr("&Remove"));
    for (QPushButton* button : {m_up, m_down, m_remove}) {
        button->setAutoDefault(false);
        levelButtons->addWidget(button);
    }
    levelButtons->addStretch(1);
    levelRow->addLayout(levelButtons);
    layout->addLayout(levelRow, 1);
    auto* keyRow = new QHBoxLayout;
    m_key = new QComboBox;
    m_key->setEditable(true);
    m_key->setToolTip(tr("The label keys the cluster's nodes carry; another key can be typed"));
    m_addKey = new QPushButton(tr("&Add Level"));
    m_addKey->setAutoDefault(false);
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_addKey);
    layout->addLayout(keyRow);

    m_flavorBox = new QGroupBox(tr("Also a Kueue &ResourceFlavor that names this Topology"));
    m_flavorBox->setCheckable(true);
    m_flavorBox->setChecked(false);
    auto* flavorForm = new QFormLayout(m_flavorBox);
    m_flavor = new QComboBox;
    m_flavor->setEditable(true);
    m_flavorLabels = new QLineEdit;
    m_flavorLabels->setPlaceholderText(tr("key=value key=value"));
    m_flavorLabels->setToolTip(
        tr("spec.nodeLabels: the nodes the flavor stands for (Kueue needs them with a topologyName)"));
    flavorForm->addRow(tr("&Flavor:"), m_flavor);
    flavorForm->addRow(tr("&Node labels:"), m_flavorLabels);
    layout->addWidget(m_flavorBox);

    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_preview = buttons->addButton(tr("&Preview Changes"), QDialogButtonBox::ApplyRole);
    m_preview->setToolTip(tr("Shows on the Changes page the Topology (and flavor) created or updated: its diff, the "
                             "hierarchy's diff and what the cluster would refuse"));
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_preview, &QPushButton::clicked, this, &TopologyEditor::previewChanges);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_flavorBox->setEnabled(kind() == ObjectKind::KueueTopology);
        fillNames();
    });
    connect(m_name, &QComboBox::currentTextChanged, this, &TopologyEditor::showTopology);
    connect(m_addKey, &QPushButton::clicked, this, [this] { addLevel(m_key->currentText()); });
    connect(m_key->lineEdit(), &QLineEdit::returnPressed, this, [this] { addLevel(m_key->currentText()); });
    connect(m_remove, &QPushButton::clicked, this, &TopologyEditor::removeSelectedLevel);
    connect(m_up, &QPushButton::clicked, this, [this] { moveSelectedLevel(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveSelectedLevel(1); });
    connect(m_levels, &QListWidget::currentRowChanged, this, &TopologyEditor::updateActions);
    connect(m_flavor, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!m_objects) return;
        const auto& flavors = m_objects->objects.resourceFlavors();
        if (auto it = flavors.find(name.toStdString()); it != flavors.end())
            m_flavorLabels->setText(qs(nodeLabelsText(it->second.nodeLabels)));
    });
    connect(m_session, &ClusterSession::topologyObjectsReady, this, &TopologyEditor::showObjects);
    resize(620, 560);
    updateActions();
}

ObjectKind TopologyEditor::kind() const {
    return m_kind->currentIndex() == 1 ? ObjectKind::KaiTopology : ObjectKind::KueueTopology;
}

void TopologyEditor::refresh() {
    setStatus(tr("Reading the cluster's Topologies…"));
    m_session->requestTopologyObjects();
}

void TopologyEditor::showObjects(const TopologyObjectsPtr& objects) {
    const bool first = !m_objects;
    m_objects = objects;
    const QString typed = m_key->currentText();
    m_key->clear();
    for (const std::string& key : objects->labelKeys) m_key->addItem(qs(key));
    m_key->setCurrentText(typed);
    const QString flavor = m_flavor->currentText();
    m_flavor->clear();
    for (const std::string& name : objectNames(objects->objects, ObjectKind::ResourceFlavor))
        m_flavor->addItem(qs(name));
    m_flavor->setCurrentText(flavor);
    if (first) fillNames();
    setStatus(objects->error.empty() ? QString() : tr("No cluster: %1").arg(qs(objects->error)),
              !objects->error.empty());
    updateActions();
    Q_EMIT objectsShown();
}

void TopologyEditor::fillNames() {
    const QString typed = m_name->currentText();
    const QSignalBlocker blocker(m_name);
    m_name->clear();
    if (m_objects)
        for (const std::string& name : objectNames(m_objects->objects, kind())) m_name->addItem(qs(name));
    if (m_name->count() > 0 && typed.isEmpty())
        m_name->setCurrentIndex(0);
    else
        m_name->setCurrentText(typed);
    showTopology();
}

void TopologyEditor::choose(bool kai, const QString& name) {
    m_kind->setCurrentIndex(kai ? 1 : 0);
    m_name->setCurrentText(name);
    showTopology();
}

void TopologyEditor::showTopology() {
    const std::string name = m_name->currentText().trimmed().toStdString();
    const std::vector<std::string> keys =
        m_objects ? topologyLevelKeys(m_objects->objects, kind(), name) : std::vector<std::string>{};
    const bool exists = m_objects && findObject(m_objects->objects, kind(), name).has_value();
    m_existing->setText(name.empty() ? tr("Name the Topology.")
                        : exists
                            ? tr("The cluster has this Topology: its levels cannot change once created (the preview "
                                 "says so); a new name makes a new one.")
                            : tr("A new Topology: it is created with these levels."));
    QStringList list;
    for (const std::string& key : keys) list << qs(key);
    if (exists || m_levels->count() == 0) setLevels(list);
    if (m_objects && !name.empty())
        for (const auto& [flavorName, flavor] : m_objects->objects.resourceFlavors())
            if (flavor.topologyName == name) m_flavor->setCurrentText(qs(flavorName));
    updateActions();
}

QStringList TopologyEditor::levels() const {
    QStringList keys;
    for (int row = 0; row < m_levels->count(); ++row) keys << m_levels->item(row)->text();
    return keys;
}

void TopologyEditor::setLevels(const QStringList& keys) {
    m_levels->clear();
    m_levels->addItems(keys);
    updateActions();
}

bool TopologyEditor::addLevel(const QString& key) {
    const QString trimmed = key.trimmed();
    if (trimmed.isEmpty()) return false;
    if (levels().contains(trimmed)) {
        setStatus(tr("%1 is a level already.").arg(trimmed), true);
        return false;
    }
    m_levels->addItem(trimmed);
    m_levels->setCurrentRow(m_levels->count() - 1);
    setStatus(QString());
    updateActions();
    return true;
}

void TopologyEditor::removeSelectedLevel() {
    const int row = m_levels->currentRow();
    if (row < 0) return;
    delete m_levels->takeItem(row);
    updateActions();
}

void TopologyEditor::moveSelectedLevel(int by) {
    const int row = m_levels->currentRow();
    const int to = row + by;
    if (row < 0 || to < 0 || to >= m_levels->count()) return;
    QListWidgetItem* item = m_levels->takeItem(row);
    m_levels->insertItem(to, item);
    m_levels->setCurrentRow(to);
    updateActions();
}

void TopologyEditor::setFlavor(const QString& name, const QString& nodeLabels) {
    m_flavorBox->setChecked(!name.isEmpty());
    m_flavor->setCurrentText(name);
    m_flavorLabels->setText(nodeLabels);
}

std::vector<ObjectChange> TopologyEditor::changes(QString* why) const {
    std::vector<ObjectChange> made;
    const std::string name = m_name->currentText().trimmed().toStdString();
    if (!m_objects || name.empty()) return made;
    std::vector<std::string> keys;
    for (const QString& key : levels()) keys.push_back(key.toStdString());
    if (auto change = topologyLevelsChange(m_objects->objects, kind(), name, keys)) made.push_back(std::move(*change));
    const std::string flavor = m_flavor->currentText().trimmed().toStdString();
    if (kind() == ObjectKind::KueueTopology && m_flavorBox->isChecked() && !flavor.empty()) {
        auto labels = parseNodeLabels(m_flavorLabels->text().toStdString());
        if (!labels) {
            if (why) *why = tr("Node labels: %1").arg(qs(labels.error().message));
            return {};
        }
        if (auto change = flavorTopologyChange(m_objects->objects, flavor, name, std::move(*labels)))
            made.push_back(std::move(*change));
    }
    return made;
}

void TopologyEditor::previewChanges() {
    if (!m_objects || !m_objects->error.empty()) {
        setStatus(tr("No cluster's Topologies to compare with yet."), true);
        return;
    }
    QString why;
    const std::vector<ObjectChange> made = changes(&why);
    if (!why.isEmpty()) {
        setStatus(why, true);
        return;
    }
    setStatus(made.empty() ? tr("The cluster's objects say this already: nothing to preview.")
                           : tr("%n object change(s) sent to the Changes page.", nullptr, int(made.size())));
    std::vector<ObjectKind> kinds{kind()};
    if (kind() == ObjectKind::KueueTopology && m_flavorBox->isChecked()) kinds.push_back(ObjectKind::ResourceFlavor);
    Q_EMIT previewRequested(kinds, made);
}

void TopologyEditor::updateActions() {
    const int row = m_levels->currentRow();
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_levels->count());
    m_preview->setEnabled(m_objects && m_objects->error.empty() && !m_name->currentText().trimmed().isEmpty());
}

void TopologyEditor::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #c62828") : QString());
}

QString TopologyEditor::statusText() const {
    return m_status->text();
}

} // namespace topodeck
