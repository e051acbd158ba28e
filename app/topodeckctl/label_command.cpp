#include "label_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_plan.h"
#include "core/changes/change_plan_file.h"
#include "core/changes/object_plan.h"
#include "core/changes/plan_preview.h"
#include "core/changes/relabel_plan.h"
#include "core/changes/slinky_plan.h"
#include "core/changes/topology_diff.h"
#include "core/text/text_file.h"
#include "usecases/change_preview.h"

#include <cstdio>
#include <functional>
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
    const std::string text = writeChangePlan(plan);
    PreviewExtras extras;
    extras.text.colour = colour && !output.empty(); // the preview goes to stderr when the plan takes stdout
    const std::string preview = previewChangePlan(state, before, plan, extras).text;
    if (output.empty()) {
        writeStdout(text);
        std::fputs((preview + note).c_str(), stderr);
        return kExitOk;
    }
    if (Status written = writeFileAtomically(output, text); !written) return runtimeError(written.error().message);
    writeStdout(preview + note + "\nPlan written to " + output + "\n");
    return kExitOk;
}

// A generator's plan from the cluster its flags load: its operations or changes and description
// (the runner names the plan and its cluster), and a note for after the preview; or an error.
struct Generated {
    ChangePlan plan;
    std::string note;
};
using Generator = std::function<Result<Generated>(const LoadedCluster& loaded, const TopologyIndex& index)>;

