// A watch stream as the transfer hands it over: the body cut into chunks anywhere (LineSplitter,
// what HttpClient::streamLines runs on each chunk libcurl gives it, here with a line limit of
// 64 KiB or 512 bytes), each line read by KubeResponseReader::readWatchEvent, each event applied
// to a state as KubeSource does. The input's first byte seeds the chunk sizes (1 to 64 bytes)
// and the limit; the rest is the body.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/formats/kube_response_reader.h"
#include "net/line_splitter.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static topodeck::KubeResponseReader reader;
    unsigned seed = data[0];
    const std::string_view body = topodeck::fuzz::text(data + 1, size - 1);
    // An odd first byte: a limit that the seeds' longer lines pass over, so that refusing is fuzzed too.
    const std::size_t kMaxLine = (seed & 1) != 0 ? 512 : 64 * 1024;
    topodeck::LineSplitter splitter;
    topodeck::ClusterState state;
    std::size_t lines = 0;
    std::size_t fed = 0;
    bool more = true;
    while (more && fed < body.size()) {
        seed = seed * 1103515245u + 12345u;
        const std::size_t length = std::min<std::size_t>(body.size() - fed, 1 + (seed >> 16) % 64);
        const auto outcome = splitter.feed(body.substr(fed, length), kMaxLine, [&](std::string& line) {
            ++lines;
            TOPODECK_FUZZ_CHECK(!line.empty() && line.size() <= kMaxLine && line.find('\n') == std::string::npos,
                                "one whole, non-empty line within the limit");
            topodeck::Result<topodeck::KubeWatchEvent> event = reader.readWatchEvent(line, "fuzz watch");
            if (!event) return false; // KubeSource relists
            using Type = topodeck::KubeWatchEvent::Type;
            if (event->type == Type::Bookmark || event->type == Type::Error) return event->type == Type::Bookmark;
            topodeck::Snapshot& object = event->object;
            const std::size_t count = object.nodes.size() + object.pods.size() + object.topologies.size() +
                                      object.hyperNodes.size() + object.resourceFlavors.size() +
                                      object.resourceSlices.size() + object.resourceClaims.size() +
                                      object.resourceClaimTemplates.size() + object.deviceClasses.size() +
                                      object.computeDomains.size();
            // KubeSource keys the event by objects.front().
            TOPODECK_FUZZ_CHECK(count == 1, "an ADDED, MODIFIED or DELETED event holds exactly one object");
            if (event->type != Type::Deleted)
                for (topodeck::ClusterEvent& e : object.takeEvents()) (void)state.apply(std::move(e));
            return true;
        });
        more = outcome == topodeck::LineSplitter::Outcome::More;
        fed += length;
    }
    if (more) TOPODECK_FUZZ_CHECK(splitter.pendingSize() <= kMaxLine, "keeps at most the unfinished line");
    if (lines > 0) topodeck::fuzz::showState(state);
    return 0;
}
