#pragma once
// Dense ids found by hash: open addressing over a flat array of (id, low 32 bits of the hash), so
// that a probe touches one small array (a node-based map misses the cache several times per
// lookup at cluster size) and keys, which the caller owns (a name table, records by id), are
// compared only on a hash match. The caller hashes; the table never sees a key, so a lookup
// builds no string. Ids are any 32-bit values but kNone.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace topodeck {

class IdTable {
public:
    static constexpr std::uint32_t kNone = 0xFFFFFFFF;

    void reserve(std::size_t ids);
    // The id for which isKey(id) holds, or kNone.
    template <class IsKey> std::uint32_t find(std::size_t hash, IsKey&& isKey) const {
        if (m_slots.empty()) return kNone;
        const auto tag = static_cast<std::uint32_t>(hash);
        for (std::size_t i = tag & mask();; i = (i + 1) & mask()) {
            const Slot& slot = m_slots[i];
            if (slot.id == kNone) return kNone;
            if (slot.tag == tag && isKey(slot.id)) return slot.id;
        }
    }
    void insert(std::size_t hash, std::uint32_t id); // the key must be absent
    // The id must be present under this hash.
    void erase(std::size_t hash, std::uint32_t id);
    void replace(std::size_t hash, std::uint32_t id, std::uint32_t newId);
    std::size_t size() const { return m_count; }

private:
    struct Slot {
        std::uint32_t id = kNone;
        std::uint32_t tag = 0; // low bits of the hash: the home slot, and a cheap first compare
    };
    std::size_t mask() const { return m_slots.size() - 1; }
    std::size_t position(std::size_t hash, std::uint32_t id) const;
    void grow(std::size_t capacity);

    std::vector<Slot> m_slots; // a power of two in size, at most half full
    std::size_t m_count = 0;
};

// Hashes of the keys the model interns (names, pairs of names, a name within a numbered scope).
// Linear probing needs well-spread low bits: combine hashes, never raw small numbers (hashNumber
// spreads those first).
std::size_t hashName(std::string_view name);
std::size_t hashNumber(std::uint64_t value);
std::size_t hashCombine(std::size_t seed, std::size_t value);

} // namespace topodeck
