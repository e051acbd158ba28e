#include "models/hypernode_edits.h"

#include <algorithm>
#include <map>
#include <set>

namespace topodeck {

namespace {

bool isExact(const HyperNodeMember& member, HyperNodeMember::Type type, std::string_view name) {
    return member.type == type && member.selector == HyperNodeMember::Selector::Exact && member.value == name;
}

const char* typeWord(HyperNodeMember::Type type) {
    return type == HyperNodeMember::Type::Node ? "node" : "HyperNode";
}

} // namespace

HyperNodeEdits::HyperNodeEdits(std::vector<HyperNode> hyperNodes) : m_hyperNodes(std::move(hyperNodes)) {
    sort();
}

void HyperNodeEdits::sort() {
    std::sort(m_hyperNodes.begin(), m_hyperNodes.end(),
              [](const HyperNode& a, const HyperNode& b) { return a.name < b.name; });
}

const HyperNode* HyperNodeEdits::find(std::string_view name) const {
    auto it = std::lower_bound(m_hyperNodes.begin(), m_hyperNodes.end(), name,
                               [](const HyperNode& hyperNode, std::string_view key) { return hyperNode.name < key; });
    return it != m_hyperNodes.end() && it->name == name ? &*it : nullptr;
}

HyperNode* HyperNodeEdits::findMutable(std::string_view name) {
    return const_cast<HyperNode*>(find(name));
}

std::vector<std::string> HyperNodeEdits::parentsOf(MemberType type, std::string_view name) const {
    std::vector<std::string> parents;
    for (const HyperNode& hyperNode : m_hyperNodes)
        if (std::any_of(hyperNode.members.begin(), hyperNode.members.end(),
                        [&](const HyperNodeMember& member) { return isExact(member, type, name); }))
            parents.push_back(hyperNode.name);
    return parents;
}

std::vector<std::string> HyperNodeEdits::roots() const {
    std::set<std::string_view> listed;
    for (const HyperNode& hyperNode : m_hyperNodes)
        for (const HyperNodeMember& member : hyperNode.members)
            if (member.type == MemberType::HyperNode && member.selector == HyperNodeMember::Selector::Exact)
                listed.insert(member.value);
    std::vector<const HyperNode*> tops;
    for (const HyperNode& hyperNode : m_hyperNodes)
        if (!listed.contains(hyperNode.name)) tops.push_back(&hyperNode);
    std::stable_sort(tops.begin(), tops.end(),
                     [](const HyperNode* a, const HyperNode* b) { return a->tier > b->tier; });
    std::vector<std::string> names;
    for (const HyperNode* top : tops) names.push_back(top->name);
    return names;
}

bool HyperNodeEdits::isBelow(std::string_view name, std::string_view ancestor) const {
    // Breadth first over exact HyperNode members; `seen` keeps a cyclic tree from looping.
    std::vector<std::string_view> queue{ancestor};
    std::set<std::string_view> seen{ancestor};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const HyperNode* hyperNode = find(queue[i]);
        if (!hyperNode) continue;
        for (const HyperNodeMember& member : hyperNode->members) {
            if (member.type != MemberType::HyperNode || member.selector != HyperNodeMember::Selector::Exact) continue;
            if (member.value == name) return true;
            if (seen.insert(member.value).second) queue.push_back(member.value);
        }
    }
    return false;
}

std::vector<std::string> HyperNodeEdits::possibleParents(MemberType type, std::string_view name) const {
    std::vector<std::string> parents;
    for (const HyperNode& hyperNode : m_hyperNodes) {
        if (type == MemberType::HyperNode && (hyperNode.name == name || isBelow(hyperNode.name, name))) continue;
        parents.push_back(hyperNode.name);
    }
    return parents;
}

std::vector<int> HyperNodeEdits::tiers() const {
    std::set<int> tiers;
    for (const HyperNode& hyperNode : m_hyperNodes) tiers.insert(hyperNode.tier);
    return {tiers.begin(), tiers.end()};
}

std::string HyperNodeEdits::tierName(int tier) const {
    for (const HyperNode& hyperNode : m_hyperNodes)
        if (hyperNode.tier == tier && !hyperNode.tierName.empty()) return hyperNode.tierName;
    return {};
}

void HyperNodeEdits::remember(const std::vector<std::string>& names) {
    Step step;
    for (const std::string& name : names) {
        if (name.empty() || std::any_of(step.begin(), step.end(), [&](const auto& kept) { return kept.first == name; }))
            continue;
        const HyperNode* now = find(name);
        step.emplace_back(name, now ? std::optional<HyperNode>(*now) : std::nullopt);
    }
    m_history.push_back(std::move(step));
    constexpr std::size_t kMaxHistory = 100;
    if (m_history.size() > kMaxHistory) m_history.erase(m_history.begin());
}

bool HyperNodeEdits::undo() {
    if (m_history.empty()) return false;
    for (auto& kept : m_history.back()) {
        std::erase_if(m_hyperNodes, [&](const HyperNode& hyperNode) { return hyperNode.name == kept.first; });
        if (kept.second) m_hyperNodes.push_back(std::move(*kept.second));
    }
    m_history.pop_back();
    sort();
    return true;
}

