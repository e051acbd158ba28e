#pragma once
// The journal of an apply: every label change of the plan with what happened to it on the server,
// written as the apply goes, so that a run cut short still says what it did. Undo is built from
// it: the changes that were applied, reversed, each tested against the value the apply left.

#include "core/changes/change_plan.h"
#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

enum class ChangeOutcome {
    Applied,      // the server took it
    Conflict,     // its precondition failed (422 from the patch's test) or a 409: nothing overwritten
    Forbidden,    // 403: the user may not patch the node
    Gone,         // 404: the node is no longer there
    Failed,       // another answer, or no answer (timeout, connection)
    NotAttempted, // an earlier batch failed, or the apply was cancelled, before its turn
};
std::string_view changeOutcomeName(ChangeOutcome outcome); // "applied", "conflict", ...

struct JournalChange {
    LabelChange change;
    ChangeOutcome outcome = ChangeOutcome::NotAttempted;
    std::string message; // the server's answer when it was not applied
    friend bool operator==(const JournalChange&, const JournalChange&) = default;
};

// One object change of the plan and what the server made of it.
struct JournalObjectChange {
    ObjectChange change;
    ChangeOutcome outcome = ChangeOutcome::NotAttempted;
    std::string message;
    // The object's resourceVersion after the apply (create, update): undo's precondition.
    std::string resourceVersionAfter;
    friend bool operator==(const JournalObjectChange&, const JournalObjectChange&) = default;
};

struct ChangeJournal {
    static constexpr std::string_view kKind = "ChangeJournal";

    std::string plan;         // the plan's name
    std::string cluster;      // where it was applied ("context prod (https://...)")
    std::string fieldManager; // what the server records as the changes' manager
    std::string started;      // RFC 3339, UTC
    std::string finished;     // empty while the apply runs
    std::vector<JournalChange> changes; // in the plan's order
    std::vector<JournalObjectChange> objectChanges; // in the plan's order, after the labels

    // Label and object changes with this outcome.
    std::size_t count(ChangeOutcome outcome) const;
    friend bool operator==(const ChangeJournal&, const ChangeJournal&) = default;
};

// YAML (apiVersion topodeck.io/v1alpha1, kind ChangeJournal), one flow map per change.
std::string writeChangeJournal(const ChangeJournal& journal);
// Errors read "source:line:column: field.path: why", as readChangePlan's.
Result<ChangeJournal> readChangeJournal(std::string_view text, std::string_view source);

// The plan that puts back what the journal's apply changed: its applied changes with before and
// after swapped (objects in reverse order, each guarded by the version the apply left). Changes
// that were not applied are left out; an empty plan undoes nothing.
ChangePlan undoPlan(const ChangeJournal& journal);

} // namespace topodeck
