#pragma once

#include "core/model/cluster_state.h"
#include "core/model/topology_spec.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// Hierarchies that do not come from label levels: the ones topology objects bring (a Slurm
// topology, Volcano HyperNodes), each placing nodes by name (TopologySpec::membership), and the
// grouping shown when a cluster has no topology at all.

inline constexpr std::string_view kHyperNodeOrigin = "hypernodes";
inline constexpr std::string_view kSlurmTopologyOrigin = "slurm-topology";
inline constexpr std::string_view kNoTopologyOrigin = "none";

// The nodes whose labels decide which hierarchy a cluster has: those with GPUs when there are
// any, since CPU-only system nodes often carry no fabric labels and would outvote the GPU fabric.
std::vector<const Node*> topologyDecidingNodes(const ClusterState& state);

// Reads a topology.conf / topology.yaml into the state: its first topology (topology.yaml's
// cluster default), which the hierarchy and the Slurm engines then read. The file's warnings are
// appended to *warnings, each prefixed with the path.
Status addSlurmTopologyFile(const std::string& path, ClusterState& state, std::vector<std::string>& warnings);

// The state's Slurm topology (a --slurm-topology file, a Slurm snapshot's own) as a hierarchy:
// switch levels (leaf, spine, core, ...) or blocks, as slurmHierarchy() names them. nullopt when
// the state has none, or a flat one.
std::optional<TopologySpec> slurmTopologyHierarchy(const ClusterState& state);

// The Volcano HyperNode tree as a hierarchy: one level per tier, highest first, named by the
// tier's tierName or "tier-N". At a tier a node's path skips, it sits in the HyperNode below; at
// tiers below its lowest HyperNode, in that HyperNode. Nodes no HyperNode holds are outside every
// level, as Volcano's network-topology plugin treats them. nullopt when the state has no
// HyperNodes; an error (Volcano's) when they do not form a tree. Oddities (a node in two
// HyperNodes of one tier) go to *warnings.
Result<std::optional<TopologySpec>> hyperNodeHierarchy(const ClusterState& state,
                                                       std::vector<std::string>* warnings = nullptr);

// A cluster with no topology to read: grouped by the well-known labels most of its GPU nodes
// carry (node pool, instance type), else flat under the cluster; origin kNoTopologyOrigin, with
// a notice that says what was looked for (`lookedFor`) and how to choose levels.
TopologySpec noTopologyHierarchy(const ClusterState& state, const std::string& lookedFor);

} // namespace topodeck
