#include "export_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/changes/change_plan_file.h"
#include "core/exports/topology_exports.h"
#include "core/slurm/slurm_topology_from_index.h"
#include "core/text_file.h"

#include <filesystem>
#include <variant>

namespace topodeck::cli {
namespace {

// One file of an export: its name in a folder, and its text.
struct ExportFile {
    std::string name;
    std::string text;
};

struct ExportSettings {
    std::string format;
    std::string output; // a file, a folder for "all", or empty: stdout
    KueueExportOptions kueue;
    std::string kaiName;
    std::string plan; // labels: from this plan instead of the hierarchy
    bool blocks = false;
};

const std::vector<std::string>& formats() {
    static const std::vector<std::string> all = {"kueue", "kai", "hypernodes", "topology.conf", "topology.yaml",
                                                 "labels", "all"};
    return all;
}

Result<std::vector<ExportFile>> exportFiles(const std::string& format, const ExportSettings& settings,
                                            const ClusterState& state, const TopologyIndex& index) {
    std::vector<ExportFile> files;
    const bool all = format == "all";
    // One format refused (a Topology of a hierarchy without labels) leaves the others in "all".
    auto add = [&](const std::string& name, Result<std::string> text) -> Status {
        if (text) files.push_back({name, std::move(*text)});
        else if (all) printWarning(name + " left out: " + text.error().message);
        else return text.error();
        return {};
    };
    if (all || format == "kueue")
        if (Status s = add("kueue-topology.yaml", kueueTopologyYaml(state, index, settings.kueue)); !s) return s.error();
    if (all || format == "kai")
        if (Status s = add("kai-topology.yaml", kaiTopologyYaml(index, settings.kaiName)); !s) return s.error();
    if (all || format == "hypernodes") files.push_back({"hypernodes.yaml", hyperNodesYaml(hyperNodesFromIndex(state, index))});
    const SlurmTopology slurm = settings.blocks ? slurmBlocksFromIndex(state, index) : slurmTreeFromIndex(state, index);
    if (all || format == "topology.conf") files.push_back({"topology.conf", writeTopologyConf(slurm)});
    if (all || format == "topology.yaml") files.push_back({"topology.yaml", writeTopologyYaml({slurm})});
    if (all || format == "labels") {
        std::optional<ChangePlan> plan;
        if (!settings.plan.empty()) {
            auto text = readTextFile(settings.plan);
            if (!text) return text.error();
            auto read = readChangePlan(*text, settings.plan);
            if (!read) return read.error();
            plan = std::move(*read);
        }
        const NodeLabelsExport labels = nodeLabelsExport(state, index, plan ? &*plan : nullptr);
        files.push_back({"node-labels.yaml", labels.objects});
        files.push_back({"kubectl-label.sh", labels.kubectlLines});
    }
    return files;
}

Result<ExportSettings> settingsFrom(const ParsedArgs& args) {
    ExportSettings s;
    if (args.positionals().size() != 1)
        return Error{"name one FORMAT: kueue, kai, hypernodes, topology.conf, topology.yaml, labels or all"};
    s.format = args.positionals().front();
    if (std::find(formats().begin(), formats().end(), s.format) == formats().end())
        return Error{"unknown FORMAT \"" + s.format + "\": kueue, kai, hypernodes, topology.conf, topology.yaml, labels or all"};
    if (const std::string* output = args.value("output"); output && *output != "-") {
        if (output->empty()) return Error{"-o needs a file or folder name"};
        s.output = *output;
    }
    if (s.format == "all" && s.output.empty()) return Error{"all writes several files: give -o FOLDER"};
    if (const std::string* version = args.value("api-version")) s.kueue.apiVersion = *version;
    if (const std::string* name = args.value("name")) s.kueue.topologyName = s.kaiName = *name;
    if (const std::string* flavor = args.value("flavor")) s.kueue.flavorName = *flavor;
    if (const std::string* labels = args.value("flavor-labels")) {
        for (const std::string& pair : splitList(*labels)) {
            const std::size_t equals = pair.find('=');
            if (equals == std::string::npos) return Error{"--flavor-labels: expected KEY=VALUE, not \"" + pair + '"'};
            s.kueue.flavorLabels.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
        }
        auto edits = parseLabelEdits(splitList(*labels));
        if (!edits) return Error{"--flavor-labels: " + edits.error().message};
        std::sort(s.kueue.flavorLabels.begin(), s.kueue.flavorLabels.end());
    }
    if (const std::string* plan = args.value("plan")) s.plan = *plan;
    s.blocks = args.has("blocks");
    return s;
}

} // namespace

const CommandSpec& exportCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "export";
        s.summary = "Write the hierarchy as scheduler manifests or Slurm files, for review";
        s.description =
            "Writes the cluster's hierarchy, as topodeck reads it, in the form each scheduler takes, from\n"
            "any source (a live cluster, a snapshot, a demo):\n"
            "  kueue          a Kueue Topology (v1beta2; --api-version v1beta1) and its ResourceFlavor\n"
            "  kai            a KAI Topology\n"
            "  hypernodes     Volcano HyperNodes, one per domain, tier 1 holding the nodes\n"
            "  topology.conf  Slurm's tree (or with --blocks, block) topology\n"
            "  topology.yaml  the same in Slurm 25.05's topology.yaml\n"
            "  labels         partial Nodes for kubectl apply --server-side, and kubectl label lines:\n"
            "                 the hierarchy's labels, or with --plan the labels a change plan sets\n"
            "  all            every one of these into the folder -o names\n"
            "Kueue and KAI Topologies name label keys, so a hierarchy read from HyperNodes or Slurm is\n"
            "refused for them. Everything written reads back through topodeck's own readers.";
        s.usage = "topodeckctl export FORMAT (--demo NAME | -f FILE | --context NAME | --slurm URL|cli ...) [-o FILE|DIR]";
        s.examples = "  topodeckctl export kueue --demo gb200\n"
                     "  topodeckctl export topology.conf --context prod -o topology.conf\n"
                     "  topodeckctl export labels --context prod --plan move.yaml -o move-labels.yaml\n"
                     "  topodeckctl export all --demo gb200 -o review/\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(s.flags.end(),
                       {
                           {"output", 'o', "FILE|DIR", "write here (default: stdout; all: a folder)"},
                           {"api-version", 0, "VERSION", "kueue: v1beta2 (default) or v1beta1"},
                           {"name", 0, "NAME", "kueue, kai: the Topology's name (default: the hierarchy's, else default)"},
                           {"flavor", 0, "NAME", "kueue: the ResourceFlavor's name (default: the Topology's)"},
                           {"flavor-labels", 0, "K=V,...",
                            "kueue: the flavor's nodeLabels (default: one label every node carries\nalike, the hardware's name where there is one)"},
                           {"blocks", 0, "", "topology.conf, topology.yaml: Slurm's block topology (NVLink domains)"},
                           {"plan", 0, "PLAN", "labels: the labels this change plan sets and removes"},
                           gpuResourcesFlag(),
                       });
        return s;
    }();
    return spec;
}

