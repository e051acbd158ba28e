#include "core/slurm/slurm_json.h"

#include "core/formats/field_readers.h"
#include "core/formats/json_value.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

namespace topodeck {

using namespace object_reader;

namespace {

// The parser reads a little past the end of its input; give the string that room instead of
// copying a reply of tens of megabytes into a padded buffer.
simdjson::padded_string_view padded(std::string& text) {
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    return simdjson::padded_string_view(text.data(), text.size(), text.capacity());
}

// One parser per thread: its buffers grow to the largest reply once instead of on every poll.
sj::parser& threadParser() {
    thread_local sj::parser parser;
    return parser;
}

const Error kInvalid{"invalid JSON"}; // replaced by the syntax error by walkJsonDocument

// The value's type. The on-demand parser checks literals only when they are read, so a misspelt
// "nul" or "tru" would pass as null or a boolean: check their text here.
Status typeOf(JsonValue& value, const Path& path, ValueType& type) {
    type = value.type();
    if (type == ValueType::Invalid) return kInvalid;
    if (type == ValueType::Null || type == ValueType::Bool) {
        std::string_view token;
        if (!value.text(type, token)) return kInvalid;
        if (token != "null" && token != "true" && token != "false")
            return Error{path.str() + ": invalid JSON: malformed value " + std::string(token)};
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Scalars. Slurm's numbers are plain JSON numbers up to v0.0.38 and, from v0.0.39 on, often
// {"set": bool, "infinite": bool, "number": N}; a field may come in either form.

struct SlurmNumber {
    bool set = false;      // a value is present (not null, not "set": false)
    bool infinite = false; // "infinite": true
    std::int64_t value = 0;
};

Status integerFromToken(std::string_view token, const Path& path, std::int64_t& out) {
    const char* end = token.data() + token.size();
    auto [ptr, ec] = std::from_chars(token.data(), end, out);
    if (ec == std::errc() && ptr == end) return {};
    // 2.0 is an integer too; 2.5 and out-of-range values are not.
    double real = 0;
    auto [rptr, rec] = std::from_chars(token.data(), end, real);
    // The range first: casting a double outside it is undefined.
    if (rec == std::errc() && rptr == end && real >= -9.2e18 && real <= 9.2e18 &&
        real == static_cast<double>(static_cast<std::int64_t>(real))) {
        out = static_cast<std::int64_t>(real);
        return {};
    }
    return Error{path.str() + ": expected an integer, got " + std::string(token)};
}

Status readSlurmNumber(JsonValue& value, const Path& path, SlurmNumber& out) {
    out = {};
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    switch (type) {
    case ValueType::Null:
        return {};
    case ValueType::Number: {
        std::string_view token;
        if (!value.text(type, token)) return kInvalid;
        out.set = true;
        return integerFromToken(token, path, out.value);
    }
    case ValueType::Object: {
        bool set = true;
        bool haveNumber = false;
        Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            if (key == "set") return readBool(field, path.field(key), set);
            if (key == "infinite") return readBool(field, path.field(key), out.infinite);
            if (key != "number") return {};
            ValueType numberType = ValueType::Invalid;
            if (Status e = typeOf(field, path.field(key), numberType); !e) return e;
            if (numberType == ValueType::Null) return {};
            if (numberType != ValueType::Number) return typeError(path.field(key), "a number", numberType);
            std::string_view token;
            if (!field.text(numberType, token)) return kInvalid;
            haveNumber = true;
            return integerFromToken(token, path.field(key), out.value);
        });
        if (!s) return s;
        out.set = set && haveNumber && !out.infinite;
        if (!out.set) out.value = 0;
        return {};
    }
    case ValueType::Invalid:
        return kInvalid;
    default:
        return typeError(path, "a number", type);
    }
}

// A count or size: unset and infinite leave the default.
Status readInt(JsonValue& value, const Path& path, std::int64_t& out) {
    SlurmNumber number;
    if (Status s = readSlurmNumber(value, path, number); !s) return s;
    if (number.set) out = number.value;
    return {};
}

Status checkUint32(std::int64_t value, const Path& path) {
    if (value < 0 || value > std::numeric_limits<std::uint32_t>::max())
        return Error{path.str() + ": " + std::to_string(value) + " is out of range"};
    return {};
}

Status readUint32(JsonValue& value, const Path& path, std::uint32_t& out) {
    SlurmNumber number;
    if (Status s = readSlurmNumber(value, path, number); !s) return s;
    if (!number.set) return {};
    if (Status s = checkUint32(number.value, path); !s) return s;
    out = static_cast<std::uint32_t>(number.value);
    return {};
}

Status readText(JsonValue& value, const Path& path, std::string_view& out) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    if (type == ValueType::Null) {
        out = {};
        return {};
    }
    if (type == ValueType::String) return value.text(type, out) ? Status{} : Status{kInvalid};
    return typeError(path, "a string", type);
}

Status readString(JsonValue& value, const Path& path, std::string& out) {
    std::string_view text;
    if (Status s = readText(value, path, text); !s) return s;
    out.assign(text);
    return {};
}

// A list of strings, or (older versions) one comma-separated string: onItem(text) per item.
template <class F> Status readNames(JsonValue& value, const Path& path, F&& onItem) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    if (type == ValueType::Null) return {};
    if (type == ValueType::String) {
        std::string_view text;
        if (!value.text(type, text)) return kInvalid;
        while (!text.empty()) {
            const std::size_t comma = text.find(',');
            const std::string_view item = text.substr(0, comma);
            if (!item.empty()) onItem(item);
            if (comma == std::string_view::npos) break;
            text.remove_prefix(comma + 1);
        }
        return {};
    }
    if (type != ValueType::Array) return typeError(path, "a string or a list of strings", type);
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& element) -> Status {
        std::string_view text;
        if (Status s = readText(element, path.index(index++), text); !s) return s;
        if (!text.empty()) onItem(text);
        return {};
    });
}

