#include "core/exports/slurm_topology_from_index.h"

#include "core/text/natural_order.h"
#include "core/topology/topology_index.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace topodeck {

namespace {

// Every labelled domain under the root, depth first in children order (natural order), by level.
struct LabelledDomains {
    std::vector<std::vector<DomainId>> byLevel;
    std::vector<DomainId> all;
    std::size_t nodesLeftOut = 0; // nodes under an unlabelled domain
};

// An NVLink domain's block is named after the rack (lowest switch-level domain) of its first
// node, which people can find, instead of the clique id (often a UUID); "-2", "-3", ... when a
// rack holds several domains. Without labels the clique id is all there is.
std::string nvlinkBlockName(const TopologyIndex& index, NodeId firstNode, std::int32_t nvlink,
                            std::unordered_set<std::string>& taken) {
    const int levels = slurmSwitchLevels(index);
    DomainId domain = index.node(firstNode).leaf;
    while (domain != kNoDomain && index.domain(domain).level >= levels) domain = index.domain(domain).parent;
    const bool named = domain != kNoDomain && index.domain(domain).level >= 0 && !index.domain(domain).unlabelled;
    const std::string base = named ? index.domain(domain).value : index.nvlinkName(nvlink);
    std::string name = base;
    for (int n = 2; !taken.insert(name).second; ++n) name = base + '-' + std::to_string(n);
    return name;
}

LabelledDomains labelledDomains(const TopologyIndex& index) {
    LabelledDomains result;
    const int depth = slurmSwitchLevels(index);
    result.byLevel.resize(static_cast<std::size_t>(depth));
    std::vector<DomainId> stack;
    const auto& top = index.root().children;
    for (auto it = top.rbegin(); it != top.rend(); ++it) stack.push_back(*it);
    while (!stack.empty()) {
        const DomainId id = stack.back();
        stack.pop_back();
        const Domain& d = index.domain(id);
        if (d.unlabelled) {
            result.nodesLeftOut += static_cast<std::size_t>(d.totals.nodesTotal);
            continue;
        }
        result.byLevel[static_cast<std::size_t>(d.level)].push_back(id);
        result.all.push_back(id);
        if (d.level + 1 < depth)
            for (auto it = d.children.rbegin(); it != d.children.rend(); ++it) stack.push_back(*it);
    }
    return result;
}

// Switch or block names: the value, or the path joined with '-' where values repeat. A name that
// still collides (a value containing '-') gets a numeric suffix.
std::unordered_map<DomainId, std::string> domainNames(const TopologyIndex& index, const std::vector<DomainId>& domains,
                                                      std::unordered_set<std::string>& taken) {
    std::unordered_map<std::string, int> counts;
    for (DomainId id : domains) ++counts[index.domain(id).value];
    std::unordered_map<DomainId, std::string> names;
    for (DomainId id : domains) {
        std::string name;
        if (counts[index.domain(id).value] == 1) {
            name = index.domain(id).value;
        } else {
            for (DomainId d : index.pathTo(id)) {
                if (index.domain(d).level < 0) continue;
                if (!name.empty()) name += '-';
                name += index.domain(d).value;
            }
        }
        std::string unique = name;
        for (int n = 2; !taken.insert(unique).second; ++n) unique = name + "-" + std::to_string(n);
        names.emplace(id, std::move(unique));
    }
    return names;
}

std::string levelList(const TopologyIndex& index) {
    std::string keys;
    for (const TopologyLevel& level : index.spec().levels) keys += (keys.empty() ? "" : ", ") + level.nodeLabel;
    return keys;
}

} // namespace

int slurmSwitchLevels(const TopologyIndex& index) {
    const auto& levels = index.spec().levels;
    const bool hostnameLowest = levels.size() > 1 && levels.back().nodeLabel == "kubernetes.io/hostname";
    return static_cast<int>(levels.size()) - (hostnameLowest ? 1 : 0);
}

