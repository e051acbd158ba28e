#include "core/demo_cluster.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <utility>

namespace topodeck {
namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";
constexpr std::int64_t kMi = 1024LL * 1024;
constexpr std::int64_t kGi = 1024LL * kMi;
constexpr int kMaxScaleNodes = 65536;
constexpr std::uint64_t kDemoSeed = 0x70D0DEC4ULL;

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

// Kubernetes' generateName alphabet. An affine map whose multiplier is coprime to 27^5 is a
// bijection on [0, 27^5), so distinct counters give distinct suffixes that still look random.
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr std::uint64_t kSuffixSpace = 27ULL * 27 * 27 * 27 * 27;

void appendSuffix(std::string& out, std::uint64_t counter) {
    std::uint64_t x = ((counter % kSuffixSpace) * 2'654'435ULL + 1'013'904ULL) % kSuffixSpace;
    char buffer[5];
    for (char& c : buffer) {
        c = kSuffixAlphabet[x % 27];
        x /= 27;
    }
    out.append(buffer, 5);
}

std::string formatted(const char* format, int a, int b = 0, int c = 0) {
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, format, a, b, c);
    return std::string(buffer, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof buffer) - 1)));
}

int digits(int n) {
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

std::string padded(std::string_view prefix, int value, int width) {
    std::string s(prefix);
    const std::string number = std::to_string(value);
    if (static_cast<int>(number.size()) < width) s.append(static_cast<std::size_t>(width) - number.size(), '0');
    return s + number;
}

// Whole GPUs (rounded up, as Quantity::value() does). The simulator reads this for every node on
// every tick, so it avoids the generic lookup and the 128-bit division where it can.
std::int64_t gpusIn(const ResourceList& resources) {
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

ResourceList allocatableFor(const NodeShape& shape) {
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(shape.cpuMillis));
    r.set("ephemeral-storage", Quantity::fromUnits(shape.storageBytes, Quantity::Format::BinarySI));
    r.set("memory", Quantity::fromUnits(shape.memoryBytes, Quantity::Format::BinarySI));
    r.set(kGpuResource, Quantity::fromUnits(shape.gpus));
    r.set("pods", Quantity::fromUnits(110));
    return r;
}

// A GPU pod takes its share of the node's CPU and memory, less a reserve that leaves room for the
// daemon pods and the small CPU-only jobs on the same node.
ResourceList gpuPodRequests(const NodeShape& shape, int gpus) {
    const std::int64_t cpu = (shape.cpuMillis - 6000) * gpus / shape.gpus / 100 * 100;
    const std::int64_t memory = (shape.memoryBytes - 48 * kGi) * gpus / shape.gpus / kGi * kGi;
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(std::max<std::int64_t>(cpu, 100)));
    r.set("memory", Quantity::fromUnits(std::max<std::int64_t>(memory, kGi), Quantity::Format::BinarySI));
    r.set(kGpuResource, Quantity::fromUnits(gpus));
    return r;
}

ResourceList cpuPodRequests(std::int64_t millis, std::int64_t memoryBytes) {
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(millis));
    r.set("memory", Quantity::fromUnits(memoryBytes, Quantity::Format::BinarySI));
    return r;
}

// Fractional-GPU pods ask for 1, 2 or 4 GPUs, always less than a whole node: the largest k <= 2
// with 2^k < gpusPerNode.
int largestFractionShift(int gpusPerNode) {
    int k = 0;
    while (k < 2 && (2 << k) < gpusPerNode) ++k;
    return k;
}

struct Team {
    std::string_view nameSpace;
    std::vector<std::string_view> prefixes;
};

const std::vector<Team>& teams() {
    static const std::vector<Team> all = {
        {"team-llm", {"pretrain", "sft", "rlhf", "llm-eval"}}, {"team-vision", {"vit-train", "diffusion", "detector"}},
        {"team-speech", {"asr-train", "tts-finetune"}},        {"team-research", {"sweep", "moe-ablation"}},
        {"team-inference", {"serve-llama", "batch-infer"}},
    };
    return all;
}

struct DaemonSpec {
    std::string_view nameSpace;
    std::string_view name;
    std::int64_t cpuMillis;
    std::int64_t memoryBytes;
};

constexpr std::string_view kNotReadyTaint = "node.kubernetes.io/not-ready";
constexpr std::string_view kUnreachableTaint = "node.kubernetes.io/unreachable";

void markNotReady(Node& node) {
    node.ready = false;
    // What the node lifecycle controller adds to a node whose kubelet stopped reporting Ready.
    node.taints.push_back({std::string(kNotReadyTaint), {}, "NoSchedule"});
    node.taints.push_back({std::string(kNotReadyTaint), {}, "NoExecute"});
}

void markReady(Node& node) {
    node.ready = true;
    std::erase_if(node.taints, [](const Taint& t) { return t.key == kNotReadyTaint || t.key == kUnreachableTaint; });
}

// A pod without tolerations cannot land on a node with a NoSchedule or NoExecute taint.
bool acceptsGangPods(const Node& node) {
    if (!node.schedulable()) return false;
    return std::none_of(node.taints.begin(), node.taints.end(),
                        [](const Taint& t) { return t.effect == "NoSchedule" || t.effect == "NoExecute"; });
}

// Everything that differs between the demos; the rest of the generation is shared.
struct Blueprint {
    DemoCluster demo;
    NodeShape shape;
    std::vector<DaemonSpec> daemons;
    std::vector<Node> nodes;               // leaves are contiguous runs of nodes
    std::vector<std::uint32_t> leafFirst;  // leaf l holds nodes [leafFirst[l], leafFirst[l + 1])
    std::vector<std::uint32_t> leafParent; // the domain one level above each leaf
    double cpuJobChance = 0.4;             // per node, one small CPU-only pod
};

Node makeNode(std::string name, std::vector<std::pair<std::string, std::string>> labels,
              const ResourceList& allocatable) {
    Node node;
    labels.emplace_back("kubernetes.io/hostname", name);
    std::sort(labels.begin(), labels.end());
    node.name = std::move(name);
    node.labels = std::move(labels);
    node.allocatable = allocatable;
    return node;
}

std::string makeUuid(Rng& rng) {
    static constexpr char kHex[] = "0123456789abcdef";
    const std::uint64_t hi = rng.raw();
    const std::uint64_t lo = rng.raw();
    std::string s;
    s.reserve(36);
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) s.push_back('-');
        const std::uint64_t word = i < 16 ? hi : lo;
        s.push_back(kHex[(word >> (4 * (15 - i % 16))) & 0xF]);
    }
    return s;
}

