#include "core/placement/engines/kueue_tas_engine.h"

#include "core/placement/engines/node_filter.h"
#include "core/placement/engines/trace_budget.h"
#include "core/placement/engines/what_if.h"

#include "core/text/natural_order.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {
namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();

using Profile = EngineOptions::KueueProfile;

// One requested resource in Kueue's integer units (resources.ResourceValue: milli-units for cpu,
// whole units rounded up for everything else).
struct RequestedResource {
    std::string name;
    std::int64_t amount = 0;       // per worker pod; 0 for a resource only the leader requests
    std::int64_t leaderAmount = 0; // per leader pod of a PodSet group; 0 when it requests none
};

enum class Exclusion : std::uint8_t { None, Taint, NodeSelector, Resource };

// Kueue's `domain`, flattened: ids index TasPlanner::m_domains; children are contiguous in
// m_children. Parents are created before their children, so a reverse scan is bottom-up.
struct TasDomain {
    std::int32_t parent = -1;
    std::int32_t level = 0;
    std::uint32_t firstChild = 0;
    std::uint32_t childCount = 0;
    std::uint32_t rank = 0;      // position among the level's domains in levelValues order (bytewise)
    DomainId source = kNoDomain; // the index domain this mirrors
    NodeId node = 0;             // hostname leaves: the node whose taints and labels are checked
    std::int32_t state = 0;      // pods that fit (phase 1), then pods assigned (phase 2b)
    std::int32_t sliceState = 0; // slices that fit at and above the slice level; 0 below it
    std::int32_t fitPods = 0;    // the phase-1 values, kept for the trace
    std::int32_t fitSlices = 0;
    Exclusion exclusion = Exclusion::None;
    bool usedAtFit = false;            // took pods at the fit level (for the trace)
    std::uint32_t exclusionDetail = 0; // the taint's index on the node, or the resource's index
    // A PodSet group's leader (Kueue's leaderCount, podCountWithLeader, sliceCountWithLeader):
    // leaders the domain holds (0 or 1), and the workers and slices that still fit beside one.
    // Without a group they equal 0, state and sliceState.
    std::int32_t leader = 0;
    std::int32_t stateWithLeader = 0;
    std::int32_t sliceWithLeader = 0;
    std::int32_t fitLeader = 0; // the phase-1 values, kept for the trace
    std::int32_t fitWithLeader = 0;
};

// corev1.Taint.ToString().
std::string taintString(const Taint& taint) {
    if (taint.effect.empty()) return taint.value.empty() ? taint.key : taint.key + "=" + taint.value + ":";
    if (taint.value.empty()) return taint.key + ":" + taint.effect;
    return taint.key + "=" + taint.value + ":" + taint.effect;
}

// Kueue's ExclusionStats: why leaves could not take a single pod.
struct ExclusionStats {
    std::int64_t totalNodes = 0;
    std::int64_t nodeSelector = 0;
    std::map<std::string, std::int64_t> taints;
    std::map<std::string, std::int64_t> resources;

    bool any() const { return nodeSelector > 0 || !taints.empty() || !resources.empty(); }
    // formatReasons(): every item, sorted as strings, comma-separated.
    std::string format() const {
        std::vector<std::string> reasons;
        if (nodeSelector > 0) reasons.push_back("nodeSelector: " + std::to_string(nodeSelector));
        for (const auto& [taint, count] : taints)
            reasons.push_back("taint " + inQuotes(taint) + ": " + std::to_string(count));
        for (const auto& [resource, count] : resources)
            reasons.push_back("resource " + inQuotes(resource) + ": " + std::to_string(count));
        std::sort(reasons.begin(), reasons.end());
        std::string out;
        for (const std::string& reason : reasons) {
            if (!out.empty()) out += ", ";
            out += reason;
        }
        return out;
    }
};

std::int64_t kueueUnits(std::string_view resource, const Quantity& quantity) {
    return resource == "cpu" ? quantity.milliValue() : quantity.value();
}

class TasPlanner {
public:
    // `leader`: the one-pod PodSet grouped with `request`'s workers (kueue.x-k8s.io/podset-group-name),
    // placed in the same pass (findTopologyAssignment with leaderTasPodSetRequests); its assignment
    // goes to *leaderResult.
    TasPlanner(const PlacementCluster& cluster, const GangRequest& request, const EngineOptions& options,
               PlacementResult& result, const GangRequest* leader = nullptr, PlacementResult* leaderResult = nullptr)
        : m_cluster(cluster), m_index(cluster.index()), m_spec(cluster.spec()), m_request(request), m_options(options),
          m_result(result), m_leader(leader), m_leaderResult(leaderResult) {}

    void run() {
        if (!resolveRequest()) return;
        traceProfile();
        buildTree();
        fillInCounts();
        traceLeaves();
        int fitLevel = 0;
        std::vector<std::int32_t> fitDomains;
        if (!findLevelWithFitDomains(fitLevel, fitDomains)) return;
        descend(fitLevel, fitDomains);
    }

private:
    enum class Decision { BestFit, LeastFree, Multi, Failed };

    // ---- request -------------------------------------------------------------------------------

    const std::string& key(int level) const { return m_spec.levels[static_cast<std::size_t>(level)].nodeLabel; }
    const std::string& levelName(int level) const { return m_spec.levels[static_cast<std::size_t>(level)].name; }

    bool invalid(std::string message) {
        m_result.invalidRequest = true;
        m_result.feasible = false;
        m_result.message = std::move(message);
        return false;
    }

    // findTopologyAssignment's preamble: slice size, levels, slice layers, in Kueue's order.
    bool resolveRequest() {
        m_depth = m_spec.depth();
        if (m_depth == 0) return invalid("the topology has no levels"); // ours: Kueue requires 1-16 levels
        m_topologyName = m_spec.name.empty() ? "default" : m_spec.name;
        if (m_request.pods < 1) return invalid("the gang needs at least 1 pod"); // ours
        m_count = m_request.pods;

        const KueueConstraint& constraint = m_request.kueue;
        const std::vector<SliceLayer>& layers = constraint.slices;
        if (!layers.empty()) {
            m_sliceSize = layers.front().size;
            if (m_sliceSize <= 0) return invalid("slice topology requested, but slice size not provided");
        }
        m_required = constraint.mode == KueueConstraint::Mode::Required;
        m_unconstrained = constraint.mode == KueueConstraint::Mode::Implied ||
                          constraint.mode == KueueConstraint::Mode::Unconstrained;
        switch (m_options.kueueProfile) {
        case Profile::Auto:
            m_leastFree = m_unconstrained;
            break; // TASProfileMixed, default on since 0.15
        case Profile::BestFit:
            m_leastFree = false;
            break;
        case Profile::LeastFreeCapacity:
            m_leastFree = true;
            break;
        }

        // levelKey(): required, else preferred, else the top for slice-only, else the lowest level.
        std::string topologyKey;
        if (constraint.mode == KueueConstraint::Mode::Required || constraint.mode == KueueConstraint::Mode::Preferred) {
            if (constraint.level.empty()) return invalid("topology level not specified");
            topologyKey = constraint.level;
        } else {
            topologyKey = layers.empty() ? key(m_depth - 1) : key(0);
        }
        m_requestedLevel = m_spec.levelIndex(topologyKey);
        if (m_requestedLevel < 0) return invalid("no requested topology level: " + topologyKey);

        const std::string sliceKey = layers.empty() ? key(m_depth - 1) : layers.front().level;
        m_sliceLevel = m_spec.levelIndex(sliceKey);
        if (m_sliceLevel < 0) return invalid("no requested topology level for slices: " + sliceKey);
        if (m_requestedLevel > m_sliceLevel)
            return invalid("podset slice topology " + key(m_sliceLevel) + " is above the podset topology " +
                           key(m_requestedLevel));

        // buildSliceSizeAtLevel(): each inner layer's size applies from below the previous layer
        // down to its own level.
        m_sliceSizeAtLevel.assign(static_cast<std::size_t>(m_depth), 0);
        std::int32_t previousSize = m_sliceSize;
        int previousLevel = m_sliceLevel;
        for (std::size_t i = 1; i < layers.size(); ++i) {
            const SliceLayer& layer = layers[i];
            const int level = m_spec.levelIndex(layer.level);
            if (level < 0) return invalid("no requested topology level for additional slice layer: " + layer.level);
            if (level <= previousLevel)
                return invalid("additional slice layer topology " + key(level) + " must be at a lower level than " +
                               key(previousLevel));
            if (layer.size <= 0) return invalid("slice topology requested, but slice size not provided");
            if (previousSize % layer.size != 0)
                return invalid("additional slice layer size " + std::to_string(layer.size) +
                               " must evenly divide parent layer size " + std::to_string(previousSize));
            for (int l = previousLevel + 1; l <= level; ++l)
                m_sliceSizeAtLevel[static_cast<std::size_t>(l)] = layer.size;
            previousSize = layer.size;
            previousLevel = level;
        }
        m_multiLayer = layers.size() > 1;
        // Kueue's webhook rejects a slice size that does not divide the PodSet (KEP-2724 validation).
        if (m_count % m_sliceSize != 0)
            return invalid("slice size " + std::to_string(m_sliceSize) + " does not evenly divide the " +
                           std::to_string(m_count) + " pods (Kueue's webhook rejects this)");

        // The request in Kueue's units, sorted by name with `pods` in its place so that the
        // limiting resource ties break alphabetically, as CountInWithLimitingResource does. A
        // group's leader adds its own requests beside the workers'.
        addRequests(m_request.perPod, false);
        if (m_leader) addRequests(m_leader->perPod, true);
        std::sort(m_resources.begin(), m_resources.end(),
                  [](const RequestedResource& a, const RequestedResource& b) { return a.name < b.name; });
        return true;
    }

