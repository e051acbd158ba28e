#pragma once

#include "core/model/gpu_resources.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/requests/gang_flags.h"
#include "core/placement/whatif/failure_impact.h"
#include "core/result.h"
#include "core/text/command_args.h"
#include "core/topology/topology_index.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// One step of a what-if, applied in order before the gang is placed.
struct WhatIfStep {
    // Drain stops new placements on the nodes (cordon); Fail also takes them down (NotReady) with
    // the pods they run, which breaks the gangs those pods belong to.
    enum class Kind { Drain, Place, Fail };
    Kind kind = Kind::Drain;
    std::string target; // Drain, Fail: a node name, a domain path or a domain value (drainTargetNodes)
    GangRequest gang;   // Place: a gang assumed placed by the engine being asked
    std::string engine{}; // Place outside a dry-run (the session's what-if): empty = the gang's default
};

// One dry-run, as `topodeckctl plan`'s flags ask it and as the GUI's planner builds it: the same
// flags give the same answer in both. The source and the hierarchy are the caller's.
struct PlanQuery {
    std::vector<std::string> engines; // empty: the engine the request is written for
    bool compare = false;
    bool capacity = false; // --capacity: pods of flags.perPod per domain, not one gang
    int depth = -1;

    // The gang: flags, or a manifest / batch script (its text, read by the caller), or an sbatch line
    // (which may also add options to a batch script).
    GangFlags flags;
    bool flagsGiven = false;
    std::string manifest;     // the file it came from ("-": stdin), for messages and --ask-slurm
    std::string manifestText; // the manifest itself
    std::string gangName;     // which gang of the manifest (NAME or NAME/PART)
    std::string sbatch;

    bool askSlurm = false;
    EngineOptions options;
    std::vector<std::pair<std::string, std::uint32_t>> nodeWeights; // hostlist -> weight
    std::vector<WhatIfStep> whatIf;
    std::string thenPlace; // --then-place FILE: gangs read into whatIf by the caller
};

// The flags of PlanQuery, as `topodeckctl plan --help` lists them.
const std::vector<FlagSpec>& planQueryFlags();
// The query the flags give (every flag of planQueryFlags(); others are ignored). Errors name the flag.
Result<PlanQuery> readPlanQuery(const ParsedArgs& args);
// The flags as one string for the GUI (`topodeck --plan "--pods 16 ..."`): words split as a shell
// would; a flag that is not a plan flag is an error.
Result<PlanQuery> parsePlanQuery(std::string_view flags);
// A flags line edited one flag at a time (the GUI planner's form), read as parsePlanQuery reads it:
// a flag's values in order (the last one counts), and the line with a flag given these values
// instead, every other word, unknown flags too, kept as written. Errors: the line is not words
// (an open quote).
Result<std::vector<std::string>> planFlagValues(std::string_view flags, std::string_view name);
Result<std::string> withPlanFlag(std::string_view flags, std::string_view name, const std::vector<std::string>& values);

// A file's text that is a batch script or an sbatch command rather than YAML or JSON.
bool looksLikeSbatchText(std::string_view text);
// The gang the query describes (the manifest's text read here).
Result<GangRequest> planGang(const PlanQuery& query);
// Every gang of a manifest's text, as what-if steps placing them in order (--then-place).
Result<std::vector<WhatIfStep>> placeStepsFrom(std::string_view manifestText, std::string_view sourceName);

// The engine the request was written for: an sbatch line means Slurm (tree or block, as the
// topology), a Volcano networkTopology means Volcano, KAI annotations mean KAI, else Kueue.
const PlacementEngine& defaultEngine(const GangRequest& gang, const PlacementCluster& cluster);

// The clusters the engines see: the hierarchy shown (with a hostname level), and, when that is not
// read from node labels, the label hierarchy that Kueue and KAI see instead. The cluster as the engines see it: the indexes and capacity columns every query on one state of
// the cluster starts from. Building them is most of a dry-run's time on a large cluster, so a
// caller that asks many questions of one state (the GUI's session) builds them once.
struct PlanBase {
    TopologySpec shown; // as given, before the hostname level is added
    GpuResources gpus;
    TopologyIndex index;
    std::unique_ptr<PlacementCluster> cluster;
    TopologyIndex labelIndex;
    std::unique_ptr<PlacementCluster> labelCluster; // null: Kueue and KAI see `index`
};
// The state must outlive the result.
std::shared_ptr<const PlanBase> preparePlanBase(const ClusterState& state, TopologySpec shown, GpuResources gpus);

// One query's view: copies of the base's clusters (sharing its capacity columns) with the
// query's failures, drains and node weights applied.
struct PlanInputs {
    // --fail: the state the engines see (the failed nodes NotReady, their pods gone), and the
    // running gangs the failure breaks; null and empty without --fail. Declared before the base
    // built on it, which must go first.
    std::unique_ptr<ClusterState> failedState;
    FailureReport failures;
    std::shared_ptr<const PlanBase> base;
    std::unique_ptr<PlacementCluster> cluster;
    std::unique_ptr<PlacementCluster> labelCluster;

    const TopologyIndex& index() const { return base->index; }
    const PlacementCluster& clusterFor(const PlacementEngine& engine) const {
        return engine.readsLabelLevelsOnly() && labelCluster ? *labelCluster : *cluster;
    }
};
// Fail and drain steps (in that order, whatever the order given) and node weights are applied
// here; place steps run per engine in runPlanQuery.
Result<std::unique_ptr<PlanInputs>> preparePlan(std::shared_ptr<const PlanBase> base, const PlanQuery& query);
// One query, one state (topodeckctl plan): the base built for it alone. The state must outlive the result.
Result<std::unique_ptr<PlanInputs>> preparePlan(const ClusterState& state, TopologySpec shown, GpuResources gpus,
                                                const PlanQuery& query);

struct PlanOutcome {
    GangRequest gang;
    std::vector<PlacementResult> results;
    std::vector<std::pair<std::string, std::string>> skipped; // engine, why it was not run
    std::vector<std::string> whatIfLines;                     // "kueue-tas: a (…): placed — …"
    bool allFeasible() const;
};
// Runs every engine asked for. Errors are the request's fault (a bad manifest, an engine that
// cannot run, an invalid request), in the words `topodeckctl plan` prints.
Result<PlanOutcome> runPlanQuery(const PlanInputs& inputs, const PlanQuery& query);

// Without --slurm-version, the Slurm engines follow the release the source reports (`version`, as
// `origin` says), else the newest rules; returns a warning when the version cannot be read.
std::string followSourceSlurmVersion(EngineOptions& options, const std::string& version, const std::string& origin);

// "block › rack › hostname", or "no levels".
std::string describeTopology(const TopologySpec& spec);
std::string placementEngineNames(); // "kueue-tas, volcano, ..."

} // namespace topodeck
