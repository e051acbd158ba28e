#include "core/model/topology_spec.h"

namespace topodeck {

std::string TopologySpec::shortNameForKey(std::string_view key) {
    // "cloud.google.com/gce-topology-block" -> "block"; "topology.k8s.aws/network-node-layer-2" ->
    // "layer-2"; "fabric.topograph.run/tier-1" -> "tier-1"; "kubernetes.io/hostname" -> "hostname".
    std::string_view name = key;
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    for (std::string_view prefix : {"gce-topology-", "network-node-", "topology-"}) {
        if (name.starts_with(prefix) && name.size() > prefix.size()) {
            name.remove_prefix(prefix.size());
            break;
        }
    }
    return std::string(name.empty() ? key : name);
}

TopologySpec TopologySpec::fromLabelKeys(const std::vector<std::string>& keys) {
    TopologySpec spec;
    spec.origin = "flags";
    for (const auto& key : keys) spec.levels.push_back({key, shortNameForKey(key)});
    return spec;
}

int TopologySpec::levelIndex(std::string_view keyOrName) const {
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].nodeLabel == keyOrName) return static_cast<int>(i);
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].name == keyOrName) return static_cast<int>(i);
    return -1;
}

bool operator==(const TopologySpec& a, const TopologySpec& b) {
    const bool sameMembership =
        a.membership == b.membership || (a.membership && b.membership && *a.membership == *b.membership);
    return sameMembership && a.name == b.name && a.origin == b.origin && a.levels == b.levels &&
           a.nvlinkLabel == b.nvlinkLabel && a.notice == b.notice;
}

} // namespace topodeck
