#pragma once

// The reading machinery behind the snapshot reader and the Kubernetes API reader: value adapters
// over simdjson (on demand) and yaml-cpp, field readers written once for both, and the document
// reader that turns Kubernetes objects into the model. Internal to backend/core.

#include "core/cluster_state.h"
#include "core/pod_requests.h"
#include "core/quantity.h"
#include "core/snapshot_reader.h"

#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

namespace sj = simdjson::ondemand;

// The snapshot's own annotation for what a Kueue/KAI Topology cannot express: the NVLink key.
inline constexpr std::string_view kNvlinkAnnotation = "topodeck.io/nvlink-label";

enum class ValueType { Null, Bool, Number, String, Array, Object, Invalid };

inline const char* describe(ValueType type) {
    switch (type) {
    case ValueType::Null:
        return "null";
    case ValueType::Bool:
        return "a boolean";
    case ValueType::Number:
        return "a number";
    case ValueType::String:
        return "a string";
    case ValueType::Array:
        return "a list";
    case ValueType::Object:
        return "a map";
    case ValueType::Invalid:
        break;
    }
    return "invalid input";
}

// A field path such as spec.containers[0].resources.requests["cpu"], built only when an error
// needs it: the happy path of a 500,000-pod file must not allocate a string per field.
class Path {
public:
    Path() = default;
    Path field(std::string_view name) const { return Path(this, Kind::Field, name, 0); }
    Path key(std::string_view name) const { return Path(this, Kind::Key, name, 0); }
    Path index(std::size_t i) const { return Path(this, Kind::Index, {}, i); }

    std::string str() const {
        std::string out;
        append(out);
        return out;
    }

private:
    enum class Kind { Root, Field, Key, Index };
    Path(const Path* parent, Kind kind, std::string_view text, std::size_t index)
        : m_parent(parent), m_kind(kind), m_text(text), m_index(index) {}
    void append(std::string& out) const {
        if (m_parent) m_parent->append(out);
        switch (m_kind) {
        case Kind::Root:
            break;
        case Kind::Field:
            if (!out.empty()) out += '.';
            out += m_text;
            break;
        case Kind::Key:
            out += "[\"";
            out += m_text;
            out += "\"]";
            break;
        case Kind::Index:
            out += '[';
            out += std::to_string(m_index);
            out += ']';
            break;
        }
    }

    const Path* m_parent = nullptr;
    Kind m_kind = Kind::Root;
    std::string_view m_text;
    std::size_t m_index = 0;
};

inline Error typeError(const Path& path, std::string_view expected, ValueType got) {
    std::string message = path.str();
    message += ": expected ";
    message += expected;
    message += ", got ";
    message += describe(got);
    return Error{std::move(message)};
}

inline Error missingError(const Path& path) {
    return Error{path.str() + " is missing"};
}

// ---------------------------------------------------------------------------------------------
// Value adapters. The interpretation below is written once, as templates over these two: the
// JSON one walks simdjson's on-demand iterator (values consumed once, in document order), the
// YAML one walks a yaml-cpp tree. Both give the same answers for the same document.

// Shared by every JsonValue of one document: the first syntax error and where it happened.
struct JsonContext {
    const char* begin = nullptr;
    const char* end = nullptr;
    sj::document* document = nullptr;
    simdjson::error_code error = simdjson::SUCCESS;
    const char* errorAt = nullptr;

    // The message is replaced by the syntax error at the top, so any text does here.
    Error fail(simdjson::error_code code) {
        if (error == simdjson::SUCCESS) {
            error = code;
            const char* at = nullptr;
            if (document && document->current_location().get(at) == simdjson::SUCCESS) errorAt = at;
        }
        return Error{"invalid JSON"};
    }

    // "<source>:<line>:<column>: invalid JSON: <what>" for the first syntax error.
    Error syntaxError(std::string_view source) const {
        std::string message = std::string(source) + locate(errorAt) + ": invalid JSON: ";
        // Every type is checked before a value is read, so simdjson's "wrong type" means a
        // misspelt literal such as "tru".
        message += error == simdjson::INCORRECT_TYPE ? "malformed value" : simdjson::error_message(error);
        return Error{std::move(message)};
    }

    std::string locate(const char* at) const {
        if (!at || !begin) return {};
        const char* lineStart = begin;
        std::size_t line = 1;
        for (const char* p = begin; p < at; ++p) {
            if (*p == '\n') {
                ++line;
                lineStart = p + 1;
            }
        }
        return ':' + std::to_string(line) + ':' + std::to_string(at - lineStart + 1);
    }
};

class JsonValue {
public:
    using Where = const char*;

    JsonValue(sj::value value, JsonContext& context) : m_value(value), m_context(&context) {}

    Where where() {
        const char* at = nullptr;
        if (m_value.current_location().get(at) != simdjson::SUCCESS) return nullptr;
        return at;
    }
    std::string locate(Where where) const { return m_context->locate(where); }
    // How far into the input `where` is, and how much input follows it.
    std::size_t bytesBefore(Where where) const {
        return where ? static_cast<std::size_t>(where - m_context->begin) : 0;
    }
    std::size_t bytesAfter(Where where) const { return where ? static_cast<std::size_t>(m_context->end - where) : 0; }

    ValueType type() {
        sj::json_type type;
        if (auto error = m_value.type().get(type)) {
            m_context->fail(error);
            return ValueType::Invalid;
        }
        switch (type) {
        case sj::json_type::array:
            return ValueType::Array;
        case sj::json_type::object:
            return ValueType::Object;
        case sj::json_type::number:
            return ValueType::Number;
        case sj::json_type::string:
            return ValueType::String;
        case sj::json_type::boolean:
            return ValueType::Bool;
        case sj::json_type::null:
            return ValueType::Null;
        }
        return ValueType::Invalid;
    }

