#pragma once

// Readers of what DRA claims ask for and were given (resource.k8s.io): a ResourceClaim's (and a
// template's) spec.devices, a claim's status, a DeviceClass's selectors. v1alpha3 and v1beta1
// write a request flat (deviceClassName, selectors, allocationMode, count, adminAccess on the
// request; firstAvailable and tolerations beside them from 1.33); v1beta2 and v1 wrap them in
// `exactly`. Both read into DeviceRequest::exactly. Templates over the value adapters. Internal to backend/core.

#include "core/formats/field_path.h"
#include "core/formats/field_readers.h"
#include "core/formats/node_affinity_readers.h"
#include "core/model/dra.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// selectors: [{cel: {expression}}], of a request or of a DeviceClass.
template <class V> Status readCelSelectors(V& value, const Path& path, std::vector<std::string>& out) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        std::string_view expression;
        Status s = element.forEachField([&](std::string_view key, V& field) -> Status {
            if (key != "cel") return {};
            return readSelectedFields(field, at.field(key), "a map",
                                      [&](std::string_view k) { return k == "expression" ? &expression : nullptr; });
        });
        if (!s) return s;
        if (expression.empty()) return missingError(at.field("cel").field("expression"));
        out.emplace_back(expression);
        return {};
    });
}

// tolerations: [{key, operator, value, effect, tolerationSeconds}] (DeviceTaints). The operator is
// Equal when not written; as the API server validates it (validateDeviceToleration), it is Equal or
// Exists, and Exists has no value. The effect is kept as written: one no taint has matches none.
template <class V> Status readDeviceTolerations(V& value, const Path& path, std::vector<DeviceToleration>& out) {
    return readMapList(value, path, [&](V& element, const Path& at) -> Status {
        DeviceToleration& toleration = out.emplace_back();
        std::string_view key, op, text, effect;
        Status s = element.forEachField([&](std::string_view k, V& field) -> Status {
            if (k == "tolerationSeconds") {
                if (field.type() == ValueType::Null) return {};
                return readInt64(field, at.field(k), toleration.tolerationSeconds.emplace());
            }
            std::string_view* slot = k == "key"        ? &key
                                     : k == "operator" ? &op
                                     : k == "value"    ? &text
                                     : k == "effect"   ? &effect
                                                       : nullptr;
            return slot ? readScalar(field, at.field(k), *slot) : Status{};
        });
        if (!s) return s;
        if (op == "Exists")
            toleration.op = DeviceToleration::Operator::Exists;
        else if (!op.empty() && op != "Equal")
            return Error{at.field("operator").str() + ": expected Equal or Exists, got \"" + visibleText(op) + '"'};
        if (!text.empty() && toleration.op == DeviceToleration::Operator::Exists)
            return Error{at.field("value").str() + ": must be empty with operator Exists"};
        toleration.key = key;
        toleration.value = text;
        toleration.effect = effect;
        return {};
    });
}

// One of the fields a way of asking for devices has (deviceClassName, selectors, allocationMode,
// count, adminAccess, tolerations) into `sub`; false when `key` is none of them.
template <class V> bool readSubRequestField(std::string_view key, V& field, const Path& path, DeviceSubRequest& sub, Status& status) {
    const Path at = path.field(key);
    std::string_view text;
    if (key == "deviceClassName") {
        status = readScalar(field, at, text);
        sub.deviceClassName = text;
    } else if (key == "selectors") {
        status = readCelSelectors(field, at, sub.selectors);
    } else if (key == "allocationMode") {
        status = readScalar(field, at, text);
        if (text == "All")
            sub.mode = DeviceSubRequest::Mode::All;
        else if (text.empty() || text == "ExactCount")
            sub.mode = DeviceSubRequest::Mode::ExactCount;
        else if (status)
            status = Error{at.str() + ": expected ExactCount or All, got \"" + visibleText(text) + '"'};
    } else if (key == "count") {
        status = readInt64(field, at, sub.count);
    } else if (key == "adminAccess") {
        status = readBool(field, at, sub.adminAccess);
    } else if (key == "tolerations") {
        status = readDeviceTolerations(field, at, sub.tolerations);
    } else {
        return false;
    }
    return true;
}