Blueprint gb200Blueprint(Rng& rng) {
    Blueprint bp;
    bp.demo.title = "GB200 NVL72 SuperPOD: 4 SU x 8 racks x 18 nodes x 4 GPUs (2,304 GPUs)";
    // Topograph v1 numbers fabric tiers from the node outwards (tier-0 = leaf/rack switch,
    // tier-1 = spine of the scalable unit); the GPU operator's clique label names the NVLink
    // domain, which is one NVL72 rack.
    bp.demo.topology.name = "gb200";
    bp.demo.topology.origin = "demo";
    bp.demo.topology.levels = {{"fabric.topograph.run/tier-1", "su"}, {"fabric.topograph.run/tier-0", "rack"}};
    bp.demo.topology.nvlinkLabel = "nvidia.com/gpu.clique";
    // A compute tray: two Grace CPUs (144 Arm cores, 960 GB LPDDR5X) and four Blackwell GPUs.
    bp.shape = {4, 142'000, 880 * kGi, 3'500 * kGi};
    bp.daemons = {
        {"kube-system", "cilium", 100, 512 * kMi},
        {"gpu-operator", "nvidia-device-plugin-daemonset", 50, 64 * kMi},
        {"gpu-operator", "nvidia-dcgm-exporter", 100, 512 * kMi},
        {"gpu-operator", "gpu-feature-discovery", 20, 64 * kMi},
        {"nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu-kubelet-plugin", 50, 128 * kMi},
        {"monitoring", "node-exporter", 100, 180 * kMi},
    };
    const ResourceList allocatable = allocatableFor(bp.shape);
    for (int su = 1; su <= 4; ++su) {
        for (int rack = 1; rack <= 8; ++rack) {
            bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
            bp.leafParent.push_back(static_cast<std::uint32_t>(su - 1));
            const std::string clique = makeUuid(rng) + ".0";
            const std::string suValue = formatted("su-%d", su);
            const std::string rackValue = formatted("rack-%d-%02d", su, rack);
            for (int tray = 1; tray <= 18; ++tray) {
                bp.nodes.push_back(makeNode(formatted("gb200-su%d-r%02d-n%02d", su, rack, tray),
                                            {
                                                {"accelerator.topograph.run/domain", clique},
                                                {"fabric.topograph.run/tier-0", rackValue},
                                                {"fabric.topograph.run/tier-1", suValue},
                                                {"kubernetes.io/arch", "arm64"},
                                                {"kubernetes.io/os", "linux"},
                                                {"nvidia.com/gpu.clique", clique},
                                                {"nvidia.com/gpu.count", "4"},
                                                {"nvidia.com/gpu.present", "true"},
                                                {"nvidia.com/gpu.product", "NVIDIA-GB200"},
                                            },
                                            allocatable));
            }
        }
    }
    bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
    return bp;
}

