#pragma once

// Readers of the DRA objects (resource.k8s.io): ResourceSlice, ResourceClaim,
// ResourceClaimTemplate and DeviceClass, whatever version a server serves (v1alpha3 in
// 1.31-1.33 when enabled, v1beta1 from 1.32, v1beta2 from 1.33, v1 from 1.34), into the one shape
// of model/dra.h. Each reader reads one object and leaves naming it in errors (ObjectLabel) to
// the document reader. Templates over the value adapters. Internal to backend/core.

#include "core/formats/dra_claim_readers.h"
#include "core/formats/dra_device_readers.h"
#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/formats/kube_object_readers.h"
#include "core/formats/node_affinity_readers.h"
#include "core/model/dra.h"
#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::object_reader {

// The versions of resource.k8s.io whose objects have the shape the readers know. v1alpha2
// (1.26-1.30: classic DRA, ResourceClass) does not: its objects are skipped with a warning.
enum class DraVersion : std::uint8_t { V1Alpha3, V1Beta1, V1Beta2, V1 };

inline std::optional<DraVersion> draVersion(std::string_view apiVersion) {
    if (apiVersion == "resource.k8s.io/v1") return DraVersion::V1;
    if (apiVersion == "resource.k8s.io/v1beta2") return DraVersion::V1Beta2;
    if (apiVersion == "resource.k8s.io/v1beta1") return DraVersion::V1Beta1;
    if (apiVersion == "resource.k8s.io/v1alpha3") return DraVersion::V1Alpha3;
    return std::nullopt;
}

// Whether the version writes a request flat (no `exactly`).
inline bool flatRequests(DraVersion version) {
    return version == DraVersion::V1Alpha3 || version == DraVersion::V1Beta1;
}

// ---- ResourceSlice

// spec.pool: {name, generation, resourceSliceCount}.
template <class V> Status readResourcePool(V& value, const Path& path, ResourceSlice& slice) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s) return s;
    if (!isMap) return missingError(path.field("name"));
    std::string_view name;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "name") return readScalar(field, path.field(key), name);
        if (key == "generation") return readInt64(field, path.field(key), slice.poolGeneration);
        return key == "resourceSliceCount" ? readInt64(field, path.field(key), slice.poolSliceCount) : Status{};
    });
    if (!s) return s;
    if (name.empty()) return missingError(path.field("name"));
    if (slice.poolSliceCount < 1)
        return Error{path.field("resourceSliceCount").str() + ": must be at least 1, got " + std::to_string(slice.poolSliceCount)};
    slice.pool = name;
    return {};
}

// spec: driver and pool are required; devices' own node access needs perDeviceNodeSelection.
template <class V> Status readResourceSliceSpec(V& value, const Path& path, ResourceSlice& slice) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s) return s;
    if (!isMap) return missingError(path);
    std::string_view driver;
    bool sawPool = false;
    int access = 0;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "driver") return readScalar(field, at, driver);
        if (key == "pool") {
            sawPool = true;
            return readResourcePool(field, at, slice);
        }
        if (key == "perDeviceNodeSelection") {
            if (Status e = readBool(field, at, slice.perDeviceNodeSelection); !e) return e;
            access += slice.perDeviceNodeSelection;
            return access > 1 ? Error{path.str() + ": nodeName, allNodes, nodeSelector and perDeviceNodeSelection are exclusive"}
                              : Status{};
        }
        if (key == "devices")
            return readExactly(slice.devices, [&](std::vector<Device>& devices) {
                return readMapList(field, at, [&](V& element, const Path& devicePath) -> Status {
                    Device& device = devices.emplace_back();
                    int deviceAccess = 0;
                    if (Status e = readDevice(element, devicePath, device, deviceAccess); !e) return e;
                    if (device.name.empty()) return missingError(devicePath.field("name"));
                    return Status{};
                });
            });
        if (key == "sharedCounters")
            return readMapList(field, at, [&](V& element, const Path& setPath) -> Status {
                CounterSet& set = slice.sharedCounters.emplace_back();
                std::string_view name;
                Status e = element.forEachField([&](std::string_view k, V& f) -> Status {
                    if (k == "name") return readScalar(f, setPath.field(k), name);
                    return k == "counters" ? readCounters(f, setPath.field(k), set.counters) : Status{};
                });
                if (!e) return e;
                if (name.empty()) return missingError(setPath.field("name"));
                set.name = name;
                return e;
            });
        return readNodeAccess(key, field, path, slice.nodeName, slice.allNodes, slice.nodeSelector, access);
    });
    if (!s) return s;
    if (driver.empty()) return missingError(path.field("driver"));
    if (!sawPool) return missingError(path.field("pool"));
    slice.driver = driver;
    for (std::size_t i = 0; i < slice.devices.size() && !slice.perDeviceNodeSelection; ++i) {
        const Device& device = slice.devices[i];
        if (!device.nodeName.empty() || device.allNodes || !device.nodeSelector.empty())
            return Error{path.field("devices").index(i).str() +
                         ": a device says where it is only when spec.perDeviceNodeSelection is true"};
    }
    return {};
}