    // One pod's requests plus Kueue's `pods: 1` (resources.OnePodRequest), a zero request left out.
    void addRequests(const ResourceList& perPod, bool leader) {
        const auto add = [&](const std::string& resource, std::int64_t amount) {
            if (amount <= 0) return; // a zero request never limits
            auto it = std::find_if(m_resources.begin(), m_resources.end(),
                                   [&](const RequestedResource& r) { return r.name == resource; });
            if (it == m_resources.end()) it = m_resources.insert(m_resources.end(), {resource, 0, 0});
            (leader ? it->leaderAmount : it->amount) = amount;
        };
        bool sawPods = false;
        for (const auto& [resource, quantity] : perPod) {
            std::int64_t amount = kueueUnits(resource, quantity);
            if (resource == "pods") {
                sawPods = true;
                ++amount;
            }
            add(resource, amount);
        }
        if (!sawPods) add("pods", 1);
    }

    // ---- tree and counts -----------------------------------------------------------------------

    // Only usable nodes carrying every level label take part (nodesCache drops NotReady and
    // unschedulable nodes; NodeMatchesFlavor wants every level label).
    void buildTree() {
        m_hostnameLeaves = key(m_depth - 1) == kHostnameLabel;
        m_levelDomains.assign(static_cast<std::size_t>(m_depth), {});
        m_order.assign(static_cast<std::size_t>(m_depth), {});
        m_made.assign(static_cast<std::size_t>(m_depth), {});
        m_capacity.assign(m_resources.size(), 0);
        m_resourceExclusions.assign(m_resources.size(), 0);
        readNodes();
        m_domains.reserve(m_index.domainSlots());
        m_children.reserve(m_index.domainSlots());
        addChildren(kRootDomain, 0);
        for (std::size_t r = 0; r < m_resources.size(); ++r)
            if (m_resourceExclusions[r] > 0) m_stats.resources[m_resources[r].name] = m_resourceExclusions[r];
    }

    // Creates the domains for the index children of `source` (at `level`), children in bytewise
    // value order so that creation order is levelValues order; returns the range in m_children.
    std::pair<std::uint32_t, std::uint32_t> addChildren(DomainId source, int level) {
        const auto lvl = static_cast<std::size_t>(level);
        std::vector<DomainId>& order = m_order[lvl];
        order.clear();
        for (const DomainId child : m_index.domain(source).children) {
            const Domain& domain = m_index.domain(child);
            if (domain.alive && !domain.unlabelled) order.push_back(child);
        }
        // The index keeps natural order ("r2" < "r10"); Kueue compares strings bytewise.
        const auto byValue = [this](DomainId a, DomainId b) {
            return m_index.domain(a).value < m_index.domain(b).value;
        };
        if (!std::is_sorted(order.begin(), order.end(), byValue)) std::sort(order.begin(), order.end(), byValue);

        std::vector<std::int32_t>& made = m_made[lvl];
        made.clear();
        // Deeper calls use other levels' buffers, so these two stay ours through the recursion.
        for (const DomainId child : order) {
            const std::int32_t id = level == m_depth - 1 ? addLeaf(child) : addInner(child, level);
            if (id >= 0) made.push_back(id);
        }
        const auto first = static_cast<std::uint32_t>(m_children.size());
        m_children.insert(m_children.end(), made.begin(), made.end());
        return {first, static_cast<std::uint32_t>(made.size())};
    }

    std::int32_t newDomain(DomainId source, int level) {
        const auto id = static_cast<std::int32_t>(m_domains.size());
        TasDomain& domain = m_domains.emplace_back();
        domain.level = level;
        domain.source = source;
        std::vector<std::int32_t>& peers = m_levelDomains[static_cast<std::size_t>(level)];
        domain.rank = static_cast<std::uint32_t>(peers.size());
        peers.push_back(id);
        return id;
    }

    std::int32_t addInner(DomainId source, int level) {
        const std::int32_t id = newDomain(source, level);
        const auto [first, count] = addChildren(source, level + 1);
        if (count == 0) { // Kueue builds domains from leaves only
            m_domains.pop_back();
            m_levelDomains[static_cast<std::size_t>(level)].pop_back();
            return -1;
        }
        TasDomain& domain = m_domains[static_cast<std::size_t>(id)];
        domain.firstChild = first;
        domain.childCount = count;
        for (std::uint32_t i = 0; i < count; ++i)
            m_domains[static_cast<std::size_t>(m_children[first + i])].parent = id;
        return id;
    }

    // Every node's usability, filter verdict and free capacity, read in id order: these lookups
    // (node object, allocatable, usage) are most of the engine's time at 65k nodes, and reading
    // them in memory order with a few nodes prefetched ahead overlaps their cache misses.
    void readNodes() {
        const ClusterState& state = m_cluster.state();
        const auto nodes = static_cast<NodeId>(m_cluster.nodeSlots());
        const std::size_t width = m_resources.size();
        m_nodeVerdict.assign(nodes, kUnusable);
        m_nodeFree.resize(static_cast<std::size_t>(nodes) * width);
        std::vector<PlacementCluster::FreeColumn> columns;
        for (const RequestedResource& resource : m_resources) columns.push_back(m_cluster.freeColumn(resource.name));
        constexpr NodeId kAhead = 8;
        for (NodeId id = 0; id < nodes; ++id) {
            if (id + 2 * kAhead < nodes && state.record(id + 2 * kAhead).present)
                __builtin_prefetch(state.record(id + 2 * kAhead).node.get());
            if (id + kAhead < nodes && state.record(id + kAhead).present) {
                const NodeRecord& ahead = state.record(id + kAhead);
                __builtin_prefetch(ahead.node->allocatable.entries().data());
                __builtin_prefetch(ahead.usage.requested.entries().data());
            }
            if (!m_cluster.usable(id)) continue;
            m_nodeVerdict[id] = m_hostnameLeaves ? filterVerdict(m_cluster.node(id)) : kPasses;
            std::int64_t* free = m_nodeFree.data() + static_cast<std::size_t>(id) * width;
            for (std::size_t r = 0; r < width; ++r) free[r] = freeUnits(id, m_resources[r].name, columns[r]);
        }
    }

    // matchNode(): an untolerated NoSchedule/NoExecute taint (kTaint + its index), then the
    // nodeSelector.
    std::uint32_t filterVerdict(const Node& node) const {
        const NodeFilterVerdict verdict =
            filterNode(node, m_request.nodeSelector, m_request.tolerations, FilterOrder::TaintsFirst);
        switch (verdict.failed) {
        case NodeFilterVerdict::Failed::Nothing:
            return kPasses;
        case NodeFilterVerdict::Failed::NodeSelector:
            return kNodeSelector;
        case NodeFilterVerdict::Failed::Taint:
            return kTaint + verdict.taint;
        }
        return kPasses;
    }

