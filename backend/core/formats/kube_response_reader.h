#pragma once

#include "core/model/snapshot.h"
#include "core/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// A Kubernetes Status object: what the API server answers with on errors, and what a watch's
// ERROR event carries (e.g. code 410, reason "Expired" for a resourceVersion that is too old).
struct KubeStatus {
    int code = 0;
    std::string reason;
    std::string message;
};

// One page of a list response, GET /api/v1/pods?limit=500[&continue=...].
struct KubeListPage {
    Snapshot objects;                          // the items, in the vectors of their kind
    std::vector<std::string> resourceVersions; // each item's metadata.resourceVersion, in item order
    std::string resourceVersion;               // the list's: where a watch starts
    std::string continueToken;                 // empty on the last page
    std::int64_t remainingItemCount = -1;      // -1 when the server did not say
};

// One line of a watch stream, {"type":"MODIFIED","object":{...}}.
struct KubeWatchEvent {
    enum class Type { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Added;
    std::string resourceVersion; // the object's; for a bookmark, where to resume the watch
    Snapshot object;             // Added, Modified, Deleted: exactly one object of a kind topodeck reads
    KubeStatus status;           // Error
};

// Reads API server responses with the snapshot reader's interpretation of every object, so a
// live cluster and a file of the same objects give the same ClusterState. Keeps its parser
// between calls (one reader per thread). The text is taken by reference because the parser
// needs padding after it, which is appended to the string's capacity instead of copying it.
class KubeResponseReader {
public:
    KubeResponseReader();
    ~KubeResponseReader();
    KubeResponseReader(const KubeResponseReader&) = delete;
    KubeResponseReader& operator=(const KubeResponseReader&) = delete;

    // A homogeneous list (NodeList, PodList, TopologyList, ...). Errors name the object and field.
    Result<KubeListPage> readListPage(std::string& body, std::string_view source);
    Result<KubeWatchEvent> readWatchEvent(std::string& line, std::string_view source);

private:
    struct Parser;
    std::unique_ptr<Parser> m_parser;
};

// metadata.resourceVersion of the object in a response (a create's or update's answer), or ""
// when it has none or is not an object.
std::string readObjectResourceVersion(std::string_view body);

// A Status object in an error response, or nullopt when the body is not one (say, a proxy's HTML).
std::optional<KubeStatus> readKubeStatus(std::string_view body);

} // namespace topodeck
