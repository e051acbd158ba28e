#include "models/hypernode_tree_model.h"

#include <QMimeData>

#include <algorithm>
#include <set>

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

std::string selectorText(const HyperNodeMember& member) {
    const std::string what = member.type == HyperNodeMember::Type::Node ? "nodes" : "HyperNodes";
    if (member.selector == HyperNodeMember::Selector::Regex) return what + " matching /" + member.value + "/";
    std::string text;
    for (const auto& [key, value] : member.matchLabels) text += (text.empty() ? "" : ", ") + key + "=" + value;
    for (const HyperNodeLabelRequirement& requirement : member.matchExpressions) {
        text += (text.empty() ? "" : ", ") + requirement.key + " " + requirement.op;
        if (!requirement.values.empty()) {
            text += " (";
            for (std::size_t i = 0; i < requirement.values.size(); ++i) text += (i ? "," : "") + requirement.values[i];
            text += ")";
        }
    }
    return what + " labelled " + text;
}

} // namespace

HyperNodeTreeModel::HyperNodeTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void HyperNodeTreeModel::setEdits(HyperNodeEdits edits) {
    beginResetModel();
    m_edits = std::move(edits);
    rebuild();
    endResetModel();
}

Status HyperNodeTreeModel::edit(Status result) {
    if (!result) return result;
    beginResetModel();
    rebuild();
    endResetModel();
    Q_EMIT edited();
    return result;
}

Status HyperNodeTreeModel::moveMember(HyperNodeMember::Type type, const std::string& name, const std::string& from,
                                      const std::string& to) {
    // Made on a copy first: an edit that is refused leaves the model as it was.
    HyperNodeEdits copy = m_edits;
    Status moved = copy.moveMember(type, name, from, to);
    if (!moved) return moved;
    m_edits = std::move(copy);
    return edit({});
}

Status HyperNodeTreeModel::renameTier(int tier, const std::string& tierName) {
    HyperNodeEdits copy = m_edits;
    Status renamed = copy.renameTier(tier, tierName);
    if (!renamed) return renamed;
    m_edits = std::move(copy);
    return edit({});
}

Status HyperNodeTreeModel::addHyperNode(const std::string& name, int tier, const std::string& tierName,
                                        const std::string& parent) {
    HyperNodeEdits copy = m_edits;
    Status added = copy.addHyperNode(name, tier, tierName, parent);
    if (!added) return added;
    m_edits = std::move(copy);
    return edit({});
}

Status HyperNodeTreeModel::removeHyperNode(const std::string& name) {
    HyperNodeEdits copy = m_edits;
    Status removed = copy.removeHyperNode(name);
    if (!removed) return removed;
    m_edits = std::move(copy);
    return edit({});
}

bool HyperNodeTreeModel::undo() {
    HyperNodeEdits copy = m_edits;
    if (!copy.undo()) return false;
    m_edits = std::move(copy);
    return edit({}).ok();
}

void HyperNodeTreeModel::rebuild() {
    m_items.clear();
    m_roots.clear();
    std::set<std::string> shown;
    const auto addRoot = [&](const std::string& name) {
        Item item;
        item.kind = ItemKind::HyperNode;
        item.name = name;
        item.row = int(m_roots.size());
        m_items.push_back(std::move(item));
        const int index = int(m_items.size()) - 1;
        m_roots.push_back(index);
        std::vector<std::string> path{name};
        addChildren(index, path);
    };
    for (const std::string& root : m_edits.roots()) addRoot(root);
    for (const Item& item : m_items)
        if (item.kind == ItemKind::HyperNode) shown.insert(item.name);
    // HyperNodes only found in a cycle have no top: each is shown at the top, so none is hidden.
    for (const HyperNode& hyperNode : m_edits.hyperNodes())
        if (!shown.contains(hyperNode.name)) {
            addRoot(hyperNode.name);
            for (const Item& item : m_items)
                if (item.kind == ItemKind::HyperNode) shown.insert(item.name);
        }
}

void HyperNodeTreeModel::addChildren(int item, std::vector<std::string>& path) {
    const HyperNode* hyperNode = m_edits.find(m_items[std::size_t(item)].name);
    if (!hyperNode) return;
    for (const HyperNodeMember& member : hyperNode->members) {
        Item child;
        child.parent = item;
        child.row = int(m_items[std::size_t(item)].children.size());
        const bool exact = member.selector == HyperNodeMember::Selector::Exact;
        child.exact = exact;
        child.kind = !exact                                       ? ItemKind::Selector
                     : member.type == HyperNodeMember::Type::Node ? ItemKind::Node
                                                                  : ItemKind::HyperNode;
        child.name = exact ? member.value : selectorText(member);
        const bool cycle =
            child.kind == ItemKind::HyperNode && std::find(path.begin(), path.end(), child.name) != path.end();
        m_items.push_back(std::move(child));
        const int index = int(m_items.size()) - 1;
        m_items[std::size_t(item)].children.push_back(index);
        if (m_items[std::size_t(index)].kind == ItemKind::HyperNode && !cycle) {
            path.push_back(m_items[std::size_t(index)].name);
            addChildren(index, path);
            path.pop_back();
        }
    }
}

int HyperNodeTreeModel::itemOf(const QModelIndex& index) const {
    if (!index.isValid()) return -1;
    return int(index.internalId());
}

QModelIndex HyperNodeTreeModel::indexOf(ItemKind kind, const QString& name) const {
    const std::string key = name.toStdString();
    for (std::size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i].kind == kind && m_items[i].name == key) return createIndex(m_items[i].row, 0, quintptr(i));
    return {};
}

QModelIndex HyperNodeTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    const int item = itemOf(parent);
    const std::vector<int>& children = item < 0 ? m_roots : m_items[std::size_t(item)].children;
    if (row >= int(children.size())) return {};
    return createIndex(row, column, quintptr(children[std::size_t(row)]));
}