Status expectObjectOrNull(JsonValue& value, const Path& path, bool& present) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    present = type == ValueType::Object;
    if (present || type == ValueType::Null) return {};
    return typeError(path, "a map", type);
}

Status expectListOrNull(JsonValue& value, const Path& path, bool& present) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    present = type == ValueType::Array;
    if (present || type == ValueType::Null) return {};
    return typeError(path, "a list", type);
}

Status gresFieldError(const Path& path, const Error& error) {
    return Error{path.str() + ": " + error.message};
}

// ---------------------------------------------------------------------------------------------
// meta, errors, warnings: the frame around every reply.

// meta.Slurm.version / meta.slurm.version: {"major", "minor", "micro"}, numbers up to v0.0.38 and
// strings from v0.0.40 ("24", "05", "3"). A part of another kind is left out rather than failing
// the reply: the version is a note on the data, not the data.
Status readVersionParts(JsonValue& value, const Path& path, std::array<std::string, 3>& parts) {
    bool present = false;
    if (Status s = expectObjectOrNull(value, path, present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        const std::size_t index = key == "major" ? 0 : key == "minor" ? 1 : key == "micro" ? 2 : parts.size();
        if (index == parts.size()) return {};
        ValueType type = ValueType::Invalid;
        if (Status s = typeOf(field, path.field(key), type); !s) return s;
        if (type != ValueType::Number && type != ValueType::String) return {};
        std::string_view text;
        if (!field.text(type, text)) return kInvalid;
        parts[index].assign(text);
        return {};
    });
}

Status readMeta(JsonValue& value, const Path& path, SlurmReplyMeta& meta) {
    bool present = false;
    if (Status s = expectObjectOrNull(value, path, present); !s || !present) return s;
    std::string pluginType;
    std::string dataParser;
    std::array<std::string, 3> version; // major, minor, micro
    Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "plugin") {
            bool isObject = false;
            if (Status e = expectObjectOrNull(field, fieldPath, isObject); !e || !isObject) return e;
            return field.forEachField([&](std::string_view pluginKey, JsonValue& pluginField) -> Status {
                if (pluginKey == "type") return readString(pluginField, fieldPath.field(pluginKey), pluginType);
                if (pluginKey == "data_parser") return readString(pluginField, fieldPath.field(pluginKey), dataParser);
                return {};
            });
        }
        // "Slurm" up to v0.0.38, "slurm" from v0.0.39.
        if (key == "Slurm" || key == "slurm") {
            bool isObject = false;
            if (Status e = expectObjectOrNull(field, fieldPath, isObject); !e || !isObject) return e;
            return field.forEachField([&](std::string_view slurmKey, JsonValue& slurmField) -> Status {
                if (slurmKey == "release") return readString(slurmField, fieldPath.field(slurmKey), meta.slurmRelease);
                if (slurmKey == "version") return readVersionParts(slurmField, fieldPath.field(slurmKey), version);
                return {};
            });
        }
        return {};
    });
    if (!s) return s;
    if (meta.slurmRelease.empty() && !version[0].empty() && !version[1].empty()) {
        // 22.05 counts its minor as 5, 23.11 as "11", 24.05 as "05": the release writes two digits.
        meta.slurmRelease = version[0] + (version[1].size() == 1 ? ".0" : ".") + version[1];
        if (!version[2].empty()) meta.slurmRelease += "." + version[2];
    }
    // v0.0.39+ name the data_parser plugin; before, the openapi plugin was the version.
    constexpr std::string_view openapiPrefix = "openapi/v";
    if (!dataParser.empty())
        meta.dataParser = std::move(dataParser);
    else if (pluginType.compare(0, openapiPrefix.size(), openapiPrefix) == 0)
        meta.dataParser = pluginType.substr(openapiPrefix.size() - 1);
    return {};
}

