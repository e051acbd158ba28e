#pragma once

#include "core/model/resource_list.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };

// What named the gang a pod belongs to (Pod::workload), so that reports can say "JobSet trainer"
// rather than only "trainer". The readers take the first the pod carries, in the order listed
// in kube_object_readers.h; Kueue's Workload comes first since it is the unit Kueue admits and
// places.
enum class WorkloadKind : std::uint8_t {
    None,               // no gang, or the source did not say what kind
    KueueWorkload,      // annotation kueue.x-k8s.io/workload
    JobSet,             // label jobset.sigs.k8s.io/jobset-name
    LeaderWorkerSet,    // label leaderworkerset.sigs.k8s.io/name (+ group-index): one group
    TrainingJob,        // label training.kubeflow.org/job-name (PyTorchJob, MPIJob, ...)
    VolcanoJob,         // label volcano.sh/job-name
    Job,                // label batch.kubernetes.io/job-name or job-name, or a controlling Job owner
    KueuePodGroup,      // label kueue.x-k8s.io/pod-group-name
    CoschedulingGroup,  // label scheduling.x-k8s.io/pod-group
    VolcanoPodGroup,    // annotation scheduling.k8s.io/group-name
    KaiPodGroup,        // annotation pod-group-name
    Owner,              // the controlling owner reference (a ReplicaSet, a StatefulSet, ...)
    SlurmJob,           // a Slurm job (one pod per node it holds)
    Unlisted,           // what Slurm nodes report allocated beyond the jobs listed: not a gang
};

// For people: "Kueue Workload", "JobSet", "Job", ...; empty for None.
constexpr std::string_view workloadKindName(WorkloadKind kind) {
    switch (kind) {
    case WorkloadKind::None: return {};
    case WorkloadKind::KueueWorkload: return "Kueue Workload";
    case WorkloadKind::JobSet: return "JobSet";
    case WorkloadKind::LeaderWorkerSet: return "LeaderWorkerSet group";
    case WorkloadKind::TrainingJob: return "Training job";
    case WorkloadKind::VolcanoJob: return "Volcano Job";
    case WorkloadKind::Job: return "Job";
    case WorkloadKind::KueuePodGroup: return "Kueue pod group";
    case WorkloadKind::CoschedulingGroup: return "PodGroup";
    case WorkloadKind::VolcanoPodGroup: return "Volcano PodGroup";
    case WorkloadKind::KaiPodGroup: return "KAI PodGroup";
    case WorkloadKind::Owner: return "owner";
    case WorkloadKind::SlurmJob: return "Slurm job";
    case WorkloadKind::Unlisted: return "not listed";
    }
    return {};
}

// The scheduler a pod names (spec.schedulerName), as far as the placement engines tell them apart.
enum class PodScheduler : std::uint8_t {
    Default, // none named, or default-scheduler (Kueue admits, kube-scheduler binds)
    Volcano, // "volcano"
    Kai,     // "kai-scheduler"
    Other,
};

// The Kueue TAS request a pod's template carried: Kueue reads the podset-*-topology annotations
// from the pod template, and the pods it makes keep them, so a running gang can be placed again
// as it was asked.
struct PodTopologyRequest {
    enum class Mode : std::uint8_t {
        None,          // no annotation
        Required,      // kueue.x-k8s.io/podset-required-topology
        Preferred,     // kueue.x-k8s.io/podset-preferred-topology
        Unconstrained, // kueue.x-k8s.io/podset-unconstrained-topology
    };
    Mode mode = Mode::None;
    std::string level; // the annotation's value (a node-label key) for Required and Preferred
    friend bool operator==(const PodTopologyRequest&, const PodTopologyRequest&) = default;
};

