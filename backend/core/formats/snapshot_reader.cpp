#include "core/formats/snapshot_reader.h"

#include "core/formats/kube_document_reader.h"
#include "core/formats/yaml_document.h"
#include "core/slurm/slurm_snapshot.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace topodeck {

namespace {

using namespace object_reader;

bool looksLikeJson(std::string_view text) {
    // A UTF-8 byte order mark is not content.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        return c == '{' || c == '[';
    }
    return false;
}

Result<Snapshot> readJson(const simdjson::padded_string& input, std::string_view source) {
    sj::parser parser;
    SnapshotBuilder builder;
    Status status = walkJsonDocument(parser, input, source,
                                     [&](JsonValue& root) { return readKubeDocument(root, builder, source, 0); });
    if (!status) return status.error();
    return builder.finish();
}

Result<Snapshot> readYaml(std::string_view text, std::string_view source) {
    Result<std::vector<YAML::Node>> documents = loadYamlDocuments(text, source);
    if (!documents) return documents.error();
    SnapshotBuilder builder;
    const bool several = documents->size() > 1;
    for (std::size_t i = 0; i < documents->size(); ++i) {
        YamlValue root((*documents)[i]);
        if (Status s = readKubeDocument(root, builder, source, several ? static_cast<int>(i + 1) : 0); !s)
            return s.error();
    }
    return builder.finish();
}

Result<Snapshot> readPadded(const simdjson::padded_string& input, std::string_view source) {
    const std::string_view text(input.data(), input.size());
    if (looksLikeJson(text)) return readJson(input, source);
    return readYaml(text, source);
}

} // namespace

Result<Snapshot> readSnapshotText(std::string_view text, std::string_view sourceName) {
    if (looksLikeJson(text)) return readJson(simdjson::padded_string(text), sourceName);
    return readYaml(text, sourceName);
}

Result<Snapshot> readSnapshotFile(const std::string& path) {
    if (isSlurmFileSet(path)) return readSlurmFileSet(path);
    // Read straight into simdjson's padded buffer: a cluster file can be hundreds of MB and
    // should not be copied once more.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) return Error{"cannot open " + path + ": " + std::strerror(errno)};
    if (std::fseek(file.get(), 0, SEEK_END) != 0) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    const long size = std::ftell(file.get());
    if (size < 0) return Error{"cannot read " + path + ": " + std::strerror(errno)};
    std::rewind(file.get());
    simdjson::padded_string buffer(static_cast<std::size_t>(size));
    if (std::fread(buffer.data(), 1, buffer.size(), file.get()) != buffer.size())
        return Error{"cannot read " + path + ": " +
                     (std::ferror(file.get()) ? std::strerror(errno) : "file changed while reading")};
    return readPadded(buffer, path);
}

} // namespace topodeck
