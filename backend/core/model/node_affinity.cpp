#include "core/model/node_affinity.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

namespace topodeck {
namespace {

std::optional<std::int64_t> wholeNumber(std::string_view text) {
    std::int64_t number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return number;
}

bool meets(const NodeSelectorRequirement& requirement, const std::string* value) {
    using Op = NodeSelectorRequirement::Operator;
    const auto listed = [&] {
        return std::find(requirement.values.begin(), requirement.values.end(), *value) != requirement.values.end();
    };
    switch (requirement.op) {
    case Op::In: return value && listed();
    case Op::NotIn: return !value || !listed();
    case Op::Exists: return value != nullptr;
    case Op::DoesNotExist: return value == nullptr;
    case Op::Gt:
    case Op::Lt: {
        if (!value || requirement.values.size() != 1) return false;
        const std::optional<std::int64_t> have = wholeNumber(*value), bound = wholeNumber(requirement.values.front());
        if (!have || !bound) return false;
        return requirement.op == Op::Gt ? *have > *bound : *have < *bound;
    }
    }
    return false;
}

bool matchesTerm(const NodeSelectorTerm& term, const Node& node) {
    if (term.matchExpressions.empty() && term.matchFields.empty()) return false;
    for (const NodeSelectorRequirement& requirement : term.matchExpressions)
        if (!meets(requirement, node.label(requirement.key))) return false;
    for (const NodeSelectorRequirement& requirement : term.matchFields)
        if (!meets(requirement, requirement.key == "metadata.name" ? &node.name : nullptr)) return false;
    return true;
}

} // namespace

bool matchesNodeAffinity(const std::vector<NodeSelectorTerm>& terms, const Node& node) {
    if (terms.empty()) return true;
    return std::any_of(terms.begin(), terms.end(), [&](const NodeSelectorTerm& term) { return matchesTerm(term, node); });
}

std::string_view nodeSelectorOperatorName(NodeSelectorRequirement::Operator op) {
    using Op = NodeSelectorRequirement::Operator;
    switch (op) {
    case Op::In: return "In";
    case Op::NotIn: return "NotIn";
    case Op::Exists: return "Exists";
    case Op::DoesNotExist: return "DoesNotExist";
    case Op::Gt: return "Gt";
    case Op::Lt: return "Lt";
    }
    return {};
}

std::string nodeAffinityText(const std::vector<NodeSelectorTerm>& terms) {
    std::string text;
    for (const NodeSelectorTerm& term : terms) {
        if (!text.empty()) text += " or ";
        std::string requirements;
        for (const auto* list : {&term.matchExpressions, &term.matchFields})
            for (const NodeSelectorRequirement& requirement : *list) {
                if (!requirements.empty()) requirements += ", ";
                requirements += requirement.key + ' ' + std::string(nodeSelectorOperatorName(requirement.op));
                if (requirement.values.empty()) continue;
                requirements += " (";
                for (std::size_t i = 0; i < requirement.values.size(); ++i)
                    requirements += (i ? ", " : "") + requirement.values[i];
                requirements += ')';
            }
        text += requirements.empty() ? std::string("(an empty term)") : requirements;
    }
    return text;
}

} // namespace topodeck
