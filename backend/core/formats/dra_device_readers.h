#pragma once

// Readers of the devices a DRA ResourceSlice publishes (resource.k8s.io): attributes, capacity,
// counter consumption, taints and node access, and counter values (dra_object_readers.h reads
// the slice around them). One reader for every served version: v1alpha3 (1.31-1.33) and v1beta1
// (1.32, 1.33) wrap a device's fields in `basic`, and v1alpha3 writes capacity as bare
// quantities; v1beta2 and v1 write them on the device and as {value}. Both shapes are taken
// wherever they appear. Templates over the value adapters, like kube_object_readers.h. Internal
// to backend/core.

#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/formats/node_affinity_readers.h"
#include "core/model/dra.h"
#include "core/result.h"
#include "core/values/semver.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// Where an attribute or capacity sits in messages: a bare name (the driver's own domain) as a
// field, "...attributes.cudaComputeCapability", a qualified one as a key, "...attributes["resource.kubernetes.io/pcieRoot"]".
inline Path namedEntry(const Path& map, std::string_view name) {
    return map.entry(name);
}

// A map read into a vector sorted by name (kubectl and the API server print maps sorted, so
// this is a check); a name written twice is an error naming it.
template <class T, class Name> Status sortUnique(std::vector<T>& entries, const Path& path, Name&& nameOf) {
    // One pass tells sorted and unique apart from the rest (every device of a cluster goes
    // through here, and they come sorted); only the rest is sorted and searched again.
    bool sortedUnique = true;
    for (std::size_t i = 1; sortedUnique && i < entries.size(); ++i)
        sortedUnique = std::string_view(nameOf(entries[i - 1])).compare(nameOf(entries[i])) < 0;
    if (sortedUnique) return {};
    const auto byName = [&](const T& a, const T& b) { return nameOf(a) < nameOf(b); };
    if (!std::is_sorted(entries.begin(), entries.end(), byName)) std::stable_sort(entries.begin(), entries.end(), byName);
    const auto twice = std::adjacent_find(entries.begin(), entries.end(),
                                          [&](const T& a, const T& b) { return nameOf(a) == nameOf(b); });
    if (twice == entries.end()) return {};
    return Error{namedEntry(path, nameOf(*twice)).str() + " appears twice"};
}

// A version attribute's value. A cluster's devices carry a few versions (driver, CUDA, compute
// capability), the same on every device of a node: the last few parsed are remembered by their
// text, so each is parsed once rather than once per device.
inline Status parseVersionAttribute(std::string_view text, const Path& at, DeviceAttributeValue& out) {
    struct Parsed {
        std::string text;
        Version version;
    };
    constexpr std::size_t kRemembered = 4;
    thread_local Parsed recent[kRemembered];
    thread_local std::size_t next = 0;
    for (const Parsed& parsed : recent) {
        if (!parsed.text.empty() && parsed.text == text) {
            out.emplace<Version>(parsed.version);
            return {};
        }
    }
    Result<Version> version = Version::parse(text);
    if (!version) return Error{at.str() + ": " + version.error().message};
    Parsed& slot = recent[next++ % kRemembered];
    slot.text = text;
    slot.version = *version;
    out = std::move(*version);
    return {};
}

// One attribute: exactly one of int, bool, string and version (semver 2.0.0).
template <class V> Status readDeviceAttribute(V& value, const Path& path, DeviceAttributeValue& out) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s) return s;
    if (!isMap) return typeError(path, "a map", ValueType::Null);
    std::string_view kind; // the value type read so far
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        using namespace std::string_view_literals;
        const bool isInt = key == "int"sv, isBool = key == "bool"sv, isString = key == "string"sv,
                   isVersion = key == "version"sv;
        if ((!isInt && !isBool && !isString && !isVersion) || field.type() == ValueType::Null) return {};
        const std::string_view now = isInt ? "int"sv : isBool ? "bool"sv : isString ? "string"sv : "version"sv;
        if (!kind.empty())
            return Error{path.str() + ": holds both " + std::string(kind) + " and " + std::string(now) +
                         "; an attribute has exactly one of int, bool, string and version"};
        kind = now;
        const Path at = path.field(key);
        if (isBool) return readBool(field, at, out.emplace<bool>());
        if (isInt) return readInt64(field, at, out.emplace<std::int64_t>());
        const ValueType type = field.type();
        if (type != ValueType::String) return typeError(at, "a string", type);
        std::string_view text;
        if (Status e = readScalar(field, at, text); !e) return e;
        if (isString) {
            out.emplace<std::string>(text);
            return {};
        }
        return parseVersionAttribute(text, at, out);
    });
    if (!s) return s;
    if (kind.empty()) return Error{path.str() + ": needs one of int, bool, string and version"};
    return {};
}

// A capacity or counter value: {value: <quantity>} (v1beta1 on), or a bare quantity (v1alpha3).
template <class V> Status readCapacityValue(V& value, const Path& path, Quantity& out) {
    ValueType type = value.type();
    std::string_view text;
    Path at = path;
    if (type == ValueType::Object) {
        bool sawValue = false;
        at = path.field("value");
        Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
            if (key != "value") return {}; // requestPolicy (consumable capacity) is not kept
            type = field.type();
            if (type != ValueType::String && type != ValueType::Number) return typeError(at, "a quantity", type);
            sawValue = true;
            return field.text(type, text) ? Status{} : Error{"invalid input"};
        });
        if (!s) return s;
        if (!sawValue) return missingError(at);
    } else if (type == ValueType::String || type == ValueType::Number) {
        if (!value.text(type, text)) return Error{"invalid input"};
    } else {
        return type == ValueType::Invalid ? Error{"invalid input"} : typeError(path, "a quantity or {value: quantity}", type);
    }
    Result<Quantity> quantity = Quantity::parse(text);
    if (!quantity) return Error{at.str() + ": " + quantity.error().message};
    out = *quantity;
    return {};
}

