#pragma once
// The change-plan preview, once for every front-end: a plan made or read, resolved on a cluster
// state, and what it does there (topology diff, drift, risks, the text `topodeckctl diff`
// prints, a gang before and after). `topodeckctl label`, `diff`, `apply` and `undo`, the console's
// Changes page and (later) the daemon all call these.

#include "core/changes/change_plan.h"
#include "core/changes/plan_preview.h"
#include "core/changes/relabel_plan.h"
#include "core/changes/topology_diff.h"
#include "core/model/cluster_state.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/reports/review_bundle.h"
#include "core/result.h"
#include "core/topology/topology_index.h"

#include <optional>
#include <string>
#include <vector>

namespace topodeck {

// A change plan to preview against a state: given, read from a file, or the undo of a journal.
struct ChangePreviewRequest {
    ChangePlan plan;
    // Resolve the plan's operations again on the state, new preconditions and all (a plan being
    // made); otherwise the plan keeps the values it found (a file's, an undo's).
    bool resolve = true;
    std::string planFile;          // read the plan from this file instead (not resolved); "" none
    std::string undoJournal;       // or preview the plan that undoes this journal's apply; "" none
    std::string saveTo;            // also write the plan there; "" none
    std::optional<PlanQuery> gang; // dry-run before and after
    // The plan's operations made by the relabel generator on the hierarchy shown (then resolved).
    std::optional<RelabelRequest> relabel;
    // plan.objectChanges (HyperNodes, Topologies, ResourceFlavors) go with the labels or alone;
    // resolved, each is planned again on the state (objectChangeTo of its `after`): its
    // precondition the object as it is now, dropped when the object already is what it asks.
};

struct ChangePreview {
    std::string error; // the plan does not read, resolve or save: nothing else is set
    std::string saved; // the file written, if asked
    ChangePlan plan;   // as resolved
    TopologyDiff diff;
    std::vector<std::string> drift; // planDrift: what an apply now would refuse
    std::string text;               // what `topodeckctl diff` prints
    std::optional<GangDryRuns> gang;
    std::string gangError;    // the gang's request is wrong; else ""
    std::string relabelCheck; // for a relabel: whether its labels, read as levels, give the same tree
    bool relabelFaithful = true;
    std::vector<NodeId> nodes; // the nodes it changes (labels, HyperNode members), for the map
    std::string target;        // where an apply goes ("context prod"); "" when it cannot
    std::string cannotApply;   // why this source takes no apply ("a demo"), else ""
};

// The plan a request names, on this state: read from its file, the undo of its journal, or its
// operations and object changes resolved again here (cluster: the plan's cluster field).
Result<ChangePlan> changePlanOf(const ClusterState& state, const TopologyIndex& index,
                                const ChangePreviewRequest& request, const std::string& cluster);

// What else a preview shows besides the plan's effect.
struct PreviewExtras {
    const PlanQuery* gang = nullptr;         // the gang, dry-run before and after
    const RelabelRequest* relabel = nullptr; // the relabel the plan came from, checked
    PlanPreviewOptions text;                 // colour, for a terminal
};
// The plan seen against the state: diff, drift, text, the relabel check, the gang, the nodes.
ChangePreview previewChangePlan(const ClusterState& state, const TopologyIndex& index, ChangePlan plan,
                                const PreviewExtras& extras = {});

// changePlanOf, the plan saved where asked, then previewChangePlan; errors in `error`.
ChangePreview previewChange(const ClusterState& state, const TopologyIndex& index, const ChangePreviewRequest& request,
                            const std::string& cluster);

} // namespace topodeck
