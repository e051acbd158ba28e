#include "label_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
#include "core/changes/relabel_plan.h"
#include "core/changes/topology_diff.h"
#include "core/text_file.h"

#include <cstdio>
#include <variant>

namespace topodeck::cli {
namespace {

struct LabelSettings {
    ClusterSource source;
    HierarchyChoice hierarchy;
    LabelOperation operation;
    std::string output; // the plan file; empty: stdout
    std::string name;
    bool colour = false;
};

// kubectl label's positionals: "key=value" and "key-" are edits, the rest node names (a node's
// name cannot end with '-').
bool isEdit(const std::string& word) {
    return word.find('=') != std::string::npos || word.ends_with('-');
}

// -o PLAN: a file, or stdout for none or "-".
Result<std::string> planOutputFrom(const ParsedArgs& args) {
    const std::string* output = args.value("output");
    if (!output || *output == "-") return std::string();
    if (output->empty()) return Error{"-o needs a file name, or - for stdout"};
    return *output;
}

Result<LabelSettings> settingsFrom(const ParsedArgs& args) {
    LabelSettings s;
    auto source = ClusterSource::fromArgs(args);
    if (!source) return source.error();
    s.source = std::move(*source);
    auto hierarchy = hierarchyChoiceFromArgs(args);
    if (!hierarchy) return hierarchy.error();
    s.hierarchy = std::move(*hierarchy);
    std::vector<std::string> edits;
    for (const std::string& word : args.positionals())
        (isEdit(word) ? edits : s.operation.target.nodes).push_back(word);
    if (const std::string* selector = args.value("selector")) s.operation.target.selector = *selector;
    if (const std::string* domain = args.value("domain")) s.operation.target.domain = *domain;
    if (s.operation.target.empty()) return Error{"name the nodes: NODE..., -l SELECTOR or --domain PATH"};
    auto parsed = parseLabelEdits(edits);
    if (!parsed) return parsed.error();
    s.operation.edits = std::move(*parsed);
    auto output = planOutputFrom(args);
    if (!output) return output.error();
    s.output = std::move(*output);
    s.name = args.value("name") ? *args.value("name") : std::string("label");
    s.colour = stdoutIsTerminal() && !noColorRequested();
    return s;
}

} // namespace

const CommandSpec& labelCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "label";
        s.summary = "Plan node-label changes (kubectl label's syntax) and preview what they do";
        s.description = "Writes a change plan instead of changing the cluster: for every node named and every label,\n"
                        "the value it has now (the plan's precondition: applying it later refuses a label that has\n"
                        "changed since) and the value it gets. The preview says what the change does to the\n"
                        "hierarchy: domains added, removed, split or merged, nodes that move, nodes that lose a level\n"
                        "label and so leave Kueue TAS capacity, NVLink domains that end up across racks, and GPUs per\n"
                        "domain before and after. key=value sets a label, key- removes it.";
        s.usage = "topodeckctl label (NODE... | -l SELECTOR | --domain PATH) KEY=VALUE... KEY-... \n"
                  "                   (--demo NAME | -f FILE | --context NAME | ...) [-o PLAN]";
        s.examples =
            "  # Move a rack of the demo to a new rack label value, and keep the plan\n"
            "  topodeckctl label --demo gb200 --domain su-1/rack-1-03 fabric.topograph.run/tier-0=rack-1-03b \\\n"
            "      -o move-rack.yaml\n"
            "  # Rename a label key: set the new one, remove the old, on every node that has it\n"
            "  topodeckctl label --context prod -l network.topology.nvidia.com/spine \\\n"
            "      fabric.topograph.run/tier-2=... network.topology.nvidia.com/spine-\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(
            s.flags.end(),
            {
                {"selector", 'l', "SELECTOR", "the nodes a label selector matches (kubectl's syntax)"},
                {"domain", 0, "PATH", "every node under a domain of the hierarchy (su-1/rack-1-03)"},
                {"output", 'o', "PLAN", "write the plan to this file (default: stdout, the preview on stderr)"},
                {"name", 0, "NAME", "the plan's name (default: label)"},
                gpuResourcesFlag(),
            });
        return s;
    }();
    return spec;
}

namespace {

// The plan to its file (or stdout) and its preview, then `note`, to the terminal (or stderr), as
// label and relabel both write them.
int writePlanWithPreview(const ChangePlan& plan, const ClusterState& state, const TopologyIndex& before,
                         const std::string& output, bool colour, const std::string& note = {}) {
    const TopologyDiff diff = diffPlanTopology(state, before, plan);
    const std::string text = writeChangePlan(plan);
    PlanPreviewOptions preview;
    if (output.empty()) {
        writeStdout(text);
        std::fputs((planPreviewText(plan, diff, {}, preview) + note).c_str(), stderr);
        return kExitOk;
    }
    if (Status written = writeFileAtomically(output, text); !written) return runtimeError(written.error().message);
    preview.colour = colour;
    writeStdout(planPreviewText(plan, diff, {}, preview) + note + "\nPlan written to " + output + "\n");
    return kExitOk;
}

} // namespace

int runLabelCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(labelCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    auto settings = settingsFrom(std::get<ParsedArgs>(parsed));
    if (!settings) return usageError(settings.error().message);
    auto cluster = loadIndexedCluster(settings->source, settings->hierarchy);
    if (const int* exitCode = std::get_if<int>(&cluster)) return *exitCode;
    const LoadedCluster& loaded = *std::get<IndexedCluster>(cluster).loaded;
    const TopologyIndex& before = std::get<IndexedCluster>(cluster).index;

    ChangePlan plan;
    plan.name = settings->name;
    plan.cluster = settings->source.describe(loaded.demo, false, loaded.live.get());
    if (Status added = addLabelOperation(plan, loaded.state, before, settings->operation); !added)
        return usageError(added.error().message);
    return writePlanWithPreview(plan, loaded.state, before, settings->output, settings->colour);
}

const CommandSpec& relabelCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "relabel";
        s.summary = "Plan labels that say where each node sits, from any hierarchy, and preview them";
        s.description =
            "Writes a change plan that labels every node with the domains it sits in under the hierarchy\n"
            "the other flags choose (a topology.conf or topology.yaml with --slurm-topology, the cluster's\n"
            "HyperNodes, a Kueue or KAI Topology with --topology, label keys with --levels), one key per\n"
            "level, top level first: what Kueue TAS and KAI need, since they read only node labels. A node\n"
            "outside a level (in no switch, in no HyperNode) loses that level's key. --remove takes the\n"
            "keys of an old scheme off in the same plan (KEY, or a prefix ending in *), so that no stale\n"
            "higher-tier label is left behind. Only labels that change are in the plan; each keeps the\n"
            "value found, as its precondition.";
        s.usage = "topodeckctl relabel --to KEY,... [--remove KEY|PREFIX*,...]\n"
                  "                     (--demo NAME | -f FILE | --context NAME | ...) [hierarchy flags] [-o PLAN]";
        s.examples =
            "  # Label a node list from the topology.conf that places it (leaf, spine, core)\n"
            "  topodeckctl relabel -f nodes.yaml --slurm-topology topology.conf \\\n"
            "      --to example.com/core,example.com/spine,example.com/leaf -o from-slurm.yaml\n"
            "  # Topograph's old keys to its new ones, the old ones removed\n"
            "  topodeckctl relabel --context prod \\\n"
            "      --levels network.topology.nvidia.com/spine,network.topology.nvidia.com/leaf \\\n"
            "      --to fabric.topograph.run/tier-1,fabric.topograph.run/tier-0 \\\n"
            "      --remove 'network.topology.nvidia.com/*' -o topograph-v1.yaml\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(s.flags.end(),
                       {
                           {"to", 0, "KEYS", "the label key of each level, top level first, comma-separated (- leaves\na level out)"},
                           {"remove", 0, "KEYS", "keys removed from every node (KEY, or a prefix ending in *),\ncomma-separated"},
                           {"output", 'o', "PLAN", "write the plan to this file (default: stdout, the preview on stderr)"},
                           {"name", 0, "NAME", "the plan's name (default: relabel)"},
                           gpuResourcesFlag(),
                       });
        return s;
    }();
    return spec;
}

int runRelabelCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(relabelCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    auto clusterArgs = ClusterArgs::fromArgs(flags, "relabel");
    if (!clusterArgs) return usageError(clusterArgs.error().message);
    RelabelRequest request;
    if (const std::string* keys = flags.value("to")) request.keys = splitList(*keys);
    if (request.keys.empty()) return usageError("--to: give the label key of each level, top level first");
    if (const std::string* remove = flags.value("remove")) request.remove = splitList(*remove);
    auto output = planOutputFrom(flags);
    if (!output) return usageError(output.error().message);
    auto cluster = loadIndexedCluster(clusterArgs->source, clusterArgs->hierarchy);
    if (const int* exitCode = std::get_if<int>(&cluster)) return *exitCode;
    const LoadedCluster& loaded = *std::get<IndexedCluster>(cluster).loaded;
    const TopologyIndex& before = std::get<IndexedCluster>(cluster).index;

    auto operations = relabelOperations(loaded.state, before, request);
    if (!operations) return usageError(operations.error().message);
    ChangePlan plan;
    plan.name = flags.value("name") ? *flags.value("name") : std::string("relabel");
    plan.cluster = clusterArgs->source.describe(loaded.demo, false, loaded.live.get());
    plan.description = relabelDescription(request, before.spec().origin);
    if (Status added = addLabelOperations(plan, loaded.state, before, std::move(*operations)); !added)
        return runtimeError(added.error().message);

    // The check an operator would make next: the new labels read as levels give the same tree.
    const std::string note =
        "\n" + relabelCheckText(relabelMismatches(withPlanApplied(loaded.state, plan), before, request), request, before.spec().origin) + "\n";
    return writePlanWithPreview(plan, loaded.state, before, *output, stdoutIsTerminal() && !noColorRequested(), note);
}

} // namespace topodeck::cli
