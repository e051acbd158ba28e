#include "core/topology/topology_presets.h"

#include "core/model/gpu_resources.h"
#include "core/slurm/slurm_cluster.h"
#include "core/topology/hierarchy_sources.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

namespace topodeck {

namespace {

// The NVIDIA GPU Operator's NVLink partition label, on every multi-node-NVLink node.
constexpr std::string_view kGpuClique = "nvidia.com/gpu.clique";

TopologyPreset makePreset(std::string name, std::string description, const std::vector<std::string>& keys,
                          std::string nvlinkLabel = {}) {
    TopologyPreset preset;
    preset.spec = TopologySpec::fromLabelKeys(keys);
    preset.spec.name = name;
    preset.spec.origin = "preset";
    preset.spec.nvlinkLabel = std::move(nvlinkLabel);
    preset.name = std::move(name);
    preset.description = std::move(description);
    return preset;
}

bool anyPresentNodeCarries(const ClusterState& state, std::string_view key) {
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (record.present && record.node->label(key)) return true;
    }
    return false;
}

struct Coverage {
    std::size_t nodes = 0;     // nodes carrying at least one of the level keys
    std::size_t bestLevel = 0; // nodes carrying the most widely carried level key
    int carriedLevels = 0;     // level keys carried by at least one node
};

// Which of the candidates' level keys the deciding nodes carry, taken once: nodes are grouped by
// the set of candidate keys they carry (a handful of groups), so measuring a candidate costs
// nothing per node. Looking every key of every candidate up on every node took a quarter of a
// second at 65,000 nodes.
class KeyCensus {
public:
    KeyCensus(const std::vector<const Node*>& nodes, const std::vector<const TopologySpec*>& candidates) {
        for (const TopologySpec* spec : candidates)
            for (const TopologyLevel& level : spec->levels) m_bits.try_emplace(level.nodeLabel, m_bits.size());
        const std::size_t words = (m_bits.size() + 63) / 64;
        std::vector<std::uint64_t> carried(words);
        for (const Node* node : nodes) {
            std::fill(carried.begin(), carried.end(), 0);
            for (const auto& [key, value] : node->labels) {
                if (auto it = m_bits.find(key); it != m_bits.end())
                    carried[it->second / 64] |= std::uint64_t(1) << (it->second % 64);
            }
            ++m_groups[carried];
        }
    }

    Coverage measure(const TopologySpec& spec) const {
        Coverage coverage;
        std::vector<std::size_t> perLevel(spec.levels.size(), 0);
        for (const auto& [carried, count] : m_groups) {
            bool any = false;
            for (std::size_t i = 0; i < spec.levels.size(); ++i) {
                const std::size_t bit = m_bits.at(spec.levels[i].nodeLabel);
                if (carried[bit / 64] >> (bit % 64) & 1) {
                    perLevel[i] += count;
                    any = true;
                }
            }
            if (any) coverage.nodes += count;
        }
        for (std::size_t count : perLevel) {
            coverage.bestLevel = std::max(coverage.bestLevel, count);
            if (count > 0) ++coverage.carriedLevels;
        }
        return coverage;
    }

private:
    std::unordered_map<std::string_view, std::size_t> m_bits;   // level key -> bit
    std::map<std::vector<std::uint64_t>, std::size_t> m_groups; // carried keys -> nodes
};

bool qualifies(const Coverage& coverage, std::size_t population) {
    return coverage.bestLevel > 0 && coverage.bestLevel * 2 >= population;
}

bool betterThan(const Coverage& a, const Coverage& b) {
    if (a.nodes != b.nodes) return a.nodes > b.nodes;
    return a.carriedLevels > b.carriedLevels;
}

// A preset is a template: levels no node carries would only add an empty level to the tree.
// Keeps every level when none is carried, so that an explicit choice still shows something.
TopologySpec withoutAbsentLevels(const ClusterState& state, TopologySpec spec) {
    std::vector<TopologyLevel> carried;
    for (const TopologyLevel& level : spec.levels)
        if (anyPresentNodeCarries(state, level.nodeLabel)) carried.push_back(level);
    if (!carried.empty()) spec.levels = std::move(carried);
    return spec;
}

// The NVLink key must be one the nodes carry; nvidia.com/gpu.clique stands in when the spec has
// none of its own, unless it is already one of the levels.
void settleNvlinkLabel(const ClusterState& state, TopologySpec& spec, bool dropAbsent) {
    if (!spec.nvlinkLabel.empty()) {
        if (!dropAbsent || anyPresentNodeCarries(state, spec.nvlinkLabel)) return;
        spec.nvlinkLabel.clear();
    }
    if (spec.levelIndex(kGpuClique) < 0 && anyPresentNodeCarries(state, kGpuClique)) spec.nvlinkLabel = kGpuClique;
}

TopologySpec fromPreset(const ClusterState& state, const TopologyPreset& preset) {
    TopologySpec spec = withoutAbsentLevels(state, preset.spec);
    settleNvlinkLabel(state, spec, true);
    return spec;
}

std::string knownNames(const ClusterState& state) {
    std::string names;
    for (const auto& [name, spec] : state.topologies()) {
        names += names.empty() ? "" : ", ";
        names += name;
    }
    for (const TopologyPreset& preset : topologyPresets()) {
        names += names.empty() ? "" : ", ";
        names += preset.name;
    }
    return names;
}

} // namespace

