#pragma once

#include "core/model/resource_list.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

struct Taint {
    std::string key;
    std::string value;
    std::string effect; // NoSchedule, PreferNoSchedule or NoExecute
    friend bool operator==(const Taint&, const Taint&) = default;
};

// One of status.conditions as the kubelet (or node-problem-detector) reports it. The heartbeat
// time is left out: it changes every few seconds and says nothing about the node.
struct NodeCondition {
    std::string type;   // Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable, ...
    std::string status; // True, False or Unknown
    std::string reason;
    std::string since; // lastTransitionTime as written (RFC 3339), or empty
    friend bool operator==(const NodeCondition&, const NodeCondition&) = default;
};

// The node annotations topodeck reads and writes: Slinky's, which tell a Slurm running in the
// cluster where each node sits (topology.slinky.slurm.net/spec: "topo-tree:leaf-1,topo-block:b1",
// topology names of Slurm's topology.yaml). Others are not kept: a node carries many and large ones.
inline constexpr std::string_view kSlinkyAnnotationPrefix = "topology.slinky.slurm.net/";
inline constexpr std::string_view kSlinkyTopologyAnnotation = "topology.slinky.slurm.net/spec";
inline bool keptAnnotation(std::string_view key) {
    return key.starts_with(kSlinkyAnnotationPrefix);
}

// A Kubernetes node (or a Slurm node mapped onto the same notions).
struct Node {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels; // sorted by key
    std::vector<std::pair<std::string, std::string>> annotations{}; // the kept ones (keptAnnotation), sorted by key
    // Which field managers own which labels (metadata.managedFields): label key, manager, sorted,
    // each pair once. A controller that owns a label (feature discovery, Topograph, a cloud's node
    // controller) puts it back when someone else changes it. Empty where the source has none.
    std::vector<std::pair<std::string, std::string>> labelManagers;
    std::vector<Taint> taints;
    bool ready = true;
    bool unschedulable = false; // spec.unschedulable (cordoned)
    ResourceList allocatable;
    // As listed, but for a Ready with neither reason nor time, which `ready` says all of; empty
    // when the source reports none (a demo, Slurm).
    std::vector<NodeCondition> conditions;

    // Value of a label, or nullptr when the node does not carry it.
    const std::string* label(std::string_view key) const;
    void setLabel(std::string_view key, std::string_view value);
    const std::string* annotation(std::string_view key) const;
    void setAnnotation(std::string_view key, std::string_view value);
    bool schedulable() const { return ready && !unschedulable; }

    friend bool operator==(const Node&, const Node&) = default;
};

} // namespace topodeck
