#include "core/placement/reports/review_bundle.h"

#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
#include "core/changes/topology_diff.h"
#include "core/exports/map_svg.h"
#include "core/placement/reports/placement_report.h"
#include "core/placement/requests/gang_export.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <memory>
#include <set>

namespace topodeck {

namespace {

constexpr std::size_t kListed = 12; // names per list in the README; the rest are counted

// "a, b, c and 9 more", names in code spans.
std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < kListed; ++i) out += (i ? ", `" : "`") + names[i] + '`';
    if (names.size() > kListed) out += " and " + std::to_string(names.size() - kListed) + " more";
    return out;
}

// A Markdown table cell: no pipes or line breaks.
std::string cell(std::string text, std::size_t limit = 160) {
    for (char& c : text)
        if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
    if (text.size() > limit) text = text.substr(0, limit - 1) + "…";
    return text;
}

// The gang as each scheduler's manifest; one a scheduler cannot take is left out, with why.
void gangFiles(const GangRequest& gang, const TopologySpec& spec, const GpuResources& gpus, bool blocks,
               ReviewBundle& bundle, std::vector<std::pair<std::string, std::string>>& described) {
    const GangWorkload kubeKind = gang.heterogeneous() ? GangWorkload::JobSet : GangWorkload::Job;
    const GangWorkload kaiKind = gang.kai.segmentSize > 0 ? GangWorkload::PyTorchJob : kubeKind;
    struct Choice {
        const char* name;
        GangScheduler scheduler;
        GangWorkload workload;
        const char* what;
    };
    const Choice choices[] = {
        {"gang-kueue.yaml", GangScheduler::Kueue, kubeKind, "the gang for Kueue (podset topology annotations)"},
        {"gang-kai.yaml", GangScheduler::Kai, kaiKind, "the gang for KAI (kai.scheduler/topology-* annotations)"},
        {"gang-volcano.yaml", GangScheduler::Volcano, GangWorkload::VolcanoJob,
         "the gang as a Volcano Job (networkTopology)"},
    };
    for (const Choice& choice : choices) {
        GangExportOptions options;
        options.scheduler = choice.scheduler;
        options.workload = choice.workload;
        auto text = gangManifestYaml(gang, spec, options);
        if (!text) {
            bundle.warnings.push_back(std::string(choice.name) + " left out: " + text.error().message);
            continue;
        }
        bundle.files.push_back({choice.name, std::move(*text)});
        described.emplace_back(choice.name, choice.what);
    }
    auto script = gangBatchScript(gang, spec, gpus, blocks);
    if (!script) {
        bundle.warnings.push_back("gang.sbatch left out: " + script.error().message);
        return;
    }
    bundle.files.push_back({"gang.sbatch", std::move(*script)});
    described.emplace_back("gang.sbatch", "the gang as an sbatch script (what Slurm cannot be asked is in comments)");
}

// The objects a plan creates or updates as manifests for kubectl, its deletions as comments.
std::string objectChangesForKubectl(const ChangePlan& plan) {
    std::string out = "# The plan's objects, in order: kubectl apply -f objects.yaml\n";
    for (const ObjectChange& change : plan.objectChanges) {
        if (!change.after) {
            out += "# then: kubectl delete " + std::string(objectPlural(change.kind)) + "." +
                   std::string(objectGroup(change.kind)) + " " + change.name + "\n";
            continue;
        }
        TopologyObject object = *change.after;
        std::visit([&](auto& o) { o.resourceVersion = change.resourceVersion; }, object);
        out += "---\n" + objectManifestYaml(change.kind, change.version, object, {}, true);
    }
    return out;
}

void writeChangeSection(std::string& out, const ChangePlan& plan, const std::vector<std::string>& drift) {
    std::set<std::string> nodes;
    for (const LabelChange& change : plan.labelChanges) nodes.insert(change.node);
    out += "## What it changes\n\n" + plural(plan.labelChanges.size(), "label change", "label changes") + " on " +
           plural(nodes.size(), "node", "nodes") + ", asked as:\n\n";
    for (const LabelOperation& operation : plan.operations) {
        std::string edits;
        for (const LabelEdit& edit : operation.edits)
            edits += (edits.empty() ? "`" : ", `") + edit.key + (edit.value ? '=' + *edit.value : "-") + '`';
        out += "- " + edits + " on " + operation.target.describe() + '\n';
    }
    if (!plan.objectChanges.empty()) {
        out += "\nand " + plural(plan.objectChanges.size(), "object change", "object changes") +
               ", applied after the labels in this order (`objects.yaml`, `preview.txt` has each one's diff):\n\n";
        for (const ObjectChange& change : plan.objectChanges)
            out +=
                "- " + change.describe() +
                (change.resourceVersion.empty() ? std::string() : " (resourceVersion " + change.resourceVersion + ")") +
                '\n';
    }
    out += '\n';
    if (drift.empty()) {
        out += "The cluster still holds every value the plan found, so it applies as planned.\n\n";
    } else {
        out += "**The cluster has drifted** since the plan was made: an apply would refuse it until it is made "
               "again.\n\n";
        std::vector<std::string> shown(drift.begin(), drift.begin() + std::ptrdiff_t(std::min(drift.size(), kListed)));
        for (const std::string& line : shown) out += "- " + line + '\n';
        if (drift.size() > kListed) out += "- and " + std::to_string(drift.size() - kListed) + " more\n";
        out += '\n';
    }
}