// Reads entries through a vector kept from call to call, then moves them into `out` at their exact
// number: a cluster holds hundreds of thousands of devices, and growing each one's attributes by
// doubling would leave a third of that memory unused.
template <class T, class Read> Status readExactly(std::vector<T>& out, Read&& read) {
    thread_local std::vector<T> scratch;
    scratch.clear();
    Status s = read(scratch);
    out.reserve(out.size() + scratch.size());
    std::move(scratch.begin(), scratch.end(), std::back_inserter(out));
    return s;
}

// attributes: {name: {int|bool|string|version: ...}}.
template <class V> Status readDeviceAttributes(V& value, const Path& path, std::vector<DeviceAttribute>& out) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    Status s = readExactly(out, [&](std::vector<DeviceAttribute>& into) {
        return value.forEachField([&](std::string_view name, V& field) -> Status {
            DeviceAttribute& attribute = into.emplace_back();
            attribute.name = name;
            return readDeviceAttribute(field, namedEntry(path, name), attribute.value);
        });
    });
    if (!s) return s;
    return sortUnique(out, path, [](const DeviceAttribute& a) -> std::string_view { return a.name; });
}

// capacity: {name: {value: q}} (or {name: q}).
template <class V> Status readDeviceCapacity(V& value, const Path& path, std::vector<DeviceCapacity>& out) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    Status s = readExactly(out, [&](std::vector<DeviceCapacity>& into) {
        return value.forEachField([&](std::string_view name, V& field) -> Status {
            DeviceCapacity& capacity = into.emplace_back();
            capacity.name = name;
            return readCapacityValue(field, namedEntry(path, name), capacity.value);
        });
    });
    if (!s) return s;
    return sortUnique(out, path, [](const DeviceCapacity& c) -> std::string_view { return c.name; });
}

// counters: {name: {value: q}}, of a counter set or of what a device consumes from one.
template <class V> Status readCounters(V& value, const Path& path, NamedQuantities& out) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    Status s = value.forEachField([&](std::string_view name, V& field) -> Status {
        auto& counter = out.emplace_back(std::string(name), Quantity());
        return readCapacityValue(field, path.key(name), counter.second);
    });
    if (!s) return s;
    return sortUnique(out, path, [](const auto& c) -> std::string_view { return c.first; });
}

// consumesCounters: [{counterSet, counters}].
template <class V> Status readCounterConsumption(V& value, const Path& path, std::vector<DeviceCounterConsumption>& out) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        DeviceCounterConsumption& consumption = out.emplace_back();
        std::string_view counterSet;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "counterSet") return readScalar(field, at.field(key), counterSet);
            return key == "counters" ? readCounters(field, at.field(key), consumption.counters) : Status{};
        });
        if (!s) return s;
        if (counterSet.empty()) return missingError(at.field("counterSet"));
        consumption.counterSet = counterSet;
        return {};
    });
}

// taints: [{key, value, effect, timeAdded}]; the time is not kept.
template <class V> Status readDeviceTaints(V& value, const Path& path, std::vector<DeviceTaint>& out) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        std::string_view key, text, effect;
        Status s = readRequiredFields(
            element, at,
            [&](std::string_view k) { return k == "key" ? &key : k == "value" ? &text : k == "effect" ? &effect : nullptr; },
            {{"key", &key}, {"effect", &effect}});
        if (!s) return s;
        out.push_back({std::string(key), std::string(text), std::string(effect)});
        return {};
    });
}

// Node access, of a slice or (perDeviceNodeSelection) of one device: nodeName, allNodes and
// nodeSelector, of which at most one may be set. `set` counts those that are.
template <class V>
Status readNodeAccess(std::string_view key, V& field, const Path& path, std::string& nodeName, bool& allNodes,
                      std::vector<NodeSelectorTerm>& nodeSelector, int& set) {
    const bool known = key == "nodeName" || key == "allNodes" || key == "nodeSelector";
    if (!known || field.type() == ValueType::Null) return {};
    const Path at = path.field(key);
    Status s;
    if (key == "nodeName") {
        std::string_view name;
        s = readScalar(field, at, name);
        nodeName = name;
        set += !name.empty(); // v1beta1 writes a plain string: empty is unset
    } else if (key == "allNodes") {
        s = readBool(field, at, allNodes);
        set += allNodes;
    } else {
        s = readNodeSelector(field, at, nodeSelector);
        ++set;
    }
    if (s && set > 1) return Error{path.str() + ": nodeName, allNodes, nodeSelector and perDeviceNodeSelection are exclusive"};
    return s;
}

// One device; `basic` (v1alpha3, v1beta1) holds what v1beta2 and v1 put on the device itself.
template <class V> Status readDevice(V& value, const Path& path, Device& device, int& access) {
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "name") {
            std::string_view name;
            Status s = readScalar(field, at, name);
            device.name = name;
            return s;
        }
        if (key == "basic") {
            bool isMap = false;
            if (Status s = expectObject(field, at, "a map", isMap); !s || !isMap) return s;
            return readDevice(field, at, device, access);
        }
        if (key == "attributes") return readDeviceAttributes(field, at, device.attributes);
        if (key == "capacity") return readDeviceCapacity(field, at, device.capacity);
        if (key == "consumesCounters") return readCounterConsumption(field, at, device.consumesCounters);
        if (key == "taints") return readDeviceTaints(field, at, device.taints);
        return readNodeAccess(key, field, path, device.nodeName, device.allNodes, device.nodeSelector, access);
    });
}

} // namespace topodeck::object_reader