    // A leaf: a hostname, or a lowest-level value tuple whose nodes' capacities are summed. Only
    // hostname leaves are filtered, by their (first) node.
    std::int32_t addLeaf(DomainId source) {
        const std::vector<NodeId>& members = m_index.domain(source).nodes;
        const auto firstUsable = std::find_if(members.begin(), members.end(),
                                              [this](NodeId node) { return m_nodeVerdict[node] != kUnusable; });
        if (firstUsable == members.end()) return -1;
        const std::int32_t id = newDomain(source, m_depth - 1);
        TasDomain& leaf = m_domains[static_cast<std::size_t>(id)];
        leaf.node = *firstUsable;
        ++m_stats.totalNodes;
        if (const std::uint32_t verdict = m_nodeVerdict[leaf.node]; verdict != kPasses) {
            if (verdict == kNodeSelector) {
                ++m_stats.nodeSelector;
                leaf.exclusion = Exclusion::NodeSelector;
            } else {
                leaf.exclusion = Exclusion::Taint;
                leaf.exclusionDetail = verdict - kTaint;
                ++m_stats.taints[taintString(m_cluster.node(leaf.node).taints[leaf.exclusionDetail])];
            }
            return id;
        }

        const std::size_t width = m_resources.size();
        std::fill(m_capacity.begin(), m_capacity.end(), 0);
        for (auto it = firstUsable; it != members.end(); ++it) {
            if (m_nodeVerdict[*it] == kUnusable) continue;
            const std::int64_t* free = m_nodeFree.data() + static_cast<std::size_t>(*it) * width;
            for (std::size_t r = 0; r < width; ++r) m_capacity[r] += free[r];
        }
        // CountInWithLimitingResource: the minimum over resources, the first name among equals.
        std::size_t limiting = 0;
        const std::int64_t count = workersThatFit(&limiting);
        leaf.state = static_cast<std::int32_t>(count);
        leaf.stateWithLeader = leaf.state;
        if (count == 0) {
            ++m_resourceExclusions[limiting];
            leaf.exclusion = Exclusion::Resource;
            leaf.exclusionDetail = static_cast<std::uint32_t>(limiting);
        }
        // fillLeafCounts: a leader takes its requests first when they fit (CountIn > 0), and the
        // workers that still fit are podCountWithLeader. Only the workers' nodeSelector and
        // tolerations filtered the leaf.
        if (m_leader && std::all_of(m_resources.begin(), m_resources.end(), [&](const RequestedResource& r) {
                return r.leaderAmount <= m_capacity[static_cast<std::size_t>(&r - m_resources.data())];
            })) {
            leaf.leader = 1;
            for (std::size_t r = 0; r < m_resources.size(); ++r) m_capacity[r] -= m_resources[r].leaderAmount;
            leaf.stateWithLeader = static_cast<std::int32_t>(workersThatFit(nullptr));
        }
        return id;
    }

    // Worker pods m_capacity holds: the minimum over the workers' resources; *limiting, when
    // asked, the first of the resources that give it.
    std::int64_t workersThatFit(std::size_t* limiting) const {
        std::int64_t count = kMaxCount;
        for (std::size_t r = 0; r < m_resources.size(); ++r) {
            if (m_resources[r].amount <= 0) continue;
            const std::int64_t fits = std::clamp<std::int64_t>(m_capacity[r] / m_resources[r].amount, 0, kMaxCount);
            if (fits < count) {
                count = fits;
                if (limiting) *limiting = r;
            }
        }
        return count;
    }

    // Free capacity in Kueue's units; `pods` is allocatable pods minus one per pod on the node.
    std::int64_t freeUnits(NodeId node, const std::string& resource, PlacementCluster::FreeColumn column) const {
        if (resource == "pods") return m_cluster.freePodSlots(node);
        return kueueUnits(resource, Quantity::fromNanos(column.nanos(node)));
    }

    // Phase 1 (fillInCountsHelper): pods and slices bubble up. With inner slice layers a child
    // contributes only whole inner slices. With a leader, a parent holds one when any child does,
    // and what fits beside it is the whole less the smallest cost of a leader in a child that can
    // hold one.
    void fillInCounts() {
        for (std::size_t i = m_domains.size(); i-- > 0;) {
            TasDomain& domain = m_domains[i];
            if (domain.childCount > 0) {
                const std::int32_t inner =
                    domain.level + 1 < m_depth ? m_sliceSizeAtLevel[static_cast<std::size_t>(domain.level + 1)] : 0;
                std::int64_t pods = 0;
                std::int64_t slices = 0;
                bool leaderFits = false; // hasWithLeaderCapacityContributor
                std::int64_t podCost = kMaxCount;
                std::int64_t sliceCost = kMaxCount;
                std::int32_t leader = 0;
                for (std::uint32_t c = 0; c < domain.childCount; ++c) {
                    const TasDomain& child = m_domains[static_cast<std::size_t>(m_children[domain.firstChild + c])];
                    const std::int64_t childPods = inner > 0 ? child.state / inner * inner : child.state;
                    const std::int64_t childWithLeader =
                        inner > 0 ? child.stateWithLeader / inner * inner : child.stateWithLeader;
                    pods += childPods;
                    slices += child.sliceState;
                    if (!m_leader || child.leader > 0) {
                        leaderFits = true;
                        podCost = std::min(podCost, childPods - childWithLeader);
                        sliceCost = std::min<std::int64_t>(sliceCost, child.sliceState - child.sliceWithLeader);
                    }
                    leader = std::max(leader, child.leader);
                }
                domain.state = static_cast<std::int32_t>(std::min(pods, kMaxCount));
                domain.sliceState = static_cast<std::int32_t>(std::min(slices, kMaxCount));
                domain.leader = leader;
                domain.stateWithLeader = leaderFits ? static_cast<std::int32_t>(std::min(pods - podCost, kMaxCount)) : 0;
                domain.sliceWithLeader =
                    leaderFits ? static_cast<std::int32_t>(std::min(slices - sliceCost, kMaxCount)) : 0;
            }
            if (domain.level == m_sliceLevel) {
                domain.sliceState = domain.state / m_sliceSize;
                domain.sliceWithLeader = domain.stateWithLeader / m_sliceSize;
            }
            domain.fitPods = domain.state;
            domain.fitSlices = domain.sliceState;
            domain.fitLeader = domain.leader;
            domain.fitWithLeader = domain.stateWithLeader;
        }
    }

    // ---- phase 2a ------------------------------------------------------------------------------

    TasDomain& at(std::int32_t id) { return m_domains[static_cast<std::size_t>(id)]; }
    const TasDomain& at(std::int32_t id) const { return m_domains[static_cast<std::size_t>(id)]; }

    // sortedDomains(): sliceState descending (BestFit) or ascending (LeastFreeCapacity), then
    // state ascending, then levelValues. One packed key per domain keeps the sort cheap at scale.
    void sortDomains(std::vector<std::int32_t>& ids) {
        m_sortKeys.clear();
        m_sortKeys.reserve(ids.size());
        for (const std::int32_t id : ids) {
            const TasDomain& d = at(id);
            const auto slices = static_cast<std::uint32_t>(m_leastFree ? d.sliceState : kMaxCount - d.sliceState);
            m_sortKeys.push_back({(std::uint64_t{slices} << 32) | static_cast<std::uint32_t>(d.state), d.rank, id});
        }
        std::sort(m_sortKeys.begin(), m_sortKeys.end(), [](const SortKey& a, const SortKey& b) {
            return a.primary != b.primary ? a.primary < b.primary : a.rank < b.rank;
        });
        for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = m_sortKeys[i].id;
    }

    // findBestFitDomainBy(): from `from` on, the first domain with the smallest value >= needed;
    // the first candidate when none is smaller.
    std::int32_t bestFit(const std::vector<std::int32_t>& ids, std::size_t from, std::int32_t needed,
                         bool slices) const {
        const auto value = [&](std::int32_t id) { return slices ? at(id).sliceState : at(id).state; };
        std::int32_t best = ids[from];
        std::int32_t bestValue = value(best);
        for (std::size_t i = from; i < ids.size(); ++i) {
            const std::int32_t v = value(ids[i]);
            if (v >= needed && v < bestValue) {
                best = ids[i];
                bestValue = v;
            }
        }
        return best;
    }

