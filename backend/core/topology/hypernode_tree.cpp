#include "core/topology/hypernode_tree.h"

#include "core/model/cluster_state.h"
#include "core/text/text_format.h"
#include "core/topology/topology_index.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace topodeck {
namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
// Warnings of one kind beyond this many are counted, not listed: a broken selector can touch
// every node of a large cluster.
constexpr std::size_t kWarningExamples = 5;

// The index levels that become HyperNodes: all of them but a trailing hostname level.
int hyperNodeLevels(const TopologySpec& spec) {
    int levels = spec.depth();
    if (levels > 0 && spec.levels.back().nodeLabel == kHostnameLabel) --levels;
    return levels;
}

// Which index domains become HyperNodes, and their names. Discovery walks each node's labels
// from the lowest level up and stops at the first one missing, so a domain is a HyperNode when
// it is labelled and (above the lowest level) has a child that is one.
struct DerivedDomains {
    int levels = 0;
    std::vector<bool> isHyperNode; // by DomainId
    std::vector<std::string> name; // by DomainId, for HyperNode domains
    std::vector<DomainId> order;   // HyperNode domains, top level first, children in index order
};

DerivedDomains deriveDomains(const TopologyIndex& index) {
    DerivedDomains out;
    out.levels = hyperNodeLevels(index.spec());
    out.isHyperNode.assign(index.domainSlots(), false);
    out.name.resize(index.domainSlots());
    if (out.levels == 0) return out;

    std::function<bool(DomainId)> visit = [&](DomainId id) {
        const Domain& domain = index.domain(id);
        bool anyChild = false;
        if (domain.level < out.levels - 1)
            for (DomainId child : domain.children) anyChild = visit(child) || anyChild;
        const bool hyperNode = domain.level >= 0 && !domain.unlabelled && (domain.level == out.levels - 1 || anyChild);
        out.isHyperNode[id] = hyperNode;
        return hyperNode;
    };
    visit(kRootDomain);

    // Names are the label values, which operators know; a value that repeats (rack-1 under two
    // blocks) takes its whole path instead, since HyperNode names are cluster-wide.
    std::unordered_map<std::string_view, int> uses;
    std::function<void(DomainId)> collect = [&](DomainId id) {
        if (out.isHyperNode[id]) {
            ++uses[index.domain(id).value];
            out.order.push_back(id);
        }
        for (DomainId child : index.domain(id).children)
            if (index.domain(child).level < out.levels) collect(child);
    };
    collect(kRootDomain);
    std::stable_sort(out.order.begin(), out.order.end(),
                     [&](DomainId a, DomainId b) { return index.domain(a).level < index.domain(b).level; });
    for (DomainId id : out.order) {
        const std::string& value = index.domain(id).value;
        out.name[id] = uses[value] == 1 ? value : index.pathName(id);
    }
    return out;
}

// Volcano's GetMembers for a labelMatch selector: every requirement holds.
bool labelsMatch(const Node& node, const HyperNodeMember& member) {
    for (const auto& [key, value] : member.matchLabels) {
        const std::string* actual = node.label(key);
        if (!actual || *actual != value) return false;
    }
    for (const HyperNodeLabelRequirement& requirement : member.matchExpressions) {
        const std::string* actual = node.label(requirement.key);
        const bool listed = actual && std::find(requirement.values.begin(), requirement.values.end(), *actual) !=
                                          requirement.values.end();
        if (requirement.op == "In" && !listed) return false;
        if (requirement.op == "NotIn" && listed) return false;
        if (requirement.op == "Exists" && !actual) return false;
        if (requirement.op == "DoesNotExist" && actual) return false;
    }
    return true;
}

bool validOperator(const HyperNodeLabelRequirement& requirement) {
    if (requirement.op == "In" || requirement.op == "NotIn") return !requirement.values.empty();
    if (requirement.op == "Exists" || requirement.op == "DoesNotExist") return requirement.values.empty();
    return false;
}

