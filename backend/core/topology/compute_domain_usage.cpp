#include "core/topology/compute_domain_usage.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace topodeck {
namespace {

// What the pods using one ComputeDomain's channel say, gathered in the one pass over the pods.
struct PodsOfDomain {
    std::map<std::string, std::int32_t, std::less<>> perNode;            // running pods per node
    std::map<std::string, ComputeDomainWorkload, std::less<>> workloads; // by workload name
    std::int32_t pods = 0;
};

ComputeDomainUsage usageOf(const ComputeDomain& domain) {
    ComputeDomainUsage usage;
    usage.nameSpace = domain.nameSpace;
    usage.name = domain.name;
    usage.channelTemplate = domain.channelTemplate;
    usage.allocationMode = domain.allocationMode;
    usage.numNodes = domain.numNodes;
    usage.status = domain.status;
    usage.members.reserve(domain.nodes.size());
    for (const ComputeDomainNode& node : domain.nodes)
        usage.members.push_back({node.name, node.cliqueID, true, node.status, 0, kNoNvlinkDomain});
    return usage;
}

// The usage's members, cliques and workloads completed from its pods.
void finish(ComputeDomainUsage& usage, PodsOfDomain& pods, const ClusterState& state, const TopologyIndex* index) {
    for (ComputeDomainMember& member : usage.members)
        if (const auto it = pods.perNode.find(member.node); it != pods.perNode.end()) {
            member.pods = it->second;
            pods.perNode.erase(it);
        }
    for (const auto& [node, count] : pods.perNode)
        usage.members.push_back(
            {node, std::string(nodeClique(state, node)), false, ComputeDomainReadiness::None, count, kNoNvlinkDomain});
    for (ComputeDomainMember& member : usage.members) {
        if (!member.clique.empty()) usage.cliques.push_back(member.clique);
        if (!index) continue;
        if (const std::optional<NodeId> id = state.findNode(member.node); id && *id < index->nodeSlots()) {
            member.nvlinkDomain = index->node(*id).nvlinkDomain;
            if (member.nvlinkDomain != kNoNvlinkDomain) usage.nvlinkDomains.push_back(member.nvlinkDomain);
        }
    }
    std::sort(usage.cliques.begin(), usage.cliques.end());
    usage.cliques.erase(std::unique(usage.cliques.begin(), usage.cliques.end()), usage.cliques.end());
    std::sort(usage.nvlinkDomains.begin(), usage.nvlinkDomains.end());
    usage.nvlinkDomains.erase(std::unique(usage.nvlinkDomains.begin(), usage.nvlinkDomains.end()),
                              usage.nvlinkDomains.end());
    for (auto& [name, workload] : pods.workloads) usage.workloads.push_back(std::move(workload));
    usage.pods = pods.pods;
}

} // namespace

std::int32_t ComputeDomainUsage::membersWithoutClique() const {
    return static_cast<std::int32_t>(
        std::count_if(members.begin(), members.end(), [](const ComputeDomainMember& m) { return m.clique.empty(); }));
}

const ComputeDomainMember* ComputeDomainUsage::member(std::string_view node) const {
    const auto it =
        std::find_if(members.begin(), members.end(), [&](const ComputeDomainMember& m) { return m.node == node; });
    return it == members.end() ? nullptr : &*it;
}

std::string_view nodeClique(const ClusterState& state, std::string_view node) {
    const std::optional<NodeId> id = state.findNode(node);
    if (!id || !state.record(*id).present) return {};
    const std::string* clique = state.record(*id).node->label(kGpuCliqueLabel);
    return clique ? std::string_view(*clique) : std::string_view();
}

std::vector<ComputeDomainUsage> computeDomainUsage(const ClusterState& state, const TopologyIndex* index) {
    std::vector<ComputeDomainUsage> out;
    const auto& domains = state.computeDomains();
    if (domains.empty()) return out;
    out.reserve(domains.size());
    // "namespace NUL template" -> the domains whose channel it is (one, unless two name the same).
    std::unordered_map<std::string, std::vector<std::size_t>> byTemplate;
    for (const auto& [key, domain] : domains) {
        out.push_back(usageOf(domain));
        if (!domain.channelTemplate.empty())
            byTemplate[domain.nameSpace + '\0' + domain.channelTemplate].push_back(out.size() - 1);
    }

    std::vector<PodsOfDomain> pods(out.size());
    std::string key;
    std::vector<std::size_t> uses; // the domains one pod uses
    state.forEachPod([&](const Pod& pod) {
        if (pod.resourceClaims.empty() || pod.phase == PodPhase::Succeeded || pod.phase == PodPhase::Failed) return;
        uses.clear();
        for (const PodResourceClaim& claim : pod.resourceClaims) {
            if (claim.templateName.empty()) continue;
            key.assign(pod.nameSpace).push_back('\0');
            key += claim.templateName;
            if (const auto found = byTemplate.find(key); found != byTemplate.end())
                uses.insert(uses.end(), found->second.begin(), found->second.end());
        }
        std::sort(uses.begin(), uses.end());
        uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
        for (const std::size_t i : uses) {
            PodsOfDomain& of = pods[i];
            ++of.pods;
            ComputeDomainWorkload& workload = of.workloads[pod.workload];
            if (workload.pods++ == 0) {
                workload.name = pod.workload;
                workload.kind = pod.workloadKind;
            }
            if (pod.holdsResources()) ++of.perNode[pod.nodeName];
        }
    });
    for (std::size_t i = 0; i < out.size(); ++i) finish(out[i], pods[i], state, index);
    return out;
}

} // namespace topodeck
