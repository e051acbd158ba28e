#pragma once
// The topology objects as Kubernetes manifests in JSON: what snapshot files hold and what a change
// plan sends to the API server. metadata.resourceVersion is written when the object has one, so a
// snapshot keeps the versions a change plan made from it needs as preconditions.

#include "core/model/hypernode.h"
#include "core/model/pod.h"
#include "core/model/resource_flavor.h"
#include "core/model/topology_spec.h"
#include "core/text/json_writer.h"

#include <string_view>
#include <vector>

namespace topodeck {

// `apiVersion` is the whole "group/version". A Topology's NVLink label travels as the
// topodeck.io/nvlink-label annotation (kNvlinkLabelAnnotation).
void writeTopologyManifest(JsonWriter& json, std::string_view apiVersion, const TopologySpec& spec);
void writeHyperNodeManifest(JsonWriter& json, const HyperNode& hyperNode);
void writeHyperNodeMember(JsonWriter& json, const HyperNodeMember& member);
void writeResourceFlavorManifest(JsonWriter& json, std::string_view apiVersion, const ResourceFlavor& flavor);
// A NodeSelector, {"nodeSelectorTerms": [...]}: a pod's required node affinity, a DRA slice's or
// allocation's node selector.
void writeNodeSelector(JsonWriter& json, const std::vector<NodeSelectorTerm>& terms);

} // namespace topodeck
