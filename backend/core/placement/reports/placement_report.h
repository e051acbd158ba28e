#pragma once

#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/requests/gang_request.h"
#include "core/placement/whatif/failure_impact.h"
#include "core/slurm/slurm_text.h"

#include <cstdint>
#include <utility>

#include <string>
#include <vector>

namespace topodeck {

struct PlacementRenderOptions {
    std::string source;             // e.g. "demo gb200"
    std::size_t maxTraceLines = 24; // in the table; JSON always carries the engine's whole trace
};

// One engine's answer, for people: verdict, the scheduler's message, where each pod goes grouped
// by lowest-level domain (node names as Slurm hostlists), and why candidates were taken or not.
std::string renderPlacementTable(const PlacementResult& result, const GangRequest& request,
                                 const PlacementCluster& cluster, const PlacementRenderOptions& options);
// Several engines side by side: a verdict per engine, then pods per domain in one column each.
std::string renderPlacementComparison(const std::vector<PlacementResult>& results, const GangRequest& request,
                                      const PlacementCluster& cluster, const PlacementRenderOptions& options);

class JsonWriter;

// {"engine","feasible","message","nodes":[{"name","pods"}],"assignment":{"levels","domains":
// [{"values","count"}]},"chosen":[{"level","domain"}],"trace":[{"level","domain","taken","reason"}],
// "tiedWith":[...],"notes":[...]} — no trailing newline.
std::string placementResultJson(const PlacementResult& result);
void writePlacementResult(JsonWriter& json, const PlacementResult& result);

// Slurm's own answer (sbatch --test-only) beside the first Slurm engine's of `results`.
struct SlurmAnswerCheck {
    SbatchTestOnly answer;
    bool startsNow = false; // Slurm names a start within a minute
    bool agrees = true;
    std::string verdict; // "agrees with slurm-tree", "DISAGREES: Slurm picks ..., slurm-tree ..."
};
SlurmAnswerCheck checkAgainstSlurm(const std::vector<PlacementResult>& results, SbatchTestOnly answer,
                                   std::int64_t nowSeconds);
// "Slurm's own answer (sbatch --test-only): starts now (...) on ... in partition ...\n  <verdict>\n".
std::string renderSlurmAnswer(const SlurmAnswerCheck& check);

// What `plan -o json` prints, newline included: one engine's result; with several engines (or
// compare), {"results":[...],"skipped":[{"engine","reason"}]}; either with "askSlurm" when asked.
std::string renderPlanJson(const std::vector<PlacementResult>& results,
                           const std::vector<std::pair<std::string, std::string>>& skipped, bool compare,
                           const SlurmAnswerCheck* slurm, const FailureReport* failures = nullptr);
// With failures (plan --fail): "failures": [{"gang", "kind", "engine", "engineReason", "pods",
// "lostPods", "fits", "placedAgain", "message", "nodes"}], beside "failedNodes" and "gangsUntouched".
void writeFailureReport(JsonWriter& json, const FailureReport& report);
// For people: a line per broken gang, its engine and its verdict, under a summary line.
std::string renderFailureReport(const FailureReport& report, const std::vector<std::string>& targets);

// "16 × nvidia.com/gpu=8,cpu=4": the gang's shape in one line.
std::string describeGang(const GangRequest& request);

} // namespace topodeck