// One requirement of a node selector term (spec.affinity.nodeAffinity), as Kubernetes writes it.
struct NodeSelectorRequirement {
    enum class Operator : std::uint8_t { In, NotIn, Exists, DoesNotExist, Gt, Lt };
    std::string key;
    Operator op = Operator::In;
    std::vector<std::string> values; // In, NotIn: at least one; Gt, Lt: one integer; else none
    friend bool operator==(const NodeSelectorRequirement&, const NodeSelectorRequirement&) = default;
};

// A node matches a term when it meets every requirement of it; an empty term matches no node.
struct NodeSelectorTerm {
    std::vector<NodeSelectorRequirement> matchExpressions; // on the node's labels
    std::vector<NodeSelectorRequirement> matchFields;      // on its fields: metadata.name, the one there is
    friend bool operator==(const NodeSelectorTerm&, const NodeSelectorTerm&) = default;
};

// One entry of spec.resourceClaims: the claim a pod names, or the template its claim is made from.
struct PodResourceClaim {
    std::string name;
    std::string claimName;    // resourceClaimName
    std::string templateName; // resourceClaimTemplateName
    friend bool operator==(const PodResourceClaim&, const PodResourceClaim&) = default;
};

// KAI's GPU sharing (not DRA): a pod asking for part of a GPU through annotations, and the
// reservation pod that holds the shared GPU through the device plugin.
struct PodGpuShare {
    std::string group;           // label runai-gpu-group (or a runai-gpu-group/ prefixed one)
    std::string fraction;        // annotation gpu-fraction, as written ("0.5")
    std::string memory;          // annotation gpu-memory, MiB as written
    std::int32_t devices = 0;    // annotation gpu-fraction-num-devices (0: one)
    bool reservation = false;    // a reservation pod (namespace kai-resource-reservation)
    // A multi-GPU share's further groups: its other runai-gpu-group/<group> labels, sorted.
    std::vector<std::string> moreGroups{};
    friend bool operator==(const PodGpuShare&, const PodGpuShare&) = default;
    bool empty() const { return group.empty() && fraction.empty() && memory.empty() && !reservation; }
};

// A pod as the occupancy views need it: where it runs and what it holds there.
struct Pod {
    std::string nameSpace;
    std::string name;
    std::string nodeName;     // spec.nodeName; empty while unscheduled
    PodPhase phase = PodPhase::Pending;
    ResourceList requests;    // effective request as the scheduler computes it (see pod_requests.h)
    std::string workload;     // the gang it belongs to (owner / job name); empty if none
    WorkloadKind workloadKind = WorkloadKind::None; // what named `workload`
    PodScheduler scheduler = PodScheduler::Default;
    PodTopologyRequest topology; // what a failure what-if re-places its gang under
    // spec.nodeSelector, sorted by key: what its node must carry. Kueue TAS injects one naming the
    // domain it placed the pod in, so a relabel that breaks it strands the running gang.
    std::vector<std::pair<std::string, std::string>> nodeSelector;
    // spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms:
    // its node matches one of them. Ignored during execution, so a relabel does not evict the pod,
    // but the gang cannot come back to the same nodes once one of its pods is restarted.
    std::vector<NodeSelectorTerm> requiredNodeAffinity;
    // DRA: spec.resourceClaims, and status.resourceClaimStatuses (pod claim name -> the claim made
    // for it from a template), plus the claim the scheduler made for extended resources a
    // DeviceClass serves (status.extendedResourceClaimStatus).
    std::vector<PodResourceClaim> resourceClaims{};
    std::vector<std::pair<std::string, std::string>> claimStatuses{};
    std::string extendedResourceClaim{};
    PodGpuShare gpuShare{};

    // Pods bound to a node and not terminated hold resources there (as kube-scheduler counts).
    bool holdsResources() const {
        return !nodeName.empty() && phase != PodPhase::Succeeded && phase != PodPhase::Failed;
    }
    std::string key() const { return nameSpace + '/' + name; }

    friend bool operator==(const Pod&, const Pod&) = default;
};

} // namespace topodeck
