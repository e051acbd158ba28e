#include "core/changes/plan_apply.h"

#include "core/live/live_status.h"
#include "core/text/text_file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace topodeck {

std::vector<NodePatch> nodePatches(const ChangePlan& plan) {
    std::vector<NodePatch> patches;
    const std::vector<LabelChange>& changes = plan.labelChanges; // sorted by node
    for (std::size_t first = 0; first < changes.size();) {
        std::size_t end = first + 1;
        while (end < changes.size() && changes[end].node == changes[first].node) ++end;
        std::vector<const LabelChange*> ofNode;
        for (std::size_t i = first; i < end; ++i) ofNode.push_back(&changes[i]);
        patches.push_back({changes[first].node, labelPatchJson(ofNode), first, end - first});
        first = end;
    }
    return patches;
}

ChangeOutcome outcomeOf(const PatchAnswer& answer) {
    if (answer.status >= 200 && answer.status < 300) return ChangeOutcome::Applied;
    switch (answer.status) {
    case 409: // the object changed under the request
    case 422: // a JSON Patch test failed: the label no longer holds the value the plan found
        return ChangeOutcome::Conflict;
    case 403: return ChangeOutcome::Forbidden;
    case 404: return ChangeOutcome::Gone;
    default: return ChangeOutcome::Failed;
    }
}

namespace {

ObjectAnswer sendObject(const ApplyOptions& options, const ObjectChange& change, bool dryRun) {
    if (!options.sendObject) return {{0, "topodeck cannot send objects to this cluster"}, {}};
    return options.sendObject(change, dryRun);
}

// Every change of the plan, none attempted yet.
void startJournal(ChangeJournal& journal, const ChangePlan& plan) {
    journal.changes.clear();
    for (const LabelChange& change : plan.labelChanges)
        journal.changes.push_back({change, ChangeOutcome::NotAttempted, {}});
    journal.objectChanges.clear();
    for (const ObjectChange& change : plan.objectChanges)
        journal.objectChanges.push_back({change, ChangeOutcome::NotAttempted, {}, {}});
}

} // namespace

ApplyResult applyPlan(const ChangePlan& plan, ChangeJournal journal, const PatchSender& send,
                      const ApplyOptions& options) {
    ApplyResult result;
    const std::vector<NodePatch> patches = nodePatches(plan);
    result.nodes = patches.size();

    const std::vector<PatchAnswer> dryRun = patches.empty() ? std::vector<PatchAnswer>() : send(patches, true);
    for (std::size_t i = 0; i < patches.size(); ++i) {
        const PatchAnswer answer = i < dryRun.size() ? dryRun[i] : PatchAnswer{0, "no answer"};
        if (outcomeOf(answer) != ChangeOutcome::Applied) result.dryRunRefusals.emplace_back(i, answer);
    }
    for (std::size_t i = 0; i < plan.objectChanges.size(); ++i)
        if (const ObjectAnswer answer = sendObject(options, plan.objectChanges[i], true);
            outcomeOf(answer.answer) != ChangeOutcome::Applied)
            result.objectDryRunRefusals.emplace_back(i, answer.answer);
    if (!result.dryRunRefusals.empty() || !result.objectDryRunRefusals.empty()) return result;
    if (options.dryRunOnly) {
        result.stage = ApplyResult::Stage::DryRunPassed;
        return result;
    }

    startJournal(journal, plan);
    result.stage = ApplyResult::Stage::Applied;
    const std::size_t batchSize = std::max<std::size_t>(1, options.batchSize);
    for (std::size_t first = 0; first < patches.size(); first += batchSize) {
        if (options.cancelled && options.cancelled()) {
            result.cancelled = true;
            result.stage = ApplyResult::Stage::Stopped;
            break;
        }
        const std::span<const NodePatch> batch(patches.data() + first, std::min(batchSize, patches.size() - first));
        const std::vector<PatchAnswer> answers = send(batch, false);
        ++result.batchesSent;
        bool stop = false;
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const PatchAnswer answer = i < answers.size() ? answers[i] : PatchAnswer{0, "no answer"};
            const ChangeOutcome outcome = outcomeOf(answer);
            stop = stop || outcome != ChangeOutcome::Applied;
            for (std::size_t c = batch[i].firstChange; c < batch[i].firstChange + batch[i].changeCount; ++c) {
                journal.changes[c].outcome = outcome;
                journal.changes[c].message = outcome == ChangeOutcome::Applied ? std::string() : answer.message;
            }
        }
        if (options.progress) options.progress(journal);
        if (stop) {
            result.stage = ApplyResult::Stage::Stopped;
            break;
        }
    }
    for (std::size_t i = 0; i < plan.objectChanges.size() && result.stage == ApplyResult::Stage::Applied; ++i) {
        if (options.cancelled && options.cancelled()) {
            result.cancelled = true;
            result.stage = ApplyResult::Stage::Stopped;
            break;
        }
        const ObjectAnswer answer = sendObject(options, plan.objectChanges[i], false);
        ++result.batchesSent;
        JournalObjectChange& entry = journal.objectChanges[i];
        entry.outcome = outcomeOf(answer.answer);
        entry.message = entry.outcome == ChangeOutcome::Applied ? std::string() : answer.answer.message;
        entry.resourceVersionAfter = answer.resourceVersion;
        if (options.progress) options.progress(journal);
        if (entry.outcome != ChangeOutcome::Applied) result.stage = ApplyResult::Stage::Stopped;
    }
    result.journal = std::move(journal);
    return result;
}

Result<JournaledApply> applyPlanJournaled(const ChangePlan& plan, ChangeJournal journal, const std::string& journalFile,
                                          const PatchSender& send, ApplyOptions options) {
    const bool recorded = !options.dryRunOnly;
    if (recorded) {
        startJournal(journal, plan);
        if (Status written = writeFileAtomically(journalFile, writeChangeJournal(journal)); !written)
            return Error{written.error().message + " (the journal: nothing was sent)"};
    }
    JournaledApply out;
    const auto progress = options.progress;
    const auto cancelled = options.cancelled;
    options.progress = [&](const ChangeJournal& sofar) {
        if (Status written = writeFileAtomically(journalFile, writeChangeJournal(sofar)); !written)
            out.journalProblem = written.error().message;
        if (progress) progress(sofar);
    };
    // No record, no further writes.
    options.cancelled = [&] { return !out.journalProblem.empty() || (cancelled && cancelled()); };
    out.result = applyPlan(plan, journal, send, options);
    if (out.result.stage == ApplyResult::Stage::DryRunRefused && recorded) {
        std::error_code ignored;
        std::filesystem::remove(journalFile, ignored);
    } else if (recorded) {
        out.result.journal.finished = formatUtc(std::chrono::system_clock::now());
        options.progress(out.result.journal);
    }
    return out;
}

} // namespace topodeck
