#include "core/model/id_table.h"

#include <functional>

namespace topodeck {

std::size_t hashName(std::string_view name) {
    return std::hash<std::string_view>{}(name);
}

std::size_t hashNumber(std::uint64_t value) {
    // splitmix64's finaliser: every input bit reaches every output bit.
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(value ^ (value >> 31));
}

std::size_t hashCombine(std::size_t seed, std::size_t value) {
    return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

void IdTable::reserve(std::size_t ids) {
    std::size_t capacity = 16;
    while (capacity < 2 * ids) capacity *= 2;
    if (capacity > m_slots.size()) grow(capacity);
}

void IdTable::grow(std::size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(m_slots);
    for (const Slot& slot : old) {
        if (slot.id == kNone) continue;
        std::size_t i = slot.tag & mask();
        while (m_slots[i].id != kNone) i = (i + 1) & mask();
        m_slots[i] = slot;
    }
}

void IdTable::insert(std::size_t hash, std::uint32_t id) {
    if (2 * (m_count + 1) > m_slots.size()) grow(m_slots.empty() ? 16 : 2 * m_slots.size());
    const auto tag = static_cast<std::uint32_t>(hash);
    std::size_t i = tag & mask();
    while (m_slots[i].id != kNone) i = (i + 1) & mask();
    m_slots[i] = Slot{id, tag};
    ++m_count;
}

std::size_t IdTable::position(std::size_t hash, std::uint32_t id) const {
    const auto tag = static_cast<std::uint32_t>(hash);
    std::size_t i = tag & mask();
    while (m_slots[i].id != id || m_slots[i].tag != tag) i = (i + 1) & mask();
    return i;
}

void IdTable::replace(std::size_t hash, std::uint32_t id, std::uint32_t newId) {
    m_slots[position(hash, id)].id = newId;
}

void IdTable::erase(std::size_t hash, std::uint32_t id) {
    // Backward-shift deletion: move later entries of the run up, so that no probe stops early.
    std::size_t hole = position(hash, id);
    for (std::size_t i = (hole + 1) & mask(); m_slots[i].id != kNone; i = (i + 1) & mask()) {
        const std::size_t home = m_slots[i].tag & mask();
        // The entry may fill the hole unless its home lies cyclically in (hole, i].
        const bool homeBetween = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (homeBetween) continue;
        m_slots[hole] = m_slots[i];
        hole = i;
    }
    m_slots[hole] = Slot{};
    --m_count;
}

} // namespace topodeck
