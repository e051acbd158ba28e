#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace topodeck {

// Splits a streamed body into its lines (a watch: one JSON event each) as the transfer hands it
// over, in chunks cut anywhere (libcurl has already undone the HTTP chunked encoding; its chunks
// need not end at a line). Empty lines are skipped; an unfinished line waits for the next chunk.
// HttpClient::streamLines runs it; a plain class so that it is tested and fuzzed on its own.
class LineSplitter {
public:
    enum class Outcome {
        More,    // every line of the chunk was taken; the rest waits
        Stopped, // onLine returned false: the rest of the chunk is dropped
        TooLong, // a line grew past maxLine: what was kept of it is dropped
    };
    // Hands each line completed by `chunk` to onLine, without its '\n' (onLine may move from it).
    Outcome feed(std::string_view chunk, std::size_t maxLine, const std::function<bool(std::string& line)>& onLine);
    // What is kept of an unfinished line.
    std::size_t pendingSize() const { return m_pending.size(); }

private:
    std::string m_pending;
};

} // namespace topodeck
