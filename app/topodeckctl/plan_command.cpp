#include "plan_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/gpu_resources.h"
#include "core/hostlist.h"
#include "core/placement/capacity_report.h"
#include "core/placement/gang_flags.h"
#include "core/placement/gang_manifest.h"
#include "core/placement/placement_engine.h"
#include "core/placement/placement_report.h"
#include "core/placement/sbatch_args.h"
#include "core/placement/what_if.h"
#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology_index.h"
#include "core/topology_presets.h"
#include "net/slurm_cli.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>

namespace topodeck::cli {
namespace {

struct PlanSettings {
    ClusterSource source;
    HierarchyChoice hierarchy;
    std::vector<const PlacementEngine*> engines; // empty: chosen from the request
    bool compare = false;
    bool capacity = false;
    bool json = false;
    int depth = -1;

    std::string manifest;
    std::string gangName;
    std::string sbatch;
    GangFlags flags;
    bool flagsGiven = false;

    std::vector<std::pair<std::string, std::uint32_t>> nodeWeights; // hostlist -> weight
    std::vector<std::string> drains;
    std::string thenPlace;
    bool askSlurm = false;
    EngineOptions options;
};

Result<ResourceList> parseRequestList(std::string_view flag, std::string_view text) {
    ResourceList list;
    for (const std::string& item : splitList(text)) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            return Error{std::string(flag) + " wants RESOURCE=QUANTITY[,...], e.g. nvidia.com/gpu=8,cpu=16, not \"" +
                         item + "\""};
        auto quantity = Quantity::parse(std::string_view(item).substr(eq + 1));
        if (!quantity) return Error{std::string(flag) + " " + item.substr(0, eq) + ": " + quantity.error().message};
        if (quantity->isNegative())
            return Error{std::string(flag) + " " + item.substr(0, eq) + ": must not be negative"};
        list.set(std::string_view(item).substr(0, eq), *quantity);
    }
    if (list.empty()) return Error{std::string(flag) + " needs at least one RESOURCE=QUANTITY"};
    return list;
}

Result<std::vector<SliceLayer>> parseSliceLayers(std::string_view text) {
    std::vector<SliceLayer> layers;
    for (const std::string& item : splitList(text)) {
        const std::size_t colon = item.rfind(':');
        if (colon == std::string::npos || colon == 0)
            return Error{"--slice-layers wants LEVEL:SIZE[,LEVEL:SIZE...], not \"" + item + "\""};
        auto size = parseIntValue("--slice-layers " + item.substr(0, colon), std::string_view(item).substr(colon + 1),
                                  1, std::numeric_limits<int>::max());
        if (!size) return size.error();
        layers.push_back({item.substr(0, colon), *size});
    }
    if (layers.empty()) return Error{"--slice-layers needs at least one LEVEL:SIZE"};
    return layers;
}

Result<EngineOptions::KueueProfile> parseKueueProfile(std::string_view text) {
    if (text == "best-fit" || text == "BestFit") return EngineOptions::KueueProfile::BestFit;
    if (text == "least-free-capacity" || text == "LeastFreeCapacity")
        return EngineOptions::KueueProfile::LeastFreeCapacity;
    if (text == "auto") return EngineOptions::KueueProfile::Auto;
    return Error{"--kueue-profile wants best-fit, least-free-capacity or auto, not \"" + std::string(text) + "\""};
}

std::string engineNames() {
    std::string names;
    for (const PlacementEngine* engine : placementEngines())
        names += (names.empty() ? "" : ", ") + std::string(engine->name());
    return names;
}

// A batch script (#SBATCH lines) or a file with an sbatch command, rather than YAML or JSON.
bool looksLikeSbatchFile(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos) continue;
        const std::string_view text = std::string_view(line).substr(start);
        if (text.starts_with("#SBATCH") || text.starts_with("#!") || text.starts_with("sbatch")) return true;
        if (text.front() != '#') return false;
    }
    return false;
}