void writeImpactSection(std::string& out, const TopologyDiff& diff) {
    out += "## Impact on the hierarchy\n\n";
    if (diff.empty()) out += "None: every node stays in its domain and every domain keeps its GPUs.\n\n";
    auto line = [&](const std::vector<std::string>& names, std::string_view what) {
        if (!names.empty())
            out += "- " + plural(names.size(), "domain", "domains") + ' ' + std::string(what) + ": " + listed(names) +
                   '\n';
    };
    line(diff.domainsAdded, "added");
    line(diff.domainsRemoved, "removed");
    line(diff.domainsSplit, "split");
    line(diff.domainsMerged, "merged");
    if (!diff.moved.empty()) {
        std::vector<std::string> moves;
        for (const TopologyDiff::Move& move : diff.moved)
            moves.push_back(move.node + ": " + move.from + " → " + move.to);
        out += "- " + plural(diff.moved.size(), "node moves", "nodes move") + ": " + listed(moves) + '\n';
    }
    if (!diff.leftLevelCapacity.empty())
        out += "- " + plural(diff.leftLevelCapacity.size(), "node loses", "nodes lose") +
               " a level label and so leaves Kueue TAS capacity: " + listed(diff.leftLevelCapacity) + '\n';
    if (!diff.joinedLevelCapacity.empty())
        out += "- " + plural(diff.joinedLevelCapacity.size(), "node joins", "nodes join") +
               " Kueue TAS capacity: " + listed(diff.joinedLevelCapacity) + '\n';
    if (!diff.capacity.empty()) {
        out += "\n| domain | GPUs before | GPUs after | nodes before | nodes after |\n|---|---:|---:|---:|---:|\n";
        for (std::size_t i = 0; i < diff.capacity.size() && i < 2 * kListed; ++i) {
            const TopologyDiff::Capacity& c = diff.capacity[i];
            out += "| `" + cell(c.domain) + "` | " + std::to_string(c.gpusBefore) + " | " +
                   std::to_string(c.gpusAfter) + " | " + std::to_string(c.nodesBefore) + " | " +
                   std::to_string(c.nodesAfter) + " |\n";
        }
        if (diff.capacity.size() > 2 * kListed)
            out += "\nand " + std::to_string(diff.capacity.size() - 2 * kListed) + " more domains (preview.txt).\n";
    }
    out += '\n';
}

void writeRiskSection(std::string& out, const TopologyDiff& diff) {
    out += "## Risks\n\n";
    for (const std::string& problem : diff.objectProblems)
        out += "- **Refused before sending**: " + problem +
               ". topodeckctl apply will not send the plan until it is fixed.\n";
    for (const std::string& risk : diff.objectRisks) out += "- " + risk + '\n';
    if (diff.stranded.empty() && diff.nvlinkSplit.empty() && diff.ownedElsewhere.empty()) {
        if (!diff.objectProblems.empty() || !diff.objectRisks.empty()) out += '\n';
        out += "None found: no running workload's nodeSelector or node affinity stops matching its node, no NVLink "
               "domain is split "
               "across racks, and no label it changes is owned by another field manager.\n\n";
        return;
    }
    for (const TopologyDiff::Stranded& stranded : diff.stranded)
        out += "- **Strands `" + stranded.workload + "`** (" + plural(stranded.pods, "pod", "pods") +
               "): " + stranded.example + ". A pod that restarts cannot come back where it ran.\n";
    if (!diff.nvlinkSplit.empty())
        out += "- " + plural(diff.nvlinkSplit.size(), "NVLink domain is", "NVLink domains are") +
               " split across racks: " + listed(diff.nvlinkSplit) + '\n';
    for (const TopologyDiff::OwnedElsewhere& owned : diff.ownedElsewhere)
        out += "- **`" + owned.key + "` is managed by `" + owned.manager + "`** on " +
               plural(owned.nodes, "node", "nodes") + " (`" + owned.example + "`" + (owned.nodes > 1 ? ", ..." : "") +
               "): that controller is likely to put it back; change it at its source.\n";
    out += '\n';
}

