#pragma once

#include "core/placement/engines/placement_result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// An engine's trace, bounded: at most `limit` entries are added to `out` through the budget, the
// rest are counted (drop() counts entries an engine did not even build) and finish() sums them up
// in one last line. A budget over no vector is silent: it adds and counts nothing, for the passes
// an engine runs only to learn an answer.
class TraceBudget {
public:
    TraceBudget(std::vector<TraceEntry>* out, std::size_t limit) : m_out(out), m_limit(limit) {}
    bool enabled() const { return m_out != nullptr; }
    // Entries that may still be added.
    std::size_t room() const { return m_out && m_added < m_limit ? m_limit - m_added : 0; }
    void add(std::string_view level, std::string domain, bool taken, std::string reason);
    void add(TraceEntry entry);
    void drop(std::size_t count = 1) { m_dropped += m_out ? count : 0; }
    std::size_t dropped() const { return m_dropped; }
    // Appends one line, summary(dropped, limit), at `level` ("" for an engine-wide line), when
    // entries were dropped. Each engine words it its own way.
    template <class Summary> void finish(Summary&& summary, std::string_view level = {}) {
        if (m_out && m_dropped > 0)
            m_out->push_back(TraceEntry{std::string(level), "", false, summary(m_dropped, m_limit)});
    }

private:
    std::vector<TraceEntry>* m_out;
    std::size_t m_limit;
    std::size_t m_added = 0;
    std::size_t m_dropped = 0;
};

} // namespace topodeck
