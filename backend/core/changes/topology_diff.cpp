#include "core/changes/topology_diff.h"

#include "core/model/node_affinity.h"
#include "core/text/natural_order.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace topodeck {

namespace {

// Each domain's path, worked out once (pathName walks up for every call).
std::vector<std::string> domainPaths(const TopologyIndex& index) {
    std::vector<std::string> paths(index.domainSlots());
    for (DomainId id = 0; id < index.domainSlots(); ++id)
        if (index.domain(id).alive) paths[id] = index.pathName(id);
    return paths;
}

// The node's domain at every level, top first (kNoDomain outside the index).
std::vector<DomainId> chainOf(const TopologyIndex& index, NodeId id) {
    const int depth = std::max(0, index.spec().depth());
    std::vector<DomainId> chain(static_cast<std::size_t>(depth), kNoDomain);
    if (id >= index.nodeSlots()) return chain;
    for (DomainId d = index.node(id).leaf; d != kNoDomain; d = index.domain(d).parent) {
        const int level = index.domain(d).level;
        if (level >= 0 && level < depth) chain[static_cast<std::size_t>(level)] = d;
    }
    return chain;
}

bool labelledThroughout(const TopologyIndex& index, const std::vector<DomainId>& chain) {
    return std::all_of(chain.begin(), chain.end(),
                       [&](DomainId d) { return d != kNoDomain && !index.domain(d).unlabelled; });
}

void sortNatural(std::vector<std::string>& names) {
    std::sort(names.begin(), names.end(), naturalLess);
}

struct Counted {
    std::int64_t gpus = 0;
    std::int64_t nodes = 0;
};

std::map<std::string, Counted, std::less<>> countedByPath(const TopologyIndex& index,
                                                          const std::vector<std::string>& paths) {
    std::vector<Counted> counted(index.domainSlots());
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        if (index.node(id).leaf == kNoDomain) continue;
        const std::vector<DomainId> chain = chainOf(index, id);
        if (!labelledThroughout(index, chain)) continue;
        for (DomainId d : chain) {
            counted[d].gpus += index.node(id).gpusTotal;
            ++counted[d].nodes;
        }
    }
    std::map<std::string, Counted, std::less<>> byPath;
    for (DomainId id = 1; id < index.domainSlots(); ++id)
        if (const Domain& d = index.domain(id); d.alive && d.level >= 0 && !d.unlabelled)
            byPath[paths[id]] = counted[id];
    return byPath;
}

// Per level, which domains of one index the nodes of each domain of the other went to.
using Fan = std::map<DomainId, std::set<DomainId>>;

} // namespace

