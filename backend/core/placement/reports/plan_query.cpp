#include "core/placement/reports/plan_query.h"

#include "core/placement/engines/dra_placement.h"
#include "core/placement/engines/what_if.h"
#include "core/placement/reports/placement_report.h"
#include "core/placement/requests/gang_manifest.h"
#include "core/placement/requests/sbatch_args.h"
#include "core/slurm/slurm_cluster.h"
#include "core/text/hostlist.h"
#include "core/topology/topology_presets.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace topodeck {
namespace {

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

// --pods, --request, the levels and slices: the gang given by flags.
Status readGangFlags(const ParsedArgs& args, PlanQuery& q) {
    GangFlags& f = q.flags;
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
    q.flagsGiven = args.has("pods") || args.has("request") || args.has("required") || args.has("preferred") ||
                   f.unconstrained || !f.slices.empty();
    return {};
}

// Exactly one way of giving the gang (flags, --manifest, --sbatch), or --capacity's pod shape.
Status readGangSource(const ParsedArgs& args, PlanQuery& q) {
    if (const std::string* manifest = args.value("manifest")) q.manifest = *manifest;
    if (const std::string* gang = args.value("gang")) {
        if (q.manifest.empty()) return Error{"--gang picks a gang of --manifest FILE"};
        q.gangName = *gang;
    }
    if (const std::string* sbatch = args.value("sbatch")) q.sbatch = *sbatch;
    q.capacity = args.has("capacity");
    if (const std::string* depth = args.value("depth")) {
        auto value = parseIntValue("--depth", *depth, 0, 16);
        if (!value) return value.error();
        q.depth = *value;
    }
    // --sbatch may also add options to a batch script given with --manifest.
    const int gangSources = (q.manifest.empty() && q.sbatch.empty() ? 0 : 1) + (q.flagsGiven ? 1 : 0);
    if (q.capacity) {
        if (!q.manifest.empty() || !q.sbatch.empty())
            return Error{"--capacity takes --request (and optionally --pods)"};
        if (q.flags.perPod.empty()) return Error{"--capacity needs the pod shape: --request RESOURCE=QUANTITY[,...]"};
        if (q.compare || !q.engines.empty())
            return Error{"--capacity counts per domain; it takes no --engine or --compare"};
    } else if (gangSources == 0) {
        return Error{"say what to place: --pods N --request RES=QTY, --manifest FILE, or --sbatch \"ARGS\""};
    } else if (gangSources > 1) {
        return Error{"give the gang one way: flags (--pods, --request, ...), --manifest FILE or --sbatch \"ARGS\""};
    } else if (q.flagsGiven && q.flags.pods == 0) {
        return Error{"--pods N is required when the gang is given by flags"};
    }
    return {};
}

// --dra-gates: kube-scheduler's DRA feature gates, written as its --feature-gates takes them.
Status readDraGates(const std::string& text, DraFeatures& features) {
    const std::pair<std::string_view, bool DraFeatures::*> gates[] = {
        {"DRAPrioritizedList", &DraFeatures::prioritizedList},
        {"DRAAdminAccess", &DraFeatures::adminAccess},
        {"DRAPartitionableDevices", &DraFeatures::partitionableDevices},
        {"DRADeviceTaints", &DraFeatures::deviceTaints},
        {"DRAExtendedResource", &DraFeatures::extendedResource},
    };
    for (const std::string& item : splitList(text)) {
        const std::size_t eq = item.find('=');
        const std::string_view name = std::string_view(item).substr(0, eq);
        const std::string_view value = eq == std::string::npos ? std::string_view() : std::string_view(item).substr(eq + 1);
        const auto gate = std::find_if(std::begin(gates), std::end(gates), [&](const auto& g) { return g.first == name; });
        if (gate == std::end(gates)) {
            std::string known;
            for (const auto& g : gates) known += (known.empty() ? "" : ", ") + std::string(g.first);
            return Error{"--dra-gates: unknown gate \"" + std::string(name) + "\" (gates: " + known + ")"};
        }
        if (value != "true" && value != "false")
            return Error{"--dra-gates wants GATE=true|false[,...], e.g. DRAExtendedResource=true"};
        features.*(gate->second) = value == "true";
    }
    return {};
}

// --slurm-version, --node-weight, --max-switch-wait, --kueue-profile, --volcano-binpack, --dra-gates.
Status readEngineOptions(const ParsedArgs& args, PlanQuery& q) {
    q.askSlurm = args.has("ask-slurm");
    if (q.askSlurm && q.capacity) return Error{"--ask-slurm asks about one request; --capacity counts many"};
    if (const std::string* version = args.value("slurm-version")) {
        auto parsed = SlurmVersion::parse(*version);
        if (!parsed) return Error{"--slurm-version: " + parsed.error().message};
        q.options.slurmVersion = *parsed;
        q.options.slurmVersionOrigin = "as --slurm-version asked";
    }
    for (const std::string& item : args.values("node-weight")) {
        const std::size_t eq = item.rfind('=');
        if (eq == std::string::npos || eq == 0) return Error{"--node-weight wants NODES=WEIGHT, e.g. gpu-[001-008]=10"};
        auto weight = parseIntValue("--node-weight " + item.substr(0, eq), std::string_view(item).substr(eq + 1), 0,
                                    std::numeric_limits<int>::max());
        if (!weight) return weight.error();
        q.nodeWeights.emplace_back(item.substr(0, eq), static_cast<std::uint32_t>(*weight));
    }
    if (const std::string* wait = args.value("max-switch-wait")) {
        auto seconds = parseIntValue("--max-switch-wait", *wait, 0, std::numeric_limits<int>::max());
        if (!seconds) return seconds.error();
        q.options.maxSwitchWaitSeconds = *seconds;
    }
    if (const std::string* profile = args.value("kueue-profile")) {
        auto parsed = parseKueueProfile(*profile);
        if (!parsed) return parsed.error();
        q.options.kueueProfile = *parsed;
    }
    if (const std::string* weights = args.value("volcano-binpack")) {
        for (const std::string& item : splitList(*weights)) {
            const std::size_t eq = item.find('=');
            char* end = nullptr;
            const double weight = eq == std::string::npos ? -1 : std::strtod(item.c_str() + eq + 1, &end);
            if (eq == std::string::npos || eq == 0 || end == nullptr || *end != '\0' || weight < 0)
                return Error{"--volcano-binpack wants RESOURCE=WEIGHT[,...], e.g. nvidia.com/gpu=10,cpu=1"};
            q.options.volcanoBinpackWeights.emplace_back(item.substr(0, eq), weight);
        }
    }
    if (const std::string* gates = args.value("dra-gates"))
        if (Status status = readDraGates(*gates, q.options.draFeatures); !status) return status;
    for (std::string& target : args.values("fail")) q.whatIf.push_back({WhatIfStep::Kind::Fail, std::move(target), {}});
    for (std::string& target : args.values("drain"))
        q.whatIf.push_back({WhatIfStep::Kind::Drain, std::move(target), {}});
    if (const std::string* file = args.value("then-place")) q.thenPlace = *file;
    if (q.capacity && !q.thenPlace.empty()) return Error{"--then-place does not apply to --capacity (use --drain)"};
    return {};
}

} // namespace

