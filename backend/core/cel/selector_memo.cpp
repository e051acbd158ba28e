#include "core/cel/selector_memo.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace topodeck::cel {
namespace {

std::size_t mix(std::size_t seed, std::size_t value) {
    return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

// A quick hash of a string: its length and its first and last 8 bytes. Values that differ only
// in the middle collide and are told apart by the full compare; hashing every byte of every
// value of every device cost more than the compares it saves.
std::size_t quickHash(std::string_view text) {
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    std::memcpy(&head, text.data(), std::min<std::size_t>(8, text.size()));
    if (text.size() > 8) std::memcpy(&tail, text.data() + text.size() - 8, 8);
    return mix(mix(text.size(), head * 0x9e3779b97f4a7c15ULL), tail * 0xc2b2ae3d27d4eb4fULL);
}

std::size_t hashOf(const AttributeValue& value) {
    std::size_t h = value.index();
    if (const auto* i = std::get_if<std::int64_t>(&value)) return mix(h, std::hash<std::int64_t>{}(*i));
    if (const auto* b = std::get_if<bool>(&value)) return mix(h, *b ? 1 : 2);
    if (const auto* s = std::get_if<std::string>(&value)) return mix(h, quickHash(*s));
    const Version& v = std::get<Version>(value);
    h = mix(h, std::hash<std::uint64_t>{}(v.major()));
    h = mix(h, std::hash<std::uint64_t>{}(v.minor()));
    h = mix(h, std::hash<std::uint64_t>{}(v.patch()));
    return mix(h, v.preRelease().size() * 31 + v.build().size());
}

std::size_t hashOf(const Quantity& q) {
    const auto nanos = static_cast<unsigned __int128>(q.nanos());
    std::size_t h = mix(std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(nanos)),
                        std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(nanos >> 64)));
    return mix(h, static_cast<std::size_t>(q.format()));
}

// Equal in everything a program could tell apart: a version's build metadata too (precedence
// ignores it), a quantity's format too (its amount alone decides ==).
bool identical(const AttributeValue& a, const AttributeValue& b) {
    if (a.index() != b.index()) return false;
    if (const auto* v = std::get_if<Version>(&a)) {
        const Version& w = std::get<Version>(b);
        return *v == w && v->preRelease() == w.preRelease() && v->build() == w.build();
    }
    return a == b;
}

bool identical(const Quantity& a, const Quantity& b) {
    return a.nanos() == b.nanos() && a.format() == b.format();
}

template <class T> bool identical(const std::optional<T>& stored, const T* found) {
    if (!stored || found == nullptr) return !stored && found == nullptr;
    return identical(*stored, *found);
}

} // namespace

SelectorMemo::SelectorMemo(const std::vector<FieldUse>& reads, std::size_t capacity) : m_capacityLimit(capacity) {
    m_active = true;
    std::vector<std::string> attributes;
    std::vector<std::string> capacities;
    for (const FieldUse& use : reads) {
        m_active = m_active && !use.dynamic;
        m_driver = m_driver || use.driver;
        attributes.insert(attributes.end(), use.attributes.begin(), use.attributes.end());
        capacities.insert(capacities.end(), use.capacity.begin(), use.capacity.end());
    }
    const auto names = [this](std::vector<std::string> qualified, std::vector<Name>& out) {
        std::sort(qualified.begin(), qualified.end());
        qualified.erase(std::unique(qualified.begin(), qualified.end()), qualified.end());
        for (const std::string& name : qualified) {
            // "domain/id"; a name with another '/' (a computed-looking key) cannot be split surely.
            const std::size_t slash = name.find('/');
            if (slash == std::string::npos || name.find('/', slash + 1) != std::string::npos) {
                m_active = false;
                return;
            }
            out.push_back({name.substr(0, slash), name.substr(slash + 1)});
        }
    };
    names(std::move(attributes), m_attributes);
    names(std::move(capacities), m_capacity);
}

const SelectorMemo::Entry* SelectorMemo::find(const DeviceView& device, Probe& probe) const {
    if (!m_active) return nullptr;
    std::size_t h = mix(m_driver ? quickHash(device.driver) : 0, device.allowMultipleAllocations);
    probe.attributes.resize(m_attributes.size());
    for (std::size_t i = 0; i < m_attributes.size(); ++i) {
        const DeviceAttribute* found = findAttribute(device, m_attributes[i].domain, m_attributes[i].id);
        probe.attributes[i] = found != nullptr ? &found->value : nullptr;
        h = mix(h, found != nullptr ? hashOf(found->value) : 0x5bd1e995);
    }
    probe.capacity.resize(m_capacity.size());
    for (std::size_t i = 0; i < m_capacity.size(); ++i) {
        const DeviceCapacity* found = findCapacity(device, m_capacity[i].domain, m_capacity[i].id);
        probe.capacity[i] = found != nullptr ? &found->value : nullptr;
        h = mix(h, found != nullptr ? hashOf(found->value) : 0x5bd1e995);
    }
    probe.hash = h;
    if (m_buckets.empty()) return nullptr;
    for (std::uint32_t at = m_buckets[h & (m_buckets.size() - 1)]; at != 0; at = m_next[at - 1]) {
        const Stored& stored = m_entries[at - 1];
        if (stored.hash == h && sameValues(stored, device, probe)) return &stored.entry;
    }
    return nullptr;
}

bool SelectorMemo::sameValues(const Stored& stored, const DeviceView& device, const Probe& probe) const {
    if (m_driver && stored.driver != device.driver) return false;
    if (stored.allowMultipleAllocations != device.allowMultipleAllocations) return false;
    for (std::size_t i = 0; i < m_attributes.size(); ++i)
        if (!identical(stored.attributes[i], probe.attributes[i])) return false;
    for (std::size_t i = 0; i < m_capacity.size(); ++i)
        if (!identical(stored.capacity[i], probe.capacity[i])) return false;
    return true;
}

void SelectorMemo::remember(const Probe& probe, const DeviceView& device, Entry entry) {
    if (!m_active || m_entries.size() >= m_capacityLimit) return;
    Stored stored;
    stored.hash = probe.hash;
    if (m_driver) stored.driver = device.driver;
    stored.allowMultipleAllocations = device.allowMultipleAllocations;
    for (const AttributeValue* value : probe.attributes)
        stored.attributes.push_back(value != nullptr ? std::optional<AttributeValue>(*value) : std::nullopt);
    for (const Quantity* value : probe.capacity)
        stored.capacity.push_back(value != nullptr ? std::optional<Quantity>(*value) : std::nullopt);
    stored.entry = std::move(entry);
    m_entries.push_back(std::move(stored));
    m_next.push_back(0);
    if (2 * m_entries.size() > m_buckets.size()) {
        // Grow and link every entry again.
        m_buckets.assign(std::max<std::size_t>(64, 4 * m_entries.size()), 0);
        for (std::uint32_t i = 0; i < m_entries.size(); ++i) {
            std::uint32_t& head = m_buckets[m_entries[i].hash & (m_buckets.size() - 1)];
            m_next[i] = head;
            head = i + 1;
        }
        return;
    }
    std::uint32_t& head = m_buckets[probe.hash & (m_buckets.size() - 1)];
    m_next.back() = head;
    head = static_cast<std::uint32_t>(m_entries.size());
}

} // namespace topodeck::cel
