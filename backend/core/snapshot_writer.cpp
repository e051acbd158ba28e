#include "core/snapshot_writer.h"

#include "core/json_text.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>
#include <vector>

namespace topodeck {

namespace {

// Read back by the snapshot reader: the one thing a Kueue/KAI Topology cannot say.
constexpr std::string_view kNvlinkAnnotation = "topodeck.io/nvlink-label";


// "key":"value" with a leading comma unless first.
void appendMember(std::string& out, bool& first, std::string_view key, std::string_view value) {
    if (!first) out += ',';
    first = false;
    appendJsonString(out, key);
    out += ':';
    appendJsonString(out, value);
}

// Quantity::toString() is exact but not cheap, and a cluster repeats the same few quantities
// (every node of one shape, every pod of one job) hundreds of thousands of times.
class QuantityTexts {
public:
    const std::string& text(const Quantity& quantity) {
        const auto nanos = static_cast<unsigned __int128>(quantity.nanos());
        const std::uint64_t mixed = static_cast<std::uint64_t>(nanos) ^ static_cast<std::uint64_t>(nanos >> 64);
        Slot& slot = m_slots[(mixed * 0x9E3779B97F4A7C15ull) >> (64 - kBits)];
        if (!slot.used || slot.nanos != quantity.nanos() || slot.format != quantity.format()) {
            slot.used = true;
            slot.nanos = quantity.nanos();
            slot.format = quantity.format();
            slot.text = quantity.toString();
        }
        return slot.text;
    }

private:
    static constexpr int kBits = 8;
    struct Slot {
        bool used = false;
        __int128 nanos = 0;
        Quantity::Format format = Quantity::Format::DecimalSI;
        std::string text;
    };
    std::array<Slot, std::size_t(1) << kBits> m_slots;
};

void appendResources(std::string& out, QuantityTexts& texts, const ResourceList& resources) {
    out += '{';
    bool first = true;
    for (const auto& [name, quantity] : resources) appendMember(out, first, name, texts.text(quantity));
    out += '}';
}

std::string_view phaseName(PodPhase phase) {
    switch (phase) {
    case PodPhase::Pending:
        return "Pending";
    case PodPhase::Running:
        return "Running";
    case PodPhase::Succeeded:
        return "Succeeded";
    case PodPhase::Failed:
        return "Failed";
    case PodPhase::Unknown:
        break;
    }
    return "Unknown";
}

void appendNode(std::string& out, QuantityTexts& texts, const Node& node) {
    out += R"({"apiVersion":"v1","kind":"Node","metadata":{"name":)";
    appendJsonString(out, node.name);
    if (!node.labels.empty()) {
        out += R"(,"labels":{)";
        bool first = true;
        for (const auto& [key, value] : node.labels) appendMember(out, first, key, value);
        out += '}';
    }
    out += R"(},"spec":{)";
    bool firstSpec = true;
    if (node.unschedulable) {
        out += R"("unschedulable":true)";
        firstSpec = false;
    }
    if (!node.taints.empty()) {
        out += firstSpec ? R"("taints":[)" : R"(,"taints":[)";
        for (std::size_t i = 0; i < node.taints.size(); ++i) {
            const Taint& taint = node.taints[i];
            out += i == 0 ? "{" : ",{";
            bool first = true;
            appendMember(out, first, "key", taint.key);
            // kubectl leaves out an empty value; the reader reads it back as empty.
            if (!taint.value.empty()) appendMember(out, first, "value", taint.value);
            appendMember(out, first, "effect", taint.effect);
            out += '}';
        }
        out += ']';
    }
    out += R"(},"status":{"allocatable":)";
    appendResources(out, texts, node.allocatable);
    out += node.ready ? R"(,"conditions":[{"type":"Ready","status":"True"}]}})"
                      : R"(,"conditions":[{"type":"Ready","status":"False"}]}})";
}

void appendPod(std::string& out, QuantityTexts& texts, const Pod& pod) {
    out += R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":)";
    appendJsonString(out, pod.nameSpace);
    out += R"(,"name":)";
    appendJsonString(out, pod.name);
    if (!pod.workload.empty()) {
        // The model keeps the gang's name, not its kind; a controlling Job reads back the same.
        out += R"(,"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":)";
        appendJsonString(out, pod.workload);
        out += R"(,"controller":true}])";
    }
    out += R"(},"spec":{)";
    if (!pod.nodeName.empty()) {
        out += R"("nodeName":)";
        appendJsonString(out, pod.nodeName);
        out += ',';
    }
    // One container holding the effective request gives the same effective request back.
    out += R"("containers":[{"name":"main","resources":{"requests":)";
    appendResources(out, texts, pod.requests);
    out += R"(}}]},"status":{"phase":)";
    appendJsonString(out, phaseName(pod.phase));
    out += "}}";
}

void appendTopology(std::string& out, std::string_view name, const TopologySpec& spec) {
    out += spec.origin == "kai" ? R"({"apiVersion":"kai.scheduler/v1alpha1","kind":"Topology","metadata":{"name":)"
                                : R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Topology","metadata":{"name":)";
    appendJsonString(out, name);
    if (!spec.nvlinkLabel.empty()) {
        out += R"(,"annotations":{)";
        bool first = true;
        appendMember(out, first, kNvlinkAnnotation, spec.nvlinkLabel);
        out += '}';
    }
    out += R"(},"spec":{"levels":[)";
    for (std::size_t i = 0; i < spec.levels.size(); ++i) {
        out += i == 0 ? R"({"nodeLabel":)" : R"(,{"nodeLabel":)";
        appendJsonString(out, spec.levels[i].nodeLabel);
        out += '}';
    }
    out += "]}}";
}

void appendStringMap(std::string& out, const std::vector<std::pair<std::string, std::string>>& entries) {
    out += '{';
    bool first = true;
    for (const auto& [key, value] : entries) appendMember(out, first, key, value);
    out += '}';
}

void appendHyperNodeMember(std::string& out, const HyperNodeMember& member) {
    out += member.type == HyperNodeMember::Type::Node ? R"({"type":"Node","selector":{)"
                                                      : R"({"type":"HyperNode","selector":{)";
    switch (member.selector) {
    case HyperNodeMember::Selector::Exact:
        out += R"("exactMatch":{"name":)";
        appendJsonString(out, member.value);
        out += '}';
        break;
    case HyperNodeMember::Selector::Regex:
        out += R"("regexMatch":{"pattern":)";
        appendJsonString(out, member.value);
        out += '}';
        break;
    case HyperNodeMember::Selector::Label:
        out += R"("labelMatch":{"matchLabels":)";
        appendStringMap(out, member.matchLabels);
        out += R"(,"matchExpressions":[)";
        for (std::size_t i = 0; i < member.matchExpressions.size(); ++i) {
            const HyperNodeLabelRequirement& requirement = member.matchExpressions[i];
            out += i == 0 ? "{" : ",{";
            bool first = true;
            appendMember(out, first, "key", requirement.key);
            appendMember(out, first, "operator", requirement.op);
            out += R"(,"values":[)";
            for (std::size_t v = 0; v < requirement.values.size(); ++v) {
                if (v > 0) out += ',';
                appendJsonString(out, requirement.values[v]);
            }
            out += "]}";
        }
        out += "]}";
        break;
    }
    out += "}}";
}

void appendHyperNode(std::string& out, const HyperNode& hyperNode) {
    out += R"({"apiVersion":"topology.volcano.sh/v1alpha1","kind":"HyperNode","metadata":{"name":)";
    appendJsonString(out, hyperNode.name);
    out += R"(},"spec":{"tier":)";
    out += std::to_string(hyperNode.tier);
    if (!hyperNode.tierName.empty()) {
        out += R"(,"tierName":)";
        appendJsonString(out, hyperNode.tierName);
    }
    out += R"(,"members":[)";
    for (std::size_t i = 0; i < hyperNode.members.size(); ++i) {
        if (i > 0) out += ',';
        appendHyperNodeMember(out, hyperNode.members[i]);
    }
    out += "]}}";
}

void appendResourceFlavor(std::string& out, const ResourceFlavor& flavor) {
    out += R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ResourceFlavor","metadata":{"name":)";
    appendJsonString(out, flavor.name);
    out += R"(},"spec":{"nodeLabels":)";
    appendStringMap(out, flavor.nodeLabels);
    if (!flavor.topologyName.empty()) {
        out += R"(,"topologyName":)";
        appendJsonString(out, flavor.topologyName);
    }
    out += "}}";
}

} // namespace

std::string writeSnapshotJson(const ClusterState& state) {
    // Pods in (namespace, name) order, so that the same state always gives the same file. Few
    // namespaces hold many pods: group by namespace first, then sort each group by name.
    std::map<std::string_view, std::vector<const Pod*>> byNamespace;
    state.forEachPod([&](const Pod& pod) { byNamespace[pod.nameSpace].push_back(&pod); });
    std::vector<const Pod*> pods;
    pods.reserve(state.podCount());
    for (auto& [nameSpace, group] : byNamespace) {
        std::sort(group.begin(), group.end(), [](const Pod* a, const Pod* b) { return a->name < b->name; });
        pods.insert(pods.end(), group.begin(), group.end());
    }

    QuantityTexts texts;
    std::string out;
    out.reserve(state.presentNodeCount() * 640 + pods.size() * 320 + 4096);
    out += R"({"apiVersion":"v1","kind":"List","items":[)";
    bool first = true;
    // One object per line: still compact, and greppable and diffable.
    auto separate = [&]() {
        out += first ? "\n" : ",\n";
        first = false;
    };
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        separate();
        appendNode(out, texts, *record.node);
    }
    for (const Pod* pod : pods) {
        separate();
        appendPod(out, texts, *pod);
    }
    for (const auto& [name, spec] : state.topologies()) {
        separate();
        appendTopology(out, name, spec);
    }
    for (const auto& [name, flavor] : state.resourceFlavors()) {
        separate();
        appendResourceFlavor(out, flavor);
    }
    for (const auto& [name, hyperNode] : state.hyperNodes()) {
        separate();
        appendHyperNode(out, hyperNode);
    }
    out += "\n]}\n";
    return out;
}

} // namespace topodeck
