#include "core/demo/demo_parts.h"

#include <algorithm>
#include <iterator>

namespace topodeck::demo_parts {

namespace {

constexpr std::string_view kNotReadyTaint = "node.kubernetes.io/not-ready";
constexpr std::string_view kUnreachableTaint = "node.kubernetes.io/unreachable";

} // namespace

// An affine map whose multiplier is coprime to 27^5 is a bijection on [0, 27^5), so distinct
// counters give distinct suffixes that still look random.
void appendSuffix(std::string& out, std::uint64_t counter) {
    constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
    std::uint64_t x = ((counter % kSuffixSpace) * 2'654'435ULL + 1'013'904ULL) % kSuffixSpace;
    char buffer[5];
    for (char& c : buffer) {
        c = kAlphabet[x % 27];
        x /= 27;
    }
    out.append(buffer, 5);
}

DemoGangNames demoGangNames(const std::string& jobName, std::uint64_t serial) {
    static constexpr WorkloadKind kKinds[] = {
        WorkloadKind::KueueWorkload, WorkloadKind::JobSet,      WorkloadKind::Job,
        WorkloadKind::KueueWorkload, WorkloadKind::VolcanoJob,  WorkloadKind::Job,
        WorkloadKind::TrainingJob,   WorkloadKind::LeaderWorkerSet,
    };
    DemoGangNames names;
    names.kind = kKinds[serial % std::size(kKinds)];
    switch (names.kind) {
    case WorkloadKind::KueueWorkload:
        // Kueue's name for a Job's Workload: job-<name>-<hash of the job's UID>.
        names.workload = "job-" + jobName + '-';
        appendSuffix(names.workload, serial * 7 + 3);
        names.podPrefix = jobName;
        break;
    case WorkloadKind::LeaderWorkerSet:
        names.workload = jobName + "-0"; // group 0: its leader is <lws>-0, its workers <lws>-0-<i>
        names.podPrefix = names.workload;
        break;
    default:
        names.workload = jobName;
        names.podPrefix = jobName;
        break;
    }
    return names;
}

ResourceList gpuPodRequests(const NodeShape& shape, int gpus) {
    const std::int64_t cpu = (shape.cpuMillis - 6000) * gpus / shape.gpus / 100 * 100;
    const std::int64_t memory = (shape.memoryBytes - 48 * kGi) * gpus / shape.gpus / kGi * kGi;
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(std::max<std::int64_t>(cpu, 100)));
    r.set("memory", Quantity::fromUnits(std::max<std::int64_t>(memory, kGi), Quantity::Format::BinarySI));
    r.set(kGpuResource, Quantity::fromUnits(gpus));
    return r;
}

int largestFractionShift(int gpusPerNode) {
    int k = 0;
    while (k < 2 && (2 << k) < gpusPerNode) ++k;
    return k;
}

const std::vector<Team>& teams() {
    static const std::vector<Team> all = {
        {"team-llm", {"pretrain", "sft", "rlhf", "llm-eval"}}, {"team-vision", {"vit-train", "diffusion", "detector"}},
        {"team-speech", {"asr-train", "tts-finetune"}},        {"team-research", {"sweep", "moe-ablation"}},
        {"team-inference", {"serve-llama", "batch-infer"}},
    };
    return all;
}

void markNotReady(Node& node) {
    node.ready = false;
    node.taints.push_back({std::string(kNotReadyTaint), {}, "NoSchedule"});
    node.taints.push_back({std::string(kNotReadyTaint), {}, "NoExecute"});
}

void markReady(Node& node) {
    node.ready = true;
    std::erase_if(node.taints, [](const Taint& t) { return t.key == kNotReadyTaint || t.key == kUnreachableTaint; });
}

bool acceptsGangPods(const Node& node) {
    if (!node.schedulable()) return false;
    return std::none_of(node.taints.begin(), node.taints.end(),
                        [](const Taint& t) { return t.effect == "NoSchedule" || t.effect == "NoExecute"; });
}

} // namespace topodeck::demo_parts