    // Text of a scalar of the given type; numbers and booleans as written (quantities may be
    // unquoted numbers in JSON).
    bool text(ValueType type, std::string_view& out) {
        if (type == ValueType::String) {
            // A string without escapes is its own text: point into the input rather than copy
            // every value into simdjson's string buffer (hundreds of MB at cluster size).
            if (inPlace(m_value.raw_json_token().data() + 1, out)) return true;
            if (auto error = m_value.get_string().get(out)) {
                m_context->fail(error);
                return false;
            }
            return true;
        }
        std::string_view token = m_value.raw_json_token();
        while (!token.empty() &&
               (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r'))
            token.remove_suffix(1);
        out = token;
        return true;
    }

    // False when the value is not a boolean.
    bool boolean(bool& out) {
        if (type() != ValueType::Bool) return false;
        if (auto error = m_value.get_bool().get(out)) {
            m_context->fail(error);
            return false;
        }
        return true;
    }

    // Reads apiVersion and kind first, wherever they sit, then rewinds so that forEachField()
    // sees the other fields. kubectl prints them first, so this is usually two fields' work.
    Status header(std::string_view& apiVersion, std::string_view& kind) {
        if (Status s = openObject(); !s) return s;
        bool haveApiVersion = false;
        bool haveKind = false;
        for (auto result : m_object) {
            sj::field field;
            if (auto error = std::move(result).get(field)) return m_context->fail(error);
            const bool isApiVersion = field.key() == "apiVersion";
            const bool isKind = !isApiVersion && field.key() == "kind";
            if (!isApiVersion && !isKind) continue;
            JsonValue value(field.value(), *m_context);
            const ValueType type = value.type();
            if (type == ValueType::Invalid) return Error{"invalid JSON"};
            if (type != ValueType::String)
                return typeError(Path().field(isKind ? "kind" : "apiVersion"), "a string", type);
            if (!value.text(type, isKind ? kind : apiVersion)) return Error{"invalid JSON"};
            (isKind ? haveKind : haveApiVersion) = true;
            if (haveKind && haveApiVersion) break;
        }
        if (auto error = m_object.reset().error()) return m_context->fail(error);
        m_skipHeader = true;
        return {};
    }

    template <class F> Status forEachField(F&& f) {
        if (Status s = openObject(); !s) return s;
        for (auto result : m_object) {
            sj::field field;
            if (auto error = std::move(result).get(field)) return m_context->fail(error);
            std::string_view key;
            if (!inPlace(field.key().raw(), key)) {
                if (auto error = field.unescaped_key().get(key)) return m_context->fail(error);
            }
            // Already read by header(); a string may be unescaped only once.
            if (m_skipHeader && (key == "apiVersion" || key == "kind")) continue;
            JsonValue child(field.value(), *m_context);
            if (Status s = f(key, child); !s) return s;
        }
        return {};
    }

    template <class F> Status forEachElement(F&& f) {
        sj::array array;
        if (auto error = m_value.get_array().get(array)) return m_context->fail(error);
        for (auto result : array) {
            sj::value element;
            if (auto error = std::move(result).get(element)) return m_context->fail(error);
            JsonValue child(element, *m_context);
            if (Status s = f(child); !s) return s;
        }
        return {};
    }

private:
    // The characters from `start` up to the closing quote, when there is no escape among them
    // (the document was validated, so a quote ends the string).
    static bool inPlace(const char* start, std::string_view& out) {
        const char* end = start;
        while (*end != '"' && *end != '\\') ++end;
        if (*end != '"') return false;
        out = std::string_view(start, static_cast<std::size_t>(end - start));
        return true;
    }

    Status openObject() {
        if (m_haveObject) return {};
        if (auto error = m_value.get_object().get(m_object)) return m_context->fail(error);
        m_haveObject = true;
        return {};
    }

    sj::value m_value;
    JsonContext* m_context;
    sj::object m_object;
    bool m_haveObject = false;
    bool m_skipHeader = false;
};

class YamlValue {
public:
    using Where = YAML::Mark;

    explicit YamlValue(YAML::Node node) : m_node(std::move(node)) {}

    Where where() const { return m_node.Mark(); }
    // Positions are not worth tracking for YAML, which is read whole into a tree anyway.
    std::size_t bytesBefore(const Where&) const { return 0; }
    std::size_t bytesAfter(const Where&) const { return 0; }
    std::string locate(const Where& where) const {
        if (where.is_null()) return {};
        return ':' + std::to_string(where.line + 1) + ':' + std::to_string(where.column + 1);
    }

    ValueType type() const {
        switch (m_node.Type()) {
        case YAML::NodeType::Undefined:
        case YAML::NodeType::Null:
            return ValueType::Null;
        case YAML::NodeType::Scalar:
            return ValueType::String;
        case YAML::NodeType::Sequence:
            return ValueType::Array;
        case YAML::NodeType::Map:
            return ValueType::Object;
        }
        return ValueType::Invalid;
    }

    // The scalar's text lives in the document tree, which outlives the reading.
    bool text(ValueType, std::string_view& out) const {
        out = m_node.Scalar();
        return true;
    }

    bool boolean(bool& out) const { return m_node.IsScalar() && YAML::convert<bool>::decode(m_node, out); }

    Status header(std::string_view& apiVersion, std::string_view& kind) const {
        for (auto it = m_node.begin(); it != m_node.end(); ++it) {
            const std::string& key = it->first.Scalar();
            const bool isKind = key == "kind";
            if (!isKind && key != "apiVersion") continue;
            if (!it->second.IsScalar()) return typeError(Path().field(key), "a string", YamlValue(it->second).type());
            (isKind ? kind : apiVersion) = it->second.Scalar();
        }
        return {};
    }

    template <class F> Status forEachField(F&& f) const {
        for (auto it = m_node.begin(); it != m_node.end(); ++it) {
            if (!it->first.IsScalar()) return Error{"a map key is not a string"};
            YamlValue child(it->second);
            if (Status s = f(std::string_view(it->first.Scalar()), child); !s) return s;
        }
        return {};
    }

    template <class F> Status forEachElement(F&& f) const {
        for (auto it = m_node.begin(); it != m_node.end(); ++it) {
            YamlValue child(*it);
            if (Status s = f(child); !s) return s;
        }
        return {};
    }

private:
    YAML::Node m_node;
};

// ---------------------------------------------------------------------------------------------
// Field readers, one template for both formats.

template <class V> Status readScalar(V& value, const Path& path, std::string_view& out) {
    const ValueType type = value.type();
    switch (type) {
    case ValueType::Null:
        out = {};
        return {};
    case ValueType::String:
    case ValueType::Number:
    case ValueType::Bool:
        if (value.text(type, out)) return {};
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

// What identifies an object in messages: "Node gpu-7", "Pod team-a/train-0", or, while the
// name is unknown, "Node #3 in items".
struct ObjectLabel {
    std::string_view kind;
    std::string_view nameSpace;
    std::string_view name;
    long index = -1;  // position in items, or -1 for a document's single object
    int document = 0; // 1-based YAML document number when the file has several, else 0
    std::string_view resourceVersion{}; // metadata.resourceVersion, for the live sources

    std::string str() const {
        std::string out(kind.empty() ? std::string_view("object") : kind);
        if (!name.empty()) {
            out += ' ';
            if (!nameSpace.empty()) {
                out += nameSpace;
                out += '/';
            }
            out += name;
            return out;
        }
        if (index >= 0) out += " #" + std::to_string(index) + " in items";
        if (document > 0) out += (index >= 0 ? " of document " : " in document ") + std::to_string(document);
        return out;
    }
};

// ---- Node

// Label text as read, before it is copied into the node once, sorted and at its final size.
using LabelViews = std::vector<std::pair<std::string_view, std::string_view>>;

template <class V>
Status readNodeMetadata(V& value, const Path& path, Node& node, ObjectLabel& label, LabelViews& labels) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "name") {
            std::string_view name;
            if (Status s = readScalar(field, path.field(key), name); !s) return s;
            node.name = name;
            label.name = node.name;
        } else if (key == "resourceVersion") {
            return readScalar(field, path.field(key), label.resourceVersion);
        } else if (key == "labels") {
            Status s = readStringMap(field, path.field(key),
                                     [&](std::string_view k, std::string_view v) { labels.emplace_back(k, v); });
            if (!s) return s;
            // Sorted by key as Node requires (kubectl prints them so already); a repeated key keeps
            // its last value.
            const auto byKey = [](const auto& a, const auto& b) { return a.first < b.first; };
            if (!std::is_sorted(labels.begin(), labels.end(), byKey))
                std::stable_sort(labels.begin(), labels.end(), byKey);
            auto last = std::unique(labels.rbegin(), labels.rend(),
                                    [](const auto& a, const auto& b) { return a.first == b.first; });
            labels.erase(labels.begin(), last.base());
            node.labels.clear();
            node.labels.reserve(labels.size());
            for (const auto& [k, v] : labels) node.labels.emplace_back(k, v);
        }
        return {};
    });
}

