#include "core/placement/engines/trace_budget.h"

namespace topodeck {

void TraceBudget::add(std::string_view level, std::string domain, bool taken, std::string reason) {
    add(TraceEntry{std::string(level), std::move(domain), taken, std::move(reason)});
}

void TraceBudget::add(TraceEntry entry) {
    if (!m_out) return;
    if (m_added >= m_limit) {
        ++m_dropped;
        return;
    }
    m_out->push_back(std::move(entry));
    ++m_added;
}

} // namespace topodeck
