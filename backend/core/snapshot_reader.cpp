#include "core/snapshot_reader.h"

#include "core/cluster_state.h"
#include "core/object_reader.h"
#include "core/slurm/slurm_snapshot.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>

namespace topodeck {

void Snapshot::applyTo(ClusterState& state) && {
    state.reserve(state.nodeSlots() + nodes.size(), state.podCount() + pods.size());
    for (Node& node : nodes) (void)state.apply(NodeUpserted{std::move(node)});
    state.upsertPods(std::move(pods));
    for (ClusterEvent& event : takeTopologyEvents()) (void)state.apply(std::move(event));
    nodes.clear();
    pods.clear();
}

std::vector<ClusterEvent> Snapshot::takeTopologyEvents() {
    std::vector<ClusterEvent> events;
    events.reserve(topologies.size() + hyperNodes.size() + resourceFlavors.size());
    for (TopologySpec& spec : topologies) events.emplace_back(TopologyUpserted{std::move(spec)});
    for (HyperNode& hyperNode : hyperNodes) events.emplace_back(HyperNodeUpserted{std::move(hyperNode)});
    for (ResourceFlavor& flavor : resourceFlavors) events.emplace_back(ResourceFlavorUpserted{std::move(flavor)});
    if (slurmTopology) events.emplace_back(SlurmTopologySet{std::move(slurmTopology)});
    topologies.clear();
    hyperNodes.clear();
    resourceFlavors.clear();
    return events;
}

std::vector<ClusterEvent> Snapshot::takeEvents() {
    std::vector<ClusterEvent> events;
    events.reserve(nodes.size() + pods.size() + topologies.size() + hyperNodes.size() + resourceFlavors.size());
    for (Node& node : nodes) events.emplace_back(NodeUpserted{std::move(node)});
    for (Pod& pod : pods) events.emplace_back(PodUpserted{std::move(pod)});
    for (ClusterEvent& event : takeTopologyEvents()) events.push_back(std::move(event));
    // Release the moved-from storage now: at cluster size it is a few hundred MB.
    std::vector<Node>().swap(nodes);
    std::vector<Pod>().swap(pods);
    return events;
}

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
    Status status = walkJsonDocument(parser, input, source, [&](JsonValue& root) {
        DocumentReader<JsonValue> reader(builder, source, 0);
        return reader.readRoot(root);
    });
    if (!status) return status.error();
    return builder.finish();
}

Result<Snapshot> readYaml(std::string_view text, std::string_view source) {
    const std::string sourceName(source);
    try {
        const std::vector<YAML::Node> documents = YAML::LoadAll(std::string(text));
        SnapshotBuilder builder;
        const bool several = documents.size() > 1;
        for (std::size_t i = 0; i < documents.size(); ++i) {
            YamlValue root(documents[i]);
            DocumentReader<YamlValue> reader(builder, source, several ? static_cast<int>(i + 1) : 0);
            if (Status s = reader.readRoot(root); !s) return s.error();
        }
        return builder.finish();
    } catch (const YAML::Exception& e) {
        std::string message = sourceName;
        if (!e.mark.is_null())
            message += ':' + std::to_string(e.mark.line + 1) + ':' + std::to_string(e.mark.column + 1);
        message += ": invalid YAML: " + e.msg;
        return Error{std::move(message)};
    }
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
    if (path == "-") {
        std::string text(std::istreambuf_iterator<char>(std::cin), {});
        if (std::cin.bad()) return Error{"cannot read standard input"};
        return readSnapshotText(text, "<stdin>");
    }
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