template <class V> Status readTaint(V& value, const Path& path, Taint& taint) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        std::string_view text;
        std::string* target = key == "key"      ? &taint.key
                              : key == "value"  ? &taint.value
                              : key == "effect" ? &taint.effect
                                                : nullptr;
        if (!target) return {};
        if (Status s = readScalar(field, path.field(key), text); !s) return s;
        *target = text;
        return {};
    });
}

template <class V> Status readNodeSpec(V& value, const Path& path, Node& node) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "unschedulable") return readBool(field, path.field(key), node.unschedulable);
        if (key != "taints") return {};
        const Path taintsPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, taintsPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            Taint taint;
            if (Status s = readTaint(element, taintsPath.index(index++), taint); !s) return s;
            node.taints.push_back(std::move(taint));
            return {};
        });
    });
}

template <class V> Status readNodeStatus(V& value, const Path& path, Node& node) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "allocatable") return readResources(field, path.field(key), node.allocatable);
        if (key != "conditions") return {};
        const Path conditionsPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, conditionsPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            const Path conditionPath = conditionsPath.index(index++);
            std::string_view type;
            std::string_view status;
            Status s =
                readSelectedFields(element, conditionPath, "a map", [&](std::string_view k) -> std::string_view* {
                    return k == "type" ? &type : k == "status" ? &status : nullptr;
                });
            if (!s) return s;
            if (type == "Ready") node.ready = status == "True";
            return {};
        });
    });
}

// ---- Pod

// Where a pod's gang name may come from, most specific first: the JobSet/LWS/training-operator
// name beats the child Job's name, which beats a scheduler's pod-group name, which beats the
// controlling owner (a ReplicaSet, a StatefulSet, ...).
enum WorkloadSource {
    kJobSetName,
    kLeaderWorkerSetName,
    kTrainingJobName,
    kVolcanoJobName,
    kBatchJobName,
    kLegacyJobName,
    kKueuePodGroup,
    kCoschedulingPodGroup,
    kVolcanoPodGroup,
    kKaiPodGroup,
    kOwner,
    kWorkloadSources
};

struct PodScratch {
    explicit PodScratch(PodResourceSpec& spec) : resources(spec) {}

    std::string_view nameSpace;
    std::string_view name;
    std::string_view nodeName;
    std::string_view phase;
    std::string_view workload[kWorkloadSources];
    std::string_view lwsGroupIndex; // each LeaderWorkerSet group is a gang of its own
    bool ownerIsController = false;
    // Kept from pod to pod (see readContainers); only the first *Used entries are this pod's.
    PodResourceSpec& resources;
    std::size_t containersUsed = 0;
    std::size_t initContainersUsed = 0;
};

