#pragma once

// Readers of a pod's required node affinity (spec.affinity) and of NodeSelector objects (DRA
// slices and allocations), templates over the value adapters like the other object readers.
// Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/model/pod.h"
#include "core/result.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// One matchExpressions or matchFields entry, checked as the API server validates it: a known
// operator, values as it takes them (In, NotIn: some; Exists, DoesNotExist: none; Gt, Lt: one
// whole number); matchFields only on metadata.name.
template <class V>
Status readNodeSelectorRequirement(V& value, const Path& path, bool isField, NodeSelectorRequirement& out) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s) return s;
    if (!isMap) return typeError(path, "a map", ValueType::Null);
    std::string_view key, op;
    Status s = value.forEachField([&](std::string_view k, V& f) -> Status {
        if (k == "key") return readScalar(f, path.field(k), key);
        if (k == "operator") return readScalar(f, path.field(k), op);
        if (k == "values") return readStringList(f, path.field(k), out.values);
        return {};
    });
    if (!s) return s;
    if (key.empty()) return missingError(path.field("key"));
    if (isField && key != "metadata.name")
        return Error{path.field("key").str() + ": matchFields supports only metadata.name, got \"" + std::string(key) + "\""};
    out.key = key;
    using Op = NodeSelectorRequirement::Operator;
    static constexpr std::pair<std::string_view, Op> kOperators[] = {{"In", Op::In}, {"NotIn", Op::NotIn}, {"Exists", Op::Exists},
                                                                     {"DoesNotExist", Op::DoesNotExist}, {"Gt", Op::Gt}, {"Lt", Op::Lt}};
    const auto known = std::find_if(std::begin(kOperators), std::end(kOperators), [&](const auto& entry) { return entry.first == op; });
    if (known == std::end(kOperators))
        return Error{path.field("operator").str() + ": expected In, NotIn, Exists, DoesNotExist, Gt or Lt, got \"" +
                     std::string(op) + "\""};
    out.op = known->second;
    const Path valuesPath = path.field("values");
    switch (out.op) {
    case Op::In:
    case Op::NotIn:
        if (out.values.empty()) return Error{valuesPath.str() + ": " + std::string(op) + " needs at least one value"};
        break;
    case Op::Exists:
    case Op::DoesNotExist:
        if (!out.values.empty()) return Error{valuesPath.str() + ": " + std::string(op) + " takes no values"};
        break;
    case Op::Gt:
    case Op::Lt: {
        std::int64_t number = 0;
        const std::string& text = out.values.empty() ? std::string() : out.values.front();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
        if (out.values.size() != 1 || text.empty() || ec != std::errc() || end != text.data() + text.size())
            return Error{valuesPath.str() + ": " + std::string(op) + " needs exactly one whole number"};
        break;
    }
    }
    return {};
}

// A NodeSelector's nodeSelectorTerms list: a node matches one of the terms.
template <class V> Status readNodeSelectorTerms(V& list, const Path& listPath, std::vector<NodeSelectorTerm>& terms) {
    bool isList = false;
    if (Status s = expectArray(list, listPath, isList); !s || !isList) return s;
    std::size_t index = 0;
    return list.forEachElement([&](V& element) -> Status {
        const Path termPath = listPath.index(index++);
        bool isMap = false;
        if (Status s = expectObject(element, termPath, "a map", isMap); !s) return s;
        NodeSelectorTerm& term = terms.emplace_back();
        if (!isMap) return {}; // a null term: matches nothing, as an empty one
        return element.forEachField([&](std::string_view key, V& field) -> Status {
            const bool isField = key == "matchFields";
            if (!isField && key != "matchExpressions") return {};
            const Path requirementsPath = termPath.field(key);
            bool present = false;
            if (Status s = expectArray(field, requirementsPath, present); !s || !present) return s;
            std::vector<NodeSelectorRequirement>& into = isField ? term.matchFields : term.matchExpressions;
            std::size_t at = 0;
            return field.forEachElement([&](V& requirement) -> Status {
                return readNodeSelectorRequirement(requirement, requirementsPath.index(at++), isField, into.emplace_back());
            });
        });
    });
}

// A NodeSelector object ({nodeSelectorTerms: [...]}), as DRA slices and allocations carry it.
template <class V> Status readNodeSelector(V& value, const Path& path, std::vector<NodeSelectorTerm>& terms) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        return key == "nodeSelectorTerms" ? readNodeSelectorTerms(field, path.field(key), terms) : Status{};
    });
}

// spec.affinity: of it, only nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution's terms
// matter to what a relabel breaks; preferred terms and pod (anti-)affinity are skipped unread.
template <class V> Status readRequiredNodeAffinity(V& value, const Path& path, std::vector<NodeSelectorTerm>& terms) {
    const auto inside = [](V& map, const Path& at, std::string_view name, const auto& then) -> Status {
        bool isMap = false;
        if (Status s = expectObject(map, at, "a map", isMap); !s || !isMap) return s;
        return map.forEachField([&](std::string_view key, V& field) -> Status {
            return key == name ? then(field, at.field(key)) : Status{};
        });
    };
    return inside(value, path, "nodeAffinity", [&](V& affinity, const Path& affinityPath) {
        return inside(affinity, affinityPath, "requiredDuringSchedulingIgnoredDuringExecution", [&](V& required, const Path& requiredPath) {
            return readNodeSelector(required, requiredPath, terms);
        });
    });
}

} // namespace topodeck::object_reader