const std::vector<TopologyPreset>& topologyPresets() {
    // Keys checked against each provider's documentation; see reference/topology-labels.md.
    static const std::vector<TopologyPreset> presets = {
        makePreset("topograph", "Topograph v1: fabric.topograph.run/tier-N switch tiers, tier 0 nearest the node",
                   {"fabric.topograph.run/tier-3", "fabric.topograph.run/tier-2", "fabric.topograph.run/tier-1",
                    "fabric.topograph.run/tier-0"},
                   "accelerator.topograph.run/domain"),
        makePreset("topograph-legacy", "Topograph up to v0.5: network.topology.nvidia.com/{core,spine,leaf}",
                   {"network.topology.nvidia.com/core", "network.topology.nvidia.com/spine",
                    "network.topology.nvidia.com/leaf"},
                   "network.topology.nvidia.com/accelerator"),
        makePreset("topograph-block",
                   "early Topograph: network.topology.nvidia.com/{datacenter,spine,block}, as Koordinator documents",
                   {"network.topology.nvidia.com/datacenter", "network.topology.nvidia.com/spine",
                    "network.topology.nvidia.com/block"},
                   "network.topology.nvidia.com/accelerator"),
        makePreset("gke", "GKE compact placement: cloud.google.com/gce-topology-{block,subblock,host}",
                   {"cloud.google.com/gce-topology-block", "cloud.google.com/gce-topology-subblock",
                    "cloud.google.com/gce-topology-host"}),
        makePreset("eks", "EKS instance topology: topology.k8s.aws/network-node-layer-1 (top) to -layer-4",
                   {"topology.k8s.aws/network-node-layer-1", "topology.k8s.aws/network-node-layer-2",
                    "topology.k8s.aws/network-node-layer-3", "topology.k8s.aws/network-node-layer-4"},
                   "topology.k8s.aws/ultraserver-id"),
        makePreset(
            "coreweave", "CoreWeave backend fabric: backend.coreweave.cloud/{fabric,superpod,leafgroup}",
            {"backend.coreweave.cloud/fabric", "backend.coreweave.cloud/superpod", "backend.coreweave.cloud/leafgroup"},
            "ds.coreweave.com/nvlink.domain"),
        makePreset("coreweave-ib", "CoreWeave InfiniBand (older keys): ib.coreweave.cloud/{fabric,superpod,leafgroup}",
                   {"ib.coreweave.cloud/fabric", "ib.coreweave.cloud/superpod", "ib.coreweave.cloud/leafgroup"},
                   "ds.coreweave.com/nvlink.domain"),
        makePreset("nebius", "Nebius: topology.nebius.com/tier-N, tier 0 nearest the node",
                   {"topology.nebius.com/tier-2", "topology.nebius.com/tier-1", "topology.nebius.com/tier-0"}),
        makePreset("generic", "Kubernetes well-known labels: topology.kubernetes.io/{region,zone}",
                   {"topology.kubernetes.io/region", "topology.kubernetes.io/zone"}),
    };
    return presets;
}

