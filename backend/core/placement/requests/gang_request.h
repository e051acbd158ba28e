#pragma once

#include "core/model/dra.h"
#include "core/model/gpu_resources.h"
#include "core/model/node.h"
#include "core/model/resource_list.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

// A pod toleration (corev1.Toleration). An empty key with operator Exists tolerates every taint;
// an empty effect matches every effect.
struct Toleration {
    std::string key;
    std::string op = "Equal"; // "Equal" or "Exists"
    std::string value;
    std::string effect; // "", NoSchedule, PreferNoSchedule or NoExecute
    bool tolerates(const Taint& taint) const;
    friend bool operator==(const Toleration&, const Toleration&) = default;
};

// One layer of a Kueue slice constraint: pods come in groups of `size` that each sit in one
// domain of `level`.
struct SliceLayer {
    std::string level; // node-label key or a level's short name
    std::int32_t size = 0;
    friend bool operator==(const SliceLayer&, const SliceLayer&) = default;
};

// Kueue's PodSetTopologyRequest, from the podset-* annotations.
struct KueueConstraint {
    enum class Mode { Implied, Required, Preferred, Unconstrained };
    Mode mode = Mode::Implied;
    std::string level;              // for Required and Preferred
    std::vector<SliceLayer> slices; // outermost first; one entry for the single-layer annotations
    // kueue.x-k8s.io/podset-group-name: the PodSets of a Workload that share it (a leader of one
    // pod and its workers) are placed together in one pass; empty for none.
    std::string group;
    friend bool operator==(const KueueConstraint&, const KueueConstraint&) = default;
};

// Volcano networkTopology (job level, or per partition).
struct VolcanoTopology {
    bool hard = true;                               // mode: hard (default) or soft
    std::optional<std::int32_t> highestTierAllowed; // mutually exclusive with highestTierName
    std::string highestTierName;
    friend bool operator==(const VolcanoTopology&, const VolcanoTopology&) = default;
};

struct VolcanoConstraint {
    std::optional<VolcanoTopology> networkTopology; // none: the job has no topology constraint
    // partitionPolicy: the pods are split into partitions of partitionSize, each placed under its
    // own networkTopology; 0 means no partitions.
    std::int32_t partitionSize = 0;
    std::int32_t minPartitions = 0; // 0: all partitions
    std::optional<VolcanoTopology> partitionTopology;
    // minAvailable: a part's is its task's (the gang is ready once the task has that many pods);
    // a gang's is its job's spec.minAvailable (its PodGroup's minMember). Unset: every pod.
    std::optional<std::int32_t> minAvailable{};
    friend bool operator==(const VolcanoConstraint&, const VolcanoConstraint&) = default;
};

// KAI topology annotations (kai.scheduler/topology-*), and segments for PyTorchJob / LWS.
struct KaiConstraint {
    std::string required; // level key or short name; empty when none
    std::string preferred;
    std::int32_t segmentSize = 0; // 0: no segments
    std::string segmentRequired;
    std::string segmentPreferred;
    friend bool operator==(const KaiConstraint&, const KaiConstraint&) = default;
};

// What an sbatch line asks of topology/tree and topology/block.
struct SlurmRequest {
    std::int32_t minNodes = 0;         // -N min[-max]
    std::int32_t maxNodes = 0;         // equals minNodes unless a range was given
    std::int32_t gpusPerNode = 0;      // --gres=gpu:G / --gpus-per-node=G
    std::int32_t cpusPerNode = 0;      // from -c/--ntasks-per-node; 0 = one CPU per node
    // -n as Slurm's num_tasks when the tasks may spread freely (no --ntasks-per-node, --gpus-per-task or
    // --cpus-per-gpu; 0 otherwise): the job then needs ntasks x cpusPerTask CPUs in all, not cpusPerNode
    // on each node, and without -N (nodeCountGiven) it may use up to ntasks nodes. Read by slurm-tree.
    std::int32_t ntasks = 0;
    std::int32_t cpusPerTask = 1;      // -c
    bool nodeCountGiven = false;       // -N was given
    std::int64_t memoryPerNodeMiB = 0; // --mem; 0 = not requested
    bool exclusive = false;
    std::optional<std::int32_t> switches;  // --switches=N
    std::int64_t switchesWaitSeconds = -1; // @time; -1 = the cluster default (max_switch_wait)
    std::int32_t segment = 0;              // --segment=S
    bool spreadSegments = false;
    bool consolidateSegments = false;
    bool contiguous = false;                // --contiguous (only topology/flat's selection honours it)
    std::vector<std::string> requiredNodes; // -w / --nodelist, expanded
    std::vector<std::string> excludedNodes; // -x / --exclude, expanded
    std::string partition;
    friend bool operator==(const SlurmRequest&, const SlurmRequest&) = default;
};

