#pragma once

#include "core/topology/topology_index.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace topodeck {

inline constexpr std::array<std::int64_t, 5> kSlotGangSizes{8, 16, 32, 64, 128};

// How the free GPUs of the cluster sit at one level of the hierarchy (a level of the spec, the
// NVLink domains, or the nodes themselves), and how many gangs of each size fit there now.
//
// Fragmentation: every usable free GPU is in exactly one domain of each level, so the free total
// is the same at every level; what differs is how much of it lies in domains of that level with
// no GPU in use ("whole" free domains) and how much is scattered over partly used ones. At the node
// level that is Domain's gpusFragmented. Free GPUs in an unlabelled domain count as scattered:
// a scheduler cannot ask for such a domain.
//
// Slots: a gang of S GPUs is ceil(S / p) pods of p = min(S, G) GPUs each, G being the most GPUs a
// node of the cluster has (whole-node pods once the gang is a node or more), and must sit inside
// one domain of the level. A schedulable node with f free GPUs holds floor(f / p) such pods, so a
// domain holds floor(sum of those / pods per gang) gangs, read off its free-GPU histogram; the
// level's count is the sum over its labelled domains. Counts are independent per size: "16 gangs
// of 8 or 8 of 16", not both.
struct LevelCapacity {
    enum class Kind { Level, Nvlink, Node };
    Kind kind = Kind::Level;
    int level = -1;         // for Kind::Level, the index into TopologySpec::levels
    std::string name;       // the level's name, e.g. "rack"; "NVLink domain"; "node"
    std::int64_t domains = 0;    // labelled domains (or NVLink domains, or schedulable nodes)
    std::int64_t gpusFree = 0;   // usable free GPUs in the whole cluster
    std::int64_t gpusFreeWhole = 0; // of those, in domains of this level with no GPU in use
    std::vector<std::int64_t> gangs; // gangs that fit, one per requested size

    std::int64_t gpusFreeScattered() const { return gpusFree - gpusFreeWhole; }
    // Scattered share of the free GPUs, 0 when nothing is free.
    double fragmentation() const;
};

// One row per spec level (top first), then one for NVLink domains when the cluster has any, then
// one for nodes. O(domains x histogram width + nodes).
std::vector<LevelCapacity> levelCapacity(const TopologyIndex& index,
                                         std::span<const std::int64_t> gangSizes = kSlotGangSizes);

// Gangs of `gangGpus` GPUs in pods of min(gangGpus, gpusPerNode) that fit on nodes with these
// free-GPU counts (histogram[f] = nodes with f free GPUs).
std::int64_t gangsThatFit(std::span<const std::uint32_t> histogram, std::int64_t gangGpus, std::int64_t gpusPerNode);

// Pods of `gpusPerPod` GPUs that nodes with these free-GPU counts take now, each node as many as fit
// (the map's free-capacity colours). 0 when gpusPerPod is not positive.
std::int64_t podsThatFit(std::span<const std::uint32_t> histogram, std::int64_t gpusPerPod);

// The most GPUs a node of the index has (G above); O(nodes).
std::int64_t largestNodeGpus(const TopologyIndex& index);

// One domain's slots, by the same rule as a level's: how many gangs of each size fit in it now,
// and the largest gang that fits at all (GPUs): one node's free GPUs below a node's worth, else
// whole nodes' worth (gpusPerNode times the nodes with that many free), whichever is more.
struct DomainSlots {
    std::vector<std::int64_t> gangs; // per requested size
    std::int64_t largestGang = 0;
    std::int64_t wholeNodes = 0; // schedulable nodes with all gpusPerNode GPUs free
};
DomainSlots domainSlots(const Domain& domain, std::int64_t gpusPerNode,
                        std::span<const std::int64_t> gangSizes = kSlotGangSizes);

} // namespace topodeck