inline std::string_view* podLabelSlot(PodScratch& pod, std::string_view key) {
    if (key == "jobset.sigs.k8s.io/jobset-name") return &pod.workload[kJobSetName];
    if (key == "leaderworkerset.sigs.k8s.io/name") return &pod.workload[kLeaderWorkerSetName];
    if (key == "leaderworkerset.sigs.k8s.io/group-index") return &pod.lwsGroupIndex;
    if (key == "training.kubeflow.org/job-name") return &pod.workload[kTrainingJobName];
    if (key == "volcano.sh/job-name") return &pod.workload[kVolcanoJobName];
    if (key == "batch.kubernetes.io/job-name") return &pod.workload[kBatchJobName];
    if (key == "job-name") return &pod.workload[kLegacyJobName];
    if (key == "kueue.x-k8s.io/pod-group-name") return &pod.workload[kKueuePodGroup];
    if (key == "scheduling.x-k8s.io/pod-group") return &pod.workload[kCoschedulingPodGroup];
    return nullptr;
}

inline std::string_view* podAnnotationSlot(PodScratch& pod, std::string_view key) {
    if (key == "scheduling.k8s.io/group-name") return &pod.workload[kVolcanoPodGroup];
    if (key == "pod-group-name") return &pod.workload[kKaiPodGroup];
    return nullptr;
}

template <class V> Status readOwnerReferences(V& value, const Path& path, PodScratch& pod) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path ownerPath = path.index(index++);
        bool present = false;
        if (Status s = expectObject(element, ownerPath, "a map", present); !s || !present) return s;
        std::string_view name;
        bool controller = false;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "name") return readScalar(field, ownerPath.field(key), name);
            if (key == "controller") return readBool(field, ownerPath.field(key), controller);
            return {};
        });
        if (!s) return s;
        // The controlling owner wins; otherwise the first one listed.
        if (!name.empty() && !pod.ownerIsController && (controller || pod.workload[kOwner].empty())) {
            pod.workload[kOwner] = name;
            pod.ownerIsController = controller;
        }
        return {};
    });
}

template <class V> Status readPodMetadata(V& value, const Path& path, PodScratch& pod, ObjectLabel& label) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "name") {
            Status s = readScalar(field, path.field(key), pod.name);
            label.name = pod.name;
            return s;
        }
        if (key == "namespace") {
            Status s = readScalar(field, path.field(key), pod.nameSpace);
            label.nameSpace = pod.nameSpace;
            return s;
        }
        if (key == "resourceVersion") return readScalar(field, path.field(key), label.resourceVersion);
        if (key == "labels")
            return readSelectedFields(field, path.field(key), "a map of strings",
                                      [&](std::string_view k) { return podLabelSlot(pod, k); });
        if (key == "annotations")
            return readSelectedFields(field, path.field(key), "a map of strings",
                                      [&](std::string_view k) { return podAnnotationSlot(pod, k); });
        if (key == "ownerReferences") return readOwnerReferences(field, path.field(key), pod);
        return {};
    });
}

template <class V> Status readContainer(V& value, const Path& path, ContainerResources& container) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        // The container's name is left out: nothing reads it, and it would cost an allocation per
        // container in a 500,000-pod file.
        if (key == "restartPolicy") {
            std::string_view policy;
            if (Status s = readScalar(field, path.field(key), policy); !s) return s;
            container.restartAlways = policy == "Always";
            return {};
        }
        if (key != "resources") return {};
        const Path resourcesPath = path.field(key);
        bool isMap = false;
        if (Status s = expectObject(field, resourcesPath, "a map", isMap); !s || !isMap) return s;
        return field.forEachField([&](std::string_view resourcesKey, V& list) -> Status {
            if (resourcesKey == "requests")
                return readResources(list, resourcesPath.field(resourcesKey), container.requests);
            if (resourcesKey == "limits")
                return readResources(list, resourcesPath.field(resourcesKey), container.limits);
            return {};
        });
    });
}

// Appends to out[0..used), reusing the containers (and their lists' storage) the previous pod
// left beyond `used`: a 500,000-pod file should not allocate for every container.
template <class V>
Status readContainers(V& value, const Path& path, std::vector<ContainerResources>& out, std::size_t& used) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        if (used == out.size()) out.emplace_back();
        ContainerResources& container = out[used++];
        container.requests.clear();
        container.limits.clear();
        container.restartAlways = false;
        return readContainer(element, path.index(index++), container);
    });
}

template <class V> Status readPodSpec(V& value, const Path& path, PodScratch& pod) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "nodeName") return readScalar(field, path.field(key), pod.nodeName);
        if (key == "containers")
            return readContainers(field, path.field(key), pod.resources.containers, pod.containersUsed);
        if (key == "initContainers")
            return readContainers(field, path.field(key), pod.resources.initContainers, pod.initContainersUsed);
        if (key == "overhead") return readResources(field, path.field(key), pod.resources.overhead);
        return {};
    });
}

template <class V> Status readPodStatus(V& value, const Path& path, PodScratch& pod) {
    return readSelectedFields(value, path, "a map",
                              [&](std::string_view key) { return key == "phase" ? &pod.phase : nullptr; });
}

inline PodPhase parsePhase(std::string_view phase) {
    if (phase.empty() || phase == "Pending") return PodPhase::Pending;
    if (phase == "Running") return PodPhase::Running;
    if (phase == "Succeeded") return PodPhase::Succeeded;
    if (phase == "Failed") return PodPhase::Failed;
    return PodPhase::Unknown;
}

// ---- Kueue / KAI Topology

