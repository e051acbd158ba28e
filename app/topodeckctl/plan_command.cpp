#include "plan_command.h"

#include "cluster_input.h"
#include "terminal.h"

#include "core/placement/reports/capacity_report.h"
#include "core/placement/reports/placement_report.h"
#include "core/placement/reports/plan_query.h"
#include "core/placement/requests/sbatch_args.h"
#include "core/text/text_file.h"
#include "net/slurm_cli.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace topodeck::cli {
namespace {

struct PlanSettings {
    ClusterSource source;
    HierarchyChoice hierarchy;
    bool json = false;
    PlanQuery query;
};

// Reads -f's "-" and --manifest / --then-place files here, so the query holds their text.
Result<std::string> readManifestArgument(const std::string& path) {
    if (path != "-") return readTextFile(path);
    return readAll(stdin);
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
    auto query = readPlanQuery(args);
    if (!query) return query.error();
    s.query = std::move(*query);
    PlanQuery& q = s.query;
    q.flags.topologyName = s.hierarchy.topologyName;
    if (!q.manifest.empty()) {
        auto text = readManifestArgument(q.manifest);
        if (!text) return text.error();
        q.manifestText = std::move(*text);
    }
    if (!q.thenPlace.empty()) {
        auto text = readManifestArgument(q.thenPlace);
        if (!text) return text.error();
        auto steps = placeStepsFrom(*text, q.thenPlace);
        if (!steps) return steps.error();
        q.whatIf.insert(q.whatIf.end(), steps->begin(), steps->end());
    }
    if (q.askSlurm) {
        const auto& live = s.source.live;
        if (!live || !live->slurm || live->slurm->kind != SlurmTarget::Kind::Cli)
            return Error{"--ask-slurm runs sbatch --test-only, so it needs the Slurm CLI source (--slurm cli)"};
        if (q.sbatch.empty() && (q.manifest.empty() || !looksLikeSbatchText(q.manifestText)))
            return Error{"--ask-slurm needs the request as sbatch would get it: --sbatch \"ARGS\" or a batch script"};
    }
    return s;
}

struct Planned {
    std::unique_ptr<LoadedCluster> loaded;
    std::unique_ptr<PlanInputs> inputs;
};

std::size_t drainCount(const PlanQuery& q) {
    return static_cast<std::size_t>(std::count_if(
        q.whatIf.begin(), q.whatIf.end(), [](const WhatIfStep& step) { return step.kind == WhatIfStep::Kind::Drain; }));
}

int runCapacity(const PlanSettings& s, const Planned& planned) {
    const PlanQuery& q = s.query;
    const CapacityReport report = buildCapacityReport(*planned.inputs->cluster, q.flags.perPod, q.flags.pods);
    CapacityRenderOptions options;
    options.source = s.source.describe(planned.loaded->demo, !s.json, planned.loaded->live.get());
    options.depth = q.depth;
    if (const std::size_t drains = drainCount(q); drains > 0 && !s.json)
        options.source += " · after draining " + std::to_string(drains) + " target(s)";
    writeStdout(s.json ? renderCapacityJson(report, options) : renderCapacityTable(report, options));
    return kExitOk;
}

// What Slurm itself answers (sbatch --test-only), beside topodeck's prediction.
Result<SlurmAnswerCheck> askSlurm(const PlanQuery& q, const Planned& planned,
                                  const std::vector<PlacementResult>& results) {
    const SlurmTarget* target = planned.loaded->live ? planned.loaded->live->slurmTarget() : nullptr;
    if (!target) return Error{"--ask-slurm needs --slurm cli"};
    std::vector<std::string> arguments;
    if (!q.manifest.empty()) {
        arguments.push_back(q.manifest); // the batch script, whose #SBATCH lines sbatch reads itself
        if (!q.sbatch.empty()) {
            auto extra = sbatchArguments(q.sbatch);
            if (!extra) return extra.error();
            arguments.insert(arguments.begin(), extra->begin(), extra->end());
        }
    } else {
        auto words = sbatchArguments(q.sbatch);
        if (!words) return words.error();
        arguments = std::move(*words);
    }
    SlurmCli cli(*target, std::chrono::seconds(60), nullptr);
    auto answer = cli.testOnly(arguments, q.manifest.empty());
    if (!answer) return answer.error();

    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    return checkAgainstSlurm(results, std::move(*answer), now);
}

int runPlan(const PlanSettings& s, const Planned& planned) {
    const PlanQuery& q = s.query;
    auto outcome = runPlanQuery(*planned.inputs, q);
    if (!outcome) return usageError(outcome.error().message);
    const std::vector<PlacementResult>& results = outcome->results;
    const bool allFeasible = outcome->allFeasible();
    std::optional<SlurmAnswerCheck> slurmAnswer;
    if (q.askSlurm) {
        auto answer = askSlurm(q, planned, results);
        if (!answer) return runtimeError("--ask-slurm: " + answer.error().message);
        slurmAnswer = std::move(*answer);
    }

    if (s.json) {
        writeStdout(renderPlanJson(results, outcome->skipped, q.compare, slurmAnswer ? &*slurmAnswer : nullptr,
                                   &planned.inputs->failures));
        return allFeasible ? kExitOk : kExitDoesNotFit;
    }

    const PlacementCluster& base = *planned.inputs->cluster;
    PlacementRenderOptions options;
    options.source = s.source.describe(planned.loaded->demo, true, planned.loaded->live.get()) + " · levels " +
                     describeTopology(planned.inputs->index().spec());
    std::string out;
    if (!planned.inputs->failures.failedNodes.empty()) {
        std::vector<std::string> targets;
        for (const WhatIfStep& step : q.whatIf)
            if (step.kind == WhatIfStep::Kind::Fail) targets.push_back(step.target);
        out += renderFailureReport(planned.inputs->failures, targets);
    }
    if (drainCount(q) > 0) {
        out += "What-if: drained";
        for (const WhatIfStep& step : q.whatIf)
            if (step.kind == WhatIfStep::Kind::Drain) out += ' ' + step.target;
        out += '\n';
    }
    if (!outcome->whatIfLines.empty()) {
        out += "What-if: placed first, in order:\n";
        for (const std::string& line : outcome->whatIfLines) out += "  " + line + '\n';
    }
    if (!out.empty()) out += '\n';
    if (results.size() > 1) {
        out += renderPlacementComparison(results, outcome->gang, base, options);
        for (const auto& [engine, why] : outcome->skipped) out += "  " + engine + ": not run: " + why + '\n';
    } else {
        out += renderPlacementTable(results.front(), outcome->gang, base, options);
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
        s.usage = "topodeckctl plan (--demo NAME | -f FILE | --context NAME | --slurm URL|cli) (--pods N --request "
                  "RES=QTY |\n"
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
            "  # Which running gangs a rack failure breaks, and whether each would fit again now\n"
            "  topodeckctl plan --demo gb200 --pods 4 --request nvidia.com/gpu=4 --fail su-1/rack-1-02\n"
            "  # How many 8-pod x 8-GPU gangs fit per block right now, with one rack drained\n"
            "  topodeckctl plan --demo h100 --capacity --request nvidia.com/gpu=8 --pods 8 --drain block-2/rack-2-1\n";
        std::string demos;
        for (const std::string& name : demoClusterNames()) demos += (demos.empty() ? "" : ", ") + name;
        s.flags = {
            {"demo", 0, "NAME", "embedded demo cluster: " + demos},
            {"filename", 'f', "FILE",
             "snapshot: a Kubernetes List as kubectl prints it (nodes, pods, Topology,\nHyperNode); - reads stdin"},
            {"topology", 0, "NAME", "hierarchy from this Kueue/KAI Topology in the snapshot, or a preset"},
            {"levels", 0, "KEYS", "hierarchy from these node-label keys, top level first"},
            {"gpu-resources", 0, "NAMES", "resources that count as GPUs (default nvidia.com/gpu)"},
            {"gpu-classes", 0, "NAMES", "DRA DeviceClasses whose devices count as GPUs (default gpu.nvidia.com)"},
        };
        s.flags.insert(s.flags.end(), planQueryFlags().begin(), planQueryFlags().end());
        s.flags.push_back({"output", 'o', "FORMAT", "table (default) or json"});
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
    if (std::string warning =
            followSourceSlurmVersion(settings->query.options, (*loaded)->slurmVersion, (*loaded)->slurmVersionOrigin);
        !warning.empty())
        printWarning(warning);
    auto planned = std::make_unique<Planned>();
    planned->loaded = std::move(*loaded);
    // A dry-run plans on the cluster as it was listed; later changes are not followed.
    if (planned->loaded->live) planned->loaded->live->stop();
    auto shown = planned->loaded->resolve(settings->hierarchy);
    if (!shown) return usageError(shown.error().message);
    auto inputs = preparePlan(planned->loaded->state, std::move(*shown), settings->hierarchy.gpus, settings->query);
    if (!inputs) return usageError(inputs.error().message);
    planned->inputs = std::move(*inputs);
    if (const std::string& notice = planned->inputs->index().spec().notice; !notice.empty()) printWarning(notice);
    return settings->query.capacity ? runCapacity(*settings, *planned) : runPlan(*settings, *planned);
}
} // namespace topodeck::cli