std::string placementEngineNames() {
    std::string names;
    for (const PlacementEngine* engine : placementEngines())
        names += (names.empty() ? "" : ", ") + std::string(engine->name());
    return names;
}

const std::vector<FlagSpec>& planQueryFlags() {
    static const std::vector<FlagSpec> flags = {
        {"engine", 'e', "NAME",
         "scheduler rules: " + placementEngineNames() + "\n(default: the one the request is written for; repeatable)"},
        {"compare", 0, "", "run every engine that applies and show them side by side"},
        {"pods", 'n', "N", "pods in the gang (with --capacity: the gang size to count)"},
        {"request", 'r', "RES=QTY,...", "per-pod requests, e.g. nvidia.com/gpu=8,cpu=32,memory=256Gi"},
        {"required", 0, "LEVEL", "all pods inside one domain of LEVEL (label key or short name)"},
        {"preferred", 0, "LEVEL", "inside one domain of LEVEL if possible, else as close as possible"},
        {"unconstrained", 0, "", "no topology constraint (Kueue: podset-unconstrained-topology)"},
        {"slice-level", 0, "LEVEL", "pods in slices, each slice inside one domain of LEVEL"},
        {"slice-size", 0, "N", "pods per slice (with --slice-level)"},
        {"slice-layers", 0, "LEVEL:N,...", "multi-layer slices, outermost first (Kueue TASMultiLayerTopology)"},
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
        {"dra-gates", 0, "GATE=BOOL,...",
         "kube-scheduler's DRA feature gates (Volcano, and the binding after Kueue), e.g.\nDRAExtendedResource=true; "
         "default: 1.35's (DRAPrioritizedList, DRAAdminAccess on)"},
        {"drain", 0, "NODE|DOMAIN", "what-if: treat a node or a whole domain as drained (repeatable)"},
        {"fail", 0, "NODE|DOMAIN",
         "what-if: a node or a whole domain fails (NotReady, its pods gone); lists the running\ngangs it "
         "breaks and whether each would fit again now (repeatable)"},
        {"then-place", 0, "FILE", "what-if: place these gangs first, in order (a manifest file)"},
        {"capacity", 0, "", "how many pods of --request fit per domain at each level right now"},
        {"depth", 0, "N", "with --capacity: list N levels of domains (0 = summary only)"},
    };
    return flags;
}

