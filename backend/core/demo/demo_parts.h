#pragma once

// What the demo generator and the demo simulator share: the seeded random source, pod names,
// pod shapes, the teams that run gangs, and how a node goes not ready and back. Internal to
// backend/core.

#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/resource_list.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::demo_parts {

inline constexpr std::string_view kGpuResource = "nvidia.com/gpu";
inline constexpr std::int64_t kMi = 1024LL * 1024;
inline constexpr std::int64_t kGi = 1024LL * kMi;

// std::mt19937_64's output sequence is fixed by the standard, but the std distributions are
// implementation-defined, so ranges are mapped here to get the same demo on every platform.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}

    // Uniform in [0, n) for n > 0 (multiply-shift; its bias of n / 2^64 is irrelevant here).
    std::uint64_t below(std::uint64_t n) {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(m_engine()) * n) >> 64);
    }
    std::size_t index(std::size_t size) { return static_cast<std::size_t>(below(size)); }
    int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo) + 1)); }
    double unit() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }
    std::uint64_t raw() { return m_engine(); }

    template <class T> void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[index(i)]);
    }

private:
    std::mt19937_64 m_engine;
};

// Pod name suffixes in Kubernetes' generateName alphabet: 27^5 of them, each counter its own.
inline constexpr std::uint64_t kSuffixSpace = 27ULL * 27 * 27 * 27 * 27;
void appendSuffix(std::string& out, std::uint64_t counter);

// Whole GPUs (rounded up, as Quantity::value() does). The simulator reads this for every node on
// every tick, so it avoids the generic lookup and the 128-bit division where it can.
inline std::int64_t gpusIn(const ResourceList& resources) {
    for (const auto& [name, quantity] : resources) {
        if (name.size() != kGpuResource.size() || name != kGpuResource) continue;
        constexpr __int128 kNanosPerUnit = 1'000'000'000;
        const __int128 nanos = quantity.nanos();
        if (nanos < 0 || nanos > std::numeric_limits<std::int64_t>::max() - kNanosPerUnit) return quantity.value();
        return (static_cast<std::int64_t>(nanos) + (kNanosPerUnit - 1)) / kNanosPerUnit;
    }
    return 0;
}

// What one machine type offers; pods are sized from it so that they always fit together.
struct NodeShape {
    int gpus = 8;
    std::int64_t cpuMillis = 0;
    std::int64_t memoryBytes = 0;
    std::int64_t storageBytes = 0;
};

// A GPU pod takes its share of the node's CPU and memory, less a reserve that leaves room for the
// daemon pods and the small CPU-only jobs on the same node.
ResourceList gpuPodRequests(const NodeShape& shape, int gpus);

// Fractional-GPU pods ask for 1, 2 or 4 GPUs, always less than a whole node: the largest k <= 2
// with 2^k < gpusPerNode.
int largestFractionShift(int gpusPerNode);

struct Team {
    std::string_view nameSpace;
    std::vector<std::string_view> prefixes;
};
const std::vector<Team>& teams();

// What a demo gang's pods say about the controller they run under. Real clusters run a mix, so
// the kind follows the gang's serial number (not the random source, which would shift every
// later draw): Kueue-admitted Jobs, JobSets, plain Jobs, Volcano Jobs, training-operator jobs and
// LeaderWorkerSet groups.
struct DemoGangNames {
    WorkloadKind kind = WorkloadKind::Job;
    std::string workload;  // Pod::workload: Kueue names its Workload job-<job>-<hash>; an LWS group is <lws>-0
    std::string podPrefix; // pods are <podPrefix>-<i>
};
DemoGangNames demoGangNames(const std::string& jobName, std::uint64_t serial);

// What the node lifecycle controller does to a node whose kubelet stops reporting Ready, and undoes.
void markNotReady(Node& node);
void markReady(Node& node);
// A pod without tolerations cannot land on a node with a NoSchedule or NoExecute taint.
bool acceptsGangPods(const Node& node);

} // namespace topodeck::demo_parts