// {"description", "error_number" (or "errno" in 22.05's CLI), "error", "source"} ->
// "slurm_load_jobs: Failed while looking for jobs (error -1: Unspecified error)".
Status readErrorEntry(JsonValue& value, const Path& path, std::string& message) {
    const ValueType type = value.type();
    if (type == ValueType::String) {
        std::string_view text;
        if (!value.text(type, text)) return kInvalid;
        message.assign(text);
        return {};
    }
    bool present = false;
    if (Status s = expectObjectOrNull(value, path, present); !s || !present) return s;
    std::string description;
    std::string error;
    std::string source;
    SlurmNumber number;
    Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        if (key == "description") return readString(field, path.field(key), description);
        if (key == "error") return readString(field, path.field(key), error);
        if (key == "source") return readString(field, path.field(key), source);
        if (key == "error_number" || key == "errno") return readSlurmNumber(field, path.field(key), number);
        return {};
    });
    if (!s) return s;
    std::string detail;
    if (number.set && number.value != 0) detail = "error " + std::to_string(number.value);
    if (!error.empty()) detail += (detail.empty() ? "" : ": ") + error;
    if (!source.empty()) message = source + ": ";
    if (!description.empty()) {
        message += description;
        if (!detail.empty()) message += " (" + detail + ")";
    } else {
        message += detail.empty() ? std::string("unknown error") : detail;
    }
    return {};
}

Status readErrors(JsonValue& value, const Path& path, std::vector<std::string>& errors) {
    bool present = false;
    if (Status s = expectListOrNull(value, path, present); !s || !present) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& element) -> Status {
        std::string message;
        if (Status s = readErrorEntry(element, path.index(index++), message); !s) return s;
        errors.push_back(std::move(message));
        return {};
    });
}

Status readWarnings(JsonValue& value, const Path& path, std::vector<std::string>& warnings) {
    bool present = false;
    if (Status s = expectListOrNull(value, path, present); !s || !present) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& element) -> Status {
        const Path elementPath = path.index(index++);
        const ValueType type = element.type();
        if (type == ValueType::String) {
            std::string_view text;
            if (!element.text(type, text)) return kInvalid;
            warnings.emplace_back(text);
            return {};
        }
        bool isObject = false;
        if (Status s = expectObjectOrNull(element, elementPath, isObject); !s || !isObject) return s;
        std::string description;
        std::string source;
        Status s = element.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            if (key == "description") return readString(field, elementPath.field(key), description);
            if (key == "source") return readString(field, elementPath.field(key), source);
            return {};
        });
        if (!s) return s;
        warnings.push_back(source.empty() ? description : source + ": " + description);
        return {};
    });
}

// The frame fields every reply shares; false when `key` is not one of them.
bool readFrameField(std::string_view key, JsonValue& field, SlurmReplyMeta& meta, std::vector<std::string>& errors,
                    Status& status) {
    const Path root;
    if (key == "meta") {
        status = readMeta(field, root.field(key), meta);
    } else if (key == "errors") {
        status = readErrors(field, root.field(key), errors);
    } else if (key == "warnings") {
        status = readWarnings(field, root.field(key), meta.warnings);
    } else if (key == "last_update") {
        status = readInt(field, root.field(key), meta.lastUpdate);
    } else {
        return false;
    }
    return true;
}

