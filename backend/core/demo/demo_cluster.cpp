#include "core/demo/demo_cluster.h"

#include "core/demo/demo_parts.h"
#include "core/demo/dra_demo.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <utility>

namespace topodeck {
namespace {

using namespace demo_parts;

constexpr int kMaxScaleNodes = 65536;
constexpr std::uint64_t kDemoSeed = 0x70D0DEC4ULL;

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

ResourceList allocatableFor(const NodeShape& shape) {
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(shape.cpuMillis));
    r.set("ephemeral-storage", Quantity::fromUnits(shape.storageBytes, Quantity::Format::BinarySI));
    r.set("memory", Quantity::fromUnits(shape.memoryBytes, Quantity::Format::BinarySI));
    r.set(kGpuResource, Quantity::fromUnits(shape.gpus));
    r.set("pods", Quantity::fromUnits(110));
    return r;
}

ResourceList cpuPodRequests(std::int64_t millis, std::int64_t memoryBytes) {
    ResourceList r;
    r.set("cpu", Quantity::fromMillis(millis));
    r.set("memory", Quantity::fromUnits(memoryBytes, Quantity::Format::BinarySI));
    return r;
}

struct DaemonSpec {
    std::string_view nameSpace;
    std::string_view name;
    std::int64_t cpuMillis;
    std::int64_t memoryBytes;
};

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
            // One rack's NVLink fabric is split by NMX into two partitions of 9 trays: one
            // physical domain (ClusterUUID), two cliques, as the GPU operator labels them.
            const std::string clusterUuid = makeUuid(rng);
            const bool partitioned = su == 4 && rack == 8;
            const std::string suValue = formatted("su-%d", su);
            const std::string rackValue = formatted("rack-%d-%02d", su, rack);
            for (int tray = 1; tray <= 18; ++tray) {
                const std::string clique = clusterUuid + (!partitioned ? ".0" : tray <= 9 ? ".1" : ".2");
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
        scatterSomeGangs();
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

    DemoGangNames newGangName(std::string_view* nameSpace) {
        const Team& team = teams()[m_rng.index(teams().size())];
        *nameSpace = team.nameSpace;
        std::string name(team.prefixes[m_rng.index(team.prefixes.size())]);
        name.push_back('-');
        const std::uint64_t serial = m_suffixCounter++;
        appendSuffix(name, serial);
        return demoGangNames(name, serial);
    }

    void emitGangPod(std::string_view nameSpace, const DemoGangNames& gang, int index, std::uint32_t node, int gpus) {
        Pod pod;
        pod.nameSpace = nameSpace;
        pod.name = gang.podPrefix;
        pod.name.push_back('-');
        pod.name += std::to_string(index);
        pod.nodeName = nodeName(node);
        pod.phase = PodPhase::Running;
        pod.requests = m_gpuRequests[static_cast<std::size_t>(gpus)];
        pod.workload = gang.workload;
        pod.workloadKind = gang.kind;
        if (gpus == m_bp.shape.gpus) m_wholeNodePods.push_back({m_events->size(), m_gangSerial, leafOf(node)});
        m_events->emplace_back(PodUpserted{std::move(pod)});
    }

    std::uint32_t leafOf(std::uint32_t node) const {
        const auto it = std::upper_bound(m_bp.leafFirst.begin(), m_bp.leafFirst.end(), node);
        return static_cast<std::uint32_t>(it - m_bp.leafFirst.begin()) - 1;
    }

    // Real schedulers do not always keep a gang together: a retry after a node failure, a
    // scheduler without topology rules, an admin's manual placement. Some whole-node gangs trade
    // a few pods with gangs in other racks, which leaves every node's usage as it was (both pods
    // hold the whole node) and so changes no occupancy figure. A random source of its own keeps
    // every other draw of the demo as it was.
    void scatterSomeGangs() {
        struct Range {
            std::size_t first, end;
        };
        std::vector<Range> gangs;
        for (std::size_t i = 0; i < m_wholeNodePods.size();) {
            std::size_t end = i + 1;
            while (end < m_wholeNodePods.size() && m_wholeNodePods[end].gang == m_wholeNodePods[i].gang) ++end;
            if (end - i >= 4) gangs.push_back({i, end});
            i = end;
        }
        if (gangs.empty() || m_wholeNodePods.size() < 8) return;
        Rng rng(kScatterSeed);
        const std::size_t count = std::min<std::size_t>(1 + gangs.size() / 12, 48);
        for (std::size_t c = 0; c < count; ++c) {
            const Range gang = gangs[rng.index(gangs.size())];
            const std::size_t size = gang.end - gang.first;
            const std::size_t moves = 1 + rng.index(std::max<std::size_t>(1, size / 4));
            for (std::size_t m = 0; m < moves; ++m) {
                WholeNodePod& mine = m_wholeNodePods[gang.first + rng.index(size)];
                for (int attempt = 0; attempt < 16; ++attempt) {
                    WholeNodePod& other = m_wholeNodePods[rng.index(m_wholeNodePods.size())];
                    if (other.leaf == mine.leaf || other.gang == mine.gang) continue;
                    std::swap(std::get<PodUpserted>((*m_events)[mine.event]).pod.nodeName,
                              std::get<PodUpserted>((*m_events)[other.event]).pod.nodeName);
                    std::swap(mine.leaf, other.leaf);
                    break;
                }
            }
        }
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
            const DemoGangNames gang = newGangName(&nameSpace);
            ++m_gangSerial;
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
            const DemoGangNames gang = newGangName(&nameSpace);
            ++m_gangSerial;
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
                pod.workloadKind = WorkloadKind::Owner; // its DaemonSet
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
            pod.workloadKind = WorkloadKind::Owner; // its ReplicaSet
            m_events->emplace_back(PodUpserted{std::move(pod)});
        }
    }

