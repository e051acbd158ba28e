#include "core/placement/reports/gangs_report.h"

#include "core/model/node_gpus.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace topodeck {
namespace {

constexpr std::uint32_t kOutside = 0xFFFFFFFF;

struct GangKey {
    std::string_view nameSpace;
    std::string_view workload;
    friend bool operator==(const GangKey&, const GangKey&) = default;
};

struct GangKeyHash {
    std::size_t operator()(const GangKey& key) const {
        const std::size_t a = std::hash<std::string_view>{}(key.nameSpace);
        const std::size_t b = std::hash<std::string_view>{}(key.workload);
        return a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
    }
};

// Every node's domain at every level, as dense ids (DomainIds for the hierarchy's levels, NVLink
// domain numbers for the NVLink level); kOutside where the node is outside the level.
class LevelTable {
public:
    LevelTable(const TopologyIndex& index, const std::vector<GangsLevel>& levels)
        : m_levels(levels.size()), m_nodes(index.nodeSlots()) {
        const int depth = index.spec().depth();
        m_domains.assign(m_nodes * m_levels, kOutside);
        for (std::size_t level = 0; level < m_levels; ++level)
            m_domainCounts.push_back(levels[level].nvlink ? index.nvlinkDomainCount() : index.domainSlots());
        for (NodeId id = 0; id < m_nodes; ++id) {
            const NodeStats& stats = index.node(id);
            if (stats.leaf == kNoDomain || m_levels == 0) continue; // a flat cluster has no rows
            std::uint32_t* row = m_domains.data() + id * m_levels;
            DomainId d = stats.leaf;
            for (int level = depth - 1; level >= 0 && d != kNoDomain; --level) {
                const Domain& domain = index.domain(d);
                if (!domain.unlabelled) row[level] = d;
                d = domain.parent;
            }
            if (static_cast<std::size_t>(depth) < m_levels && stats.nvlinkDomain != kNoNvlinkDomain)
                row[depth] = static_cast<std::uint32_t>(stats.nvlinkDomain);
        }
    }

    std::uint32_t at(NodeId id, std::size_t level) const {
        return id < m_nodes ? m_domains[id * m_levels + level] : kOutside;
    }
    std::size_t domainCount(std::size_t level) const { return m_domainCounts[level]; }

private:
    std::size_t m_levels;
    std::size_t m_nodes;
    std::vector<std::uint32_t> m_domains; // m_nodes rows of m_levels
    std::vector<std::size_t> m_domainCounts;
};

// For one pod shape: per level, the domains' capacities largest first as running sums, so the
// fewest domains holding N is one binary search.
struct CapacityCurves {
    std::int64_t gpusPerPod = 0;
    std::vector<std::vector<std::int64_t>> runningSums; // by level
};

CapacityCurves capacityCurves(const TopologyIndex& index, const LevelTable& table, std::size_t levels,
                              std::int64_t gpusPerPod) {
    CapacityCurves curves;
    curves.gpusPerPod = gpusPerPod;
    std::vector<std::vector<std::int64_t>> perDomain(levels);
    std::vector<std::vector<std::int64_t>> single(levels); // nodes outside the level, one each
    for (std::size_t level = 0; level < levels; ++level) perDomain[level].assign(table.domainCount(level), 0);
    for (NodeId id = 0; id < index.nodeSlots(); ++id) {
        const NodeStats& stats = index.node(id);
        if (stats.leaf == kNoDomain) continue;
        const std::int64_t capacity = stats.gpusTotal / gpusPerPod;
        if (capacity <= 0) continue;
        for (std::size_t level = 0; level < levels; ++level) {
            const std::uint32_t d = table.at(id, level);
            if (d == kOutside) {
                single[level].push_back(capacity);
            } else {
                perDomain[level][d] += capacity;
            }
        }
    }
    curves.runningSums.resize(levels);
    for (std::size_t level = 0; level < levels; ++level) {
        std::vector<std::int64_t>& sums = curves.runningSums[level];
        sums = std::move(single[level]);
        for (std::int64_t capacity : perDomain[level])
            if (capacity > 0) sums.push_back(capacity);
        std::sort(sums.begin(), sums.end(), std::greater<>());
        for (std::size_t i = 1; i < sums.size(); ++i) sums[i] += sums[i - 1];
    }
    return curves;
}

// The fewest of the largest domains whose capacity reaches `need`; all of them when none does
// (a gang larger than the whole level can hold by this measure).
int fewestHolding(const std::vector<std::int64_t>& runningSums, std::int64_t need) {
    const auto it = std::lower_bound(runningSums.begin(), runningSums.end(), need);
    const auto count = it == runningSums.end() ? runningSums.size() : static_cast<std::size_t>(it - runningSums.begin()) + 1;
    return static_cast<int>(count);
}

// Each gang's ComputeDomain (the one its workload's pods use the channel of) and the gang's nodes
// outside that domain's cliques.
void attachComputeDomains(GangsReport& report, const ClusterState& state,
                          const std::unordered_map<GangKey, std::uint32_t, GangKeyHash>& gangIds) {
    for (const ComputeDomainUsage& domain : report.computeDomains) {
        for (const ComputeDomainWorkload& workload : domain.workloads) {
            if (workload.name.empty()) continue;
            const auto found = gangIds.find(GangKey{domain.nameSpace, workload.name});
            if (found == gangIds.end()) continue;
            Gang& gang = report.gangs[found->second];
            if (!gang.computeDomain.empty()) continue; // domains come by name: the first one stays
            gang.computeDomain = domain.qualifiedName();
            gang.computeDomainCliques = domain.cliques;
            for (std::size_t i = 0; i < gang.nodes.size(); ++i) {
                const std::string& node = state.record(gang.nodes[i]).node->name;
                const ComputeDomainMember* member = domain.member(node);
                std::string clique(member ? std::string_view(member->clique) : nodeClique(state, node));
                if (!clique.empty() && std::binary_search(domain.cliques.begin(), domain.cliques.end(), clique))
                    continue;
                gang.outsideComputeDomain.push_back({gang.nodes[i], std::move(clique), gang.nodePods[i]});
            }
        }
    }
}

std::vector<GangsLevel> reportLevels(const TopologySpec& spec) {
    std::vector<GangsLevel> levels;
    for (const TopologyLevel& level : spec.levels) levels.push_back({level.name, level.nodeLabel, false});
    if (!spec.nvlinkLabel.empty()) levels.push_back({"nvlink", spec.nvlinkLabel, true});
    return levels;
}

} // namespace