// Collects warnings of one kind: the first few in full, then a count.
class WarningGroup {
public:
    explicit WarningGroup(std::string summary) : m_summary(std::move(summary)) {}
    void add(std::string text) {
        if (m_examples.size() < kWarningExamples) m_examples.push_back(std::move(text));
        ++m_count;
    }
    void flushInto(std::vector<std::string>& out) const {
        out.insert(out.end(), m_examples.begin(), m_examples.end());
        if (m_count > m_examples.size())
            out.push_back("and " + std::to_string(m_count - m_examples.size()) + " more " + m_summary);
    }

private:
    std::string m_summary;
    std::vector<std::string> m_examples;
    std::size_t m_count = 0;
};

// Depths from the top, tiers, and each node's lowest-tier HyperNode; with the state (for node
// names), warns about a node that two HyperNodes of one tier hold.
void finishTree(HyperNodeTree& tree, std::size_t nodeSlots, const ClusterState* namesFrom) {
    std::vector<HyperNodeTree::Id> stack{tree.top};
    tree.entries[static_cast<std::size_t>(tree.top)].depth = 0;
    while (!stack.empty()) {
        const HyperNodeTree::Id id = stack.back();
        stack.pop_back();
        for (HyperNodeTree::Id child : tree.entries[static_cast<std::size_t>(id)].children) {
            tree.entries[static_cast<std::size_t>(child)].depth = tree.entries[static_cast<std::size_t>(id)].depth + 1;
            stack.push_back(child);
        }
    }

    tree.tiers.clear();
    for (const HyperNodeTree::Entry& entry : tree.entries) tree.tiers.push_back(entry.tier);
    std::sort(tree.tiers.begin(), tree.tiers.end());
    tree.tiers.erase(std::unique(tree.tiers.begin(), tree.tiers.end()), tree.tiers.end());

    // Entries are in name order, so the first HyperNode met at a node's lowest tier is the first
    // by name (Volcano takes whichever its set yields first).
    tree.leafOf.assign(nodeSlots, HyperNodeTree::kNone);
    std::vector<std::int32_t> leafTier(nodeSlots, 0);
    for (std::size_t i = 0; i < tree.entries.size(); ++i) {
        const HyperNodeTree::Entry& entry = tree.entries[i];
        for (std::uint32_t node : entry.nodes) {
            HyperNodeTree::Id& leaf = tree.leafOf[node];
            if (leaf == HyperNodeTree::kNone || entry.tier < leafTier[node]) {
                leaf = static_cast<HyperNodeTree::Id>(i);
                leafTier[node] = entry.tier;
            }
        }
    }
    if (!namesFrom) return;

    WarningGroup shared("nodes held by two HyperNodes of one tier");
    std::vector<HyperNodeTree::Id> holder(nodeSlots, HyperNodeTree::kNone);
    for (std::int32_t tier : tree.tiers) {
        std::fill(holder.begin(), holder.end(), HyperNodeTree::kNone);
        for (std::size_t i = 0; i < tree.entries.size(); ++i) {
            const HyperNodeTree::Entry& entry = tree.entries[i];
            if (entry.tier != tier || static_cast<HyperNodeTree::Id>(i) == tree.top) continue;
            for (std::uint32_t node : entry.nodes) {
                if (holder[node] == HyperNodeTree::kNone) {
                    holder[node] = static_cast<HyperNodeTree::Id>(i);
                    continue;
                }
                shared.add("node " + namesFrom->record(node).node->name + " is in HyperNodes " +
                           tree.entries[static_cast<std::size_t>(holder[node])].name + " and " + entry.name +
                           " of tier " + std::to_string(tier) + "; Volcano uses one of them");
            }
        }
    }
    shared.flushInto(tree.warnings);
}

std::int32_t topTierAbove(const std::vector<HyperNodeTree::Entry>& entries) {
    // Volcano's addClusterTopHyperNode: one above the highest tier, and at least 1.
    std::int32_t top = 1;
    for (const HyperNodeTree::Entry& entry : entries)
        if (entry.tier >= top) top = entry.tier + 1;
    return top;
}