TopologyDiff diffTopology(const ClusterState& state, const TopologyIndex& before, const TopologyIndex& after) {
    TopologyDiff diff;
    const std::vector<std::string> beforePaths = domainPaths(before);
    const std::vector<std::string> afterPaths = domainPaths(after);

    // Labelled domains by path, with what Kueue TAS counts in each: the nodes labelled at every level.
    const std::map<std::string, Counted, std::less<>> beforeByPath = countedByPath(before, beforePaths);
    const std::map<std::string, Counted, std::less<>> afterByPath = countedByPath(after, afterPaths);
    for (const auto& [path, b] : beforeByPath) {
        const auto it = afterByPath.find(path);
        if (it == afterByPath.end()) diff.domainsRemoved.push_back(path);
        const Counted a = it == afterByPath.end() ? Counted{} : it->second;
        if (a.gpus != b.gpus || a.nodes != b.nodes) diff.capacity.push_back({path, b.gpus, a.gpus, b.nodes, a.nodes});
    }
    for (const auto& [path, a] : afterByPath)
        if (!beforeByPath.contains(path)) {
            diff.domainsAdded.push_back(path);
            diff.capacity.push_back({path, 0, a.gpus, 0, a.nodes});
        }

    // Levels compared by position, top first; a plan that adds or removes levels (a Topology or
    // HyperNode tree changed) is compared over the levels both have.
    const std::size_t depth =
        static_cast<std::size_t>(std::max(0, std::min(before.spec().depth(), after.spec().depth())));
    std::vector<Fan> splits(depth);
    std::vector<Fan> merges(depth);
    // NVLink domain (by name) -> the lowest-level domains its nodes sit in, before and after.
    std::map<std::string, std::pair<std::set<DomainId>, std::set<DomainId>>, std::less<>> nvlinkRacks;
    const NodeId nodes = static_cast<NodeId>(std::min({before.nodeSlots(), after.nodeSlots(), state.nodeSlots()}));
    for (NodeId id = 0; id < nodes; ++id) {
        const NodeStats& b = before.node(id);
        const NodeStats& a = after.node(id);
        if (b.leaf == kNoDomain || a.leaf == kNoDomain) continue;
        const std::vector<DomainId> from = chainOf(before, id);
        const std::vector<DomainId> to = chainOf(after, id);
        const std::string& name = state.record(id).node->name;
        if (beforePaths[b.leaf] != afterPaths[a.leaf])
            diff.moved.push_back({name, beforePaths[b.leaf], afterPaths[a.leaf]});
        const bool wasCounted = labelledThroughout(before, from);
        const bool isCounted = labelledThroughout(after, to);
        if (wasCounted && !isCounted) diff.leftLevelCapacity.push_back(name);
        if (!wasCounted && isCounted) diff.joinedLevelCapacity.push_back(name);
        for (std::size_t level = 0; level < depth; ++level) {
            const DomainId f = from[level];
            const DomainId t = to[level];
            if (f == kNoDomain || t == kNoDomain || before.domain(f).unlabelled || after.domain(t).unlabelled) continue;
            splits[level][f].insert(t);
            merges[level][t].insert(f);
        }
        // A node that lost a level label is outside the hierarchy, not in another rack: said above.
        if (b.nvlinkDomain != kNoNvlinkDomain && !before.domain(b.leaf).unlabelled)
            nvlinkRacks[before.nvlinkName(b.nvlinkDomain)].first.insert(b.leaf);
        if (a.nvlinkDomain != kNoNvlinkDomain && !after.domain(a.leaf).unlabelled)
            nvlinkRacks[after.nvlinkName(a.nvlinkDomain)].second.insert(a.leaf);
    }
    for (std::size_t level = 0; level < depth; ++level) {
        for (const auto& [domain, targets] : splits[level])
            if (targets.size() > 1) diff.domainsSplit.push_back(beforePaths[domain]);
        for (const auto& [domain, sources] : merges[level])
            if (sources.size() > 1) diff.domainsMerged.push_back(afterPaths[domain]);
    }
    for (const auto& [name, racks] : nvlinkRacks)
        if (racks.first.size() <= 1 && racks.second.size() > 1) diff.nvlinkSplit.push_back(name);

    for (auto* list :
         {&diff.domainsAdded, &diff.domainsRemoved, &diff.domainsSplit, &diff.domainsMerged, &diff.nvlinkSplit})
        sortNatural(*list);
    std::sort(diff.capacity.begin(), diff.capacity.end(),
              [](const auto& x, const auto& y) { return naturalLess(x.domain, y.domain); });
    return diff;
}

TopologyDiff diffPlanTopology(const ClusterState& state, const TopologyIndex& before, const ChangePlan& plan) {
    const ClusterState changed = withPlanApplied(state, plan);
    return diffPlanTopology(
        state, before, changed,
        TopologyIndex::build(changed, specAfterPlan(before.spec(), changed, plan), before.gpuResources()), plan);
}

TopologyDiff diffPlanTopology(const ClusterState& state, const TopologyIndex& before, const ClusterState& changed,
                              const TopologyIndex& after, const ChangePlan& plan) {
    TopologyDiff diff = diffTopology(state, before, after);
    diff.stranded = strandedWorkloads(state, changed, plan);
    diff.ownedElsewhere = labelsOwnedElsewhere(state, plan);
    if (!plan.objectChanges.empty()) {
        diff.objectProblems = objectChangeProblems(plan.objectChanges, state, changed);
        diff.objectRisks = objectChangeRisks(plan.objectChanges, changed);
    }
    return diff;
}

