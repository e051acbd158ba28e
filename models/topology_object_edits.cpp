#include "models/topology_object_edits.h"

#include <algorithm>
#include <sstream>

namespace topodeck {

namespace {

const char* originOf(ObjectKind kind) {
    return kind == ObjectKind::KaiTopology ? "kai" : "kueue";
}

} // namespace

std::vector<std::string> objectNames(const ClusterState& objects, ObjectKind kind) {
    std::vector<std::string> names;
    if (kind == ObjectKind::ResourceFlavor) {
        for (const auto& [name, flavor] : objects.resourceFlavors()) names.push_back(name);
    } else if (kind == ObjectKind::KueueTopology || kind == ObjectKind::KaiTopology) {
        for (const auto& [name, spec] : objects.topologies())
            if (spec.origin == originOf(kind)) names.push_back(name);
    } else {
        for (const auto& [name, hyperNode] : objects.hyperNodes()) names.push_back(name);
    }
    return names; // the maps are sorted
}

std::vector<std::string> topologyLevelKeys(const ClusterState& objects, ObjectKind kind, const std::string& name) {
    std::vector<std::string> keys;
    if (const std::optional<TopologyObject> found = findObject(objects, kind, name))
        if (const auto* spec = std::get_if<TopologySpec>(&*found))
            for (const TopologyLevel& level : spec->levels) keys.push_back(level.nodeLabel);
    return keys;
}

std::optional<ObjectChange> topologyLevelsChange(const ClusterState& objects, ObjectKind kind, const std::string& name,
                                                 const std::vector<std::string>& keys) {
    TopologySpec spec = TopologySpec::fromLabelKeys(keys);
    spec.name = name;
    spec.origin = originOf(kind);
    if (const std::optional<TopologyObject> found = findObject(objects, kind, name))
        if (const auto* before = std::get_if<TopologySpec>(&*found)) spec.nvlinkLabel = before->nvlinkLabel;
    return objectChangeTo(objects, kind, name, TopologyObject(std::move(spec)));
}

std::optional<ObjectChange> flavorTopologyChange(const ClusterState& objects, const std::string& name,
                                                 const std::string& topologyName,
                                                 std::vector<std::pair<std::string, std::string>> nodeLabels) {
    ResourceFlavor flavor;
    flavor.name = name;
    flavor.topologyName = topologyName;
    std::sort(nodeLabels.begin(), nodeLabels.end());
    flavor.nodeLabels = std::move(nodeLabels);
    return objectChangeTo(objects, ObjectKind::ResourceFlavor, name, TopologyObject(std::move(flavor)));
}

std::string nodeLabelsText(const std::vector<std::pair<std::string, std::string>>& labels) {
    std::string text;
    for (const auto& [key, value] : labels) text += (text.empty() ? "" : " ") + key + "=" + value;
    return text;
}

Result<std::vector<std::pair<std::string, std::string>>> parseNodeLabels(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> labels;
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        const std::size_t equals = word.find('=');
        if (equals == std::string::npos || equals == 0) return Error{"\"" + word + "\" is not key=value"};
        labels.emplace_back(word.substr(0, equals), word.substr(equals + 1));
    }
    return labels;
}

} // namespace topodeck