// Sorts the entries by name, remapping parent and child ids, and appends the top over the
// parentless ones.
void sortAndAddTop(HyperNodeTree& tree, std::vector<std::uint32_t> allNodes) {
    std::vector<HyperNodeTree::Id> order(tree.entries.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](HyperNodeTree::Id a, HyperNodeTree::Id b) {
        return tree.entries[static_cast<std::size_t>(a)].name < tree.entries[static_cast<std::size_t>(b)].name;
    });
    std::vector<HyperNodeTree::Id> newId(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        newId[static_cast<std::size_t>(order[i])] = static_cast<HyperNodeTree::Id>(i);
    std::vector<HyperNodeTree::Entry> sorted;
    sorted.reserve(order.size() + 1);
    for (HyperNodeTree::Id old : order) sorted.push_back(std::move(tree.entries[static_cast<std::size_t>(old)]));
    const auto top = static_cast<HyperNodeTree::Id>(sorted.size());
    HyperNodeTree::Entry topEntry;
    topEntry.name = std::string(kClusterTopHyperNode);
    topEntry.tier = topTierAbove(sorted);
    topEntry.nodes = std::move(allNodes);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        HyperNodeTree::Entry& entry = sorted[i];
        entry.parent = entry.parent == HyperNodeTree::kNone ? top : newId[static_cast<std::size_t>(entry.parent)];
        for (HyperNodeTree::Id& child : entry.children) child = newId[static_cast<std::size_t>(child)];
        std::sort(entry.children.begin(), entry.children.end());
        if (entry.parent == top) topEntry.children.push_back(static_cast<HyperNodeTree::Id>(i));
    }
    sorted.push_back(std::move(topEntry));
    tree.entries = std::move(sorted);
    tree.top = top;
}

std::vector<std::uint32_t> presentNodes(const ClusterState& state) {
    std::vector<std::uint32_t> nodes;
    nodes.reserve(state.presentNodeCount());
    for (NodeId id = 0; id < state.nodeSlots(); ++id)
        if (state.record(id).present) nodes.push_back(id);
    return nodes;
}

