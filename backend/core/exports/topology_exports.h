#pragma once
// Manifests and files for review, written from the model (any source: Kubernetes, Slurm, a
// snapshot, a demo): the hierarchy as each scheduler wants it, and node labels. YAML with every
// string quoted, so a reviewer reads what the server will get; each reads back through the
// project's own readers into the same hierarchy (tests/unit/test_topology_exports.cpp).

#include "core/changes/change_plan.h"
#include "core/model/cluster_state.h"
#include "core/model/hypernode.h"
#include "core/result.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/topology_index.h"

#include <string>
#include <utility>
#include <vector>

namespace topodeck {

struct KueueExportOptions {
    std::string apiVersion = "v1beta2"; // the storage version since Kueue 0.15; v1beta1 on request
    std::string topologyName;           // default: the hierarchy's own name, else "default"
    std::string flavorName;             // default: the topology's name
    // The flavor's nodeLabels; empty: one label every node carries alike, the hardware's name
    // (instance type, GPU product) where there is one.
    std::vector<std::pair<std::string, std::string>> flavorLabels;
};

// Why Kueue would refuse these levels as a Topology, or empty: 1 to 16 levels, each key a
// valid label key and given once, kubernetes.io/hostname only as the lowest.
std::string kueueLevelsProblem(const std::vector<TopologyLevel>& levels);

// A Kueue Topology and the ResourceFlavor that names it. Refused when the hierarchy is not read
// from node labels (HyperNodes, Slurm: label the nodes first), when Kueue would refuse the
// levels, or when no label is shared by every node and none was given for the flavor.
Result<std::string> kueueTopologyYaml(const ClusterState& state, const TopologyIndex& index,
                                      const KueueExportOptions& options = {});
// The same as objects: the Topology (origin "kueue") and the flavor that names it.
struct KueueTopologyObjects {
    TopologySpec topology;
    ResourceFlavor flavor;
};
Result<KueueTopologyObjects> kueueTopologyObjects(const ClusterState& state, const TopologyIndex& index,
                                                  const KueueExportOptions& options = {});
// A KAI Topology (kai.scheduler/v1alpha1): the same levels, top first.
Result<TopologySpec> kaiTopologyObject(const TopologyIndex& index, const std::string& name = {});
Result<std::string> kaiTopologyYaml(const TopologyIndex& index, const std::string& name = {});

// Volcano HyperNodes for the hierarchy: one per domain (unlabelled ones left out), the lowest
// level's listing its nodes by exactMatch, each higher one its children; tier 1 is the lowest,
// tierName the level's name. Names are DNS subdomains made from the value ("<level>-<value>"
// unless it starts with the level's name), with the parent's name in front where a value repeats
// under another parent.
std::vector<HyperNode> hyperNodesFromIndex(const ClusterState& state, const TopologyIndex& index);
std::string hyperNodesYaml(const std::vector<HyperNode>& hyperNodes);

// Slurm 25.05's topology.yaml, listing these topologies (the first the cluster default).
std::string writeTopologyYaml(const std::vector<SlurmTopology>& topologies);

// Node labels for `kubectl apply --server-side`: one partial Node per node (name and labels
// only), and the same as `kubectl label --overwrite` lines. Without a plan, the hierarchy's
// level labels (and the NVLink label) of every node; with one, the labels the plan sets or
// removes (a removal is a `key-` line and, since apply cannot remove, is left out of the
// objects, with a comment saying so).
struct NodeLabelsExport {
    std::string objects;     // YAML documents
    std::string kubectlLines; // a shell script
};
NodeLabelsExport nodeLabelsExport(const ClusterState& state, const TopologyIndex& index,
                                  const ChangePlan* plan = nullptr);

// One file of an export: its name in a folder, and its text.
struct ExportFile {
    std::string name;
    std::string text;
    friend bool operator==(const ExportFile&, const ExportFile&) = default;
};

struct TopologyExportOptions {
    KueueExportOptions kueue;
    std::string kaiName;
    bool blocks = false; // Slurm: the block topology (NVLink domains), not the tree
    bool blockPerRack = false; // with blocks: one block per lowest-level domain, not per NVLink domain
};

// The hierarchy in every scheduler's form (kueue-topology.yaml, kai-topology.yaml,
// hypernodes.yaml, topology.conf, topology.yaml), or in one `format` ("kueue", "kai",
// "hypernodes", "topology.conf", "topology.yaml"). A form the hierarchy cannot take (a Topology
// of levels that are not labels) is left out, and why is in leftOut.
struct TopologyExportFiles {
    std::vector<ExportFile> files;
    std::vector<std::string> leftOut; // "kueue-topology.yaml left out: ..."
};
// Writes the files into `folder` (made if missing), each atomically; the paths written, in order.
// `mustBeEmpty`: a folder that holds anything is refused, as a bundle read as a whole must not mix
// with an older one's files.
Result<std::vector<std::string>> writeExportFolder(const std::string& folder, const std::vector<ExportFile>& files,
                                                   bool mustBeEmpty);

TopologyExportFiles topologyExportFiles(const ClusterState& state, const TopologyIndex& index,
                                        const TopologyExportOptions& options, std::string_view format = "all");

} // namespace topodeck
