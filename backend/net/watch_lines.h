#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace topodeck {

// Splits a watch response body into its lines (one JSON event each) as the transfer hands it over,
// in chunks cut anywhere (libcurl has already undone the HTTP chunked encoding; its chunks need
// not end at a line). Empty lines are skipped; an unfinished line waits for the next chunk.
class WatchLineSplitter {
public:
    // Hands each line completed by `chunk` to onLine, without its '\n'. Returns false as soon as
    // onLine does (the rest of the chunk is dropped), else true.
    bool feed(std::string_view chunk, const std::function<bool(std::string& line)>& onLine);
    // What is kept of an unfinished line.
    std::size_t pendingSize() const { return m_pending.size(); }

private:
    std::string m_pending;
    std::string m_line;
};

} // namespace topodeck
