#pragma once
// Applying a change plan, once for every front-end: the checks made on the state before anything
// is sent (drift, the CRD rules a server cannot check), with their refusal texts, and the
// journaled apply itself over whatever sends the patches (net/label_patch_sender.h for a
// Kubernetes cluster). `topodeckctl apply` and `undo`, the console's Changes page and (later) the
// daemon all call these.

#include "core/changes/change_plan.h"
#include "core/changes/plan_apply.h"
#include "core/model/cluster_state.h"
#include "core/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// What the state says against sending a plan now.
struct ApplyCheck {
    std::vector<std::string> drift;          // planDrift: labels and objects no longer as the plan found them
    std::vector<std::string> objectProblems; // objectChangeProblems: what the CRDs would refuse
    bool passed() const { return drift.empty() && objectProblems.empty(); }
    // One line, for a status or a dialog: "context prod no longer holds what the plan found (a
    // and 2 more): preview it again"; "" when passed.
    std::string line(const std::string& target) const;
    // Every reason on a line of its own (the first 20 of the drift), as the terminal shows it.
    std::string text(const std::string& target) const;
};
ApplyCheck checkApply(const ClusterState& state, const ChangePlan& plan);

// A plan about to be sent: the plan, checked, with its objects' preconditions taken from the
// state where the plan carried none (a demo's, an exported file's) and the objects still say what
// the plan found.
ChangePlan planToSend(const ClusterState& state, ChangePlan plan);

struct ApplyRun {
    std::string target;       // "context prod": the journal's cluster
    std::string fieldManager; // the journal's
    std::string journalFile;  // required unless dryRunOnly
    std::size_t batchSize = 200;
    bool dryRunOnly = false;
    PatchSender sendPatches;
    ObjectSender sendObject;
    std::function<bool()> cancelled;                    // asked before each batch
    std::function<void(const ChangeJournal&)> progress; // after each batch
};
// The plan sent as applyPlanJournaled sends it, with the journal's header filled in.
Result<JournaledApply> runApply(const ChangePlan& plan, const ApplyRun& run);

// What the server refused, one entry per node or object: its name ("node-1", "create HyperNode
// rack-1") and "outcome: the server's words", from the dry run or the batches.
std::vector<std::pair<std::string, std::string>> serverRefusals(const ChangePlan& plan, const ApplyResult& result);

// The refusals one a line, each "  name: words" (the first 20, then how many more).
std::string refusalLines(const std::vector<std::pair<std::string, std::string>>& refusals);

} // namespace topodeck
