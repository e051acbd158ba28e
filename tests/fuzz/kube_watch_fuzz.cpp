// A watch stream as the transfer hands it over: the body cut into chunks anywhere (WatchLineSplitter,
// what KubeClient::watch runs on each chunk libcurl gives it), each line read by
// KubeResponseReader::readWatchEvent, each event applied to a state as KubeSource does.
// The input's first byte seeds the chunk sizes (1 to 64 bytes); the rest is the body.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/kube_response_reader.h"
#include "net/watch_lines.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static topodeck::KubeResponseReader reader;
    unsigned seed = data[0];
    const std::string_view body = topodeck::fuzz::text(data + 1, size - 1);
    topodeck::WatchLineSplitter splitter;
    topodeck::ClusterState state;
    std::size_t lines = 0;
    std::size_t fed = 0;
    bool more = true;
    while (more && fed < body.size()) {
        seed = seed * 1103515245u + 12345u;
        const std::size_t length = std::min<std::size_t>(body.size() - fed, 1 + (seed >> 16) % 64);
        more = splitter.feed(body.substr(fed, length), [&](std::string& line) {
            ++lines;
            TOPODECK_FUZZ_CHECK(!line.empty() && line.find('\n') == std::string::npos, "one whole, non-empty line");
            topodeck::Result<topodeck::KubeWatchEvent> event = reader.readWatchEvent(line, "fuzz watch");
            if (!event) return false; // KubeSource relists
            using Type = topodeck::KubeWatchEvent::Type;
            if (event->type == Type::Bookmark || event->type == Type::Error) return event->type == Type::Bookmark;
            topodeck::Snapshot& object = event->object;
            const std::size_t count = object.nodes.size() + object.pods.size() + object.topologies.size() +
                                      object.hyperNodes.size() + object.resourceFlavors.size();
            // KubeSource keys the event by objects.front().
            TOPODECK_FUZZ_CHECK(count == 1, "an ADDED, MODIFIED or DELETED event holds exactly one object");
            if (event->type != Type::Deleted)
                for (topodeck::ClusterEvent& e : object.takeEvents()) (void)state.apply(std::move(e));
            return true;
        });
        fed += length;
    }
    if (more) TOPODECK_FUZZ_CHECK(splitter.pendingSize() <= body.size(), "keeps at most the unfinished line");
    if (lines > 0) topodeck::fuzz::showState(state);
    return 0;
}