Error replyErrors(std::string_view source, const std::vector<std::string>& errors) {
    std::string message = std::string(source) + ": Slurm reported " +
                          (errors.size() == 1 ? std::string("an error") : std::to_string(errors.size()) + " errors") +
                          ": ";
    for (std::size_t i = 0; i < errors.size(); ++i) message += (i ? "; " : "") + errors[i];
    return Error{std::move(message)};
}

// Parses the reply and hands the root object's fields to onField(key, value) -> Status.
template <class F> Status walkReply(std::string& json, std::string_view source, F&& onField) {
    std::size_t first = 0;
    while (first < json.size() &&
           (json[first] == ' ' || json[first] == '\t' || json[first] == '\n' || json[first] == '\r'))
        ++first;
    if (first == json.size()) return Error{std::string(source) + ": empty reply"};
    if (json[first] != '{') return Error{std::string(source) + ": expected a JSON object"};
    return walkJsonDocument(threadParser(), padded(json), source, [&](JsonValue& root) -> Status {
        if (root.type() != ValueType::Object) return Error{std::string(source) + ": expected a JSON object"};
        Status s = root.forEachField([&](std::string_view key, JsonValue& field) { return onField(key, field); });
        if (!s && s.error().message != kInvalid.message) return Error{std::string(source) + ": " + s.error().message};
        return s;
    });
}

// ---------------------------------------------------------------------------------------------
// Nodes

Status readNodeState(JsonValue& value, const Path& path, SlurmNode& node) {
    // "idle" (v0.0.36-38, with "state_flags": ["DRAIN"] from v0.0.37) or ["IDLE", "DRAIN"]
    // (v0.0.39+); names Slurm may add later are ignored.
    return readNames(value, path, [&](std::string_view name) { addSlurmNodeState(node, name); });
}

Status readNode(JsonValue& value, const Path& path, SlurmNode& node) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    if (type != ValueType::Object) return typeError(path, "a map", type);
    std::string gres;
    std::string gresUsed;
    Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        if (key == "name") return readString(field, path.field(key), node.name);
        if (key == "state" || key == "state_flags") return readNodeState(field, path.field(key), node);
        if (key == "cpus") return readInt(field, path.field(key), node.cpus);
        if (key == "alloc_cpus") return readInt(field, path.field(key), node.cpusAllocated);
        if (key == "real_memory") return readInt(field, path.field(key), node.memoryMiB);
        if (key == "alloc_memory") return readInt(field, path.field(key), node.memoryAllocatedMiB);
        if (key == "gres") return readString(field, path.field(key), gres);
        if (key == "gres_used") return readString(field, path.field(key), gresUsed);
        if (key == "weight") return readUint32(field, path.field(key), node.weight);
        if (key == "reason") return readString(field, path.field(key), node.reason);
        if (key == "partitions")
            return readNames(field, path.field(key),
                             [&](std::string_view name) { node.partitions.emplace_back(name); });
        if (key == "features") {
            node.features.clear();
            return readNames(field, path.field(key), [&](std::string_view name) {
                if (!node.features.empty()) node.features += ',';
                node.features += name;
            });
        }
        return {};
    });
    if (!s) return s;
    Result<std::vector<SlurmGres>> configured = parseGresList(gres);
    if (!configured) return gresFieldError(path.field("gres"), configured.error());
    node.gpus = gresGpuCount(*configured);
    node.gpuType = gresGpuType(*configured);
    Result<std::vector<SlurmGres>> used = parseGresList(gresUsed);
    if (!used) return gresFieldError(path.field("gres_used"), used.error());
    node.gpusUsed = gresGpuCount(*used);
    return {};
}

// ---------------------------------------------------------------------------------------------
// Jobs

// The state squeue would print for a job_state list (v0.0.40+: ["RUNNING"], ["PENDING",
// "REQUEUED"], ["RUNNING", "COMPLETING"]): its flags that squeue names first, else the base.
std::string jobStateFromList(const std::vector<std::string>& states) {
    static constexpr std::array<std::string_view, 11> shownFlags = {
        "COMPLETING", "CONFIGURING",  "RESIZING",  "RESV_DEL_HOLD", "REQUEUE_FED", "REQUEUE_HOLD",
        "REQUEUED",   "SPECIAL_EXIT", "STAGE_OUT", "STOPPED",       "SIGNALING"};
    for (std::string_view flag : shownFlags)
        for (const std::string& state : states)
            if (state == flag) return state;
    return states.empty() ? std::string() : states.front();
}