Blueprint h100Blueprint() {
    Blueprint bp;
    bp.demo.title = "H100 HGX on GKE (A3 Mega): 4 blocks x 4 racks x 8 nodes x 8 GPUs (1,024 GPUs)";
    // GKE's compact-placement labels. Each HGX node is its own NVLink island (NVSwitch inside the
    // node), so there is no multi-node NVLink domain and no clique label.
    bp.demo.topology.name = "h100";
    bp.demo.topology.origin = "demo";
    bp.demo.topology.levels = {{"cloud.google.com/gce-topology-block", "block"},
                               {"cloud.google.com/gce-topology-subblock", "rack"}};
    bp.shape = {8, 205'000, 1'700 * kGi, 5'500 * kGi};
    bp.daemons = {
        {"kube-system", "kube-proxy", 100, 0},
        {"kube-system", "fluentbit-gke", 100, 200 * kMi},
        {"kube-system", "nvidia-gpu-device-plugin", 50, 50 * kMi},
        {"kube-system", "gke-metadata-server", 100, 100 * kMi},
        {"kube-system", "netd", 50, 60 * kMi},
        {"gmp-system", "collector", 10, 64 * kMi},
    };
    const ResourceList allocatable = allocatableFor(bp.shape);
    for (int block = 1; block <= 4; ++block) {
        for (int rack = 1; rack <= 4; ++rack) {
            bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
            bp.leafParent.push_back(static_cast<std::uint32_t>(block - 1));
            const std::string blockValue = formatted("block-%d", block);
            const std::string rackValue = formatted("rack-%d-%d", block, rack);
            for (int n = 1; n <= 8; ++n) {
                bp.nodes.push_back(
                    makeNode(formatted("h100-b%d-r%d-n%02d", block, rack, n),
                             {
                                 {"cloud.google.com/gce-topology-block", blockValue},
                                 {"cloud.google.com/gce-topology-host", formatted("host-%d-%d-%02d", block, rack, n)},
                                 {"cloud.google.com/gce-topology-subblock", rackValue},
                                 {"cloud.google.com/gke-accelerator", "nvidia-h100-mega-80gb"},
                                 {"cloud.google.com/gke-nodepool", "a3mega-pool"},
                                 {"kubernetes.io/arch", "amd64"},
                                 {"kubernetes.io/os", "linux"},
                                 {"node.kubernetes.io/instance-type", "a3-megagpu-8g"},
                                 {"nvidia.com/gpu.count", "8"},
                                 {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                                 {"topology.kubernetes.io/zone", "us-central1-a"},
                             },
                             allocatable));
            }
        }
    }
    bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
    return bp;
}

Blueprint scaleBlueprint(int nodeCount) {
    constexpr int kNodesPerRack = 32;
    constexpr int kFanOut = 8;
    Blueprint bp;
    bp.demo.title =
        "Scale test (EKS-style p5.48xlarge): " + std::to_string(nodeCount) + " nodes x 8 GPUs, 4 network layers";
    // EKS labels its accelerated instances from DescribeInstanceTopology, numbering the network
    // layers from the top (layer-1) down to the switch next to the instance (layer-4).
    bp.demo.topology.name = "scale";
    bp.demo.topology.origin = "demo";
    bp.demo.topology.levels = {{"topology.k8s.aws/network-node-layer-1", "core"},
                               {"topology.k8s.aws/network-node-layer-2", "spine"},
                               {"topology.k8s.aws/network-node-layer-3", "agg"},
                               {"topology.k8s.aws/network-node-layer-4", "rack"}};
    bp.shape = {8, 191'450, 1'900 * kGi, 3'500 * kGi};
    bp.daemons = {
        {"kube-system", "aws-node", 25, 0},
        {"kube-system", "kube-proxy", 100, 0},
        {"kube-system", "ebs-csi-node", 30, 120 * kMi},
        {"gpu-operator", "nvidia-device-plugin-daemonset", 50, 64 * kMi},
        {"gpu-operator", "nvidia-dcgm-exporter", 100, 512 * kMi},
        {"monitoring", "node-exporter", 100, 180 * kMi},
    };
    const int racks = (nodeCount + kNodesPerRack - 1) / kNodesPerRack;
    const int aggs = (racks + kFanOut - 1) / kFanOut;
    const int spines = (aggs + kFanOut - 1) / kFanOut;
    const int cores = (spines + kFanOut - 1) / kFanOut;
    const int nodeWidth = std::max(5, digits(nodeCount));
    const ResourceList allocatable = allocatableFor(bp.shape);
    bp.nodes.reserve(static_cast<std::size_t>(nodeCount));
    for (int rack = 0; rack < racks; ++rack) {
        const int agg = rack / kFanOut;
        const int spine = agg / kFanOut;
        const int core = spine / kFanOut;
        bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
        bp.leafParent.push_back(static_cast<std::uint32_t>(agg));
        const std::string coreValue = padded("core-", core + 1, digits(cores));
        const std::string spineValue = padded("spine-", spine + 1, digits(spines));
        const std::string aggValue = padded("agg-", agg + 1, digits(aggs));
        const std::string rackValue = padded("rack-", rack + 1, digits(racks));
        const int end = std::min(nodeCount, (rack + 1) * kNodesPerRack);
        for (int n = rack * kNodesPerRack; n < end; ++n) {
            bp.nodes.push_back(makeNode(padded("node-", n + 1, nodeWidth),
                                        {
                                            {"kubernetes.io/arch", "amd64"},
                                            {"kubernetes.io/os", "linux"},
                                            {"node.kubernetes.io/instance-type", "p5.48xlarge"},
                                            {"nvidia.com/gpu.count", "8"},
                                            {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"},
                                            {"topology.k8s.aws/network-node-layer-1", coreValue},
                                            {"topology.k8s.aws/network-node-layer-2", spineValue},
                                            {"topology.k8s.aws/network-node-layer-3", aggValue},
                                            {"topology.k8s.aws/network-node-layer-4", rackValue},
                                            {"topology.kubernetes.io/region", "us-east-2"},
                                            {"topology.kubernetes.io/zone", "us-east-2a"},
                                        },
                                        allocatable));
        }
    }
    bp.leafFirst.push_back(static_cast<std::uint32_t>(bp.nodes.size()));
    return bp;
}

// Fills a blueprint's nodes with workloads: some racks full (often with gangs spanning
// neighbouring racks), some fragmented, some empty, plus daemons, small CPU jobs and a few
// pending gangs. Free GPUs are tracked per node; -1 marks a node no gang may use.
class Populator {
public:
    Populator(Blueprint& bp, Rng& rng) : m_bp(bp), m_rng(rng) {
        for (int g = 0; g <= bp.shape.gpus; ++g) m_gpuRequests.push_back(gpuPodRequests(bp.shape, g));
        for (const DaemonSpec& d : bp.daemons) m_daemonRequests.push_back(cpuPodRequests(d.cpuMillis, d.memoryBytes));
        m_cpuJobRequests = cpuPodRequests(1000, 4 * kGi);
    }

    std::vector<ClusterEvent> run() {
        markUnavailableNodes();
        m_free.resize(m_bp.nodes.size());
        for (std::size_t n = 0; n < m_bp.nodes.size(); ++n)
            m_free[n] = acceptsGangPods(m_bp.nodes[n]) ? m_bp.shape.gpus : -1;

        std::vector<ClusterEvent> events;
        const std::size_t nodeCount = m_bp.nodes.size();
        events.reserve(nodeCount * (m_bp.daemons.size() + 3));
        for (Node& node : m_bp.nodes) events.emplace_back(NodeUpserted{std::move(node)});
        m_events = &events;

        placeRunningGangs();
        addDaemonsAndCpuJobs();
        addPendingGangs();
        return events;
    }

private:
    enum class Mood { Full, Busy, Light, Empty };

    std::size_t leafCount() const { return m_bp.leafParent.size(); }
    const std::string& nodeName(std::uint32_t n) const { return std::get<NodeUpserted>((*m_events)[n]).node.name; }

    // About 1.5% NotReady, 1% cordoned and a few tainted for maintenance, on distinct nodes.
    void markUnavailableNodes() {
        const std::size_t n = m_bp.nodes.size();
        const auto count = [n](std::size_t perMille) {
            const std::size_t c = (n * perMille + 500) / 1000;
            return n >= 50 ? std::max<std::size_t>(c, 1) : c;
        };
        std::vector<char> touched(n, 0);
        const auto pickFree = [&]() -> Node& {
            for (;;) {
                const std::size_t i = m_rng.index(n);
                if (!touched[i]) {
                    touched[i] = 1;
                    return m_bp.nodes[i];
                }
            }
        };
        for (std::size_t i = count(15); i > 0; --i) markNotReady(pickFree());
        for (std::size_t i = count(10); i > 0; --i) {
            Node& node = pickFree();
            node.unschedulable = true;
            node.taints.push_back({"node.kubernetes.io/unschedulable", {}, "NoSchedule"});
        }
        for (std::size_t i = count(4); i > 0; --i)
            pickFree().taints.push_back({"nvidia.com/gpu", "maintenance", "NoSchedule"});
    }

    void placeRunningGangs() {
        const std::size_t leaves = leafCount();
        // Exact shares rather than independent draws, so occupancy is stable and every demo with a
        // handful of racks shows each kind: ~40% full, 30% busy, 12% lightly used, the rest empty.
        std::vector<Mood> moods(leaves, Mood::Empty);
        std::size_t full = (leaves * 40 + 50) / 100;
        std::size_t busy = (leaves * 30 + 50) / 100;
        std::size_t light = (leaves * 12 + 50) / 100;
        if (leaves >= 4) {
            full = std::max<std::size_t>(full, 1);
            busy = std::max<std::size_t>(busy, 1);
            light = std::max<std::size_t>(light, 1);
            while (full + busy + light >= leaves) --(full > 1 ? full : busy);
        }
        std::size_t i = 0;
        for (std::size_t k = 0; k < full && i < leaves; ++k) moods[i++] = Mood::Full;
        for (std::size_t k = 0; k < busy && i < leaves; ++k) moods[i++] = Mood::Busy;
        for (std::size_t k = 0; k < light && i < leaves; ++k) moods[i++] = Mood::Light;
        m_rng.shuffle(moods);

        // Neighbouring full racks under the same parent form one run, filled by gangs that may
        // cross rack boundaries the way large training jobs do.
        for (std::size_t leaf = 0; leaf < leaves;) {
            if (moods[leaf] != Mood::Full) {
                if (moods[leaf] == Mood::Busy)
                    fillFragmented(leaf, 0.6 + 0.3 * m_rng.unit());
                else if (moods[leaf] == Mood::Light)
                    fillFragmented(leaf, 0.1 + 0.3 * m_rng.unit());
                ++leaf;
                continue;
            }
            std::size_t end = leaf + 1;
            while (end < leaves && moods[end] == Mood::Full && m_bp.leafParent[end] == m_bp.leafParent[leaf]) ++end;
            fillWholeNodes(m_bp.leafFirst[leaf], m_bp.leafFirst[end]);
            leaf = end;
        }
    }

    std::string newGangName(std::string_view* nameSpace) {
        const Team& team = teams()[m_rng.index(teams().size())];
        *nameSpace = team.nameSpace;
        std::string name(team.prefixes[m_rng.index(team.prefixes.size())]);
        name.push_back('-');
        appendSuffix(name, m_suffixCounter++);
        return name;
    }

    void emitGangPod(std::string_view nameSpace, const std::string& gang, int index, std::uint32_t node, int gpus) {
        Pod pod;
        pod.nameSpace = nameSpace;
        pod.name = gang;
        pod.name.push_back('-');
        pod.name += std::to_string(index);
        pod.nodeName = nodeName(node);
        pod.phase = PodPhase::Running;
        pod.requests = m_gpuRequests[static_cast<std::size_t>(gpus)];
        pod.workload = gang;
        m_events->emplace_back(PodUpserted{std::move(pod)});
    }

    void fillWholeNodes(std::uint32_t first, std::uint32_t end) {
        std::vector<std::uint32_t> nodes;
        for (std::uint32_t n = first; n < end; ++n)
            if (m_free[n] == m_bp.shape.gpus) nodes.push_back(n);
        static constexpr int kSizes[] = {128, 64, 32, 16, 8, 4, 2, 1};
        std::size_t next = 0;
        while (next < nodes.size()) {
            const int remaining = static_cast<int>(nodes.size() - next);
            std::vector<int> fitting;
            for (int s : kSizes)
                if (s <= remaining) fitting.push_back(s);
            const int size = m_rng.chance(0.5) ? fitting.front() : fitting[m_rng.index(fitting.size())];
            std::string_view nameSpace;
            const std::string gang = newGangName(&nameSpace);
            for (int p = 0; p < size; ++p) {
                const std::uint32_t node = nodes[next++];
                m_free[node] = 0;
                emitGangPod(nameSpace, gang, p, node, m_bp.shape.gpus);
            }
        }
    }

    // Random first-fit of small gangs and fractional-GPU pods until the rack reaches the target
    // share of its usable GPUs, which leaves partly used nodes scattered through it.
    void fillFragmented(std::size_t leaf, double target) {
        const int perNode = m_bp.shape.gpus;
        std::vector<std::uint32_t> nodes;
        for (std::uint32_t n = m_bp.leafFirst[leaf]; n < m_bp.leafFirst[leaf + 1]; ++n)
            if (m_free[n] >= 0) nodes.push_back(n);
        if (nodes.empty()) return;
        const auto goal = static_cast<std::int64_t>(target * static_cast<double>(nodes.size()) * perNode);
        std::int64_t used = 0;
        int failures = 0;
        std::vector<std::pair<std::uint32_t, int>> placed;
        while (used < goal && failures < 8) {
            int gpus = perNode;
            int pods = 1 << m_rng.between(0, 2);
            if (perNode > 1 && !m_rng.chance(0.35)) {
                gpus = 1 << m_rng.between(0, largestFractionShift(perNode));
                pods = 1 << m_rng.between(0, 3);
            }
            placed.clear();
            for (int p = 0; p < pods; ++p) {
                const std::size_t start = m_rng.index(nodes.size());
                bool ok = false;
                for (std::size_t k = 0; k < nodes.size() && !ok; ++k) {
                    const std::uint32_t node = nodes[(start + k) % nodes.size()];
                    if (m_free[node] >= gpus) {
                        m_free[node] -= gpus;
                        placed.emplace_back(node, gpus);
                        ok = true;
                    }
                }
                if (!ok) break;
            }
            if (static_cast<int>(placed.size()) < pods) {
                for (const auto& [node, g] : placed) m_free[node] += g;
                ++failures;
                continue;
            }
            std::string_view nameSpace;
            const std::string gang = newGangName(&nameSpace);
            for (int p = 0; p < pods; ++p)
                emitGangPod(nameSpace, gang, p, placed[static_cast<std::size_t>(p)].first, gpus);
            used += static_cast<std::int64_t>(pods) * gpus;
        }
    }

    void addDaemonsAndCpuJobs() {
        const std::size_t nodeCount = m_bp.nodes.size();
        for (std::size_t d = 0; d < m_bp.daemons.size(); ++d) {
            const DaemonSpec& daemon = m_bp.daemons[d];
            for (std::size_t n = 0; n < nodeCount; ++n) {
                Pod pod;
                pod.nameSpace = daemon.nameSpace;
                pod.name.reserve(daemon.name.size() + 6);
                pod.name = daemon.name;
                pod.name.push_back('-');
                appendSuffix(pod.name, m_suffixCounter++);
                pod.nodeName = nodeName(static_cast<std::uint32_t>(n));
                pod.phase = PodPhase::Running;
                pod.requests = m_daemonRequests[d];
                pod.workload = daemon.name;
                m_events->emplace_back(PodUpserted{std::move(pod)});
            }
        }
        static constexpr std::string_view kCpuWorkloads[] = {"feature-etl", "tokenizer",    "dataloader-cache",
                                                             "ray-head",    "eval-harness", "metrics-agg"};
        std::string workload;
        int replicasLeft = 0;
        for (std::size_t n = 0; n < nodeCount; ++n) {
            const Node& node = std::get<NodeUpserted>((*m_events)[n]).node;
            if (!node.schedulable() || !m_rng.chance(m_bp.cpuJobChance)) continue;
            if (replicasLeft == 0) {
                workload = kCpuWorkloads[m_rng.index(std::size(kCpuWorkloads))];
                workload.push_back('-');
                appendSuffix(workload, m_suffixCounter++);
                replicasLeft = m_rng.between(4, 64);
            }
            --replicasLeft;
            Pod pod;
            pod.nameSpace = "team-data";
            pod.name = workload;
            pod.name.push_back('-');
            appendSuffix(pod.name, m_suffixCounter++);
            pod.nodeName = node.name;
            pod.phase = PodPhase::Running;
            pod.requests = m_cpuJobRequests;
            pod.workload = workload;
            m_events->emplace_back(PodUpserted{std::move(pod)});
        }
    }

    // Gangs too large for what is free, waiting unscheduled as they would in a real queue.
    void addPendingGangs() {
        const std::size_t gangs = 1 + leafCount() / 32;
        for (std::size_t g = 0; g < gangs; ++g) {
            std::string_view nameSpace;
            const std::string gang = newGangName(&nameSpace);
            const int pods = 16 << m_rng.between(0, 2);
            for (int p = 0; p < pods; ++p) {
                Pod pod;
                pod.nameSpace = nameSpace;
                pod.name = gang + '-' + std::to_string(p);
                pod.phase = PodPhase::Pending;
                pod.requests = m_gpuRequests[static_cast<std::size_t>(m_bp.shape.gpus)];
                pod.workload = gang;
                m_events->emplace_back(PodUpserted{std::move(pod)});
            }
        }
    }

    Blueprint& m_bp;
    Rng& m_rng;
    std::vector<ClusterEvent>* m_events = nullptr;
    std::vector<int> m_free;
    std::vector<ResourceList> m_gpuRequests; // indexed by GPUs per pod
    std::vector<ResourceList> m_daemonRequests;
    ResourceList m_cpuJobRequests;
    std::uint64_t m_suffixCounter = 0;
};

Result<int> parseScaleSize(std::string_view name) {
    const std::string usage = "demo \"" + std::string(name) +
                              "\": use scale:N with N a whole number of nodes from 1 to " +
                              std::to_string(kMaxScaleNodes);
    if (name.size() <= 6 || name[5] != ':') return Error{usage};
    const std::string_view digitsText = name.substr(6);
    int value = 0;
    const auto [end, ec] = std::from_chars(digitsText.data(), digitsText.data() + digitsText.size(), value);
    if (ec == std::errc::result_out_of_range)
        return Error{"demo \"" + std::string(name) + "\": " + std::string(digitsText) + " nodes is more than the " +
                     std::to_string(kMaxScaleNodes) + " the scale demo supports"};
    if (ec != std::errc() || end != digitsText.data() + digitsText.size()) return Error{usage};
    if (value < 1 || value > kMaxScaleNodes)
        return Error{"demo \"" + std::string(name) + "\": " + std::to_string(value) + " nodes is outside 1.." +
                     std::to_string(kMaxScaleNodes)};
    return value;
}

} // namespace

std::vector<std::string> demoClusterNames() {
    return {"gb200", "h100", "scale:N"};
}

Result<DemoCluster> makeDemoCluster(std::string_view name) {
    Rng rng(kDemoSeed);
    Blueprint bp;
    if (name == "gb200") {
        bp = gb200Blueprint(rng);
    } else if (name == "h100") {
        bp = h100Blueprint();
    } else if (name == "scale" || name.starts_with("scale:")) {
        Result<int> size = parseScaleSize(name);
        if (!size) return size.error();
        bp = scaleBlueprint(*size);
    } else {
        return Error{"unknown demo cluster \"" + std::string(name) + "\" (known: gb200, h100, scale:N)"};
    }
    bp.demo.name = std::string(name);
    bp.demo.seed = kDemoSeed;
    Populator populator(bp, rng);
    bp.demo.events = populator.run();
    return std::move(bp.demo);
}

// ---------------------------------------------------------------------------------------------
// DemoSimulator

struct DemoSimulator::Impl {
    struct GangPod {
        std::string name;
        std::uint32_t node; // simulator node index
    };
    struct Gang {
        std::string nameSpace;
        std::string name;
        int gpusPerPod = 0;
        std::vector<GangPod> pods;
        std::int64_t gpus() const { return static_cast<std::int64_t>(pods.size()) * gpusPerPod; }
    };

    explicit Impl(const DemoCluster& demo, std::uint64_t seed);
    std::vector<ClusterEvent> step(const ClusterState& state);

    // Structure read once from the demo's nodes through its TopologySpec.
    void learnTopology(const DemoCluster& demo);
    void learnGangs(const DemoCluster& demo);
    std::uint32_t domainsAt(int level) const {
        return static_cast<std::uint32_t>(m_parentOf[static_cast<std::size_t>(level)].size());
    }
    std::uint32_t leafCount() const { return domainsAt(m_levels - 1); }

    // Reading the state.
    void scan(const ClusterState& state);
    const NodeRecord* recordFor(const ClusterState& state, std::uint32_t i, bool lookUpUnknown);
    void remember(std::uint32_t i, const NodeRecord& record);
    void setFree(std::uint32_t node, int value);

    // Decisions.
    double targetUtilisation() const;
    void finishGangs(std::int64_t budget, std::vector<ClusterEvent>& events);
    void startGangs(std::int64_t budget, std::vector<ClusterEvent>& events);
    bool placeGang(Gang& gang, int pods);
    void flapNodes(const ClusterState& state, std::vector<ClusterEvent>& events);

    Rng m_rng;
    std::uint64_t m_suffixCounter;
    std::uint64_t m_tick = 0;

    NodeShape m_shape{0, 0, 0, 0};           // the demo's largest GPU node, sizes new pods
    std::vector<ResourceList> m_gpuRequests; // indexed by GPUs per pod
    int m_levels = 1;                        // domain levels, at least one
    std::vector<std::string> m_nodeNames;
    std::vector<std::uint32_t> m_nodeLeaf;
    std::vector<std::vector<std::uint32_t>> m_leafNodes;
    std::vector<std::vector<std::uint32_t>> m_parentOf;              // [level][domain] -> domain one level up
    std::vector<std::vector<std::vector<std::uint32_t>>> m_leavesOf; // [level][domain] -> leaves
    std::vector<Gang> m_gangs;

    // What the state said about each node, re-read only when its node object changes.
    static constexpr NodeId kUnknownNode = std::numeric_limits<NodeId>::max();
    std::vector<NodeId> m_ids;
    std::vector<std::shared_ptr<const Node>> m_seen;
    std::vector<int> m_allocGpus;
    std::vector<char> m_placeable;
    std::vector<char> m_ready;
    std::size_t m_resolvedSlots = std::numeric_limits<std::size_t>::max();

    // Scratch of one step, derived from the state: free GPUs per node (-1: unusable) and, per
    // leaf, a histogram of nodes by free GPUs so that "how many pods fit" is O(GPUs per node).
    std::vector<int> m_free;
    std::vector<std::uint32_t> m_hist;
    std::vector<std::int64_t> m_leafFree;
    std::vector<std::uint32_t> m_notReady;
    std::int64_t m_gpusTotal = 0;
    std::int64_t m_gpusUsed = 0;
};

// The name counter starts far from the generator's, so simulated names never collide with the demo's.
DemoSimulator::Impl::Impl(const DemoCluster& demo, std::uint64_t seed)
    : m_rng(seed ^ 0x5DEECE66DULL), m_suffixCounter(kSuffixSpace / 2 + seed % (kSuffixSpace / 4)) {
    learnTopology(demo);
    learnGangs(demo);
    for (int g = 0; g <= m_shape.gpus && m_shape.gpus > 0; ++g) m_gpuRequests.push_back(gpuPodRequests(m_shape, g));
}

void DemoSimulator::Impl::learnTopology(const DemoCluster& demo) {
    const TopologySpec& spec = demo.topology;
    m_levels = std::max(spec.depth(), 1);
    m_parentOf.assign(static_cast<std::size_t>(m_levels), {});
    std::vector<std::unordered_map<std::string, std::uint32_t>> lookup(static_cast<std::size_t>(m_levels));
    for (const ClusterEvent& event : demo.events) {
        const auto* upsert = std::get_if<NodeUpserted>(&event);
        if (!upsert) continue;
        const Node& node = upsert->node;
        std::uint32_t parent = 0;
        for (int level = 0; level < m_levels; ++level) {
            const std::string* value =
                spec.depth() > 0 ? node.label(spec.levels[static_cast<std::size_t>(level)].nodeLabel) : nullptr;
            std::string key = std::to_string(parent);
            key.push_back(value ? '=' : '!');
            if (value) key += *value;
            auto& parents = m_parentOf[static_cast<std::size_t>(level)];
            const auto [it, inserted] = lookup[static_cast<std::size_t>(level)].try_emplace(
                std::move(key), static_cast<std::uint32_t>(parents.size()));
            if (inserted) parents.push_back(parent);
            parent = it->second;
        }
        if (parent >= m_leafNodes.size()) m_leafNodes.resize(parent + 1);
        m_leafNodes[parent].push_back(static_cast<std::uint32_t>(m_nodeNames.size()));
        m_nodeLeaf.push_back(parent);
        m_nodeNames.push_back(node.name);
        const int gpus = static_cast<int>(gpusIn(node.allocatable));
        if (gpus > m_shape.gpus) {
            m_shape.gpus = gpus;
            m_shape.cpuMillis = node.allocatable.get("cpu").milliValue();
            m_shape.memoryBytes = node.allocatable.get("memory").value();
        }
    }
    m_leafNodes.resize(leafCount());
    m_leavesOf.assign(static_cast<std::size_t>(m_levels), {});
    for (int level = 0; level + 1 < m_levels; ++level)
        m_leavesOf[static_cast<std::size_t>(level)].resize(domainsAt(level));
    for (std::uint32_t leaf = 0; leaf < leafCount(); ++leaf) {
        std::uint32_t d = leaf;
        for (int level = m_levels - 1; level > 0; --level) {
            d = m_parentOf[static_cast<std::size_t>(level)][d];
            m_leavesOf[static_cast<std::size_t>(level - 1)][d].push_back(leaf);
        }
    }
    const std::size_t n = m_nodeNames.size();
    m_ids.assign(n, kUnknownNode);
    m_seen.assign(n, nullptr);
    m_allocGpus.assign(n, 0);
    m_placeable.assign(n, 0);
    m_ready.assign(n, 0);
}

void DemoSimulator::Impl::learnGangs(const DemoCluster& demo) {
    std::unordered_map<std::string_view, std::uint32_t> nodeIndex;
    nodeIndex.reserve(m_nodeNames.size());
    for (std::uint32_t i = 0; i < m_nodeNames.size(); ++i) nodeIndex.emplace(m_nodeNames[i], i);
    std::unordered_map<std::string, std::size_t> gangIndex;
    for (const ClusterEvent& event : demo.events) {
        const auto* upsert = std::get_if<PodUpserted>(&event);
        if (!upsert || !upsert->pod.holdsResources() || upsert->pod.workload.empty()) continue;
        const Pod& pod = upsert->pod;
        const std::int64_t gpus = gpusIn(pod.requests);
        const auto node = nodeIndex.find(pod.nodeName);
        if (gpus <= 0 || node == nodeIndex.end()) continue;
        std::string key = pod.nameSpace + '/' + pod.workload;
        const auto [it, inserted] = gangIndex.try_emplace(std::move(key), m_gangs.size());
        if (inserted) m_gangs.push_back({pod.nameSpace, pod.workload, static_cast<int>(gpus), {}});
        m_gangs[it->second].pods.push_back({pod.name, node->second});
    }
}

void DemoSimulator::Impl::setFree(std::uint32_t node, int value) {
    const int old = m_free[node];
    if (old == value) return;
    const std::size_t base = static_cast<std::size_t>(m_nodeLeaf[node]) * (static_cast<std::size_t>(m_shape.gpus) + 1);
    if (old >= 0) {
        --m_hist[base + static_cast<std::size_t>(std::min(old, m_shape.gpus))];
        m_leafFree[m_nodeLeaf[node]] -= old;
    }
    if (value >= 0) {
        ++m_hist[base + static_cast<std::size_t>(std::min(value, m_shape.gpus))];
        m_leafFree[m_nodeLeaf[node]] += value;
    }
    m_free[node] = value;
}

const NodeRecord* DemoSimulator::Impl::recordFor(const ClusterState& state, std::uint32_t i, bool lookUpUnknown) {
    NodeId id = m_ids[i];
    if (id != kUnknownNode && id < state.nodeSlots()) {
        const NodeRecord& record = state.record(id);
        if (record.node == m_seen[i]) return &record;
        // A node object we have not read yet. The caller may even pass another state, so the id
        // must still name our node before we trust it.
        if (record.node->name == m_nodeNames[i]) {
            remember(i, record);
            return &record;
        }
    } else if (id == kUnknownNode && !lookUpUnknown) {
        return nullptr;
    }
    // A state built from the demo's events numbers its nodes in event order; try that first.
    if (i < state.nodeSlots() && state.record(i).node->name == m_nodeNames[i])
        id = i;
    else
        id = state.findNode(m_nodeNames[i]).value_or(kUnknownNode);
    m_ids[i] = id;
    m_seen[i] = nullptr;
    if (id == kUnknownNode) return nullptr;
    const NodeRecord& record = state.record(id);
    remember(i, record);
    return &record;
}

void DemoSimulator::Impl::remember(std::uint32_t i, const NodeRecord& record) {
    m_seen[i] = record.node;
    m_allocGpus[i] = static_cast<int>(gpusIn(record.node->allocatable));
    m_placeable[i] = acceptsGangPods(*record.node) ? 1 : 0;
    m_ready[i] = record.node->ready ? 1 : 0;
}

void DemoSimulator::Impl::scan(const ClusterState& state) {
    const std::size_t n = m_nodeNames.size();
    // Names unknown to the state are looked up again only when the state gained node slots.
    const bool lookUpUnknown = state.nodeSlots() != m_resolvedSlots;
    m_resolvedSlots = state.nodeSlots();
    m_free.assign(n, -1);
    m_hist.assign(static_cast<std::size_t>(leafCount()) * (static_cast<std::size_t>(m_shape.gpus) + 1), 0);
    m_leafFree.assign(leafCount(), 0);
    m_notReady.clear();
    m_gpusTotal = 0;
    m_gpusUsed = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const NodeRecord* record = recordFor(state, i, lookUpUnknown);
        if (!record || !record->present) continue;
        if (!m_ready[i]) m_notReady.push_back(i);
        const int used = static_cast<int>(gpusIn(record->usage.requested));
        m_gpusTotal += m_allocGpus[i];
        m_gpusUsed += used;
        if (m_placeable[i]) setFree(i, std::clamp(m_allocGpus[i] - used, 0, m_shape.gpus));
    }
}

// A triangle wave between 62% and 78% with a two-minute period: integer arithmetic keeps the
// simulation identical on every platform (libm's sin need not be).
double DemoSimulator::Impl::targetUtilisation() const {
    constexpr std::uint64_t kHalfPeriod = 60;
    const std::uint64_t phase = m_tick % (2 * kHalfPeriod);
    const std::uint64_t rise = phase < kHalfPeriod ? phase : 2 * kHalfPeriod - phase;
    return 0.62 + 0.16 * static_cast<double>(rise) / static_cast<double>(kHalfPeriod);
}

void DemoSimulator::Impl::finishGangs(std::int64_t budget, std::vector<ClusterEvent>& events) {
    // Gangs holding more than 6% of the cluster are long training runs: they end only rarely,
    // otherwise one of them finishing would swing the whole cluster's occupancy at once.
    const std::int64_t big = std::max<std::int64_t>(m_gpusTotal * 6 / 100, m_shape.gpus);
    std::int64_t freed = 0;
    for (int attempts = 0; freed < budget && !m_gangs.empty() && attempts < 64; ++attempts) {
        const std::size_t i = m_rng.index(m_gangs.size());
        if (m_gangs[i].gpus() > big && !m_rng.chance(0.02)) continue;
        Gang gang = std::move(m_gangs[i]);
        m_gangs[i] = std::move(m_gangs.back());
        m_gangs.pop_back();
        for (const GangPod& pod : gang.pods) {
            events.emplace_back(PodDeleted{gang.nameSpace, pod.name});
            if (m_free[pod.node] >= 0)
                setFree(pod.node, std::min(m_free[pod.node] + gang.gpusPerPod, m_allocGpus[pod.node]));
        }
        freed += gang.gpus();
    }
}

bool DemoSimulator::Impl::placeGang(Gang& gang, int pods) {
    const int g = gang.gpusPerPod;
    const std::size_t width = (static_cast<std::size_t>(m_shape.gpus) + 1);
    // Pods that fit and free GPUs per domain, from the leaves up.
    std::vector<std::vector<std::int64_t>> fit(static_cast<std::size_t>(m_levels));
    std::vector<std::vector<std::int64_t>> free(static_cast<std::size_t>(m_levels));
    for (int level = m_levels - 1; level >= 0; --level) {
        fit[static_cast<std::size_t>(level)].assign(domainsAt(level), 0);
        free[static_cast<std::size_t>(level)].assign(domainsAt(level), 0);
    }
    auto& leafFit = fit.back();
    for (std::uint32_t leaf = 0; leaf < leafCount(); ++leaf) {
        std::int64_t sum = 0;
        for (std::size_t k = static_cast<std::size_t>(g); k < width; ++k)
            sum += m_hist[leaf * width + k] * static_cast<std::int64_t>(k / static_cast<std::size_t>(g));
        leafFit[leaf] = sum;
        free.back()[leaf] = m_leafFree[leaf];
    }
    for (int level = m_levels - 1; level > 0; --level) {
        const auto& parents = m_parentOf[static_cast<std::size_t>(level)];
        for (std::uint32_t d = 0; d < parents.size(); ++d) {
            fit[static_cast<std::size_t>(level - 1)][parents[d]] += fit[static_cast<std::size_t>(level)][d];
            free[static_cast<std::size_t>(level - 1)][parents[d]] += free[static_cast<std::size_t>(level)][d];
        }
    }
    // Best fit at the lowest level that can hold the whole gang: the domain with the fewest free
    // GPUs among those where it fits, so large free blocks stay whole.
    std::vector<std::uint32_t> leaves;
    for (int level = m_levels - 1; level >= 0 && leaves.empty(); --level) {
        std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
        for (std::uint32_t d = 0; d < domainsAt(level); ++d) {
            if (fit[static_cast<std::size_t>(level)][d] < pods) continue;
            if (best == std::numeric_limits<std::uint32_t>::max() ||
                free[static_cast<std::size_t>(level)][d] < free[static_cast<std::size_t>(level)][best])
                best = d;
        }
        if (best == std::numeric_limits<std::uint32_t>::max()) continue;
        if (level == m_levels - 1)
            leaves.push_back(best);
        else
            leaves = m_leavesOf[static_cast<std::size_t>(level)][best];
    }
    if (leaves.empty()) {
        std::int64_t total = 0;
        for (std::int64_t f : fit.front()) total += f;
        if (total < pods) return false;
        for (std::uint32_t leaf = 0; leaf < leafCount(); ++leaf) leaves.push_back(leaf);
    }
    // Inside the domain, fullest usable nodes first.
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t leaf : leaves)
        for (std::uint32_t node : m_leafNodes[leaf])
            if (m_free[node] >= g) candidates.push_back(node);
    std::sort(candidates.begin(), candidates.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_free[a] != m_free[b] ? m_free[a] < m_free[b] : a < b;
    });
    for (std::uint32_t node : candidates) {
        while (static_cast<int>(gang.pods.size()) < pods && m_free[node] >= g) {
            setFree(node, m_free[node] - g);
            gang.pods.push_back({gang.name + '-' + std::to_string(gang.pods.size()), node});
        }
        if (static_cast<int>(gang.pods.size()) == pods) break;
    }
    return static_cast<int>(gang.pods.size()) == pods;
}

