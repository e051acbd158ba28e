#pragma once

// Results of device selectors remembered by the values the selectors read (fieldsRead): two
// devices whose driver and read attributes and capacities are the same get the same answer from
// the same programs, whatever else they hold (uuid, pcieRoot...). A DRA dry-run asks the same
// selectors of every free device of every node: a cluster of one GPU model has a handful of
// distinct read values, so nearly every device is answered by one look-up instead of an
// evaluation.
//
// Exact, not approximate: a remembered answer is reused only when every read value is the same
// (compared in full, strings and versions' build metadata included, quantities with their
// format), and nothing is remembered for programs that read more than fieldsRead can tell
// (FieldUse::dynamic) or for names it cannot split into domain and id. What is remembered is the
// caller's: a result and the error text it made.
//
//   SelectorMemo memo({fieldsRead(classSelector), fieldsRead(requestSelector)});
//   SelectorMemo::Probe probe;
//   if (const SelectorMemo::Entry* known = memo.find(device, probe)) use(*known);
//   else memo.remember(probe, device, evaluateBoth(device));
//
// Not thread-safe: one memo per thread.

#include "core/cel/device_selector.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topodeck::cel {

class SelectorMemo {
public:
    struct Entry {
        std::int8_t result = 0; // the caller's: e.g. 0 no match, 1 match
        std::string error;      // the caller's error text, empty when none
    };
    // Where a device's values were found, for remember() after a miss in find().
    struct Probe {
        std::size_t hash = 0;
        std::vector<const AttributeValue*> attributes;
        std::vector<const Quantity*> capacity;
    };

    SelectorMemo() = default;
    // `reads`: what each program of the set reads; their union is the key. At most `capacity`
    // entries are kept: past that, find() misses for new values and remember() ignores them.
    explicit SelectorMemo(const std::vector<FieldUse>& reads, std::size_t capacity = 4096);

    // Whether results can be remembered at all (no program reads dynamically).
    bool active() const { return m_active; }
    // The entry for the device's read values; nullptr when none (or the memo is not active).
    const Entry* find(const DeviceView& device, Probe& probe) const;
    // Keeps `entry` for the values `probe` found on `device` (the same device as find()'s).
    void remember(const Probe& probe, const DeviceView& device, Entry entry);
    std::size_t size() const { return m_entries.size(); }

private:
    struct Name {
        std::string domain;
        std::string id;
    };
    struct Stored {
        std::size_t hash = 0;
        std::string driver;
        bool allowMultipleAllocations = false;
        std::vector<std::optional<AttributeValue>> attributes;
        std::vector<std::optional<Quantity>> capacity;
        Entry entry;
    };
    bool sameValues(const Stored& stored, const DeviceView& device, const Probe& probe) const;

    bool m_active = false;
    bool m_driver = false;
    std::vector<Name> m_attributes;
    std::vector<Name> m_capacity;
    std::size_t m_capacityLimit = 0;
    std::vector<Stored> m_entries;
    std::vector<std::uint32_t> m_buckets; // hash -> first entry + 1 (0: none); a power of two in size
    std::vector<std::uint32_t> m_next;    // per entry: next entry of its bucket + 1
};

} // namespace topodeck::cel