    std::string notFitMessage(std::int32_t fitCount, std::int32_t needed, int searchLevel) const {
        if (m_multiLayer) return multiLayerNotFitMessage(searchLevel);
        const std::string_view unit = m_sliceSize == 1 ? "pod" : "slice";
        std::string message = "topology " + inQuotes(m_topologyName);
        if (fitCount == 0) {
            message += " doesn't allow to fit any of " + std::to_string(needed) + " " + std::string(unit) + "(s)";
        } else {
            message += " allows to fit only " + std::to_string(fitCount) + " out of " + std::to_string(needed) + " " +
                       std::string(unit) + "(s)";
        }
        return message + exclusionSuffix();
    }

    std::string exclusionSuffix() const {
        if (!m_stats.any()) return {};
        return ". Total nodes: " + std::to_string(m_stats.totalNodes) + "; excluded: " + m_stats.format();
    }

    // Kueue's domain id: the values joined by ","; a hostname leaf's id is the hostname alone.
    std::string domainId(std::int32_t id) const {
        if (m_hostnameLeaves && at(id).level == m_depth - 1) return m_index.domain(at(id).source).value;
        std::string text;
        for (const std::string* value : pathValues(id)) {
            if (!text.empty()) text += ',';
            text += *value;
        }
        return text;
    }

    // multiLayerNotFitMessage(): per layer, the slices that fit in the domain with the most
    // slices at the search level (ties: the smaller domain id).
    std::string multiLayerNotFitMessage(int searchLevel) const {
        std::string message = "topology " + inQuotes(m_topologyName) + " doesn't allow to fit";
        std::int32_t best = -1;
        std::string bestId;
        for (const std::int32_t id : m_levelDomains[static_cast<std::size_t>(searchLevel)]) {
            if (best >= 0 && at(id).fitSlices < at(best).fitSlices) continue;
            std::string candidateId = domainId(id);
            if (best < 0 || at(id).fitSlices > at(best).fitSlices || candidateId < bestId) {
                best = id;
                bestId = std::move(candidateId);
            }
        }
        if (best < 0) return message;
        for (const SliceLayer& layer : m_request.kueue.slices) {
            const int target = m_spec.levelIndex(layer.level);
            message += "; " + std::to_string(slicesInSubtree(best, target, layer.size)) + "/" +
                       std::to_string(m_count / layer.size) + " slice(s) fit on level " + key(target);
        }
        return message + exclusionSuffix();
    }

    std::int64_t slicesInSubtree(std::int32_t id, int targetLevel, std::int32_t size) const {
        const TasDomain& domain = at(id);
        if (domain.level == targetLevel) return domain.fitPods / size;
        std::int64_t total = 0;
        for (std::uint32_t c = 0; c < domain.childCount; ++c)
            total += slicesInSubtree(m_children[domain.firstChild + c], targetLevel, size);
        return total;
    }

    bool fail(std::string message) {
        m_result.feasible = false;
        m_result.message = std::move(message);
        m_result.notes.push_back("Kueue reports it as: couldn't assign flavors to pod set " + m_request.name + ": " +
                                 m_result.message);
        return false;
    }

    // findLevelWithFitDomains(): the level and domains that take the whole gang, climbing for
    // preferred requests, spreading over several domains at the top or for unconstrained ones.
    bool findLevelWithFitDomains(int& fitLevel, std::vector<std::int32_t>& fitDomains) {
        if (m_leader) return findLevelWithLeader(fitLevel, fitDomains);
        const std::int32_t needed = m_count / m_sliceSize;
        for (int level = m_requestedLevel;; --level) {
            std::vector<std::int32_t> sorted = m_levelDomains[static_cast<std::size_t>(level)];
            if (sorted.empty()) return fail("no topology domains at level: " + key(level));
            sortDomains(sorted);
            m_decisionLevel = level;
            m_decisionOrder = sorted;
            std::int32_t top = sorted.front();
            if (!m_leastFree && at(top).sliceState >= needed) top = bestFit(sorted, 0, needed, true);

            if (m_leastFree) {
                for (const std::int32_t id : sorted) {
                    if (at(id).sliceState >= needed) {
                        m_decision = Decision::LeastFree;
                        m_decisionDomain = id;
                        fitLevel = level;
                        fitDomains = {id};
                        return true;
                    }
                }
                // Kueue reports the largest domain's pod count here, even for slices.
                if (m_required) return failAt(notFitMessage(at(sorted.back()).state, needed, level));
            }
            if (at(top).sliceState >= needed) {
                m_decision = Decision::BestFit;
                m_decisionDomain = top;
                fitLevel = level;
                fitDomains = {top};
                return true;
            }
            if (m_required) return failAt(notFitMessage(at(top).sliceState, needed, level));
            if (level > 0 && !m_unconstrained) {
                m_result.trace.push_back(
                    {levelName(level), "", false,
                     "no " + levelName(level) + " domain fits " + unitCount(needed) + " (the largest fits " +
                         std::to_string(at(m_leastFree ? sorted.back() : sorted.front()).sliceState) +
                         "); preferred, so Kueue tries " + levelName(level - 1)});
                continue;
            }
            // Several domains, taken whole in sorted order; BestFit swaps in the tightest domain
            // that can finish the remainder.
            std::vector<std::int32_t> chosen;
            std::int32_t remaining = needed;
            for (std::size_t i = 0; remaining > 0 && i < sorted.size(); ++i) {
                std::int32_t id = sorted[i];
                if (!m_leastFree && at(id).sliceState >= remaining) id = bestFit(sorted, i, remaining, true);
                chosen.push_back(id);
                remaining -= at(id).sliceState;
            }
            if (remaining > 0) return failAt(notFitMessage(needed - remaining, needed, level));
            m_decision = Decision::Multi;
            fitLevel = level;
            fitDomains = std::move(chosen);
            return true;
        }
    }

    bool failAt(std::string message) {
        m_decision = Decision::Failed;
        traceCandidates();
        return fail(std::move(message));
    }

    // ---- phase 2a with a PodSet group's leader --------------------------------------------------

    // sortedDomainsWithLeader(): leaders descending, then sliceCountWithLeader descending (BestFit)
    // or ascending (LeastFreeCapacity), podCountWithLeader ascending, levelValues.
    void sortWithLeader(std::vector<std::int32_t>& ids) const {
        std::stable_sort(ids.begin(), ids.end(), [this](std::int32_t a, std::int32_t b) {
            const TasDomain& x = at(a);
            const TasDomain& y = at(b);
            if (x.leader != y.leader) return x.leader > y.leader;
            if (x.sliceWithLeader != y.sliceWithLeader)
                return m_leastFree ? x.sliceWithLeader < y.sliceWithLeader : x.sliceWithLeader > y.sliceWithLeader;
            if (x.stateWithLeader != y.stateWithLeader) return x.stateWithLeader < y.stateWithLeader;
            return x.rank < y.rank;
        });
    }

    // findBestFitDomainBy(): from `from` on, the first domain holding `leaders` leaders with the
    // smallest count (with the leader when leaders are asked) that is still >= needed; the first
    // candidate when there is none.
    std::int32_t bestFitWith(const std::vector<std::int32_t>& ids, std::size_t from, std::int32_t needed,
                             std::int32_t leaders, bool slices) const {
        const auto count = [&](std::int32_t id) {
            const TasDomain& d = at(id);
            if (leaders > 0) return slices ? d.sliceWithLeader : d.stateWithLeader;
            return slices ? d.sliceState : d.state;
        };
        std::int32_t best = -1;
        std::int32_t bestCount = std::numeric_limits<std::int32_t>::max();
        for (std::size_t i = from; i < ids.size(); ++i) {
            if (at(ids[i]).leader < leaders) continue;
            const std::int32_t c = count(ids[i]);
            if (c >= needed && c < bestCount) {
                best = ids[i];
                bestCount = c;
            }
        }
        return best >= 0 ? best : ids[from];
    }

