#pragma once

#include "core/model/node.h"
#include "core/placement/requests/gang_request.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// Whether any of the pod's tolerations tolerates the taint.
bool toleratedBy(const std::vector<Toleration>& tolerations, const Taint& taint);

// What kube-scheduler's NodeAffinity filter (here the pod's nodeSelector; gangs carry no
// nodeSelectorTerms) and its TaintToleration filter (untolerated NoSchedule and NoExecute taints)
// say of a node: the checks every Kubernetes engine makes before it counts a node's room.
struct NodeFilterVerdict {
    enum class Failed : std::uint8_t { Nothing, NodeSelector, Taint };
    Failed failed = Failed::Nothing;
    std::uint32_t taint = 0; // for Failed::Taint: the first untolerated taint's index in node.taints
    bool passes() const { return failed == Failed::Nothing; }
};

// Which filter names the failure when a node fails both: kube-scheduler runs NodeAffinity first,
// and so do Volcano's predicates; Kueue's TAS matchNode looks at taints first. (KAI only asks
// whether a node passes.)
enum class FilterOrder : std::uint8_t { SelectorFirst, TaintsFirst };

NodeFilterVerdict filterNode(const Node& node, const std::vector<std::pair<std::string, std::string>>& nodeSelector,
                             const std::vector<Toleration>& tolerations, FilterOrder order);

} // namespace topodeck
