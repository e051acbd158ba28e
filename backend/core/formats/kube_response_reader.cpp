#include "core/formats/kube_response_reader.h"

#include "core/formats/field_readers.h"
#include "core/formats/kube_document_reader.h"

namespace topodeck {

using namespace object_reader;

struct KubeResponseReader::Parser {
    sj::parser parser;
};

namespace {

// The parser reads a little past the end of its input; give the string that room instead of
// copying a page of hundreds of kilobytes into a padded buffer.
simdjson::padded_string_view padded(std::string& text) {
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    return simdjson::padded_string_view(text.data(), text.size(), text.capacity());
}

std::size_t objectCount(const Snapshot& snapshot) {
    return snapshot.nodes.size() + snapshot.pods.size() + snapshot.topologies.size() + snapshot.hyperNodes.size() +
           snapshot.resourceFlavors.size() + snapshot.resourceSlices.size() + snapshot.resourceClaims.size() +
           snapshot.resourceClaimTemplates.size() + snapshot.deviceClasses.size() +
           snapshot.computeDomains.size();
}

template <class V> Status readStatusFields(V& value, KubeStatus& status, bool& isStatus) {
    std::string_view reason;
    std::string_view message;
    std::string_view kind;
    const Path root;
    Status s = value.forEachField([&](std::string_view key, V& field) -> Status {
        if (key == "code") return readInt32(field, root.field(key), status.code);
        if (key == "reason") return readScalar(field, root.field(key), reason);
        if (key == "message") return readScalar(field, root.field(key), message);
        if (key == "kind") return readScalar(field, root.field(key), kind);
        return {};
    });
    status.reason = reason;
    status.message = message;
    isStatus = kind == "Status";
    return s;
}

std::optional<KubeWatchEvent::Type> eventType(std::string_view type) {
    if (type == "ADDED") return KubeWatchEvent::Type::Added;
    if (type == "MODIFIED") return KubeWatchEvent::Type::Modified;
    if (type == "DELETED") return KubeWatchEvent::Type::Deleted;
    if (type == "BOOKMARK") return KubeWatchEvent::Type::Bookmark;
    if (type == "ERROR") return KubeWatchEvent::Type::Error;
    return std::nullopt;
}

} // namespace

KubeResponseReader::KubeResponseReader() : m_parser(std::make_unique<Parser>()) {}
KubeResponseReader::~KubeResponseReader() = default;

Result<KubeListPage> KubeResponseReader::readListPage(std::string& body, std::string_view source) {
    KubeListPage page;
    SnapshotBuilder builder;
    ListMeta meta;
    builder.versions = &page.resourceVersions;
    builder.listMeta = &meta;
    Status status = walkJsonDocument(m_parser->parser, padded(body), source, [&](JsonValue& root) -> Status {
        if (root.type() != ValueType::Object) return Error{std::string(source) + ": expected a List object"};
        return readKubeDocument(root, builder, source, 0);
    });
    if (!status) return status.error();
    page.objects = builder.finish();
    // resourceVersions line up with the items only when every item was read into the snapshot.
    if (page.resourceVersions.size() != objectCount(page.objects) || !page.objects.warnings.empty())
        return Error{std::string(source) + ": the list holds objects of a kind that was not asked for" +
                     (page.objects.warnings.empty() ? std::string() : " (" + page.objects.warnings.front() + ")")};
    page.resourceVersion = std::move(meta.resourceVersion);
    page.continueToken = std::move(meta.continueToken);
    page.remainingItemCount = meta.remainingItemCount;
    return page;
}

Result<KubeWatchEvent> KubeResponseReader::readWatchEvent(std::string& line, std::string_view source) {
    KubeWatchEvent event;
    SnapshotBuilder builder;
    std::vector<std::string> versions;
    builder.versions = &versions;
    std::optional<KubeWatchEvent::Type> type;
    bool sawObject = false;
    Status status = walkJsonDocument(m_parser->parser, padded(line), source, [&](JsonValue& root) -> Status {
        if (root.type() != ValueType::Object) return Error{std::string(source) + ": a watch event must be an object"};
        return root.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            const Path path;
            if (key == "type") {
                std::string_view text;
                if (Status s = readScalar(field, path.field(key), text); !s) return s;
                type = eventType(text);
                if (!type) return Error{std::string(source) + ": unknown watch event type \"" + std::string(text) + '"'};
                return {};
            }
            if (key != "object") return {};
            // The API server writes the type first; what the object means depends on it.
            if (!type) return Error{std::string(source) + ": watch event object before its type"};
            sawObject = true;
            if (*type == KubeWatchEvent::Type::Error) {
                bool isStatus = false;
                return readStatusFields(field, event.status, isStatus);
            }
            if (*type == KubeWatchEvent::Type::Bookmark) {
                // A bookmark's object carries nothing but metadata.resourceVersion.
                std::string_view version;
                Status s = field.forEachField([&](std::string_view objectKey, JsonValue& objectField) -> Status {
                    if (objectKey != "metadata") return {};
                    return readSelectedFields(objectField, path.field(objectKey), "a map", [&](std::string_view k) {
                        return k == "resourceVersion" ? &version : nullptr;
                    });
                });
                event.resourceVersion = version;
                return s;
            }
            return readKubeDocument(field, builder, source, 0);
        });
    });
    if (!status) return status.error();
    if (!type || !sawObject) return Error{std::string(source) + ": a watch event needs a type and an object"};
    event.type = *type;
    if (event.type == KubeWatchEvent::Type::Error || event.type == KubeWatchEvent::Type::Bookmark) return event;
    event.object = builder.finish();
    if (objectCount(event.object) != 1 || versions.size() != 1)
        return Error{std::string(source) + ": the watch event holds an object of a kind that was not asked for"};
    event.resourceVersion = std::move(versions.front());
    return event;
}

std::string readObjectResourceVersion(std::string_view body) {
    std::string text(body);
    sj::parser parser;
    std::string version;
    const Path root;
    (void)walkJsonDocument(parser, padded(text), "object", [&](JsonValue& object) -> Status {
        if (object.type() != ValueType::Object) return Error{"not an object"};
        return object.forEachField([&](std::string_view key, JsonValue& field) -> Status {
            if (key != "metadata") return {};
            std::string_view found;
            Status s = readSelectedFields(field, root.field(key), "a map", [&](std::string_view k) {
                return k == "resourceVersion" ? &found : nullptr;
            });
            version = found;
            return s;
        });
    });
    return version;
}

std::optional<KubeStatus> readKubeStatus(std::string_view body) {
    std::string text(body);
    sj::parser parser;
    KubeStatus status;
    bool isStatus = false;
    Status read = walkJsonDocument(parser, padded(text), "status", [&](JsonValue& root) -> Status {
        if (root.type() != ValueType::Object) return Error{"not an object"};
        return readStatusFields(root, status, isStatus);
    });
    if (!read || !isStatus) return std::nullopt;
    return status;
}

} // namespace topodeck
