#include "core/topology/hierarchy_sources.h"

#include "core/model/gpu_resources.h"
#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/hypernode_tree.h"

#include <algorithm>
#include <map>

namespace topodeck {
namespace {

// Labels that group nodes without saying anything about the network: the node pool (one key per
// provider; a cluster uses one) and the instance type.
constexpr std::string_view kNodePoolKeys[] = {"cloud.google.com/gke-nodepool", "eks.amazonaws.com/nodegroup",
                                              "karpenter.sh/nodepool", "kubernetes.azure.com/agentpool",
                                              "node.kubernetes.io/pool"};
constexpr std::string_view kInstanceTypeKey = "node.kubernetes.io/instance-type";

std::size_t nodesCarrying(const std::vector<const Node*>& nodes, std::string_view key) {
    return static_cast<std::size_t>(
        std::count_if(nodes.begin(), nodes.end(), [key](const Node* node) { return node->label(key) != nullptr; }));
}

TopologySpec membershipSpec(std::string name, std::string_view origin, std::vector<TopologyLevel> levels,
                            std::shared_ptr<TopologyMembership> membership) {
    TopologySpec spec;
    spec.name = std::move(name);
    spec.origin = std::string(origin);
    membership->levels = static_cast<int>(levels.size());
    spec.levels = std::move(levels);
    spec.membership = std::move(membership);
    return spec;
}

} // namespace

std::vector<const Node*> topologyDecidingNodes(const ClusterState& state) {
    const GpuResources gpus;
    std::vector<const Node*> all;
    std::vector<const Node*> withGpus;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        all.push_back(record.node.get());
        if (gpus.count(record.node->allocatable) > 0) withGpus.push_back(record.node.get());
    }
    return withGpus.empty() ? all : withGpus;
}

Status addSlurmTopologyFile(const std::string& path, ClusterState& state, std::vector<std::string>& warnings) {
    auto topologies = readSlurmTopologyFile(path);
    if (!topologies) return topologies.error();
    if (topologies->empty()) return Error{path + ": no topology in this file"};
    for (const std::string& warning : topologies->front().warnings) warnings.push_back(path + ": " + warning);
    (void)state.apply(SlurmTopologySet{std::make_shared<const SlurmTopology>(std::move(topologies->front()))});
    return {};
}

std::optional<TopologySpec> slurmTopologyHierarchy(const ClusterState& state) {
    const SlurmTopology* topology = state.slurmTopology().get();
    if (!topology || topology->kind == SlurmTopology::Kind::Flat ||
        (topology->switches.empty() && topology->blocks.empty()))
        return std::nullopt;
    SlurmHierarchy hierarchy = slurmHierarchy(topology);
    std::map<std::string_view, std::size_t> levelOfKey;
    for (std::size_t i = 0; i < hierarchy.spec.levels.size(); ++i) levelOfKey[hierarchy.spec.levels[i].nodeLabel] = i;
    auto membership = std::make_shared<TopologyMembership>();
    for (auto& [node, labels] : hierarchy.labelsByNode) {
        std::vector<std::string> path(hierarchy.spec.levels.size());
        for (auto& [key, value] : labels)
            if (auto it = levelOfKey.find(key); it != levelOfKey.end()) path[it->second] = std::move(value);
        membership->pathByNode.emplace(node, std::move(path));
    }
    TopologySpec spec =
        membershipSpec(topology->name, kSlurmTopologyOrigin, std::move(hierarchy.spec.levels), std::move(membership));
    return spec;
}

Result<std::optional<TopologySpec>> hyperNodeHierarchy(const ClusterState& state, std::vector<std::string>* warnings) {
    if (state.hyperNodes().empty()) return std::optional<TopologySpec>();
    std::vector<HyperNode> hyperNodes;
    hyperNodes.reserve(state.hyperNodes().size());
    for (const auto& [name, hyperNode] : state.hyperNodes()) hyperNodes.push_back(hyperNode);
    Result<HyperNodeTree> resolved = resolveHyperNodes(hyperNodes, state);
    if (!resolved) return resolved.error();
    const HyperNodeTree& tree = *resolved;
    if (warnings) warnings->insert(warnings->end(), tree.warnings.begin(), tree.warnings.end());

    // The real tiers, highest first (the last of tree.tiers is the virtual top's).
    std::vector<std::int32_t> tiers(tree.tiers.begin(), tree.tiers.end() - 1);
    std::reverse(tiers.begin(), tiers.end());
    std::vector<TopologyLevel> levels;
    for (std::int32_t tier : tiers)
        levels.push_back({"hypernode.topodeck.io/tier-" + std::to_string(tier), tree.tierLabel(tier)});

    auto membership = std::make_shared<TopologyMembership>();
    std::vector<HyperNodeTree::Id> chain; // the node's HyperNodes, lowest tier first
    for (NodeId id = 0; id < state.nodeSlots() && id < tree.leafOf.size(); ++id) {
        HyperNodeTree::Id leaf = tree.leafOf[id];
        if (!state.record(id).present || leaf == HyperNodeTree::kNone || leaf == tree.top) continue;
        chain.clear();
        for (HyperNodeTree::Id at = leaf; at != HyperNodeTree::kNone && at != tree.top;
             at = tree.entries[static_cast<std::size_t>(at)].parent)
            chain.push_back(at);
        std::vector<std::string> path(tiers.size());
        for (std::size_t level = 0; level < tiers.size(); ++level) {
            // The highest HyperNode of the chain whose tier is at most this level's, else the lowest.
            HyperNodeTree::Id holder = chain.front();
            for (HyperNodeTree::Id at : chain)
                if (tree.entries[static_cast<std::size_t>(at)].tier <= tiers[level]) holder = at;
            path[level] = tree.entries[static_cast<std::size_t>(holder)].name;
        }
        membership->pathByNode.emplace(state.record(id).node->name, std::move(path));
    }
    return std::optional<TopologySpec>(
        membershipSpec("hypernodes", kHyperNodeOrigin, std::move(levels), std::move(membership)));
}

TopologySpec noTopologyHierarchy(const ClusterState& state, const std::string& lookedFor) {
    TopologySpec spec;
    spec.origin = std::string(kNoTopologyOrigin);
    const std::vector<const Node*> nodes = topologyDecidingNodes(state);
    if (nodes.empty()) {
        spec.notice = "the cluster has no nodes";
        return spec;
    }
    const auto widelyCarried = [&](std::string_view key) { return nodesCarrying(nodes, key) * 2 >= nodes.size(); };
    std::string_view pool;
    std::size_t poolNodes = 0;
    for (std::string_view key : kNodePoolKeys)
        if (const std::size_t n = nodesCarrying(nodes, key); n > poolNodes && widelyCarried(key)) {
            pool = key;
            poolNodes = n;
        }
    std::vector<std::string> keys;
    if (!pool.empty()) keys.emplace_back(pool);
    if (widelyCarried(kInstanceTypeKey)) keys.emplace_back(kInstanceTypeKey);
    for (const std::string& key : keys) spec.levels.push_back({key, TopologySpec::shortNameForKey(key)});

    std::string grouping = "nodes shown flat under the cluster";
    if (!keys.empty()) {
        grouping = "nodes grouped by ";
        for (std::size_t i = 0; i < keys.size(); ++i) grouping += (i ? " and " : "") + keys[i];
        grouping += ", which say nothing of the network";
    }
    spec.notice = "no topology found (looked for " + lookedFor + "): " + grouping +
                  "; pick the levels with --levels KEY,... (top level first) or --topology NAME";
    return spec;
}

} // namespace topodeck
