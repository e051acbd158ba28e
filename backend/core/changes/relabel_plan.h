#pragma once
// A generator of change plans: label every node with the domains it sits in under a hierarchy read
// from anywhere (a Slurm topology.conf / topology.yaml, Volcano HyperNodes, a Kueue or KAI
// Topology, another label scheme), so that Kueue TAS and KAI, which read only node labels, see
// the same tree. With `remove`, the keys of an old scheme go in the same plan, since stale labels
// of a scheme's higher tiers are a known pain of relabelling.

#include "core/changes/change_plan.h"
#include "core/model/cluster_state.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

struct RelabelRequest {
    // One label key per level of the index's hierarchy, top level first; "-" leaves a level out
    // (a kubernetes.io/hostname level, a level Kueue need not know).
    std::vector<std::string> keys;
    // Keys removed from every node that carries them: exact keys, or a prefix ending in '*'
    // ("network.topology.nvidia.com/*"). Keys of `keys` are never removed.
    std::vector<std::string> remove;
};

// The operations that relabel the cluster as asked, only where a label changes: nodes with the
// same edits share one operation (a rack's nodes, typically), in the natural order of their first
// node; edits go level by level from the top, then the removals. A node outside
// a level (a Slurm node in no switch, a node no HyperNode holds) loses that level's key, as it is
// outside that domain. Errors name the level or domain: a key count that is not the depth, a key
// given twice or Kubernetes would refuse, kubernetes.io/hostname (the kubelet's own label), a
// domain name that is no valid label value.
Result<std::vector<LabelOperation>> relabelOperations(const ClusterState& state, const TopologyIndex& index,
                                                      const RelabelRequest& request);

// The nodes that the labels of `after` (the state with the plan made), read as label levels, do
// not place where `source` does, at the levels the request keeps: empty when the relabel is
// faithful. Leaving a level out can merge domains that share a name under different parents
// (rack r1 of block b1 and of block b2), which Kueue would take for one.
std::vector<std::string> relabelMismatches(const ClusterState& after, const TopologyIndex& source,
                                           const RelabelRequest& request);

// The plan's description: "The slurm-topology hierarchy as node labels: a,b; removed: old/*".
std::string relabelDescription(const RelabelRequest& request, std::string_view origin);

// What the check says, for the preview: "Read as --levels KEYS, the labels place every node where
// the ORIGIN hierarchy does." or which nodes they would not place so (the first five).
std::string relabelCheckText(const std::vector<std::string>& mismatches, const RelabelRequest& request,
                             std::string_view origin);

} // namespace topodeck