void DemoSimulator::Impl::startGangs(std::int64_t budget, std::vector<ClusterEvent>& events) {
    const int perNode = m_shape.gpus;
    if (perNode <= 0) return;
    const std::int64_t maxGangGpus =
        std::max<std::int64_t>(perNode, std::min<std::int64_t>(m_gpusTotal * 5 / 100, 128LL * perNode));
    std::int64_t started = 0;
    for (int failures = 0; started < budget && failures < 3;) {
        Gang gang;
        int pods = 1;
        if (perNode > 1 && m_rng.chance(0.35)) {
            gang.gpusPerPod = 1 << m_rng.between(0, largestFractionShift(perNode));
            pods = 1 << m_rng.between(0, 2);
        } else {
            gang.gpusPerPod = perNode;
            int largest = 0;
            while (largest < 7 && (2LL << largest) * perNode <= maxGangGpus) ++largest;
            pods = 1 << m_rng.between(0, largest);
        }
        const Team& team = teams()[m_rng.index(teams().size())];
        gang.nameSpace = team.nameSpace;
        gang.name = team.prefixes[m_rng.index(team.prefixes.size())];
        gang.name.push_back('-');
        appendSuffix(gang.name, m_suffixCounter++);
        if (!placeGang(gang, pods)) {
            for (const GangPod& pod : gang.pods) setFree(pod.node, m_free[pod.node] + gang.gpusPerPod);
            ++failures;
            continue;
        }
        for (const GangPod& pod : gang.pods) {
            Pod p;
            p.nameSpace = gang.nameSpace;
            p.name = pod.name;
            p.nodeName = m_nodeNames[pod.node];
            p.phase = PodPhase::Running;
            p.requests = m_gpuRequests[static_cast<std::size_t>(gang.gpusPerPod)];
            p.workload = gang.name;
            events.emplace_back(PodUpserted{std::move(p)});
        }
        started += gang.gpus();
        m_gangs.push_back(std::move(gang));
    }
}