void sortUnique(std::vector<std::uint32_t>& nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

using NameIndex = std::unordered_map<std::string_view, HyperNodeTree::Id>;

// The warnings resolveHyperNodes gathers, listed in the order it reports them.
struct ResolveWarnings {
    std::vector<std::string> ignoredSelectors;
    std::vector<std::string> badSelectors;
    WarningGroup unknownMembers{"members that name no HyperNode"};
    WarningGroup missingNodes{"node members that name no node"};
    WarningGroup emptySelectors{"selectors that match no node"};
    WarningGroup tierOrder{"HyperNodes not below their parent's tier"};

    std::vector<std::string> inReportOrder() {
        std::vector<std::string> out = std::move(ignoredSelectors);
        out.insert(out.end(), badSelectors.begin(), badSelectors.end());
        unknownMembers.flushInto(out);
        missingNodes.flushInto(out);
        emptySelectors.flushInto(out);
        tierOrder.flushInto(out);
        return out;
    }
};

// One entry per HyperNode, in input order, and the index by name; a name given twice is an error.
Status addEntries(HyperNodeTree& tree, const std::vector<HyperNode>& hyperNodes, NameIndex& byName) {
    for (const HyperNode& hyperNode : hyperNodes) {
        const auto id = static_cast<HyperNodeTree::Id>(tree.entries.size());
        if (!byName.emplace(hyperNode.name, id).second)
            return Error{"HyperNode " + hyperNode.name + " is defined more than once"};
        HyperNodeTree::Entry entry;
        entry.name = hyperNode.name;
        entry.tier = hyperNode.tier;
        entry.tierName = hyperNode.tierName;
        tree.entries.push_back(std::move(entry));
    }
    return {};
}

// Parents come from HyperNode members, which Volcano matches by exact name only. A HyperNode
// listed by two parents is an error.
Status linkMemberHyperNodes(HyperNodeTree& tree, const std::vector<HyperNode>& hyperNodes, const NameIndex& byName,
                            ResolveWarnings& warnings) {
    for (std::size_t i = 0; i < hyperNodes.size(); ++i) {
        for (const HyperNodeMember& member : hyperNodes[i].members) {
            if (member.type != HyperNodeMember::Type::HyperNode) continue;
            if (member.selector != HyperNodeMember::Selector::Exact) {
                warnings.ignoredSelectors.push_back("HyperNode " + hyperNodes[i].name +
                                                    ": a HyperNode member can only be selected by exactMatch; "
                                                    "Volcano ignores this one");
                continue;
            }
            const auto found = byName.find(member.value);
            if (found == byName.end()) {
                warnings.unknownMembers.add("HyperNode " + hyperNodes[i].name + " lists member HyperNode " +
                                            member.value + ", which does not exist");
                continue;
            }
            HyperNodeTree::Entry& child = tree.entries[static_cast<std::size_t>(found->second)];
            const auto parent = static_cast<HyperNodeTree::Id>(i);
            if (child.parent != HyperNodeTree::kNone && child.parent != parent)
                return Error{"HyperNode " + child.name + " already has a parent " +
                             tree.entries[static_cast<std::size_t>(child.parent)].name +
                             ", and cannot set another parent " + hyperNodes[i].name};
            if (child.parent == parent) continue;
            child.parent = parent;
            tree.entries[i].children.push_back(found->second);
            if (child.tier >= tree.entries[i].tier)
                warnings.tierOrder.add("HyperNode " + child.name + " (tier " + std::to_string(child.tier) +
                                       ") is a member of " + hyperNodes[i].name + " (tier " +
                                       std::to_string(tree.entries[i].tier) + "), which is not a higher tier");
        }
    }
    return {};
}

// With one parent each, a cycle is a parent chain that comes back on itself.
Status checkNoCycle(const HyperNodeTree& tree) {
    std::vector<int> chainState(tree.entries.size(), 0); // 0 unseen, 1 on the current chain, 2 done
    for (std::size_t start = 0; start < tree.entries.size(); ++start) {
        std::vector<HyperNodeTree::Id> chain;
        HyperNodeTree::Id at = static_cast<HyperNodeTree::Id>(start);
        while (at != HyperNodeTree::kNone && chainState[static_cast<std::size_t>(at)] == 0) {
            chainState[static_cast<std::size_t>(at)] = 1;
            chain.push_back(at);
            at = tree.entries[static_cast<std::size_t>(at)].parent;
        }
        if (at != HyperNodeTree::kNone && chainState[static_cast<std::size_t>(at)] == 1) {
            const auto loopStart = std::find(chain.begin(), chain.end(), at);
            std::vector<std::string> names;
            for (auto it = loopStart; it != chain.end(); ++it)
                names.push_back(tree.entries[static_cast<std::size_t>(*it)].name);
            std::sort(names.begin(), names.end());
            std::string list;
            for (const std::string& name : names) list += (list.empty() ? "" : " ") + name;
            return Error{"cyclic dependency detected: HyperNode " + names.front() +
                         " is already in the ancestor chain [" + list + "]"};
        }
        for (HyperNodeTree::Id id : chain) chainState[static_cast<std::size_t>(id)] = 2;
    }
    return {};
}

// Appends the nodes one node member selects. False when an empty selection needs no warning of
// its own: an exact name (warned about when missing) or a selector already reported as bad.
bool selectMemberNodes(const HyperNodeMember& member, const std::string& hyperNodeName, const ClusterState& state,
                       const std::vector<std::uint32_t>& allNodes, std::vector<std::uint32_t>& nodes,
                       ResolveWarnings& warnings) {
    switch (member.selector) {
    case HyperNodeMember::Selector::Exact: {
        const std::optional<NodeId> id = state.findNode(member.value);
        if (id && state.record(*id).present)
            nodes.push_back(*id);
        else
            warnings.missingNodes.add("HyperNode " + hyperNodeName + " lists node " + member.value +
                                      ", which is not in the cluster");
        return false;
    }
    case HyperNodeMember::Selector::Regex: {
        // Go's regexp.MatchString, which Volcano uses, finds the pattern anywhere in the
        // name: a search, not a full match. RE2 is Go's syntax and, like Go's, runs in
        // time linear in the name whatever the pattern (std::regex backtracks, and
        // recurses per character: a hostile pattern could hang or overflow the stack).
        const RE2 pattern(member.value, RE2::Quiet);
        if (!pattern.ok()) {
            warnings.badSelectors.push_back("HyperNode " + hyperNodeName + ": regexMatch pattern " +
                                            inQuotes(member.value) + " does not compile (" + pattern.error() +
                                            "); it selects no node");
            return false;
        }
        for (std::uint32_t id : allNodes)
            if (RE2::PartialMatch(state.record(id).node->name, pattern)) nodes.push_back(id);
        return true;
    }
    case HyperNodeMember::Selector::Label: {
        if (member.matchLabels.empty() && member.matchExpressions.empty()) return true;
        if (!std::all_of(member.matchExpressions.begin(), member.matchExpressions.end(), validOperator)) {
            warnings.badSelectors.push_back("HyperNode " + hyperNodeName +
                                            ": labelMatch has an invalid matchExpressions entry; it selects no node");
            return false;
        }
        for (std::uint32_t id : allNodes)
            if (labelsMatch(*state.record(id).node, member)) nodes.push_back(id);
        return true;
    }
    }
    return true;
}

// Each HyperNode's node members, as Volcano's GetMembers selects them.
void addNodeMembers(HyperNodeTree& tree, const std::vector<HyperNode>& hyperNodes, const ClusterState& state,
                    const std::vector<std::uint32_t>& allNodes, ResolveWarnings& warnings) {
    for (std::size_t i = 0; i < hyperNodes.size(); ++i) {
        std::vector<std::uint32_t>& nodes = tree.entries[i].nodes;
        for (const HyperNodeMember& member : hyperNodes[i].members) {
            if (member.type != HyperNodeMember::Type::Node) continue;
            const std::size_t before = nodes.size();
            if (selectMemberNodes(member, hyperNodes[i].name, state, allNodes, nodes, warnings) &&
                nodes.size() == before)
                warnings.emptySelectors.add(
                    "HyperNode " + hyperNodes[i].name + ": a " +
                    (member.selector == HyperNodeMember::Selector::Regex ? "regexMatch" : "labelMatch") +
                    " member selects no node");
        }
    }
}

// A HyperNode's real nodes include its member HyperNodes' (children before parents).
void gatherChildNodes(HyperNodeTree& tree) {
    std::vector<HyperNodeTree::Id> postOrder;
    std::vector<bool> done(tree.entries.size(), false);
    std::function<void(HyperNodeTree::Id)> visit = [&](HyperNodeTree::Id id) {
        done[static_cast<std::size_t>(id)] = true;
        for (HyperNodeTree::Id child : tree.entries[static_cast<std::size_t>(id)].children)
            if (!done[static_cast<std::size_t>(child)]) visit(child);
        postOrder.push_back(id);
    };
    for (std::size_t i = 0; i < tree.entries.size(); ++i)
        if (!done[i]) visit(static_cast<HyperNodeTree::Id>(i));
    for (HyperNodeTree::Id id : postOrder) {
        HyperNodeTree::Entry& entry = tree.entries[static_cast<std::size_t>(id)];
        for (HyperNodeTree::Id child : entry.children) {
            const std::vector<std::uint32_t>& childNodes = tree.entries[static_cast<std::size_t>(child)].nodes;
            entry.nodes.insert(entry.nodes.end(), childNodes.begin(), childNodes.end());
        }
        sortUnique(entry.nodes);
    }
}

} // namespace

