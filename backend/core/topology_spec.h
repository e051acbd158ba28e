#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

struct TopologyLevel {
    std::string nodeLabel; // e.g. "cloud.google.com/gce-topology-block"
    std::string name;      // short name shown to people and accepted on the command line, e.g. "block"
    friend bool operator==(const TopologyLevel&, const TopologyLevel&) = default;
};

// How to read the hierarchy from node labels: ordered label keys, top level first (as Kueue and
// KAI Topology objects list them), plus the optional NVLink-domain key, which is a separate fabric.
struct TopologySpec {
    std::string name;   // object name (Kueue/KAI Topology) or preset name; empty when ad hoc
    std::string origin; // where it came from: "kueue", "kai", "flags", "demo", ...
    std::vector<TopologyLevel> levels;
    std::string nvlinkLabel; // e.g. "nvidia.com/gpu.clique"; empty when unknown

    // Levels from label keys; short names are derived from the keys.
    static TopologySpec fromLabelKeys(const std::vector<std::string>& keys);
    // A readable short name for a label key: "topology.kubernetes.io/zone" -> "zone".
    static std::string shortNameForKey(std::string_view key);

    // Index of the level whose label key or short name is keyOrName, or -1.
    int levelIndex(std::string_view keyOrName) const;
    int depth() const { return static_cast<int>(levels.size()); }

    friend bool operator==(const TopologySpec&, const TopologySpec&) = default;
};

// The annotation by which a snapshot's Kueue/KAI Topology carries what the object itself cannot
// say: the NVLink-domain label key.
inline constexpr std::string_view kNvlinkLabelAnnotation = "topodeck.io/nvlink-label";

} // namespace topodeck