// What relabel, objects and slinky share: -o, the plan's name (`nameFlag`, else `defaultName`),
// loading the cluster, and the plan written with its preview. A generator's error is a usage error.
int runGenerator(const ParsedArgs& flags, const ClusterArgs& cluster, std::string_view nameFlag,
                 const std::string& defaultName, const Generator& generate) {
    auto output = planOutputFrom(flags);
    if (!output) return usageError(output.error().message);
    auto indexed = loadIndexedCluster(cluster.source, cluster.hierarchy);
    if (const int* exitCode = std::get_if<int>(&indexed)) return *exitCode;
    const LoadedCluster& loaded = *std::get<IndexedCluster>(indexed).loaded;
    const TopologyIndex& before = std::get<IndexedCluster>(indexed).index;
    Result<Generated> generated = generate(loaded, before);
    if (!generated) return usageError(generated.error().message);
    ChangePlan& plan = generated->plan;
    plan.name = flags.value(nameFlag) ? *flags.value(nameFlag) : defaultName;
    plan.cluster = cluster.source.describe(loaded.demo, false, loaded.live.get());
    return writePlanWithPreview(plan, loaded.state, before, *output, stdoutIsTerminal() && !noColorRequested(),
                                generated->note);
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
        s.examples = "  # Label a node list from the topology.conf that places it (leaf, spine, core)\n"
                     "  topodeckctl relabel -f nodes.yaml --slurm-topology topology.conf \\\n"
                     "      --to example.com/core,example.com/spine,example.com/leaf -o from-slurm.yaml\n"
                     "  # Topograph's old keys to its new ones, the old ones removed\n"
                     "  topodeckctl relabel --context prod \\\n"
                     "      --levels network.topology.nvidia.com/spine,network.topology.nvidia.com/leaf \\\n"
                     "      --to fabric.topograph.run/tier-1,fabric.topograph.run/tier-0 \\\n"
                     "      --remove 'network.topology.nvidia.com/*' -o topograph-v1.yaml\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(
            s.flags.end(),
            {
                {"to", 0, "KEYS",
                 "the label key of each level, top level first, comma-separated (- leaves\na level out)"},
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
    return runGenerator(
        flags, *clusterArgs, "name", "relabel",
        [&](const LoadedCluster& loaded, const TopologyIndex& before) -> Result<Generated> {
            auto operations = relabelOperations(loaded.state, before, request);
            if (!operations) return operations.error();
            Generated out;
            out.plan.description = relabelDescription(request, before.spec().origin);
            if (Status added = addLabelOperations(out.plan, loaded.state, before, std::move(*operations)); !added)
                return added.error();
            // The check an operator would make next: the new labels read as levels give the same tree.
            out.note = "\n" +
                       relabelCheckText(relabelMismatches(withPlanApplied(loaded.state, out.plan), before, request),
                                        request, before.spec().origin) +
                       "\n";
            return out;
        });
}

const CommandSpec& objectsCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "objects";
        s.summary = "Plan the cluster's HyperNodes or Kueue / KAI Topology from a hierarchy, and preview them";
        s.description =
            "Writes a change plan that makes the cluster's topology objects those of the hierarchy the\n"
            "other flags choose (label levels with --levels or a preset, a topology.conf or topology.yaml\n"
            "with --slurm-topology, ...): FORMAT is\n"
            "  hypernodes   Volcano HyperNodes, one per domain, tier 1 holding the nodes (--prune deletes\n"
            "               the HyperNodes the hierarchy has no place for)\n"
            "  kueue        a Kueue Topology of the levels and the ResourceFlavor that names it\n"
            "  kai          a KAI Topology of the levels\n"
            "Objects are created where missing and updated where they differ; each update and delete keeps\n"
            "the resourceVersion found, as its precondition. The preview shows each object's diff, what\n"
            "the change does to the hierarchy and placement, and what the CRDs would refuse (a Topology's\n"
            "levels cannot change once created).";
        s.usage = "topodeckctl objects (hypernodes | kueue | kai) (--demo NAME | -f FILE | --context NAME | ...)\n"
                  "                    [hierarchy flags] [--prune] [-o PLAN]";
        s.examples =
            "  topodeckctl objects hypernodes --context prod --levels example.com/spine,example.com/rack -o hn.yaml\n"
            "  topodeckctl objects hypernodes -f nodes.yaml --slurm-topology topology.conf --prune -o hn.yaml\n"
            "  topodeckctl objects kueue --context prod --name gb200 -o kueue.yaml\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(
            s.flags.end(),
            {
                {"prune", 0, "", "hypernodes: delete the HyperNodes the hierarchy does not make"},
                {"name", 0, "NAME", "kueue, kai: the Topology's name (default: the hierarchy's, else default)"},
                {"flavor", 0, "NAME", "kueue: the ResourceFlavor's name (default: the Topology's)"},
                {"api-version", 0, "VERSION", "kueue: v1beta2 (default) or v1beta1"},
                {"output", 'o', "PLAN", "write the plan to this file (default: stdout, the preview on stderr)"},
                {"plan-name", 0, "NAME", "the plan's name (default: FORMAT)"},
                gpuResourcesFlag(),
            });
        return s;
    }();
    return spec;
}

int runObjectsCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(objectsCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    if (flags.positionals().size() != 1) return usageError("objects takes one FORMAT: hypernodes, kueue or kai");
    ObjectPlanRequest request;
    request.format = flags.positionals().front();
    if (request.format != "hypernodes" && request.format != "kueue" && request.format != "kai")
        return usageError("FORMAT is hypernodes, kueue or kai, not \"" + request.format + '"');
    request.prune = flags.has("prune");
    if (request.prune && request.format != "hypernodes") return usageError("--prune is for hypernodes");
    if (const std::string* name = flags.value("name")) request.kueue.topologyName = request.kaiName = *name;
    if (const std::string* flavor = flags.value("flavor")) request.kueue.flavorName = *flavor;
    if (const std::string* version = flags.value("api-version")) request.kueue.apiVersion = *version;
    // FORMAT is the one positional, so the cluster flags are read here rather than by ClusterArgs.
    auto source = ClusterSource::fromArgs(flags);
    if (!source) return usageError(source.error().message);
    auto hierarchy = hierarchyChoiceFromArgs(flags);
    if (!hierarchy) return usageError(hierarchy.error().message);
    return runGenerator(flags, ClusterArgs{std::move(*source), std::move(*hierarchy)}, "plan-name", request.format,
                        [&](const LoadedCluster& loaded, const TopologyIndex& before) -> Result<Generated> {
                            auto changes = objectPlanChanges(loaded.state, before, request);
                            if (!changes) return changes.error();
                            Generated out;
                            out.plan.description = objectPlanDescription(request, before.spec());
                            out.plan.objectChanges = std::move(*changes);
                            return out;
                        });
}