const TopologyPreset* findTopologyPreset(std::string_view name) {
    for (const TopologyPreset& preset : topologyPresets())
        if (preset.name == name) return &preset;
    return nullptr;
}

namespace {

std::optional<TopologySpec> detectHierarchy(const ClusterState& state, bool withHyperNodes,
                                            std::string* hyperNodeProblem) {
    const auto& objects = state.topologies();
    if (objects.size() == 1) {
        TopologySpec spec = objects.begin()->second;
        settleNvlinkLabel(state, spec, false);
        return spec;
    }

    const std::vector<const Node*> nodes = topologyDecidingNodes(state);
    if (nodes.empty()) return std::nullopt;

    const auto& presets = topologyPresets();
    std::vector<const TopologySpec*> candidates;
    for (const auto& [name, spec] : objects) candidates.push_back(&spec);
    for (const TopologyPreset& preset : presets) candidates.push_back(&preset.spec);
    const KeyCensus census(nodes, candidates);

    // The operator's own Topology objects before any preset.
    const TopologySpec* bestObject = nullptr;
    Coverage bestObjectCoverage;
    for (const auto& [name, spec] : objects) {
        const Coverage coverage = census.measure(spec);
        if (qualifies(coverage, nodes.size()) && (!bestObject || betterThan(coverage, bestObjectCoverage))) {
            bestObject = &spec;
            bestObjectCoverage = coverage;
        }
    }
    if (bestObject) {
        TopologySpec spec = *bestObject;
        settleNvlinkLabel(state, spec, false);
        return spec;
    }

    // The HyperNode tree before any preset: it is what Volcano schedules by.
    if (withHyperNodes) {
        auto hyperNodes = hyperNodeHierarchy(state);
        if (hyperNodes && *hyperNodes) {
            settleNvlinkLabel(state, **hyperNodes, false);
            return std::move(**hyperNodes);
        }
        if (!hyperNodes && hyperNodeProblem) *hyperNodeProblem = hyperNodes.error().message;
    }

    // The generic preset (last) only when no specific one qualifies.
    for (const bool generic : {false, true}) {
        const TopologyPreset* best = nullptr;
        Coverage bestCoverage;
        for (const TopologyPreset& preset : presets) {
            if ((preset.name == "generic") != generic) continue;
            const Coverage coverage = census.measure(preset.spec);
            if (qualifies(coverage, nodes.size()) && (!best || betterThan(coverage, bestCoverage))) {
                best = &preset;
                bestCoverage = coverage;
            }
        }
        if (best) return fromPreset(state, *best);
    }
    return std::nullopt;
}

} // namespace

std::optional<TopologySpec> detectTopology(const ClusterState& state, std::string* hyperNodeProblem) {
    return detectHierarchy(state, true, hyperNodeProblem);
}

namespace {

// What a cluster's hierarchy is looked for in, for the notice shown when none is found.
std::string sourcesLookedFor() {
    std::string presets;
    for (const TopologyPreset& preset : topologyPresets()) presets += (presets.empty() ? "" : ", ") + preset.name;
    return "Kueue and KAI Topology objects, Volcano HyperNodes, a Slurm topology, and the node labels of the "
           "presets " +
           presets;
}

// The hierarchy named by --topology: a Topology object, a preset, or one of the topology objects
// the state holds ("hypernodes", "slurm").
Result<TopologySpec> namedTopology(const ClusterState& state, std::string_view name) {
    const auto& objects = state.topologies();
    if (auto it = objects.find(name); it != objects.end()) {
        TopologySpec spec = it->second;
        settleNvlinkLabel(state, spec, false);
        return spec;
    }
    if (const TopologyPreset* preset = findTopologyPreset(name)) return fromPreset(state, *preset);
    if (name == kHyperNodeOrigin) {
        auto spec = hyperNodeHierarchy(state);
        if (!spec) return Error{"--topology hypernodes: " + spec.error().message};
        if (!*spec) return Error{"--topology hypernodes: the cluster has no Volcano HyperNodes"};
        settleNvlinkLabel(state, **spec, false);
        return std::move(**spec);
    }
    if (name == kSlurmTopologyName) {
        std::optional<TopologySpec> spec = slurmTopologyHierarchy(state);
        if (!spec) return Error{"--topology slurm: no Slurm topology (give --slurm-topology FILE)"};
        return std::move(*spec);
    }
    std::string known = knownNames(state);
    if (!state.hyperNodes().empty()) known += ", hypernodes";
    if (slurmTopologyHierarchy(state)) known += ", slurm";
    return Error{"unknown topology \"" + std::string(name) + "\"; known: " + known};
}

} // namespace

