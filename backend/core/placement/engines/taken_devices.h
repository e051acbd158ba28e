#pragma once
// DRA devices a dry-run's what-if steps took (`plan --then-place`): in use for the gangs placed
// after, as if claims held them, while the cluster's state stays as it is.

#include <cstdint>
#include <unordered_set>

namespace topodeck {

// A device by its slice's slot in the state's DeviceInventory and its index in the slice.
struct DeviceSlot {
    std::uint32_t slice = 0;
    std::uint32_t device = 0;
};

class TakenDevices {
public:
    void take(DeviceSlot slot) { m_taken.insert(key(slot)); }
    bool contains(std::uint32_t slice, std::size_t device) const {
        return !m_taken.empty() && m_taken.contains(key({slice, static_cast<std::uint32_t>(device)}));
    }
    bool empty() const { return m_taken.empty(); }

private:
    static std::uint64_t key(DeviceSlot slot) { return std::uint64_t(slot.slice) << 32 | slot.device; }
    std::unordered_set<std::uint64_t> m_taken;
};

} // namespace topodeck
