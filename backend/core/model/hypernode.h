#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// One matchExpressions entry of a labelMatch selector (metav1.LabelSelectorRequirement).
struct HyperNodeLabelRequirement {
    std::string key;
    std::string op; // In, NotIn, Exists, DoesNotExist
    std::vector<std::string> values;
    friend bool operator==(const HyperNodeLabelRequirement&, const HyperNodeLabelRequirement&) = default;
};

// A Volcano HyperNode (topology.volcano.sh/v1alpha1) member selector.
struct HyperNodeMember {
    enum class Type { Node, HyperNode };
    enum class Selector { Exact, Regex, Label };
    Type type = Type::Node;
    Selector selector = Selector::Exact;
    std::string value;                                            // the exact name or the regex pattern
    std::vector<std::pair<std::string, std::string>> matchLabels; // labelMatch (Node members only)
    std::vector<HyperNodeLabelRequirement> matchExpressions;      // labelMatch (Node members only)
    friend bool operator==(const HyperNodeMember&, const HyperNodeMember&) = default;
};

struct HyperNode {
    std::string name;
    std::int32_t tier = 0; // lower = closer to the nodes
    std::string tierName;
    std::vector<HyperNodeMember> members;
    // metadata.resourceVersion as the source read it (empty: unknown), a change plan's
    // precondition. Not part of what the object says: equality leaves it out.
    std::string resourceVersion{};
    friend bool operator==(const HyperNode& a, const HyperNode& b) {
        return a.name == b.name && a.tier == b.tier && a.tierName == b.tierName && a.members == b.members;
    }
};

} // namespace topodeck