QModelIndex HyperNodeTreeModel::parent(const QModelIndex& child) const {
    const int item = itemOf(child);
    if (item < 0) return {};
    const int parent = m_items[std::size_t(item)].parent;
    if (parent < 0) return {};
    return createIndex(m_items[std::size_t(parent)].row, 0, quintptr(parent));
}

int HyperNodeTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    const int item = itemOf(parent);
    return int(item < 0 ? m_roots.size() : m_items[std::size_t(item)].children.size());
}

int HyperNodeTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant HyperNodeTreeModel::data(const QModelIndex& index, int role) const {
    const int itemIndex = itemOf(index);
    if (itemIndex < 0 || itemIndex >= int(m_items.size())) return {};
    const Item& item = m_items[std::size_t(itemIndex)];
    const HyperNode* hyperNode = item.kind == ItemKind::HyperNode ? m_edits.find(item.name) : nullptr;
    switch (role) {
    case KindRole:
        return int(item.kind);
    case ItemNameRole:
        return item.kind == ItemKind::Selector ? QString() : qs(item.name);
    case ParentNameRole:
        return item.parent < 0 ? QString() : qs(m_items[std::size_t(item.parent)].name);
    case Qt::ToolTipRole:
        if (item.kind == ItemKind::HyperNode && !hyperNode)
            return tr("HyperNode %1 is listed but does not exist").arg(qs(item.name));
        if (item.kind == ItemKind::Selector) return tr("A member by selector: it cannot be moved here");
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            if (item.kind == ItemKind::HyperNode && !hyperNode) return tr("%1 (missing)").arg(qs(item.name));
            return qs(item.name);
        case TierColumn:
            return hyperNode ? QVariant(hyperNode->tier) : QVariant();
        case TierNameColumn:
            return hyperNode ? qs(hyperNode->tierName) : QString();
        case MembersColumn:
            if (hyperNode) return int(hyperNode->members.size());
            return item.kind == ItemKind::Node ? tr("node") : QString();
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant HyperNodeTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TierColumn:
        return tr("Tier");
    case TierNameColumn:
        return tr("Tier name");
    case MembersColumn:
        return tr("Members");
    default:
        return {};
    }
}

Qt::ItemFlags HyperNodeTreeModel::flags(const QModelIndex& index) const {
    const int itemIndex = itemOf(index);
    if (itemIndex < 0) return Qt::ItemIsDropEnabled; // the top: HyperNodes move there
    const Item& item = m_items[std::size_t(itemIndex)];
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (item.exact && (item.kind == ItemKind::Node || m_edits.find(item.name))) flags |= Qt::ItemIsDragEnabled;
    if (item.kind == ItemKind::HyperNode && m_edits.find(item.name)) flags |= Qt::ItemIsDropEnabled;
    return flags;
}

QStringList HyperNodeTreeModel::mimeTypes() const {
    return {QString::fromLatin1(kMimeType)};
}

QMimeData* HyperNodeTreeModel::mimeData(const QModelIndexList& indexes) const {
    for (const QModelIndex& index : indexes) {
        const int itemIndex = itemOf(index);
        if (itemIndex < 0 || !(flags(index) & Qt::ItemIsDragEnabled)) continue;
        const Item& item = m_items[std::size_t(itemIndex)];
        // One member per drag: its type, its name, and the HyperNode it is moved from.
        const QString from = item.parent < 0 ? QString() : qs(m_items[std::size_t(item.parent)].name);
        const QStringList fields{item.kind == ItemKind::Node ? QStringLiteral("node") : QStringLiteral("hypernode"),
                                 qs(item.name), from};
        auto* data = new QMimeData;
        data->setData(QString::fromLatin1(kMimeType), fields.join(QLatin1Char('\n')).toUtf8());
        return data;
    }
    return nullptr;
}

namespace {

struct Dragged {
    HyperNodeMember::Type type = HyperNodeMember::Type::Node;
    std::string name;
    std::string from;
};

std::optional<Dragged> draggedOf(const QMimeData* data) {
    if (!data || !data->hasFormat(QString::fromLatin1(HyperNodeTreeModel::kMimeType))) return std::nullopt;
    const QStringList fields =
        QString::fromUtf8(data->data(QString::fromLatin1(HyperNodeTreeModel::kMimeType))).split(QLatin1Char('\n'));
    if (fields.size() != 3) return std::nullopt;
    Dragged dragged;
    dragged.type = fields[0] == QLatin1String("node") ? HyperNodeMember::Type::Node : HyperNodeMember::Type::HyperNode;
    dragged.name = fields[1].toStdString();
    dragged.from = fields[2].toStdString();
    return dragged;
}

} // namespace

bool HyperNodeTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                         const QModelIndex& parent) const {
    const std::optional<Dragged> dragged = draggedOf(data);
    if (!dragged || action != Qt::MoveAction) return false;
    const int target = itemOf(parent);
    if (target < 0) return dragged->type == HyperNodeMember::Type::HyperNode && !dragged->from.empty();
    const Item& item = m_items[std::size_t(target)];
    return item.kind == ItemKind::HyperNode && m_edits.find(item.name) && item.name != dragged->from;
}

bool HyperNodeTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                      const QModelIndex& parent) {
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    const Dragged dragged = *draggedOf(data);
    const int target = itemOf(parent);
    const std::string to = target < 0 ? std::string() : m_items[std::size_t(target)].name;
    if (Status moved = moveMember(dragged.type, dragged.name, dragged.from, to); !moved) {
        Q_EMIT dropRefused(qs(moved.error().message));
        return false;
    }
    return true;
}

} // namespace topodeck
