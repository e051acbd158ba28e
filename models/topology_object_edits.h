#pragma once
// The Topology editor's part apart from widgets: which Kueue or KAI Topologies and Kueue
// ResourceFlavors the cluster has, and the ObjectChange that gives a Topology these levels (or a
// flavor this topologyName and these nodeLabels).

#include "core/changes/object_change.h"
#include "core/model/cluster_state.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// The names of the kind's objects (KueueTopology, KaiTopology or ResourceFlavor), sorted.
std::vector<std::string> objectNames(const ClusterState& objects, ObjectKind kind);
// A Kueue or KAI Topology's level label keys, top level first; empty when there is none.
std::vector<std::string> topologyLevelKeys(const ClusterState& objects, ObjectKind kind, const std::string& name);

// The change that makes the Topology `name` (created when missing) list these level keys, top
// first; nullopt when it does already. The NVLink key the object carries stays.
std::optional<ObjectChange> topologyLevelsChange(const ClusterState& objects, ObjectKind kind, const std::string& name,
                                                 const std::vector<std::string>& keys);

// The change that makes the ResourceFlavor `name` (created when missing) name this Topology
// (empty: none) and select nodes by these labels; nullopt when it does already.
std::optional<ObjectChange> flavorTopologyChange(const ClusterState& objects, const std::string& name,
                                                 const std::string& topologyName,
                                                 std::vector<std::pair<std::string, std::string>> nodeLabels);
// The flavor's spec.nodeLabels as "key=value" words joined by spaces, and back: an error names
// a word without '='.
std::string nodeLabelsText(const std::vector<std::pair<std::string, std::string>>& labels);
Result<std::vector<std::pair<std::string, std::string>>> parseNodeLabels(const std::string& text);

} // namespace topodeck
