#include "net/watch_lines.h"

namespace topodeck {

bool WatchLineSplitter::feed(std::string_view chunk, const std::function<bool(std::string& line)>& onLine) {
    m_pending.append(chunk);
    std::size_t start = 0;
    for (auto end = m_pending.find('\n'); end != std::string::npos; end = m_pending.find('\n', start)) {
        m_line.assign(m_pending, start, end - start);
        start = end + 1;
        if (!m_line.empty() && !onLine(m_line)) return false;
    }
    m_pending.erase(0, start);
    return true;
}

} // namespace topodeck
