#pragma once
// What each ComputeDomain of a cluster is used by and where it is: the workload whose pods use its
// IMEX channel, its nodes and the NVLink cliques they are in. Read by `show`, the gangs report
// (core/placement/reports/gangs_report.h) and the map, so every front-end says the same.
//
// - Its pods: those of its namespace whose spec.resourceClaims name its channel
//   ResourceClaimTemplate (spec.channel.resourceClaimTemplate.name), not terminated. Their
//   workload (Pod::workload) is the ComputeDomain's.
// - Its nodes: the ones status.nodes lists (an IMEX daemon joined there), with the cliqueID the
//   daemon reported; then the nodes its pods run on that the status does not list yet (the daemon
//   is starting), with the clique their `nvidia.com/gpu.clique` label says.
// - Its cliques: the distinct non-empty cliques of its nodes. More than one is more than one IMEX
//   domain: a daemon only peers with daemons of its own clique, so GPU memory is shared inside
//   each clique and not across. A node in no clique (cliqueID "", no label) runs no IMEX daemon.

#include "core/model/cluster_state.h"
#include "core/model/compute_domain.h"
#include "core/model/pod.h"
#include "core/topology/topology_index.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topodeck {

struct ComputeDomainMember {
    std::string node;
    std::string clique;  // as the status reports it, else the node's clique label; "" for none
    bool listed = false; // in status.nodes; false: only its pods say it is one of the domain's nodes
    ComputeDomainReadiness status = ComputeDomainReadiness::None; // its IMEX daemon's, when listed
    std::int32_t pods = 0;                                        // of the domain's pods, how many run there
    std::int32_t nvlinkDomain = kNoNvlinkDomain;                  // the index's NVLink domain of the node, if any
    friend bool operator==(const ComputeDomainMember&, const ComputeDomainMember&) = default;
};

struct ComputeDomainWorkload {
    std::string name; // Pod::workload; empty for pods of no workload
    WorkloadKind kind = WorkloadKind::None;
    std::int32_t pods = 0;
    friend bool operator==(const ComputeDomainWorkload&, const ComputeDomainWorkload&) = default;
};

struct ComputeDomainUsage {
    std::string nameSpace;
    std::string name;
    std::string channelTemplate;
    ComputeDomain::ChannelAllocation allocationMode = ComputeDomain::ChannelAllocation::Single;
    std::int32_t numNodes = 0;
    ComputeDomainReadiness status = ComputeDomainReadiness::None;
    std::vector<ComputeDomainMember> members;     // status.nodes in their order, then the rest by name
    std::vector<std::string> cliques;             // distinct non-empty cliques of the members, sorted
    std::vector<std::int32_t> nvlinkDomains;      // distinct NVLink domains (the index's) of the members, ascending
    std::vector<ComputeDomainWorkload> workloads; // of its pods, by name
    std::int32_t pods = 0;                        // pods using its channel, not terminated (running or not)

    std::string qualifiedName() const { return nameSpace + '/' + name; }
    // Its nodes sit in more than one NVLink clique: as many IMEX domains, no memory shared across.
    bool spansCliques() const { return cliques.size() > 1; }
    // Its nodes in no NVLink clique (no IMEX daemon there).
    std::int32_t membersWithoutClique() const;
    // The clique a node of it is in, as the domain knows it; nullptr when the node is not one of its.
    const ComputeDomainMember* member(std::string_view node) const;
    friend bool operator==(const ComputeDomainUsage&, const ComputeDomainUsage&) = default;
};

// Every ComputeDomain of the state, by namespace and name. O(pods) when there is any (a pod
// without resourceClaims costs one test), nothing otherwise. `index` gives the members' NVLink
// domains; without it they stay kNoNvlinkDomain.
std::vector<ComputeDomainUsage> computeDomainUsage(const ClusterState& state, const TopologyIndex* index);

// The clique of a node for a ComputeDomain that does not list it: its nvidia.com/gpu.clique label.
std::string_view nodeClique(const ClusterState& state, std::string_view node);

} // namespace topodeck
