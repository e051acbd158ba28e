#pragma once

#include "core/model/cluster_state.h"
#include "core/model/device_inventory.h"
#include "core/model/gpu_resources.h"
#include "core/model/topology_spec.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// A known way of labelling nodes with their place in the network (Topograph, GKE, EKS, ...).
struct TopologyPreset {
    std::string name;        // accepted by --topology, e.g. "gke"
    std::string description; // one line for people
    TopologySpec spec;       // levels top first; origin "preset"; nvlinkLabel when the source has one
};

// Every preset, specific ones first and the generic region/zone one last.
const std::vector<TopologyPreset>& topologyPresets();
const TopologyPreset* findTopologyPreset(std::string_view name);

// The hierarchy the state's nodes are most likely labelled with:
//  1. the only Topology object (Kueue/KAI) in the state, as written;
//  2. among several Topology objects, the one whose level keys the most nodes carry;
//  3. the Volcano HyperNode tree (hyperNodeHierarchy()), when the state has HyperNodes that form
//     one; when they do not, *hyperNodeProblem says why;
//  4. the preset whose level keys the most nodes carry, without the levels no node carries.
// A candidate counts only when one of its keys is on at least half of the nodes (of the nodes
// with GPUs, when there are any: CPU-only system nodes often lack fabric labels). The generic
// region/zone preset is tried only when no specific one qualifies. When nodes carry
// nvidia.com/gpu.clique and the chosen spec names no NVLink key present on the nodes, it
// becomes the NVLink key. nullopt when nothing qualifies.
std::optional<TopologySpec> detectTopology(const ClusterState& state, std::string* hyperNodeProblem = nullptr);

// What the CLI and GUI use: explicit level keys win (origin "flags"), then a name (a Topology
// object in the state, a preset, "hypernodes" or "slurm"; an unknown name is an error listing the
// known ones), then the source's own hierarchy when it has one (a demo's), then a Slurm topology
// given with the request (the state's, when no Slurm source brought its own Topology object),
// then detectTopology(); otherwise noTopologyHierarchy(), with a notice. Only a bad choice is an
// error: a cluster without topology, or without nodes, is shown as it is.
Result<TopologySpec> resolveTopology(const ClusterState& state, std::string_view topologyName,
                                     const std::vector<std::string>& levelKeys,
                                     const TopologySpec* sourceTopology = nullptr);

// How to read the hierarchy, as the command line or the GUI chose it (all empty: automatic), and
// which resources count as GPUs.
struct HierarchyChoice {
    std::string topologyName;
    std::vector<std::string> levelKeys;
    GpuResources gpus;
    // The DRA DeviceClasses whose devices count as GPUs; unset: gpu.nvidia.com. Whoever loads
    // the source sets them on the state before its DRA objects arrive.
    std::optional<GpuDeviceClasses> gpuClasses;
    // A topology.conf / topology.yaml the request brings beside a node list or a demo; whoever
    // loads the source reads it into the state (addSlurmTopologyFile()). A Slurm source reads its own.
    std::string slurmTopologyFile;

    // resolveTopology() with these choices; sourceTopology is the source's own hierarchy (a demo's).
    Result<TopologySpec> resolve(const ClusterState& state, const TopologySpec* sourceTopology = nullptr) const;
    // The state seen through the resolved hierarchy.
    Result<TopologyIndex> buildIndex(const ClusterState& state, const TopologySpec* sourceTopology = nullptr) const;
};

// Whether an applied event may change the hierarchy `shown` was resolved to, so that a live
// follower resolves it again: a Topology object or HyperNode that came, changed or went, or a
// node that arrived while the hierarchy places nodes by name.
bool mayChangeHierarchy(const AppliedEvent& applied, const TopologySpec& shown);

// For placement: a hierarchy that came from a demo, a preset or a topology object (HyperNodes, a
// Slurm topology) gets kubernetes.io/hostname as its lowest level when every node carries it, as
// Kueue's and KAI's docs configure their Topology, so that engines decide nodes and not only
// racks. Topology objects and --levels stay as written. With no topology, the grouping shown
// says nothing of the network, so engines get the hostname level alone, as a scheduler without
// topology places pods on any node.
TopologySpec withHostnameLevel(TopologySpec spec, const ClusterState& state);

// The hierarchy that schedulers reading node labels (Kueue TAS, KAI) see on a cluster shown
// through `shown`: `shown` itself when it is read from labels, else the label hierarchy the
// state has (a Topology object or a preset), else none (origin "none", no levels).
// The hierarchy shown when a cluster has no topology is read from labels: it is returned as is.
TopologySpec labelHierarchyFor(const TopologySpec& shown, const ClusterState& state);

} // namespace topodeck