bool Gang::compact() const {
    return std::all_of(levels.begin(), levels.end(), [](const GangSpread& s) { return s.excess() == 0; });
}

std::int32_t Gang::podsOutsideComputeDomain() const {
    std::int32_t pods = 0;
    for (const GangNodeOutside& outside : outsideComputeDomain) pods += outside.pods;
    return pods;
}

std::size_t GangsReport::computeDomainFlagCount() const {
    return static_cast<std::size_t>(
        std::count_if(gangs.begin(), gangs.end(), [](const Gang& g) { return g.computeDomainFlagged(); }));
}

const ComputeDomainUsage* GangsReport::computeDomain(std::string_view qualifiedName) const {
    for (const ComputeDomainUsage& domain : computeDomains)
        if (domain.nameSpace.size() + 1 + domain.name.size() == qualifiedName.size() &&
            qualifiedName.starts_with(domain.nameSpace) && qualifiedName[domain.nameSpace.size()] == '/' &&
            qualifiedName.ends_with(domain.name))
            return &domain;
    return nullptr;
}

std::size_t GangsReport::spreadCount() const {
    return static_cast<std::size_t>(std::count_if(gangs.begin(), gangs.end(), [](const Gang& g) { return !g.compact(); }));
}

bool gangMoreSpread(const Gang& a, const Gang& b) {
    const std::size_t levels = std::min(a.levels.size(), b.levels.size());
    for (std::size_t level = 0; level < levels; ++level) {
        const int ea = a.levels[level].excess();
        const int eb = b.levels[level].excess();
        if (ea != eb) return ea > eb;
    }
    if (a.gpus != b.gpus) return a.gpus > b.gpus;
    return std::tie(a.nameSpace, a.name) < std::tie(b.nameSpace, b.name);
}

