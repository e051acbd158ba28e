#pragma once
// A change plan as a file to review, keep and apply later: YAML, `apiVersion: topodeck.io/v1alpha1`,
// `kind: ChangePlan`. The operations say what was asked; `labelChanges` say, node by node, what
// each label was when planned (its precondition) and what it becomes.
//
//   apiVersion: topodeck.io/v1alpha1
//   kind: ChangePlan
//   metadata: {name: "move-rack-3", cluster: "context prod", description: "..."}
//   spec:
//     operations:
//     - {nodes: ["n1"], selector: "rack=r3", domain: "su-1/rack-3", set: {"k": "v"}, remove: ["old"]}
//     labelChanges:
//     - {node: "n1", key: "k", before: "x", after: "v"}   # before/after left out: absent

#include "core/changes/change_journal.h"
#include "core/changes/change_plan.h"
#include "core/result.h"

#include <string>
#include <string_view>

namespace topodeck {

std::string writeChangePlan(const ChangePlan& plan);

// Reads what writeChangePlan writes (and the same by hand). Errors name the place and the field:
// "plan.yaml:9:7: spec.labelChanges[2].key: invalid label key ...". Label keys and values are
// checked as the API server checks them, and a plan naming one node and key twice is refused.
Result<ChangePlan> readChangePlan(std::string_view text, std::string_view source);

// The same from files (errors name the file, the place and the field); the journal's reader is
// change_journal.h's readChangeJournal.
Result<ChangePlan> readChangePlanFile(const std::string& path);
Result<ChangeJournal> readChangeJournalFile(const std::string& path);

} // namespace topodeck
