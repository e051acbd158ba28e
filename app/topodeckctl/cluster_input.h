#pragma once

#include "cli_args.h"
#include "live_connection.h"

#include "core/changes/change_plan.h"
#include "core/demo/demo_cluster.h"
#include "core/model/cluster_state.h"
#include "core/model/gpu_resources.h"
#include "core/model/topology_spec.h"
#include "core/result.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace topodeck::cli {

// Where a command reads its cluster from: --demo NAME, -f FILE ("-" = stdin), or a live cluster
// (--context NAME, --kubeconfig FILE, --in-cluster).
struct ClusterSource {
    std::string demo;
    std::string file;
    std::optional<LiveTarget> live;
    std::chrono::milliseconds syncTimeout{60000};
    // --slurm-topology for a source that is not Slurm (a node list, a demo): the topology the
    // request brings. A Slurm source reads it itself (SlurmTarget::topologyFile).
    std::string slurmTopologyFile;
    // --gpu-classes: the DRA DeviceClasses whose devices count as GPUs (default gpu.nvidia.com).
    std::optional<GpuDeviceClasses> gpuClasses;

    // Exactly one of --demo / -f / a live cluster, as every cluster-reading command wants. A
    // command whose -f is something else (diff -f PLAN) reads the snapshot from another flag.
    static Result<ClusterSource> fromArgs(const ParsedArgs& args, std::string_view snapshotFlag = "filename");
    // "demo gb200 · <title>" for people, "demo:gb200" for JSON, the file name, or the context.
    std::string describe(const std::optional<DemoCluster>& demo, bool forPeople,
                         const LiveConnection* live = nullptr) const;
};

struct LoadedCluster {
    ClusterState state;
    std::optional<DemoCluster> demo;      // the demo's own hierarchy and, for --watch, its gangs
    std::unique_ptr<LiveConnection> live; // a live cluster, still watched (for --watch)
    // The Slurm version the source says it runs, as it says it ("22.05.8"), and where that comes
    // from for people ("the version slurmctld (scontrol show config) reports", "recorded in the
    // snapshot"); empty when the source does not say.
    std::string slurmVersion;
    std::string slurmVersionOrigin;

    // The source's own hierarchy (a demo's), or nullptr.
    const TopologySpec* ownTopology() const { return demo ? &demo->topology : nullptr; }
    // The flags' hierarchy, else the source's own, else the one its objects or labels give.
    Result<TopologySpec> resolve(const HierarchyChoice& choice) const { return choice.resolve(state, ownTopology()); }
};

// The flags that choose a live cluster, shared by every command that reads one.
std::vector<FlagSpec> liveClusterFlags();
// The flags naming what to read and how, as `show` and `gangs` list them: --demo, -f, the live
// cluster's (liveClusterFlags), --levels, --topology; and --gpu-resources, which they list later.
std::vector<FlagSpec> clusterSourceFlags();
FlagSpec gpuResourcesFlag();
// --slurm's target with the --slurm-* flags that refine it.
Result<SlurmTarget> slurmTargetFromArgs(const std::string& argument, const ParsedArgs& args);

// How to read the hierarchy and what counts as a GPU: --levels, --topology, --gpu-resources.
Result<HierarchyChoice> hierarchyChoiceFromArgs(const ParsedArgs& args);

// What every command that reads a cluster takes: no positional arguments, where the cluster comes
// from, and how to read its hierarchy.
struct ClusterArgs {
    ClusterSource source;
    HierarchyChoice hierarchy;
    static Result<ClusterArgs> fromArgs(const ParsedArgs& args, std::string_view command);
};

// Reads the snapshot, builds the demo, or connects and waits until the live cluster is synced;
// warnings go to stderr (the first few).
Result<std::unique_ptr<LoadedCluster>> loadCluster(const ClusterSource& source);
// Reports a loadCluster() error: bad input (exit 2), or a live cluster out of reach (exit 1).
int reportLoadError(const ClusterSource& source, const Error& error);

// A one-shot command's cluster: loaded (a live one listed, then its watches stopped) and indexed
// under the hierarchy the flags choose. On failure the error is reported and the variant holds
// the exit code.
struct IndexedCluster {
    std::unique_ptr<LoadedCluster> loaded;
    TopologyIndex index;
};
std::variant<IndexedCluster, int> loadIndexedCluster(const ClusterSource& source, const HierarchyChoice& hierarchy);

// A change plan named on the command line: a file, or - for stdin.
Result<ChangePlan> readPlanArgument(const std::string& path);

} // namespace topodeck::cli