    // prioritizeLeaderDomain(): the first leader-capable domain whose leader costs no more than
    // the slack of the whole list goes first, so that the leader's room is not lost in descent.
    void prioritizeLeader(std::vector<std::int32_t>& ids, std::int32_t count, std::int32_t leaders,
                          std::int32_t sliceSize, bool slices) const {
        if (leaders == 0 || ids.size() < 2) return;
        const std::int64_t required = slices ? count / sliceSize : count;
        std::int64_t available = 0;
        for (const std::int32_t id : ids) available += slices ? at(id).sliceState : at(id).state;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const TasDomain& d = at(ids[i]);
            if (d.leader < leaders) continue;
            const std::int64_t cost = slices ? d.sliceState - d.sliceWithLeader : d.state - d.stateWithLeader;
            if (available - cost < required) continue;
            std::rotate(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(i),
                        ids.begin() + static_cast<std::ptrdiff_t>(i) + 1);
            return;
        }
    }

    // findLevelWithFitDomains() with leaderCount 1: a domain fits when it holds the leader and
    // the workers beside it. The failure texts count the workers as Kueue's do.
    bool findLevelWithLeader(int& fitLevel, std::vector<std::int32_t>& fitDomains) {
        const std::int32_t needed = m_count / m_sliceSize;
        for (int level = m_requestedLevel;; --level) {
            std::vector<std::int32_t> sorted = m_levelDomains[static_cast<std::size_t>(level)];
            if (sorted.empty()) return fail("no topology domains at level: " + key(level));
            sortWithLeader(sorted);
            m_decisionLevel = level;
            m_decisionOrder = sorted;
            std::int32_t top = sorted.front();
            if (!m_leastFree && at(top).sliceWithLeader >= needed && at(top).leader >= 1)
                top = bestFitWith(sorted, 0, needed, 1, true);
            if (m_leastFree) {
                for (const std::int32_t id : sorted) {
                    if (at(id).leader < 1 || at(id).sliceWithLeader < needed) continue;
                    m_decision = Decision::LeastFree;
                    m_decisionDomain = id;
                    fitLevel = level;
                    fitDomains = {id};
                    return true;
                }
                if (m_required) return failAt(notFitMessage(at(sorted.back()).state, needed, level));
            }
            if (at(top).sliceWithLeader >= needed && at(top).leader >= 1) {
                m_decision = Decision::BestFit;
                m_decisionDomain = top;
                fitLevel = level;
                fitDomains = {top};
                return true;
            }
            if (m_required) return failAt(notFitMessage(at(top).sliceState, needed, level));
            if (level > 0 && !m_unconstrained) {
                m_result.trace.push_back({levelName(level), "", false,
                                          "no " + levelName(level) + " domain holds the leader and " +
                                              unitCount(needed) + "; preferred, so Kueue tries " +
                                              levelName(level - 1)});
                continue;
            }
            return spreadWithLeader(level, sorted, needed, fitLevel, fitDomains);
        }
    }

    // Several domains at the top (or an unconstrained level): the leader's first, taken whole,
    // then the others by worker capacity.
    bool spreadWithLeader(int level, std::vector<std::int32_t> sorted, std::int32_t needed, int& fitLevel,
                          std::vector<std::int32_t>& fitDomains) {
        prioritizeLeader(sorted, m_count, 1, m_sliceSize, true);
        std::vector<std::int32_t> chosen;
        std::int32_t remaining = needed;
        std::int32_t leaders = 1;
        std::size_t i = 0;
        for (; leaders > 0 && i < sorted.size() && at(sorted[i]).leader > 0; ++i) {
            std::int32_t id = sorted[i];
            if (!m_leastFree && at(id).sliceWithLeader >= remaining) id = bestFitWith(sorted, i, remaining, leaders, true);
            chosen.push_back(id);
            leaders -= at(id).leader;
            remaining -= at(id).sliceWithLeader;
        }
        if (leaders > 0) return failAt(notFitMessage(1 - leaders, needed, level));
        std::vector<std::int32_t> rest(sorted.begin() + static_cast<std::ptrdiff_t>(i), sorted.end());
        sortDomains(rest);
        for (std::size_t j = 0; remaining > 0 && j < rest.size(); ++j) {
            std::int32_t id = rest[j];
            if (!m_leastFree && at(id).sliceState >= remaining) id = bestFitWith(rest, j, remaining, 0, true);
            chosen.push_back(id);
            remaining -= at(id).sliceState;
        }
        if (remaining > 0) return failAt(notFitMessage(needed - remaining, needed, level));
        m_decision = Decision::Multi;
        fitLevel = level;
        fitDomains = std::move(chosen);
        return true;
    }

    // ---- phase 2b ------------------------------------------------------------------------------

    // updateCountsToMinimumGeneric() without leaders: each domain takes what it can, BestFit
    // swapping in the tightest domain for the last part; domains past the need are left out.
    void updateCounts(const std::vector<std::int32_t>& ids, std::int32_t count, std::int32_t sliceSize, bool slices,
                      std::vector<std::int32_t>& out) {
        std::int32_t remaining = slices ? count / sliceSize : count;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            std::int32_t id = ids[i];
            if (slices) {
                if (!m_leastFree && at(id).sliceState >= remaining) id = bestFit(ids, i, remaining, true);
                TasDomain& domain = at(id);
                out.push_back(id);
                if (domain.sliceState >= remaining) {
                    domain.state = remaining * sliceSize;
                    domain.sliceState = remaining;
                    return;
                }
                domain.state = domain.sliceState * sliceSize;
                remaining -= domain.sliceState;
            } else {
                if (!m_leastFree && at(id).state >= remaining) id = bestFit(ids, i, remaining, false);
                TasDomain& domain = at(id);
                out.push_back(id);
                if (domain.state >= remaining) {
                    domain.state = remaining;
                    return;
                }
                remaining -= domain.state;
            }
        }
    }

    void update(std::vector<std::int32_t> ids, std::int32_t count, std::int32_t leaders, std::int32_t sliceSize,
                bool slices, std::vector<std::int32_t>& out) {
        if (m_leader)
            updateCountsWithLeader(ids, count, leaders, sliceSize, slices, out);
        else
            updateCounts(ids, count, sliceSize, slices, out);
    }

    // updateCountsToMinimumGeneric() with leaders: while the leader is unplaced each domain takes
    // it and the workers beside it (consumeWithLeadersGeneric), BestFit swapping in the tightest
    // domain that finishes both; then the rest as without leaders, holding no leader.
    void updateCountsWithLeader(std::vector<std::int32_t>& ids, std::int32_t count, std::int32_t leaders,
                                std::int32_t sliceSize, bool slices, std::vector<std::int32_t>& out) {
        prioritizeLeader(ids, count, leaders, sliceSize, slices);
        std::int32_t remaining = slices ? count / sliceSize : count;
        const std::int32_t unit = slices ? sliceSize : 1;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            std::int32_t id = ids[i];
            const auto primary = [&](std::int32_t d) -> std::int32_t& {
                return slices ? at(d).sliceState : at(d).state;
            };
            const auto withLeader = [&](std::int32_t d) -> std::int32_t& {
                return slices ? at(d).sliceWithLeader : at(d).stateWithLeader;
            };
            if (leaders > 0) {
                if (!m_leastFree && withLeader(id) >= remaining && at(id).leader >= leaders)
                    id = bestFitWith(ids, i, remaining, leaders, slices);
                TasDomain& d = at(id);
                out.push_back(id);
                if (withLeader(id) >= remaining && d.leader >= leaders) {
                    primary(id) = remaining;
                    d.leader = leaders;
                    d.state = remaining * unit;
                    return;
                }
                withLeader(id) = std::min(withLeader(id), remaining);
                d.leader = std::min(d.leader, leaders);
                primary(id) = withLeader(id);
                d.state = withLeader(id) * unit;
                leaders -= d.leader;
                remaining -= withLeader(id);
                continue;
            }
            if (!m_leastFree && primary(id) >= remaining) id = bestFitWith(ids, i, remaining, 0, slices);
            TasDomain& d = at(id);
            d.leader = 0;
            out.push_back(id);
            if (primary(id) >= remaining) {
                primary(id) = remaining;
                d.state = remaining * unit;
                return;
            }
            d.state = primary(id) * unit;
            remaining -= primary(id);
        }
    }

    void childrenOf(std::int32_t id, std::vector<std::int32_t>& out) const {
        const TasDomain& domain = at(id);
        out.insert(out.end(), m_children.begin() + domain.firstChild,
                   m_children.begin() + domain.firstChild + domain.childCount);
    }

    void descend(int fitLevel, const std::vector<std::int32_t>& fitDomains) {
        std::vector<std::int32_t> current;
        update(fitDomains, m_count, m_leader ? 1 : 0, m_sliceSize, true, current);
        m_fitUsed.clear();
        for (const std::int32_t id : current) {
            if (at(id).state == 0 && at(id).leader == 0) continue;
            at(id).usedAtFit = true;
            m_fitUsed.push_back(id);
        }
        traceCandidates();

        std::vector<std::int32_t> lower;
        std::vector<std::int32_t> next;
        int level = fitLevel;
        // Above the slice level the children of all chosen domains are pooled and allocated against
        // the whole gang, so pods can move between sibling parents.
        for (; level < std::min(m_depth - 1, m_sliceLevel); ++level) {
            lower.clear();
            for (const std::int32_t id : current) childrenOf(id, lower);
            sortDomains(lower);
            next.clear();
            update(lower, m_count, m_leader ? 1 : 0, m_sliceSize, true, next);
            current.swap(next);
            traceDescent(level + 1, current, true, 1);
        }
        // At and below the slice level each parent's pods go to its own children.
        for (; level < m_depth - 1; ++level) {
            const std::int32_t inner = m_sliceSizeAtLevel[static_cast<std::size_t>(level + 1)];
            const std::int32_t unit = inner > 0 ? inner : 1;
            next.clear();
            for (const std::int32_t id : current) {
                lower.clear();
                childrenOf(id, lower);
                sortDomains(lower); // below the slice level sliceState is 0 here: podCount ascending
                if (unit > 1)
                    for (const std::int32_t child : lower) {
                        at(child).sliceState = at(child).state / unit;
                        at(child).sliceWithLeader = at(child).stateWithLeader / unit;
                    }
                update(lower, at(id).state, at(id).leader, unit, unit > 1, next);
            }
            current.swap(next);
            traceDescent(level + 1, current, false, unit);
        }
        if (m_decision == Decision::Multi && fitLevel < std::min(m_depth - 1, m_sliceLevel))
            traceMovedPods(fitLevel, current);
        buildAssignment(current);
    }

    // ---- output --------------------------------------------------------------------------------

    std::vector<const std::string*> pathValues(std::int32_t id) const {
        std::vector<const std::string*> values;
        for (std::int32_t d = id; d >= 0; d = at(d).parent) values.push_back(&m_index.domain(at(d).source).value);
        std::reverse(values.begin(), values.end());
        return values;
    }

    std::string pathName(std::int32_t id) const {
        std::string text;
        for (const std::string* value : pathValues(id)) {
            if (!text.empty()) text += '/';
            text += *value;
        }
        return text;
    }

    void buildAssignment(std::vector<std::int32_t>& leaves) {
        if (m_leader) buildLeaderAssignment(leaves);
        leaves.erase(
            std::remove_if(leaves.begin(), leaves.end(), [this](std::int32_t id) { return at(id).state == 0; }),
            leaves.end());
        std::sort(leaves.begin(), leaves.end(),
                  [this](std::int32_t a, std::int32_t b) { return at(a).rank < at(b).rank; });

        TopologyAssignment& assignment = m_result.assignment;
        if (m_hostnameLeaves) {
            assignment.levels = {key(m_depth - 1)};
        } else {
            for (const TopologyLevel& level : m_spec.levels) assignment.levels.push_back(level.nodeLabel);
        }
        std::int64_t assigned = 0;
        for (const std::int32_t id : leaves) {
            TopologyAssignment::Domain domain;
            domain.count = at(id).state;
            assigned += domain.count;
            if (m_hostnameLeaves) {
                domain.values = {m_index.domain(at(id).source).value};
                m_result.nodes.push_back({m_cluster.node(at(id).node).name, domain.count});
            } else {
                for (const std::string* value : pathValues(id)) domain.values.push_back(*value);
            }
            assignment.domains.push_back(std::move(domain));
        }
        std::sort(m_result.nodes.begin(), m_result.nodes.end(),
                  [](const NodePods& a, const NodePods& b) { return naturalLess(a.node, b.node); });
        buildChosen();

        if (assigned != m_count) { // the descent's invariants guarantee this; say so loudly if not
            fail("internal error: the descent assigned " + std::to_string(assigned) + " of " + std::to_string(m_count) +
                 " pods");
            return;
        }
        m_result.feasible = true;
        m_result.message = "topology " + inQuotes(m_topologyName) + ": " + std::to_string(m_count) +
                           " pod(s) assigned to " + std::to_string(assignment.domains.size()) + " domain(s) at level " +
                           key(m_depth - 1);
        m_result.notes.push_back(
            "the success message is topodeck's wording; Kueue records only the TopologyAssignment");
    }

    // The leader's assignment: the leaves that took it (findTopologyAssignment's leaderFitDomains).
    void buildLeaderAssignment(const std::vector<std::int32_t>& leaves) {
        std::vector<std::int32_t> held;
        for (const std::int32_t id : leaves)
            if (at(id).leader > 0) held.push_back(id);
        std::sort(held.begin(), held.end(), [this](std::int32_t a, std::int32_t b) { return at(a).rank < at(b).rank; });
        PlacementResult& out = *m_leaderResult;
        if (m_hostnameLeaves) {
            out.assignment.levels = {key(m_depth - 1)};
        } else {
            for (const TopologyLevel& level : m_spec.levels) out.assignment.levels.push_back(level.nodeLabel);
        }
        for (const std::int32_t id : held) {
            TopologyAssignment::Domain domain;
            domain.count = at(id).leader;
            if (m_hostnameLeaves) {
                domain.values = {m_index.domain(at(id).source).value};
                out.nodes.push_back({m_cluster.node(at(id).node).name, domain.count});
            } else {
                for (const std::string* value : pathValues(id)) domain.values.push_back(*value);
            }
            out.assignment.domains.push_back(std::move(domain));
        }
        out.feasible = held.size() == 1;
        out.message = out.feasible ? "the leader goes with its group" : "internal error: the leader was not placed";
    }

    // The fit-level domain and its ancestors; with several, their common ancestors and then each
    // of them, unless they are leaves (the assignment already lists those).
    void buildChosen() {
        if (m_fitUsed.empty()) return;
        std::vector<std::int32_t> common;
        for (std::int32_t d = at(m_fitUsed.front()).parent; d >= 0; d = at(d).parent) common.push_back(d);
        std::reverse(common.begin(), common.end());
        for (const std::int32_t id : m_fitUsed) {
            std::vector<std::int32_t> path;
            for (std::int32_t d = at(id).parent; d >= 0; d = at(d).parent) path.push_back(d);
            std::reverse(path.begin(), path.end());
            std::size_t same = 0;
            while (same < common.size() && same < path.size() && common[same] == path[same]) ++same;
            common.resize(same);
        }
        for (const std::int32_t id : common) m_result.chosen.push_back({levelName(at(id).level), pathName(id)});
        std::vector<std::int32_t> used = m_fitUsed;
        if (used.size() > 1 && at(used.front()).level == m_depth - 1) return;
        std::sort(used.begin(), used.end(), [this](std::int32_t a, std::int32_t b) { return at(a).rank < at(b).rank; });
        for (const std::int32_t id : used) m_result.chosen.push_back({levelName(at(id).level), pathName(id)});
    }

    // ---- trace ---------------------------------------------------------------------------------

    std::string unitCount(std::int64_t count) const {
        return m_sliceSize == 1 ? plural(count, "pod", "pods")
                                : plural(count, "slice", "slices") + " of " + plural(m_sliceSize, "pod", "pods");
    }

    std::string fitsText(const TasDomain& domain, std::int32_t needed) const {
        std::string text = m_sliceSize == 1
                               ? "fits " + std::to_string(domain.fitPods) + " of " + plural(needed, "pod", "pods")
                               : "fits " + std::to_string(domain.fitSlices) + " of " + unitCount(needed) + " (" +
                                     plural(domain.fitPods, "pod", "pods") + ")";
        if (m_leader)
            text += domain.fitLeader > 0 ? ", " + std::to_string(domain.fitWithLeader) + " beside the leader"
                                         : "; no room for the leader";
        switch (domain.exclusion) {
        case Exclusion::None:
            break;
        case Exclusion::Taint:
            text += "; excluded: taint " +
                    inQuotes(taintString(m_cluster.node(domain.node).taints[domain.exclusionDetail]));
            break;
        case Exclusion::NodeSelector:
            text += "; excluded: nodeSelector";
            break;
        case Exclusion::Resource:
            text += "; short of " + m_resources[domain.exclusionDetail].name;
            break;
        }
        return text;
    }

    void traceProfile() {
        const char* mode = "implied (no TAS annotation)";
        switch (m_request.kueue.mode) {
        case KueueConstraint::Mode::Implied:
            break;
        case KueueConstraint::Mode::Required:
            mode = "required";
            break;
        case KueueConstraint::Mode::Preferred:
            mode = "preferred";
            break;
        case KueueConstraint::Mode::Unconstrained:
            mode = "unconstrained";
            break;
        }
        if (!m_required && m_request.kueue.mode != KueueConstraint::Mode::Preferred && !m_request.kueue.slices.empty())
            mode = "slice-only";
        const std::string profile = m_leastFree ? "LeastFreeCapacity" : "BestFit";
        std::string reason = "profile " + profile;
        if (m_options.kueueProfile == Profile::Auto) {
            reason += std::string(" (Kueue's default for a ") + mode + " request)";
        } else {
            const std::string byDefault = m_unconstrained ? "LeastFreeCapacity" : "BestFit";
            reason += " (forced";
            reason +=
                byDefault == profile ? ", also Kueue's default here)" : "; Kueue's default here is " + byDefault + ")";
            if (byDefault != profile)
                m_result.notes.push_back("profile forced to " + profile + "; Kueue would use " + byDefault);
        }
        reason += "; searching level " + key(m_requestedLevel) + " for " + unitCount(m_count / m_sliceSize);
        m_result.trace.push_back({"", "", false, std::move(reason)});
    }

    void traceLeaves() {
        std::string reason;
        if (m_hostnameLeaves) {
            reason = plural(m_stats.totalNodes, "usable node", "usable nodes") + " with every level label";
        } else {
            reason =
                plural(m_stats.totalNodes, levelName(m_depth - 1) + " domain", levelName(m_depth - 1) + " domains") +
                " with usable nodes (capacity summed per domain)";
            m_result.notes.push_back("the lowest level is not " + std::string(kHostnameLabel) +
                                     ", so Kueue sums each " + levelName(m_depth - 1) +
                                     " domain's free capacity and filters no taints or nodeSelector; the pods may "
                                     "still not fit on the individual nodes");
        }
        if (m_stats.any()) reason += "; excluded: " + m_stats.format();
        m_result.trace.push_back({"", "", false, std::move(reason)});
    }

    // One entry per candidate at the level where Kueue decided, in its sorted order, bounded.
    void traceCandidates() {
        const std::int32_t needed = m_count / m_sliceSize;
        const std::string& level = levelName(m_decisionLevel);
        const auto isTaken = [this](std::int32_t id) {
            switch (m_decision) {
            case Decision::BestFit:
            case Decision::LeastFree:
                return id == m_decisionDomain;
            case Decision::Multi:
                return at(id).usedAtFit;
            case Decision::Failed:
                return false;
            }
            return false;
        };
        // Taken domains are always listed (within the bound); the rest fill up in sorted order.
        TraceBudget trace(&m_result.trace, m_options.maxTraceEntries);
        std::vector<char> listed(m_decisionOrder.size(), 0);
        std::size_t budget = trace.room();
        for (std::size_t i = 0; i < m_decisionOrder.size() && budget > 0; ++i) {
            if (isTaken(m_decisionOrder[i])) {
                listed[i] = 1;
                --budget;
            }
        }
        for (std::size_t i = 0; i < m_decisionOrder.size() && budget > 0; ++i) {
            if (!listed[i]) {
                listed[i] = 1;
                --budget;
            }
        }

        const std::string chosenPath = m_decision == Decision::BestFit || m_decision == Decision::LeastFree
                                           ? pathName(m_decisionDomain)
                                           : std::string();
        for (std::size_t i = 0; i < m_decisionOrder.size(); ++i) {
            if (!listed[i]) {
                trace.drop();
                continue;
            }
            const std::int32_t id = m_decisionOrder[i];
            const TasDomain& domain = at(id);
            const bool taken = isTaken(id);
            const bool fits = domain.fitSlices >= needed;
            std::string reason = fitsText(domain, needed);
            switch (m_decision) {
            case Decision::BestFit:
                reason += taken ? "; the tightest fit" : fits ? "; looser than " + chosenPath : "; too small";
                break;
            case Decision::LeastFree:
                reason += taken  ? "; the least free capacity that fits"
                          : fits ? "; more free than " + chosenPath
                                 : "; too small";
                break;
            case Decision::Multi:
                if (taken)
                    reason = "takes " + plural(domain.state, "pod", "pods") + "; " + reason;
                else if (domain.fitPods > 0)
                    reason += "; not needed";
                break;
            case Decision::Failed:
                reason += "; too small";
                break;
            }
            if (taken) m_takenTrace.emplace_back(id, m_result.trace.size());
            trace.add(level, pathName(id), taken, std::move(reason));
        }
        trace.finish(
            [&level](std::size_t omitted, std::size_t) {
                return "… " + plural(static_cast<std::int64_t>(omitted), level + " domain", level + " domains") +
                       " not listed";
            },
            level);
    }

    // The pooled descent can move pods between the domains chosen at the fit level; say where
    // each of them ended up when that differs from what it took there.
    void traceMovedPods(int fitLevel, const std::vector<std::int32_t>& leaves) {
        std::vector<std::int64_t> total(m_domains.size(), 0);
        for (const std::int32_t leaf : leaves) {
            std::int32_t d = leaf;
            while (at(d).level > fitLevel) d = at(d).parent;
            total[static_cast<std::size_t>(d)] += at(leaf).state;
        }
        for (const auto& [id, entry] : m_takenTrace)
            if (total[static_cast<std::size_t>(id)] != at(id).state)
                m_result.trace[entry].reason += "; ends with " +
                                                plural(total[static_cast<std::size_t>(id)], "pod", "pods") +
                                                " after the pooled descent below";
    }

    void traceDescent(int level, const std::vector<std::int32_t>& domains, bool pooled, std::int32_t unit) {
        std::size_t used = 0;
        for (const std::int32_t id : domains) used += at(id).state > 0 ? 1 : 0;
        std::string reason = std::to_string(used) + " " + levelName(level) + " domain(s) used; ";
        if (pooled) {
            reason += "children of all chosen domains pooled and sorted together";
        } else if (unit > 1) {
            reason += "per parent, in slices of " + std::to_string(unit);
        } else {
            reason += "per parent, fewest free pods first (below the slice level Kueue sorts by free pods ascending)";
        }
        m_result.trace.push_back({levelName(level), "", true, std::move(reason)});
    }

    const PlacementCluster& m_cluster;
    const TopologyIndex& m_index;
    const TopologySpec& m_spec;
    const GangRequest& m_request;
    const EngineOptions& m_options;
    PlacementResult& m_result;
    const GangRequest* m_leader = nullptr; // a PodSet group's leader, placed with the workers
    PlacementResult* m_leaderResult = nullptr;

    int m_depth = 0;
    std::string m_topologyName;
    std::int32_t m_count = 0;
    std::int32_t m_sliceSize = 1;
    int m_requestedLevel = 0;
    int m_sliceLevel = 0;
    std::vector<std::int32_t> m_sliceSizeAtLevel; // inner slice layer size per level; 0 = none
    bool m_multiLayer = false;
    bool m_required = false;
    bool m_unconstrained = false;
    bool m_leastFree = false;
    bool m_hostnameLeaves = false;
    std::vector<RequestedResource> m_resources;

    std::vector<TasDomain> m_domains;
    std::vector<std::int32_t> m_children;
    std::vector<std::vector<std::int32_t>> m_levelDomains; // per level, in levelValues order
    ExclusionStats m_stats;

    // Scratch, reused across calls.
    std::vector<std::vector<DomainId>> m_order;
    std::vector<std::vector<std::int32_t>> m_made;
    std::vector<std::int64_t> m_capacity;
    // Per node: kUnusable, kPasses, kNodeSelector or kTaint + the taint's index; and its free
    // capacity per requested resource.
    static constexpr std::uint32_t kUnusable = 0;
    static constexpr std::uint32_t kPasses = 1;
    static constexpr std::uint32_t kNodeSelector = 2;
    static constexpr std::uint32_t kTaint = 3;
    std::vector<std::uint32_t> m_nodeVerdict;
    std::vector<std::int64_t> m_nodeFree;
    std::vector<std::int64_t> m_resourceExclusions; // leaves limited by each resource, by index
    struct SortKey {
        std::uint64_t primary;
        std::uint32_t rank;
        std::int32_t id;
    };
    std::vector<SortKey> m_sortKeys;

    Decision m_decision = Decision::Failed;
    int m_decisionLevel = 0;
    std::int32_t m_decisionDomain = -1;
    std::vector<std::int32_t> m_decisionOrder;
    std::vector<std::int32_t> m_fitUsed;
    std::vector<std::pair<std::int32_t, std::size_t>> m_takenTrace; // (domain, trace entry)
};

} // namespace