// --pods, --request, the levels and slices: the gang given by flags.
Status readGangFlags(const ParsedArgs& args, PlanSettings& s) {
    GangFlags& f = s.flags;
    if (const std::string* pods = args.value("pods")) {
        auto value = parseIntValue("--pods", *pods, 1, 10'000'000);
        if (!value) return value.error();
        f.pods = *value;
    }
    if (const std::string* request = args.value("request")) {
        auto list = parseRequestList("--request", *request);
        if (!list) return list.error();
        f.perPod = std::move(*list);
    }
    if (const std::string* level = args.value("required")) f.required = *level;
    if (const std::string* level = args.value("preferred")) f.preferred = *level;
    f.unconstrained = args.has("unconstrained");
    const std::string* sliceLevel = args.value("slice-level");
    const std::string* sliceSize = args.value("slice-size");
    if ((sliceLevel != nullptr) != (sliceSize != nullptr)) return Error{"--slice-level and --slice-size go together"};
    if (sliceLevel != nullptr) {
        auto size = parseIntValue("--slice-size", *sliceSize, 1, std::numeric_limits<int>::max());
        if (!size) return size.error();
        f.slices.push_back({*sliceLevel, *size});
    }
    if (const std::string* layers = args.value("slice-layers")) {
        if (sliceLevel != nullptr) return Error{"use either --slice-level/--slice-size or --slice-layers, not both"};
        auto parsed = parseSliceLayers(*layers);
        if (!parsed) return parsed.error();
        f.slices = std::move(*parsed);
    }
    f.topologyName = s.hierarchy.topologyName;
    s.flagsGiven = args.has("pods") || args.has("request") || args.has("required") || args.has("preferred") ||
                   f.unconstrained || !f.slices.empty();
    return {};
}

// Exactly one way of giving the gang (flags, --manifest, --sbatch), or --capacity's pod shape.
Status readGangSource(const ParsedArgs& args, PlanSettings& s) {
    if (const std::string* manifest = args.value("manifest")) s.manifest = *manifest;
    if (const std::string* gang = args.value("gang")) {
        if (s.manifest.empty()) return Error{"--gang picks a gang of --manifest FILE"};
        s.gangName = *gang;
    }
    if (const std::string* sbatch = args.value("sbatch")) s.sbatch = *sbatch;
    s.capacity = args.has("capacity");
    // --sbatch may also add options to a batch script given with --manifest.
    const int gangSources = (s.manifest.empty() && s.sbatch.empty() ? 0 : 1) + (s.flagsGiven ? 1 : 0);
    if (s.capacity) {
        if (!s.manifest.empty() || !s.sbatch.empty())
            return Error{"--capacity takes --request (and optionally --pods)"};
        if (s.flags.perPod.empty()) return Error{"--capacity needs the pod shape: --request RESOURCE=QUANTITY[,...]"};
        if (s.compare || !s.engines.empty())
            return Error{"--capacity counts per domain; it takes no --engine or --compare"};
    } else if (gangSources == 0) {
        return Error{"say what to place: --pods N --request RES=QTY, --manifest FILE, or --sbatch \"ARGS\""};
    } else if (gangSources > 1) {
        return Error{"give the gang one way: flags (--pods, --request, ...), --manifest FILE or --sbatch \"ARGS\""};
    } else if (s.flagsGiven && s.flags.pods == 0) {
        return Error{"--pods N is required when the gang is given by flags"};
    }
    return {};
}

