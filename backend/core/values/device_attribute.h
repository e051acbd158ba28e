#pragma once
// A DRA device's attributes and capacity as a ResourceSlice publishes them (resource.k8s.io
// Device.attributes / .capacity): what device selectors (CEL) and the GPU counting read.

#include "core/values/interned_name.h"
#include "core/values/quantity.h"
#include "core/values/semver.h"

#include <cstdint>
#include <string>
#include <variant>

namespace topodeck {

// Exactly one of int, bool, string, version (DeviceAttribute in the API; a version is semver 2.0.0).
using DeviceAttributeValue = std::variant<std::int64_t, bool, std::string, Version>;

// Names are qualified ("resource.kubernetes.io/pcieRoot") or bare ("productName": the driver's
// own domain), as the slice wrote them. A name is interned (values/interned_name.h): every device
// of a driver carries the same few.
struct DeviceAttribute {
    InternedName name;
    DeviceAttributeValue value;
    friend bool operator==(const DeviceAttribute&, const DeviceAttribute&) = default;
};

struct DeviceCapacity {
    std::string name;
    Quantity value;
    friend bool operator==(const DeviceCapacity&, const DeviceCapacity&) = default;
};

} // namespace topodeck
