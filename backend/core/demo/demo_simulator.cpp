#include "core/demo/demo_simulator.h"

#include "core/demo/demo_parts.h"
#include "core/demo/dra_demo.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace topodeck {

using namespace demo_parts;

struct DemoSimulator::Impl {
    struct GangPod {
        std::string name;
        std::uint32_t node; // simulator node index
    };
    struct Gang {
        std::string nameSpace;
        std::string name; // its pods are <name>-<i>
        std::string workload;
        WorkloadKind kind = WorkloadKind::None;
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
        if (inserted) m_gangs.push_back({pod.nameSpace, pod.workload, pod.workload, pod.workloadKind, static_cast<int>(gpus), {}});
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
        const std::uint64_t serial = m_suffixCounter++;
        appendSuffix(gang.name, serial);
        DemoGangNames names = demoGangNames(gang.name, serial);
        gang.name = std::move(names.podPrefix);
        gang.workload = std::move(names.workload);
        gang.kind = names.kind;
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
            p.workload = gang.workload;
            p.workloadKind = gang.kind;
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

struct DemoSimulator::DraTwin {
    ClusterState state; // the device-plugin twin, which the simulator reads
    DraDemoConverter converter;
};

namespace {

// The device-plugin demo a DRA demo was made from (the same seed makes the same cluster).
DemoCluster devicePluginTwin(const DemoCluster& demo) {
    Result<DemoCluster> twin = makeDemoCluster(std::string_view(demo.name).substr(0, demo.name.size() - kDraDemoSuffix.size()));
    return twin ? std::move(*twin) : demo;
}

} // namespace

DemoSimulator::DemoSimulator(const DemoCluster& demo, std::uint64_t seed) {
    if (!demo.gpusThroughDra) {
        m_impl = std::make_unique<Impl>(demo, seed);
        return;
    }
    DemoCluster twin = devicePluginTwin(demo);
    m_impl = std::make_unique<Impl>(twin, seed);
    m_dra = std::make_unique<DraTwin>();
    for (const ClusterEvent& event : twin.events) (void)m_dra->state.apply(event);
    // The converter learns which devices the demo's claims hold, as the demo's events were made.
    (void)m_dra->converter.convert(std::move(twin.events));
}
DemoSimulator::~DemoSimulator() = default;
DemoSimulator::DemoSimulator(DemoSimulator&&) noexcept = default;
DemoSimulator& DemoSimulator::operator=(DemoSimulator&&) noexcept = default;

std::vector<ClusterEvent> DemoSimulator::step(const ClusterState& state) {
    if (!m_dra) return m_impl->step(state);
    std::vector<ClusterEvent> events = m_impl->step(m_dra->state);
    for (const ClusterEvent& event : events) (void)m_dra->state.apply(event);
    return m_dra->converter.convert(std::move(events));
}

} // namespace topodeck