template <class V> Status readTopologyLevels(V& value, const Path& path, std::vector<std::string>& keys) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path levelPath = path.index(index++);
        std::string_view nodeLabel;
        Status s = readSelectedFields(element, levelPath, "a map",
                                      [&](std::string_view key) { return key == "nodeLabel" ? &nodeLabel : nullptr; });
        if (!s) return s;
        if (nodeLabel.empty()) return missingError(levelPath.field("nodeLabel"));
        keys.emplace_back(nodeLabel);
        return {};
    });
}

// ---- Volcano HyperNode

template <class V> Status readInt32(V& value, const Path& path, std::int32_t& out) {
    const ValueType type = value.type();
    if (type == ValueType::Null) return {};
    if (type == ValueType::Invalid) return Error{"invalid input"};
    if (type != ValueType::String && type != ValueType::Number) return typeError(path, "an integer", type);
    std::string_view text;
    if (!value.text(type, text)) return Error{"invalid input"};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || end != text.data() + text.size())
        return Error{path.str() + ": expected an integer, got \"" + std::string(text) + "\""};
    return {};
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

template <class V> Status readLabelMatch(V& value, const Path& path, HyperNodeMember& member) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "matchLabels")
            return readStringMap(field, path.field(key), [&](std::string_view k, std::string_view v) {
                member.matchLabels.emplace_back(k, v);
            });
        if (key != "matchExpressions") return {};
        const Path listPath = path.field(key);
        bool isList = false;
        if (Status s = expectArray(field, listPath, isList); !s || !isList) return s;
        std::size_t index = 0;
        return field.forEachElement([&](V& element) -> Status {
            const Path requirementPath = listPath.index(index++);
            bool isMap = false;
            if (Status s = expectObject(element, requirementPath, "a map", isMap); !s) return s;
            if (!isMap) return typeError(requirementPath, "a map", ValueType::Null);
            HyperNodeLabelRequirement requirement;
            Status s = element.forEachField([&](std::string_view k, V& f) -> Status {
                std::string_view text;
                if (k == "key" || k == "operator") {
                    if (Status e = readScalar(f, requirementPath.field(k), text); !e) return e;
                    (k == "key" ? requirement.key : requirement.op) = text;
                    return {};
                }
                if (k == "values") return readStringList(f, requirementPath.field(k), requirement.values);
                return {};
            });
            if (!s) return s;
            if (requirement.key.empty()) return missingError(requirementPath.field("key"));
            if (requirement.op != "In" && requirement.op != "NotIn" && requirement.op != "Exists" &&
                requirement.op != "DoesNotExist")
                return Error{requirementPath.field("operator").str() +
                             ": expected In, NotIn, Exists or DoesNotExist, got \"" + requirement.op + "\""};
            member.matchExpressions.push_back(std::move(requirement));
            return {};
        });
    });
}

// spec.members[i].selector: exactly one of exactMatch, regexMatch and labelMatch, as the
// HyperNode CRD's validation rules demand.
template <class V> Status readMemberSelector(V& value, const Path& path, HyperNodeMember& member) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s) return s;
    if (!present) return missingError(path);
    int selectors = 0;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "labelMatch") {
            ++selectors;
            member.selector = HyperNodeMember::Selector::Label;
            return readLabelMatch(field, fieldPath, member);
        }
        const bool exact = key == "exactMatch";
        if (!exact && key != "regexMatch") return {};
        ++selectors;
        member.selector = exact ? HyperNodeMember::Selector::Exact : HyperNodeMember::Selector::Regex;
        const std::string_view wanted = exact ? "name" : "pattern";
        std::string_view text;
        Status read = readSelectedFields(field, fieldPath, "a map",
                                         [&](std::string_view k) { return k == wanted ? &text : nullptr; });
        if (!read) return read;
        if (text.empty()) return missingError(fieldPath.field(wanted));
        member.value = text;
        return {};
    });
    if (!s) return s;
    if (selectors == 0) return Error{path.str() + ": needs one of exactMatch, regexMatch or labelMatch"};
    if (selectors > 1) return Error{path.str() + ": exactMatch, regexMatch and labelMatch cannot be used together"};
    return {};
}

template <class V> Status readHyperNodeMembers(V& value, const Path& path, std::vector<HyperNodeMember>& members) {
    bool isList = false;
    if (Status s = expectArray(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](V& element) -> Status {
        const Path memberPath = path.index(index++);
        bool isMap = false;
        if (Status s = expectObject(element, memberPath, "a map", isMap); !s) return s;
        if (!isMap) return typeError(memberPath, "a map", ValueType::Null);
        HyperNodeMember member;
        std::string_view type;
        bool sawSelector = false;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "type") return readScalar(field, memberPath.field(key), type);
            if (key != "selector") return {};
            sawSelector = true;
            return readMemberSelector(field, memberPath.field(key), member);
        });
        if (!s) return s;
        if (type.empty()) return missingError(memberPath.field("type"));
        if (type == "Node")
            member.type = HyperNodeMember::Type::Node;
        else if (type == "HyperNode")
            member.type = HyperNodeMember::Type::HyperNode;
        else
            return Error{memberPath.field("type").str() + ": expected Node or HyperNode, got \"" + std::string(type) +
                         "\""};
        if (!sawSelector) return missingError(memberPath.field("selector"));
        members.push_back(std::move(member));
        return {};
    });
}

// metadata.name and metadata.resourceVersion of an object whose metadata says nothing else we need.
template <class V> Status readNameAndVersion(V& value, const Path& path, std::string_view& name, ObjectLabel& label) {
    return readSelectedFields(value, path, "a map", [&](std::string_view key) -> std::string_view* {
        return key == "name" ? &name : key == "resourceVersion" ? &label.resourceVersion : nullptr;
    });
}

// ---- Kueue ResourceFlavor