Result<TopologySpec> resolveTopology(const ClusterState& state, std::string_view topologyName,
                                     const std::vector<std::string>& levelKeys, const TopologySpec* sourceTopology) {
    if (!levelKeys.empty()) {
        for (std::size_t i = 0; i < levelKeys.size(); ++i) {
            if (levelKeys[i].empty())
                return Error{"--levels: level " + std::to_string(i + 1) + " is an empty label key"};
            if (std::find(levelKeys.begin(), levelKeys.begin() + static_cast<std::ptrdiff_t>(i), levelKeys[i]) !=
                levelKeys.begin() + static_cast<std::ptrdiff_t>(i))
                return Error{"--levels: label key \"" + levelKeys[i] + "\" is listed twice"};
        }
        TopologySpec spec = TopologySpec::fromLabelKeys(levelKeys);
        spec.origin = "flags";
        settleNvlinkLabel(state, spec, false);
        return spec;
    }
    if (!topologyName.empty()) return namedTopology(state, topologyName);
    if (sourceTopology) return *sourceTopology;
    // A Slurm topology given with the request (a Slurm source labels its nodes and brings its own
    // Topology object, found below).
    if (state.topologies().find(kSlurmTopologyName) == state.topologies().end())
        if (std::optional<TopologySpec> spec = slurmTopologyHierarchy(state)) {
            settleNvlinkLabel(state, *spec, false);
            return std::move(*spec);
        }
    std::string hyperNodeProblem;
    if (std::optional<TopologySpec> spec = detectTopology(state, &hyperNodeProblem)) return std::move(*spec);
    TopologySpec none = noTopologyHierarchy(state, sourcesLookedFor());
    if (!hyperNodeProblem.empty()) none.notice = "HyperNodes not shown: " + hyperNodeProblem + "; " + none.notice;
    settleNvlinkLabel(state, none, false);
    return none;
}

Result<TopologySpec> HierarchyChoice::resolve(const ClusterState& state, const TopologySpec* sourceTopology) const {
    return resolveTopology(state, topologyName, levelKeys, sourceTopology);
}

Result<TopologyIndex> HierarchyChoice::buildIndex(const ClusterState& state, const TopologySpec* sourceTopology) const {
    Result<TopologySpec> spec = resolve(state, sourceTopology);
    if (!spec) return spec.error();
    return TopologyIndex::build(state, std::move(*spec), gpus);
}

bool mayChangeHierarchy(const AppliedEvent& applied, const TopologySpec& shown) {
    return applied.topologiesChanged || applied.hyperNodesChanged || (applied.nodeAdded && !shown.readFromLabels());
}

TopologySpec withHostnameLevel(TopologySpec spec, const ClusterState& state) {
    constexpr std::string_view hostname = "kubernetes.io/hostname";
    if (spec.origin == kNoTopologyOrigin) spec.levels.clear();
    if (spec.origin != "demo" && spec.origin != "preset" && spec.origin != kNoTopologyOrigin &&
        spec.origin != kHyperNodeOrigin && spec.origin != kSlurmTopologyOrigin)
        return spec;
    if (spec.levelIndex(hostname) >= 0) return spec;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (record.present && record.node->label(hostname) == nullptr) return spec;
    }
    spec.levels.push_back({std::string(hostname), "hostname"});
    return spec;
}

TopologySpec labelHierarchyFor(const TopologySpec& shown, const ClusterState& state) {
    // A hierarchy shown for want of any topology is read from labels too, and nothing better exists.
    if (shown.readFromLabels()) return shown;
    if (std::optional<TopologySpec> spec = detectHierarchy(state, false, nullptr)) return std::move(*spec);
    TopologySpec none;
    none.origin = std::string(kNoTopologyOrigin);
    return none;
}

} // namespace topodeck
