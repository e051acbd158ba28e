#pragma once

#include "cli_args.h"

#include "core/cluster_state.h"
#include "core/demo_cluster.h"
#include "core/gpu_resources.h"
#include "core/placement/hypernode.h"
#include "core/result.h"
#include "core/topology_spec.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace topodeck::cli {

// Where a command reads its cluster from: --demo NAME or -f FILE ("-" = stdin).
struct ClusterSource {
    std::string demo;
    std::string file;

    // Exactly one of --demo / -f, as every cluster-reading command wants.
    static Result<ClusterSource> fromArgs(const ParsedArgs& args);
    // "demo gb200 · <title>" for people, "demo:gb200" for JSON, or the file name.
    std::string describe(const std::optional<DemoCluster>& demo, bool forPeople) const;
};

struct LoadedCluster {
    ClusterState state;
    std::optional<DemoCluster> demo; // the demo's own hierarchy and, for --watch, its gangs
};

// How to read the hierarchy and what counts as a GPU: --levels, --topology, --gpu-resources.
struct HierarchyChoice {
    std::string topologyName;
    std::vector<std::string> levels;
    GpuResources gpus;

    static Result<HierarchyChoice> fromArgs(const ParsedArgs& args);
    // The flags' hierarchy, else the demo's own, else one detected from the nodes' labels.
    Result<TopologySpec> resolve(const LoadedCluster& cluster) const;
};

// What every command that reads a cluster takes: no positional arguments, where the cluster comes
// from, and how to read its hierarchy.
struct ClusterArgs {
    ClusterSource source;
    HierarchyChoice hierarchy;
    static Result<ClusterArgs> fromArgs(const ParsedArgs& args, std::string_view command);
};

// Reads the snapshot or builds the demo; the snapshot's warnings go to stderr (the first few).
Result<std::unique_ptr<LoadedCluster>> loadCluster(const ClusterSource& source);

} // namespace topodeck::cli