// --ask-slurm, --slurm-version, --node-weight, --max-switch-wait (--slurm-topology is the source's).
Status readSlurmOptions(const ParsedArgs& args, PlanSettings& s) {
    s.askSlurm = args.has("ask-slurm");
    if (s.askSlurm) {
        const auto& live = s.source.live;
        if (!live || !live->slurm || live->slurm->kind != SlurmTarget::Kind::Cli)
            return Error{"--ask-slurm runs sbatch --test-only, so it needs the Slurm CLI source (--slurm cli)"};
        if (s.sbatch.empty() && (s.manifest.empty() || !looksLikeSbatchFile(s.manifest)))
            return Error{"--ask-slurm needs the request as sbatch would get it: --sbatch \"ARGS\" or a batch script"};
        if (s.capacity) return Error{"--ask-slurm asks about one request; --capacity counts many"};
    }
    if (const std::string* version = args.value("slurm-version")) {
        auto parsed = SlurmVersion::parse(*version);
        if (!parsed) return Error{"--slurm-version: " + parsed.error().message};
        s.options.slurmVersion = *parsed;
        s.options.slurmVersionOrigin = "as --slurm-version asked";
    }
    for (const std::string& item : args.values("node-weight")) {
        const std::size_t eq = item.rfind('=');
        if (eq == std::string::npos || eq == 0) return Error{"--node-weight wants NODES=WEIGHT, e.g. gpu-[001-008]=10"};
        auto weight = parseIntValue("--node-weight " + item.substr(0, eq), std::string_view(item).substr(eq + 1), 0,
                                    std::numeric_limits<int>::max());
        if (!weight) return weight.error();
        s.nodeWeights.emplace_back(item.substr(0, eq), static_cast<std::uint32_t>(*weight));
    }
    if (const std::string* wait = args.value("max-switch-wait")) {
        auto seconds = parseIntValue("--max-switch-wait", *wait, 0, std::numeric_limits<int>::max());
        if (!seconds) return seconds.error();
        s.options.maxSwitchWaitSeconds = *seconds;
    }
    return {};
}

// --kueue-profile, --volcano-binpack, and the what-if: --drain, --then-place.
Status readEngineOptions(const ParsedArgs& args, PlanSettings& s) {
    if (const std::string* profile = args.value("kueue-profile")) {
        auto parsed = parseKueueProfile(*profile);
        if (!parsed) return parsed.error();
        s.options.kueueProfile = *parsed;
    }
    if (const std::string* weights = args.value("volcano-binpack")) {
        for (const std::string& item : splitList(*weights)) {
            const std::size_t eq = item.find('=');
            char* end = nullptr;
            const double weight = eq == std::string::npos ? -1 : std::strtod(item.c_str() + eq + 1, &end);
            if (eq == std::string::npos || eq == 0 || end == nullptr || *end != '\0' || weight < 0)
                return Error{"--volcano-binpack wants RESOURCE=WEIGHT[,...], e.g. nvidia.com/gpu=10,cpu=1"};
            s.options.volcanoBinpackWeights.emplace_back(item.substr(0, eq), weight);
        }
    }
    s.drains = args.values("drain");
    if (const std::string* file = args.value("then-place")) s.thenPlace = *file;
    if (s.capacity && !s.thenPlace.empty()) return Error{"--then-place does not apply to --capacity (use --drain)"};
    return {};
}

Result<PlanSettings> settingsFrom(const ParsedArgs& args) {
    PlanSettings s;
    auto common = ClusterArgs::fromArgs(args, "plan");
    if (!common) return common.error();
    s.source = std::move(common->source);
    s.hierarchy = std::move(common->hierarchy);
    auto json = jsonOutputWanted(args);
    if (!json) return json.error();
    s.json = *json;
    if (const std::string* depth = args.value("depth")) {
        auto value = parseIntValue("--depth", *depth, 0, 16);
        if (!value) return value.error();
        s.depth = *value;
    }

    s.compare = args.has("compare");
    for (const std::string& name : args.values("engine")) {
        const PlacementEngine* engine = findPlacementEngine(name);
        if (engine == nullptr) return Error{"unknown engine \"" + name + "\" (engines: " + engineNames() + ")"};
        s.engines.push_back(engine);
    }
    if (s.compare && !s.engines.empty()) return Error{"use either --engine or --compare, not both"};

    for (const auto read : {readGangFlags, readGangSource, readSlurmOptions, readEngineOptions})
        if (Status status = read(args, s); !status) return status.error();
    return s;
}

// A manifest file, or "-": standard input, as for -f.
Result<std::vector<GangRequest>> readManifestArgument(const std::string& path) {
    if (path != "-") return readGangManifestFile(path);
    auto text = readAll(stdin);
    if (!text) return text.error();
    return readGangManifests(*text, "<stdin>");
}