GangsReport buildGangsReport(const ClusterState& state, const TopologyIndex& index) {
    GangsReport report;
    report.generation = state.generation();
    report.levels = reportLevels(index.spec());
    const std::size_t levels = report.levels.size();

    // Group the GPU pods by gang; string keys once per pod, dense indexes after.
    std::unordered_map<GangKey, std::uint32_t, GangKeyHash> gangIds;
    std::vector<bool> uniform;
    std::vector<std::vector<std::pair<NodeId, std::int64_t>>> placed; // per gang: (node, GPUs) per pod
    const GpuResources& gpus = index.gpuResources();
    state.forEachPod([&](const Pod& pod) {
        if (!pod.holdsResources() || pod.workload.empty() || pod.workloadKind == WorkloadKind::Unlisted) return;
        // Device-plugin GPUs from its requests, DRA GPUs from its claims; a claim the scheduler
        // made for an extended resource (KEP-5004) holds the GPUs its requests already name.
        const std::int64_t requested = gpus.count(pod.requests);
        const bool claims =
            !pod.resourceClaims.empty() || !pod.claimStatuses.empty() || !pod.extendedResourceClaim.empty();
        const std::int64_t claimed = claims ? claimedGpus(state, pod) : 0;
        const std::int64_t podGpus =
            pod.extendedResourceClaim.empty() ? requested + claimed : std::max(requested, claimed);
        if (podGpus <= 0) return;
        const auto [it, inserted] =
            gangIds.try_emplace(GangKey{pod.nameSpace, pod.workload}, static_cast<std::uint32_t>(report.gangs.size()));
        if (inserted) {
            Gang& gang = report.gangs.emplace_back();
            gang.nameSpace = pod.nameSpace;
            gang.name = pod.workload;
            gang.kind = pod.workloadKind;
            gang.gpusPerPod = podGpus;
            uniform.push_back(true);
            placed.emplace_back();
        }
        Gang& gang = report.gangs[it->second];
        ++gang.pods;
        gang.gpus += podGpus;
        if (podGpus != gang.gpusPerPod) uniform[it->second] = false;
        if (const std::optional<NodeId> node = state.findNode(pod.nodeName))
            placed[it->second].emplace_back(*node, podGpus);
    });

    const LevelTable table(index, report.levels);
    std::vector<CapacityCurves> curves; // by pod shape, built when first needed
    const auto curvesFor = [&](std::int64_t gpusPerPod) -> const CapacityCurves& {
        for (const CapacityCurves& c : curves)
            if (c.gpusPerPod == gpusPerPod) return c;
        return curves.emplace_back(capacityCurves(index, table, levels, gpusPerPod));
    };

    std::vector<std::uint32_t> domains;
    for (std::size_t g = 0; g < report.gangs.size(); ++g) {
        Gang& gang = report.gangs[g];
        if (!uniform[g]) gang.gpusPerPod = 0;
        std::vector<std::pair<NodeId, std::int64_t>>& pods = placed[g];
        std::sort(pods.begin(), pods.end());
        for (const auto& [node, podGpus] : pods) {
            if (gang.nodes.empty() || gang.nodes.back() != node) {
                gang.nodes.push_back(node);
                gang.nodePods.push_back(0);
                gang.nodeGpus.push_back(0);
            }
            ++gang.nodePods.back();
            gang.nodeGpus.back() += podGpus;
        }
        // Pods that differ are measured in GPUs: the shape of one GPU, needing all of them.
        const std::int64_t shape = uniform[g] ? gang.gpusPerPod : 1;
        const std::int64_t need = uniform[g] ? gang.pods : gang.gpus;
        const CapacityCurves& capacity = curvesFor(shape);
        gang.levels.resize(levels);
        for (std::size_t level = 0; level < levels; ++level) {
            GangSpread& spread = gang.levels[level];
            domains.clear();
            for (NodeId node : gang.nodes) {
                const std::uint32_t d = table.at(node, level);
                if (d == kOutside) {
                    ++spread.outside;
                } else {
                    domains.push_back(d);
                }
            }
            std::sort(domains.begin(), domains.end());
            const auto distinct = std::unique(domains.begin(), domains.end()) - domains.begin();
            spread.spans = static_cast<int>(distinct) + spread.outside;
            spread.least = std::min(fewestHolding(capacity.runningSums[level], need), spread.spans);
        }
    }
    report.computeDomains = computeDomainUsage(state, &index);
    attachComputeDomains(report, state, gangIds);
    std::sort(report.gangs.begin(), report.gangs.end(), gangMoreSpread);
    return report;
}

} // namespace topodeck
