#pragma once

#include "core/model/node.h"
#include "core/model/topology_spec.h"

#include <QString>

namespace topodeck {

// Words that depend on where a cluster comes from, so that a Slurm cluster reads in Slurm's
// terms: its nodes' own states, and job allocations where Kubernetes has pods.

// A Slurm node's state as sinfo names it, with Slurm's reason: "drained (xid-79)"; empty for
// a node that is not a Slurm node.
QString slurmNodeState(const Node* node);
// "Pods", or "Job allocations" for a Slurm cluster (the hierarchy's origin says which).
QString podsTerm(const TopologySpec& spec);

} // namespace topodeck