// A class is required; `count` means something only for ExactCount (All keeps the default).
inline Status finishSubRequest(DeviceSubRequest& sub, const Path& path) {
    if (sub.deviceClassName.empty()) return missingError(path.field("deviceClassName"));
    if (sub.mode == DeviceSubRequest::Mode::All) {
        sub.count = 1;
    } else if (sub.count < 1) {
        return Error{path.field("count").str() + ": must be at least 1, got " + std::to_string(sub.count)};
    }
    return {};
}

// spec.devices.requests[i]: a name and exactly one of exactly, firstAvailable and (`flat`
// versions) the request's own fields.
template <class V> Status readDeviceRequest(V& value, const Path& path, bool flat, DeviceRequest& request) {
    std::string_view name;
    DeviceSubRequest own; // v1alpha3, v1beta1: the request is its own exact request
    bool sawOwn = false;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "name") return readScalar(field, at, name);
        if (key == "exactly") {
            bool isMap = false;
            if (Status e = expectObject(field, at, "a map", isMap); !e || !isMap) return e;
            DeviceSubRequest& exactly = request.exactly.emplace();
            return field.forEachField([&](std::string_view k, V& f) -> Status {
                Status e;
                readSubRequestField(k, f, at, exactly, e);
                return e;
            });
        }
        if (key == "firstAvailable")
            return readMapList(field, at, [&](V& element, const Path& subPath) -> Status {
                DeviceSubRequest& alternative = request.firstAvailable.emplace_back();
                std::string_view subName;
                Status e = element.forEachField([&](std::string_view k, V& f) -> Status {
                    if (k == "name") return readScalar(f, subPath.field(k), subName);
                    Status r;
                    readSubRequestField(k, f, subPath, alternative, r);
                    return r;
                });
                if (!e) return e;
                if (subName.empty()) return missingError(subPath.field("name"));
                alternative.name = subName;
                return finishSubRequest(alternative, subPath);
            });
        if (field.type() == ValueType::Null) return {};
        Status e;
        const bool known = readSubRequestField(key, field, path, own, e);
        // v1beta1 (1.33) writes tolerations on the request; an empty list says nothing.
        sawOwn |= known && (key != "tolerations" || !own.tolerations.empty());
        return e;
    });
    if (!s) return s;
    if (name.empty()) return missingError(path.field("name"));
    request.name = name;
    const int ways = int(request.exactly.has_value()) + int(sawOwn) + int(!request.firstAvailable.empty());
    if (ways > 1)
        return Error{path.str() + ": exactly, firstAvailable and the request's own deviceClassName are exclusive"};
    if (sawOwn) request.exactly = std::move(own);
    if (request.exactly) return finishSubRequest(*request.exactly, sawOwn ? path : path.field("exactly"));
    if (!request.firstAvailable.empty()) return {};
    return flat ? missingError(path.field("deviceClassName")) : Error{path.str() + ": needs exactly or firstAvailable"};
}

