#pragma once
// A set of Volcano HyperNodes being edited, apart from any widget: the HyperNode editor's copy of
// the cluster's tree. Moves, tier renames, additions and removals change only this copy; the
// changes it makes against the cluster's objects are ObjectChanges (objectChangeTo), for the
// Changes page to preview and apply.

#include "core/changes/object_change.h"
#include "core/model/cluster_state.h"
#include "core/model/hypernode.h"
#include "core/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

class HyperNodeEdits {
public:
    using MemberType = HyperNodeMember::Type;

    HyperNodeEdits() = default;
    // Starts from these HyperNodes (kept sorted by name); the history is empty.
    explicit HyperNodeEdits(std::vector<HyperNode> hyperNodes);

    const std::vector<HyperNode>& hyperNodes() const { return m_hyperNodes; }
    const HyperNode* find(std::string_view name) const;

    // The HyperNodes that list `name` as an exact member of this type, by name.
    std::vector<std::string> parentsOf(MemberType type, std::string_view name) const;
    // The HyperNodes no other one lists by exact name: the tree's tops, by tier (highest first), then name.
    std::vector<std::string> roots() const;
    // Every HyperNode a member may move under: for a HyperNode, neither itself nor one below it.
    std::vector<std::string> possibleParents(MemberType type, std::string_view name) const;
    // The tiers there are, ascending, and the tierName each goes by (the first HyperNode's).
    std::vector<int> tiers() const;
    std::string tierName(int tier) const;

    // Moves an exact member (a node, or a HyperNode by name) from the HyperNode `from` (empty:
    // from nowhere, a top HyperNode) to `to` (empty: to the top, HyperNodes only). An error says
    // why nothing changed.
    Status moveMember(MemberType type, const std::string& name, const std::string& from, const std::string& to);
    // Sets the tierName of every HyperNode of the tier.
    Status renameTier(int tier, const std::string& tierName);
    // A new HyperNode without members, under `parent` (empty: at the top).
    Status addHyperNode(const std::string& name, int tier, const std::string& tierName, const std::string& parent);
    // Removes the HyperNode and every exact reference to it; its HyperNode members become tops.
    Status removeHyperNode(const std::string& name);

    // Puts back the set as it was before the last edit; false when there was none.
    bool undo();
    bool canUndo() const { return !m_history.empty(); }

    // The changes that make the objects' HyperNodes into this set, creations first (lowest tier
    // first), then updates, then deletions: objectChangeTo for each name in either.
    std::vector<ObjectChange> changesAgainst(const ClusterState& objects) const;

private:
    HyperNode* findMutable(std::string_view name);
    bool isBelow(std::string_view name, std::string_view ancestor) const; // ancestor holds name, at any depth
    // Keeps the named HyperNodes as they are (absent ones as absent) for undo: an edit touches a
    // few of thousands, and a copy of every one per edit would hold gigabytes at cluster size.
    void remember(const std::vector<std::string>& names);
    void sort();

    std::vector<HyperNode> m_hyperNodes; // by name
    using Step = std::vector<std::pair<std::string, std::optional<HyperNode>>>;
    std::vector<Step> m_history;
};

} // namespace topodeck