Result<PlanQuery> readPlanQuery(const ParsedArgs& args) {
    PlanQuery q;
    q.compare = args.has("compare");
    for (const std::string& name : args.values("engine")) {
        if (findPlacementEngine(name) == nullptr)
            return Error{"unknown engine \"" + name + "\" (engines: " + placementEngineNames() + ")"};
        q.engines.push_back(name);
    }
    if (q.compare && !q.engines.empty()) return Error{"use either --engine or --compare, not both"};
    for (const auto read : {readGangFlags, readGangSource, readEngineOptions})
        if (Status status = read(args, q); !status) return status.error();
    return q;
}

namespace {

const CommandSpec& planCommandSpec() {
    static const CommandSpec spec = [] {
        CommandSpec s;
        s.name = "plan";
        s.flags = planQueryFlags();
        return s;
    }();
    return spec;
}

} // namespace

Result<std::vector<std::string>> planFlagValues(std::string_view flags, std::string_view name) {
    auto words = splitCommandWords(flags);
    if (!words) return words.error();
    return flagValues(planCommandSpec(), *words, name);
}

Result<std::string> withPlanFlag(std::string_view flags, std::string_view name,
                                 const std::vector<std::string>& values) {
    return lineWithFlagValues(planCommandSpec(), flags, name, values);
}

Result<PlanQuery> parsePlanQuery(std::string_view flags) {
    auto words = splitCommandWords(flags);
    if (!words) return words.error();
    const CommandSpec& spec = planCommandSpec();
    auto args = parseArgs(spec, *words);
    if (!args) return args.error();
    if (!args->positionals().empty()) return Error{"unexpected argument \"" + args->positionals().front() + "\""};
    return readPlanQuery(*args);
}

bool looksLikeSbatchText(std::string_view text) {
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        const std::size_t start = line.find_first_not_of(" \t\r");
        if (start == std::string_view::npos) continue;
        line.remove_prefix(start);
        if (line.starts_with("#SBATCH") || line.starts_with("#!") || line.starts_with("sbatch")) return true;
        if (line.front() != '#') return false;
    }
    return false;
}

Result<GangRequest> planGang(const PlanQuery& q) {
    const std::string name = q.manifest.empty() ? std::string("manifest") : q.manifest;
    const bool hasManifest = !q.manifest.empty() || !q.manifestText.empty();
    if (hasManifest && looksLikeSbatchText(q.manifestText)) return parseSbatchScript(q.manifestText, name, q.sbatch);
    if (hasManifest && !q.sbatch.empty())
        return Error{"--sbatch adds to a batch script given with --manifest; " + name + " is not one"};
    if (hasManifest) {
        auto gangs = readGangManifests(q.manifestText, name);
        if (!gangs) return gangs.error();
        if (gangs->empty()) return Error{name + ": no gang in this file"};
        std::string names;
        for (const GangRequest& gang : *gangs) {
            if (!q.gangName.empty() && gang.name == q.gangName) return gang;
            names += (names.empty() ? "" : ", ") + gang.name;
            // NAME/PART: one kind of pod of a gang, alone.
            for (std::size_t i = 0; i < gang.parts.size(); ++i)
                if (q.gangName == gang.name + '/' + gang.parts[i].name) return gang.onlyPart(i);
        }
        if (!q.gangName.empty()) return Error{name + ": no gang named \"" + q.gangName + "\" (it has " + names + ")"};
        if (gangs->size() > 1)
            return Error{name + " holds " + std::to_string(gangs->size()) + " gangs (" + names +
                         "): pick one with --gang NAME"};
        return std::move(gangs->front());
    }
    if (!q.sbatch.empty()) return parseSbatchLine(q.sbatch);
    return gangFromFlags(q.flags);
}

