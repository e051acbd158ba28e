#include "core/slurm/slurm_cluster.h"

#include "core/values/quantity.h"
#include "core/text/hostlist.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <unordered_set>

namespace topodeck {

namespace {

constexpr std::string_view kOtherJobs = "(other)";

std::string labelKey(std::string_view levelName) {
    return std::string(slurm_labels::kPrefix) + std::string(levelName);
}

std::string switchLevelName(int level) {
    switch (level) {
    case 0:
        return "leaf";
    case 1:
        return "spine";
    case 2:
        return "core";
    default:
        return "level" + std::to_string(level);
    }
}

void treeHierarchy(const SlurmTopology& topology, SlurmHierarchy& out) {
    const std::vector<SlurmSwitch>& switches = topology.switches;
    std::unordered_map<std::string_view, std::size_t> indexOf;
    for (std::size_t i = 0; i < switches.size(); ++i) indexOf.emplace(switches[i].name, i);
    // Slurm's levels: a leaf is 0, a switch one above its highest child. The parser refused
    // cycles; the depth guard only keeps a bad topology from recursing forever.
    std::vector<int> level(switches.size(), -1);
    const auto levelOf = [&](auto& self, std::size_t i, int depth) -> int {
        if (level[i] >= 0) return level[i];
        int highest = -1;
        if (depth < 64)
            for (const std::string& child : switches[i].switches)
                if (auto it = indexOf.find(child); it != indexOf.end())
                    highest = std::max(highest, self(self, it->second, depth + 1));
        return level[i] = highest + 1;
    };
    int levels = 0;
    for (std::size_t i = 0; i < switches.size(); ++i) levels = std::max(levels, levelOf(levelOf, i, 0) + 1);
    // A switch listed by several parents belongs to the first, as slurmctld links it.
    std::vector<std::ptrdiff_t> parent(switches.size(), -1);
    for (std::size_t i = 0; i < switches.size(); ++i)
        for (const std::string& child : switches[i].switches)
            if (auto it = indexOf.find(child); it != indexOf.end() && parent[it->second] < 0)
                parent[it->second] = static_cast<std::ptrdiff_t>(i);

    for (int k = levels - 1; k >= 0; --k) {
        const std::string name = switchLevelName(k);
        out.spec.levels.push_back({labelKey(name), name});
    }
    // The labels of every node below each leaf, filled upwards; a skipped level repeats the
    // switch below it, and levels above the root repeat the root.
    for (std::size_t leaf = 0; leaf < switches.size(); ++leaf) {
        if (switches[leaf].nodes.empty()) continue;
        std::vector<std::pair<std::string, std::string>> labels;
        std::size_t current = leaf;
        int k = 0;
        for (int guard = 0; guard < 64; ++guard) {
            const std::ptrdiff_t up = parent[current];
            const int until = up < 0 ? levels - 1 : level[static_cast<std::size_t>(up)] - 1;
            for (; k <= until; ++k) labels.emplace_back(labelKey(switchLevelName(k)), switches[current].name);
            if (up < 0) break;
            current = static_cast<std::size_t>(up);
        }
        for (const std::string& node : switches[leaf].nodes) out.labelsByNode.try_emplace(node, labels);
    }
}

void blockHierarchy(const SlurmTopology& topology, SlurmHierarchy& out) {
    const Result<SlurmBlockLevels> configured = slurmBlockLevels(topology.blockSizes);
    // The aggregated levels, highest first; one that would hold every block says nothing.
    std::vector<int> aggregated;
    if (configured)
        for (int bit = 30; bit >= 1; --bit)
            if (((configured->levels >> bit) & 1u) && (std::size_t{1} << bit) < topology.blocks.size())
                aggregated.push_back(bit);
    for (int bit : aggregated) {
        const std::string name = "block-x" + std::to_string(1 << bit);
        out.spec.levels.push_back({labelKey(name), name});
    }
    out.spec.levels.push_back({labelKey("block"), "block"});
    for (std::size_t b = 0; b < topology.blocks.size(); ++b) {
        std::vector<std::pair<std::string, std::string>> labels;
        for (int bit : aggregated) {
            const std::size_t first = (b >> bit) << bit;
            const std::size_t last = std::min(topology.blocks.size(), first + (std::size_t{1} << bit));
            std::vector<std::string> names;
            for (std::size_t i = first; i < last; ++i) names.push_back(topology.blocks[i].name);
            labels.emplace_back(labelKey("block-x" + std::to_string(1 << bit)), compressHostlist(names));
        }
        labels.emplace_back(labelKey("block"), topology.blocks[b].name);
        for (const std::string& node : topology.blocks[b].nodes) out.labelsByNode.try_emplace(node, labels);
    }
}

// Counted in 128 bits: a reply's memory in MiB (a job's, a node's) may be any int64, and in bytes
// it would overflow.
Quantity mebibytes(std::int64_t mib) {
    return Quantity::fromNanos(static_cast<__int128>(mib) * (std::int64_t{1} << 20) * 1'000'000'000,
                               Quantity::Format::BinarySI);
}

ResourceList slurmResources(std::int64_t cpus, std::int64_t memoryMiB, std::int64_t gpus) {
    ResourceList resources;
    if (cpus > 0) resources.set("cpu", Quantity::fromUnits(cpus));
    if (memoryMiB > 0) resources.set("memory", mebibytes(memoryMiB));
    if (gpus > 0) resources.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    return resources;
}

// GPUs per node from tres_per_node ("gres:gpu:8", "gres/gpu:h100=4"), for a job listed
// without gres_detail: the GRES list it names, read as a node's gres.
std::int64_t gpusPerNodeRequested(std::string tres) {
    for (std::string_view prefix : {"gres:", "gres/"})
        for (std::size_t at = tres.find(prefix); at != std::string::npos; at = tres.find(prefix, at)) tres.erase(at, prefix.size());
    std::replace(tres.begin(), tres.end(), '=', ':');
    const Result<std::vector<SlurmGres>> gres = parseGresList(tres);
    return gres ? gresGpuCount(*gres) : 0;
}

} // namespace

SlurmHierarchy slurmHierarchy(const SlurmTopology* topology) {
    SlurmHierarchy out;
    out.spec.name = std::string(kSlurmTopologyName);
    out.spec.origin = std::string(kSlurmOrigin);
    if (topology && topology->kind == SlurmTopology::Kind::Tree && !topology->switches.empty())
        treeHierarchy(*topology, out);
    else if (topology && topology->kind == SlurmTopology::Kind::Block && !topology->blocks.empty())
        blockHierarchy(*topology, out);
    else
        out.spec.levels.push_back({std::string(slurm_labels::kPartition), "partition"});
    return out;
}

Node slurmNodeToModel(const SlurmNode& slurm, const std::vector<std::pair<std::string, std::string>>& levelLabels) {
    Node node;
    node.name = slurm.name;
    node.labels = levelLabels;
    node.labels.emplace_back(slurm_labels::kHostname, slurm.name);
    node.labels.emplace_back(slurm_labels::kState, slurm.stateName());
    if (!slurm.partitions.empty()) {
        node.labels.emplace_back(slurm_labels::kPartition, slurm.partitions.front());
        std::string all;
        for (const std::string& partition : slurm.partitions) all += (all.empty() ? "" : ",") + partition;
        node.labels.emplace_back(slurm_labels::kPartitions, std::move(all));
    }
    if (slurm.weight != 1) node.labels.emplace_back(slurm_labels::kWeight, std::to_string(slurm.weight));
    if (!slurm.gpuType.empty()) node.labels.emplace_back(slurm_labels::kGpuType, slurm.gpuType);
    if (!slurm.reason.empty()) node.labels.emplace_back(slurm_labels::kReason, slurm.reason);
    std::sort(node.labels.begin(), node.labels.end());
    node.ready = slurm.ready();
    node.unschedulable = node.ready && !slurm.schedulable();
    node.allocatable = slurmResources(slurm.cpus, slurm.memoryMiB, slurm.gpus);
    node.allocatable.set("pods", Quantity::fromUnits(std::max<std::int64_t>(slurm.cpus, 1)));
    return node;
}

std::string slurmPodName(std::uint32_t jobId, std::string_view node) {
    return std::to_string(jobId) + "@" + std::string(node);
}

std::string slurmWorkload(const SlurmJob& job) {
    const std::string id = "job " + std::to_string(job.id);
    return job.name.empty() ? id : job.name + " (" + id + ")";
}

void SlurmClusterMapper::setTopology(std::shared_ptr<const SlurmTopology> topology) {
    if (topology == m_topology || (topology && m_topology && *topology == *m_topology)) return;
    m_topology = std::move(topology);
    m_hierarchy = slurmHierarchy(m_topology.get());
    m_topologyDirty = true;
    m_relabel = true;
    m_nodesDirty = true;
}

namespace {

// What Slurm reports is free text in places (a node's reason, a job's name) and shown on
// terminals: control characters and bytes that are not UTF-8 are made visible escapes, once,
// here, so that every name made from these strings (pods "job@node", node names) agrees.
void makeVisible(std::string& text) {
    if (unprintableAt(text) != std::string_view::npos) text = visibleText(text);
}

} // namespace

void SlurmClusterMapper::setNodes(std::vector<SlurmNode> nodes) {
    for (SlurmNode& node : nodes) {
        for (std::string* text : {&node.name, &node.gpuType, &node.reason, &node.features}) makeVisible(*text);
        for (std::string& partition : node.partitions) makeVisible(partition);
    }
    m_nodes = std::move(nodes);
    m_nodesDirty = true;
    m_jobsDirty = true; // the remainder pods follow the nodes' counters
}

void SlurmClusterMapper::setJobs(std::vector<SlurmJob> jobs) {
    // A job Slurm listed without per-node details holds its nodes with the GPUs it asked per
    // node; its CPUs and memory are left to the nodes' remainder.
    for (SlurmJob& job : jobs) {
        for (std::string* text : {&job.name, &job.user, &job.partition, &job.state, &job.stateReason, &job.nodes})
            makeVisible(*text);
        for (SlurmJobAllocation& allocation : job.allocations) makeVisible(allocation.node);
        if (!job.allocations.empty() || !job.holdsNodes()) continue;
        Result<std::vector<std::string>> names = expandHostlist(job.nodes);
        if (!names) continue;
        const std::int64_t gpus = gpusPerNodeRequested(job.tresPerNode);
        for (std::string& name : *names) job.allocations.push_back({std::move(name), 0, 0, gpus});
    }
    m_jobs = std::move(jobs);
    m_jobsDirty = true;
}

Pod SlurmClusterMapper::podFor(const SlurmJob& job, const SlurmJobAllocation& allocation) const {
    Pod pod;
    pod.nameSpace = std::string(kSlurmJobNamespace);
    pod.name = slurmPodName(job.id, allocation.node);
    pod.nodeName = allocation.node;
    pod.phase = PodPhase::Running;
    pod.requests = slurmResources(allocation.cpus, allocation.memoryMiB, allocation.gpus);
    pod.workload = slurmWorkload(job);
    pod.workloadKind = WorkloadKind::SlurmJob;
    return pod;
}

void SlurmClusterMapper::nodeEvents(std::vector<ClusterEvent>& events) {
    static const std::vector<std::pair<std::string, std::string>> kNoLevels;
    std::unordered_set<std::string_view> listed;
    listed.reserve(m_nodes.size());
    for (const SlurmNode& slurm : m_nodes) {
        listed.insert(slurm.name);
        auto [it, inserted] = m_emittedNodes.try_emplace(slurm.name);
        if (!inserted && !m_relabel && it->second == slurm) continue;
        it->second = slurm;
        const auto levels = m_hierarchy.labelsByNode.find(slurm.name);
        events.push_back(NodeUpserted{slurmNodeToModel(slurm, levels == m_hierarchy.labelsByNode.end() ? kNoLevels : levels->second)});
    }
    for (auto it = m_emittedNodes.begin(); it != m_emittedNodes.end();) {
        if (listed.contains(it->first)) {
            ++it;
            continue;
        }
        events.push_back(NodeDeleted{it->first});
        it = m_emittedNodes.erase(it);
    }
    m_relabel = false;
}

void SlurmClusterMapper::jobEvents(std::vector<ClusterEvent>& events) {
    const std::string nameSpace(kSlurmJobNamespace);
    std::unordered_map<std::uint32_t, const SlurmJob*> holding;
    holding.reserve(m_jobs.size());
    for (const SlurmJob& job : m_jobs)
        if (job.holdsNodes()) holding.emplace(job.id, &job);

    // Jobs that ended or changed lose the pods they no longer have; new and changed jobs get theirs.
    for (auto it = m_emittedJobs.begin(); it != m_emittedJobs.end();) {
        const auto now = holding.find(it->first);
        if (now != holding.end() && *now->second == it->second) {
            ++it;
            continue;
        }
        std::unordered_set<std::string_view> keep;
        if (now != holding.end())
            for (const SlurmJobAllocation& allocation : now->second->allocations) keep.insert(allocation.node);
        for (const SlurmJobAllocation& allocation : it->second.allocations)
            if (!keep.contains(allocation.node)) events.push_back(PodDeleted{nameSpace, slurmPodName(it->first, allocation.node)});
        if (now == holding.end()) {
            it = m_emittedJobs.erase(it);
            continue;
        }
        for (const SlurmJobAllocation& allocation : now->second->allocations)
            events.push_back(PodUpserted{podFor(*now->second, allocation)});
        it->second = *now->second;
        ++it;
    }
    for (const auto& [id, job] : holding) {
        if (m_emittedJobs.contains(id)) continue;
        for (const SlurmJobAllocation& allocation : job->allocations) events.push_back(PodUpserted{podFor(*job, allocation)});
        m_emittedJobs.emplace(id, *job);
    }

    // What each node reports allocated beyond its listed jobs.
    std::unordered_map<std::string_view, Held> heldOn;
    heldOn.reserve(m_nodes.size());
    for (const auto& [id, job] : m_emittedJobs)
        for (const SlurmJobAllocation& allocation : job.allocations) {
            Held& held = heldOn[allocation.node];
            held.cpus += allocation.cpus;
            held.memoryMiB += allocation.memoryMiB;
            held.gpus += allocation.gpus;
        }
    std::unordered_set<std::string_view> withOther;
    for (const SlurmNode& node : m_nodes) {
        const auto it = heldOn.find(node.name);
        const Held held = it == heldOn.end() ? Held{} : it->second;
        const Held other{std::max<std::int64_t>(0, node.cpusAllocated - held.cpus),
                         std::max<std::int64_t>(0, node.memoryAllocatedMiB - held.memoryMiB),
                         std::max<std::int64_t>(0, node.gpusUsed - held.gpus)};
        if (other == Held{}) continue;
        withOther.insert(node.name);
        auto [emitted, inserted] = m_emittedOther.try_emplace(node.name, other);
        if (!inserted && emitted->second == other) continue;
        emitted->second = other;
        Pod pod;
        pod.nameSpace = nameSpace;
        pod.name = std::string(kOtherJobs) + "@" + node.name;
        pod.nodeName = node.name;
        pod.phase = PodPhase::Running;
        pod.requests = slurmResources(other.cpus, other.memoryMiB, other.gpus);
        pod.workload = "jobs not listed";
        pod.workloadKind = WorkloadKind::Unlisted;
        events.push_back(PodUpserted{std::move(pod)});
    }
    for (auto it = m_emittedOther.begin(); it != m_emittedOther.end();) {
        if (withOther.contains(it->first)) {
            ++it;
            continue;
        }
        events.push_back(PodDeleted{nameSpace, std::string(kOtherJobs) + "@" + it->first});
        it = m_emittedOther.erase(it);
    }
}

std::vector<ClusterEvent> SlurmClusterMapper::takeEvents() {
    std::vector<ClusterEvent> events;
    if (m_topologyDirty) {
        events.push_back(SlurmTopologySet{m_topology});
        events.push_back(TopologyUpserted{m_hierarchy.spec});
        m_topologyDirty = false;
    }
    if (m_nodesDirty) nodeEvents(events);
    if (m_jobsDirty) jobEvents(events);
    m_nodesDirty = m_jobsDirty = false;
    return events;
}

std::vector<std::string> SlurmClusterMapper::topologyWarnings() const {
    std::vector<std::string> warnings;
    if (!m_topology || m_nodes.empty()) return warnings;
    std::unordered_set<std::string_view> listed;
    std::vector<std::string> outside;
    for (const SlurmNode& node : m_nodes) {
        listed.insert(node.name);
        if (!m_hierarchy.labelsByNode.contains(node.name)) outside.push_back(node.name);
    }
    std::vector<std::string> unknown;
    for (const auto& [name, labels] : m_hierarchy.labelsByNode)
        if (!listed.contains(name)) unknown.push_back(name);
    std::sort(unknown.begin(), unknown.end());
    if (!outside.empty())
        warnings.push_back(std::to_string(outside.size()) + " node(s) in no " +
                           (m_topology->kind == SlurmTopology::Kind::Block ? "block" : "switch") +
                           " of the topology: " + compressHostlist(outside));
    if (!unknown.empty())
        warnings.push_back("the topology names " + std::to_string(unknown.size()) +
                           " node(s) Slurm does not list: " + compressHostlist(unknown));
    return warnings;
}

} // namespace topodeck