Result<GangRequest> gangFrom(const PlanSettings& s) {
    if (!s.manifest.empty() && looksLikeSbatchFile(s.manifest)) return readSbatchFile(s.manifest, s.sbatch);
    if (!s.manifest.empty() && !s.sbatch.empty())
        return Error{"--sbatch adds to a batch script given with --manifest; " + s.manifest + " is not one"};
    if (!s.manifest.empty()) {
        auto gangs = readManifestArgument(s.manifest);
        if (!gangs) return gangs.error();
        if (gangs->empty()) return Error{s.manifest + ": no gang in this file"};
        std::string names;
        for (const GangRequest& gang : *gangs) {
            if (!s.gangName.empty() && gang.name == s.gangName) return gang;
            names += (names.empty() ? "" : ", ") + gang.name;
            // NAME/PART: one kind of pod of a gang, alone.
            for (std::size_t i = 0; i < gang.parts.size(); ++i)
                if (s.gangName == gang.name + '/' + gang.parts[i].name) return gang.onlyPart(i);
        }
        if (!s.gangName.empty())
            return Error{s.manifest + ": no gang named \"" + s.gangName + "\" (it has " + names + ")"};
        if (gangs->size() > 1)
            return Error{s.manifest + " holds " + std::to_string(gangs->size()) + " gangs (" + names +
                         "): pick one with --gang NAME"};
        return std::move(gangs->front());
    }
    if (!s.sbatch.empty()) return parseSbatchLine(s.sbatch);
    return gangFromFlags(s.flags);
}

// The engine the request was written for when none is named: an sbatch line means Slurm, a
// Volcano networkTopology means Volcano, KAI annotations mean KAI, anything else Kueue.
const PlacementEngine& defaultEngine(const GangRequest& gang, const PlacementCluster& cluster) {
    if (gang.slurm) {
        const SlurmTopology* topology = cluster.slurmTopology();
        return topology && topology->kind == SlurmTopology::Kind::Block ? slurmBlockEngine() : slurmTreeEngine();
    }
    if (gang.source != "flags") {
        if (gang.volcano.networkTopology || gang.volcano.partitionSize > 0) return volcanoEngine();
        if (!gang.kai.required.empty() || !gang.kai.preferred.empty() || gang.kai.segmentSize > 0) return kaiEngine();
    }
    return kueueTasEngine();
}

// Without --slurm-version, the Slurm engines follow the release the source says it runs; a
// version that cannot be read leaves the newest rules, with a warning and a note saying so.
void chooseSlurmVersion(PlanSettings& s, const LoadedCluster& loaded) {
    if (!s.options.slurmVersionOrigin.empty()) return; // --slurm-version
    const SlurmVersion newest;
    if (loaded.slurmVersion.empty()) {
        s.options.slurmVersionOrigin = "newest: the source does not say which Slurm it runs";
        return;
    }
    auto parsed = SlurmVersion::parse(loaded.slurmVersion);
    if (parsed) {
        s.options.slurmVersion = *parsed;
        s.options.slurmVersionOrigin = loaded.slurmVersionOrigin;
        return;
    }
    printWarning("Slurm version \"" + loaded.slurmVersion + "\" (" + loaded.slurmVersionOrigin +
                 ") cannot be read: the Slurm engines follow the newest rules (" + newest.toString() +
                 "); --slurm-version sets them");
    s.options.slurmVersion = newest;
    s.options.slurmVersionOrigin =
        "newest: \"" + loaded.slurmVersion + "\", " + loaded.slurmVersionOrigin + ", is not a version topodeck reads";
}

struct Planned {
    std::unique_ptr<LoadedCluster> loaded;
    TopologyIndex index;
    std::unique_ptr<PlacementCluster> cluster;
    // What Kueue and KAI see when the hierarchy shown is not read from node labels (HyperNodes, a
    // Slurm topology): the cluster's label levels, or none. Unset when they see `index`.
    TopologyIndex labelIndex;
    std::unique_ptr<PlacementCluster> labelCluster;

    const PlacementCluster& clusterFor(const PlacementEngine& engine) const {
        return engine.readsLabelLevelsOnly() && labelCluster ? *labelCluster : *cluster;
    }
};

