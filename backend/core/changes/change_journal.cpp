#include "core/changes/change_journal.h"

#include <algorithm>

namespace topodeck {

// The journal's file is written and read in change_plan_file.cpp, beside the plan's.

std::string_view changeOutcomeName(ChangeOutcome outcome) {
    switch (outcome) {
    case ChangeOutcome::Applied: return "applied";
    case ChangeOutcome::Conflict: return "conflict";
    case ChangeOutcome::Forbidden: return "forbidden";
    case ChangeOutcome::Gone: return "gone";
    case ChangeOutcome::Failed: return "failed";
    case ChangeOutcome::NotAttempted: return "not-attempted";
    }
    return "failed";
}

std::size_t ChangeJournal::count(ChangeOutcome outcome) const {
    return static_cast<std::size_t>(
        std::count_if(changes.begin(), changes.end(), [&](const JournalChange& entry) { return entry.outcome == outcome; }));
}

ChangePlan undoPlan(const ChangeJournal& journal) {
    ChangePlan plan;
    plan.name = "undo-" + journal.plan;
    plan.cluster = journal.cluster;
    plan.description = "Puts back the labels that applying " + journal.plan + " changed" +
                       (journal.started.empty() ? std::string() : " at " + journal.started) + ".";
    for (const JournalChange& entry : journal.changes)
        if (entry.outcome == ChangeOutcome::Applied)
            plan.labelChanges.push_back({entry.change.node, entry.change.key, entry.change.after, entry.change.before});
    std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
    return plan;
}

} // namespace topodeck
