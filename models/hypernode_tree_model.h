#pragma once

#include "models/hypernode_edits.h"

#include <QAbstractItemModel>

#include <string>
#include <vector>

namespace topodeck {

// The HyperNode editor's tree: the top HyperNodes (highest tier first), under each its members —
// HyperNodes it lists by name (with theirs below), its nodes, and selectors (regex, labels) as
// leaves. Columns: name, tier, tier name, members. An exact member (a node or a HyperNode) drags
// onto another HyperNode, or a HyperNode onto the empty area (to the top): a move in the edits.
class HyperNodeTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TierColumn, TierNameColumn, MembersColumn, ColumnCount };
    enum class ItemKind { HyperNode, Node, Selector };
    enum Roles {
        KindRole = Qt::UserRole + 1, // ItemKind as int
        ItemNameRole,                // the HyperNode's or node's name (QString)
        ParentNameRole,              // the HyperNode listing it (QString; empty at the top)
    };
    static constexpr const char* kMimeType = "application/x-topodeck-hypernode-member";

    explicit HyperNodeTreeModel(QObject* parent = nullptr);

    // The edits shown; each change resets the model.
    void setEdits(HyperNodeEdits edits);
    const HyperNodeEdits& edits() const { return m_edits; }
    // The edit made on the model's copy, shown; an error leaves both as they were.
    Status moveMember(HyperNodeMember::Type type, const std::string& name, const std::string& from,
                      const std::string& to);
    Status renameTier(int tier, const std::string& tierName);
    Status addHyperNode(const std::string& name, int tier, const std::string& tierName, const std::string& parent);
    Status removeHyperNode(const std::string& name);
    bool undo();

    // The first item for this HyperNode or node (depth first), or an invalid index.
    QModelIndex indexOf(ItemKind kind, const QString& name) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }

Q_SIGNALS:
    // After every edit (and undo): the set differs from what it was.
    void edited();
    // A drop that could not be made, and why.
    void dropRefused(const QString& why);

private:
    struct Item {
        ItemKind kind = ItemKind::HyperNode;
        std::string name; // the HyperNode's or node's name; a selector's text
        int parent = -1;  // into m_items
        int row = 0;
        std::vector<int> children;
        bool exact = true; // a member by name (draggable)
    };
    void rebuild();
    void addChildren(int item, std::vector<std::string>& path);
    int itemOf(const QModelIndex& index) const;
    Status edit(Status result);

    HyperNodeEdits m_edits;
    std::vector<Item> m_items;
    std::vector<int> m_roots;
};

} // namespace topodeck
