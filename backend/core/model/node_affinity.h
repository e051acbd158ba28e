#pragma once
// Node affinity as kube-scheduler evaluates it (the NodeAffinity filter's required terms).

#include "core/model/node.h"
#include "core/model/pod.h"

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// True when the node matches one of the terms; no terms: no constraint. Like Kubernetes: NotIn
// and DoesNotExist hold on a node without the label; Gt and Lt compare whole numbers and fail on
// a label that is not one; an empty term matches nothing.
bool matchesNodeAffinity(const std::vector<NodeSelectorTerm>& terms, const Node& node);

// "In", "NotIn", ...: as the API writes the operator.
std::string_view nodeSelectorOperatorName(NodeSelectorRequirement::Operator op);
// Terms for people: "example.com/rack In (r1, r2), gpu Exists or metadata.name In (n1)".
std::string nodeAffinityText(const std::vector<NodeSelectorTerm>& terms);

} // namespace topodeck
