#include "rpc/change_journal.h"

#include <algorithm>
#include <mutex>

namespace topodeck::rpc {

std::uint64_t ChangeJournal::record(std::vector<ObjectChange> changes) {
    if (changes.empty()) return generation();
    const std::lock_guard lock(m_mutex);
    const std::uint64_t generation = ++m_generation;
    for (ObjectChange& change : changes) {
        auto [entry, added] = m_entries.try_emplace(change.key());
        if (!added) {
            m_byGeneration.erase(entry->second.position);
            if (entry->second.change->deleted) --m_deletions;
        }
        if (change.deleted) {
            ++m_deletions;
            m_deletionOrder.emplace_back(generation, entry->first);
        }
        entry->second.change = std::make_shared<const ObjectChange>(std::move(change));
        entry->second.position = m_byGeneration.emplace(generation, &entry->first);
    }
    forgetOldestDeletions();
    return generation;
}

bool ChangeJournal::isTombstone(const std::pair<std::uint64_t, std::string>& deletion) const {
    const auto entry = m_entries.find(deletion.second);
    return entry != m_entries.end() && entry->second.change->deleted &&
           entry->second.position->first == deletion.first;
}

void ChangeJournal::forgetOldestDeletions() {
    // Deletions of objects that came back leave stale records: drop them once they are most of
    // the queue, so that it stays within twice the tombstones (amortized constant per change).
    if (m_deletionOrder.size() > 2 * m_deletions + 1024)
        std::erase_if(m_deletionOrder, [&](const auto& deletion) { return !isTombstone(deletion); });
    while (m_deletions > m_maxDeletions && !m_deletionOrder.empty()) {
        const auto [generation, key] = std::move(m_deletionOrder.front());
        m_deletionOrder.pop_front();
        if (!isTombstone({generation, key})) continue; // changed since: a later change stands for it
        const auto entry = m_entries.find(key);
        m_forgottenThrough = std::max(m_forgottenThrough, generation);
        m_byGeneration.erase(entry->second.position);
        m_entries.erase(entry);
        --m_deletions;
    }
}

void ChangeJournal::reset() {
    const std::lock_guard lock(m_mutex);
    m_entries.clear();
    m_byGeneration.clear();
    m_deletionOrder.clear();
    m_deletions = 0;
    // Consoles keep their generations: every one of them must get everything again.
    m_forgottenThrough = ++m_generation;
}

std::uint64_t ChangeJournal::generation() const {
    const std::lock_guard lock(m_mutex);
    return m_generation;
}

ChangeJournal::Changes ChangeJournal::changesSince(std::uint64_t since) const {
    const std::lock_guard lock(m_mutex);
    Changes out;
    out.generation = m_generation;
    out.reset = since == 0 || since < m_forgottenThrough || since > m_generation;
    if (out.reset) {
        out.changes.reserve(m_entries.size() - m_deletions);
        for (const auto& [generation, key] : m_byGeneration) {
            const ObjectChangePtr& change = m_entries.at(*key).change;
            if (!change->deleted) out.changes.push_back(change);
        }
        return out;
    }
    for (auto it = m_byGeneration.upper_bound(since); it != m_byGeneration.end(); ++it)
        out.changes.push_back(m_entries.at(*it->second).change);
    return out;
}

std::size_t ChangeJournal::liveObjects() const {
    const std::lock_guard lock(m_mutex);
    return m_entries.size() - m_deletions;
}

std::size_t ChangeJournal::rememberedDeletions() const {
    const std::lock_guard lock(m_mutex);
    return m_deletions;
}

} // namespace topodeck::rpc
