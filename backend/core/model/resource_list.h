#pragma once

#include "core/values/quantity.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

// Resource name -> quantity, like corev1.ResourceList. A small sorted vector: nodes and pods
// carry a handful of resources, so this beats a map for both memory and speed.
class ResourceList {
public:
    using Entry = std::pair<std::string, Quantity>;

    // Zero when absent.
    Quantity get(std::string_view name) const;
    const Quantity* find(std::string_view name) const;
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    void set(std::string_view name, const Quantity& quantity);
    void erase(std::string_view name);
    void clear() { m_entries.clear(); } // keeps the storage, for reuse
    void reserve(std::size_t entries) { m_entries.reserve(entries); }

    void add(const ResourceList& other);      // this[r] += other[r] for every r
    void subtract(const ResourceList& other); // this[r] -= other[r] for every r (may go negative)
    void maxWith(const ResourceList& other);  // this[r] = max(this[r], other[r]) for every r

    bool empty() const { return m_entries.empty(); }
    std::size_t size() const { return m_entries.size(); }
    const std::vector<Entry>& entries() const { return m_entries; }
    auto begin() const { return m_entries.begin(); }
    auto end() const { return m_entries.end(); }

    friend bool operator==(const ResourceList&, const ResourceList&) = default;

private:
    template <class Combine>
    void mergeFrom(const ResourceList& other, Combine combine);

    std::vector<Entry> m_entries; // sorted by name
};

} // namespace topodeck