std::string_view KueueTasEngine::description() const {
    return "Kueue Topology Aware Scheduling: BestFit / LeastFreeCapacity as TASProfileMixed picks them";
}

std::string KueueTasEngine::unavailableReason(const PlacementCluster& cluster, const GangRequest&) const {
    if (cluster.spec().depth() == 0) return "no topology levels (give --topology or --levels)";
    return {};
}

namespace {

PlacementResult placePodSet(const PlacementCluster& cluster, const GangRequest& request, const EngineOptions& options) {
    PlacementResult result;
    result.engine = "kueue-tas";
    TasPlanner(cluster, request, options, result).run();
    return result;
}

// What one PodSet's result adds to the Workload's: its nodes (tagged with the part), domains,
// chosen domains and trace, each labelled with the PodSet.
void addPodSet(PlacementResult& workload, const GangPart& part, PlacementResult&& podSet) {
    for (NodePods& placed : podSet.nodes) {
        placed.part = part.name;
        workload.nodes.push_back(std::move(placed));
    }
    if (workload.assignment.levels.empty()) workload.assignment.levels = podSet.assignment.levels;
    for (TopologyAssignment::Domain& domain : podSet.assignment.domains)
        workload.assignment.domains.push_back(std::move(domain));
    for (ChosenDomain& chosen : podSet.chosen)
        workload.chosen.push_back({part.name + ": " + chosen.level, std::move(chosen.domain)});
    for (TraceEntry& entry : podSet.trace) {
        entry.reason = "pod set " + part.name + ": " + entry.reason;
        workload.trace.push_back(std::move(entry));
    }
    for (std::string& note : podSet.notes)
        if (std::find(workload.notes.begin(), workload.notes.end(), note) == workload.notes.end())
            workload.notes.push_back(std::move(note));
}

// The PodSets TAS places in one pass (FindTopologyAssignmentsForFlavor's groupedTASRequests): the
// PodSets of one kueue.x-k8s.io/podset-group-name together, every other PodSet alone, in the order
// each group first appears.
std::vector<std::vector<std::size_t>> podSetGroups(const std::vector<GangPart>& parts) {
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& name = parts[i].kueue.group;
        const auto found = name.empty() ? names.end() : std::find(names.begin(), names.end(), name);
        if (found != names.end()) {
            groups[static_cast<std::size_t>(found - names.begin())].push_back(i);
            continue;
        }
        groups.push_back({i});
        names.push_back(name); // "" never matches: an ungrouped PodSet stays alone
    }
    return groups;
}