// The scheduler-specific objects and what-if settings every engine's cluster gets alike.
Status configureCluster(const PlanSettings& s, PlacementCluster& cluster, const std::vector<NodeId>& drained) {
    const ClusterState& state = cluster.state();
    if (!state.hyperNodes().empty()) {
        auto hyperNodes = std::make_shared<std::vector<HyperNode>>();
        for (const auto& [name, hyperNode] : state.hyperNodes()) hyperNodes->push_back(hyperNode);
        cluster.setHyperNodes(std::move(hyperNodes));
    }
    // A Slurm source (live, or a snapshot directory) or --slurm-topology brings the topology; a
    // Slurm source also brings node Weights.
    if (state.slurmTopology()) cluster.setSlurmTopology(state.slurmTopology());
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        if (const std::string* weight = record.node->label(slurm_labels::kWeight))
            cluster.setNodeWeight(id, static_cast<std::uint32_t>(std::strtoul(weight->c_str(), nullptr, 10)));
    }
    for (const auto& [hostlist, weight] : s.nodeWeights) {
        auto names = expandHostlist(hostlist);
        if (!names) return Error{"--node-weight: " + names.error().message};
        for (const std::string& name : *names) {
            const auto id = state.findNode(name);
            if (!id || !state.record(*id).present) return Error{"--node-weight: no node named \"" + name + "\""};
            cluster.setNodeWeight(*id, weight);
        }
    }
    for (NodeId id : drained) cluster.drain(id);
    return {};
}

Result<std::unique_ptr<Planned>> prepare(const PlanSettings& s, std::unique_ptr<LoadedCluster> loaded) {
    auto planned = std::make_unique<Planned>();
    planned->loaded = std::move(loaded);
    // A dry-run plans on the cluster as it was listed; later changes are not followed.
    if (planned->loaded->live) planned->loaded->live->stop();
    const ClusterState& state = planned->loaded->state;
    auto spec = planned->loaded->resolve(s.hierarchy);
    if (!spec) return spec.error();
    TopologySpec labels = labelHierarchyFor(*spec, state);
    const bool labelsDiffer = !(labels == *spec);
    planned->index = TopologyIndex::build(state, withHostnameLevel(std::move(*spec), state), s.hierarchy.gpus);
    planned->cluster = std::make_unique<PlacementCluster>(state, planned->index);
    if (labelsDiffer) {
        planned->labelIndex =
            TopologyIndex::build(state, withHostnameLevel(std::move(labels), state), s.hierarchy.gpus);
        planned->labelCluster = std::make_unique<PlacementCluster>(state, planned->labelIndex);
    }

    // Drain targets name domains of the hierarchy shown.
    std::vector<NodeId> drained;
    for (const std::string& target : s.drains) {
        auto nodes = drainTargetNodes(*planned->cluster, target);
        if (!nodes) return nodes.error();
        drained.insert(drained.end(), nodes->begin(), nodes->end());
    }
    for (PlacementCluster* cluster : {planned->cluster.get(), planned->labelCluster.get()})
        if (cluster)
            if (Status configured = configureCluster(s, *cluster, drained); !configured) return configured.error();
    return planned;
}

std::string describeTopology(const TopologySpec& spec) {
    std::string text;
    for (const TopologyLevel& level : spec.levels) text += (text.empty() ? "" : " › ") + level.name;
    return text.empty() ? std::string("no levels") : text;
}

// The gangs of --then-place, each placed by `engine` in order; returns a line per gang.
Result<std::vector<std::string>> placeEarlierGangs(const std::string& file, const PlacementEngine& engine,
                                                   PlacementCluster& cluster, const EngineOptions& options) {
    auto gangs = readManifestArgument(file);
    if (!gangs) return gangs.error();
    std::vector<std::string> lines;
    for (const GangRequest& gang : *gangs) {
        const PlacementResult result = engine.place(cluster, gang, options);
        lines.push_back(gang.name + " (" + describeGang(gang) +
                        "): " + (result.feasible ? "placed" : "does not fit, left out") + " — " + result.message);
        assumePlacement(cluster, gang, result);
    }
    return lines;
}