// Now and then a node drops out or comes back, keeping roughly 0-2% of the nodes NotReady.
void DemoSimulator::Impl::flapNodes(const ClusterState& state, std::vector<ClusterEvent>& events) {
    const std::size_t n = m_nodeNames.size();
    if (n == 0) return;
    const double rate = std::min(static_cast<double>(n) / 2000.0, 4.0);
    int flaps = static_cast<int>(rate);
    if (m_rng.chance(rate - flaps)) ++flaps;
    for (; flaps > 0; --flaps) {
        const bool tooMany = m_notReady.size() * 50 >= n;
        if (!m_notReady.empty() && (tooMany || m_rng.chance(0.5))) {
            const std::size_t k = m_rng.index(m_notReady.size());
            const std::uint32_t node = m_notReady[k];
            m_notReady[k] = m_notReady.back();
            m_notReady.pop_back();
            Node copy = *state.record(m_ids[node]).node;
            markReady(copy);
            events.emplace_back(NodeUpserted{std::move(copy)});
            continue;
        }
        const std::uint32_t node = static_cast<std::uint32_t>(m_rng.index(n));
        if (m_ids[node] == kUnknownNode || !m_seen[node] || !m_ready[node] || !state.record(m_ids[node]).present)
            continue;
        Node copy = *m_seen[node];
        markNotReady(copy);
        events.emplace_back(NodeUpserted{std::move(copy)});
    }
}