// A group the engine can place: two PodSets, one of them a single pod (findTopologyAssignment
// places one leader). The JobSet and LeaderWorkerSet webhooks refuse any other group
// (ValidatePodSetGroupingTopology), and the manifest reader with them; a PyTorchJob's is not
// checked by Kueue, whose TAS would then admit one pod of a larger leader PodSet. Empty when fine.
std::string groupError(const GangRequest& request, const std::vector<std::size_t>& group) {
    const GangPart& first = request.parts[group.front()];
    const std::string name = "pod set " + first.name + ": kueue.x-k8s.io/podset-group-name: Invalid value: \"" +
                             first.kueue.group + "\": ";
    if (group.size() > 2)
        return name + "can only define groups of exactly 2 pod sets, got: " + std::to_string(group.size()) +
               " pod set(s)";
    if (group.size() == 2 && first.pods != 1 && request.parts[group[1]].pods != 1)
        return name + "can only define groups where at least one pod set has only 1 replica, got: " +
               std::to_string(first.pods) + " replica(s) and " + std::to_string(request.parts[group[1]].pods) +
               " replica(s) in the group";
    return {};
}

// A Workload's PodSets placed as Kueue's flavor assigner does: each group in one pass, with the
// usage of the ones before it assumed (the TAS snapshot's assumed usage). Adds the group's
// results to `workload`; false (with the workload's message set) when a PodSet does not fit.
bool placeGroup(PlacementCluster& assumed, const GangRequest& request, const std::vector<std::size_t>& group,
                const EngineOptions& options, PlacementResult& workload) {
    // findLeaderAndWorkers: the second PodSet leads unless it has more pods than the first.
    std::size_t workers = group.front();
    std::optional<std::size_t> leader;
    if (group.size() > 1) {
        leader = group[1];
        if (request.parts[*leader].pods > request.parts[workers].pods) std::swap(*leader, workers);
    }
    GangRequest podSet = request.onlyPart(workers);
    podSet.name = request.parts[workers].name; // Kueue's messages name the PodSet
    GangRequest leaderSet;
    if (leader) {
        leaderSet = request.onlyPart(*leader);
        leaderSet.name = request.parts[*leader].name;
    }
    PlacementResult placed;
    placed.engine = "kueue-tas";
    PlacementResult leaderPlaced;
    TasPlanner(assumed, podSet, options, placed, leader ? &leaderSet : nullptr, leader ? &leaderPlaced : nullptr)
        .run();
    if (placed.invalidRequest) {
        workload = std::move(placed);
        workload.message = "pod set " + podSet.name + ": " + workload.message;
        return false;
    }
    const bool fits = placed.feasible;
    if (fits) {
        assumePlacement(assumed, podSet, placed);
        if (leader) assumePlacement(assumed, leaderSet, leaderPlaced);
    }
    std::string message = std::move(placed.message);
    // In PodSet order: with two single-pod PodSets the second one leads (findLeaderAndWorkers).
    const bool leaderFirst = leader && fits && *leader < workers;
    if (leaderFirst) addPodSet(workload, request.parts[*leader], std::move(leaderPlaced));
    addPodSet(workload, request.parts[workers], std::move(placed));
    if (leader && fits && !leaderFirst) addPodSet(workload, request.parts[*leader], std::move(leaderPlaced));
    if (leader) {
        workload.notes.push_back("pod sets " + request.parts[*leader].name + " (leader) and " + podSet.name +
                                 " (workers) form PodSet group " + request.parts[workers].kueue.group +
                                 ": placed together in one pass, by the workers' topology request, nodeSelector "
                                 "and tolerations (kube-scheduler applies the leader's own when it binds)");
        if (!fits)
            workload.notes.push_back("Kueue names either PodSet of the group in its message (it reads a map)");
    }
    if (fits) return true;
    // Nothing is admitted: the PodSets placed before this one hold nothing either.
    workload.feasible = false;
    workload.message = std::move(message);
    workload.nodes.clear();
    workload.assignment.domains.clear();
    workload.chosen.clear();
    std::erase_if(workload.notes, [](const std::string& note) { return note.starts_with("the success message"); });
    return false;
}

} // namespace

