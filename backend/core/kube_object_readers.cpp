#include "core/kube_object_readers.h"

namespace topodeck::object_reader {

std::string ObjectLabel::str() const {
    std::string out(kind.empty() ? std::string_view("object") : kind);
    if (!name.empty()) {
        out += ' ';
        if (!nameSpace.empty()) {
            out += nameSpace;
            out += '/';
        }
        out += name;
        return out;
    }
    if (index >= 0) out += " #" + std::to_string(index) + " in items";
    if (document > 0) out += (index >= 0 ? " of document " : " in document ") + std::to_string(document);
    return out;
}

std::string_view* podLabelSlot(PodScratch& pod, std::string_view key) {
    if (key == "jobset.sigs.k8s.io/jobset-name") return &pod.workload[kJobSetName];
    if (key == "leaderworkerset.sigs.k8s.io/name") return &pod.workload[kLeaderWorkerSetName];
    if (key == "leaderworkerset.sigs.k8s.io/group-index") return &pod.lwsGroupIndex;
    if (key == "training.kubeflow.org/job-name") return &pod.workload[kTrainingJobName];
    if (key == "volcano.sh/job-name") return &pod.workload[kVolcanoJobName];
    if (key == "batch.kubernetes.io/job-name") return &pod.workload[kBatchJobName];
    if (key == "job-name") return &pod.workload[kLegacyJobName];
    if (key == "kueue.x-k8s.io/pod-group-name") return &pod.workload[kKueuePodGroup];
    if (key == "scheduling.x-k8s.io/pod-group") return &pod.workload[kCoschedulingPodGroup];
    return nullptr;
}

std::string_view* podAnnotationSlot(PodScratch& pod, std::string_view key) {
    if (key == "scheduling.k8s.io/group-name") return &pod.workload[kVolcanoPodGroup];
    if (key == "pod-group-name") return &pod.workload[kKaiPodGroup];
    return nullptr;
}

PodPhase parsePhase(std::string_view phase) {
    if (phase.empty() || phase == "Pending") return PodPhase::Pending;
    if (phase == "Running") return PodPhase::Running;
    if (phase == "Succeeded") return PodPhase::Succeeded;
    if (phase == "Failed") return PodPhase::Failed;
    return PodPhase::Unknown;
}

} // namespace topodeck::object_reader
