#include "export_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/exports/topology_exports.h"
#include "core/text/text_file.h"
#include "usecases/export_files.h"

#include <filesystem>
#include <set>
#include <variant>

namespace topodeck::cli {
namespace {

struct ExportSettings {
    std::string format;
    std::string output; // a file, a folder for "all" and "bundle", or empty: stdout
    ExportRequest request;
};

const std::vector<std::string>& formats() {
    static const std::vector<std::string> all = {"kueue",  "kai",  "hypernodes", "topology.conf", "topology.yaml",
                                                 "labels", "gang", "all",        "bundle"};
    return all;
}

// The gang flags export shares with plan: what to place, not how to ask.
const std::vector<FlagSpec>& gangFlags() {
    static const std::vector<FlagSpec> flags = [] {
        static const std::set<std::string> names = {"engine",       "pods",          "request",     "required",
                                                    "preferred",    "unconstrained", "slice-level", "slice-size",
                                                    "slice-layers", "manifest",      "gang",        "sbatch"};
        std::vector<FlagSpec> out;
        for (const FlagSpec& flag : planQueryFlags())
            if (names.contains(flag.name)) out.push_back(flag);
        return out;
    }();
    return flags;
}

constexpr std::string_view kFormatList =
    "kueue, kai, hypernodes, topology.conf, topology.yaml, labels, gang, all or bundle";

Result<ExportSettings> settingsFrom(const ParsedArgs& args) {
    ExportSettings s;
    if (args.positionals().size() != 1) return Error{"name one FORMAT: " + std::string(kFormatList)};
    s.format = args.positionals().front();
    if (std::find(formats().begin(), formats().end(), s.format) == formats().end())
        return Error{"unknown FORMAT \"" + s.format + "\": " + std::string(kFormatList)};
    if (const std::string* output = args.value("output"); output && *output != "-") {
        if (output->empty()) return Error{"-o needs a file or folder name"};
        s.output = *output;
    }
    if ((s.format == "all" || s.format == "bundle") && s.output.empty())
        return Error{s.format + " writes several files: give -o FOLDER"};
    s.request.bundle = s.format == "bundle";
    if (!s.request.bundle) s.request.formats = {s.format};
    TopologyExportOptions& topology = s.request.options;
    KueueExportOptions& kueue = topology.kueue;
    if (const std::string* version = args.value("api-version")) kueue.apiVersion = *version;
    if (const std::string* name = args.value("name")) kueue.topologyName = topology.kaiName = *name;
    if (const std::string* flavor = args.value("flavor")) kueue.flavorName = *flavor;
    if (const std::string* labels = args.value("flavor-labels")) {
        for (const std::string& pair : splitList(*labels)) {
            const std::size_t equals = pair.find('=');
            if (equals == std::string::npos) return Error{"--flavor-labels: expected KEY=VALUE, not \"" + pair + '"'};
            kueue.flavorLabels.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
        }
        auto edits = parseLabelEdits(splitList(*labels));
        if (!edits) return Error{"--flavor-labels: " + edits.error().message};
        std::sort(kueue.flavorLabels.begin(), kueue.flavorLabels.end());
    }
    if (const std::string* plan = args.value("plan")) {
        if (s.format != "labels" && s.format != "all" && s.format != "bundle")
            return Error{"--plan goes with labels, all or bundle"};
        s.request.planFile = *plan;
    }
    topology.blocks = args.has("blocks");
    if (const std::string* per = args.value("block-per")) {
        if (*per != "rack" && *per != "clique") return Error{"--block-per: rack or clique, not \"" + *per + '"'};
        topology.blocks = true;
        topology.blockPerRack = *per == "rack";
    }

    const bool gangGiven =
        std::any_of(gangFlags().begin(), gangFlags().end(), [&](const FlagSpec& flag) { return args.has(flag.name); });
    const bool takesGang = s.format == "gang" || s.format == "bundle";
    if (gangGiven && !takesGang) return Error{"a gang (--pods, --manifest, --sbatch, ...) goes with gang or bundle"};
    if (s.format == "gang" && !gangGiven)
        return Error{"gang needs the gang: --pods N --request RES=QTY [...], --manifest FILE or --sbatch \"ARGS\""};
    if (gangGiven) {
        auto query = readPlanQuery(args);
        if (!query) return query.error();
        if (query->engines.size() > 1) return Error{"--engine: a manifest is for one scheduler"};
        if (!query->manifest.empty()) {
            auto text = query->manifest == "-" ? readAll(stdin) : readTextFile(query->manifest);
            if (!text) return text.error();
            query->manifestText = std::move(*text);
        }
        s.request.gang = std::move(*query);
    }
    if (const std::string* kind = args.value("kind")) {
        const std::optional<GangWorkload> workload = gangWorkloadNamed(*kind);
        if (!workload)
            return Error{"--kind: want job, jobset, pytorchjob, leaderworkerset or volcanojob, not \"" + *kind + '"'};
        s.request.gangKind = *workload;
    }
    if (const std::string* queue = args.value("queue")) s.request.gangOptions.queue = *queue;
    if (const std::string* image = args.value("image")) s.request.gangOptions.image = *image;
    return s;
}

int writeFolder(const std::string& folder, const std::vector<ExportFile>& files, bool mustBeEmpty) {
    auto written = writeExportFolder(folder, files, mustBeEmpty);
    if (!written) return runtimeError(written.error().message);
    for (const std::string& path : *written) writeStdout(path + "\n");
    return kExitOk;
}

int runBundle(ExportSettings& settings, const ClusterSource& source, const IndexedCluster& loaded) {
    // Refused before the work, not after it; writeExportFolder checks again.
    std::error_code error;
    if (std::filesystem::exists(settings.output, error) && !std::filesystem::is_empty(settings.output, error))
        return usageError(settings.output + " is not empty: a review bundle goes into a new or empty folder");
    settings.request.source = source.describe(loaded.loaded->demo, true, loaded.loaded->live.get());
    auto bundle = exportFiles(loaded.loaded->state, loaded.index, settings.request);
    if (!bundle) return usageError(bundle.error().message);
    for (const std::string& warning : bundle->warnings) printWarning(warning);
    return writeFolder(settings.output, bundle->files, true);
}

} // namespace

const CommandSpec& exportCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "export";
        s.summary = "Write the hierarchy, a change or a gang as manifests and files, for review";
        s.description =
            "Writes what topodeck reads, in the form each scheduler takes, from any source (a live\n"
            "cluster, a snapshot, a demo):\n"
            "  kueue          a Kueue Topology (v1beta2; --api-version v1beta1) and its ResourceFlavor\n"
            "  kai            a KAI Topology\n"
            "  hypernodes     Volcano HyperNodes, one per domain, tier 1 holding the nodes\n"
            "  topology.conf  Slurm's tree (or with --blocks, block) topology\n"
            "  topology.yaml  the same in Slurm 25.05's topology.yaml\n"
            "  labels         partial Nodes for kubectl apply --server-side, and kubectl label lines:\n"
            "                 the hierarchy's labels, or with --plan the labels a change plan sets\n"
            "  gang           the gang plan's flags describe (--pods/--request/--required..., --manifest,\n"
            "                 --sbatch) as the manifest for -e's scheduler: kueue-tas (default) or kai as\n"
            "                 --kind job, jobset, pytorchjob or leaderworkerset; volcano as a Volcano Job;\n"
            "                 slurm-tree or slurm-block as an sbatch script\n"
            "  all            every hierarchy form and the labels into the folder -o names\n"
            "  bundle         a review bundle into a new folder: with --plan the plan, its preview, the\n"
            "                 labels it sets, the hierarchy after it in every form, SVG maps before and\n"
            "                 after and a README.md of what it changes and risks; with a gang, the gang's\n"
            "                 dry-run under every scheduler before and after, and its manifests\n"
            "Kueue and KAI Topologies name label keys, so a hierarchy read from HyperNodes or Slurm is\n"
            "refused for them. Everything written reads back through topodeck's own readers.";
        s.usage =
            "topodeckctl export FORMAT (--demo NAME | -f FILE | --context NAME | --slurm URL|cli ...) [-o FILE|DIR]";
        s.examples =
            "  topodeckctl export kueue --demo gb200\n"
            "  topodeckctl export topology.conf --context prod -o topology.conf\n"
            "  topodeckctl export labels --context prod --plan move.yaml -o move-labels.yaml\n"
            "  topodeckctl export gang --demo gb200 --pods 16 --request nvidia.com/gpu=4 --required rack -e kai\n"
            "  topodeckctl export bundle --context prod --plan move.yaml --manifest train.yaml -o review/\n";
        s.flags = clusterSourceFlags();
        s.flags.insert(
            s.flags.end(),
            {
                {"output", 'o', "FILE|DIR", "write here (default: stdout; all, bundle: a folder)"},
                {"api-version", 0, "VERSION", "kueue: v1beta2 (default) or v1beta1"},
                {"name", 0, "NAME", "kueue, kai: the Topology's name (default: the hierarchy's, else default)"},
                {"flavor", 0, "NAME", "kueue: the ResourceFlavor's name (default: the Topology's)"},
                {"flavor-labels", 0, "K=V,...",
                 "kueue: the flavor's nodeLabels (default: one label every node carries\nalike, the hardware's name "
                 "where there is one)"},
                {"blocks", 0, "", "topology.conf, topology.yaml: Slurm's block topology (NVLink domains)"},
                {"block-per", 0, "UNIT",
                 "with blocks: clique (one block per NVLink domain, as Base Command\n"
                 "Manager; default) or rack (per lowest-level domain, as SUNK)"},
                {"plan", 0, "PLAN", "labels, bundle: the change plan"},
                {"kind", 0, "KIND", "gang: job (default), jobset, pytorchjob, leaderworkerset or volcanojob"},
                {"queue", 0, "NAME", "gang: the Kueue LocalQueue, KAI or Volcano queue (default: default)"},
                {"image", 0, "IMAGE", "gang: the container image (default: a placeholder to replace)"},
                gpuResourcesFlag(),
            });
        s.flags.insert(s.flags.end(), gangFlags().begin(), gangFlags().end());
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
    if (settings->format == "bundle") return runBundle(*settings, *source, loaded);

    auto exported = exportFiles(loaded.loaded->state, loaded.index, settings->request);
    if (!exported) return usageError(exported.error().message);
    for (const std::string& why : exported->warnings) printWarning(why);
    if (settings->format == "all") return writeFolder(settings->output, exported->files, false);
    std::string text;
    for (const ExportFile& file : exported->files) text += (text.empty() ? "" : "\n") + file.text;
    if (settings->output.empty()) {
        writeStdout(text);
        return kExitOk;
    }
    if (Status written = writeFileAtomically(settings->output, text); !written)
        return runtimeError(written.error().message);
    return kExitOk;
}

} // namespace topodeck::cli