const CommandSpec& slinkyCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "slinky";
        s.summary = "Plan Slinky's topology annotations on every node from a hierarchy, and preview them";
        s.description =
            "Writes a change plan that sets Slinky's node annotation topology.slinky.slurm.net/spec on every\n"
            "node, for the hierarchy the other flags choose: for each topology of Slurm's topology.yaml, the\n"
            "switch (--tree NAME: a switch per domain, the lowest level's the leaves) or block (--block NAME:\n"
            "one per NVLink domain, or per rack with --block-per rack) that holds it, e.g.\n"
            "\"topo-tree:rack-1-03,topo-block:rack-1-03\". --topology-yaml FILE writes the topology.yaml\n"
            "that defines those switches and blocks under those names, which Slinky's Slurm must read. Each\n"
            "annotation keeps the value found, as its precondition; apply and undo as for labels.";
        s.usage = "topodeckctl slinky (--tree NAME | --block NAME)... (--demo NAME | -f FILE | --context NAME | ...)\n"
                  "                   [hierarchy flags] [--topology-yaml FILE] [-o PLAN]";
        s.examples = "  topodeckctl slinky --context prod --tree topo-tree --block topo-block \\\n"
                     "      --topology-yaml topology.yaml -o slinky.yaml\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(
            s.flags.end(),
            {
                {"tree", 0, "NAME", "the tree topology's name in topology.yaml"},
                {"block", 0, "NAME", "the block topology's name in topology.yaml"},
                {"block-per", 0, "UNIT", "clique (one block per NVLink domain; default) or rack"},
                {"topology-yaml", 0, "FILE", "also write the topology.yaml the annotations name"},
                {"output", 'o', "PLAN", "write the plan to this file (default: stdout, the preview on stderr)"},
                {"name", 0, "NAME", "the plan's name (default: slinky)"},
                gpuResourcesFlag(),
            });
        return s;
    }();
    return spec;
}

int runSlinkyCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(slinkyCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    SlinkyRequest request;
    if (const std::string* tree = flags.value("tree")) request.treeTopology = *tree;
    if (const std::string* block = flags.value("block")) request.blockTopology = *block;
    if (const std::string* per = flags.value("block-per")) {
        if (*per != "rack" && *per != "clique") return usageError("--block-per: rack or clique, not \"" + *per + '"');
        request.blockPerRack = *per == "rack";
    }
    auto clusterArgs = ClusterArgs::fromArgs(flags, "slinky");
    if (!clusterArgs) return usageError(clusterArgs.error().message);
    return runGenerator(
        flags, *clusterArgs, "name", "slinky",
        [&](const LoadedCluster& loaded, const TopologyIndex& before) -> Result<Generated> {
            auto changes = slinkyAnnotationChanges(loaded.state, before, request);
            if (!changes) return changes.error();
            Generated out;
            if (const std::string* yamlFile = flags.value("topology-yaml")) {
                if (Status written = writeFileAtomically(*yamlFile, slinkyTopologyYaml(loaded.state, before, request));
                    !written)
                    return written.error();
                out.note = "\nThe topology.yaml the annotations name: " + *yamlFile + "\n";
            }
            out.plan.description = "Sets Slinky's " + std::string(kSlinkyTopologyAnnotation) +
                                   " on every node for the hierarchy read from " +
                                   (before.spec().origin.empty() ? std::string("node labels") : before.spec().origin) +
                                   ".";
            out.plan.labelChanges = std::move(*changes);
            return out;
        });
}

} // namespace topodeck::cli