void writeDryRunSection(std::string& out, const GangDryRuns& runs, bool withPlan) {
    out += "## The gang " + std::string(withPlan ? "before and after" : "now") + "\n\n`" + runs.gang.name +
           "`: " + describeGang(runs.gang) + ", as every scheduler that applies would place it" +
           (withPlan ? " on the cluster as it is and with the plan applied" : "") + ".\n\n";
    out += withPlan ? "| engine | before | after |\n|---|---|---|\n" : "| engine | now |\n|---|---|\n";
    for (const PlacementResult& result : runs.before) {
        out += "| " + result.engine + " | " + cell(placementVerdict(&result, true));
        if (withPlan) out += " | " + cell(placementVerdict(runs.afterOf(result.engine), true));
        out += " |\n";
    }
    for (const auto& [engine, why] : runs.skipped)
        out += "| " + engine + " | not run: " + cell(why) + (withPlan ? " | |\n" : " |\n");
    out += '\n';
}

std::vector<bool> nodesOf(const ClusterState& state, const ChangePlan& plan) {
    std::vector<bool> marked(state.nodeSlots(), false);
    for (const LabelChange& change : plan.labelChanges)
        if (const std::optional<NodeId> id = state.findNode(change.node)) marked[*id] = true;
    return marked;
}

} // namespace

Result<ReviewBundle> reviewBundle(const ClusterState& state, const TopologyIndex& index,
                                  const ReviewBundleRequest& request) {
    ReviewBundle bundle;
    std::vector<std::pair<std::string, std::string>> described;
    const ChangePlan* plan = request.plan;
    // The hierarchy after the change is what the schedulers' objects must describe.
    const ClusterState after = plan ? withPlanApplied(state, *plan) : ClusterState();
    const ClusterState& target = plan ? after : state;
    const TopologyIndex afterIndex =
        plan ? TopologyIndex::build(after, specAfterPlan(index.spec(), after, *plan), request.gpus) : TopologyIndex();
    const TopologyIndex& targetIndex = plan ? afterIndex : index;

    std::optional<GangDryRuns> runs;
    if (request.dryRun) {
        auto ran = gangDryRuns(state, plan ? &after : nullptr, index, request.gpus, *request.dryRun);
        if (!ran) return ran.error();
        runs = std::move(*ran);
    }

    std::string readme = "# Review: " +
                         (plan ? (plan->name.empty() ? std::string("change plan") : plan->name)
                               : std::string("the hierarchy of ") + request.source) +
                         "\n\n";
    readme += "Read from " + request.source + " in the hierarchy " + describeTopology(index.spec()) + '.';
    if (plan && !plan->cluster.empty()) readme += " The plan was made on " + plan->cluster + '.';
    readme += "\n\n";
    if (plan && !plan->description.empty()) readme += plan->description + "\n\n";

    TopologyDiff diff;
    if (plan) {
        diff = diffPlanTopology(state, index, after, afterIndex, *plan);
        const std::vector<std::string> drift = planDrift(state, *plan);
        writeChangeSection(readme, *plan, drift);
        writeImpactSection(readme, diff);
        writeRiskSection(readme, diff);
        PlanPreviewOptions preview;
        preview.maxGroups = 1000;
        preview.maxListed = 1000;
        bundle.files.push_back({"change-plan.yaml", writeChangePlan(*plan)});
        described.emplace_back("change-plan.yaml", "the change plan, with the value each label had when planned");
        bundle.files.push_back({"preview.txt", planPreviewText(*plan, diff, drift, preview)});
        described.emplace_back("preview.txt", "`topodeckctl diff` of the plan: every node's changes");
        const NodeLabelsExport labels = nodeLabelsExport(state, index, plan);
        bundle.files.push_back({"node-labels.yaml", labels.objects});
        described.emplace_back(
            "node-labels.yaml",
            "the labels it sets, as partial Nodes for `kubectl apply --server-side --force-conflicts`");
        bundle.files.push_back({"kubectl-label.sh", labels.kubectlLines});
        described.emplace_back("kubectl-label.sh", "every change (removals too) as `kubectl label --overwrite` lines");
        if (!plan->objectChanges.empty()) {
            bundle.files.push_back({"objects.yaml", objectChangesForKubectl(*plan)});
            described.emplace_back("objects.yaml",
                                   "the objects it creates and updates, for `kubectl apply -f` (updates carry the "
                                   "resourceVersion found, so an object changed since is refused); deletions as "
                                   "`kubectl delete` lines in comments");
        }
    }
    if (runs) writeDryRunSection(readme, *runs, plan != nullptr);

    TopologyExportFiles exports = topologyExportFiles(target, targetIndex, request.exports);
    for (ExportFile& file : exports.files) {
        static const std::pair<const char*, const char*> meanings[] = {
            {"kueue-topology.yaml", "Kueue Topology and ResourceFlavor"},
            {"kai-topology.yaml", "KAI Topology"},
            {"hypernodes.yaml", "Volcano HyperNodes"},
            {"topology.conf", "Slurm topology.conf"},
            {"topology.yaml", "Slurm topology.yaml (25.05)"},
        };
        for (const auto& [name, meaning] : meanings)
            if (file.name == name)
                described.emplace_back(name,
                                       std::string(meaning) + " of the hierarchy" + (plan ? " after the change" : ""));
        bundle.files.push_back(std::move(file));
    }
    bundle.warnings.insert(bundle.warnings.end(), exports.leftOut.begin(), exports.leftOut.end());
    if (runs) gangFiles(runs->gang, index.spec(), request.gpus, request.exports.blocks, bundle, described);

    MapSvgOptions map;
    map.title = plan ? "Before: " + request.source : "Now: " + request.source;
    if (plan) {
        map.marked = nodesOf(state, *plan);
        map.markedMeaning = "labels the plan changes";
        bundle.files.push_back({"map-before.svg", topologyMapSvg(state, index, map)});
        map.title = "After: " + (plan->name.empty() ? std::string("the change plan") : plan->name) + " applied";
        bundle.files.push_back({"map-after.svg", topologyMapSvg(after, afterIndex, map)});
        readme += "## Maps\n\nBefore and after, the nodes whose labels change outlined:\n\n"
                  "![before](map-before.svg)\n\n![after](map-after.svg)\n\n";
        described.emplace_back("map-before.svg, map-after.svg", "the occupancy map before and after");
    } else {
        bundle.files.push_back({"map.svg", topologyMapSvg(state, index, map)});
        readme += "## Map\n\n![map](map.svg)\n\n";
        described.emplace_back("map.svg", "the occupancy map");
    }

    if (plan) {
        readme += "## How to apply\n\n"
                  "With topodeck, which checks every label still holds the value the plan found and keeps a "
                  "journal to undo from:\n\n"
                  "```sh\ntopodeckctl diff -f change-plan.yaml --context CONTEXT\n"
                  "topodeckctl apply -f change-plan.yaml --context CONTEXT --dry-run=server\n"
                  "topodeckctl apply -f change-plan.yaml --context CONTEXT\n"
                  "topodeckctl undo change-plan.journal.yaml --context CONTEXT   # previews; --yes applies\n```\n\n"
                  "With kubectl alone (no preconditions: check `preview.txt` against the cluster first):\n\n"
                  "```sh\nsh kubectl-label.sh\n```\n\n";
    }
    readme += "## Files\n\n| file | what |\n|---|---|\n";
    for (const auto& [name, what] : described) readme += "| " + name + " | " + what + " |\n";
    if (!bundle.warnings.empty()) {
        readme += "\nLeft out:\n\n";
        for (const std::string& warning : bundle.warnings) readme += "- " + warning + '\n';
    }
    bundle.files.insert(bundle.files.begin(), ExportFile{"README.md", std::move(readme)});
    return bundle;
}

