#pragma once
// Applying a plan, apart from the wire: one JSON Patch per node, every one sent as a server-side
// dry run first, then for real in batches. A batch in which any node was not applied (a failed
// precondition, a 409, a 403, an error) is the last: the next batch is not started, so a plan
// that meets a conflict stops, shows it, and overwrites nothing. What happened to each change goes
// to the journal, which is handed out after every batch so that a run cut short leaves its record.

#include "core/changes/change_journal.h"
#include "core/changes/change_plan.h"
#include "core/result.h"

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace topodeck {

struct NodePatch {
    std::string node;
    std::string body;          // labelPatchJson of the node's changes
    std::size_t firstChange = 0; // the node's changes: plan.labelChanges[firstChange, +changeCount)
    std::size_t changeCount = 0;
};

// One node's patch, in the plan's order.
std::vector<NodePatch> nodePatches(const ChangePlan& plan);

// The server's answer to one patch: its status (0 when there was none) and, when it is not a
// success, what it said, or why there was no answer.
struct PatchAnswer {
    long status = 0;
    std::string message;
};
ChangeOutcome outcomeOf(const PatchAnswer& answer);

// Sends the patches (as a dry run: the server checks and changes nothing) and answers each, in
// order. The Kubernetes one is net/label_patch_sender.h; tests bring their own.
using PatchSender = std::function<std::vector<PatchAnswer>(std::span<const NodePatch> patches, bool dryRun)>;

// The server's answer to one object change (objectRequest): as a patch's, and the object's
// resourceVersion after it when it was applied.
struct ObjectAnswer {
    PatchAnswer answer;
    std::string resourceVersion;
};
// Sends one object change (a dry run: the server checks and changes nothing). The Kubernetes one
// is net/label_patch_sender.h's kubeObjectSender.
using ObjectSender = std::function<ObjectAnswer(const ObjectChange& change, bool dryRun)>;

struct ApplyOptions {
    std::size_t batchSize = 200;
    ObjectSender sendObject;                           // needed when the plan changes objects
    bool dryRunOnly = false;                           // stop after the server's dry run
    std::function<bool()> cancelled;                   // asked before each batch
    std::function<void(const ChangeJournal&)> progress; // after each batch, with the journal so far
};

struct ApplyResult {
    enum class Stage {
        DryRunRefused, // the server's dry run refused some patches: nothing was sent for real
        DryRunPassed,  // dryRunOnly, and every patch passed
        Applied,       // every change applied
        Stopped,       // a batch met a refusal or error, or the apply was cancelled
    };
    Stage stage = Stage::DryRunRefused;
    std::vector<std::pair<std::size_t, PatchAnswer>> dryRunRefusals; // index into nodePatches(), answer
    std::vector<std::pair<std::size_t, PatchAnswer>> objectDryRunRefusals; // index into plan.objectChanges
    std::size_t nodes = 0;       // patches: one per node
    std::size_t batchesSent = 0; // for real
    bool cancelled = false;
    ChangeJournal journal;       // every change of the plan (not for a dry run)
};

// `journal` brings the header (plan, cluster, fieldManager, started); its changes are filled in.
// Labels go first, in batches; then the objects one by one, in the plan's order, each stopping
// the apply if it is not applied.
ApplyResult applyPlan(const ChangePlan& plan, ChangeJournal journal, const PatchSender& send,
                      const ApplyOptions& options = {});

// applyPlan with its journal kept in a file, as `topodeckctl apply` and the console keep it:
// written before anything is sent (a plan that cannot leave a record is not applied: the error),
// after every batch and at the end (with `finished`); a journal that cannot be written stops the
// apply before its next batch. A dry run writes none; a refused server dry run removes it, since
// nothing was applied. `options.cancelled` and `options.progress` are kept and called too.
struct JournaledApply {
    ApplyResult result;
    std::string journalProblem; // why the journal could not be written after some batch; else ""
};
Result<JournaledApply> applyPlanJournaled(const ChangePlan& plan, ChangeJournal journal, const std::string& journalFile,
                                          const PatchSender& send, ApplyOptions options);

} // namespace topodeck
