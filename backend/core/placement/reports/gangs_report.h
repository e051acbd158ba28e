#pragma once

#include "core/model/cluster_state.h"
#include "core/model/pod.h"
#include "core/topology/compute_domain_usage.h"
#include "core/topology/topology_index.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

// The running gangs of a cluster and the network boundaries each crosses: per level of the
// hierarchy shown, how many domains its pods are in against how few could hold it.
//
// What counts: pods bound to a node and not terminated that hold GPUs (device-plugin requests or
// GPUs their DRA claims hold), grouped by namespace and Pod::workload (its kind says what named
// it). Pods without GPUs (an MPI launcher, a Ray head) and workloads with no GPU pods at all
// (daemons, services) are left out: the question is where the GPUs talk to each other. The "(other)" pods a Slurm cluster's unlisted allocations become are
// not a gang and are left out too.

// One level as the report lists it: the hierarchy's levels, top first, then the NVLink domain as
// the lowest level when the hierarchy names one.
struct GangsLevel {
    std::string name; // short name, as `show` prints it ("rack", "su"; "nvlink" for NVLink)
    std::string key;  // the node label (or the hierarchy's own key) it is read from
    bool nvlink = false;
    friend bool operator==(const GangsLevel&, const GangsLevel&) = default;
};

struct GangSpread {
    // Distinct domains of the level the gang's nodes are in. A node outside the level (without
    // its label, not in any HyperNode or switch of it) counts as a domain of its own, since
    // nothing says it shares one with any other node.
    int spans = 0;
    // The fewest domains of the level that could hold the gang by capacity (allocatable GPUs,
    // not today's free): domains taken largest first for the gang's pod shape (pods per node =
    // allocatable GPUs / GPUs per pod, rounded down, summed per domain; GPUs when its pods differ),
    // counting until it fits. Nodes outside the level count one each, as for spans. Never more
    // than spans: where the gang runs now holds it.
    int least = 0;
    int outside = 0; // nodes of the gang outside the level
    int excess() const { return spans - least; }
    friend bool operator==(const GangSpread&, const GangSpread&) = default;
};

// A node of a gang that is in none of its ComputeDomain's NVLink cliques.
struct GangNodeOutside {
    NodeId node = 0;
    std::string clique; // the node's clique as the ComputeDomain or its label says; "" for none
    std::int32_t pods = 0; // the gang's pods there
    friend bool operator==(const GangNodeOutside&, const GangNodeOutside&) = default;
};

struct Gang {
    std::string nameSpace;
    std::string name;
    WorkloadKind kind = WorkloadKind::None;
    int pods = 0;              // its pods holding GPUs
    std::int64_t gpus = 0;     // their GPUs
    std::int64_t gpusPerPod = 0; // 0 when its pods hold different counts
    std::vector<GangSpread> levels; // by GangsReport::levels
    std::vector<NodeId> nodes;      // where its pods run, ascending ids
    std::vector<std::int32_t> nodePods; // its pods on each of `nodes`
    std::vector<std::int64_t> nodeGpus; // their GPUs on each of `nodes`
    // The ComputeDomain whose IMEX channel its pods use ("namespace/name", see
    // compute_domain_usage.h); empty when none. When they use several, the first by name.
    std::string computeDomain{};
    std::vector<std::string> computeDomainCliques{}; // that domain's NVLink cliques
    // Its nodes in none of those cliques (or in no clique at all): its pods there share no GPU
    // memory with the rest through the domain. In `nodes` order.
    std::vector<GangNodeOutside> outsideComputeDomain{};

    std::string qualifiedName() const { return nameSpace + '/' + name; }
    // Its ComputeDomain's nodes sit in more than one NVLink clique: IMEX shares memory only inside each.
    bool computeDomainSpansCliques() const { return computeDomainCliques.size() > 1; }
    std::int32_t podsOutsideComputeDomain() const;
    // Either of the two: what the report flags about its ComputeDomain.
    bool computeDomainFlagged() const { return computeDomainSpansCliques() || !outsideComputeDomain.empty(); }
    // True when no level holds it in more domains than it needs.
    bool compact() const;
};

struct GangsReport {
    std::vector<GangsLevel> levels;
    // Farthest from compact first: the most excess domains (spans - least) at the top level, then
    // at the next level down, and so on (NVLink last); then more GPUs first, then by name.
    std::vector<Gang> gangs;
    std::uint64_t generation = 0; // the ClusterState generation it describes
    // Every ComputeDomain of the cluster, by namespace and name (whether or not a gang uses it).
    std::vector<ComputeDomainUsage> computeDomains;

    // How many gangs cross more domains than they need at some level.
    std::size_t spreadCount() const;
    // How many gangs have their ComputeDomain flagged (Gang::computeDomainFlagged).
    std::size_t computeDomainFlagCount() const;
    // The ComputeDomain named "namespace/name", or nullptr.
    const ComputeDomainUsage* computeDomain(std::string_view qualifiedName) const;
};

// True when a sorts before b in GangsReport::gangs.
bool gangMoreSpread(const Gang& a, const Gang& b);

// O(pods + nodes × levels); no string lookups beyond one per pod for its node.
GangsReport buildGangsReport(const ClusterState& state, const TopologyIndex& index);

} // namespace topodeck
