#pragma once

// The device a DRA selector sees (k8s.io/dynamic-resource-allocation cel.Device): its driver, its
// attributes and capacities, and whether it may be allocated more than once. A view borrows the
// caller's storage: nothing is copied or built per device.

#include "core/values/device_attribute.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace topodeck::cel {

// An attribute's value: int, bool, string or version (a semver string, parsed). The device's
// attributes and capacities are core/values' own (what ResourceSlices hold), so a selector reads
// them where they are. Names are qualified "domain/id", or a bare "id" in the driver's own domain.
using AttributeValue = DeviceAttributeValue;
using DeviceAttribute = topodeck::DeviceAttribute;
using DeviceCapacity = topodeck::DeviceCapacity;

struct DeviceView {
    std::string_view driver;
    std::span<const DeviceAttribute> attributes;
    std::span<const DeviceCapacity> capacity;
    bool allowMultipleAllocations = false;
};

// The domain and id of a qualified name; a bare name is in `driver`'s domain.
struct QualifiedName {
    std::string_view domain;
    std::string_view id;
};
QualifiedName splitQualifiedName(std::string_view name, std::string_view driver);

// The attribute or capacity `domain`/`id` of the device, as a selector resolves it (bare names in
// the driver's domain); nullptr when the device has none.
const DeviceAttribute* findAttribute(const DeviceView& device, std::string_view domain, std::string_view id);
const DeviceCapacity* findCapacity(const DeviceView& device, std::string_view domain, std::string_view id);

// Whether the qualified or bare `name` is `domain`/`id` for a device of `driver`.
inline bool nameIs(std::string_view name, std::string_view driver, std::string_view domain, std::string_view id) {
    // Split at the first '/', as Kubernetes does (parseQualifiedName).
    if (name.size() == id.size()) return domain == driver && name == id && name.find('/') == std::string_view::npos;
    return name.size() == domain.size() + 1 + id.size() && name.find('/') == domain.size() &&
           name.compare(0, domain.size(), domain) == 0 && name.compare(domain.size() + 1, id.size(), id) == 0;
}

} // namespace topodeck::cel
