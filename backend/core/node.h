#pragma once

#include "core/resource_list.h"

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

// A Kubernetes node (or a Slurm node mapped onto the same notions).
struct Node {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels; // sorted by key
    std::vector<Taint> taints;
    bool ready = true;
    bool unschedulable = false; // spec.unschedulable (cordoned)
    ResourceList allocatable;

    // Value of a label, or nullptr when the node does not carry it.
    const std::string* label(std::string_view key) const;
    void setLabel(std::string_view key, std::string_view value);
    bool schedulable() const { return ready && !unschedulable; }

    friend bool operator==(const Node&, const Node&) = default;
};

} // namespace topodeck