Result<std::vector<WhatIfStep>> placeStepsFrom(std::string_view manifestText, std::string_view sourceName) {
    auto gangs = readGangManifests(manifestText, sourceName);
    if (!gangs) return gangs.error();
    std::vector<WhatIfStep> steps;
    for (GangRequest& gang : *gangs) steps.push_back({WhatIfStep::Kind::Place, {}, std::move(gang), {}});
    return steps;
}

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

namespace {

// The scheduler-specific objects and what-if settings every engine's cluster gets alike.
Status configureCluster(const PlanQuery& q, PlacementCluster& cluster, const std::vector<NodeId>& drained) {
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
    for (const auto& [hostlist, weight] : q.nodeWeights) {
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

} // namespace

std::shared_ptr<const PlanBase> preparePlanBase(const ClusterState& state, TopologySpec shown, GpuResources gpus) {
    auto base = std::make_shared<PlanBase>();
    base->shown = shown;
    base->gpus = gpus;
    TopologySpec labels = labelHierarchyFor(shown, state);
    const bool labelsDiffer = !(labels == shown);
    base->index = TopologyIndex::build(state, withHostnameLevel(std::move(shown), state), gpus);
    base->cluster = std::make_unique<PlacementCluster>(state, base->index);
    if (labelsDiffer) {
        base->labelIndex = TopologyIndex::build(state, withHostnameLevel(std::move(labels), state), std::move(gpus));
        base->labelCluster = std::make_unique<PlacementCluster>(state, base->labelIndex);
    }
    return base;
}

Result<std::unique_ptr<PlanInputs>> preparePlan(std::shared_ptr<const PlanBase> base, const PlanQuery& query) {
    auto inputs = std::make_unique<PlanInputs>();
    if (std::any_of(query.whatIf.begin(), query.whatIf.end(),
                    [](const WhatIfStep& step) { return step.kind == WhatIfStep::Kind::Fail; })) {
        // A failure changes the state itself (its pods are gone), so the engines plan on a copy;
        // the targets name domains of the live cluster, whose gangs the failure is judged on.
        std::vector<NodeId> failed;
        for (const WhatIfStep& step : query.whatIf) {
            if (step.kind != WhatIfStep::Kind::Fail) continue;
            auto nodes = drainTargetNodes(*base->cluster, step.target, "--fail");
            if (!nodes) return nodes.error();
            failed.insert(failed.end(), nodes->begin(), nodes->end());
        }
        const ClusterState& live = base->cluster->state();
        inputs->failures = assessFailure(live, base->index, failed, query.options);
        inputs->failedState = std::make_unique<ClusterState>(live);
        failNodes(*inputs->failedState, nullptr, failed);
        base = preparePlanBase(*inputs->failedState, base->shown, base->gpus);
    }
    inputs->cluster = std::make_unique<PlacementCluster>(*base->cluster);
    if (base->labelCluster) inputs->labelCluster = std::make_unique<PlacementCluster>(*base->labelCluster);
    inputs->base = std::move(base);
    // Drain targets name domains of the hierarchy shown.
    std::vector<NodeId> drained;
    for (const WhatIfStep& step : query.whatIf) {
        if (step.kind != WhatIfStep::Kind::Drain) continue;
        auto nodes = drainTargetNodes(*inputs->cluster, step.target);
        if (!nodes) return nodes.error();
        drained.insert(drained.end(), nodes->begin(), nodes->end());
    }
    for (PlacementCluster* cluster : {inputs->cluster.get(), inputs->labelCluster.get()})
        if (cluster)
            if (Status configured = configureCluster(query, *cluster, drained); !configured) return configured.error();
    return inputs;
}

Result<std::unique_ptr<PlanInputs>> preparePlan(const ClusterState& state, TopologySpec shown, GpuResources gpus,
                                                const PlanQuery& query) {
    return preparePlan(preparePlanBase(state, std::move(shown), std::move(gpus)), query);
}

bool PlanOutcome::allFeasible() const {
    for (const PlacementResult& result : results)
        if (!result.feasible) return false;
    return !results.empty();
}

std::string followSourceSlurmVersion(EngineOptions& options, const std::string& version, const std::string& origin) {
    if (!options.slurmVersionOrigin.empty()) return {}; // --slurm-version
    const SlurmVersion newest;
    if (version.empty()) {
        options.slurmVersionOrigin = "newest: the source does not say which Slurm it runs";
        return {};
    }
    if (auto parsed = SlurmVersion::parse(version)) {
        options.slurmVersion = *parsed;
        options.slurmVersionOrigin = origin;
        return {};
    }
    options.slurmVersion = newest;
    options.slurmVersionOrigin = "newest: \"" + version + "\", " + origin + ", is not a version topodeck reads";
    return "Slurm version \"" + version + "\" (" + origin +
           ") cannot be read: the Slurm engines follow the newest rules (" + newest.toString() +
           "); --slurm-version sets them";
}

std::string describeTopology(const TopologySpec& spec) {
    std::string text;
    for (const TopologyLevel& level : spec.levels) text += (text.empty() ? "" : " › ") + level.name;
    return text.empty() ? std::string("no levels") : text;
}

Result<PlanOutcome> runPlanQuery(const PlanInputs& inputs, const PlanQuery& query) {
    PlanOutcome outcome;
    auto gang = planGang(query);
    if (!gang) return gang.error();
    outcome.gang = std::move(*gang);

    std::vector<const PlacementEngine*> engines;
    for (const std::string& name : query.engines) engines.push_back(findPlacementEngine(name));
    if (query.compare) {
        for (const PlacementEngine* engine : placementEngines()) {
            std::string why = engine->unavailableReason(inputs.clusterFor(*engine), outcome.gang);
            if (why.empty())
                engines.push_back(engine);
            else
                outcome.skipped.emplace_back(engine->name(), std::move(why));
        }
        if (engines.empty()) return Error{"no engine applies to this cluster and request"};
    } else if (engines.empty()) {
        engines.push_back(&defaultEngine(outcome.gang, *inputs.cluster));
    }
    for (const PlacementEngine* engine : engines)
        if (engine == nullptr) return Error{"unknown engine (engines: " + placementEngineNames() + ")"};
    if (!query.compare)
        for (const PlacementEngine* engine : engines)
            if (std::string why = engine->unavailableReason(inputs.clusterFor(*engine), outcome.gang); !why.empty())
                return Error{std::string(engine->name()) + ": " + why};

    for (const PlacementEngine* engine : engines) {
        PlacementCluster cluster = inputs.clusterFor(*engine); // each engine sees its own what-if
        for (const WhatIfStep& step : query.whatIf) {
            if (step.kind != WhatIfStep::Kind::Place) continue;
            const PlacementResult placed = placeGang(*engine, cluster, step.gang, query.options);
            outcome.whatIfLines.push_back(
                std::string(engine->name()) + ": " + step.gang.name + " (" + describeGang(step.gang) +
                "): " + (placed.feasible ? "placed" : "does not fit, left out") + " — " + placed.message);
            assumePlacement(cluster, step.gang, placed);
            assumePlacedClaims(cluster, *engine, step.gang, placed, query.options);
        }
        outcome.results.push_back(placeGang(*engine, cluster, outcome.gang, query.options));
        if (&inputs.clusterFor(*engine) != inputs.cluster.get())
            outcome.results.back().notes.push_back(std::string(engine->name()) + " reads node labels only, not the " +
                                                   describeTopology(inputs.index().spec()) + " shown: it saw levels " +
                                                   describeTopology(inputs.base->labelIndex.spec()));
    }
    // One engine asked alone answers an invalid request as its scheduler does, with an error; side
    // by side it is that engine's row (Slurm refuses GPUs a DRA cluster's nodes have no gres for).
    if (!query.compare)
        for (const PlacementResult& result : outcome.results)
            if (result.invalidRequest) return Error{result.engine + ": " + result.message};
    return outcome;
}

} // namespace topodeck