int runExportCommand(std::span<const std::string> args) {
    auto parsed = parseCommandLine(exportCommandSpec(), args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    const ParsedArgs& flags = std::get<ParsedArgs>(parsed);
    auto settings = settingsFrom(flags);
    if (!settings) return usageError(settings.error().message);
    auto source = ClusterSource::fromArgs(flags);
    if (!source) return usageError(source.error().message);
    auto hierarchy = hierarchyChoiceFromArgs(flags);
    if (!hierarchy) return usageError(hierarchy.error().message);
    auto cluster = loadIndexedCluster(*source, *hierarchy);
    if (const int* exitCode = std::get_if<int>(&cluster)) return *exitCode;
    const IndexedCluster& loaded = std::get<IndexedCluster>(cluster);

    auto files = exportFiles(settings->format, *settings, loaded.loaded->state, loaded.index);
    if (!files) return usageError(files.error().message);
    if (settings->format != "all") {
        std::string text;
        for (const ExportFile& file : *files) text += (text.empty() ? "" : "\n") + file.text;
        if (settings->output.empty()) {
            writeStdout(text);
            return kExitOk;
        }
        if (Status written = writeFileAtomically(settings->output, text); !written)
            return runtimeError(written.error().message);
        return kExitOk;
    }
    std::error_code error;
    std::filesystem::create_directories(settings->output, error);
    if (error) return runtimeError(settings->output + ": " + error.message());
    for (const ExportFile& file : *files) {
        const std::string path = (std::filesystem::path(settings->output) / file.name).string();
        if (Status written = writeFileAtomically(path, file.text); !written) return runtimeError(written.error().message);
        writeStdout(path + "\n");
    }
    return kExitOk;
}

} // namespace topodeck::cli
