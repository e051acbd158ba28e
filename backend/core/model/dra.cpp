#include "core/model/dra.h"

#include <algorithm>

namespace topodeck {
namespace {

// Whether a name as a slice wrote it ("type", or "gpu.nvidia.com/type") is `wanted`, itself bare
// or qualified; a bare name is in the driver's own domain.
bool sameName(std::string_view written, std::string_view wanted, std::string_view driver) {
    // Names of one length can only be equal; a qualified name is the driver, '/' and the bare
    // one. Deciding by length first keeps the search for '/' out of most comparisons.
    if (written.size() == wanted.size()) return written == wanted;
    const std::size_t longer = std::max(written.size(), wanted.size());
    const std::size_t shorter = std::min(written.size(), wanted.size());
    if (longer != driver.size() + 1 + shorter) return false;
    const auto qualifies = [&](std::string_view qualified, std::string_view bare) {
        return bare.find('/') == std::string_view::npos && qualified.size() == driver.size() + 1 + bare.size() &&
               qualified.starts_with(driver) && qualified[driver.size()] == '/' && qualified.ends_with(bare);
    };
    return qualifies(written, wanted) || qualifies(wanted, written);
}

} // namespace

const DeviceAttributeValue* Device::attribute(std::string_view qualifiedName, std::string_view driver) const {
    for (const DeviceAttribute& entry : attributes)
        if (sameName(entry.name, qualifiedName, driver)) return &entry.value;
    return nullptr;
}

const Quantity* Device::capacityOf(std::string_view qualifiedName, std::string_view driver) const {
    for (const DeviceCapacity& entry : capacity)
        if (sameName(entry.name, qualifiedName, driver)) return &entry.value;
    return nullptr;
}

} // namespace topodeck