struct AllocationScratch {
    SlurmJobAllocation allocation;
    std::optional<std::int64_t> cpus; // as Slurm gave it; else the allocated cores counted
    std::int64_t coresAllocated = 0;
    std::int64_t index = -1; // v0.0.36's object key or v0.0.41's "index"
};

bool saysAllocated(std::string_view status) {
    // "allocated", "allocated_and_in_use" (v0.0.37-40); "ALLOCATED", "IN_USE" (v0.0.41+). Not
    // "UNALLOCATED" (v0.0.41+) or v0.0.36's "unassigned".
    return status == "allocated" || status == "allocated_and_in_use" || status == "ALLOCATED" || status == "IN_USE";
}

// The cores of one socket: {"0": "allocated", ...} (v0.0.37-40) or
// [{"index": 0, "status": ["ALLOCATED"]}, ...] (v0.0.41+).
Status countCores(JsonValue& value, const Path& path, std::int64_t& count) {
    const ValueType type = value.type();
    if (type == ValueType::Object) {
        return value.forEachField([&](std::string_view key, JsonValue& core) -> Status {
            std::string_view status;
            if (Status s = readText(core, path.key(key), status); !s) return s;
            if (saysAllocated(status)) ++count;
            return {};
        });
    }
    bool isList = false;
    if (Status s = expectListOrNull(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& core) -> Status {
        const Path corePath = path.index(index++);
        bool isObject = false;
        if (Status s = expectObjectOrNull(core, corePath, isObject); !s || !isObject) return s;
        return core.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            if (key != "status") return {};
            bool allocated = false;
            Status s = readNames(field, corePath.field(key),
                                 [&](std::string_view status) { allocated = allocated || saysAllocated(status); });
            if (allocated) ++count;
            return s;
        });
    });
}

// "sockets": {"0": {"cores": {...}}} (v0.0.37-40), {"0": "unassigned"} (v0.0.36, which gives
// "cpus" instead) or [{"index": 0, "cores": [...]}] (v0.0.41+).
Status countSocketCores(JsonValue& value, const Path& path, std::int64_t& count) {
    const auto socket = [&](JsonValue& entry, const Path& socketPath) -> Status {
        ValueType type = ValueType::Invalid;
        if (Status s = typeOf(entry, socketPath, type); !s) return s;
        if (type == ValueType::String || type == ValueType::Null) return {};
        bool isObject = false;
        if (Status s = expectObjectOrNull(entry, socketPath, isObject); !s || !isObject) return s;
        return entry.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            return key == "cores" ? countCores(field, socketPath.field(key), count) : Status{};
        });
    };
    const ValueType type = value.type();
    if (type == ValueType::Object)
        return value.forEachField(
            [&](std::string_view key, JsonValue& entry) -> Status { return socket(entry, path.key(key)); });
    bool isList = false;
    if (Status s = expectListOrNull(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& entry) -> Status { return socket(entry, path.index(index++)); });
}

// One node of a job's allocation, in any of the shapes listed in slurm_json.h.
Status readAllocation(JsonValue& value, const Path& path, AllocationScratch& out) {
    bool present = false;
    if (Status s = expectObjectOrNull(value, path, present); !s || !present) return s;
    return value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "nodename" || key == "name") return readString(field, fieldPath, out.allocation.node);
        if (key == "index") {
            std::int64_t index = -1;
            if (Status s = readInt(field, fieldPath, index); !s) return s;
            out.index = index;
            return {};
        }
        // "cpus_used" is always 0 in 22.05 (a Slurm bug): not read.
        if (key == "cpus" || key == "memory") {
            const bool isCpus = key == "cpus";
            if (field.type() == ValueType::Object) {
                // v0.0.41+: {"count", "used"} and {"used", "allocated"}.
                const std::string_view wanted = isCpus ? "count" : "allocated";
                return field.forEachField([&](std::string_view subKey, JsonValue& subField) -> Status {
                    if (subKey != wanted) return {};
                    std::int64_t number = 0;
                    if (Status s = readInt(subField, fieldPath.field(subKey), number); !s) return s;
                    if (isCpus)
                        out.cpus = number;
                    else
                        out.allocation.memoryMiB = number;
                    return {};
                });
            }
            std::int64_t number = 0;
            if (Status s = readInt(field, fieldPath, number); !s) return s;
            if (isCpus)
                out.cpus = number;
            else
                out.allocation.memoryMiB = number;
            return {};
        }
        if (key == "memory_allocated") return readInt(field, fieldPath, out.allocation.memoryMiB);
        if (key == "sockets") return countSocketCores(field, fieldPath, out.coresAllocated);
        return {};
    });
}

