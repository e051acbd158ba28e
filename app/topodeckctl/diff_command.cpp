#include "diff_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/plan_preview.h"
#include "core/changes/topology_diff.h"
#include "core/text/text_file.h"
#include "usecases/change_preview.h"

#include <variant>

namespace topodeck::cli {
namespace {

constexpr int kExitChanges = 1; // kubectl diff: differences found

} // namespace

const CommandSpec& diffCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "diff";
        s.summary = "Preview a change plan against the cluster as it is now";
        s.description = "Reads a change plan (topodeckctl label -o PLAN) and shows it against the cluster now: each\n"
                        "node's label changes, what they do to the hierarchy (domains added, removed, split or\n"
                        "merged, nodes that move or leave Kueue TAS capacity, NVLink domains across racks, GPUs per\n"
                        "domain), and every label that no longer holds the value the plan found, which an apply\n"
                        "would refuse. Exit codes as kubectl diff: 0 nothing to change, 1 changes, 2 an error.";
        s.usage = "topodeckctl diff -f PLAN (--demo NAME | --snapshot FILE | --context NAME | ...)";
        s.examples = "  topodeckctl label --demo gb200 --domain su-1/rack-1-03 fabric.topograph.run/tier-0=rack-1-02 "
                     "-o move.yaml\n"
                     "  topodeckctl diff -f move.yaml --demo gb200\n"
                     "  topodeckctl diff -f move.yaml --snapshot prod-2026-12-01.json\n";
        s.flags = {
            {"filename", 'f', "PLAN", "the change plan; - reads stdin"},
            {"demo", 0, "NAME", "an embedded demo cluster"},
            {"snapshot", 0, "FILE", "a snapshot file, as `kubectl get nodes,pods -A -o yaml` prints it"},
        };
        const std::vector<FlagSpec> live = liveClusterFlags();
        s.flags.insert(s.flags.end(), live.begin(), live.end());
        s.flags.push_back(
            {"levels", 0, "KEYS", "hierarchy from these node-label keys, top level first, comma-separated"});
        s.flags.push_back({"topology", 0, "NAME", "hierarchy from this Topology object (Kueue or KAI)"});
        s.flags.push_back(gpuResourcesFlag());
        return s;
    }();
    return spec;
}

int runDiffCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(diffCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    if (!flags.positionals().empty())
        return usageError("unexpected argument \"" + flags.positionals().front() + "\" (diff takes only flags)");
    const std::string* planFile = flags.value("filename");
    if (!planFile || planFile->empty())
        return usageError("diff needs -f PLAN (a file written by topodeckctl label -o)");
    auto source = ClusterSource::fromArgs(flags, "snapshot");
    if (!source) return usageError(source.error().message);
    auto hierarchy = hierarchyChoiceFromArgs(flags);
    if (!hierarchy) return usageError(hierarchy.error().message);

    auto plan = readPlanArgument(*planFile);
    if (!plan) return usageError(plan.error().message);

    auto cluster = loadIndexedCluster(*source, *hierarchy);
    if (const int* exitCode = std::get_if<int>(&cluster)) return *exitCode;
    const IndexedCluster& loaded = std::get<IndexedCluster>(cluster);
    PreviewExtras extras;
    extras.text.colour = stdoutIsTerminal() && !noColorRequested();
    writeStdout(previewChangePlan(loaded.loaded->state, loaded.index, *plan, extras).text);
    return plan->empty() ? kExitOk : kExitChanges;
}

} // namespace topodeck::cli
