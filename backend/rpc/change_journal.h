#pragma once
// The daemon's cluster as it sends it: every object's latest change (its JSON, or its deletion)
// with the generation it was made at, so that a console that has generation g gets exactly the
// objects changed since, each once at its latest, and a new console gets every live object
// without any encoding on its request. Deletions are remembered up to a bound; a console whose
// generation is older than the oldest forgotten one gets everything again.
//
// Memory: one entry per live object (the encoded object, ~0.3-0.7 KB for a node or pod) plus at
// most maxDeletions tombstones. A console costs nothing here: it is a generation number.
// Thread-safe: one writer (the daemon's source) and any number of readers.

#include "rpc/object_change.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace topodeck::rpc {

class ChangeJournal {
public:
    static constexpr std::size_t kDefaultMaxDeletions = 200'000;
    explicit ChangeJournal(std::size_t maxDeletions = kDefaultMaxDeletions) : m_maxDeletions(maxDeletions) {}

    // Records a batch of changes as one new generation (coalesced: an object changed twice in
    // the batch keeps its last change). Returns the new generation; an empty batch makes none.
    std::uint64_t record(std::vector<ObjectChange> changes);
    // Forgets everything (the daemon's source was replaced): every console gets everything again.
    void reset();

    std::uint64_t generation() const;

    struct Changes {
        std::uint64_t generation = 0;
        bool reset = false; // everything (the console's generation was 0, too old or ahead of ours)
        std::vector<ObjectChangePtr> changes;
    };
    // What a console at `since` needs to reach the current generation.
    Changes changesSince(std::uint64_t since) const;

    std::size_t liveObjects() const;
    std::size_t rememberedDeletions() const;

private:
    // Generation -> the key of the entry changed then (the map's own key: nodes do not move).
    using GenerationIndex = std::multimap<std::uint64_t, const std::string*>;
    struct Entry {
        ObjectChangePtr change;
        GenerationIndex::iterator position; // in m_byGeneration
    };
    bool isTombstone(const std::pair<std::uint64_t, std::string>& deletion) const;
    void forgetOldestDeletions();

    // A plain mutex: a reader-preferring shared lock let consoles that ask often starve the source.
    mutable std::mutex m_mutex;
    std::size_t m_maxDeletions;
    std::uint64_t m_generation = 0;
    // A console at or below this generation may have missed a forgotten deletion.
    std::uint64_t m_forgottenThrough = 0;
    std::unordered_map<std::string, Entry> m_entries; // by ObjectChange::key()
    GenerationIndex m_byGeneration;
    // Deletions in the order they were recorded, to forget the oldest first; an entry changed
    // since (upserted again, or deleted later) is skipped when its turn comes.
    std::deque<std::pair<std::uint64_t, std::string>> m_deletionOrder;
    std::size_t m_deletions = 0;
};

} // namespace topodeck::rpc