// A list of allocations (v0.0.37+ "allocated_nodes", v0.0.41+ "nodes.allocation") or v0.0.36's
// object keyed by node index.
Status readAllocations(JsonValue& value, const Path& path, std::vector<AllocationScratch>& out) {
    const ValueType type = value.type();
    if (type == ValueType::Object) {
        return value.forEachField([&](std::string_view key, JsonValue& entry) -> Status {
            AllocationScratch scratch;
            const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), scratch.index);
            if (ec != std::errc() || end != key.data() + key.size() || scratch.index < 0)
                return Error{path.str() + ": expected node indexes as keys, got \"" + std::string(key) + "\""};
            if (Status s = readAllocation(entry, path.key(key), scratch); !s) return s;
            out.push_back(std::move(scratch));
            return {};
        });
    }
    bool isList = false;
    if (Status s = expectListOrNull(value, path, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& entry) -> Status {
        AllocationScratch scratch;
        if (Status s = readAllocation(entry, path.index(index++), scratch); !s) return s;
        out.push_back(std::move(scratch));
        return {};
    });
}

Status readJobResources(JsonValue& value, const Path& path, std::vector<SlurmJobAllocation>& allocations) {
    bool present = false;
    if (Status s = expectObjectOrNull(value, path, present); !s || !present) return s;
    std::string hostlist;
    std::vector<AllocationScratch> scratch;
    Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "allocated_nodes") return readAllocations(field, fieldPath, scratch);
        if (key != "nodes") return {};
        // A hostlist up to v0.0.40; {"count", "list", "allocation", ...} from v0.0.41.
        if (field.type() != ValueType::Object) return readString(field, fieldPath, hostlist);
        return field.forEachField([&](std::string_view nodesKey, JsonValue& nodesField) -> Status {
            if (nodesKey == "list") return readString(nodesField, fieldPath.field(nodesKey), hostlist);
            if (nodesKey == "allocation") return readAllocations(nodesField, fieldPath.field(nodesKey), scratch);
            return {};
        });
    });
    if (!s || scratch.empty()) return s;
    // v0.0.36 keys entries by their place in the hostlist and names no node.
    if (std::all_of(scratch.begin(), scratch.end(), [](const AllocationScratch& a) { return a.index >= 0; }))
        std::stable_sort(scratch.begin(), scratch.end(),
                         [](const AllocationScratch& a, const AllocationScratch& b) { return a.index < b.index; });
    std::vector<std::string> names;
    bool expanded = false;
    for (std::size_t i = 0; i < scratch.size(); ++i) {
        AllocationScratch& entry = scratch[i];
        if (entry.allocation.node.empty()) {
            if (!expanded) {
                Result<std::vector<std::string>> list = expandHostlist(hostlist);
                if (!list) return Error{path.field("nodes").str() + ": " + list.error().message};
                names = std::move(*list);
                expanded = true;
            }
            const std::size_t at = entry.index >= 0 ? static_cast<std::size_t>(entry.index) : i;
            if (at >= names.size())
                return Error{path.str() + ": node " + std::to_string(at) + " of an allocation of " +
                             std::to_string(names.size()) + " nodes (\"" + hostlist + "\")"};
            entry.allocation.node = names[at];
        }
        entry.allocation.cpus = entry.cpus ? *entry.cpus : entry.coresAllocated;
        allocations.push_back(std::move(entry.allocation));
    }
    return {};
}