PlacementResult KueueTasEngine::place(const PlacementCluster& cluster, const GangRequest& request,
                                      const EngineOptions& options) const {
    if (!request.heterogeneous()) return placePodSet(cluster, request, options);
    // One Workload, a PodSet per part: Kueue's flavor assigner finds each PodSet (or PodSet group)
    // its own topology assignment, in order, and admits the Workload only when every one has one.
    PlacementResult workload;
    workload.engine = std::string(name());
    workload.feasible = true;
    const std::vector<std::vector<std::size_t>> groups = podSetGroups(request.parts);
    for (const std::vector<std::size_t>& group : groups) {
        if (std::string error = groupError(request, group); !error.empty()) {
            workload.feasible = false;
            workload.invalidRequest = true;
            workload.message = std::move(error);
            return workload;
        }
    }
    PlacementCluster assumed = cluster;
    for (const std::vector<std::size_t>& group : groups)
        if (!placeGroup(assumed, request, group, options, workload)) return workload;
    std::sort(workload.nodes.begin(), workload.nodes.end(),
              [](const NodePods& a, const NodePods& b) { return naturalLess(a.node, b.node); });
    workload.message = "topology assignments for " + std::to_string(request.parts.size()) + " pod sets (" +
                       std::to_string(request.pods) + " pods)";
    if (groups.size() == request.parts.size())
        workload.notes.push_back("PodSets are placed one after another, each under its own topology request; "
                                 "a PodSet group (kueue.x-k8s.io/podset-group-name) would place a leader with its "
                                 "workers");
    return workload;
}

const PlacementEngine& kueueTasEngine() {
    static const KueueTasEngine engine;
    return engine;
}

} // namespace topodeck
