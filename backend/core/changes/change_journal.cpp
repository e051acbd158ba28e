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
    const auto is = [&](const auto& entry) { return entry.outcome == outcome; };
    return static_cast<std::size_t>(std::count_if(changes.begin(), changes.end(), is) +
                                    std::count_if(objectChanges.begin(), objectChanges.end(), is));
}

ChangePlan undoPlan(const ChangeJournal& journal) {
    ChangePlan plan;
    plan.name = "undo-" + journal.plan;
    plan.cluster = journal.cluster;
    plan.description = "Puts back what applying " + journal.plan + " changed" +
                       (journal.started.empty() ? std::string() : " at " + journal.started) + ".";
    for (const JournalChange& entry : journal.changes)
        if (entry.outcome == ChangeOutcome::Applied)
            plan.labelChanges.push_back({entry.change.node, entry.change.key, entry.change.after, entry.change.before,
                                         entry.change.annotation});
    std::sort(plan.labelChanges.begin(), plan.labelChanges.end(), labelChangeBefore);
    for (auto entry = journal.objectChanges.rbegin(); entry != journal.objectChanges.rend(); ++entry) {
        if (entry->outcome != ChangeOutcome::Applied) continue;
        ObjectChange reverse = entry->change;
        std::swap(reverse.before, reverse.after);
        reverse.resourceVersion = reverse.before ? entry->resourceVersionAfter : std::string();
        plan.objectChanges.push_back(std::move(reverse));
    }
    return plan;
}

} // namespace topodeck
