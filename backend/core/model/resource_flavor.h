#pragma once

#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// A Kueue ResourceFlavor (kueue.x-k8s.io), as far as the topology views need it: which nodes it
// stands for and which Topology, if any, Kueue's TAS reads for it.
struct ResourceFlavor {
    std::string name;
    std::string topologyName;                                    // spec.topologyName; empty without TAS
    std::vector<std::pair<std::string, std::string>> nodeLabels; // spec.nodeLabels, sorted by key
    // metadata.resourceVersion as the source read it (empty: unknown), a change plan's
    // precondition. Not part of what the object says: equality leaves it out.
    std::string resourceVersion{};
    friend bool operator==(const ResourceFlavor& a, const ResourceFlavor& b) {
        return a.name == b.name && a.topologyName == b.topologyName && a.nodeLabels == b.nodeLabels;
    }
};

} // namespace topodeck