std::vector<HyperNode> hyperNodesFromIndex(const TopologyIndex& index) {
    const DerivedDomains derived = deriveDomains(index);
    const TopologySpec& spec = index.spec();
    std::vector<HyperNode> out;
    out.reserve(derived.order.size());
    for (DomainId id : derived.order) {
        const Domain& domain = index.domain(id);
        const auto level = static_cast<std::size_t>(domain.level);
        HyperNode hyperNode;
        hyperNode.name = derived.name[id];
        hyperNode.tier = derived.levels - domain.level;
        hyperNode.tierName = spec.levels[level].name;
        if (domain.level == derived.levels - 1) {
            HyperNodeMember member;
            member.type = HyperNodeMember::Type::Node;
            member.selector = HyperNodeMember::Selector::Label;
            for (DomainId d : index.pathTo(id)) {
                const Domain& onPath = index.domain(d);
                if (onPath.level < 0) continue;
                const std::string& key = spec.levels[static_cast<std::size_t>(onPath.level)].nodeLabel;
                if (onPath.unlabelled)
                    member.matchExpressions.push_back({key, "DoesNotExist", {}});
                else
                    member.matchLabels.emplace_back(key, onPath.value);
            }
            std::sort(member.matchLabels.begin(), member.matchLabels.end());
            hyperNode.members.push_back(std::move(member));
        } else {
            for (DomainId child : domain.children) {
                if (!derived.isHyperNode[child]) continue;
                HyperNodeMember member;
                member.type = HyperNodeMember::Type::HyperNode;
                member.value = derived.name[child];
                hyperNode.members.push_back(std::move(member));
            }
        }
        out.push_back(std::move(hyperNode));
    }
    return out;
}