template <class V> Status readFlavorSpec(V& value, const Path& path, ResourceFlavor& flavor) {
    bool present = false;
    if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "topologyName") {
            std::string_view topologyName;
            if (Status s = readScalar(field, path.field(key), topologyName); !s) return s;
            flavor.topologyName = topologyName;
            return {};
        }
        if (key != "nodeLabels") return {};
        Status s = readStringMap(field, path.field(key), [&](std::string_view k, std::string_view v) {
            flavor.nodeLabels.emplace_back(k, v);
        });
        std::sort(flavor.nodeLabels.begin(), flavor.nodeLabels.end());
        return s;
    });
}

// ---------------------------------------------------------------------------------------------

enum class ObjectKind { Node, Pod, KueueTopology, KaiTopology, HyperNode, ResourceFlavor, Other };

inline ObjectKind classify(std::string_view apiVersion, std::string_view kind) {
    const bool core = apiVersion.empty() || apiVersion == "v1";
    if (kind == "Node" && core) return ObjectKind::Node;
    if (kind == "Pod" && core) return ObjectKind::Pod;
    if (kind == "Topology") {
        const std::string_view group = apiVersion.substr(0, apiVersion.find('/'));
        if (group == "kueue.x-k8s.io") return ObjectKind::KueueTopology;
        if (group == "kai.scheduler") return ObjectKind::KaiTopology;
    }
    if (kind == "HyperNode" && apiVersion.substr(0, apiVersion.find('/')) == "topology.volcano.sh")
        return ObjectKind::HyperNode;
    if (kind == "ResourceFlavor" && apiVersion.substr(0, apiVersion.find('/')) == "kueue.x-k8s.io")
        return ObjectKind::ResourceFlavor;
    return ObjectKind::Other;
}

inline bool isListKind(std::string_view kind) {
    return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

// Accumulates what every document of one file holds.
// What a List's own metadata says (GET /api/v1/pods?limit=500 pages through these).
struct ListMeta {
    std::string resourceVersion;
    std::string continueToken;
    std::int64_t remainingItemCount = -1; // -1 when the server did not say
};

class SnapshotBuilder {
public:
    Snapshot snapshot;
    // For the live sources: every object's metadata.resourceVersion in the order read, and the
    // List's metadata. Null when not wanted (files).
    std::vector<std::string>* versions = nullptr;
    ListMeta* listMeta = nullptr;

    // Counted per kind and reported once per kind, so a file full of Services gives one line.
    void skip(std::string_view apiVersion, std::string_view kind) {
        std::string what(kind);
        // A kind topodeck reads, but from an API group it does not (some other Topology), says which.
        if (!kind.empty() && (kind == "Topology" || kind == "HyperNode" || kind == "ResourceFlavor" ||
                              classify({}, kind) != ObjectKind::Other))
            what += " (" + std::string(apiVersion) + ")";
        for (auto& entry : m_skipped) {
            if (entry.first == what) {
                ++entry.second;
                return;
            }
        }
        m_skipped.emplace_back(std::move(what), 1);
    }

    Snapshot finish() {
        for (const auto& [what, count] : m_skipped) {
            std::string warning = "skipped " + std::to_string(count) + (count == 1 ? " object " : " objects ");
            warning += what.empty() ? std::string("without a kind") : "of kind " + what;
            snapshot.warnings.push_back(std::move(warning));
        }
        return std::move(snapshot);
    }

private:
    std::vector<std::pair<std::string, std::size_t>> m_skipped; // in first-seen order
};

template <class V> class DocumentReader {
public:
    DocumentReader(SnapshotBuilder& out, std::string_view source, int document)
        : m_out(out), m_source(source), m_document(document) {}

    Status readRoot(V& root) {
        const auto where = root.where();
        switch (root.type()) {
        case ValueType::Null:
            return {}; // an empty YAML document
        case ValueType::Array:
            return readItems(root, {}, {});
        case ValueType::Object:
            break;
        case ValueType::Invalid:
            return Error{"invalid input"};
        default:
            return Error{std::string(m_source) + root.locate(where) + ": expected a Kubernetes object or List, got " +
                         describe(root.type())};
        }
        std::string_view apiVersion;
        std::string_view kind;
        if (Status s = root.header(apiVersion, kind); !s)
            return Error{std::string(m_source) + root.locate(where) + ": " + s.error().message};
        if (!kind.empty() && !isListKind(kind)) return readObject(root, where, apiVersion, kind, -1);

        // A List: "List" holds any kind; NodeList, PodList, ... imply their items' kind, which
        // the API server leaves out of each item.
        const std::string_view itemKind =
            kind.empty() || kind == "List" ? std::string_view() : kind.substr(0, kind.size() - 4);
        bool sawItems = false;
        Status s = root.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata" && m_out.listMeta) return readListMeta(field, *m_out.listMeta);
            if (key != "items") return {};
            sawItems = true;
            const ValueType type = field.type();
            if (type == ValueType::Null) return {};
            if (type != ValueType::Array)
                return Error{std::string(m_source) + field.locate(field.where()) + ": " +
                             typeError(Path().field("items"), "a list", type).message};
            return readItems(field, itemKind.empty() ? std::string_view() : apiVersion, itemKind);
        });
        if (s && kind.empty() && !sawItems)
            return Error{std::string(m_source) + root.locate(where) + ": kind is missing"};
        return s;
    }