int runCapacity(const PlanSettings& s, const Planned& planned) {
    const CapacityReport report = buildCapacityReport(*planned.cluster, s.flags.perPod, s.flags.pods);
    CapacityRenderOptions options;
    options.source = s.source.describe(planned.loaded->demo, !s.json, planned.loaded->live.get());
    options.depth = s.depth;
    if (!s.drains.empty() && !s.json)
        options.source += " · after draining " + std::to_string(s.drains.size()) + " target(s)";
    writeStdout(s.json ? renderCapacityJson(report, options) : renderCapacityTable(report, options));
    return kExitOk;
}

// What Slurm itself answers (sbatch --test-only), beside topodeck's prediction.
Result<SlurmAnswerCheck> askSlurm(const PlanSettings& s, const Planned& planned,
                                  const std::vector<PlacementResult>& results) {
    const SlurmTarget* target = planned.loaded->live ? planned.loaded->live->slurmTarget() : nullptr;
    if (!target) return Error{"--ask-slurm needs --slurm cli"};
    std::vector<std::string> arguments;
    if (!s.manifest.empty()) {
        arguments.push_back(s.manifest); // the batch script, whose #SBATCH lines sbatch reads itself
        if (!s.sbatch.empty()) {
            auto extra = sbatchArguments(s.sbatch);
            if (!extra) return extra.error();
            arguments.insert(arguments.begin(), extra->begin(), extra->end());
        }
    } else {
        auto words = sbatchArguments(s.sbatch);
        if (!words) return words.error();
        arguments = std::move(*words);
    }
    SlurmCli cli(*target, std::chrono::seconds(60), nullptr);
    auto answer = cli.testOnly(arguments, s.manifest.empty());
    if (!answer) return answer.error();

    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    return checkAgainstSlurm(results, std::move(*answer), now);
}

int runPlan(const PlanSettings& s, const Planned& planned) {
    auto gang = gangFrom(s);
    if (!gang) return usageError(gang.error().message);
    const PlacementCluster& base = *planned.cluster;

    std::vector<const PlacementEngine*> engines = s.engines;
    std::vector<std::pair<std::string, std::string>> skipped; // engine, why
    if (s.compare) {
        for (const PlacementEngine* engine : placementEngines()) {
            std::string why = engine->unavailableReason(planned.clusterFor(*engine), *gang);
            if (why.empty())
                engines.push_back(engine);
            else
                skipped.emplace_back(engine->name(), std::move(why));
        }
        if (engines.empty()) return usageError("no engine applies to this cluster and request");
    } else if (engines.empty()) {
        engines.push_back(&defaultEngine(*gang, base));
    }
    if (!s.compare)
        for (const PlacementEngine* engine : engines)
            if (std::string why = engine->unavailableReason(planned.clusterFor(*engine), *gang); !why.empty())
                return usageError(std::string(engine->name()) + ": " + why);

    std::vector<PlacementResult> results;
    std::vector<std::string> whatIfLines;
    for (const PlacementEngine* engine : engines) {
        PlacementCluster cluster = planned.clusterFor(*engine); // each engine sees its own what-if
        if (!s.thenPlace.empty()) {
            auto lines = placeEarlierGangs(s.thenPlace, *engine, cluster, s.options);
            if (!lines) return usageError(lines.error().message);
            for (std::string& line : *lines) whatIfLines.push_back(std::string(engine->name()) + ": " + line);
        }
        results.push_back(engine->place(cluster, *gang, s.options));
        if (&planned.clusterFor(*engine) != planned.cluster.get())
            results.back().notes.push_back(std::string(engine->name()) + " reads node labels only, not the " +
                                           describeTopology(planned.index.spec()) + " shown: it saw levels " +
                                           describeTopology(planned.labelIndex.spec()));
    }

    bool allFeasible = true;
    for (const PlacementResult& result : results) {
        if (result.invalidRequest) return usageError(result.engine + ": " + result.message);
        allFeasible = allFeasible && result.feasible;
    }
    std::optional<SlurmAnswerCheck> slurmAnswer;
    if (s.askSlurm) {
        auto answer = askSlurm(s, planned, results);
        if (!answer) return runtimeError("--ask-slurm: " + answer.error().message);
        slurmAnswer = std::move(*answer);
    }

    if (s.json) {
        writeStdout(renderPlanJson(results, skipped, s.compare, slurmAnswer ? &*slurmAnswer : nullptr));
        return allFeasible ? kExitOk : kExitDoesNotFit;
    }

    PlacementRenderOptions options;
    options.source =
        s.source.describe(planned.loaded->demo, true, planned.loaded->live.get()) + " · levels " + describeTopology(planned.index.spec());
    std::string out;
    if (!s.drains.empty()) {
        out += "What-if: drained";
        for (const std::string& target : s.drains) out += ' ' + target;
        out += '\n';
    }
    if (!whatIfLines.empty()) {
        out += "What-if: placed first, in order:\n";
        for (const std::string& line : whatIfLines) out += "  " + line + '\n';
    }
    if (!out.empty()) out += '\n';
    if (results.size() > 1) {
        out += renderPlacementComparison(results, *gang, base, options);
        for (const auto& [engine, why] : skipped) out += "  " + engine + ": not run: " + why + '\n';
    } else {
        out += renderPlacementTable(results.front(), *gang, base, options);
    }
    if (slurmAnswer) out += '\n' + renderSlurmAnswer(*slurmAnswer);
    writeStdout(out);
    return allFeasible ? kExitOk : kExitDoesNotFit;
}

} // namespace

