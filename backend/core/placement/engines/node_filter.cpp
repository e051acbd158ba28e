#include "core/placement/engines/node_filter.h"

#include <algorithm>

namespace topodeck {
namespace {

bool matchesSelector(const Node& node, const std::vector<std::pair<std::string, std::string>>& nodeSelector) {
    return std::all_of(nodeSelector.begin(), nodeSelector.end(), [&node](const auto& term) {
        const std::string* value = node.label(term.first);
        return value != nullptr && *value == term.second;
    });
}

// The index of the node's first NoSchedule or NoExecute taint that no toleration tolerates, or -1.
// PreferNoSchedule only scores, it never filters.
std::int64_t untoleratedTaint(const Node& node, const std::vector<Toleration>& tolerations) {
    for (std::size_t t = 0; t < node.taints.size(); ++t) {
        const Taint& taint = node.taints[t];
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
        if (!toleratedBy(tolerations, taint)) return static_cast<std::int64_t>(t);
    }
    return -1;
}

} // namespace

bool toleratedBy(const std::vector<Toleration>& tolerations, const Taint& taint) {
    return std::any_of(tolerations.begin(), tolerations.end(),
                       [&taint](const Toleration& toleration) { return toleration.tolerates(taint); });
}

NodeFilterVerdict filterNode(const Node& node, const std::vector<std::pair<std::string, std::string>>& nodeSelector,
                             const std::vector<Toleration>& tolerations, FilterOrder order) {
    NodeFilterVerdict verdict;
    const bool selectorFirst = order == FilterOrder::SelectorFirst;
    if (selectorFirst && !matchesSelector(node, nodeSelector)) {
        verdict.failed = NodeFilterVerdict::Failed::NodeSelector;
    } else if (const std::int64_t taint = untoleratedTaint(node, tolerations); taint >= 0) {
        verdict.failed = NodeFilterVerdict::Failed::Taint;
        verdict.taint = static_cast<std::uint32_t>(taint);
    } else if (!selectorFirst && !matchesSelector(node, nodeSelector)) {
        verdict.failed = NodeFilterVerdict::Failed::NodeSelector;
    }
    return verdict;
}

} // namespace topodeck
