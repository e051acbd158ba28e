#include "core/formats/object_manifests.h"

#include "core/model/node_affinity.h"

namespace topodeck {

namespace {

void writeMetadata(JsonWriter& json, const std::string& name, const std::string& resourceVersion) {
    json.key("metadata").beginObject().field("name", name);
    if (!resourceVersion.empty()) json.field("resourceVersion", resourceVersion);
}

void writeStringMap(JsonWriter& json, const std::vector<std::pair<std::string, std::string>>& entries) {
    json.beginObject();
    for (const auto& [key, value] : entries) json.field(key, value);
    json.endObject();
}

} // namespace

void writeTopologyManifest(JsonWriter& json, std::string_view apiVersion, const TopologySpec& spec) {
    json.beginObject().field("apiVersion", apiVersion).field("kind", "Topology");
    writeMetadata(json, spec.name, spec.resourceVersion);
    if (!spec.nvlinkLabel.empty())
        json.key("annotations").beginObject().field(kNvlinkLabelAnnotation, spec.nvlinkLabel).endObject();
    json.endObject().key("spec").beginObject().key("levels").beginArray();
    for (const TopologyLevel& level : spec.levels) json.beginObject().field("nodeLabel", level.nodeLabel).endObject();
    json.endArray().endObject().endObject();
}

void writeHyperNodeMember(JsonWriter& json, const HyperNodeMember& member) {
    json.beginObject().field("type", member.type == HyperNodeMember::Type::Node ? "Node" : "HyperNode");
    json.key("selector").beginObject();
    switch (member.selector) {
    case HyperNodeMember::Selector::Exact:
        json.key("exactMatch").beginObject().field("name", member.value).endObject();
        break;
    case HyperNodeMember::Selector::Regex:
        json.key("regexMatch").beginObject().field("pattern", member.value).endObject();
        break;
    case HyperNodeMember::Selector::Label:
        json.key("labelMatch").beginObject();
        writeStringMap(json.key("matchLabels"), member.matchLabels);
        json.key("matchExpressions").beginArray();
        for (const HyperNodeLabelRequirement& requirement : member.matchExpressions)
            json.beginObject()
                .field("key", requirement.key)
                .field("operator", requirement.op)
                .key("values")
                .stringArray(requirement.values)
                .endObject();
        json.endArray().endObject();
        break;
    }
    json.endObject().endObject();
}

void writeHyperNodeManifest(JsonWriter& json, const HyperNode& hyperNode) {
    json.beginObject().field("apiVersion", "topology.volcano.sh/v1alpha1").field("kind", "HyperNode");
    writeMetadata(json, hyperNode.name, hyperNode.resourceVersion);
    json.endObject();
    json.key("spec").beginObject().field("tier", hyperNode.tier);
    if (!hyperNode.tierName.empty()) json.field("tierName", hyperNode.tierName);
    json.key("members").beginArray();
    for (const HyperNodeMember& member : hyperNode.members) writeHyperNodeMember(json, member);
    json.endArray().endObject().endObject();
}

void writeResourceFlavorManifest(JsonWriter& json, std::string_view apiVersion, const ResourceFlavor& flavor) {
    json.beginObject().field("apiVersion", apiVersion).field("kind", "ResourceFlavor");
    writeMetadata(json, flavor.name, flavor.resourceVersion);
    json.endObject();
    json.key("spec").beginObject();
    writeStringMap(json.key("nodeLabels"), flavor.nodeLabels);
    if (!flavor.topologyName.empty()) json.field("topologyName", flavor.topologyName);
    json.endObject().endObject();
}

void writeNodeSelector(JsonWriter& json, const std::vector<NodeSelectorTerm>& terms) {
    json.beginObject().key("nodeSelectorTerms").beginArray();
    for (const NodeSelectorTerm& term : terms) {
        json.beginObject();
        for (const auto& [name, requirements] : {std::pair{"matchExpressions", &term.matchExpressions},
                                                 std::pair{"matchFields", &term.matchFields}}) {
            if (requirements->empty()) continue;
            json.key(name).beginArray();
            for (const NodeSelectorRequirement& requirement : *requirements) {
                json.beginObject().field("key", requirement.key).field("operator", nodeSelectorOperatorName(requirement.op));
                if (!requirement.values.empty()) json.key("values").stringArray(requirement.values);
                json.endObject();
            }
            json.endArray();
        }
        json.endObject();
    }
    json.endArray().endObject();
}

} // namespace topodeck