// A claim the gang's pods use (a pod template's spec.resourceClaims[]): one made for each pod
// from a ResourceClaimTemplate, or one ResourceClaim every pod shares. The spec is the manifest's
// own document when it carries one, else the cluster's object (resolveGangClaims).
struct GangClaim {
    std::string name;         // the pods' name for it
    std::string templateName; // resourceClaimTemplateName: a claim per pod
    std::string claimName;    // resourceClaimName: one claim for all
    std::optional<ResourceClaimSpec> spec{}; // from the manifest
    bool shared() const { return templateName.empty(); }
    friend bool operator==(const GangClaim&, const GangClaim&) = default;
};

// One kind of pod in a gang whose pods are not all alike: a Kueue PodSet (a JobSet's
// replicatedJob, a PyTorchJob's Master or Worker, a LeaderWorkerSet group's leader or workers), a
// Volcano task, a KAI subgroup. Each carries what its scheduler reads per part: Kueue reads each
// PodSet's own topology annotations, Volcano a task's partitionPolicy.
struct GangPart {
    std::string name; // "master", "worker", the replicatedJob's or the task's name
    std::int32_t pods = 0;
    ResourceList perPod;
    std::vector<std::pair<std::string, std::string>> nodeSelector; // sorted by key
    std::vector<Toleration> tolerations;
    KueueConstraint kueue;
    VolcanoConstraint volcano;
    std::vector<GangClaim> claims{};
    friend bool operator==(const GangPart&, const GangPart&) = default;
};

// A gang: `pods` pods (or Slurm nodes) that must all start together. One request model for every
// engine; each engine reads the constraint fields that are its own. The pods are alike unless
// `parts` lists their kinds.
struct GangRequest {
    std::string name = "gang";
    std::string nameSpace = "default";
    std::int32_t pods = 0;
    ResourceList perPod;                                           // exact quantities, any resource name
    std::vector<std::pair<std::string, std::string>> nodeSelector; // sorted by key
    std::vector<Toleration> tolerations;
    std::vector<GangClaim> claims; // DRA: what each pod asks for by claims, beside perPod
    std::string topologyName; // Kueue/KAI Topology (kai.scheduler/topology); empty: the cluster's

    KueueConstraint kueue;
    VolcanoConstraint volcano;
    KaiConstraint kai;
    std::optional<SlurmRequest> slurm; // set when the request came from an sbatch line

    std::string source; // where it came from, for messages: "flags", "job.yaml (JobSet trainer)"

    // Empty when every pod is alike (pods, perPod, nodeSelector, tolerations, kueue above). Else
    // the kinds of pod, in the order their scheduler lists them; their pods add up to `pods`, and
    // the fields above describe the first part.
    std::vector<GangPart> parts;
    bool heterogeneous() const { return !parts.empty(); }
    // The parts, or the whole gang as one part.
    std::vector<GangPart> partsOrWhole() const;
    // This (uniform) gang's pods as one part of a larger gang.
    GangPart asPart() const { return GangPart{name, pods, perPod, nodeSelector, tolerations, kueue, volcano, claims}; }
    // Whether any of its pods asks for devices by claims.
    bool usesClaims() const;
    // This gang with only one of its parts (an index into partsOrWhole()), named "<gang>/<part>".
    GangRequest onlyPart(std::size_t part) const;

    friend bool operator==(const GangRequest&, const GangRequest&) = default;
};

// GPUs one pod (for an sbatch line: one node) of the gang asks for, as `gpus` counts them.
std::int64_t gpusPerPod(const GangRequest& gang, const GpuResources& gpus);

} // namespace topodeck
