#pragma once

// Typed field readers written once for both value adapters (JsonValue, YamlValue): scalars,
// booleans, integers, maps of strings, quantities, lists of maps, with errors that name the
// field. Null and absent are the same, as to Kubernetes. Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/values/quantity.h"
#include "core/model/resource_list.h"
#include "core/result.h"
#include "core/text/text_format.h"

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// Names and labels are printable by Kubernetes' validation, but a file or a server may hold
// anything: text that is not UTF-8 or holds a control character (an escape sequence for the
// terminal) is refused, naming the field. Line breaks and tabs are text in annotations.
inline Status checkPrintable(std::string_view text, const Path& path, std::string_view what = "value") {
    const std::size_t at = unprintableAt(text, true);
    if (at == std::string_view::npos) return {};
    return Error{path.str() + ": the " + std::string(what) + " holds " + std::string(unprintableKind(text, at)) +
                 " at byte " + std::to_string(at + 1) + ": \"" + visibleText(text) + '"'};
}

template <class V> Status readScalar(V& value, const Path& path, std::string_view& out) {
    const ValueType type = value.type();
    switch (type) {
    case ValueType::Null:
        out = {};
        return {};
    case ValueType::String:
    case ValueType::Number:
    case ValueType::Bool:
        if (value.text(type, out)) return checkPrintable(out, path);
        return Error{"invalid input"};
    case ValueType::Invalid:
        return Error{"invalid input"};
    default:
        return typeError(path, "a string", type);
    }
}

template <class V> Status readBool(V& value, const Path& path, bool& out) {
    const ValueType type = value.type();
    if (type == ValueType::Null) {
        out = false;
        return {};
    }
    if (value.boolean(out)) return {};
    return typeError(path, "true or false", type);
}

// Null and absent are the same to Kubernetes; anything else must be of the expected type.
template <class V> Status expectObject(V& value, const Path& path, std::string_view what, bool& present) {
    const ValueType type = value.type();
    present = type == ValueType::Object;
    if (present || type == ValueType::Null) return {};
    if (type == ValueType::Invalid) return Error{"invalid input"};
    return typeError(path, what, type);
}

template <class V> Status expectArray(V& value, const Path& path, bool& present) {
    const ValueType type = value.type();
    present = type == ValueType::Array;
    if (present || type == ValueType::Null) return {};
    if (type == ValueType::Invalid) return Error{"invalid input"};
    return typeError(path, "a list", type);
}

// A map of strings (labels, annotations): onEntry(key, value) for every entry.
template <class V, class F> Status readStringMap(V& value, const Path& path, F&& onEntry) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map of strings", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& entry) -> Status {
        if (Status s = checkPrintable(key, path.key(key), "key"); !s) return s;
        std::string_view text;
        if (Status s = readScalar(entry, path.key(key), text); !s) return s;
        onEntry(key, text);
        return {};
    });
}

// Reads only the string fields select(key) wants (a slot to fill, or null) of a map; the rest
// are skipped unread. For labels and annotations, and for objects of which a few fields matter.
template <class V, class F> Status readSelectedFields(V& value, const Path& path, std::string_view what, F&& select) {
    bool present = false;
    if (Status s = expectObject(value, path, what, present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& entry) -> Status {
        std::string_view* slot = select(key);
        return slot ? readScalar(entry, path.key(key), *slot) : Status{};
    });
}

template <class V> Status readResources(V& value, const Path& path, ResourceList& out) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map of quantities", present); !s || !present) return s;
    return value.forEachField([&](std::string_view name, V& entry) -> Status {
        const ValueType type = entry.type();
        if (type == ValueType::Invalid) return Error{"invalid input"};
        if (type != ValueType::String && type != ValueType::Number)
            return typeError(path.key(name), "a quantity", type);
        std::string_view text;
        if (!entry.text(type, text)) return Error{"invalid input"};
        Result<Quantity> quantity = Quantity::parse(text);
        if (!quantity) return Error{path.key(name).str() + ": " + quantity.error().message};
        out.set(name, *quantity);
        return {};
    });
}

// A whole number, written as a number or (YAML, and some JSON) as a string; null leaves `out`.
template <class T, class V> Status readInteger(V& value, const Path& path, T& out) {
    const ValueType type = value.type();
    if (type == ValueType::Null) return {};
    if (type == ValueType::Invalid) return Error{"invalid input"};
    if (type != ValueType::String && type != ValueType::Number) return typeError(path, "an integer", type);
    std::string_view text;
    if (!value.text(type, text)) return Error{"invalid input"};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || end != text.data() + text.size())
        return Error{path.str() + ": expected an integer, got \"" + visibleText(text) + "\""};
    return {};
}

template <class V> Status readInt32(V& value, const Path& path, std::int32_t& out) {
    return readInteger(value, path, out);
}

template <class V> Status readInt64(V& value, const Path& path, std::int64_t& out) {
    return readInteger(value, path, out);
}

// A list of strings (matchExpressions values).
template <class V> Status readStringList(V& value, const Path& path, std::vector<std::string>& out) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        std::string_view text;
        if (Status s = readScalar(element, path.index(index++), text); !s) return s;
        out.emplace_back(text);
        return {};
    });
}

// A list of maps, each read by readEntry(element, path) after checking that it is a map.
template <class V, class F> Status readMapList(V& value, const Path& path, F&& readEntry) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path at = path.index(index++);
        bool isMap = false;
        if (Status s = expectObject(element, at, "a map", isMap); !s) return s;
        if (!isMap) return typeError(at, "a map", ValueType::Null);
        return readEntry(element, at);
    });
}

// The string fields select(key) names, then each required one (empty: missing) checked.
template <class V, class F>
Status readRequiredFields(V& value, const Path& path, F&& select, std::initializer_list<std::pair<const char*, std::string_view*>> required) {
    if (Status s = readSelectedFields(value, path, "a map", select); !s) return s;
    for (const auto& [name, slot] : required)
        if (slot->empty()) return missingError(path.field(name));
    return {};
}

} // namespace topodeck::object_reader
