#include "core/model/resource_list.h"

#include <algorithm>

namespace topodeck {

namespace {

auto lowerBound(const std::vector<ResourceList::Entry>& entries, std::string_view name) {
    return std::lower_bound(entries.begin(), entries.end(), name,
                            [](const ResourceList::Entry& e, std::string_view n) { return e.first < n; });
}

} // namespace

const Quantity* ResourceList::find(std::string_view name) const {
    auto it = lowerBound(m_entries, name);
    return it != m_entries.end() && it->first == name ? &it->second : nullptr;
}

Quantity ResourceList::get(std::string_view name) const {
    const Quantity* q = find(name);
    return q ? *q : Quantity{};
}

void ResourceList::set(std::string_view name, const Quantity& quantity) {
    auto it = lowerBound(m_entries, name);
    if (it != m_entries.end() && it->first == name)
        m_entries[static_cast<std::size_t>(it - m_entries.begin())].second = quantity;
    else
        m_entries.insert(m_entries.begin() + (it - m_entries.begin()), Entry{std::string(name), quantity});
}

void ResourceList::erase(std::string_view name) {
    auto it = lowerBound(m_entries, name);
    if (it != m_entries.end() && it->first == name) m_entries.erase(m_entries.begin() + (it - m_entries.begin()));
}

template <class Combine>
void ResourceList::mergeFrom(const ResourceList& other, Combine combine) {
    // Both lists are sorted: walk them together, so the usual case (same names) allocates nothing.
    std::size_t mine = 0;
    for (const auto& [name, quantity] : other.m_entries) {
        while (mine < m_entries.size() && m_entries[mine].first < name) ++mine;
        if (mine < m_entries.size() && m_entries[mine].first == name) {
            combine(m_entries[mine].second, quantity);
        } else {
            Quantity fresh;
            combine(fresh, quantity);
            m_entries.insert(m_entries.begin() + static_cast<std::ptrdiff_t>(mine), Entry{name, fresh});
        }
        ++mine;
    }
}

void ResourceList::add(const ResourceList& other) {
    mergeFrom(other, [](Quantity& mine, const Quantity& theirs) { mine += theirs; });
}

void ResourceList::subtract(const ResourceList& other) {
    mergeFrom(other, [](Quantity& mine, const Quantity& theirs) { mine -= theirs; });
}

void ResourceList::maxWith(const ResourceList& other) {
    for (const auto& [name, quantity] : other.m_entries) {
        const Quantity* mine = find(name);
        if (!mine || *mine < quantity) set(name, quantity);
    }
}

} // namespace topodeck
