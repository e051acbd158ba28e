#include "usecases/apply_change.h"

#include "core/changes/object_change.h"
#include "core/live/live_status.h"
#include "core/text/text_format.h"

#include <chrono>

namespace topodeck {
namespace {

constexpr std::size_t kListedAtMost = 20;

// "a" or "a and 2 more": the first of a list, and how many follow.
std::string firstAndMore(const std::vector<std::string>& items) {
    return items.front() + (items.size() > 1 ? " and " + std::to_string(items.size() - 1) + " more" : std::string());
}

} // namespace

ApplyCheck checkApply(const ClusterState& state, const ChangePlan& plan) {
    ApplyCheck check;
    check.drift = planDrift(state, plan);
    if (check.drift.empty() && !plan.objectChanges.empty())
        check.objectProblems = objectChangeProblems(plan.objectChanges, state, withPlanApplied(state, plan));
    return check;
}

std::string ApplyCheck::line(const std::string& target) const {
    if (!drift.empty())
        return target + " no longer holds what the plan found (" + firstAndMore(drift) + "): preview it again";
    if (!objectProblems.empty())
        return "the cluster would refuse the plan's objects (" + firstAndMore(objectProblems) + ")";
    return {};
}

std::string ApplyCheck::text(const std::string& target) const {
    std::string out;
    if (!drift.empty()) {
        out = "refused: " + target + " no longer holds what the plan found, so nothing was sent:\n";
        for (std::size_t i = 0; i < drift.size() && i < kListedAtMost; ++i) out += "  " + drift[i] + "\n";
        if (drift.size() > kListedAtMost)
            out += "  ... and " + std::to_string(drift.size() - kListedAtMost) + " more\n";
        return out + "Plan again against the cluster as it is now, and review it with topodeckctl diff.\n";
    }
    if (!objectProblems.empty()) {
        out = "refused: the target CRDs or their controllers would not take the plan's objects, so nothing was sent:\n";
        for (const std::string& problem : objectProblems) out += "  " + visibleText(problem) + "\n";
    }
    return out;
}

ChangePlan planToSend(const ClusterState& state, ChangePlan plan) {
    takeResourceVersions(plan.objectChanges, state);
    return plan;
}

Result<JournaledApply> runApply(const ChangePlan& plan, const ApplyRun& run) {
    ChangeJournal journal;
    journal.plan = plan.name;
    journal.cluster = run.target;
    journal.fieldManager = run.fieldManager;
    journal.started = formatUtc(std::chrono::system_clock::now());
    ApplyOptions options;
    options.batchSize = run.batchSize;
    options.dryRunOnly = run.dryRunOnly;
    options.sendObject = run.sendObject;
    options.cancelled = run.cancelled;
    options.progress = run.progress;
    return applyPlanJournaled(plan, std::move(journal), run.journalFile, run.sendPatches, std::move(options));
}

std::vector<std::pair<std::string, std::string>> serverRefusals(const ChangePlan& plan, const ApplyResult& result) {
    std::vector<std::pair<std::string, std::string>> refusals;
    const auto said = [](ChangeOutcome outcome, const std::string& message) {
        return std::string(changeOutcomeName(outcome)) + ": " + message;
    };
    const std::vector<NodePatch> patches = nodePatches(plan);
    for (const auto& [index, answer] : result.dryRunRefusals)
        refusals.emplace_back(patches[index].node, said(outcomeOf(answer), answer.message));
    for (const auto& [index, answer] : result.objectDryRunRefusals)
        if (index < plan.objectChanges.size())
            refusals.emplace_back(plan.objectChanges[index].describe(), said(outcomeOf(answer), answer.message));
    const auto refused = [](ChangeOutcome outcome) {
        return outcome != ChangeOutcome::Applied && outcome != ChangeOutcome::NotAttempted;
    };
    for (const JournalChange& entry : result.journal.changes)
        if (refused(entry.outcome) && (refusals.empty() || refusals.back().first != entry.change.node))
            refusals.emplace_back(entry.change.node, said(entry.outcome, entry.message));
    for (const JournalObjectChange& entry : result.journal.objectChanges)
        if (refused(entry.outcome)) refusals.emplace_back(entry.change.describe(), said(entry.outcome, entry.message));
    return refusals;
}

std::string refusalLines(const std::vector<std::pair<std::string, std::string>>& refusals) {
    std::string out;
    for (std::size_t i = 0; i < refusals.size() && i < kListedAtMost; ++i)
        out += "  " + refusals[i].first + ": " + visibleText(refusals[i].second) + "\n";
    if (refusals.size() > kListedAtMost)
        out += "  ... and " + std::to_string(refusals.size() - kListedAtMost) + " more\n";
    return out;
}

} // namespace topodeck
