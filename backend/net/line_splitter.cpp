#include "net/line_splitter.h"

namespace topodeck {

LineSplitter::Outcome LineSplitter::feed(std::string_view chunk, std::size_t maxLine,
                                         const std::function<bool(std::string& line)>& onLine) {
    while (!chunk.empty()) {
        const std::size_t newline = chunk.find('\n');
        const std::string_view piece = chunk.substr(0, newline);
        if (m_pending.size() > maxLine || piece.size() > maxLine - m_pending.size()) {
            m_pending.clear();
            return Outcome::TooLong;
        }
        m_pending.append(piece);
        if (newline == std::string_view::npos) break;
        chunk.remove_prefix(newline + 1);
        if (m_pending.empty()) continue;
        const bool more = onLine(m_pending);
        m_pending.clear();
        if (!more) return Outcome::Stopped;
    }
    return Outcome::More;
}

} // namespace topodeck
