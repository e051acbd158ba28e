#pragma once

#include "core/model/cluster_event.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/topology_spec.h"
#include "core/slurm/slurm_inventory.h"
#include "core/slurm/slurm_topology.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace topodeck {

// How a Slurm cluster appears in the model, so that the map, the tree and every engine read it
// as they read a Kubernetes one: a Node per Slurm node, labelled with its place in the topology
// (one label per switch level or block level) and its Slurm state; a Pod per job and node holding
// what the job holds there; and a Topology object "slurm" (origin "slurm") naming those levels.
namespace slurm_labels {
inline constexpr std::string_view kPrefix = "slurm.topodeck.io/";
inline constexpr std::string_view kHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kState = "slurm.topodeck.io/state";         // "mixed", "drained", ...
inline constexpr std::string_view kPartition = "slurm.topodeck.io/partition"; // the first partition
inline constexpr std::string_view kPartitions = "slurm.topodeck.io/partitions"; // all of them, comma-separated
inline constexpr std::string_view kWeight = "slurm.topodeck.io/weight";       // only when not 1
inline constexpr std::string_view kGpuType = "slurm.topodeck.io/gpu-type";
inline constexpr std::string_view kReason = "slurm.topodeck.io/reason";
} // namespace slurm_labels
inline constexpr std::string_view kSlurmJobNamespace = "slurm";
inline constexpr std::string_view kSlurmTopologyName = "slurm";
inline constexpr std::string_view kSlurmOrigin = "slurm"; // TopologySpec::origin of a Slurm cluster's hierarchy

// The topology as label levels, top first. Tree: one level per switch level, named as network
// people do (leaf, spine, core, then level3, ...) after Slurm's own levels (a leaf is 0, a switch
// one more than its highest child); a node whose path skips a level (a leaf under a core switch)
// is labelled with the lower switch there too, so that every node has every level. Block: the
// base block ("block"), under the aggregated blocks BlockSizes allows ("block-x2", "block-x4",
// ...; values like "b[1-2]"). Flat or none: the partition, so the map still groups something real.
struct SlurmHierarchy {
    TopologySpec spec;
    std::unordered_map<std::string, std::vector<std::pair<std::string, std::string>>> labelsByNode;
};
SlurmHierarchy slurmHierarchy(const SlurmTopology* topology);

// Node and pod as the model holds them. Resources: cpu, memory (real_memory MiB), nvidia.com/gpu
// (every gpu GRES) and pods (= CPUs: a task per CPU at most). Ready = SlurmNode::ready(); a
// ready node that is drained, draining, reserved or in maintenance is unschedulable.
Node slurmNodeToModel(const SlurmNode& node, const std::vector<std::pair<std::string, std::string>>& levelLabels);
std::string slurmPodName(std::uint32_t jobId, std::string_view node); // "1234@gpu-001"
std::string slurmWorkload(const SlurmJob& job);                       // "train-llm (job 1234)"

// Turns the full lists of each poll into events that say only what changed since the last call,
// so that a 20,000-node cluster with a few jobs starting costs a few events, not 20,000. What a
// node's jobs hold comes from their per-node allocations; what the node reports allocated beyond
// that (a job Slurm listed without details, or one of another user that squeue did not show) is
// held by one pod "(other)@node", so that occupancy always equals the node's own counters.
class SlurmClusterMapper {
public:
    void setTopology(std::shared_ptr<const SlurmTopology> topology); // nullptr: none known
    void setNodes(std::vector<SlurmNode> nodes);
    void setJobs(std::vector<SlurmJob> jobs);
    // The changes since the last call: topology first, then nodes, then pods (deletions first).
    std::vector<ClusterEvent> takeEvents();

    const std::vector<SlurmNode>& nodes() const { return m_nodes; }
    const std::vector<SlurmJob>& jobs() const { return m_jobs; }
    const std::shared_ptr<const SlurmTopology>& topology() const { return m_topology; }
    // Nodes the topology names that Slurm does not list, and listed nodes in no switch or block.
    std::vector<std::string> topologyWarnings() const;

private:
    struct Held {
        std::int64_t cpus = 0, memoryMiB = 0, gpus = 0;
        friend bool operator==(const Held&, const Held&) = default;
    };
    void nodeEvents(std::vector<ClusterEvent>& events);
    void jobEvents(std::vector<ClusterEvent>& events);
    Pod podFor(const SlurmJob& job, const SlurmJobAllocation& allocation) const;

    std::shared_ptr<const SlurmTopology> m_topology;
    SlurmHierarchy m_hierarchy = slurmHierarchy(nullptr);
    std::vector<SlurmNode> m_nodes;
    std::vector<SlurmJob> m_jobs;
    bool m_topologyDirty = true;
    bool m_relabel = false; // every node again: its level labels changed
    bool m_nodesDirty = false;
    bool m_jobsDirty = false;
    // What was emitted last, in Slurm's terms: comparing those is much cheaper than building the
    // model's objects of 20,000 nodes on every poll to compare them.
    std::unordered_map<std::string, SlurmNode> m_emittedNodes;
    std::unordered_map<std::uint32_t, SlurmJob> m_emittedJobs; // jobs holding nodes, with their allocations
    std::unordered_map<std::string, Held> m_emittedOther;      // per node: what no listed job explains
};

} // namespace topodeck