const CommandSpec& planCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "plan";
        s.summary = "Dry-run a gang: would it fit now, where, and if not, why not";
        s.description =
            "Place a gang of pods (or Slurm nodes) on the cluster as a scheduler would, without submitting\n"
            "it: Kueue TAS, Volcano, KAI or Slurm (topology/tree, topology/block). Prints where every pod\n"
            "goes, the domain chosen at each level, the scheduler's own message, and why each candidate\n"
            "domain was taken or passed over. --compare asks every engine that applies.\n"
            "Exit status: 0 fits (with --compare: every engine), 3 does not fit, 2 bad input.";
        s.usage = "topodeckctl plan (--demo NAME | -f FILE | --context NAME | --slurm URL|cli) (--pods N --request RES=QTY |\n"
                  "                   --manifest FILE | --sbatch \"ARGS\") [flags]\n"
                  "  topodeckctl plan (--demo NAME | -f FILE | --context NAME) --capacity --request RES=QTY [--pods N]";
        s.examples =
            "  # 16 pods of 4 GPUs inside one rack, every scheduler side by side\n"
            "  topodeckctl plan --demo gb200 --pods 16 --request nvidia.com/gpu=4 --required rack --compare\n"
            "  # What a JobSet with Kueue annotations would get\n"
            "  topodeckctl plan -f cluster.yaml --manifest jobset.yaml\n"
            "  # An sbatch line under Slurm 22.05's tree rules\n"
            "  topodeckctl plan -f nodes.yaml --slurm-topology topology.conf --slurm-version 22.05 \\\n"
            "      --sbatch \"-N 16 --gres=gpu:8 --switches=1@10:00\"\n"
            "  # The same on a live Slurm cluster, beside Slurm's own answer (sbatch --test-only)\n"
            "  topodeckctl plan --slurm cli --sbatch \"-N 16 --gres=gpu:8 --switches=1\" --ask-slurm\n"
            "  # How many 8-pod x 8-GPU gangs fit per block right now, with one rack drained\n"
            "  topodeckctl plan --demo h100 --capacity --request nvidia.com/gpu=8 --pods 8 --drain block-2/rack-2-1\n";
        std::string demos;
        for (const std::string& name : demoClusterNames()) demos += (demos.empty() ? "" : ", ") + name;
        s.flags = {
            {"demo", 0, "NAME", "embedded demo cluster: " + demos},
            {"filename", 'f', "FILE",
             "snapshot: a Kubernetes List as kubectl prints it (nodes, pods, Topology,\nHyperNode); - reads stdin"},
            {"engine", 'e', "NAME",
             "scheduler rules: " + engineNames() + "\n(default: the one the request is written for; repeatable)"},
            {"compare", 0, "", "run every engine that applies and show them side by side"},
            {"pods", 'n', "N", "pods in the gang (with --capacity: the gang size to count)"},
            {"request", 'r', "RES=QTY,...", "per-pod requests, e.g. nvidia.com/gpu=8,cpu=32,memory=256Gi"},
            {"required", 0, "LEVEL", "all pods inside one domain of LEVEL (label key or short name)"},
            {"preferred", 0, "LEVEL", "inside one domain of LEVEL if possible, else as close as possible"},
            {"unconstrained", 0, "", "no topology constraint (Kueue: podset-unconstrained-topology)"},
            {"slice-level", 0, "LEVEL", "pods in slices, each slice inside one domain of LEVEL"},
            {"slice-size", 0, "N", "pods per slice (with --slice-level)"},
            {"slice-layers", 0, "LEVEL:N,...", "multi-layer slices, outermost first (Kueue TASMultiLayerTopology)"},
            {"topology", 0, "NAME", "hierarchy from this Kueue/KAI Topology in the snapshot, or a preset"},
            {"levels", 0, "KEYS", "hierarchy from these node-label keys, top level first"},
            {"gpu-resources", 0, "NAMES", "resources that count as GPUs (default nvidia.com/gpu)"},
            {"manifest", 'm', "FILE",
             "what you would submit: Job, JobSet, PyTorchJob, LeaderWorkerSet (Kueue or\nKAI annotations), Volcano "
             "Job, or a file with an sbatch line / #SBATCH lines"},
            {"gang", 0, "NAME",
             "which gang of --manifest, when it holds several; NAME/PART: one kind of pod\nof it alone (e.g. "
             "trainer/worker)"},
            {"sbatch", 0, "ARGS", "an sbatch command line, e.g. \"-N 16 --gres=gpu:8 --switches=1\""},
            {"ask-slurm", 0, "",
             "with --slurm cli: also run sbatch --test-only and show Slurm's own answer\nbeside topodeck's, flagging "
             "any disagreement"},
            {"slurm-version", 0, "VERSION",
             "Slurm rules to follow, e.g. 22.05 (Debian 12) or 26.05 (default: the version\nthe source reports, else "
             "the newest)"},
            {"node-weight", 0, "NODES=W", "Slurm node Weight for a hostlist, e.g. gpu-[001-008]=10 (repeatable)"},
            {"max-switch-wait", 0, "SECONDS", "Slurm SchedulerParameters=max_switch_wait (default 300)"},
            {"kueue-profile", 0, "PROFILE", "force best-fit or least-free-capacity (default: as Kueue decides)"},
            {"volcano-binpack", 0, "RES=W,...",
             "Volcano hypernode.binpack weights (default cpu=1,memory=1, and 1 for\neach GPU resource requested)"},
            {"drain", 0, "NODE|DOMAIN", "what-if: treat a node or a whole domain as drained (repeatable)"},
            {"then-place", 0, "FILE", "what-if: place these gangs first, in order (a manifest file)"},
            {"capacity", 0, "", "how many pods of --request fit per domain at each level right now"},
            {"depth", 0, "N", "with --capacity: list N levels of domains (0 = summary only)"},
            {"output", 'o', "FORMAT", "table (default) or json"},
        };
        const std::vector<FlagSpec> live = liveClusterFlags();
        s.flags.insert(s.flags.begin() + 2, live.begin(), live.end());
        return s;
    }();
    return spec;
}

int runPlanCommand(std::span<const std::string> args) {
    const CommandSpec& spec = planCommandSpec();
    auto parsed = parseCommandLine(spec, args);
    if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
    auto settings = settingsFrom(std::get<ParsedArgs>(parsed));
    if (!settings) return usageError(settings.error().message);
    auto loaded = loadCluster(settings->source);
    if (!loaded) return reportLoadError(settings->source, loaded.error());
    chooseSlurmVersion(*settings, **loaded);
    auto planned = prepare(*settings, std::move(*loaded));
    if (!planned) return usageError(planned.error().message);
    if (const std::string& notice = (*planned)->index.spec().notice; !notice.empty()) printWarning(notice);
    return settings->capacity ? runCapacity(*settings, **planned) : runPlan(*settings, **planned);
}

} // namespace topodeck::cli
