#pragma once
// A gang as the manifest an operator would submit for it: a Job, JobSet, PyTorchJob or
// LeaderWorkerSet with the annotations Kueue or KAI read, a Volcano Job with its
// networkTopology and partitions, or an sbatch script. Written so that `topodeckctl plan
// --manifest` reads it back into a gang each scheduler places as the original
// (tests/unit/test_gang_export.cpp); what a scheduler cannot be asked is refused, or in a batch
// script said in a comment, never dropped silently.

#include "core/model/gpu_resources.h"
#include "core/model/topology_spec.h"
#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace topodeck {

enum class GangWorkload { Job, JobSet, PyTorchJob, LeaderWorkerSet, VolcanoJob };
enum class GangScheduler { Kueue, Kai, Volcano };

// "job", "jobset", "pytorchjob", "leaderworkerset" (or "lws"), "volcanojob"; nullopt otherwise.
std::optional<GangWorkload> gangWorkloadNamed(std::string_view name);

struct GangExportOptions {
    GangScheduler scheduler = GangScheduler::Kueue;
    GangWorkload workload = GangWorkload::Job; // Volcano: always a Volcano Job
    std::string queue = "default";             // Kueue LocalQueue, KAI or Volcano queue
    std::string image = "REPLACE-WITH-YOUR-IMAGE";
};

// Levels may be named by label key or short name, as on the command line; the manifest carries
// what its scheduler reads: label keys for Kueue and KAI, tier names (or numbers) for Volcano.
// Refused: a level the hierarchy does not have, a gang whose kinds of pod the workload cannot
// express (a Job has one), KAI segments outside a PyTorchJob or LeaderWorkerSet (only their
// podgroupers cut segments), a Volcano gang in anything but a Volcano Job.
Result<std::string> gangManifestYaml(const GangRequest& gang, const TopologySpec& spec,
                                     const GangExportOptions& options = {});

// An sbatch batch script: the request's own options when it came from sbatch, else the gang's
// nodes, GPUs, CPUs and memory per node, with the topology request turned into Slurm's terms
// where it has them (a required lowest level: --switches=1 for tree, slices of it: --segment for
// block) and a comment where it has not.
Result<std::string> gangBatchScript(const GangRequest& gang, const TopologySpec& spec, const GpuResources& gpus,
                                    bool blockTopology);

} // namespace topodeck