private:
    Status readListMeta(V& value, ListMeta& meta) {
        const Path path = Path().field("metadata");
        std::string_view resourceVersion;
        std::string_view continueToken;
        bool present = false;
        if (Status s = expectObject(value, path, "a map", present); !s || !present) return s;
        Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "resourceVersion") return readScalar(field, path.field(key), resourceVersion);
            if (key == "continue") return readScalar(field, path.field(key), continueToken);
            if (key == "remainingItemCount") {
                // Only a progress hint: a value that is not a count is ignored.
                std::string_view text;
                if (Status e = readScalar(field, path.field(key), text); !e) return e;
                std::int64_t remaining = -1;
                const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), remaining);
                if (ec == std::errc() && end == text.data() + text.size()) meta.remainingItemCount = remaining;
            }
            return {};
        });
        meta.resourceVersion = resourceVersion;
        meta.continueToken = continueToken;
        return s;
    }

    Status readItems(V& items, std::string_view defaultApiVersion, std::string_view defaultKind) {
        long index = 0;
        return items.forEachElement([&](V& item) -> Status {
            const long itemIndex = index++;
            const auto where = item.where();
            const ValueType type = item.type();
            if (type == ValueType::Invalid) return Error{"invalid input"};
            if (type != ValueType::Object)
                return Error{std::string(m_source) + item.locate(where) + ": " +
                             typeError(Path().field("items").index(itemIndex), "a map", type).message};
            std::string_view apiVersion;
            std::string_view kind;
            if (Status s = item.header(apiVersion, kind); !s) {
                ObjectLabel label{kind, {}, {}, itemIndex, m_document};
                return Error{std::string(m_source) + item.locate(where) + ": " + label.str() + ": " +
                             s.error().message};
            }
            if (kind.empty()) {
                kind = defaultKind;
                if (apiVersion.empty()) apiVersion = defaultApiVersion;
            }
            return readObject(item, where, apiVersion, kind, itemIndex);
        });
    }

    Status readObject(V& object, const typename V::Where& where, std::string_view apiVersion, std::string_view kind,
                      long index) {
        ObjectLabel label{kind, {}, {}, index, m_document};
        Status s;
        switch (classify(apiVersion, kind)) {
        case ObjectKind::Node:
            s = readNode(object, label);
            break;
        case ObjectKind::Pod:
            reservePods(object, where);
            s = readPod(object, label);
            break;
        case ObjectKind::KueueTopology:
            s = readTopology(object, label, "kueue");
            break;
        case ObjectKind::KaiTopology:
            s = readTopology(object, label, "kai");
            break;
        case ObjectKind::HyperNode:
            s = readHyperNode(object, label);
            break;
        case ObjectKind::ResourceFlavor:
            s = readResourceFlavor(object, label);
            break;
        case ObjectKind::Other:
            m_out.skip(apiVersion, kind);
            return {};
        }
        if (s) {
            if (m_out.versions) m_out.versions->emplace_back(label.resourceVersion);
            return s;
        }
        return Error{std::string(m_source) + object.locate(where) + ": " + s.error().message};
    }

    // Doubling the pod list as it fills would write about twice its final size into fresh
    // pages, and page faults are much of a cluster-sized read: when it is full, size it for the
    // rest of the input at the pods' average size so far (at least 1.5 times, to stay geometric).
    void reservePods(V& object, const typename V::Where& where) {
        std::vector<Pod>& pods = m_out.snapshot.pods;
        const std::size_t before = object.bytesBefore(where);
        if (pods.empty()) m_firstPodOffset = before;
        if (pods.empty() || pods.size() < pods.capacity() || before <= m_firstPodOffset) return;
        const std::size_t perPod = (before - m_firstPodOffset) / pods.size();
        const std::size_t rest = object.bytesAfter(where) / std::max<std::size_t>(perPod, 1);
        pods.reserve(std::max(pods.size() + rest + rest / 16 + 16, pods.capacity() + pods.capacity() / 2));
    }

    // Names the object while the name's storage is still alive.
    static Error labelled(const ObjectLabel& label, const Status& status) {
        return Error{label.str() + ": " + status.error().message};
    }

    Status readNode(V& object, ObjectLabel& label) {
        Node node;
        m_labels.clear();
        // No Ready condition means the kubelet never reported: not ready.
        node.ready = false;
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") return readNodeMetadata(field, root.field(key), node, label, m_labels);
            if (key == "spec") return readNodeSpec(field, root.field(key), node);
            if (key == "status") return readNodeStatus(field, root.field(key), node);
            return {};
        });
        if (!s) return labelled(label, s);
        if (node.name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        m_out.snapshot.nodes.push_back(std::move(node));
        return {};
    }

    Status readPod(V& object, ObjectLabel& label) {
        PodScratch scratch(m_podResources);
        m_podResources.overhead.clear();
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") return readPodMetadata(field, root.field(key), scratch, label);
            if (key == "spec") return readPodSpec(field, root.field(key), scratch);
            if (key == "status") return readPodStatus(field, root.field(key), scratch);
            return {};
        });
        if (!s) return labelled(label, s);
        if (scratch.name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        Pod pod;
        // Namespaced objects without a namespace live in "default", as kubectl applies them.
        pod.nameSpace = scratch.nameSpace.empty() ? std::string_view("default") : scratch.nameSpace;
        pod.name = scratch.name;
        pod.nodeName = scratch.nodeName;
        pod.phase = parsePhase(scratch.phase);
        m_podResources.containers.resize(scratch.containersUsed);
        m_podResources.initContainers.resize(scratch.initContainersUsed);
        pod.requests = effectivePodRequests(m_podResources);
        for (int source = 0; source < kWorkloadSources; ++source) {
            if (scratch.workload[source].empty()) continue;
            pod.workload = scratch.workload[source];
            // Named like the group's StatefulSet: <lws>-<group index>.
            if (source == kLeaderWorkerSetName && !scratch.lwsGroupIndex.empty())
                pod.workload += "-" + std::string(scratch.lwsGroupIndex);
            break;
        }
        m_out.snapshot.pods.push_back(std::move(pod));
        return {};
    }

    Status readTopology(V& object, ObjectLabel& label, std::string_view origin) {
        std::string_view name;
        std::string_view nvlinkLabel;
        std::vector<std::string> keys;
        bool sawLevels = false;
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") {
                const Path metadataPath = root.field(key);
                bool present = false;
                if (Status e = expectObject(field, metadataPath, "a map", present); !e || !present) return e;
                return field.forEachField([&](std::string_view metaKey, V& metaField) -> Status {
                    if (metaKey == "name") {
                        Status e = readScalar(metaField, metadataPath.field(metaKey), name);
                        label.name = name;
                        return e;
                    }
                    if (metaKey == "resourceVersion")
                        return readScalar(metaField, metadataPath.field(metaKey), label.resourceVersion);
                    if (metaKey == "annotations")
                        return readSelectedFields(
                            metaField, metadataPath.field(metaKey), "a map of strings",
                            [&](std::string_view k) { return k == kNvlinkAnnotation ? &nvlinkLabel : nullptr; });
                    return {};
                });
            }
            if (key != "spec") return {};
            const Path specPath = root.field(key);
            bool present = false;
            if (Status e = expectObject(field, specPath, "a map", present); !e || !present) return e;
            return field.forEachField([&](std::string_view specKey, V& specField) -> Status {
                if (specKey != "levels") return {};
                sawLevels = true;
                return readTopologyLevels(specField, specPath.field(specKey), keys);
            });
        });
        if (!s) return labelled(label, s);
        if (name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        if (keys.empty())
            return labelled(label,
                            Error{root.field("spec").field("levels").str() + (sawLevels ? " is empty" : " is missing") +
                                  ": a Topology needs at least one level"});
        TopologySpec spec = TopologySpec::fromLabelKeys(keys);
        spec.name = name;
        spec.origin = origin;
        spec.nvlinkLabel = nvlinkLabel;
        m_out.snapshot.topologies.push_back(std::move(spec));
        return {};
    }

    // An object of which only metadata.name (and resourceVersion) and spec matter: readSpec(value,
    // path) reads the spec. The object must have a name.
    template <class ReadSpec>
    Status readNamedObject(V& object, ObjectLabel& label, std::string_view& name, ReadSpec&& readSpec) {
        const Path root;
        Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
            if (key == "metadata") {
                Status e = readNameAndVersion(field, root.field(key), name, label);
                label.name = name;
                return e;
            }
            return key == "spec" ? readSpec(field, root.field(key)) : Status{};
        });
        if (!s) return labelled(label, s);
        if (name.empty()) return labelled(label, missingError(root.field("metadata").field("name")));
        return {};
    }

    Status readHyperNode(V& object, ObjectLabel& label) {
        std::string_view name;
        std::string_view tierName;
        HyperNode hyperNode;
        Status s = readNamedObject(object, label, name, [&](V& field, const Path& specPath) -> Status {
            bool present = false;
            if (Status e = expectObject(field, specPath, "a map", present); !e || !present) return e;
            return field.forEachField([&](std::string_view specKey, V& specField) -> Status {
                const Path fieldPath = specPath.field(specKey);
                if (specKey == "tier") {
                    if (Status e = readInt32(specField, fieldPath, hyperNode.tier); !e) return e;
                    if (hyperNode.tier < 0)
                        return Error{fieldPath.str() + ": must be 0 or more, got " + std::to_string(hyperNode.tier)};
                    return {};
                }
                if (specKey == "tierName") return readScalar(specField, fieldPath, tierName);
                if (specKey == "members") return readHyperNodeMembers(specField, fieldPath, hyperNode.members);
                return {};
            });
        });
        if (!s) return s;
        hyperNode.name = name;
        hyperNode.tierName = tierName;
        m_out.snapshot.hyperNodes.push_back(std::move(hyperNode));
        return {};
    }

    Status readResourceFlavor(V& object, ObjectLabel& label) {
        std::string_view name;
        ResourceFlavor flavor;
        Status s = readNamedObject(object, label, name,
                                   [&](V& field, const Path& specPath) { return readFlavorSpec(field, specPath, flavor); });
        if (!s) return s;
        flavor.name = name;
        m_out.snapshot.resourceFlavors.push_back(std::move(flavor));
        return {};
    }

    SnapshotBuilder& m_out;
    std::string_view m_source;
    int m_document;
    PodResourceSpec m_podResources;   // scratch for readPod
    std::size_t m_firstPodOffset = 0; // for reservePods
    LabelViews m_labels;              // scratch for readNode
};