std::vector<ClusterEvent> DemoSimulator::Impl::step(const ClusterState& state) {
    scan(state);
    std::vector<ClusterEvent> events;
    if (m_gpusTotal > 0) {
        const double utilisation = static_cast<double>(m_gpusUsed) / static_cast<double>(m_gpusTotal);
        const double target = targetUtilisation();
        const double total = static_cast<double>(m_gpusTotal);
        // A steady churn plus a pull towards the target, bounded so that a big cluster's tick
        // stays a few thousand events.
        const std::int64_t churn = std::clamp<std::int64_t>(m_gpusTotal * 12 / 1000, 2LL * m_shape.gpus, 2048);
        const auto pull = [&](double gap) { return static_cast<std::int64_t>(std::max(gap, 0.0) * total * 0.25); };
        finishGangs(churn + pull(utilisation - target), events);
        startGangs(churn + pull(target - utilisation), events);
    }
    flapNodes(state, events);
    ++m_tick;
    return events;
}

DemoSimulator::DemoSimulator(const DemoCluster& demo, std::uint64_t seed)
    : m_impl(std::make_unique<Impl>(demo, seed)) {}
DemoSimulator::~DemoSimulator() = default;
DemoSimulator::DemoSimulator(DemoSimulator&&) noexcept = default;
DemoSimulator& DemoSimulator::operator=(DemoSimulator&&) noexcept = default;

std::vector<ClusterEvent> DemoSimulator::step(const ClusterState& state) {
    return m_impl->step(state);
}

} // namespace topodeck
