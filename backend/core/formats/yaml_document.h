#pragma once

// Loading YAML (and JSON read as YAML) that nobody vetted: snapshots, manifests, kubeconfigs,
// topology.yaml, annotation values. yaml-cpp 0.7, the release Debian 12 ships, loops forever on
// some malformed documents (upstream issues #1040 and #499, fixed only in later releases) and
// recurses once per nesting level. So libyaml, the reference C parser that has been fuzzed for
// years, reads every text first, and yaml-cpp sees only what libyaml accepted within the limits
// below. Internal to the backend (net reads kubeconfigs with it).

#include "core/result.h"

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string_view>
#include <vector>

namespace topodeck {

struct YamlLimits {
    // Kubernetes objects nest about 20 levels deep, a CRD's schema under 100; yaml-cpp's parser
    // recurses per level, so a document of 100,000 '[' must be refused before it sees it.
    std::size_t maxDepth = 256;
    // What aliases (*name) may add by repeating their anchor's nodes. kubectl never writes
    // aliases and hand-written files repeat a few small maps; a "billion laughs" document, whose
    // aliases multiply at each level, would make every reader walk billions of nodes.
    std::size_t maxAliasNodes = 1'000'000;
};

// Every document of the text, checked first. Errors read "source:line:column: invalid YAML: why".
Result<std::vector<YAML::Node>> loadYamlDocuments(std::string_view text, std::string_view source,
                                                  const YamlLimits& limits = {});
// The first document, or a null node when the text has none (an empty file).
Result<YAML::Node> loadYamlDocument(std::string_view text, std::string_view source, const YamlLimits& limits = {});

// The check alone, without building yaml-cpp's tree (the benchmark measures what it costs).
Status checkYamlText(std::string_view text, std::string_view source, const YamlLimits& limits = {});

} // namespace topodeck
