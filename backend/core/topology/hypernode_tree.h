#pragma once

#include "core/model/hypernode.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

class ClusterState;
class TopologyIndex;

// The HyperNodes Volcano's label discovery would create for these label levels: tier 1 for the
// lowest level (members = nodes), each level above one tier higher (members = HyperNodes). A
// kubernetes.io/hostname level is the node itself, as in discovery's config, and makes no
// HyperNode. The index knows nodes by label path rather than by name, so tier-1 members select
// nodes by the labels of their path (labelMatch); the nodes they select are exactly those
// discovery would list. tierName is the level's short name.
std::vector<HyperNode> hyperNodesFromIndex(const TopologyIndex& index);

// The name of the virtual HyperNode Volcano's scheduler puts above every parentless HyperNode.
inline constexpr std::string_view kClusterTopHyperNode = "<cluster-top-hypernode>";

// HyperNodes resolved against the nodes as Volcano's scheduler cache does: each HyperNode's real
// nodes (its members and its member HyperNodes' nodes), parents, and the virtual
// <cluster-top-hypernode> of tier maxTier+1 over the parentless ones, holding every node.
struct HyperNodeTree {
    using Id = std::int32_t;
    static constexpr Id kNone = -1;

    struct Entry {
        std::string name;
        std::int32_t tier = 0;
        std::string tierName;
        Id parent = kNone;                // kNone only for the top
        std::int32_t depth = 0;           // steps below the top
        std::vector<Id> children;         // by name
        std::vector<std::uint32_t> nodes; // NodeIds of every node below, ascending, no repeats
        friend bool operator==(const Entry&, const Entry&) = default;
    };

    std::vector<Entry> entries; // by name (byte order), the top last
    Id top = kNone;
    // By NodeId: the lowest-tier HyperNode holding the node; the top when no real one does
    // (Volcano's FindHyperNodeForNode). Empty slots and deleted nodes hold kNone.
    std::vector<Id> leafOf;
    // Tiers of the real HyperNodes and the top, ascending (Volcano's HyperNodesTiers).
    std::vector<std::int32_t> tiers;
    // Odd but accepted input: a node in two HyperNodes of one tier, unknown members, ...
    std::vector<std::string> warnings;

    Id find(std::string_view name) const;
    Id lca(Id a, Id b) const;
    // The tier's tierName when one of its HyperNodes carries one, else "tier-N".
    std::string tierLabel(std::int32_t tier) const;
    friend bool operator==(const HyperNodeTree&, const HyperNodeTree&) = default;
};

// Resolves HyperNode objects against the cluster's present nodes. Errors are what stops
// Volcano's scheduler from building its HyperNode cache (a cycle, a HyperNode listed by two
// parents, a name given twice), in Volcano's words where it has them.
Result<HyperNodeTree> resolveHyperNodes(const std::vector<HyperNode>& hyperNodes, const ClusterState& state);
// The same tree as resolveHyperNodes(hyperNodesFromIndex(index), state), built straight from the
// index's domains (no selector matching), for cluster-sized label hierarchies.
HyperNodeTree hyperNodeTreeFromIndex(const TopologyIndex& index);

} // namespace topodeck