// ---- The objects

// What the DRA kinds read of metadata. Namespaced kinds without a namespace live in "default",
// as kubectl applies them.
struct DraMetadata {
    std::string_view nameSpace, name, uid, podClaimName, creationTimestamp;
    bool deleting = false; // deletionTimestamp is set
};

template <class V> Status readDraMetadata(V& value, const Path& path, DraMetadata& meta, ObjectLabel& label) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    std::string_view deletion;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        std::string_view* slot = key == "name"              ? &meta.name
                                 : key == "namespace"       ? &meta.nameSpace
                                 : key == "uid"             ? &meta.uid
                                 : key == "resourceVersion" ? &label.resourceVersion
                                 : key == "creationTimestamp" ? &meta.creationTimestamp
                                 : key == "deletionTimestamp" ? &deletion
                                                              : nullptr;
        if (slot) return readScalar(field, at, *slot);
        if (key != "annotations") return {};
        return readSelectedFields(field, at, "a map of strings", [&](std::string_view k) {
            return k == "resource.kubernetes.io/pod-claim-name" ? &meta.podClaimName : nullptr;
        });
    });
    meta.deleting = !deletion.empty();
    label.name = meta.name;
    label.nameSpace = meta.nameSpace;
    return s;
}

// Reads metadata and hands spec and status to readPart(key, value, path); the object must have
// a name.
template <class V, class F> Status readDraObject(V& object, ObjectLabel& label, DraMetadata& meta, F&& readPart) {
    const Path root;
    Status s = object.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "metadata") return readDraMetadata(field, root.field(key), meta, label);
        return key == "spec" || key == "status" ? readPart(key, field, root.field(key)) : Status{};
    });
    if (!s) return s;
    if (meta.name.empty()) return missingError(root.field("metadata").field("name"));
    return {};
}

template <class V> Status readResourceSlice(V& object, ObjectLabel& label, ResourceSlice& slice) {
    DraMetadata meta;
    bool sawSpec = false;
    Status s = readDraObject(object, label, meta, [&](std::string_view key, V& field, const Path& path) -> Status {
        if (key != "spec") return {};
        sawSpec = true;
        return readResourceSliceSpec(field, path, slice);
    });
    if (!s) return s;
    if (!sawSpec) return missingError(Path().field("spec"));
    slice.name = meta.name;
    return {};
}

template <class V> Status readResourceClaim(V& object, ObjectLabel& label, DraVersion version, ResourceClaim& claim) {
    DraMetadata meta;
    Status s = readDraObject(object, label, meta, [&](std::string_view key, V& field, const Path& path) {
        return key == "spec" ? readClaimSpec(field, path, flatRequests(version), claim.spec)
                             : readClaimStatus(field, path, claim);
    });
    if (!s) return s;
    claim.nameSpace = meta.nameSpace.empty() ? std::string_view("default") : meta.nameSpace;
    claim.name = meta.name;
    claim.uid = meta.uid;
    claim.deleting = meta.deleting;
    claim.podClaimName = meta.podClaimName;
    return {};
}

// spec.metadata (labels and annotations for the claims made from it) is not kept.
template <class V>
Status readResourceClaimTemplate(V& object, ObjectLabel& label, DraVersion version, ResourceClaimTemplate& claimTemplate) {
    DraMetadata meta;
    Status s = readDraObject(object, label, meta, [&](std::string_view key, V& field, const Path& path) -> Status {
        if (key != "spec") return {};
        bool isMap = false;
        if (Status e = expectObject(field, path, "a map", isMap); !e || !isMap) return e;
        return field.forEachField([&](std::string_view k, V& spec) -> Status {
            return k == "spec" ? readClaimSpec(spec, path.field(k), flatRequests(version), claimTemplate.spec) : Status{};
        });
    });
    if (!s) return s;
    claimTemplate.nameSpace = meta.nameSpace.empty() ? std::string_view("default") : meta.nameSpace;
    claimTemplate.name = meta.name;
    return {};
}

template <class V> Status readDeviceClass(V& object, ObjectLabel& label, DeviceClass& deviceClass) {
    DraMetadata meta;
    Status s = readDraObject(object, label, meta, [&](std::string_view key, V& field, const Path& path) {
        return key == "spec" ? readDeviceClassSpec(field, path, deviceClass) : Status{};
    });
    if (!s) return s;
    deviceClass.name = meta.name;
    deviceClass.creationTimestamp = meta.creationTimestamp;
    return {};
}

} // namespace topodeck::object_reader
