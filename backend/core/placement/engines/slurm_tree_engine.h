#pragma once

#include "core/placement/engines/placement_engine.h"

namespace topodeck {

// Slurm's topology/tree placement: eval_nodes_tree.c for 24.05.3 and later, cons_tres' job_test.c
// (_eval_nodes_topo) for 22.05 up to 24.05.2, chosen by EngineOptions::slurmVersion. The switches come from the
// cluster's topology.conf / topology.yaml tree, else one switch per label domain (slurmTreeFromIndex). The request is
// GangRequest::slurm, else `-N pods --gres=gpu:G` with one pod per node; a task count (-n) spreads over the nodes by
// their free CPUs, as Slurm spreads it.
//
// Result shape: nodes with one pod each in node-table order; chosen = the top switch, then the
// leaf switches in the order they were filled, levels named "switch level N"; assignment levels
// ["leaf switch", "kubernetes.io/hostname"] with one domain per node; message = what Slurm says
// (empty when the job starts now, the --switches wait, or the pending reason / errno text).
class SlurmTreeEngine final : public PlacementEngine {
public:
    std::string_view name() const override;
    std::string_view description() const override;
    std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const override;
    PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                          const EngineOptions& options) const override;
};

} // namespace topodeck
