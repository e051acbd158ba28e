#include "label_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
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
    if (const std::string* output = args.value("output"); output && *output != "-") {
        if (output->empty()) return Error{"-o needs a file name, or - for stdout"};
        s.output = *output;
    }
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
    const TopologyDiff diff = diffPlanTopology(loaded.state, before, plan);

    const std::string text = writeChangePlan(plan);
    PlanPreviewOptions preview;
    if (settings->output.empty()) {
        writeStdout(text);
        std::fputs(planPreviewText(plan, diff, {}, preview).c_str(), stderr);
        return kExitOk;
    }
    if (Status written = writeFileAtomically(settings->output, text); !written)
        return runtimeError(written.error().message);
    preview.colour = settings->colour;
    writeStdout(planPreviewText(plan, diff, {}, preview) + "\nPlan written to " + settings->output + "\n");
    return kExitOk;
}

} // namespace topodeck::cli