Status HyperNodeEdits::moveMember(MemberType type, const std::string& name, const std::string& from,
                                  const std::string& to) {
    if (from == to) return Error{"it is there already"};
    if (type == MemberType::Node && to.empty()) return Error{"a node can only be a member of a HyperNode"};
    if (!to.empty() && !find(to)) return Error{"no HyperNode " + to};
    if (type == MemberType::HyperNode) {
        if (!find(name)) return Error{"no HyperNode " + name};
        if (name == to || (!to.empty() && isBelow(to, name)))
            return Error{"HyperNode " + to + " is " + name + " or below it: a HyperNode cannot hold itself"};
    }
    const HyperNode* source = from.empty() ? nullptr : find(from);
    if (!from.empty() && !source) return Error{"no HyperNode " + from};
    if (source && std::none_of(source->members.begin(), source->members.end(),
                               [&](const HyperNodeMember& member) { return isExact(member, type, name); }))
        return Error{"HyperNode " + from + " does not list " + typeWord(type) + " " + name};
    if (const HyperNode* target = to.empty() ? nullptr : find(to);
        target && std::any_of(target->members.begin(), target->members.end(),
                              [&](const HyperNodeMember& member) { return isExact(member, type, name); }))
        return Error{"HyperNode " + to + " lists " + typeWord(type) + " " + name + " already"};

    remember({from, to});
    if (HyperNode* old = from.empty() ? nullptr : findMutable(from))
        std::erase_if(old->members, [&](const HyperNodeMember& member) { return isExact(member, type, name); });
    if (HyperNode* target = to.empty() ? nullptr : findMutable(to)) {
        HyperNodeMember member;
        member.type = type;
        member.selector = HyperNodeMember::Selector::Exact;
        member.value = name;
        target->members.push_back(std::move(member));
    }
    return {};
}

Status HyperNodeEdits::renameTier(int tier, const std::string& tierName) {
    const auto tierList = tiers();
    if (std::find(tierList.begin(), tierList.end(), tier) == tierList.end())
        return Error{"no HyperNode is of tier " + std::to_string(tier)};
    if (std::all_of(m_hyperNodes.begin(), m_hyperNodes.end(), [&](const HyperNode& hyperNode) {
            return hyperNode.tier != tier || hyperNode.tierName == tierName;
        }))
        return Error{"tier " + std::to_string(tier) + " is called " + tierName + " already"};
    std::vector<std::string> ofTier;
    for (const HyperNode& hyperNode : m_hyperNodes)
        if (hyperNode.tier == tier) ofTier.push_back(hyperNode.name);
    remember(ofTier);
    for (HyperNode& hyperNode : m_hyperNodes)
        if (hyperNode.tier == tier) hyperNode.tierName = tierName;
    return {};
}

Status HyperNodeEdits::addHyperNode(const std::string& name, int tier, const std::string& tierName,
                                    const std::string& parent) {
    if (name.empty()) return Error{"give the new HyperNode a name"};
    if (find(name)) return Error{"HyperNode " + name + " exists already"};
    if (!parent.empty() && !find(parent)) return Error{"no HyperNode " + parent};
    remember({name, parent});
    HyperNode hyperNode;
    hyperNode.name = name;
    hyperNode.tier = tier;
    hyperNode.tierName = tierName;
    m_hyperNodes.push_back(std::move(hyperNode));
    sort();
    if (HyperNode* target = parent.empty() ? nullptr : findMutable(parent)) {
        HyperNodeMember member;
        member.type = MemberType::HyperNode;
        member.value = name;
        target->members.push_back(std::move(member));
    }
    return {};
}

Status HyperNodeEdits::removeHyperNode(const std::string& name) {
    if (!find(name)) return Error{"no HyperNode " + name};
    std::vector<std::string> touched{name};
    for (const HyperNode& hyperNode : m_hyperNodes)
        if (std::any_of(hyperNode.members.begin(), hyperNode.members.end(),
                        [&](const HyperNodeMember& member) { return isExact(member, MemberType::HyperNode, name); }))
            touched.push_back(hyperNode.name);
    remember(touched);
    std::erase_if(m_hyperNodes, [&](const HyperNode& hyperNode) { return hyperNode.name == name; });
    for (HyperNode& hyperNode : m_hyperNodes)
        std::erase_if(hyperNode.members,
                      [&](const HyperNodeMember& member) { return isExact(member, MemberType::HyperNode, name); });
    return {};
}

std::vector<ObjectChange> HyperNodeEdits::changesAgainst(const ClusterState& objects) const {
    std::vector<ObjectChange> creates;
    std::vector<ObjectChange> updates;
    std::vector<ObjectChange> deletes;
    const auto place = [&](std::optional<ObjectChange> change) {
        if (!change) return;
        switch (change->action()) {
        case ObjectChange::Action::Create:
            creates.push_back(std::move(*change));
            break;
        case ObjectChange::Action::Update:
            updates.push_back(std::move(*change));
            break;
        case ObjectChange::Action::Delete:
            deletes.push_back(std::move(*change));
            break;
        }
    };
    for (const HyperNode& hyperNode : m_hyperNodes)
        place(objectChangeTo(objects, ObjectKind::HyperNode, hyperNode.name, TopologyObject(hyperNode)));
    for (const auto& [name, hyperNode] : objects.hyperNodes())
        if (!find(name)) place(objectChangeTo(objects, ObjectKind::HyperNode, name, std::nullopt));
    // A parent created with its new children: the children first, lowest tier first.
    std::stable_sort(creates.begin(), creates.end(), [](const ObjectChange& a, const ObjectChange& b) {
        return std::get<HyperNode>(*a.after).tier < std::get<HyperNode>(*b.after).tier;
    });
    std::vector<ObjectChange> changes = std::move(creates);
    for (auto* part : {&updates, &deletes})
        for (ObjectChange& change : *part) changes.push_back(std::move(change));
    return changes;
}

} // namespace topodeck
