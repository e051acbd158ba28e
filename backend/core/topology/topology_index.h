#pragma once

#include "core/model/cluster_state.h"
#include "core/model/gpu_resources.h"
#include "core/model/node_gpus.h"
#include "core/model/topology_spec.h"
#include "core/result.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace topodeck {

using DomainId = std::uint32_t;
inline constexpr DomainId kRootDomain = 0;
inline constexpr DomainId kNoDomain = std::numeric_limits<DomainId>::max();
inline constexpr std::int32_t kNoNvlinkDomain = -1;

// Aggregates of one domain (or one node). GPUs on nodes that are NotReady or cordoned are neither
// free nor used-by-others: they are "unavailable", so free always means "a gang could use it now".
struct DomainTotals {
    std::int64_t gpusTotal = 0;       // physical GPUs (device plugin and DRA, see core/model/node_gpus.h)
    std::int64_t gpusUsed = 0;        // not free whole: held by pods or claims, wholly or in part
    std::int64_t gpusFree = 0;        // allocatable - used, on ready and schedulable nodes
    std::int64_t gpusUnavailable = 0; // allocatable - used, on NotReady or cordoned nodes
    std::int64_t gpusFragmented = 0;  // free GPUs on nodes that are partly used
    std::int64_t nodesTotal = 0;
    std::int64_t nodesReady = 0;
    std::int64_t nodesSchedulable = 0; // ready and not cordoned
    std::int64_t nodesFree = 0;        // schedulable with GPUs and none of them used
    std::int64_t pods = 0;
    GpuAmount gpuShareUsed;            // the exact share in use (MIG slices, shared GPUs as fractions)
    std::int64_t gpusPartlyUsed = 0;   // GPUs of which only a share is in use
    // Nodes by which world counted their GPUs (core/model/node_gpus.h).
    std::int64_t nodesPluginGpus = 0;  // the device plugin alone
    std::int64_t nodesDraGpus = 0;     // DRA alone
    std::int64_t nodesBothGpus = 0;    // both, each GPU counted once

    DomainTotals& operator+=(const DomainTotals& o);
    DomainTotals& operator-=(const DomainTotals& o);
    friend bool operator==(const DomainTotals&, const DomainTotals&) = default;
};

// What the index keeps per node: enough to recompute the node's contribution.
struct NodeStats {
    DomainId leaf = kNoDomain; // kNoDomain when the node is not present
    std::int64_t gpusTotal = 0;
    std::int64_t gpusUsed = 0; // not free whole
    GpuAmount gpuShareUsed;
    std::int64_t gpusPartlyUsed = 0;
    GpuSource gpuSource = GpuSource::None;
    std::uint32_t pods = 0;
    bool ready = false;
    bool schedulable = false;
    std::int32_t nvlinkDomain = kNoNvlinkDomain; // index into nvlinkName()

    std::int64_t gpusFree() const;
    DomainTotals totals() const;
    friend bool operator==(const NodeStats&, const NodeStats&) = default;
};

struct Domain {
    DomainId parent = kNoDomain;
    int level = -1;          // -1 for the root, else the index into TopologySpec::levels
    std::string value;       // the label value at this level
    bool unlabelled = false; // members lack this level's label (Kueue TAS ignores such nodes)
    std::vector<DomainId> children; // natural order by value; the unlabelled domain last
    std::vector<NodeId> nodes;      // member nodes, only on lowest-level domains; natural order by name
    DomainTotals totals;
    // freeGpuHistogram[k] = schedulable nodes with exactly k free GPUs; the last possible bucket,
    // kMaxFreeGpuBucket, holds the nodes with that many or more.
    static constexpr std::int64_t kMaxFreeGpuBucket = 4096;
    std::vector<std::uint32_t> freeGpuHistogram;
    bool alive = true;

    std::int64_t maxFreeGpusOnNode() const;
    // Schedulable nodes with at least k free GPUs.
    std::int64_t nodesWithFreeGpus(std::int64_t k) const;
};

// ClusterState seen through a TopologySpec: a tree of domains with aggregates that follow every
// node and pod event in O(depth). Copyable, so a session publishes immutable copies.
class TopologyIndex {
public:
    TopologyIndex();
    static TopologyIndex build(const ClusterState& state, TopologySpec spec, GpuResources gpus = {});

    // Re-reads one node (labels, readiness, allocatable, usage) and adjusts the aggregates of the
    // domains above it; moves it when its labels changed.
    void update(const ClusterState& state, NodeId id);
    void apply(const ClusterState& state, const AppliedEvent& event);

    const TopologySpec& spec() const { return m_spec; }
    const GpuResources& gpuResources() const { return m_gpus; }

    const Domain& root() const { return m_domains[kRootDomain]; }
    const Domain& domain(DomainId id) const { return m_domains[id]; }
    std::size_t domainSlots() const { return m_domains.size(); }
    DomainId findChild(DomainId parent, std::string_view value, bool unlabelled = false) const;
    // Root first, the domain itself last.
    std::vector<DomainId> pathTo(DomainId id) const;
    // A readable path, e.g. "su-1/rack-3".
    std::string pathName(DomainId id) const;

    std::size_t nodeSlots() const { return m_nodeStats.size(); }
    const NodeStats& node(NodeId id) const { return m_nodeStats[id]; }
    const std::string& nvlinkName(std::int32_t nvlinkDomain) const { return m_nvlinkNames[nvlinkDomain]; }
    std::size_t nvlinkDomainCount() const { return m_nvlinkNames.size(); }

    // Changes whenever a domain appears or disappears; views keep their layout while it holds.
    std::uint64_t structureVersion() const { return m_structureVersion; }

    // True when both describe the same tree with the same aggregates (domain ids may differ).
    // On a difference, *why says where.
    static bool sameContent(const TopologyIndex& a, const TopologyIndex& b, std::string* why = nullptr);

private:
    DomainId leafFor(const Node& node, bool keepSorted);
    DomainId childFor(DomainId parent, int level, const std::string* value, bool keepSorted);
    void addToPath(DomainId leaf, const NodeStats& stats, int sign);
    void insertNodeSorted(const ClusterState& state, DomainId leaf, NodeId id);
    void pruneIfEmpty(DomainId id);
    std::int32_t nvlinkFor(const Node& node);
    NodeStats statsFor(const ClusterState& state, NodeId id, DomainId leaf);
    bool childBefore(DomainId a, DomainId b) const;

    TopologySpec m_spec;
    GpuResources m_gpus;
    std::vector<Domain> m_domains;
    std::vector<NodeStats> m_nodeStats;
    std::vector<std::string> m_nvlinkNames;
    std::unordered_map<std::string, std::int32_t> m_nvlinkIds;
    // (parent id, labelled flag, value) -> child id, so a lookup does not scan wide levels.
    std::unordered_map<std::string, DomainId> m_childIds;
    std::uint64_t m_structureVersion = 0;
};

// Every node under a domain, in the index's order.
std::vector<NodeId> nodesUnder(const TopologyIndex& index, DomainId id);

// The labelled domain a path ("su-1/rack-3") or a value no other domain has ("rack-3") names.
// Errors start with `what` ("--drain rack-3"): "no <lookedFor> has that name", or the domains a
// shared value names.
Result<DomainId> findDomainByName(const TopologyIndex& index, std::string_view name, std::string_view what,
                                  std::string_view lookedFor = "topology domain");

} // namespace topodeck