SlurmTopology slurmTreeFromIndex(const ClusterState& state, const TopologyIndex& index) {
    SlurmTopology topology;
    topology.kind = SlurmTopology::Kind::Tree;
    topology.clusterDefault = true;
    const int depth = slurmSwitchLevels(index);
    if (depth == 0) return topology;
    const LabelledDomains domains = labelledDomains(index);
    std::unordered_set<std::string> taken;
    const auto names = domainNames(index, domains.all, taken);
    for (int level = depth - 1; level >= 0; --level) {
        for (DomainId id : domains.byLevel[static_cast<std::size_t>(level)]) {
            SlurmSwitch sw;
            sw.name = names.at(id);
            if (level == depth - 1) {
                for (NodeId node : nodesUnder(index, id)) sw.nodes.push_back(state.record(node).node->name);
            } else {
                for (DomainId child : index.domain(id).children)
                    if (!index.domain(child).unlabelled) sw.switches.push_back(names.at(child));
            }
            topology.switches.push_back(std::move(sw));
        }
    }
    const std::vector<DomainId>& top = domains.byLevel.front();
    if (top.size() > 1) {
        SlurmSwitch root;
        root.name = "root";
        for (int n = 2; !taken.insert(root.name).second; ++n) root.name = "root-" + std::to_string(n);
        for (DomainId id : top) root.switches.push_back(names.at(id));
        topology.switches.push_back(std::move(root));
    }
    if (domains.nodesLeftOut > 0)
        topology.warnings.push_back(std::to_string(domains.nodesLeftOut) + " nodes lack a label of the hierarchy (" +
                                    levelList(index) + ") and are under no switch");
    return topology;
}

SlurmIndexBlocks slurmBlockNodesFromIndex(const TopologyIndex& index, bool perRack) {
    SlurmIndexBlocks blocks;
    const int depth = index.spec().depth();
    if (!perRack && !index.spec().nvlinkLabel.empty() && index.nvlinkDomainCount() > 0) {
        // NVLink domains, met in the order of the lowest-level domains (unlabelled ones too: the
        // NVLink fabric does not need the scale-out labels).
        blocks.fromNvlink = true;
        std::unordered_set<std::string> taken;
        std::vector<std::int32_t> blockOf(index.nvlinkDomainCount(), -1);
        std::vector<DomainId> stack{kRootDomain};
        while (!stack.empty()) {
            const Domain& d = index.domain(stack.back());
            stack.pop_back();
            for (auto it = d.children.rbegin(); it != d.children.rend(); ++it) stack.push_back(*it);
            for (NodeId node : d.nodes) {
                const std::int32_t nvlink = index.node(node).nvlinkDomain;
                if (nvlink == kNoNvlinkDomain) {
                    ++blocks.nodesLeftOut;
                    continue;
                }
                std::int32_t& block = blockOf[static_cast<std::size_t>(nvlink)];
                if (block < 0) {
                    block = static_cast<std::int32_t>(blocks.names.size());
                    blocks.names.push_back(nvlinkBlockName(index, node, nvlink, taken));
                    blocks.nodes.emplace_back();
                }
                blocks.nodes[static_cast<std::size_t>(block)].push_back(node);
            }
        }
        return blocks;
    }
    if (depth == 0) return blocks;
    const LabelledDomains domains = labelledDomains(index);
    const std::vector<DomainId>& lowest = domains.byLevel.back();
    std::unordered_set<std::string> taken;
    const auto names = domainNames(index, lowest, taken);
    for (DomainId id : lowest) {
        blocks.names.push_back(names.at(id));
        blocks.nodes.push_back(nodesUnder(index, id));
    }
    blocks.nodesLeftOut = domains.nodesLeftOut;
    return blocks;
}

SlurmTopology slurmBlocksFromIndex(const ClusterState& state, const TopologyIndex& index, bool perRack) {
    SlurmTopology topology;
    topology.kind = SlurmTopology::Kind::Block;
    topology.clusterDefault = true;
    const SlurmIndexBlocks blocks = slurmBlockNodesFromIndex(index, perRack);
    for (std::size_t b = 0; b < blocks.names.size(); ++b) {
        SlurmBlock block{blocks.names[b], {}};
        for (NodeId node : blocks.nodes[b]) block.nodes.push_back(state.record(node).node->name);
        std::sort(block.nodes.begin(), block.nodes.end(),
                  [](const std::string& a, const std::string& b2) { return naturalLess(a, b2); });
        topology.blocks.push_back(std::move(block));
    }
    if (blocks.nodesLeftOut > 0) {
        const std::string missing = blocks.fromNvlink ? "an NVLink domain label (" + index.spec().nvlinkLabel + ")"
                                                      : "a label of the hierarchy (" + levelList(index) + ")";
        topology.warnings.push_back(std::to_string(blocks.nodesLeftOut) + " nodes lack " + missing +
                                    " and are in no block");
    }
    return topology;
}

} // namespace topodeck
