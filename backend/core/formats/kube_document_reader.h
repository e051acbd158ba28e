#pragma once

// The document reader: one JSON or YAML document of Kubernetes objects (a List, NodeList, ...,
// a single object, or a bare list of objects) into the model, as kubectl prints them and as
// the API server lists and watches them. Used by the snapshot reader and the Kubernetes
// response reader. Internal to backend/core.

#include "core/formats/json_value.h"
#include "core/formats/yaml_value.h"
#include "core/model/snapshot.h"
#include "core/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck::object_reader {

// Accumulates what every document of one file holds.
// What a List's own metadata says (GET /api/v1/pods?limit=500 pages through these).
struct ListMeta {
    std::string resourceVersion;
    std::string continueToken;
    std::int64_t remainingItemCount = -1; // -1 when the server did not say
};

class SnapshotBuilder {
public:
    Snapshot snapshot;
    // For the live sources: every object's metadata.resourceVersion in the order read, and the
    // List's metadata. Null when not wanted (files).
    std::vector<std::string>* versions = nullptr;
    ListMeta* listMeta = nullptr;

    // Counted per kind and reported once per kind, so a file full of Services gives one line.
    void skip(std::string_view apiVersion, std::string_view kind);
    // The snapshot, with a warning per kind of object skipped.
    Snapshot finish();

private:
    std::vector<std::pair<std::string, std::size_t>> m_skipped; // in first-seen order
};

// Reads one document's objects into `out`. `document` is the 1-based number of a YAML document
// in a file of several (for messages), else 0. Errors name source, line, object and field.
Status readKubeDocument(JsonValue& root, SnapshotBuilder& out, std::string_view source, int document);
Status readKubeDocument(YamlValue& root, SnapshotBuilder& out, std::string_view source, int document);

} // namespace topodeck::object_reader
