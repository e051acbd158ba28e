#pragma once
// What the GUI (and any front-end on a ClusterSession) asks of a session, and what comes back:
// each answer says which state it was computed on. The operations themselves are the use-cases
// (usecases/); the session runs them on its request thread.

#include "core/changes/plan_apply.h"
#include "core/model/cluster_state.h"
#include "core/placement/reports/gangs_report.h"
#include "core/placement/whatif/what_if_sequence.h"
#include "session/cluster_snapshot.h"
#include "usecases/change_preview.h"
#include "usecases/dry_run.h"
#include "usecases/export_files.h"
#include "usecases/topology_objects.h"

#include <QMetaType>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

using GangsReportPtr = std::shared_ptr<const GangsReport>;
using PlanAnswerPtr = std::shared_ptr<const PlanAnswer>;
using ChangePreviewPtr = std::shared_ptr<const ChangePreview>;

// The pods holding resources on one node (a Slurm cluster's: its jobs' allocations), read through
// the state's per-node index when asked: the snapshot carries no pods.
struct NodePodsAnswer {
    NodeId node = 0;
    std::uint64_t generation = 0; // as ClusterSnapshot::generation
    std::uint64_t sourceEpoch = 0;
    std::vector<Pod> pods; // by namespace, then name, in natural order
    std::vector<std::int64_t> claimedGpus{}; // by pod: GPUs its DRA claims hold (claimedGpus())
};
using NodePodsPtr = std::shared_ptr<const NodePodsAnswer>;

// A what-if applied to the current state: the hypothetical cluster and what each step did.
struct WhatIfAnswer {
    std::uint64_t liveGeneration = 0;     // the live state it was applied to (as ClusterSnapshot::generation)
    ClusterSnapshotPtr snapshot;          // hypothetical(); null when no cluster is open
    std::vector<WhatIfStepOutcome> steps; // one per step, in order
    std::vector<GangFailure> failures;    // every Fail step's broken gangs, in step order
    std::vector<NodeId> changedNodes;     // the nodes the steps drained, failed or placed pods on
    std::string error;                    // why nothing could be applied (no cluster open), else ""
};
using WhatIfAnswerPtr = std::shared_ptr<const WhatIfAnswer>;

// Files for review from the current state (exportFiles), written into request.folder.
struct ExportAnswer {
    std::vector<std::string> written;  // paths, in order
    std::vector<std::string> warnings; // forms left out, and why
    std::string error;                 // why nothing was written; else ""
};
using ExportAnswerPtr = std::shared_ptr<const ExportAnswer>;

// The current state's topology objects, for the object editors (topologyObjectsOf), taken on the
// request thread, so the GUI thread reads no state.
struct TopologyObjectsAnswer : TopologyObjects {
    std::uint64_t generation = 0; // as ClusterSnapshot::generation
    std::uint64_t sourceEpoch = 0;
    std::string error; // no cluster is open; else ""
};
using TopologyObjectsPtr = std::shared_ptr<const TopologyObjectsAnswer>;

// An apply of a change plan to the current Kubernetes cluster: the checks on the current state
// (checkApply), then the server's dry run and the batches on the session's apply thread.
struct ApplyRequest {
    ChangePlan plan;
    bool dryRunOnly = false;
    std::string journalFile; // required unless dryRunOnly
    std::size_t batchSize = 200;
};
struct ApplyAnswer {
    std::string target;  // "context prod"
    std::string refused; // refused before anything was sent (drift, no cluster, the journal); else ""
    ApplyResult result;
    std::vector<std::pair<std::string, std::string>> refusals; // node or object, outcome: what the server said
    std::string journalFile;                                   // written (not for a dry run)
    std::string journalProblem;
};
using ApplyAnswerPtr = std::shared_ptr<const ApplyAnswer>;

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::GangsReportPtr)
Q_DECLARE_METATYPE(topodeck::PlanAnswerPtr)
Q_DECLARE_METATYPE(topodeck::NodePodsPtr)
Q_DECLARE_METATYPE(topodeck::WhatIfAnswerPtr)
Q_DECLARE_METATYPE(topodeck::ExportAnswerPtr)
Q_DECLARE_METATYPE(topodeck::ChangePreviewPtr)
Q_DECLARE_METATYPE(topodeck::ApplyAnswerPtr)
Q_DECLARE_METATYPE(topodeck::TopologyObjectsPtr)