// spec (of a claim, or a template's spec.spec): devices.requests and devices.constraints; the
// opaque config, which allocation ignores, is not kept.
template <class V> Status readClaimSpec(V& value, const Path& path, bool flat, ResourceClaimSpec& spec) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    return value.forEachField([&](std::string_view key, V& devices) -> Status {
        if (key != "devices") return {};
        const Path devicesPath = path.field(key);
        bool present = false;
        if (Status s = expectObject(devices, devicesPath, "a map", present); !s || !present) return s;
        return devices.forEachField([&](std::string_view k, V& field) -> Status {
            const Path at = devicesPath.field(k);
            if (k == "requests")
                return readMapList(field, at, [&](V& element, const Path& requestPath) {
                    return readDeviceRequest(element, requestPath, flat, spec.requests.emplace_back());
                });
            if (k != "constraints") return {};
            return readMapList(field, at, [&](V& element, const Path& constraintPath) -> Status {
                DeviceConstraint constraint;
                std::string_view match;
                Status e = element.forEachField([&](std::string_view ck, V& f) -> Status {
                    if (ck == "requests") return readStringList(f, constraintPath.field(ck), constraint.requests);
                    return ck == "matchAttribute" ? readScalar(f, constraintPath.field(ck), match) : Status{};
                });
                // distinctAttribute (consumable capacity, alpha) is not kept.
                if (e && !match.empty()) {
                    constraint.matchAttribute = match;
                    spec.constraints.push_back(std::move(constraint));
                }
                return e;
            });
        });
    });
}

// status.allocation: devices.results and nodeSelector.
template <class V> Status readAllocation(V& value, const Path& path, ResourceClaim& claim) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    claim.allocated = true;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "nodeSelector") return readNodeSelector(field, at, claim.allocationNodeSelector);
        if (key != "devices") return {};
        bool present = false;
        if (Status s = expectObject(field, at, "a map", present); !s || !present) return s;
        return field.forEachField([&](std::string_view k, V& results) -> Status {
            if (k != "results") return {};
            return readMapList(results, at.field(k), [&](V& element, const Path& resultPath) -> Status {
                std::string_view request, driver, pool, device;
                bool adminAccess = false;
                Status e = element.forEachField([&](std::string_view rk, V& f) -> Status {
                    const Path fieldPath = resultPath.field(rk);
                    if (rk == "adminAccess") return readBool(f, fieldPath, adminAccess);
                    std::string_view* slot = rk == "request" ? &request
                                             : rk == "driver" ? &driver
                                             : rk == "pool"   ? &pool
                                             : rk == "device" ? &device
                                                              : nullptr;
                    return slot ? readScalar(f, fieldPath, *slot) : Status{};
                });
                if (!e) return e;
                for (const auto& [name, text] : {std::pair{"request", request}, std::pair{"driver", driver},
                                                 std::pair{"pool", pool}, std::pair{"device", device}})
                    if (text.empty()) return missingError(resultPath.field(name));
                claim.devices.push_back(
                    {std::string(request), std::string(driver), std::string(pool), std::string(device), adminAccess});
                return Status{};
            });
        });
    });
}

// status: allocation and reservedFor (the driver's per-device status is not kept).
template <class V> Status readClaimStatus(V& value, const Path& path, ResourceClaim& claim) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "allocation") return readAllocation(field, at, claim);
        if (key != "reservedFor") return {};
        return readMapList(field, at, [&](V& element, const Path& consumerPath) -> Status {
            std::string_view resource, name, uid;
            Status e = readRequiredFields(
                element, consumerPath,
                [&](std::string_view k) {
                    return k == "resource" ? &resource : k == "name" ? &name : k == "uid" ? &uid : nullptr;
                },
                {{"name", &name}});
            if (!e) return e;
            claim.reservedFor.push_back({std::string(resource), std::string(name), std::string(uid)});
            return Status{};
        });
    });
}

// A DeviceClass's spec: selectors and extendedResourceName (config is for the driver).
template <class V> Status readDeviceClassSpec(V& value, const Path& path, DeviceClass& deviceClass) {
    bool isMap = false;
    if (Status s = expectObject(value, path, "a map", isMap); !s || !isMap) return s;
    return value.forEachField([&](std::string_view key, V& field) -> Status {
        const Path at = path.field(key);
        if (key == "selectors") return readCelSelectors(field, at, deviceClass.selectors);
        if (key != "extendedResourceName") return {};
        std::string_view name;
        Status s = readScalar(field, at, name);
        deviceClass.extendedResourceName = name;
        return s;
    });
}

} // namespace topodeck::object_reader