namespace {

// Whether a field manager is something that may set the label again: not an earlier apply of ours
// ("topodeck…") and not a person's kubectl ("kubectl", "kubectl-label", "kubectl-edit", ...).
bool isController(std::string_view manager) {
    return !manager.starts_with("topodeck") && manager != "kubectl" && !manager.starts_with("kubectl-");
}

} // namespace

std::vector<TopologyDiff::OwnedElsewhere> labelsOwnedElsewhere(const ClusterState& state, const ChangePlan& plan) {
    std::map<std::pair<std::string, std::string>, TopologyDiff::OwnedElsewhere> byKeyAndManager;
    std::optional<NodeId> id;
    std::string_view lastNode;
    for (const LabelChange& change : plan.labelChanges) { // sorted by node, then key
        if (change.annotation) continue;                  // managedFields are read for labels
        if (change.node != lastNode) {
            lastNode = change.node;
            id = state.findNode(change.node);
            if (id && !state.record(*id).present) id.reset();
        }
        if (!id) continue;
        const auto& managers = state.record(*id).node->labelManagers; // sorted by key
        auto it = std::lower_bound(managers.begin(), managers.end(), std::pair<std::string, std::string>(change.key, {}));
        for (; it != managers.end() && it->first == change.key; ++it) {
            if (!isController(it->second)) continue;
            TopologyDiff::OwnedElsewhere& entry = byKeyAndManager[*it];
            if (entry.nodes++ == 0) {
                entry.key = change.key;
                entry.manager = it->second;
                entry.example = change.node;
            }
        }
    }
    std::vector<TopologyDiff::OwnedElsewhere> out;
    out.reserve(byKeyAndManager.size());
    for (auto& [key, entry] : byKeyAndManager) out.push_back(std::move(entry));
    return out;
}

std::vector<TopologyDiff::Stranded> strandedWorkloads(const ClusterState& before, const ClusterState& after,
                                                      const ChangePlan& plan) {
    // The first nodeSelector entry the node does not meet, or nullptr.
    const auto unmetSelector = [](const Pod& pod, const Node& node) -> const std::pair<std::string, std::string>* {
        for (const auto& requirement : pod.nodeSelector)
            if (const std::string* value = node.label(requirement.first); !value || *value != requirement.second)
                return &requirement;
        return nullptr;
    };
    const auto fits = [&](const Pod& pod, const Node& node) {
        return !unmetSelector(pod, node) && matchesNodeAffinity(pod.requiredNodeAffinity, node);
    };
    std::map<std::string, TopologyDiff::Stranded> byWorkload;
    std::string_view lastNode;
    for (const LabelChange& change : plan.labelChanges) { // sorted by node: each node once
        if (change.node == lastNode) continue;
        lastNode = change.node;
        const std::optional<NodeId> id = before.findNode(change.node);
        if (!id || !after.record(*id).present) continue;
        const Node& was = *before.record(*id).node;
        const Node& becomes = *after.record(*id).node;
        before.forEachPodOn(*id, [&](const Pod& pod) {
            if (!pod.holdsResources() || (pod.nodeSelector.empty() && pod.requiredNodeAffinity.empty())) return;
            if (!fits(pod, was) || fits(pod, becomes)) return;
            const std::string name = pod.workload.empty() ? pod.key()
                                     : pod.nameSpace + "/" + pod.workload +
                                           (pod.workloadKind == WorkloadKind::None
                                                ? std::string()
                                                : " (" + std::string(workloadKindName(pod.workloadKind)) + ")");
            TopologyDiff::Stranded& entry = byWorkload[name];
            if (entry.pods++ != 0) return;
            entry.workload = name;
            if (const auto* broken = unmetSelector(pod, becomes)) {
                const std::string* now = becomes.label(broken->first);
                entry.example = "node " + change.node + " needs " + broken->first + "=" + broken->second + ", which " +
                                (now ? "becomes " + *now : std::string("it loses"));
            } else {
                entry.example = "node " + change.node + " no longer matches the required node affinity " +
                                nodeAffinityText(pod.requiredNodeAffinity);
            }
        });
    }
    std::vector<TopologyDiff::Stranded> out;
    for (auto& [name, entry] : byWorkload) out.push_back(std::move(entry));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return naturalLess(a.workload, b.workload); });
    return out;
}

} // namespace topodeck