// Parses one JSON document and hands its root to readRoot(JsonValue&) -> Status. Syntax errors
// (also those found while readRoot walks the document) and content after the root value become
// errors naming source, line and column.
template <class F>
Status walkJsonDocument(sj::parser& parser, simdjson::padded_string_view input, std::string_view source, F&& readRoot) {
    JsonContext context;
    context.begin = input.data();
    context.end = input.data() + input.size();
    sj::document document;
    if (auto error = parser.iterate(input).get(document)) {
        context.error = error;
        return context.syntaxError(source);
    }
    context.document = &document;
    sj::value rootValue;
    if (auto error = document.get_value().get(rootValue)) {
        if (error == simdjson::SCALAR_DOCUMENT_AS_VALUE)
            return Error{std::string(source) + ": expected a Kubernetes object or List"};
        context.fail(error);
        return context.syntaxError(source);
    }
    JsonValue root(rootValue, context);
    Status status = readRoot(root);
    if (context.error != simdjson::SUCCESS) return context.syntaxError(source);
    if (!status) return status;
    // On-demand parsing stops at the end of the root value; anything after it is an error.
    const char* rest = nullptr;
    if (document.current_location().get(rest) == simdjson::SUCCESS) {
        while (rest < context.end && (*rest == ' ' || *rest == '\t' || *rest == '\n' || *rest == '\r')) ++rest;
        if (rest < context.end)
            return Error{std::string(source) + context.locate(rest) +
                         ": invalid JSON: unexpected content after the top-level value"};
    }
    return {};
}

} // namespace topodeck::object_reader