Status readJob(JsonValue& value, const Path& path, SlurmJob& job) {
    ValueType type = ValueType::Invalid;
    if (Status s = typeOf(value, path, type); !s) return s;
    if (type != ValueType::Object) return typeError(path, "a map", type);
    std::vector<std::int64_t> gpusPerNode;
    Status s = value.forEachField([&](std::string_view key, JsonValue& field) -> Status {
        const Path fieldPath = path.field(key);
        if (key == "job_id") return readUint32(field, fieldPath, job.id);
        if (key == "name") return readString(field, fieldPath, job.name);
        if (key == "user_name") return readString(field, fieldPath, job.user);
        if (key == "partition") return readString(field, fieldPath, job.partition);
        if (key == "state_reason") return readString(field, fieldPath, job.stateReason);
        if (key == "nodes") return readString(field, fieldPath, job.nodes);
        if (key == "tres_per_node") return readString(field, fieldPath, job.tresPerNode);
        if (key == "node_count") return readInt(field, fieldPath, job.nodeCount);
        if (key == "start_time") return readInt(field, fieldPath, job.startTime);
        if (key == "end_time") return readInt(field, fieldPath, job.endTime);
        if (key == "time_limit") return readInt(field, fieldPath, job.timeLimitMinutes); // infinite -> 0
        if (key == "array_job_id") return readUint32(field, fieldPath, job.arrayJobId);
        if (key == "array_task_id") {
            SlurmNumber number;
            if (Status e = readSlurmNumber(field, fieldPath, number); !e) return e;
            if (!number.set) return {};
            if (Status e = checkUint32(number.value, fieldPath); !e) return e;
            job.arrayTaskId = static_cast<std::uint32_t>(number.value);
            return {};
        }
        if (key == "job_state") {
            std::vector<std::string> states;
            Status e = readNames(field, fieldPath, [&](std::string_view state) { states.emplace_back(state); });
            job.state = jobStateFromList(states);
            return e;
        }
        if (key == "gres_detail") {
            bool isList = false;
            if (Status e = expectListOrNull(field, fieldPath, isList); !e || !isList) return e;
            std::size_t index = 0;
            return field.forEachElement([&](JsonValue& entry) -> Status {
                const Path entryPath = fieldPath.index(index++);
                std::string_view text;
                if (Status e = readText(entry, entryPath, text); !e) return e;
                Result<std::vector<SlurmGres>> gres = parseGresList(text);
                if (!gres) return gresFieldError(entryPath, gres.error());
                gpusPerNode.push_back(gresGpuCount(*gres));
                return {};
            });
        }
        if (key == "job_resources") return readJobResources(field, fieldPath, job.allocations);
        return {};
    });
    if (!s) return s;
    // gres_detail has one entry per allocated node, in node order.
    for (std::size_t i = 0; i < job.allocations.size() && i < gpusPerNode.size(); ++i)
        job.allocations[i].gpus = gpusPerNode[i];
    return {};
}

template <class T, class ReadOne>
Status readObjectList(JsonValue& value, std::string_view key, std::vector<T>& out, ReadOne&& readOne) {
    const Path root;
    const Path listPath = root.field(key);
    bool isList = false;
    if (Status s = expectListOrNull(value, listPath, isList); !s || !isList) return s;
    std::size_t index = 0;
    return value.forEachElement([&](JsonValue& element) -> Status {
        T item;
        if (Status s = readOne(element, listPath.index(index++), item); !s) return s;
        out.push_back(std::move(item));
        return {};
    });
}

// A reply's frame (meta, errors, warnings) around its one list of objects under `key`.
template <class Reply, class T, class ReadOne>
Result<Reply> readReply(std::string& json, std::string_view source, std::string_view key,
                        std::vector<T> Reply::*list, ReadOne&& readOne) {
    Reply reply;
    std::vector<std::string> errors;
    bool sawList = false;
    Status s = walkReply(json, source, [&](std::string_view field, JsonValue& value) -> Status {
        Status frame;
        if (readFrameField(field, value, reply.meta, errors, frame)) return frame;
        if (field != key) return {};
        sawList = true;
        return readObjectList(value, key, reply.*list, readOne);
    });
    if (!s) return s.error();
    if (!errors.empty()) return replyErrors(source, errors);
    if (!sawList) return Error{std::string(source) + ": the reply has no \"" + std::string(key) + "\" list"};
    return reply;
}

} // namespace

Result<SlurmNodesReply> readSlurmNodes(std::string& json, std::string_view source) {
    return readReply(json, source, "nodes", &SlurmNodesReply::nodes, readNode);
}

Result<SlurmJobsReply> readSlurmJobs(std::string& json, std::string_view source) {
    return readReply(json, source, "jobs", &SlurmJobsReply::jobs, readJob);
}

} // namespace topodeck
