#pragma once

#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// What an operator would submit, read as the gangs the schedulers would form from it. YAML or
// JSON, several documents and `kind: List` allowed; one GangRequest per scheduler object (Kueue
// Workload, Volcano or KAI PodGroup), in document order, its pod kinds as GangRequest::parts:
//  - batch/v1 Job: one gang, pods = min(parallelism (default 1), completions), as Kueue counts
//    its PodSet.
//  - jobset.x-k8s.io JobSet: one gang named after the JobSet, a part per replicatedJob (Kueue's
//    PodSet), pods = replicas x the Job's pod count; replicatedJobs scaled to zero drop out.
//  - kubeflow.org PyTorchJob: one gang, parts "master" and "worker", pods = replicas (default 1).
//  - leaderworkerset.x-k8s.io LeaderWorkerSet: every group is its own gang (Kueue admits one
//    Workload per group, KAI makes one PodGroup per group), so `replicas` gangs named
//    "<lws>/group-<i>" of `size` pods each, with parts "leader" (1 pod) and "worker" (size - 1)
//    when there is a leader template.
//  - batch.volcano.sh Job: one gang (its PodGroup) of every task's replicas under the job's
//    networkTopology; tasks whose pods differ (requests, selector, partitionPolicy) are its
//    parts, alike ones add up into one shape. The job's minAvailable (default: the tasks' summed)
//    and each task's (default: its replicas) are the gang's and its parts' VolcanoConstraint::
//    minAvailable; tasks with a minimum below their replicas stay parts of their own.
// Parts stay apart even when alike, except in a Volcano Job: Kueue places each PodSet under its
// own topology request.
// Per gang: the pod template's effective request (as kube-scheduler computes it), nodeSelector,
// tolerations; Kueue's podset-* annotations from the pod template (where Kueue reads them); KAI's
// kai.scheduler/topology, -required-placement and -preferred-placement from the object's
// metadata and the segment-* annotations from the pod template (where KAI's podgrouper reads
// them). An annotation put where its scheduler does not read it is an error rather than
// silently ignored. Errors name the source, line, document, object and field, e.g.
// `job.yaml:14:19: JobSet trainer: spec.replicatedJobs[0].replicas: want a whole number, got "x"`.
Result<std::vector<GangRequest>> readGangManifests(std::string_view text, std::string_view sourceName = "manifest");
Result<std::vector<GangRequest>> readGangManifestFile(const std::string& path);

} // namespace topodeck
