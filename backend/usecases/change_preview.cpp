#include "usecases/change_preview.h"

#include "core/changes/change_journal.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/object_change.h"
#include "core/text/text_file.h"

#include <algorithm>

namespace topodeck {

Result<ChangePlan> changePlanOf(const ClusterState& state, const TopologyIndex& index,
                                const ChangePreviewRequest& request, const std::string& cluster) {
    if (!request.planFile.empty()) return readChangePlanFile(request.planFile);
    if (!request.undoJournal.empty()) {
        auto journal = readChangeJournalFile(request.undoJournal);
        if (!journal) return journal.error();
        return undoPlan(*journal);
    }
    ChangePlan plan = request.plan;
    if (!request.resolve) return plan;
    if (request.relabel) {
        auto generated = relabelOperations(state, index, *request.relabel);
        if (!generated) return generated.error();
        plan.operations = std::move(*generated);
        plan.description = relabelDescription(*request.relabel, index.spec().origin);
    }
    // Every operation again, on the cluster as it is now.
    std::vector<LabelOperation> operations = std::move(plan.operations);
    plan.operations.clear();
    plan.labelChanges.clear();
    plan.cluster = cluster;
    // Its errors name the operation ("operation 2 (nodes a, b): ...").
    if (Status added = addLabelOperations(plan, state, index, std::move(operations)); !added) return added.error();
    // Each object change again, on the objects as they are now.
    std::vector<ObjectChange> objects = std::move(plan.objectChanges);
    plan.objectChanges.clear();
    for (ObjectChange& object : objects) {
        std::optional<ObjectChange> again = objectChangeTo(state, object.kind, object.name, std::move(object.after));
        if (!again) continue;
        again->version = std::move(object.version);
        plan.objectChanges.push_back(std::move(*again));
    }
    return plan;
}

namespace {

// The nodes a plan changes: those whose labels it sets, and the exact node members of the
// HyperNodes it changes (before and after); sorted, once each.
std::vector<NodeId> nodesChangedBy(const ClusterState& state, const ChangePlan& plan) {
    std::vector<NodeId> nodes;
    for (const LabelChange& labelChange : plan.labelChanges)
        if (const std::optional<NodeId> id = state.findNode(labelChange.node);
            id && (nodes.empty() || nodes.back() != *id))
            nodes.push_back(*id);
    for (const ObjectChange& objectChange : plan.objectChanges) {
        if (objectChange.kind != ObjectKind::HyperNode) continue;
        for (const auto* object : {&objectChange.before, &objectChange.after}) {
            if (!*object) continue;
            for (const HyperNodeMember& member : std::get<HyperNode>(**object).members)
                if (member.type == HyperNodeMember::Type::Node && member.selector == HyperNodeMember::Selector::Exact)
                    if (const std::optional<NodeId> id = state.findNode(member.value)) nodes.push_back(*id);
        }
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

} // namespace

ChangePreview previewChangePlan(const ClusterState& state, const TopologyIndex& index, ChangePlan plan,
                                const PreviewExtras& extras) {
    ChangePreview preview;
    const ClusterState after = withPlanApplied(state, plan);
    const TopologyIndex afterIndex =
        TopologyIndex::build(after, specAfterPlan(index.spec(), after, plan), index.gpuResources());
    preview.diff = diffPlanTopology(state, index, after, afterIndex, plan);
    preview.drift = planDrift(state, plan);
    preview.text = planPreviewText(plan, preview.diff, preview.drift, extras.text);
    if (extras.relabel) {
        const std::vector<std::string> misplaced = relabelMismatches(after, index, *extras.relabel);
        preview.relabelFaithful = misplaced.empty();
        preview.relabelCheck = relabelCheckText(misplaced, *extras.relabel, index.spec().origin);
    }
    if (extras.gang) {
        auto runs = gangDryRuns(state, &after, index, index.gpuResources(), *extras.gang);
        if (runs)
            preview.gang = std::move(*runs);
        else
            preview.gangError = runs.error().message;
    }
    preview.nodes = nodesChangedBy(state, plan);
    preview.plan = std::move(plan);
    return preview;
}

ChangePreview previewChange(const ClusterState& state, const TopologyIndex& index, const ChangePreviewRequest& request,
                            const std::string& cluster) {
    const auto failed = [](std::string error) {
        ChangePreview preview;
        preview.error = std::move(error);
        return preview;
    };
    auto plan = changePlanOf(state, index, request, cluster);
    if (!plan) return failed(plan.error().message);
    if (!request.saveTo.empty())
        if (Status written = writeFileAtomically(request.saveTo, writeChangePlan(*plan)); !written)
            return failed(written.error().message);
    PreviewExtras extras;
    extras.gang = request.gang ? &*request.gang : nullptr;
    extras.relabel = request.relabel ? &*request.relabel : nullptr;
    ChangePreview preview = previewChangePlan(state, index, std::move(*plan), extras);
    if (!request.saveTo.empty()) preview.saved = request.saveTo;
    if (request.relabel) preview.text += "\n" + preview.relabelCheck + "\n";
    return preview;
}

} // namespace topodeck