    // Gangs too large for what is free, waiting unscheduled as they would in a real queue.
    void addPendingGangs() {
        const std::size_t gangs = 1 + leafCount() / 32;
        for (std::size_t g = 0; g < gangs; ++g) {
            std::string_view nameSpace;
            const DemoGangNames gang = newGangName(&nameSpace);
            const int pods = 16 << m_rng.between(0, 2);
            for (int p = 0; p < pods; ++p) {
                Pod pod;
                pod.nameSpace = nameSpace;
                pod.name = gang.podPrefix + '-' + std::to_string(p);
                pod.phase = PodPhase::Pending;
                pod.requests = m_gpuRequests[static_cast<std::size_t>(m_bp.shape.gpus)];
                pod.workload = gang.workload;
                pod.workloadKind = gang.kind;
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
    struct WholeNodePod {
        std::size_t event; // its PodUpserted in *m_events
        std::uint32_t gang;
        std::uint32_t leaf;
    };
    std::vector<WholeNodePod> m_wholeNodePods; // in the order emitted, so a gang's pods are adjacent
    std::uint32_t m_gangSerial = 0;
    static constexpr std::uint64_t kScatterSeed = 0x5CA77E12ULL;
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
    return {"gb200", "gb200-dra", "h100", "scale:N"};
}

Result<DemoCluster> makeDemoCluster(std::string_view name) {
    if (name.ends_with(kDraDemoSuffix) && name.size() > kDraDemoSuffix.size()) {
        Result<DemoCluster> demo = makeDemoCluster(name.substr(0, name.size() - kDraDemoSuffix.size()));
        if (!demo) return demo;
        demo->name = std::string(name);
        demo->title += ", GPUs through DRA";
        demo->events = DraDemoConverter().convert(std::move(demo->events));
        demo->gpusThroughDra = true;
        return demo;
    }
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
        return Error{"unknown demo cluster \"" + std::string(name) +
                     "\" (known: gb200, h100, scale:N, and each with -dra: its GPUs through DRA)"};
    }
    bp.demo.name = std::string(name);
    bp.demo.seed = kDemoSeed;
    Populator populator(bp, rng);
    bp.demo.events = populator.run();
    return std::move(bp.demo);
}

} // namespace topodeck