HyperNodeTree hyperNodeTreeFromIndex(const TopologyIndex& index) {
    const DerivedDomains derived = deriveDomains(index);
    HyperNodeTree tree;
    std::vector<HyperNodeTree::Id> entryOf(index.domainSlots(), HyperNodeTree::kNone);
    for (DomainId id : derived.order) {
        entryOf[id] = static_cast<HyperNodeTree::Id>(tree.entries.size());
        HyperNodeTree::Entry entry;
        entry.name = derived.name[id];
        entry.tier = derived.levels - index.domain(id).level;
        entry.tierName = index.spec().levels[static_cast<std::size_t>(index.domain(id).level)].name;
        tree.entries.push_back(std::move(entry));
    }
    for (DomainId id : derived.order) {
        const DomainId parent = index.domain(id).parent;
        if (parent == kNoDomain || entryOf[parent] == HyperNodeTree::kNone) continue;
        tree.entries[static_cast<std::size_t>(entryOf[id])].parent = entryOf[parent];
        tree.entries[static_cast<std::size_t>(entryOf[parent])].children.push_back(entryOf[id]);
    }

    std::vector<std::uint32_t> allNodes;
    for (NodeId node = 0; node < index.nodeSlots(); ++node) {
        DomainId domain = index.node(node).leaf;
        if (domain == kNoDomain) continue;
        allNodes.push_back(node);
        while (domain != kNoDomain && index.domain(domain).level >= derived.levels)
            domain = index.domain(domain).parent;
        for (; domain != kNoDomain && entryOf[domain] != HyperNodeTree::kNone; domain = index.domain(domain).parent)
            tree.entries[static_cast<std::size_t>(entryOf[domain])].nodes.push_back(node);
    }
    sortAndAddTop(tree, std::move(allNodes));
    finishTree(tree, index.nodeSlots(), nullptr);
    return tree;
}

Result<HyperNodeTree> resolveHyperNodes(const std::vector<HyperNode>& hyperNodes, const ClusterState& state) {
    HyperNodeTree tree;
    NameIndex byName;
    if (Status s = addEntries(tree, hyperNodes, byName); !s) return s.error();
    ResolveWarnings warnings;
    if (Status s = linkMemberHyperNodes(tree, hyperNodes, byName, warnings); !s) return s.error();
    if (Status s = checkNoCycle(tree); !s) return s.error();

    const std::vector<std::uint32_t> allNodes = presentNodes(state);
    addNodeMembers(tree, hyperNodes, state, allNodes, warnings);
    gatherChildNodes(tree);

    tree.warnings = warnings.inReportOrder();
    sortAndAddTop(tree, allNodes);
    finishTree(tree, state.nodeSlots(), &state);
    return tree;
}

HyperNodeTree::Id HyperNodeTree::find(std::string_view name) const {
    const auto end = entries.begin() + (top == kNone ? static_cast<std::ptrdiff_t>(entries.size()) : top);
    const auto it = std::lower_bound(entries.begin(), end, name,
                                     [](const Entry& entry, std::string_view key) { return entry.name < key; });
    if (it != end && it->name == name) return static_cast<Id>(it - entries.begin());
    if (top != kNone && name == kClusterTopHyperNode) return top;
    return kNone;
}

HyperNodeTree::Id HyperNodeTree::lca(Id a, Id b) const {
    if (a == kNone) return b;
    if (b == kNone) return a;
    while (entries[static_cast<std::size_t>(a)].depth > entries[static_cast<std::size_t>(b)].depth)
        a = entries[static_cast<std::size_t>(a)].parent;
    while (entries[static_cast<std::size_t>(b)].depth > entries[static_cast<std::size_t>(a)].depth)
        b = entries[static_cast<std::size_t>(b)].parent;
    while (a != b) {
        a = entries[static_cast<std::size_t>(a)].parent;
        b = entries[static_cast<std::size_t>(b)].parent;
    }
    return a;
}

std::string HyperNodeTree::tierLabel(std::int32_t tier) const {
    for (const Entry& entry : entries)
        if (entry.tier == tier && !entry.tierName.empty()) return entry.tierName;
    return "tier-" + std::to_string(tier);
}

} // namespace topodeck
