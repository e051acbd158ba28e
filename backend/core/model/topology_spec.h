#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace topodeck {

struct TopologyLevel {
    std::string nodeLabel; // e.g. "cloud.google.com/gce-topology-block"
    std::string name;      // short name shown to people and accepted on the command line, e.g. "block"
    friend bool operator==(const TopologyLevel&, const TopologyLevel&) = default;
};

// Where each node sits in a hierarchy that is not read from node labels (a Volcano HyperNode
// tree, a Slurm topology): its domain at each of the first `levels` levels, top first, by node
// name. A node not listed, or with an empty value at a level, is outside that level, as a node
// without the label would be.
struct TopologyMembership {
    int levels = 0;
    std::unordered_map<std::string, std::vector<std::string>> pathByNode;
    friend bool operator==(const TopologyMembership&, const TopologyMembership&) = default;
};

// How to read the hierarchy: ordered levels, top level first (as Kueue and KAI Topology objects
// list their label keys), plus the optional NVLink-domain key, which is a separate fabric. Levels
// are read from node labels unless a membership says where each node sits.
struct TopologySpec {
    std::string name;   // object name (Kueue/KAI Topology) or preset name; empty when ad hoc
    std::string origin; // where it came from: "kueue", "kai", "flags", "demo", "hypernodes", ...
    std::vector<TopologyLevel> levels;
    std::string nvlinkLabel; // e.g. "nvidia.com/gpu.clique"; empty when unknown
    // Set for a hierarchy from topology objects; its levels' nodeLabel keys then only name them.
    std::shared_ptr<const TopologyMembership> membership;
    // What people should know about how the hierarchy was chosen, e.g. that no topology was found
    // and what was looked for; empty when it is the obvious one.
    std::string notice;
    // A Kueue/KAI Topology object's metadata.resourceVersion as read (empty: unknown), a change
    // plan's precondition; equality leaves it out.
    std::string resourceVersion{};

    // Levels from label keys; short names are derived from the keys.
    static TopologySpec fromLabelKeys(const std::vector<std::string>& keys);
    // A readable short name for a label key: "topology.kubernetes.io/zone" -> "zone".
    static std::string shortNameForKey(std::string_view key);

    // Index of the level whose label key or short name is keyOrName, or -1.
    int levelIndex(std::string_view keyOrName) const;
    int depth() const { return static_cast<int>(levels.size()); }
    // True when the scheduler-facing levels are node labels (Kueue and KAI read only those).
    bool readFromLabels() const { return membership == nullptr; }

    // Memberships compare by content: a hierarchy rebuilt from unchanged objects is the same.
    friend bool operator==(const TopologySpec& a, const TopologySpec& b);
};

// The annotation by which a snapshot's Kueue/KAI Topology carries what the object itself cannot
// say: the NVLink-domain label key.
inline constexpr std::string_view kNvlinkLabelAnnotation = "topodeck.io/nvlink-label";

} // namespace topodeck
