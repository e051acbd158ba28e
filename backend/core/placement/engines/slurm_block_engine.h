#pragma once

#include "core/placement/engines/placement_engine.h"

namespace topodeck {

// Slurm's topology/block plugin (eval_nodes_block.c): a job of N nodes
// goes into one aggregated block of 2^L base blocks, chosen by lowest node weight, then fewest
// eligible nodes (ties to the later block in config order), then filled base block by base block.
//
// Blocks come from the cluster's Slurm topology when it is a block topology, else they are
// derived from the labels (NVLink domains, else lowest-level domains; see slurmBlocksFromIndex).
// A request is the gang's `slurm` request, else -N = pods and --gres=gpu:G = the GPUs of one pod
// (one pod per node). The result's assignment has levels ["block", "kubernetes.io/hostname"]:
// one domain per node, with the base block it was taken from.
class SlurmBlockEngine final : public PlacementEngine {
public:
    std::string_view name() const override { return "slurm-block"; }
    std::string_view description() const override;
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
