#pragma once

#include "core/resource_list.h"

#include <string>

namespace topodeck {

enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };

// A pod as the occupancy views need it: where it runs and what it holds there.
struct Pod {
    std::string nameSpace;
    std::string name;
    std::string nodeName;     // spec.nodeName; empty while unscheduled
    PodPhase phase = PodPhase::Pending;
    ResourceList requests;    // effective request as the scheduler computes it (see pod_requests.h)
    std::string workload;     // the gang it belongs to (owner / job name); empty if none

    // Pods bound to a node and not terminated hold resources there (as kube-scheduler counts).
    bool holdsResources() const {
        return !nodeName.empty() && phase != PodPhase::Succeeded && phase != PodPhase::Failed;
    }
    std::string key() const { return nameSpace + '/' + name; }

    friend bool operator==(const Pod&, const Pod&) = default;
};

} // namespace topodeck
