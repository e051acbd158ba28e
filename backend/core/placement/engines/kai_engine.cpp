#include "core/placement/engines/kai_engine.h"

#include "core/placement/engines/node_filter.h"
#include "core/placement/engines/trace_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {
namespace {

// KAI's constants: job_filtering.go, scores.go and common_info's fit-error reasons.
constexpr double kResourceMissingRatio = 1000.0; // requiredResourceNotInDomainRatio
constexpr double kMaxFitRatio = 1.0;             // maxAllocatableTasksRatio
constexpr std::string_view kRootId = "root";     // rootLevel and rootDomainId
constexpr std::string_view kSimpleErrorReason = "PodSchedulingErrors";
constexpr std::string_view kWorkloadReason = "Not enough resources for the workload";
constexpr std::string_view kManyErrorsReason = "Unable to schedule podgroup";
constexpr std::string_view kGpuResource = "nvidia.com/gpu"; // the one resource KAI counts as GPUs
constexpr double kNanosPerUnit = 1e9;
constexpr double kBytesPerGb = 1e9; // resource_info.MemoryToGB

constexpr int kUnknownLevel = -3;
constexpr int kNoLevel = -2;
constexpr int kRootLevel = -1;
// The node set of a job without a topology constraint: every present node, labelled or not.
constexpr DomainId kAllNodes = kNoDomain;
// Pods that fit on one node, capped so that sums over a whole cluster cannot overflow.
constexpr std::int64_t kMaxPodsPerNode = std::int64_t{1} << 40;
// Segments that fail in every job domain repeat their errors; a failure prints at most this many.
constexpr std::size_t kMaxFitErrors = 10000;

std::string formatG3(double value) {
    // Go's strconv.FormatFloat(v, 'g', 3, 64) and C's %.3g agree, exponent form included.
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
    return buffer;
}

std::string formatDigits3(double value) {
    // humanize.FtoaWithDigits(v, 3): at most three decimals, trailing zeros and point dropped.
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", value);
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

struct Constraint {
    int required = kNoLevel; // level index, kRootLevel for "root"
    int preferred = kNoLevel;
    bool any() const { return required != kNoLevel || preferred != kNoLevel; }
};

// One kind of pod of the gang: a part of a heterogeneous gang, or the whole of a uniform one.
struct Kind {
    std::string name; // the part's name (its KAI subgroup); the gang's for a uniform gang
    std::int32_t pods = 0;
    const std::vector<std::pair<std::string, std::string>>* nodeSelector = nullptr;
    const std::vector<Toleration>* tolerations = nullptr;
    std::vector<double> amount;   // per pod, per Planner::m_resources, in nano-units; 0: not requested
    std::vector<__int128> nanos;  // the same, exact
    bool gpu = false;             // requests GPUs (KAI's ResReq.GPUs() > 0)
    std::size_t packResource = 0; // index into m_resources that bin-packing orders nodes by
    bool packs = false;
};

// One KAI subgroup: the job's own (default) subgroup, a part's subgroup, or a segment `worker-<i>`.
struct SubGroup {
    std::string name; // "" for the default subgroup
    std::int32_t tasks = 0;
    Constraint constraint;
    std::vector<std::pair<std::size_t, std::int32_t>> members; // (kind, pods) of its tasks
};

// What a subgroup's tasks ask of a domain (subSetNodesFn's tasksResources and representor pod).
struct Demand {
    std::vector<double> total; // per resource: the tasks' sum, in nano-units
    // useRepresentorPodsAccounting: all tasks or none use GPUs and all request the same extended
    // resources; then a domain fits by the count of `maxPod` copies its nodes hold, else by the
    // dominant share of its free resources the tasks' sum would take.
    bool representor = true;
    std::vector<__int128> maxPod; // per resource, the largest request of any task (heterogeneous gangs)
    bool empty() const {
        return std::all_of(total.begin(), total.end(), [](double amount) { return amount <= 0; });
    }
};

struct FitError {
    std::string_view reason;
    std::string detail;
};

// Topology node scores of one subgroup, per lowest-level domain (all its nodes share the score).
struct NodeScores {
    bool active = false;
    std::uint32_t round = 0;
    std::vector<std::int32_t> score;
    std::vector<std::uint32_t> stamp;
};

struct Candidate {
    DomainId domain = kNoDomain;
    bool inside = false;   // under the search root, where KAI counted free resources
    bool counted = false;  // inside, and KAI counted allocatable pods (representor accounting)
    std::int64_t pods = 0; // allocatable pods (counted only)
    double ratio = 0;
    bool fits = false;
    std::string outcome; // filled when tried: "" = chosen, else why it failed
    bool tried = false;
};

// What subSetNodesFn returns for one subgroup, plus what the trace needs.
struct Search {
    bool constrained = false;
    DomainId searchRoot = kRootDomain;
    bool counted = true; // representor accounting: domains fit by their allocatable pods
    std::int64_t rootPods = 0;
    double rootRatio = 0;
    bool rootFits = false;
    std::vector<Candidate> candidates; // bottom-up, the order KAI tries them
};

class Planner {
public:
    Planner(const PlacementCluster& cluster, const GangRequest& request, const EngineOptions& options)
        : m_cluster(cluster), m_index(cluster.index()), m_spec(cluster.spec()), m_request(request),
          m_depth(m_spec.depth()), m_jobTrace(&m_jobEntries, options.maxTraceEntries),
          m_segmentTrace(&m_segmentEntries, options.maxTraceEntries), m_traceLimit(options.maxTraceEntries) {}

    PlacementResult run();

private:
    // Request. False when the result is already final (a request KAI refuses or cannot read).
    bool readRequest(PlacementResult& result);
    void setUpKinds();
    int resolveLevel(std::string_view text) const;
    std::string checkLevels(std::string_view requiredText, std::string_view preferredText, const std::string& subject,
                            Constraint& out) const;
    std::vector<int> candidateLevels(const Constraint& constraint) const;

    // Tree and capacity.
    bool buildTree(DomainId id);
    void measureNodes();
    int level(DomainId id) const { return m_index.domain(id).level; }
    bool isLeaf(DomainId id) const { return level(id) == m_depth - 1; }
    DomainId leafOf(NodeId node) const;
    bool contains(DomainId outer, DomainId inner) const;
    std::string domainId(DomainId id) const;
    std::string levelName(int levelIndex) const;

    // subSetNodesFn.
    Search subsetNodes(const SubGroup& group, DomainId nodeSet, NodeScores& scores);
    DomainId searchRoot(DomainId nodeSet, int preferred) const;
    void aggregate(DomainId id);
    Demand demandOf(const SubGroup& group) const;
    void countLeafPods(DomainId id, const std::vector<__int128>& maxPod);
    std::int64_t kindRoom(const Kind& kind, NodeId node) const;
    double ratio(DomainId id, const std::vector<double>& demand) const;
    void sortChildren(DomainId id, int maxDepth, const std::vector<double>& demand);
    void scorePreferred(DomainId searchRoot, int preferred, NodeScores& scores);
    void collectLevel(DomainId id, int levelIndex, std::vector<DomainId>& out) const;
    void markLeaves(DomainId id, std::int32_t score, NodeScores& scores) const;
    void addTopLevelErrors(const SubGroup& group, int topLevel, const Demand& demand);
    std::string noMatchError(const SubGroup& group, std::string_view suffix = {}) const;
    std::string insufficientDetail(DomainId id, const std::vector<double>& demand) const;

    // Allocation.
    bool tryJobDomain(DomainId domain, std::string& why);
    bool trySegments(DomainId domain, std::size_t kind, std::string& why);
    std::int32_t allocate(DomainId domain, DomainId nodeSet, std::int32_t tasks, const NodeScores* scores,
                          std::size_t kind);
    void collectNodes(DomainId id, std::vector<NodeId>& out) const;
    void place(NodeId node, std::int32_t pods, std::size_t kind);
    void rollback(std::size_t mark);
    void addTaskFailure(const SubGroup& group, std::int32_t placed, std::string_view cause);

    // The whole job: the first candidate domain, bottom-up, that takes all its pods (kAllNodes for
    // a job without a constraint); nothing when none does.
    std::optional<DomainId> placeJob();

    // Output.
    void joinTraces(PlacementResult& result);
    void addNotes(PlacementResult& result, bool placed) const;
    void addError(std::string_view reason, std::string detail);
    std::string fitErrorText() const;
    void traceSearch(TraceBudget& log, const SubGroup& group, const Search& search) const;
    void fillResult(PlacementResult& result, DomainId winner) const;

    const PlacementCluster& m_cluster;
    const TopologyIndex& m_index;
    const TopologySpec& m_spec;
    const GangRequest& m_request;
    const int m_depth;
    std::string m_topologyName;
    Constraint m_jobConstraint;
    Constraint m_segmentConstraint;
    std::string m_requiredKey; // the job's required level as a node-label key, for KAI's messages
    std::string m_segmentRequiredKey;

    // Requested resources (positive, `pods` aside), in the order the kinds first request them.
    struct Resource {
        std::string name;
        bool extended = false; // a scalar resource to KAI: neither cpu, memory nor a GPU
    };
    std::vector<Resource> m_resources;
    // The kinds of pod, in the order KAI allocates their subgroups; one for a uniform gang.
    std::vector<GangPart> m_parts;
    std::vector<Kind> m_kinds;
    bool m_heterogeneous = false;
    std::size_t m_segmentedKind = 0; // the kind segments split (the workers)

    // Per node.
    std::vector<std::int64_t> m_cap;    // pods that fit before this gang (uniform gangs)
    // Uniform gangs: the node passes the pods' predicates (nodeSelector, NoSchedule/NoExecute
    // taints). KAI counts a domain's allocatable pods by resources alone (calcNodeAccommodation)
    // and applies the predicates when it allocates each task (FittingNode).
    std::vector<char> m_admits;
    std::vector<std::int32_t> m_placed; // pods of this gang
    std::vector<double> m_packFree;     // free amount of the bin-packing resource before this gang
    std::vector<std::uint32_t> m_rank;  // natural name order
    // Heterogeneous gangs: what is left on each node as pods of every kind are placed.
    std::vector<__int128> m_nodeFree;      // [node * resources + r], nanos
    std::vector<std::int64_t> m_nodeSlots; // pod slots

    // Per domain.
    std::vector<char> m_inTree;
    std::vector<std::vector<DomainId>> m_children; // KAI's children; sorted in place like KAI's tree
    std::vector<std::int64_t> m_leafPods;          // remaining allocatable pods, leaves only
    std::vector<double> m_leafFree;                // remaining free resources, leaves only
    std::vector<std::int64_t> m_pods;              // per search: allocatable pods under the search root
    std::vector<double> m_free;
    std::vector<std::uint32_t> m_stamp; // == m_round: computed for the current search
    std::uint32_t m_round = 0;
    std::size_t m_treeNodes = 0;

    NodeScores m_jobScores;
    NodeScores m_segmentScores;
    struct Placement {
        NodeId node;
        std::int32_t pods;
        std::size_t kind;
    };
    std::vector<Placement> m_log;
    std::vector<FitError> m_errors;
    std::size_t m_droppedErrors = 0;
    bool m_outsideQuirk = false; // a candidate above the search root was rejected for lack of counted resources

    // The job's trace and its segments', each bounded; run() joins them under one bound.
    std::vector<TraceEntry> m_jobEntries;
    std::vector<TraceEntry> m_segmentEntries;
    TraceBudget m_jobTrace;
    TraceBudget m_segmentTrace;
    std::size_t m_traceLimit;
};

int Planner::resolveLevel(std::string_view text) const {
    if (text.empty()) return kNoLevel;
    const int index = m_spec.levelIndex(text);
    if (index >= 0) return index;
    // KAI's level list ends with the root, so "root" names it unless a real level is called that.
    return text == kRootId ? kRootLevel : kUnknownLevel;
}

std::string Planner::checkLevels(std::string_view requiredText, std::string_view preferredText,
                                 const std::string& subject, Constraint& out) const {
    // calculateRelevantDomainLevels walks the levels bottom-up and stops at the required one, so a
    // preferred level above the required one is reported as missing, like an unknown one.
    auto configError = [&](std::string_view type, std::string_view level) {
        return "topology constraint error: " + subject + " specified '" + std::string(level) + "' as the " +
               std::string(type) + " topology constraint level, but the topology tree '" + m_topologyName +
               "' does not contain a level with this name";
    };
    out.required = resolveLevel(requiredText);
    out.preferred = resolveLevel(preferredText);
    if (out.required == kUnknownLevel) return configError("required", requiredText);
    if (out.preferred == kUnknownLevel) return configError("preferred", preferredText);
    if (out.required != kNoLevel && out.preferred != kNoLevel && out.preferred < out.required)
        return configError("preferred", preferredText);
    return {};
}

std::vector<int> Planner::candidateLevels(const Constraint& constraint) const {
    std::vector<int> levels;
    bool preferredSeen = false;
    for (int levelIndex = m_depth - 1; levelIndex >= kRootLevel; --levelIndex) {
        preferredSeen = preferredSeen || levelIndex == constraint.preferred;
        const bool required = levelIndex == constraint.required;
        if (preferredSeen || required) levels.push_back(levelIndex);
        if (required) break;
    }
    return levels;
}

bool Planner::buildTree(DomainId id) {
    const Domain& domain = m_index.domain(id);
    bool member = false;
    if (isLeaf(id)) {
        member = !domain.nodes.empty();
        m_treeNodes += domain.nodes.size();
    } else {
        for (DomainId child : domain.children) {
            const Domain& childDomain = m_index.domain(child);
            // Nodes missing any level label are outside KAI's tree (isNodePartOfTopology).
            if (!childDomain.alive || childDomain.unlabelled) continue;
            if (buildTree(child)) {
                m_children[id].push_back(child);
                member = true;
            }
        }
    }
    m_inTree[id] = member || id == kRootDomain;
    return member;
}

void Planner::measureNodes() {
    const std::size_t nodeSlots = m_cluster.nodeSlots();
    const std::size_t resourceCount = m_resources.size();
    m_cap.assign(nodeSlots, 0);
    m_admits.assign(nodeSlots, 1);
    m_placed.assign(nodeSlots, 0);
    m_packFree.assign(nodeSlots, 0);
    m_rank.assign(nodeSlots, 0);
    m_leafPods.assign(m_index.domainSlots(), 0);
    m_leafFree.assign(m_index.domainSlots() * resourceCount, 0);

    const std::vector<NodeId>& order = m_cluster.nodesInOrder();
    for (std::size_t i = 0; i < order.size(); ++i) m_rank[order[i]] = static_cast<std::uint32_t>(i);

    if (m_heterogeneous) {
        m_nodeFree.assign(nodeSlots * resourceCount, 0);
        m_nodeSlots.assign(nodeSlots, 0);
    }
    std::vector<PlacementCluster::FreeColumn> columns;
    for (const Resource& resource : m_resources) columns.push_back(m_cluster.freeColumn(resource.name));
    const Kind& whole = m_kinds.front();
    for (NodeId node = 0; node < nodeSlots; ++node) {
        // KAI's Idle + Releasing; a snapshot has nothing releasing. Unusable nodes add nothing.
        if (!m_cluster.usable(node)) continue;
        const DomainId leaf = leafOf(node);
        if (m_heterogeneous) {
            // Each subgroup counts its own allocatable pods (countLeafPods) from what is left.
            m_nodeSlots[node] = m_cluster.freePodSlots(node);
        } else {
            // Pods of the whole request that fit, `pods` slots included (KAI's requests carry pods: 1).
            m_cap[node] = std::min(m_cluster.podsThatFit(node, m_request.perPod, true), kMaxPodsPerNode);
            if (leaf != kNoDomain) m_leafPods[leaf] += m_cap[node];
            m_admits[node] = filterNode(m_cluster.node(node), *whole.nodeSelector, *whole.tolerations,
                                        FilterOrder::SelectorFirst)
                                 .passes();
        }
        for (std::size_t r = 0; r < resourceCount; ++r) {
            const __int128 free = columns[r].nanos(node);
            const double amount = free <= 0 ? 0.0 : static_cast<double>(free);
            if (m_heterogeneous) m_nodeFree[node * resourceCount + r] = free;
            if (whole.packs && r == whole.packResource) m_packFree[node] = amount;
            if (leaf != kNoDomain) m_leafFree[leaf * resourceCount + r] += amount;
        }
    }
}

std::int64_t Planner::kindRoom(const Kind& kind, NodeId node) const {
    // Pods of this kind the node still takes (KAI's per-task FittingNode): the resources and pod
    // slots left after the gang's pods placed so far, the kind's nodeSelector, and NoSchedule /
    // NoExecute taints it must tolerate. Heterogeneous gangs only.
    std::int64_t room = m_nodeSlots[node];
    if (room <= 0) return 0;
    if (!filterNode(m_cluster.node(node), *kind.nodeSelector, *kind.tolerations, FilterOrder::SelectorFirst).passes())
        return 0;
    const std::size_t resourceCount = m_resources.size();
    for (std::size_t r = 0; r < resourceCount; ++r) {
        if (kind.nanos[r] <= 0) continue;
        const __int128 free = m_nodeFree[node * resourceCount + r];
        if (free <= 0) return 0;
        room = static_cast<std::int64_t>(std::min<__int128>(free / kind.nanos[r], room));
    }
    return std::min(room, kMaxPodsPerNode);
}

void Planner::countLeafPods(DomainId id, const std::vector<__int128>& maxPod) {
    // calcSubTreeAllocatable with the representor pod: copies of the largest request of any of the
    // subgroup's tasks that each node holds, from what is left on it. Heterogeneous gangs only.
    if (!isLeaf(id)) {
        for (DomainId child : m_children[id]) countLeafPods(child, maxPod);
        return;
    }
    const std::size_t resourceCount = m_resources.size();
    std::int64_t pods = 0;
    for (NodeId node : m_index.domain(id).nodes) {
        if (!m_cluster.usable(node)) continue;
        std::int64_t fit = m_nodeSlots[node];
        for (std::size_t r = 0; r < resourceCount && fit > 0; ++r) {
            if (maxPod[r] <= 0) continue;
            const __int128 free = m_nodeFree[node * resourceCount + r];
            fit = free <= 0 ? 0 : static_cast<std::int64_t>(std::min<__int128>(free / maxPod[r], fit));
        }
        pods += std::min(std::max<std::int64_t>(fit, 0), kMaxPodsPerNode);
    }
    m_leafPods[id] = pods;
}

Demand Planner::demandOf(const SubGroup& group) const {
    const std::size_t resourceCount = m_resources.size();
    Demand demand;
    demand.total.assign(resourceCount, 0.0);
    for (const auto& [kind, pods] : group.members)
        for (std::size_t r = 0; r < resourceCount; ++r)
            if (m_kinds[kind].amount[r] > 0) demand.total[r] += pods * m_kinds[kind].amount[r];
    if (!m_heterogeneous) return demand;
    demand.maxPod.assign(resourceCount, 0);
    std::int64_t tasks = 0;
    std::int64_t gpuTasks = 0;
    std::vector<std::int64_t> extendedTasks(resourceCount, 0);
    for (const auto& [kind, pods] : group.members) {
        const Kind& k = m_kinds[kind];
        tasks += pods;
        if (k.gpu) gpuTasks += pods;
        for (std::size_t r = 0; r < resourceCount; ++r) {
            demand.maxPod[r] = std::max(demand.maxPod[r], k.nanos[r]);
            if (k.nanos[r] > 0 && m_resources[r].extended) extendedTasks[r] += pods;
        }
    }
    demand.representor = gpuTasks == 0 || gpuTasks == tasks;
    for (std::size_t r = 0; r < resourceCount; ++r)
        if (extendedTasks[r] != 0 && extendedTasks[r] != tasks) demand.representor = false;
    return demand;
}

DomainId Planner::leafOf(NodeId node) const {
    const DomainId leaf = m_index.node(node).leaf;
    return leaf != kNoDomain && m_inTree[leaf] && isLeaf(leaf) ? leaf : kNoDomain;
}

bool Planner::contains(DomainId outer, DomainId inner) const {
    DomainId current = inner;
    while (current != kNoDomain && level(current) > level(outer)) current = m_index.domain(current).parent;
    return current == outer;
}

std::string Planner::domainId(DomainId id) const {
    if (id == kRootDomain) return std::string(kRootId);
    std::string text;
    for (DomainId step : m_index.pathTo(id)) {
        if (step == kRootDomain) continue;
        if (!text.empty()) text += '.';
        text += m_index.domain(step).value;
    }
    return text;
}

std::string Planner::levelName(int levelIndex) const {
    return levelIndex < 0 ? std::string(kRootId) : m_spec.levels[static_cast<std::size_t>(levelIndex)].name;
}

DomainId Planner::searchRoot(DomainId nodeSet, int preferred) const {
    // lowestCommonDomainID: the deepest domain holding every node of the set, but never below the
    // preferred level. A node set that is one domain already agrees on every level above it.
    DomainId current = nodeSet == kAllNodes ? kRootDomain : nodeSet;
    if (preferred >= 0 && level(current) >= preferred) {
        while (level(current) > preferred) current = m_index.domain(current).parent;
        return current;
    }
    while ((preferred < 0 || level(current) < preferred) && m_children[current].size() == 1)
        current = m_children[current].front();
    return current;
}

void Planner::aggregate(DomainId id) {
    const std::size_t resourceCount = m_resources.size();
    m_stamp[id] = m_round;
    double* free = m_free.data() + id * resourceCount;
    if (isLeaf(id)) {
        m_pods[id] = m_leafPods[id];
        std::copy_n(m_leafFree.data() + id * resourceCount, resourceCount, free);
        return;
    }
    m_pods[id] = 0;
    std::fill_n(free, resourceCount, 0.0);
    for (DomainId child : m_children[id]) {
        aggregate(child);
        m_pods[id] += m_pods[child];
        for (std::size_t r = 0; r < resourceCount; ++r) free[r] += m_free[child * resourceCount + r];
    }
}

double Planner::ratio(DomainId id, const std::vector<double>& demand) const {
    // getJobRatioToFreeResources: the dominant share of the domain's free resources the subgroup's
    // tasks would take; a requested resource the domain lacks counts 1000. Domains outside the
    // search root have no free resources counted (treeAllocatableCleanup empties them).
    const std::size_t resourceCount = m_resources.size();
    const bool counted = m_stamp[id] == m_round;
    double dominant = 0;
    for (std::size_t r = 0; r < resourceCount; ++r) {
        if (demand[r] <= 0) continue; // a resource only other subgroups request
        const double free = counted ? m_free[id * resourceCount + r] : 0.0;
        const double share = free <= 0 ? kResourceMissingRatio : demand[r] / free;
        dominant = std::max(dominant, share);
    }
    return dominant;
}

void Planner::sortChildren(DomainId id, int maxDepth, const std::vector<double>& demand) {
    // sortTree: bin-packing order, the most packed (highest ratio) first, ties by domain id. Only
    // levels down to the deepest candidate level matter, so deeper ones are left as they are.
    if (level(id) >= maxDepth) return;
    std::vector<DomainId>& children = m_children[id];
    std::vector<std::pair<double, DomainId>> keyed;
    keyed.reserve(children.size());
    for (DomainId child : children) keyed.emplace_back(ratio(child, demand), child);
    // Siblings share their id's prefix, so comparing values compares ids (bytewise, like Go).
    std::sort(keyed.begin(), keyed.end(), [this](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return m_index.domain(a.second).value < m_index.domain(b.second).value;
    });
    for (std::size_t i = 0; i < keyed.size(); ++i) children[i] = keyed[i].second;
    for (DomainId child : children) sortChildren(child, maxDepth, demand);
}

void Planner::collectLevel(DomainId id, int levelIndex, std::vector<DomainId>& out) const {
    if (level(id) == levelIndex) {
        out.push_back(id);
        return;
    }
    if (level(id) > levelIndex) return;
    for (DomainId child : m_children[id]) collectLevel(child, levelIndex, out);
}

void Planner::markLeaves(DomainId id, std::int32_t score, NodeScores& scores) const {
    if (isLeaf(id)) {
        scores.score[id] = score;
        scores.stamp[id] = scores.round;
        return;
    }
    for (DomainId child : m_children[id]) markLeaves(child, score, scores);
}

void Planner::scorePreferred(DomainId root, int preferred, NodeScores& scores) {
    // calculateNodeScores: the i-th of n preferred-level domains in sorted order scores
    // floor((i+1)/n*10), so the last (the one with the most room) is filled first.
    if (scores.score.empty()) {
        scores.score.assign(m_index.domainSlots(), 0);
        scores.stamp.assign(m_index.domainSlots(), 0);
    }
    ++scores.round;
    scores.active = true;
    std::vector<DomainId> domains;
    collectLevel(root, preferred, domains);
    const double count = static_cast<double>(domains.size());
    for (std::size_t i = 0; i < domains.size(); ++i) {
        const double score = std::floor(static_cast<double>(i + 1) / count * 10);
        markLeaves(domains[i], static_cast<std::int32_t>(score), scores);
    }
}

std::string Planner::noMatchError(const SubGroup& group, std::string_view suffix) const {
    const std::string& required = group.name.empty() ? m_requiredKey : m_segmentRequiredKey;
    std::string text = "topology " + m_topologyName + ", requirement " + required + " couldn't be satisfied for job <" +
                       m_request.nameSpace + "/" + m_request.name + ">";
    if (!group.name.empty()) text += ", subgroup " + group.name;
    if (!suffix.empty()) text += ": " + std::string(suffix);
    return text;
}

std::string Planner::insufficientDetail(DomainId id, const std::vector<double>& demand) const {
    // NewTopologyInsufficientResourcesError, in KAI's resource-vector order (cpu, memory, GPUs,
    // then the rest); `pods` is not part of the ratio, so it is not reported either.
    const std::string name = domainId(id);
    const std::size_t resourceCount = m_resources.size();
    const bool counted = m_stamp[id] == m_round;
    std::vector<std::pair<int, std::string>> parts;
    for (std::size_t r = 0; r < resourceCount; ++r) {
        const std::string& resource = m_resources[r].name;
        const double requested = demand[r] / kNanosPerUnit;
        const double available = counted ? m_free[id * resourceCount + r] / kNanosPerUnit : 0.0;
        if (requested <= available) continue;
        if (resource == "cpu")
            parts.emplace_back(0, name + " didn't have enough resources: CPU cores, requested: " +
                                      formatDigits3(requested) + ", available: " + formatDigits3(available));
        else if (resource == "memory")
            parts.emplace_back(1, name + " didn't have enough resources: memory, requested: " +
                                      formatDigits3(requested / kBytesPerGb) +
                                      ", available: " + formatDigits3(available / kBytesPerGb));
        else if (resource == kGpuResource)
            parts.emplace_back(2, name + " didn't have enough resource: GPUs, requested: " + formatG3(requested) +
                                      ", available: " + formatG3(available));
        else if (isDraPodsResource(resource))
            // The DynamicResources predicate's verdict, counted in pods whose claims the devices serve.
            parts.emplace_back(3, name + " cannot allocate all claims: pods requested: " +
                                      std::to_string(static_cast<std::int64_t>(requested)) +
                                      ", pods the devices serve: " + std::to_string(static_cast<std::int64_t>(available)));
        else
            parts.emplace_back(3, name + " didn't have enough resource: " + resource +
                                      ", requested: " + std::to_string(static_cast<std::int64_t>(requested)) +
                                      ", available: " + std::to_string(static_cast<std::int64_t>(available)));
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string text;
    for (const auto& part : parts) text += (text.empty() ? "" : ", ") + part.second;
    return text;
}

void Planner::addTopLevelErrors(const SubGroup& group, int topLevel, const Demand& demand) {
    // Every domain of the top candidate level, in or out of the search root, reports why it failed:
    // by its allocatable pods where KAI counted them, else by its free resources.
    const std::string subgroup = group.name.empty() ? "" : "subgroup " + group.name + ": ";
    auto report = [&](DomainId id) {
        const std::string name = domainId(id);
        if (m_stamp[id] == m_round && demand.representor)
            addError(kWorkloadReason, "<" + name + ">: " + subgroup + "node-group " + name + " can allocate only " +
                                          std::to_string(m_pods[id]) + " of " + std::to_string(group.tasks) +
                                          " required pods");
        else if (ratio(id, demand.total) > kMaxFitRatio)
            addError(kWorkloadReason, "<" + name + ">: " + subgroup + insufficientDetail(id, demand.total));
    };
    if (topLevel == kRootLevel) {
        report(kRootDomain);
        return;
    }
    for (DomainId id = 0; id < m_index.domainSlots(); ++id)
        if (m_inTree[id] && m_index.domain(id).alive && level(id) == topLevel) report(id);
}

Search Planner::subsetNodes(const SubGroup& group, DomainId nodeSet, NodeScores& scores) {
    Search search;
    if (!group.constraint.any()) {
        // No constraint: KAI hands the node set through untouched.
        search.rootFits = true;
        Candidate whole;
        whole.domain = nodeSet;
        whole.fits = true;
        search.candidates.push_back(whole);
        return search;
    }
    search.constrained = true;
    const Constraint& constraint = group.constraint;
    const std::int32_t tasks = group.tasks;
    const Demand demand = demandOf(group);
    ++m_round;
    const DomainId root = searchRoot(nodeSet, constraint.preferred);
    if (m_heterogeneous && demand.representor) countLeafPods(root, demand.maxPod);
    aggregate(root);
    search.searchRoot = root;
    search.counted = demand.representor;
    search.rootPods = m_pods[root];
    search.rootRatio = ratio(root, demand.total);
    if (demand.representor ? m_pods[root] < tasks : search.rootRatio > kMaxFitRatio) {
        addError(kSimpleErrorReason,
                 noMatchError(group, root == kRootDomain
                                         ? "not enough resources in the cluster to allocate the job"
                                         : "not enough resources in " + domainId(root) + " to allocate the job"));
        return search;
    }
    search.rootFits = true;

    const int maxDepth = constraint.preferred != kNoLevel ? constraint.preferred : constraint.required;
    sortChildren(root, maxDepth, demand.total);
    if (constraint.preferred != kNoLevel) scorePreferred(root, constraint.preferred, scores);

    // sortDomainInfos: a bottom-up level order over the sorted tree. Domains outside the search
    // root have no resources counted and cannot fit, unless the pods request nothing at all.
    const std::vector<int> levels = candidateLevels(constraint);
    auto isCandidateLevel = [&levels](int levelIndex) {
        return std::find(levels.begin(), levels.end(), levelIndex) != levels.end();
    };
    const DomainId start = demand.empty() ? kRootDomain : root;
    std::vector<std::vector<DomainId>> layers{{start}};
    while (level(layers.back().front()) < levels.front()) {
        std::vector<DomainId> next;
        for (DomainId id : layers.back()) next.insert(next.end(), m_children[id].begin(), m_children[id].end());
        if (next.empty()) break;
        layers.push_back(std::move(next));
    }
    auto consider = [&](DomainId id) {
        if (!isCandidateLevel(level(id))) return;
        Candidate candidate;
        candidate.domain = id;
        candidate.inside = m_stamp[id] == m_round;
        candidate.counted = candidate.inside && demand.representor;
        candidate.ratio = ratio(id, demand.total);
        if (candidate.counted) {
            candidate.pods = m_pods[id];
            candidate.fits = candidate.pods >= tasks;
        } else {
            candidate.fits = candidate.ratio <= kMaxFitRatio;
            m_outsideQuirk = m_outsideQuirk || (!candidate.inside && !candidate.fits);
        }
        search.candidates.push_back(candidate);
    };
    for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer)
        for (DomainId id : *layer) consider(id);
    if (start != kRootDomain)
        for (DomainId id = m_index.domain(start).parent; id != kNoDomain; id = m_index.domain(id).parent) consider(id);

    const bool anyFits =
        std::any_of(search.candidates.begin(), search.candidates.end(), [](const Candidate& c) { return c.fits; });
    if (!anyFits) {
        addTopLevelErrors(group, levels.back(), demand);
        addError(kSimpleErrorReason, noMatchError(group));
    }
    return search;
}

void Planner::collectNodes(DomainId id, std::vector<NodeId>& out) const {
    if (isLeaf(id)) {
        const std::vector<NodeId>& nodes = m_index.domain(id).nodes;
        out.insert(out.end(), nodes.begin(), nodes.end());
        return;
    }
    for (DomainId child : m_children[id]) collectNodes(child, out);
}

void Planner::place(NodeId node, std::int32_t pods, std::size_t kind) {
    m_placed[node] += pods;
    m_log.push_back({node, pods, kind});
    const Kind& k = m_kinds[kind];
    const std::size_t resourceCount = m_resources.size();
    if (m_heterogeneous) {
        m_nodeSlots[node] -= pods;
        for (std::size_t r = 0; r < resourceCount; ++r) m_nodeFree[node * resourceCount + r] -= pods * k.nanos[r];
    }
    const DomainId leaf = leafOf(node);
    if (leaf == kNoDomain) return;
    if (!m_heterogeneous) m_leafPods[leaf] -= pods;
    for (std::size_t r = 0; r < resourceCount; ++r) m_leafFree[leaf * resourceCount + r] -= pods * k.amount[r];
}

void Planner::rollback(std::size_t mark) {
    const std::size_t resourceCount = m_resources.size();
    while (m_log.size() > mark) {
        const Placement entry = m_log.back();
        m_log.pop_back();
        const Kind& k = m_kinds[entry.kind];
        m_placed[entry.node] -= entry.pods;
        if (m_heterogeneous) {
            m_nodeSlots[entry.node] += entry.pods;
            for (std::size_t r = 0; r < resourceCount; ++r)
                m_nodeFree[entry.node * resourceCount + r] += entry.pods * k.nanos[r];
        }
        const DomainId leaf = leafOf(entry.node);
        if (leaf == kNoDomain) continue;
        if (!m_heterogeneous) m_leafPods[leaf] += entry.pods;
        for (std::size_t r = 0; r < resourceCount; ++r)
            m_leafFree[leaf * resourceCount + r] += entry.pods * k.amount[r];
    }
}

std::int32_t Planner::allocate(DomainId domain, DomainId nodeSet, std::int32_t tasks, const NodeScores* scores,
                               std::size_t kind) {
    // The candidate's nodes that are also in the parent's node set (subSetNodesFn's validNodes).
    DomainId region = kNoDomain;
    bool everyNode = false;
    if (domain == kAllNodes) {
        everyNode = nodeSet == kAllNodes;
        region = nodeSet;
    } else if (nodeSet == kAllNodes || contains(nodeSet, domain)) {
        region = domain;
    } else if (contains(domain, nodeSet)) {
        region = nodeSet;
    } else {
        return 0;
    }
    std::vector<NodeId> nodes;
    if (everyNode)
        nodes = m_cluster.nodesInOrder();
    else
        collectNodes(region, nodes);

    // Node order per pod: the topology score (preferred-level subdomain) first, then KAI's default
    // GPU (or CPU) bin-packing, the fewest free first; KAI breaks remaining ties at random, we by
    // name. A node keeps winning until it is full, so nodes are filled in this order. Each kind of
    // pod packs by its own request, on what the kinds placed before it left.
    struct Slot {
        std::int32_t score;
        double packFree;
        std::uint32_t rank;
        NodeId node;
        std::int64_t room;
    };
    const Kind& k = m_kinds[kind];
    const double packPerPod = k.packs ? k.amount[k.packResource] : 0.0;
    const std::size_t resourceCount = m_resources.size();
    std::vector<Slot> slots;
    slots.reserve(nodes.size());
    for (NodeId node : nodes) {
        const std::int64_t room = m_heterogeneous ? kindRoom(k, node)
                                  : m_admits[node] ? m_cap[node] - m_placed[node]
                                                   : 0;
        if (room <= 0) continue;
        std::int32_t score = 0;
        if (scores != nullptr && scores->active) {
            const DomainId leaf = leafOf(node);
            // A node without a topology score makes KAI's node ordering skip it.
            if (leaf == kNoDomain || scores->stamp[leaf] != scores->round) continue;
            score = scores->score[leaf];
        }
        double packFree = 0;
        if (!m_heterogeneous)
            packFree = m_packFree[node] - m_placed[node] * packPerPod;
        else if (k.packs)
            packFree = static_cast<double>(std::max<__int128>(m_nodeFree[node * resourceCount + k.packResource], 0));
        slots.push_back({score, packFree, m_rank[node], node, room});
    }
    const std::size_t needed = std::min(slots.size(), static_cast<std::size_t>(tasks));
    std::partial_sort(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(needed), slots.end(),
                      [](const Slot& a, const Slot& b) {
                          if (a.score != b.score) return a.score > b.score;
                          if (a.packFree != b.packFree) return a.packFree < b.packFree;
                          return a.rank < b.rank;
                      });
    std::int32_t placed = 0;
    for (std::size_t i = 0; i < needed && placed < tasks; ++i) {
        const auto pods = static_cast<std::int32_t>(std::min<std::int64_t>(slots[i].room, tasks - placed));
        place(slots[i].node, pods, kind);
        placed += pods;
    }
    return placed;
}

void Planner::addTaskFailure(const SubGroup& group, std::int32_t placed, std::string_view cause) {
    // handleFailedTaskAllocation; the nodes' own fit errors are summarised (`cause`), not reproduced.
    if (!group.name.empty())
        addError(kSimpleErrorReason, "Resources were found for " + std::to_string(placed) +
                                         " pods from all sub-groups while sub-group " + group.name + " requires " +
                                         std::to_string(group.tasks) +
                                         " pods for gang scheduling. Additional pods cannot be scheduled in this "
                                         "sub-group due to: " +
                                         std::string(cause));
    else if (group.tasks > 1)
        addError(kSimpleErrorReason, "Resources were found for " + std::to_string(placed) + " pods while " +
                                         std::to_string(group.tasks) +
                                         " are required for gang scheduling. Additional pods cannot be scheduled "
                                         "due to: " +
                                         std::string(cause));
    else
        addError(kSimpleErrorReason, "Resources were not found for pod " + m_request.nameSpace + "/" + m_request.name +
                                         "-0 due to: " + std::string(cause));
}

bool Planner::tryJobDomain(DomainId domain, std::string& why) {
    // KAI's allocateSubGroupSetOnNodes: inside the job's domain, a subgroup's child subgroup sets
    // first (the workers' segments), then its pod sets, one after the other (the parts in their
    // order: a PyTorchJob's master, then its workers), each seeing the pods placed before it.
    const NodeScores* jobScores = m_jobScores.active ? &m_jobScores : nullptr;
    const bool segmented = m_request.kai.segmentSize > 0;
    if (segmented && !trySegments(domain, m_segmentedKind, why)) return false;
    for (std::size_t kind = 0; kind < m_kinds.size(); ++kind) {
        if (segmented && kind == m_segmentedKind) continue;
        const Kind& k = m_kinds[kind];
        const std::int32_t placed = allocate(domain, kAllNodes, k.pods, jobScores, kind);
        if (placed == k.pods) continue;
        const bool selective = !k.nodeSelector->empty() || !k.tolerations->empty();
        addTaskFailure(SubGroup{m_heterogeneous ? k.name : "", k.pods, m_jobConstraint, {}}, placed,
                       selective ? "no node in the domain that the pod's nodeSelector and tolerations admit has "
                                   "room for another pod"
                                 : "no node in the domain has room for another pod");
        why = (m_heterogeneous ? k.name + ": " : std::string()) + "only " + std::to_string(placed) + " of " +
              std::to_string(k.pods) + " pods found a node";
        return false;
    }
    return true;
}

bool Planner::trySegments(DomainId domain, std::size_t kind, std::string& why) {
    // Segments in index order, each inside the job's domain, seeing the pods placed before it.
    const NodeScores* jobScores = m_jobScores.active ? &m_jobScores : nullptr;
    const std::int32_t segmentSize = m_request.kai.segmentSize;
    const std::int32_t pods = m_kinds[kind].pods;
    const std::int32_t segments = (pods + segmentSize - 1) / segmentSize;
    for (std::int32_t i = 0; i < segments; ++i) {
        const std::int32_t tasks = std::min(segmentSize, pods - i * segmentSize);
        SubGroup segment{"worker-" + std::to_string(i), tasks, m_segmentConstraint, {{kind, tasks}}};
        Search search = subsetNodes(segment, domain, m_segmentScores);
        const NodeScores* scores = m_segmentConstraint.preferred != kNoLevel ? &m_segmentScores : jobScores;
        bool placedSegment = false;
        for (Candidate& candidate : search.candidates) {
            if (!candidate.fits) continue;
            candidate.tried = true;
            const std::size_t mark = m_log.size();
            const std::int32_t placed = allocate(candidate.domain, domain, segment.tasks, scores, kind);
            if (placed == segment.tasks) {
                placedSegment = true;
                break;
            }
            rollback(mark);
            const Kind& k = m_kinds[kind];
            addTaskFailure(segment, placed,
                           !k.nodeSelector->empty() || !k.tolerations->empty()
                               ? "no node in the domain that the pod's nodeSelector and tolerations admit has room "
                                 "for another pod"
                               : "no node in the domain has room for another pod");
            candidate.outcome = "only " + std::to_string(placed) + " of " + std::to_string(segment.tasks) +
                                " pods found a node in the job's domain";
        }
        traceSearch(m_segmentTrace, segment, search);
        if (!placedSegment) {
            why = "subgroup " + segment.name + " (" + std::to_string(segment.tasks) + " pods) found no domain";
            if (!search.rootFits)
                why += search.counted ? ": only " + std::to_string(search.rootPods) + " pods fit under " +
                                            domainId(search.searchRoot)
                                      : ": the pods' requests take " + formatG3(search.rootRatio) +
                                            " of what is free under " + domainId(search.searchRoot);
            return false;
        }
    }
    return true;
}

void Planner::addError(std::string_view reason, std::string detail) {
    if (m_errors.size() >= kMaxFitErrors) {
        ++m_droppedErrors;
        return;
    }
    m_errors.push_back({reason, std::move(detail)});
}

std::string Planner::fitErrorText() const {
    // JobFitErrorsToDetailedMessage, without its leading newline.
    std::vector<std::string> lines;
    lines.reserve(m_errors.size());
    for (const FitError& error : m_errors) lines.push_back("\n" + error.detail + ".");
    std::sort(lines.begin(), lines.end());
    std::string text(m_errors.size() == 1 ? m_errors.front().reason : kManyErrorsReason);
    text += '.';
    for (const std::string& line : lines) text += line;
    return text;
}

void Planner::traceSearch(TraceBudget& log, const SubGroup& group, const Search& search) const {
    const std::string who = group.name.empty() ? "" : group.name + ": ";
    const std::string tasks = std::to_string(group.tasks);
    if (!search.constrained) {
        log.add({"", "", true,
                 who + (group.name.empty() ? "no topology constraint: the pods may go to any nodes"
                                           : "no topology constraint: placed anywhere in the job's domain")});
        return;
    }
    if (log.room() == 0)
        log.drop();
    else
        log.add({levelName(level(search.searchRoot)), domainId(search.searchRoot), false,
                 who + "search root (lowest common domain of the candidate nodes): " +
                     (search.counted ? std::to_string(search.rootPods) + " of " + tasks + " pods fit"
                                     : "the pods' summed requests take ratio " + formatG3(search.rootRatio) +
                                           " of its free resources") +
                     (search.rootFits ? "" : "; nothing below it can fit")});
    bool chosen = false;
    for (const Candidate& candidate : search.candidates) {
        if (log.room() == 0) {
            log.drop();
            continue;
        }
        const std::string name = domainId(candidate.domain);
        const std::string ratioText = "ratio " + formatG3(candidate.ratio);
        std::string reason;
        bool taken = false;
        // Pods are counted only when the tasks are alike enough for KAI's representor pod; else the
        // domain fits when the tasks' summed requests fit its free resources.
        const std::string pods = candidate.counted ? std::to_string(candidate.pods) : std::string();
        const std::string fitShort = candidate.counted ? pods + " fit" : "summed requests fit";
        const std::string fitLong = candidate.counted ? pods + " of " + tasks + " fit" : "summed requests fit";
        if (!candidate.fits && candidate.counted)
            reason = "node-group " + name + " can allocate only " + std::to_string(candidate.pods) + " of " + tasks +
                     " required pods (" + ratioText + ")";
        else if (!candidate.fits && candidate.inside)
            reason = "the " + tasks + " pods' summed requests exceed its free resources (" + ratioText + ")";
        else if (!candidate.fits)
            reason = "outside the search root: KAI counts no free resources here (" + ratioText + ")";
        else if (chosen || !candidate.tried)
            reason = "not tried: an earlier candidate took the pods (" + fitShort + ", " + ratioText + ")";
        else if (!candidate.outcome.empty())
            reason = fitLong + " (" + ratioText + "), but " + candidate.outcome;
        else {
            reason = "chosen: the first candidate, bottom-up, where all " + tasks + " pods allocate (" + fitShort +
                     ", " + ratioText + ")";
            taken = true;
            chosen = true;
        }
        log.add({levelName(level(candidate.domain)), name, taken, who + reason});
    }
}

void Planner::fillResult(PlacementResult& result, DomainId winner) const {
    std::vector<std::pair<std::uint32_t, NodeId>> used;
    for (const Placement& entry : m_log)
        if (entry.pods > 0) used.emplace_back(m_rank[entry.node], entry.node);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::vector<std::pair<DomainId, std::int32_t>> leaves;
    // A heterogeneous gang's pods say which part they are (what-ifs assume each part's requests).
    std::map<std::pair<NodeId, std::size_t>, std::int32_t> podsByKind;
    if (m_heterogeneous)
        for (const Placement& entry : m_log) podsByKind[{entry.node, entry.kind}] += entry.pods;
    for (const auto& [rank, node] : used) {
        if (!m_heterogeneous) result.nodes.push_back({m_cluster.node(node).name, m_placed[node]});
        for (std::size_t kind = 0; m_heterogeneous && kind < m_kinds.size(); ++kind)
            if (const auto it = podsByKind.find({node, kind}); it != podsByKind.end() && it->second > 0)
                result.nodes.push_back({m_cluster.node(node).name, it->second, m_kinds[kind].name});
        const DomainId leaf = leafOf(node);
        if (leaf == kNoDomain) continue;
        auto found = std::find_if(leaves.begin(), leaves.end(), [leaf](const auto& e) { return e.first == leaf; });
        if (found == leaves.end())
            leaves.emplace_back(leaf, m_placed[node]);
        else
            found->second += m_placed[node];
    }

    for (const TopologyLevel& topologyLevel : m_spec.levels)
        result.assignment.levels.push_back(topologyLevel.nodeLabel);
    for (const auto& [leaf, count] : leaves) {
        TopologyAssignment::Domain domain;
        for (DomainId step : m_index.pathTo(leaf))
            if (step != kRootDomain) domain.values.push_back(m_index.domain(step).value);
        domain.count = count;
        result.assignment.domains.push_back(std::move(domain));
    }
    std::sort(result.assignment.domains.begin(), result.assignment.domains.end(),
              [](const auto& a, const auto& b) { return a.values < b.values; });

    if (winner == kRootDomain) {
        result.chosen.push_back({std::string(kRootId), std::string(kRootId)});
    } else if (winner != kAllNodes) {
        for (DomainId step : m_index.pathTo(winner))
            if (step != kRootDomain) result.chosen.push_back({levelName(level(step)), domainId(step)});
    }
}

bool Planner::readRequest(PlacementResult& result) {
    const KaiConstraint& kai = m_request.kai;
    auto invalid = [&result](std::string message) {
        result.invalidRequest = true;
        result.message = std::move(message);
        return false;
    };
    if (m_depth == 0) return invalid("the cluster has no topology levels; KAI places gangs by a Topology's levels");
    if (m_request.pods <= 0) return invalid("the gang has no pods to place");
    // The kinds of pod: KAI's subgroups of one PodGroup (a PyTorchJob's master and worker), or the
    // gang itself when its pods are alike.
    m_heterogeneous = m_request.heterogeneous();
    for (const GangPart& part : m_request.partsOrWhole())
        if (part.pods > 0) m_parts.push_back(part);
    std::int64_t partPods = 0;
    for (const GangPart& part : m_parts) partPods += part.pods;
    if (m_heterogeneous && partPods != m_request.pods)
        return invalid("the gang's parts add up to " + std::to_string(partPods) + " pods, not " +
                       std::to_string(m_request.pods));
    if (kai.segmentSize < 0)
        return invalid("segment size " + std::to_string(kai.segmentSize) +
                       " on worker podTemplate needs to be a positive integer");

    // The Topology the workload names (kai.scheduler/topology), or the cluster's own.
    const std::string& requested = m_request.topologyName;
    m_topologyName = !requested.empty() ? requested : !m_spec.name.empty() ? m_spec.name : "default";
    const bool anyConstraint = !kai.required.empty() || !kai.preferred.empty() ||
                               (kai.segmentSize > 0 && (!kai.segmentRequired.empty() || !kai.segmentPreferred.empty()));
    if (anyConstraint && !requested.empty() && requested != m_spec.name) {
        addError(kSimpleErrorReason, "Requested topology " + requested + " does not exist");
        result.message = fitErrorText();
        return false;
    }
    if (std::string problem = checkLevels(kai.required, kai.preferred, "workload", m_jobConstraint); !problem.empty())
        return invalid(std::move(problem));
    if (kai.segmentSize > 0) {
        if (std::string problem =
                checkLevels(kai.segmentRequired, kai.segmentPreferred, "sub-group worker-0", m_segmentConstraint);
            !problem.empty())
            return invalid(std::move(problem));
    }
    auto keyOf = [this](int levelIndex) {
        return levelIndex == kNoLevel ? std::string()
               : levelIndex < 0       ? std::string(kRootId)
                                      : m_spec.levels[static_cast<std::size_t>(levelIndex)].nodeLabel;
    };
    m_requiredKey = keyOf(m_jobConstraint.required);
    m_segmentRequiredKey = keyOf(m_segmentConstraint.required);
    return true;
}

void Planner::setUpKinds() {
    // Requested resources: what the ratio weighs and what bin-packing orders nodes by.
    const GpuResources& gpus = m_index.gpuResources();
    auto isRequested = [](const std::string& resource, const Quantity& amount) {
        return amount.nanos() > 0 && resource != "pods";
    };
    for (const GangPart& part : m_parts)
        for (const auto& [resource, amount] : part.perPod) {
            if (!isRequested(resource, amount)) continue;
            // An init-capture: clang 14 cannot capture a structured binding itself.
            if (std::any_of(m_resources.begin(), m_resources.end(),
                            [&resource = resource](const Resource& known) { return known.name == resource; }))
                continue;
            m_resources.push_back({resource, resource != "cpu" && resource != "memory" && !gpus.matches(resource)});
        }
    for (const GangPart& part : m_parts) {
        Kind kind;
        kind.name = part.name;
        kind.pods = part.pods;
        kind.nodeSelector = &part.nodeSelector;
        kind.tolerations = &part.tolerations;
        kind.amount.assign(m_resources.size(), 0.0);
        kind.nanos.assign(m_resources.size(), 0);
        for (const auto& [resource, amount] : part.perPod) {
            if (!isRequested(resource, amount)) continue;
            for (std::size_t r = 0; r < m_resources.size(); ++r) {
                if (m_resources[r].name != resource) continue;
                kind.amount[r] = static_cast<double>(amount.nanos());
                kind.nanos[r] = amount.nanos();
                kind.gpu = kind.gpu || gpus.matches(resource);
            }
        }
        // nodeplacement's default: GPU pods pack by free GPUs, CPU-only pods by free CPU.
        auto packBy = [this, &kind](auto&& matches) {
            for (std::size_t r = 0; r < m_resources.size() && !kind.packs; ++r) {
                if (kind.amount[r] <= 0 || !matches(m_resources[r].name)) continue;
                kind.packResource = r;
                kind.packs = true;
            }
        };
        packBy([&gpus](const std::string& resource) { return gpus.matches(resource); });
        packBy([](const std::string& resource) { return resource == "cpu"; });
        m_kinds.push_back(std::move(kind));
    }
    // Segments split the workers only, as KAI's PyTorchJob grouper builds worker-<i> under the
    // worker subgroup: the part named "worker", else the last part.
    m_segmentedKind = m_kinds.size() - 1;
    for (std::size_t kind = 0; kind < m_kinds.size(); ++kind)
        if (m_kinds[kind].name == "worker") m_segmentedKind = kind;
}

std::optional<DomainId> Planner::placeJob() {
    SubGroup job{"", m_request.pods, m_jobConstraint, {}};
    for (std::size_t kind = 0; kind < m_kinds.size(); ++kind) job.members.emplace_back(kind, m_kinds[kind].pods);
    Search search = subsetNodes(job, kAllNodes, m_jobScores);
    std::optional<DomainId> winner;
    for (Candidate& candidate : search.candidates) {
        if (!candidate.fits) continue;
        candidate.tried = true;
        const std::size_t mark = m_log.size();
        if (tryJobDomain(candidate.domain, candidate.outcome)) {
            winner = candidate.domain;
            break;
        }
        rollback(mark);
    }
    traceSearch(m_jobTrace, job, search);
    return winner;
}

void Planner::joinTraces(PlacementResult& result) {
    // The job's candidates first, then what its segments did, under one bound; one line for what
    // did not fit.
    result.trace = std::move(m_jobEntries);
    TraceBudget trace(&result.trace, m_traceLimit - std::min(result.trace.size(), m_traceLimit));
    for (TraceEntry& entry : m_segmentEntries) trace.add(std::move(entry));
    trace.drop(m_jobTrace.dropped() + m_segmentTrace.dropped());
    trace.finish(
        [](std::size_t dropped, std::size_t) { return std::to_string(dropped) + " more trace entries not shown"; });
}

void Planner::addNotes(PlacementResult& result, bool placed) const {
    result.notes.push_back("KAI counts Idle + Releasing resources; a snapshot has nothing releasing, so free = "
                           "allocatable - requested. NotReady, cordoned and drained nodes add nothing.");
    result.notes.push_back("Nodes with equal scores are taken by name; KAI takes them in random order.");
    if (const std::size_t outside = m_cluster.state().presentNodeCount() - m_treeNodes; outside > 0)
        result.notes.push_back(std::to_string(outside) +
                               " node(s) lack a topology level label and are outside KAI's topology tree.");
    if (!placed && m_outsideQuirk)
        result.notes.push_back("KAI counts free resources only under the search root (the lowest common domain of "
                               "the nodes), so candidate domains above it never fit.");
    if (m_droppedErrors > 0) result.notes.push_back(std::to_string(m_droppedErrors) + " more fit errors not shown.");
}

PlacementResult Planner::run() {
    PlacementResult result;
    result.engine = "kai";
    if (!readRequest(result)) return result;
    setUpKinds();

    m_inTree.assign(m_index.domainSlots(), 0);
    m_children.assign(m_index.domainSlots(), {});
    buildTree(kRootDomain);
    m_pods.assign(m_index.domainSlots(), 0);
    m_free.assign(m_index.domainSlots() * m_resources.size(), 0);
    m_stamp.assign(m_index.domainSlots(), 0);
    measureNodes();

    const std::optional<DomainId> winner = placeJob();
    const bool placed = winner.has_value();
    result.feasible = placed;
    if (placed) {
        fillResult(result, *winner);
        // KAI reports nothing when a job is allocated; this line is ours.
        std::string where;
        for (const ChosenDomain& chosen : result.chosen) where = chosen.level + ' ' + chosen.domain;
        result.message = "would allocate " + std::to_string(m_request.pods) + " pod(s)" +
                         (where.empty() ? std::string() : " in " + where);
    } else {
        result.message = fitErrorText();
    }
    joinTraces(result);
    addNotes(result, placed);
    return result;
}

} // namespace

std::string_view KaiEngine::description() const {
    return "KAI-Scheduler topology plugin: the lowest domain that fits, least free first; segments";
}

std::string KaiEngine::unavailableReason(const PlacementCluster& cluster, const GangRequest&) const {
    if (cluster.spec().levels.empty()) return "the cluster has no topology levels; KAI needs a Topology";
    return {};
}

PlacementResult KaiEngine::place(const PlacementCluster& cluster, const GangRequest& request,
                                 const EngineOptions& options) const {
    return Planner(cluster, request, options).run();
}

const PlacementEngine& kaiEngine() {
    static const KaiEngine engine;
    return engine;
}

} // namespace topodeck
