#pragma once

#include "core/placement/engines/dra_allocator.h"
#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// A Slurm release, for the rules that changed between versions (TreeRules in slurm_tree_engine.cpp).
struct SlurmVersion {
    int major = 26;
    int minor = 5;
    int patch = 0;
    // "22.05", "22.05.8", "24.05.3", "slurm-wlm 22.05.8" (as `sinfo -V` prints it).
    static Result<SlurmVersion> parse(std::string_view text);
    std::string toString() const;
    friend auto operator<=>(const SlurmVersion&, const SlurmVersion&) = default;
};

struct EngineOptions {
    // Kueue: Auto picks as Kueue does by default (TASProfileMixed: LeastFreeCapacity for
    // unconstrained, implied and slice-only requests, BestFit otherwise).
    enum class KueueProfile { Auto, BestFit, LeastFreeCapacity };
    KueueProfile kueueProfile = KueueProfile::Auto;
    SlurmVersion slurmVersion;               // the newest rules unless set
    // Why that version, for the Slurm engines' notes: "as --slurm-version asked", "the version
    // slurmrestd reports", "newest: the source does not say which Slurm it runs"; empty: no word.
    std::string slurmVersionOrigin;
    std::int64_t maxSwitchWaitSeconds = 300; // SchedulerParameters=max_switch_wait
    // Volcano hypernode.binpack.* weights: resource -> weight (cpu and memory default to 1).
    std::vector<std::pair<std::string, double>> volcanoBinpackWeights;
    // Which kube-scheduler DRA gates are on where the scheduler uses its plugin (1.35's defaults).
    DraFeatures draFeatures = DraFeatures::kubeScheduler();
    // Per-candidate trace entries beyond this many are summarised in one line.
    std::size_t maxTraceEntries = 200;
};

// How a scheduler treats pods that ask for devices by DRA claims (../shared/reference/dra.md 8).
enum class DraTreatment : std::uint8_t {
    None,            // no DRA (Slurm)
    KubeScheduler,   // per node, upstream's DynamicResources plugin as each pod is placed (Volcano)
    StableAllocator, // the same, with the "stable" allocator and no optional feature (KAI)
    AdmitThenBind,   // admits without looking at devices; kube-scheduler binds each pod (Kueue TAS)
};

// One scheduler's placement rules. Pure and deterministic: the same input gives the same result.
class PlacementEngine {
public:
    virtual ~PlacementEngine() = default;
    virtual std::string_view name() const = 0;        // "kueue-tas"
    virtual std::string_view description() const = 0; // one line for --help
    // True for schedulers that read the hierarchy only from node labels (a Topology's levels):
    // Kueue and KAI never see HyperNodes or a Slurm topology.
    virtual bool readsLabelLevelsOnly() const { return false; }
    virtual DraTreatment draTreatment() const { return DraTreatment::None; }
    // Why the engine cannot run on this cluster and request (e.g. no Slurm topology), or "".
    virtual std::string unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const = 0;
    // A request the engine cannot interpret (a level the topology lacks, a bad slice size) is a
    // result with invalidRequest set and the scheduler's message.
    virtual PlacementResult place(const PlacementCluster& cluster, const GangRequest& request,
                                  const EngineOptions& options) const = 0;
};

const PlacementEngine& kueueTasEngine();
const PlacementEngine& volcanoEngine();
const PlacementEngine& kaiEngine();
const PlacementEngine& slurmTreeEngine();
const PlacementEngine& slurmBlockEngine();

// Every engine, in the order --compare prints them.
const std::vector<const PlacementEngine*>& placementEngines();
const PlacementEngine* findPlacementEngine(std::string_view name);

} // namespace topodeck