const PlacementResult* GangDryRuns::afterOf(const std::string& engine) const {
    for (const PlacementResult& result : after)
        if (result.engine == engine) return &result;
    return nullptr;
}

std::string placementVerdict(const PlacementResult* result, bool markdown) {
    const auto code = [markdown](const std::string& name) { return markdown ? '`' + name + '`' : name; };
    if (!result) return "not run";
    if (result->invalidRequest) return "cannot ask: " + result->message;
    if (!result->feasible) return (markdown ? "**does not fit**: " : "does not fit: ") + result->message;
    std::string out = "fits on " + plural(result->nodes.size(), "node", "nodes");
    // The domains the engine settled on, top level first, as plan prints them.
    for (std::size_t i = 0; i < result->chosen.size() && i < 3; ++i)
        out += std::string(i ? ", " : ": ") + result->chosen[i].level + ' ' + code(result->chosen[i].domain);
    if (result->chosen.size() > 3) out += " and " + std::to_string(result->chosen.size() - 3) + " more";
    return out;
}

Result<GangDryRuns> gangDryRuns(const ClusterState& before, const ClusterState* after, const TopologyIndex& index,
                                const GpuResources& gpus, PlanQuery query) {
    if (query.engines.empty()) query.compare = true;
    const auto run = [&](const ClusterState& state) -> Result<PlanOutcome> {
        auto inputs = preparePlan(state, index.spec(), gpus, query);
        if (!inputs) return inputs.error();
        return runPlanQuery(**inputs, query);
    };
    auto first = run(before);
    if (!first) return first.error();
    GangDryRuns runs{std::move(first->gang), std::move(first->results), {}, std::move(first->skipped)};
    if (after) {
        auto second = run(*after);
        if (!second) return second.error();
        runs.after = std::move(second->results);
    }
    return runs;
}

} // namespace topodeck
