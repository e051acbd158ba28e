#include "core/placement/engines/volcano_engine.h"

#include "core/placement/engines/node_filter.h"
#include "core/placement/engines/trace_budget.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

namespace topodeck {
namespace {

using Id = HyperNodeTree::Id;

// kube-scheduler's MaxNodeScore: Volcano scales every node and HyperNode score to it.
constexpr double kMaxNodeScore = 100.0;
// hypernode.binpack.normal-pod.fading, Volcano's default.
constexpr double kNormalPodFading = 0.8;
constexpr std::string_view kUnschedulableTaint = "node.kubernetes.io/unschedulable";

bool sameScore(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

std::string formatScore(double score) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", score);
    return text;
}

std::string quantityText(__int128 nanos) {
    return Quantity::fromNanos(nanos).toString();
}

enum class Predicate : std::uint8_t { Pass, Unschedulable, Selector, Taint };

// A node in Volcano's session: present and Ready (the scheduler's snapshot drops NotReady
// nodes, so they are not even counted in "0/N nodes"). Cordoned and drained nodes stay in and
// fail the NodeUnschedulable predicate.
struct SessionNode {
    NodeId id = 0;
    std::uint32_t rank = 0;       // natural name order, the tie-break wherever Volcano picks at random
    std::int64_t resourceFit = 0; // pods of the gang's shape the free resources hold
    std::int64_t slots = 0;       // free pod slots
    Predicate predicate = Predicate::Pass;
    std::uint32_t taint = 0; // the untolerated taint, for Predicate::Taint
    std::int64_t capacity() const { return predicate == Predicate::Pass ? std::min(resourceFit, slots) : 0; }
};

struct RequestedResource {
    std::string name;
    __int128 perPod = 0; // nanos
};

struct WeightedResource {
    std::string name;
    double weight = 0;
    double perPod = 0;
    std::size_t requested = 0; // its index among the requested resources
};

// One kind of pod: a task of a Volcano Job (a part of the gang), or every pod when they are alike.
struct PartShape {
    std::string name;
    std::int32_t pods = 0;
    std::vector<__int128> perPod;       // by requested resource; 0 where this part requests none
    std::vector<double> weightedPerPod; // by weighted resource
    double weightSum = 0;               // the weights of the weighted resources this part requests
    const std::vector<std::pair<std::string, std::string>>* nodeSelector = nullptr;
    const std::vector<Toleration>* tolerations = nullptr;
    bool bestEffort = false; // requests nothing: the allocate action skips it
};

// Consecutive pods of one part, in Volcano's task order.
struct Run {
    std::uint32_t part = 0;
    std::int64_t pods = 0;
};

// A job's or partition's networkTopology after Volcano's session normalisation.
struct TierLimit {
    bool present = false; // networkTopology is set: the network-topology-aware node score applies
    bool hard = false;    // a tier limit applies (hard, or soft converted to hard)
    std::int32_t tier = 0;
};

// Volcano's subJob: a partition, or the job's default subJob when it has none.
struct SubJob {
    std::int32_t pods = 0;
    TierLimit limit;
    bool ownGradient = false;         // a partition with a hard limit searches HyperNodes inside the job's
    std::vector<std::int64_t> demand; // its pods per part
    std::vector<Run> runs;            // its pods in task order
    bool partition = false;
    // One pod of the default subJob of a job that also has partitions: that subJob's minAvailable
    // is 1, so Volcano places its pods one per round, each round searching from the HyperNode the
    // subJob already holds and scoring HyperNodes by all its pods.
    bool defaultPass = false;
    bool afterReady = false; // one pod of a ready job's default subJob, beyond minAvailable
};

// What the default subJob's rounds share within one trial of the job.
struct DefaultRounds {
    Id allocated = HyperNodeTree::kNone;
    std::vector<std::int64_t> pending; // its pods not placed yet, per part
    std::vector<std::int64_t> all;     // all its pods, per part: the HyperNode score's request
    std::int64_t pods = 0;
    bool failed = false; // a round found no room: the subJob is not pushed back
};

struct Placement {
    std::uint32_t node = 0; // session index
    std::int64_t pods = 0;
    std::uint32_t part = 0;
};

// One try of a subJob's tasks in one HyperNode.
struct Attempt {
    bool ok = false;
    std::vector<Placement> placements;
    std::string failure; // the FitError of the task that found no node
    std::vector<Run> rest; // with a gang minimum: the pods not tried once the subJob was ready
};

// The job's minAvailable and its tasks' (the PodGroup's minMember and minTaskMember), when some
// pods may stay pending. Volcano's readiness: JobInfo.IsReady and CheckTaskReady, the latter only
// when the job's minimum covers the tasks' (MinAvailable >= TaskMinAvailableTotal).
struct GangMinimum {
    bool active = false;
    std::int64_t job = 0;
    std::int64_t total = 0;          // the job's pods
    std::vector<std::int64_t> task;  // by part
    std::vector<std::int64_t> pods;  // by part: its pods
    std::vector<char> bestEffort;    // by part: never allocated, counted ready
    bool roles = false;
};

// A subJob's allocation under a gang minimum (allocateResourcesForTasks): pods per part so far,
// the parts whose pod found no node (TaskHasFitErrors skips the rest of them), and whether it
// stops at readiness (SubJobReady) or goes on with every pod left.
struct GangProgress {
    std::vector<std::int64_t> placed;
    std::vector<char> failed;
    bool stopAtReady = true;
    std::int64_t placedTotal() const {
        std::int64_t total = 0;
        for (std::int64_t pods : placed) total += pods;
        return total;
    }
};

struct SubJobOutcome {
    bool ok = false;
    Id hyperNode = HyperNodeTree::kNone;
    double score = 0;
    std::size_t tied = 0; // other HyperNodes with the same best score
    std::vector<Placement> placements;
    std::string failure;
    std::vector<Run> rest; // with a gang minimum: its pods for later rounds
};

struct JobTrial {
    bool ready = false;
    double score = 0;
    std::size_t placedSubJobs = 0;
    std::size_t tiedSubJobs = 0;
    std::vector<Placement> placements;
    std::vector<Id> subJobHyperNodes;
    std::size_t nextSubJob = 0; // the first subJob the trial did not get to
    std::string failure;
    std::vector<Run> rest; // with a gang minimum: the pods left for rounds after the job is ready
};

// Per tier of a gradient: how many HyperNodes the search saw and how many had the idle resources.
struct TierCount {
    std::int32_t tier = 0;
    std::size_t seen = 0;
    std::size_t eligible = 0;
};

struct Gradient {
    std::vector<std::vector<Id>> tiers; // eligible HyperNodes, tiers ascending, names ascending
    std::vector<TierCount> counts;      // every tier within the limit
    bool beyondLimit = false;           // HyperNodes above the limit were passed over
};

// The session nodes of one lowest HyperNode that can take a run of tasks, best binpack score first:
// placeTasks fills them in this order, so a group only needs a cursor.
struct NodeGroup {
    Id leaf = HyperNodeTree::kNone;
    std::vector<std::pair<double, std::uint32_t>> nodes; // (binpack score, session node)
    std::size_t cursor = 0;
    std::int64_t pods = 0; // the subJob's tasks placed in the leaf
    double topology = 0;
    std::vector<Id> byTier; // the node's HyperNode at each tier from minTier, for normal pods
    bool exhausted() const { return cursor >= nodes.size(); }
};

// How placeTasks adds topology to a node's binpack score: the network-topology-aware LCA-tier score
// when the job has a networkTopology, else the normal-pod score, the binpack scores of the node's
// HyperNodes faded by tier.
struct GroupScoring {
    bool topologyScore = false;
    std::int32_t minTier = 0;
    std::vector<double> fading; // by tier from minTier: fading^(tier-1)
    double fadingSum = 0;
    std::vector<double> cached; // normal pods: by HyperNode, its binpack score for one pod of the run
};

class Planner {
public:
    Planner(const PlacementCluster& cluster, const GangRequest& request, const EngineOptions& options,
            const HyperNodeTree& tree, bool derived, PlacementResult& result)
        : m_cluster(cluster), m_request(request), m_options(options), m_tree(tree), m_derived(derived),
          m_result(result), m_trace(&result.trace, options.maxTraceEntries) {}

    void run();

private:
    void setUpResources();
    void readNode(NodeId id, __int128* free, __int128* allocatable, std::int64_t& slots) const;
    void setUpSession();
    void setUpHyperNodes();
    TierLimit normalise(const std::optional<VolcanoTopology>& topology, const char* what, const TierLimit* job);
    std::optional<std::int32_t> tierForName(const std::string& name) const;

    Gradient gradient(Id root, std::int32_t limit, const std::vector<std::int64_t>& demand,
                      bool prefilter = true) const;
    bool eligible(Id hyperNode, const std::vector<std::int64_t>& demand) const;
    std::string demandText(const std::vector<std::int64_t>& demand) const;

    JobTrial tryJob(Id hyperNode, const std::vector<SubJob>& subJobs, const std::vector<std::int64_t>& need);
    SubJobOutcome trySubJob(Id jobHyperNode, const SubJob& subJob, DefaultRounds* rounds = nullptr);
    Attempt placeTasks(Id hyperNode, const std::vector<Run>& runs, std::int64_t pods, bool topologyScore,
                       Id allocated = HyperNodeTree::kNone, GangProgress* progress = nullptr);
    void setUpMinimum(std::vector<std::int64_t>& need);
    bool minimumReady(const std::vector<std::int64_t>& placed) const;
    bool continueAllocating(const GangProgress& progress) const;
    std::int64_t podsToReady(const GangProgress& progress, std::uint32_t part) const;
    void placePlainMinimum(const SubJob& subJob);
    std::vector<SubJob> onePodSubJobs(const std::vector<Run>& rest, const TierLimit& job) const;
    std::string minimumText() const;
    std::vector<NodeGroup> groupNodes(const std::vector<std::uint32_t>& members, std::uint32_t part,
                                      const GroupScoring& scoring, Id allocated,
                                      const std::vector<std::int64_t>& leafPods) const;
    double normalPodScore(const NodeGroup& group, const GroupScoring& scoring) const;
    // The group whose next node scores best (ties to the first by name); nullptr when all are full.
    NodeGroup* bestGroup(std::vector<NodeGroup>& groups, const GroupScoring& scoring, Id allocated,
                         std::int64_t pods) const;
    std::string fitError(Id hyperNode, std::uint32_t part) const;
    void nodeReasons(std::uint32_t s, std::uint32_t part, std::int64_t fill, std::map<std::string, int>& reasons) const;
    std::int64_t room(std::uint32_t s, std::uint32_t part) const;
    Predicate predicateOf(std::uint32_t s, std::uint32_t part) const;
    Id searchRoot(Id jobHyperNode, std::int32_t limit, Id allocated) const;
    std::vector<std::int64_t> unit(std::uint32_t part) const;

    void apply(const std::vector<Placement>& placements, int sign);
    void applyOne(std::uint32_t s, std::uint32_t part, std::int64_t pods, int sign);
    double nodeBinpack(std::uint32_t s, std::uint32_t part) const;
    double hyperNodeBinpack(Id hyperNode, const std::vector<std::int64_t>& demand) const;
    double tierScore(std::int32_t tier) const;

    void setUpParts(const TierLimit& job, std::vector<SubJob>& subJobs, std::vector<std::int64_t>& need);
    void placeJob(const TierLimit& job, const std::vector<SubJob>& subJobs, const std::vector<std::int64_t>& need);
    void traceJobGradient(const TierLimit& job, const Gradient& jobGradient, const std::vector<std::int64_t>& need);
    std::string readyTrialText(const JobTrial& trial, std::size_t partitions) const;
    // Marks the best trial's trace line taken and says how the other ready ones compare to it.
    void rankTrialsInTrace(const std::vector<JobTrial>& trials, std::size_t best, std::size_t tied,
                           const std::vector<std::size_t>& traceOf, std::size_t traceStart);
    // Takes the chosen HyperNode's trial, places the partitions left over and reports them.
    void commitTrial(Id chosen, const JobTrial& trial, const TierLimit& job, const std::vector<SubJob>& subJobs);
    void placeRemaining(Id allocated, const TierLimit& job, const std::vector<SubJob>& rest,
                        const char* unit = "partition", const char* beyond = "minPartitions");
    void placePlain(const SubJob& subJob);
    void fail(const std::string& failure, std::int64_t minAvailable);
    void report(const std::vector<Placement>& placements);
    void reportParts();
    std::string tierLabel(std::int32_t tier) const { return m_tree.tierLabel(tier); }
    const HyperNodeTree::Entry& entry(Id id) const { return m_tree.entries[static_cast<std::size_t>(id)]; }

    const PlacementCluster& m_cluster;
    const GangRequest& m_request;
    const EngineOptions& m_options;
    const HyperNodeTree& m_tree;
    bool m_derived;
    PlacementResult& m_result;

    std::vector<RequestedResource> m_resources;              // cpu, memory, then the rest by name
    std::vector<PlacementCluster::FreeColumn> m_freeColumns; // by requested resource
    std::vector<WeightedResource> m_weighted;
    double m_weightSum = 0;

    std::vector<GangPart> m_gangParts; // the request's parts, or the whole gang as one
    std::vector<PartShape> m_parts;
    bool m_mixed = false;                   // the gang's pods are not all alike
    std::vector<Predicate> m_partPredicate; // mixed only: by session node x part
    std::vector<std::uint32_t> m_partTaint; // mixed only: by session node x part
    std::vector<std::int64_t> m_placedPart; // mixed only: by session node x part, the current trial

    std::vector<SessionNode> m_session;
    std::vector<std::int32_t> m_sessionOf;                      // by NodeId, -1 outside the session
    std::vector<std::vector<std::uint32_t>> m_hyperNodeSession; // by HyperNode: its session nodes
    std::vector<__int128> m_idle;                               // by HyperNode x requested resource
    std::vector<double> m_allocatable;                          // by HyperNode x weighted resource
    std::vector<double> m_used;            // by HyperNode x weighted resource, the gang's trial included
    std::vector<__int128> m_nodeIdle;      // by session node x requested resource: free, before the gang
    std::vector<double> m_nodeAllocatable; // by session node x weighted resource
    std::vector<double> m_nodeUsed;        // by session node x weighted resource, before the gang
    std::vector<std::int64_t> m_placed;    // by session node: the gang's pods in the current trial
    GangMinimum m_min;

    TraceBudget m_trace;
};

std::optional<std::int32_t> Planner::tierForName(const std::string& name) const {
    // Volcano's HyperNodeTierNameMap: the tier of the HyperNodes carrying this tierName.
    for (std::size_t i = 0; i + 1 < m_tree.entries.size(); ++i)
        if (m_tree.entries[i].tierName == name) return m_tree.entries[i].tier;
    if (m_derived) {
        // Derived HyperNodes carry the level's short name; the level's label key means the same.
        const int level = m_cluster.spec().levelIndex(name);
        if (level >= 0)
            for (std::size_t i = 0; i + 1 < m_tree.entries.size(); ++i)
                if (m_tree.entries[i].tierName == m_cluster.spec().levels[static_cast<std::size_t>(level)].name)
                    return m_tree.entries[i].tier;
    } else if (m_request.source == "flags") {
        // --required/--preferred name a level as topodeck shows the HyperNode tree: an unnamed
        // tier is "tier-N". A manifest's highestTierName keeps Volcano's own meaning.
        for (std::int32_t tier : m_tree.tiers)
            if (m_tree.tierLabel(tier) == name) return tier;
    }
    return std::nullopt;
}

TierLimit Planner::normalise(const std::optional<VolcanoTopology>& topology, const char* what, const TierLimit* job) {
    TierLimit limit;
    if (!topology) return limit;
    limit.present = true;
    const std::int32_t topTier = entry(m_tree.top).tier;
    if (!topology->hard) {
        // Volcano's session turns soft into hard: a job may go up to the cluster-top tier, a
        // partition up to its job's limit.
        limit.hard = true;
        limit.tier = job && job->hard ? job->tier : topTier;
        m_result.notes.push_back(std::string(what) + " networkTopology mode soft: Volcano converts it to hard with " +
                                 "highestTierAllowed " + std::to_string(limit.tier) +
                                 (limit.tier == topTier ? " (the cluster-top tier)" : "") +
                                 ", so it takes the lowest tier that fits");
        return limit;
    }
    if (topology->highestTierAllowed) {
        limit.hard = true;
        limit.tier = *topology->highestTierAllowed;
        return limit;
    }
    if (topology->highestTierName.empty()) {
        m_result.notes.push_back(std::string(what) +
                                 " networkTopology is hard but names no tier: Volcano applies no tier limit");
        return limit;
    }
    if (const std::optional<std::int32_t> tier = tierForName(topology->highestTierName)) {
        limit.hard = true;
        limit.tier = *tier;
        return limit;
    }
    m_result.notes.push_back(std::string(what) + " highestTierName \"" + topology->highestTierName +
                             "\" is no HyperNode's tierName: Volcano logs a warning and applies no tier limit");
    return limit;
}

void Planner::setUpResources() {
    m_gangParts = m_request.partsOrWhole();
    m_mixed = m_gangParts.size() > 1;
    // The resources any part requests; a uniform gang's are its pods' own.
    for (const GangPart& part : m_gangParts)
        for (const auto& [name, amount] : part.perPod) {
            if (amount.nanos() <= 0 || name == "pods") continue;
            // An init-capture: clang 14 cannot capture a structured binding itself.
            if (std::none_of(m_resources.begin(), m_resources.end(),
                             [&name = name](const RequestedResource& r) { return r.name == name; }))
                m_resources.push_back({name, m_mixed ? 0 : amount.nanos()});
        }
    // Volcano's LessEqualWithResourcesName checks cpu, then memory, then the others.
    const auto order = [](const std::string& name) { return name == "cpu" ? 0 : name == "memory" ? 1 : 2; };
    std::stable_sort(
        m_resources.begin(), m_resources.end(), [&](const RequestedResource& a, const RequestedResource& b) {
            return order(a.name) < order(b.name) || (order(a.name) == order(b.name) && m_mixed && a.name < b.name);
        });
    for (const RequestedResource& resource : m_resources) m_freeColumns.push_back(m_cluster.freeColumn(resource.name));

    // hypernode.binpack.*: cpu and memory weigh 1 unless set; other resources only when listed.
    // Without a configuration, topodeck lists the GPU resources a GPU cluster's config would.
    std::vector<std::pair<std::string, double>> weights = {{"cpu", 1.0}, {"memory", 1.0}};
    bool assumedGpus = false;
    if (m_options.volcanoBinpackWeights.empty()) {
        const GpuResources& gpus = m_cluster.index().gpuResources();
        for (const RequestedResource& resource : m_resources) {
            if (!gpus.matches(resource.name)) continue;
            weights.emplace_back(resource.name, 1.0);
            assumedGpus = true;
        }
    } else {
        for (const auto& [name, weight] : m_options.volcanoBinpackWeights) {
            const auto it =
                std::find_if(weights.begin(), weights.end(), [&name = name](const auto& w) { return w.first == name; });
            if (it != weights.end())
                it->second = weight;
            else
                weights.emplace_back(name, weight);
        }
    }
    std::string listed;
    for (const RequestedResource& resource : m_resources) {
        const auto it =
            std::find_if(weights.begin(), weights.end(), [&](const auto& w) { return w.first == resource.name; });
        if (it == weights.end() || it->second <= 0) continue;
        const auto requested = static_cast<std::size_t>(&resource - m_resources.data());
        m_weighted.push_back({resource.name, it->second, static_cast<double>(resource.perPod), requested});
        m_weightSum += it->second;
        listed += (listed.empty() ? "" : ", ") + resource.name + "=" + formatScore(it->second);
    }
    for (const GangPart& part : m_gangParts) {
        PartShape shape;
        shape.name = part.name;
        shape.pods = part.pods;
        for (const RequestedResource& resource : m_resources)
            shape.perPod.push_back(std::max<__int128>(part.perPod.get(resource.name).nanos(), 0));
        for (const WeightedResource& resource : m_weighted) {
            const __int128 perPod = shape.perPod[resource.requested];
            shape.weightedPerPod.push_back(static_cast<double>(perPod));
            if (perPod > 0) shape.weightSum += resource.weight;
        }
        shape.nodeSelector = &part.nodeSelector;
        shape.tolerations = &part.tolerations;
        shape.bestEffort = std::all_of(shape.perPod.begin(), shape.perPod.end(), [](__int128 v) { return v <= 0; });
        m_parts.push_back(std::move(shape));
    }
    if (!m_mixed) {
        m_parts.front().weightSum = m_weightSum;
        for (std::size_t r = 0; r < m_resources.size(); ++r) m_resources[r].perPod = m_parts.front().perPod[r];
    }
    if (assumedGpus)
        m_result.notes.push_back("binpack weights " + listed +
                                 ": Volcano weighs cpu and memory by default and other resources only when "
                                 "hypernode.binpack.resources lists them; topodeck assumes GPU resources are listed");
    if (m_weighted.empty())
        m_result.notes.push_back("no requested resource has a binpack weight, so every HyperNode and node scores 0 "
                                 "for binpack and ties are broken at random");
}

void Planner::readNode(NodeId id, __int128* free, __int128* allocatable, std::int64_t& slots) const {
    const std::size_t count = m_resources.size();
    if (m_cluster.freeChanged(id)) {
        const Node& node = m_cluster.node(id);
        for (std::size_t r = 0; r < count; ++r) {
            free[r] = m_freeColumns[r].nanos(id);
            allocatable[r] = node.allocatable.get(m_resources[r].name).nanos();
        }
        slots = m_cluster.freePodSlots(id);
        return;
    }
    // Without what-if pods (assumed or released), free is allocatable - requested: one pass over
    // each list gives both. At cluster size these reads are most of the engine's time.
    const auto indexOf = [&](const std::string& name) {
        for (std::size_t r = 0; r < count; ++r)
            if (m_resources[r].name == name) return static_cast<int>(r);
        return -1;
    };
    const NodeRecord& record = m_cluster.state().record(id);
    std::fill_n(allocatable, count, __int128{0});
    std::int64_t podSlots = 0;
    for (const auto& [name, amount] : record.node->allocatable) {
        if (name == "pods")
            podSlots = amount.value();
        else if (const int r = indexOf(name); r >= 0)
            allocatable[r] = amount.nanos();
    }
    std::copy_n(allocatable, count, free);
    for (const auto& [name, amount] : record.usage.requested)
        if (const int r = indexOf(name); r >= 0) free[r] -= amount.nanos();
    slots = std::max<std::int64_t>(podSlots - record.usage.pods, 0);
    // A column no node list holds (DRA's pods the node's devices serve) is read where it is.
    for (std::size_t r = 0; r < count; ++r)
        if (m_freeColumns[r].standsAlone()) free[r] = allocatable[r] = m_freeColumns[r].nanos(id);
}

void Planner::setUpSession() {
    const std::vector<NodeId>& order = m_cluster.nodesInOrder();
    const ClusterState& state = m_cluster.state();
    const auto nodeSlots = static_cast<NodeId>(m_cluster.nodeSlots());
    std::vector<std::uint32_t> rank(nodeSlots, 0);
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<std::uint32_t>(i);
    m_sessionOf.assign(nodeSlots, -1);
    m_session.reserve(order.size());
    const Taint unschedulableTaint{std::string(kUnschedulableTaint), "", "NoSchedule"};
    // kube-scheduler's filters as Volcano's predicates plugin runs them: NodeUnschedulable,
    // NodeAffinity (nodeSelector), TaintToleration; the first that fails decides.
    const auto predicate = [&](NodeId id, const Node& node, const PartShape& part, std::uint32_t& taintIndex) {
        if ((node.unschedulable || m_cluster.drained(id)) && !toleratedBy(*part.tolerations, unschedulableTaint))
            return Predicate::Unschedulable;
        const NodeFilterVerdict verdict =
            filterNode(node, *part.nodeSelector, *part.tolerations, FilterOrder::SelectorFirst);
        switch (verdict.failed) {
        case NodeFilterVerdict::Failed::Nothing:
            return Predicate::Pass;
        case NodeFilterVerdict::Failed::NodeSelector:
            return Predicate::Selector;
        case NodeFilterVerdict::Failed::Taint:
            taintIndex = verdict.taint;
            return Predicate::Taint;
        }
        return Predicate::Pass;
    };
    const std::size_t count = m_resources.size();
    m_nodeIdle.reserve(order.size() * count);
    m_nodeAllocatable.reserve(order.size() * m_weighted.size());
    m_nodeUsed.reserve(order.size() * m_weighted.size());
    std::vector<__int128> free(count);
    std::vector<__int128> allocatable(count);
    // Nodes in id order (memory order), their objects and lists fetched a few nodes ahead: the
    // reads wait on memory, and this overlaps the waits.
    constexpr NodeId kAhead = 8;
    for (NodeId id = 0; id < nodeSlots; ++id) {
        if (id + 2 * kAhead < nodeSlots && state.record(id + 2 * kAhead).present)
            __builtin_prefetch(state.record(id + 2 * kAhead).node.get());
        if (id + kAhead < nodeSlots && state.record(id + kAhead).present) {
            const NodeRecord& ahead = state.record(id + kAhead);
            __builtin_prefetch(ahead.node->allocatable.entries().data());
            __builtin_prefetch(ahead.usage.requested.entries().data());
        }
        if (!state.record(id).present) continue;
        const Node& node = m_cluster.node(id);
        if (!node.ready) continue;
        SessionNode session;
        session.id = id;
        session.rank = rank[id];
        readNode(id, free.data(), allocatable.data(), session.slots);
        // podsThatFit(id, perPod, false): the fewest pods any requested resource allows.
        // A mixed gang's room on a node is counted per part as it fills (room()).
        session.resourceFit = std::numeric_limits<std::int64_t>::max();
        for (std::size_t r = 0; r < count; ++r) {
            m_nodeIdle.push_back(free[r]);
            if (m_mixed) continue;
            session.resourceFit = free[r] <= 0 ? 0
                                               : static_cast<std::int64_t>(std::min<__int128>(
                                                     free[r] / m_resources[r].perPod, session.resourceFit));
        }
        session.predicate = predicate(id, node, m_parts.front(), session.taint);
        if (m_mixed)
            for (const PartShape& part : m_parts) {
                std::uint32_t taint = 0;
                m_partPredicate.push_back(predicate(id, node, part, taint));
                m_partTaint.push_back(taint);
            }
        m_sessionOf[id] = static_cast<std::int32_t>(m_session.size());
        m_session.push_back(session);
        for (const WeightedResource& resource : m_weighted) {
            m_nodeAllocatable.push_back(static_cast<double>(allocatable[resource.requested]));
            m_nodeUsed.push_back(static_cast<double>(allocatable[resource.requested] - free[resource.requested]));
        }
    }
    m_placed.assign(m_session.size(), 0);
    if (m_mixed) m_placedPart.assign(m_session.size() * m_parts.size(), 0);
}

void Planner::setUpHyperNodes() {
    const std::size_t count = m_tree.entries.size();
    const std::size_t resources = m_resources.size();
    const std::size_t weighted = m_weighted.size();
    m_hyperNodeSession.resize(count);
    m_idle.assign(count * resources, 0);
    m_allocatable.assign(count * weighted, 0);
    m_used.assign(count * weighted, 0);
    for (std::size_t h = 0; h < count; ++h) {
        std::vector<std::uint32_t>& members = m_hyperNodeSession[h];
        for (std::uint32_t node : m_tree.entries[h].nodes) {
            const std::int32_t s = node < m_sessionOf.size() ? m_sessionOf[node] : -1;
            if (s < 0) continue;
            members.push_back(static_cast<std::uint32_t>(s));
            for (std::size_t r = 0; r < resources; ++r)
                m_idle[h * resources + r] += m_nodeIdle[static_cast<std::size_t>(s) * resources + r];
            for (std::size_t w = 0; w < weighted; ++w) {
                m_allocatable[h * weighted + w] += m_nodeAllocatable[static_cast<std::size_t>(s) * weighted + w];
                m_used[h * weighted + w] += m_nodeUsed[static_cast<std::size_t>(s) * weighted + w];
            }
        }
    }
}

// Pods per part times each part's request, per requested resource.
__int128 demandOf(const std::vector<PartShape>& parts, const std::vector<std::int64_t>& demand, std::size_t r) {
    __int128 total = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) total += parts[p].perPod[r] * demand[p];
    return total;
}

bool Planner::eligible(Id hyperNode, const std::vector<std::int64_t>& demand) const {
    // The gradient's pre-filter: the job's (or subJob's) minimum resources within the
    // HyperNode's aggregate idle.
    const std::size_t resources = m_resources.size();
    for (std::size_t r = 0; r < resources; ++r)
        if (demandOf(m_parts, demand, r) > m_idle[static_cast<std::size_t>(hyperNode) * resources + r]) return false;
    return true;
}

std::string Planner::demandText(const std::vector<std::int64_t>& demand) const {
    std::string text;
    for (std::size_t r = 0; r < m_resources.size(); ++r)
        text += (text.empty() ? "" : ", ") + m_resources[r].name + "=" + quantityText(demandOf(m_parts, demand, r));
    return text;
}

std::vector<std::int64_t> Planner::unit(std::uint32_t part) const {
    std::vector<std::int64_t> demand(m_parts.size(), 0);
    demand[part] = 1;
    return demand;
}

Predicate Planner::predicateOf(std::uint32_t s, std::uint32_t part) const {
    return m_mixed ? m_partPredicate[s * m_parts.size() + part] : m_session[s].predicate;
}

std::int64_t Planner::room(std::uint32_t s, std::uint32_t part) const {
    // Pods of this part the node still takes, the gang's pods of every part already there counted.
    if (!m_mixed) return std::max<std::int64_t>(m_session[s].capacity() - m_placed[s], 0);
    const std::size_t parts = m_parts.size();
    if (m_partPredicate[s * parts + part] != Predicate::Pass) return 0;
    __int128 fit = std::max<std::int64_t>(m_session[s].slots - m_placed[s], 0);
    const std::size_t resources = m_resources.size();
    for (std::size_t r = 0; r < resources; ++r) {
        const __int128 need = m_parts[part].perPod[r];
        if (need <= 0) continue;
        __int128 free = m_nodeIdle[s * resources + r];
        for (std::size_t q = 0; q < parts; ++q) free -= m_parts[q].perPod[r] * m_placedPart[s * parts + q];
        if (free < need) return 0;
        fit = std::min(fit, free / need);
    }
    return static_cast<std::int64_t>(fit);
}

Id Planner::searchRoot(Id jobHyperNode, std::int32_t limit, Id allocated) const {
    // getSearchRoot: the highest HyperNode within the limit above what the subJob holds,
    // intersected with the job's HyperNode.
    Id highest = allocated;
    while (entry(highest).parent != HyperNodeTree::kNone && entry(entry(highest).parent).tier <= limit)
        highest = entry(highest).parent;
    return m_tree.lca(jobHyperNode, highest) == jobHyperNode ? highest : jobHyperNode;
}

Gradient Planner::gradient(Id root, std::int32_t limit, const std::vector<std::int64_t>& demand, bool prefilter) const {
    Gradient out;
    std::map<std::int32_t, TierCount> counts;
    std::map<std::int32_t, std::vector<Id>> byTier;
    std::vector<Id> queue{root};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const Id id = queue[i];
        const HyperNodeTree::Entry& hn = entry(id);
        if (hn.tier <= limit) {
            TierCount& count = counts[hn.tier];
            count.tier = hn.tier;
            ++count.seen;
            if (!prefilter || eligible(id, demand)) {
                ++count.eligible;
                byTier[hn.tier].push_back(id);
            }
        } else {
            out.beyondLimit = true;
        }
        queue.insert(queue.end(), hn.children.begin(), hn.children.end());
    }
    for (auto& [tier, ids] : byTier) {
        // Entries are in name order, so ids sort as Volcano's names do.
        std::sort(ids.begin(), ids.end());
        out.tiers.push_back(std::move(ids));
    }
    for (const auto& [tier, count] : counts) out.counts.push_back(count);
    return out;
}

double Planner::tierScore(std::int32_t tier) const {
    // network-topology-aware: (maxTier - tier) / (maxTier - minTier), over the session's tiers.
    const std::int32_t minTier = m_tree.tiers.front();
    const std::int32_t maxTier = m_tree.tiers.back();
    if (minTier == maxTier) return 0;
    return std::clamp(double(maxTier - tier) / double(maxTier - minTier), 0.0, 1.0);
}

double Planner::nodeBinpack(std::uint32_t s, std::uint32_t part) const {
    // The binpack plugin: sum over the weighted resources the pod requests of weight x (used +
    // request) / allocatable, over their weights; the gang's pods already on the node count as used.
    const PartShape& shape = m_parts[part];
    if (shape.weightSum <= 0) return 0;
    const std::size_t weighted = m_weighted.size();
    const std::size_t parts = m_parts.size();
    double score = 0;
    for (std::size_t w = 0; w < weighted; ++w) {
        const double allocatable = m_nodeAllocatable[s * weighted + w];
        double used = 0;
        if (!m_mixed) {
            used = m_nodeUsed[s * weighted + w] + double(m_placed[s] + 1) * m_weighted[w].perPod;
        } else {
            if (shape.weightedPerPod[w] <= 0) continue;
            double gang = shape.weightedPerPod[w];
            for (std::size_t q = 0; q < parts; ++q)
                gang += double(m_placedPart[s * parts + q]) * m_parts[q].weightedPerPod[w];
            used = m_nodeUsed[s * weighted + w] + gang;
        }
        if (allocatable <= 0 || used > allocatable) return 0;
        score += m_weighted[w].weight * used / allocatable;
    }
    return score / shape.weightSum;
}

double Planner::hyperNodeBinpack(Id hyperNode, const std::vector<std::int64_t>& demand) const {
    // The plugin's HyperNode score: as the node one, over the HyperNode's aggregate, for the
    // tasks' summed request (the weighted resources they request); 0 when any would be overused.
    if (m_weightSum <= 0) return 0;
    const std::size_t weighted = m_weighted.size();
    double score = 0;
    double weights = 0;
    for (std::size_t w = 0; w < weighted; ++w) {
        double request = 0;
        for (std::size_t p = 0; p < m_parts.size(); ++p) request += double(demand[p]) * m_parts[p].weightedPerPod[w];
        if (request <= 0) continue;
        const double allocatable = m_allocatable[static_cast<std::size_t>(hyperNode) * weighted + w];
        const double used = m_used[static_cast<std::size_t>(hyperNode) * weighted + w] + request;
        if (allocatable <= 0 || used > allocatable) return 0;
        score += m_weighted[w].weight * used / allocatable;
        weights += m_weighted[w].weight;
    }
    if (!m_mixed) return score / m_weightSum;
    return weights > 0 ? score / weights : 0;
}

void Planner::applyOne(std::uint32_t s, std::uint32_t part, std::int64_t pods, int sign) {
    m_placed[s] += sign * pods;
    if (m_mixed) m_placedPart[s * m_parts.size() + part] += sign * pods;
    const std::size_t weighted = m_weighted.size();
    const std::vector<double>& perPod = m_parts[part].weightedPerPod;
    // Every HyperNode holding the node sees the pods as used (the plugin's AllocateFunc).
    for (Id h = m_tree.leafOf[m_session[s].id]; h != HyperNodeTree::kNone; h = entry(h).parent)
        for (std::size_t w = 0; w < weighted; ++w)
            m_used[static_cast<std::size_t>(h) * weighted + w] += double(sign * pods) * perPod[w];
}

void Planner::apply(const std::vector<Placement>& placements, int sign) {
    for (const Placement& placement : placements) applyOne(placement.node, placement.part, placement.pods, sign);
}

void Planner::nodeReasons(std::uint32_t s, std::uint32_t part, std::int64_t fill,
                          std::map<std::string, int>& reasons) const {
    // As if `fill` more pods of this part were on the node: the state when the failing pod comes.
    const SessionNode& node = m_session[s];
    const std::int64_t gangPods = m_placed[s] + fill;
    const std::size_t parts = m_parts.size();
    // The allocate action's resource check comes first and alone: the first short resource.
    for (std::size_t r = 0; r < m_resources.size(); ++r) {
        const RequestedResource& resource = m_resources[r];
        const __int128 need = m_parts[part].perPod[r];
        __int128 free = m_nodeIdle[s * m_resources.size() + r];
        if (!m_mixed) {
            free -= resource.perPod * gangPods;
        } else {
            if (need <= 0) continue;
            free -= need * fill;
            for (std::size_t q = 0; q < parts; ++q) free -= m_parts[q].perPod[r] * m_placedPart[s * parts + q];
        }
        if (free < need) {
            // DRA's pseudo-resource is the DynamicResources filter's verdict, in its words.
            ++reasons[isDraPodsResource(resource.name) ? std::string("cannot allocate all claims")
                                                       : "Insufficient " + resource.name];
            return;
        }
    }
    // Then the predicates plugin: the pod count is noted and the filters still run.
    if (node.slots - gangPods <= 0) ++reasons["node(s) pod number exceeded"];
    switch (predicateOf(s, part)) {
    case Predicate::Pass:
        break;
    case Predicate::Unschedulable:
        ++reasons["node(s) were unschedulable"];
        break;
    case Predicate::Selector:
        ++reasons["node(s) didn't match Pod's node affinity/selector"];
        break;
    case Predicate::Taint: {
        const Taint& taint =
            m_cluster.node(node.id).taints[m_mixed ? m_partTaint[s * m_parts.size() + part] : node.taint];
        ++reasons["node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}"];
        break;
    }
    }
}

std::string Planner::fitError(Id hyperNode, std::uint32_t part) const {
    // The task that finds no node is the one after every node has been filled: each node holds
    // what it can take, then nothing passes. Volcano's FitErrors.Error() sorts "count reason"
    // strings as text.
    const std::vector<std::uint32_t>& members = m_hyperNodeSession[static_cast<std::size_t>(hyperNode)];
    std::map<std::string, int> reasons;
    for (std::uint32_t s : members) nodeReasons(s, part, room(s, part), reasons);
    std::vector<std::string> parts;
    for (const auto& [reason, count] : reasons) parts.push_back(std::to_string(count) + " " + reason);
    std::sort(parts.begin(), parts.end());
    std::string message = "0/" + std::to_string(members.size()) + " nodes are unavailable: ";
    for (std::size_t i = 0; i < parts.size(); ++i) message += (i ? ", " : "") + parts[i];
    message += ".";
    if (hyperNode != m_tree.top) message = "In hyperNode " + entry(hyperNode).name + ": " + message;
    return message;
}

std::vector<NodeGroup> Planner::groupNodes(const std::vector<std::uint32_t>& members, std::uint32_t part,
                                           const GroupScoring& scoring, Id allocated,
                                           const std::vector<std::int64_t>& leafPods) const {
    std::vector<NodeGroup> groups;
    std::vector<std::int32_t> groupOf(m_tree.entries.size(), -1);
    for (std::uint32_t s : members) {
        if (room(s, part) <= 0) continue;
        const Id leaf = m_tree.leafOf[m_session[s].id];
        std::int32_t& group = groupOf[static_cast<std::size_t>(leaf)];
        if (group < 0) {
            group = static_cast<std::int32_t>(groups.size());
            NodeGroup added;
            added.leaf = leaf;
            if (!scoring.topologyScore) {
                added.byTier.assign(scoring.fading.size(), HyperNodeTree::kNone);
                for (Id h = leaf; h != HyperNodeTree::kNone; h = entry(h).parent)
                    added.byTier[static_cast<std::size_t>(entry(h).tier - scoring.minTier)] = h;
            }
            if (m_mixed) {
                added.pods = leafPods[static_cast<std::size_t>(leaf)];
                if (scoring.topologyScore && allocated != HyperNodeTree::kNone)
                    added.topology = leaf == allocated ? 1.0 : tierScore(entry(m_tree.lca(leaf, allocated)).tier);
            }
            groups.push_back(std::move(added));
        }
        groups[static_cast<std::size_t>(group)].nodes.emplace_back(kMaxNodeScore * nodeBinpack(s, part), s);
    }
    for (NodeGroup& group : groups)
        std::sort(group.nodes.begin(), group.nodes.end(), [&](const auto& a, const auto& b) {
            if (!sameScore(a.first, b.first)) return a.first > b.first;
            return m_session[a.second].rank < m_session[b.second].rank;
        });
    return groups;
}

double Planner::normalPodScore(const NodeGroup& group, const GroupScoring& scoring) const {
    double sum = 0;
    for (std::size_t t = 0; t < scoring.fading.size(); ++t) {
        const Id h = group.byTier[t];
        sum += scoring.fading[t] * (h == HyperNodeTree::kNone ? 1.0 : scoring.cached[static_cast<std::size_t>(h)]);
    }
    return kMaxNodeScore * sum / scoring.fadingSum;
}

NodeGroup* Planner::bestGroup(std::vector<NodeGroup>& groups, const GroupScoring& scoring, Id allocated,
                              std::int64_t pods) const {
    // The plugin splits ties by task count only when several nodes share the best LCA score.
    double maxTopology = -1;
    std::size_t atMax = 0;
    if (scoring.topologyScore && allocated != HyperNodeTree::kNone) {
        for (const NodeGroup& group : groups) {
            if (group.exhausted()) continue;
            const std::size_t left = group.nodes.size() - group.cursor;
            if (sameScore(group.topology, maxTopology)) {
                atMax += left;
            } else if (group.topology > maxTopology) {
                maxTopology = group.topology;
                atMax = left;
            }
        }
    }
    NodeGroup* best = nullptr;
    double bestScore = 0;
    std::uint32_t bestRank = 0;
    for (NodeGroup& group : groups) {
        if (group.exhausted()) continue;
        const auto& [binpack, s] = group.nodes[group.cursor];
        double score = binpack;
        if (!scoring.topologyScore) {
            score += normalPodScore(group, scoring);
        } else if (allocated != HyperNodeTree::kNone) {
            // LCA-tier score; the nodes sharing the best one split ties by the subJob's tasks
            // already in their HyperNode.
            double topology = group.topology;
            if (atMax > 1 && sameScore(topology, maxTopology)) topology += double(group.pods) / double(pods);
            score += kMaxNodeScore * topology;
        }
        const std::uint32_t rank = m_session[s].rank;
        if (!best || (score > bestScore && !sameScore(score, bestScore)) ||
            (sameScore(score, bestScore) && rank < bestRank)) {
            best = &group;
            bestScore = score;
            bestRank = rank;
        }
    }
    return best;
}

Attempt Planner::placeTasks(Id hyperNode, const std::vector<Run>& runs, std::int64_t pods, bool topologyScore,
                            Id allocated, GangProgress* progress) {
    Attempt attempt;
    const std::vector<std::uint32_t>& members = m_hyperNodeSession[static_cast<std::size_t>(hyperNode)];
    if (members.empty()) return attempt; // Volcano returns before any task: no FitError either
    if (!m_mixed && (!progress || progress->stopAtReady)) {
        std::int64_t room = 0;
        for (std::uint32_t s : members) room += this->room(s, 0);
        if (room < (progress ? m_min.job - progress->placedTotal() : pods)) {
            attempt.failure = fitError(hyperNode, 0);
            return attempt;
        }
    }

    // Tasks go one by one to the best-scoring node. A node's score only grows as it takes pods
    // and no other node's score grows more, so the best node keeps winning until it is full:
    // each step fills one node. Nodes are grouped by their lowest HyperNode, which decides the
    // topology part of the score, and ordered by their binpack score within a group. A mixed
    // gang comes as runs of alike pods; each run orders the nodes again for its own request.
    GroupScoring scoring;
    scoring.topologyScore = topologyScore;
    scoring.minTier = m_tree.tiers.front();
    const auto tierSlots = static_cast<std::size_t>(m_tree.tiers.back() - scoring.minTier + 1);
    // The normal-pod score weighs the binpack score of the node's HyperNode at each tier by
    // fading^(tier-1); a tier where the node has none scores 1. HyperNode scores are cached and
    // refreshed along the filled node's chain.
    scoring.fading.resize(tierSlots);
    for (std::size_t t = 0; t < tierSlots; ++t)
        scoring.fadingSum += scoring.fading[t] = std::pow(kNormalPodFading, scoring.minTier + int(t) - 1);
    std::vector<std::int64_t> leafPods; // a mixed gang's pods per leaf, across runs
    if (m_mixed) leafPods.assign(m_tree.entries.size(), 0);

    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        const std::uint32_t part = run.part;
        // A part whose pod found no node: Volcano skips its other pods (TaskHasFitErrors).
        if (progress && progress->failed[part]) continue;
        const std::vector<std::int64_t> one = unit(part);
        std::vector<NodeGroup> groups = groupNodes(members, part, scoring, allocated, leafPods);
        scoring.cached.clear();
        if (!topologyScore) {
            scoring.cached.assign(m_tree.entries.size(), -1);
            for (const NodeGroup& group : groups)
                for (Id h : group.byTier)
                    if (h != HyperNodeTree::kNone && scoring.cached[static_cast<std::size_t>(h)] < 0)
                        scoring.cached[static_cast<std::size_t>(h)] = hyperNodeBinpack(h, one);
        }

        // `allocated` is the subJob's allocated HyperNode: the LCA of its nodes so far.
        std::int64_t remaining = run.pods;
        while (remaining > 0) {
            if (progress && progress->stopAtReady && minimumReady(progress->placed)) {
                // SubJobReady (JobReady for a job without subgroup policies): the rest waits for
                // later rounds.
                attempt.rest.push_back({part, remaining});
                attempt.rest.insert(attempt.rest.end(), runs.begin() + static_cast<std::ptrdiff_t>(r) + 1, runs.end());
                attempt.ok = true;
                return attempt;
            }
            NodeGroup* best = bestGroup(groups, scoring, allocated, pods);
            if (!best && progress) {
                // NeedContinueAllocating: go on with the other parts, or give up.
                if (attempt.failure.empty()) attempt.failure = fitError(hyperNode, part);
                progress->failed[part] = 1;
                if (!progress->stopAtReady || continueAllocating(*progress)) break;
                apply(attempt.placements, -1); // the statement is discarded
                attempt.placements.clear();
                return attempt;
            }
            if (!best) {
                // A mixed gang's pod that no node takes: its FitError, and the trial's pods go.
                attempt.failure = fitError(hyperNode, part);
                apply(attempt.placements, -1);
                attempt.placements.clear();
                return attempt;
            }
            const std::uint32_t s = best->nodes[best->cursor++].second;
            std::int64_t take = std::min(remaining, room(s, part));
            if (progress && progress->stopAtReady) take = std::min(take, podsToReady(*progress, part));
            if (progress) progress->placed[part] += take;
            applyOne(s, part, take, +1);
            attempt.placements.push_back({s, take, part});
            remaining -= take;
            best->pods += take;
            if (m_mixed) leafPods[static_cast<std::size_t>(best->leaf)] += take;
            if (!topologyScore) {
                for (Id h : best->byTier)
                    if (h != HyperNodeTree::kNone)
                        scoring.cached[static_cast<std::size_t>(h)] = hyperNodeBinpack(h, one);
                continue;
            }
            const Id next = allocated == HyperNodeTree::kNone ? best->leaf : m_tree.lca(allocated, best->leaf);
            if (next == allocated) continue;
            allocated = next;
            for (NodeGroup& group : groups)
                group.topology =
                    group.leaf == allocated ? 1.0 : tierScore(entry(m_tree.lca(group.leaf, allocated)).tier);
        }
    }
    if (progress && progress->stopAtReady && !minimumReady(progress->placed)) {
        // Every part tried and the subJob not ready: the statement is discarded.
        apply(attempt.placements, -1);
        attempt.placements.clear();
        return attempt;
    }
    attempt.ok = true;
    return attempt;
}

SubJobOutcome Planner::trySubJob(Id jobHyperNode, const SubJob& subJob, DefaultRounds* rounds) {
    SubJobOutcome outcome;
    const bool round = subJob.defaultPass && rounds;
    if (round && rounds->failed) return outcome;
    std::vector<std::vector<Id>> tiers;
    if (round && subJob.ownGradient && rounds->allocated != HyperNodeTree::kNone)
        // Later rounds: no pre-filter, from the highest HyperNode the limit allows above the
        // subJob's, within the job's.
        tiers = gradient(searchRoot(jobHyperNode, subJob.limit.tier, rounds->allocated), subJob.limit.tier,
                         subJob.demand, false)
                    .tiers;
    else if (subJob.ownGradient)
        tiers = gradient(jobHyperNode, subJob.limit.tier, round ? rounds->pending : subJob.demand).tiers;
    else
        tiers = {{jobHyperNode}};
    // The HyperNode score sums the requests of all the subJob's tasks.
    const std::vector<std::int64_t>& scored = round ? rounds->all : subJob.demand;
    const std::int64_t subJobPods = round ? rounds->pods : subJob.pods;
    const Id allocated = round ? rounds->allocated : HyperNodeTree::kNone;
    // The default subJob of a job with a minimum below its pods stops once ready.
    const bool minimum = m_min.active && !subJob.partition && !round && !subJob.afterReady;
    for (const std::vector<Id>& candidates : tiers) {
        std::vector<std::pair<Id, double>> fits;
        std::vector<std::vector<Placement>> placements;
        std::vector<std::vector<Run>> rests;
        for (Id candidate : candidates) {
            const double score = kMaxNodeScore * hyperNodeBinpack(candidate, scored);
            GangProgress progress{std::vector<std::int64_t>(m_parts.size(), 0), std::vector<char>(m_parts.size(), 0)};
            Attempt attempt = placeTasks(candidate, subJob.runs, subJobPods, subJob.limit.present, allocated,
                                         minimum ? &progress : nullptr);
            if (!attempt.ok) {
                outcome.failure = std::move(attempt.failure);
                continue;
            }
            apply(attempt.placements, -1); // a dry run in every HyperNode
            fits.emplace_back(candidate, score);
            placements.push_back(std::move(attempt.placements));
            rests.push_back(std::move(attempt.rest));
        }
        if (fits.empty()) continue;
        // The best binpack score; Volcano picks among equals at random, topodeck the first by name.
        std::size_t best = 0;
        for (std::size_t i = 1; i < fits.size(); ++i)
            if (fits[i].second > fits[best].second && !sameScore(fits[i].second, fits[best].second)) best = i;
        for (std::size_t i = 0; i < fits.size(); ++i)
            if (i != best && sameScore(fits[i].second, fits[best].second)) ++outcome.tied;
        outcome.ok = true;
        outcome.hyperNode = fits[best].first;
        outcome.score = fits[best].second;
        outcome.placements = std::move(placements[best]);
        outcome.rest = std::move(rests[best]);
        outcome.failure.clear();
        apply(outcome.placements, +1);
        if (round) {
            rounds->allocated =
                allocated == HyperNodeTree::kNone ? outcome.hyperNode : m_tree.lca(allocated, outcome.hyperNode);
            for (std::size_t p = 0; p < m_parts.size(); ++p) rounds->pending[p] -= subJob.demand[p];
        }
        return outcome;
    }
    if (round) rounds->failed = true;
    return outcome;
}

JobTrial Planner::tryJob(Id hyperNode, const std::vector<SubJob>& subJobs, const std::vector<std::int64_t>& need) {
    JobTrial trial;
    // The job is ready when every part has the pods it needs: all of them, or a task's
    // minPartitions partitions.
    std::vector<std::int64_t> placed(m_parts.size(), 0);
    const auto ready = [&] {
        if (m_min.active) return minimumReady(placed);
        for (std::size_t p = 0; p < need.size(); ++p)
            if (placed[p] < need[p]) return false;
        return true;
    };
    DefaultRounds rounds;
    rounds.pending.assign(m_parts.size(), 0);
    for (const SubJob& subJob : subJobs)
        if (subJob.defaultPass)
            for (std::size_t p = 0; p < m_parts.size(); ++p) rounds.pending[p] += subJob.demand[p];
    rounds.all = rounds.pending;
    for (std::int64_t pods : rounds.all) rounds.pods += pods;
    for (const SubJob& subJob : subJobs) {
        if (ready()) break; // the job is ready: Volcano stops here
        ++trial.nextSubJob;
        SubJobOutcome outcome = trySubJob(hyperNode, subJob, &rounds);
        if (!outcome.ok) {
            if (trial.failure.empty()) trial.failure = std::move(outcome.failure);
            continue;
        }
        for (const Placement& placement : outcome.placements) placed[placement.part] += placement.pods;
        if (!outcome.rest.empty()) trial.rest = outcome.rest;
        trial.score += outcome.score;
        if (outcome.tied > 0) ++trial.tiedSubJobs;
        if (subJob.partition) {
            ++trial.placedSubJobs;
            trial.subJobHyperNodes.push_back(outcome.hyperNode);
        }
        trial.placements.insert(trial.placements.end(), outcome.placements.begin(), outcome.placements.end());
    }
    trial.ready = ready();
    apply(trial.placements, -1);
    return trial;
}

void Planner::report(const std::vector<Placement>& placements) {
    // By node, then part: a heterogeneous gang's pods say which task they are (what-ifs assume
    // each task's own requests).
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> podsByRank;
    for (const Placement& placement : placements)
        podsByRank[{m_session[placement.node].rank, placement.part}] += placement.pods;
    const std::vector<NodeId>& order = m_cluster.nodesInOrder();
    for (const auto& [at, pods] : podsByRank)
        m_result.nodes.push_back({m_cluster.node(order[at.first]).name, static_cast<std::int32_t>(pods),
                                  m_mixed ? m_parts[at.second].name : std::string()});

    // The assignment: per lowest HyperNode, its HyperNode at every real tier, highest first.
    std::vector<std::int32_t> tiers(m_tree.tiers.begin(), m_tree.tiers.end() - 1);
    std::reverse(tiers.begin(), tiers.end());
    if (tiers.empty()) return;
    for (std::int32_t tier : tiers) m_result.assignment.levels.push_back(tierLabel(tier));
    std::map<Id, std::int64_t> byLeaf;
    std::vector<Id> leafOrder;
    for (const auto& [at, pods] : podsByRank) {
        const Id leaf = m_tree.leafOf[order[at.first]];
        if (byLeaf.emplace(leaf, 0).second) leafOrder.push_back(leaf);
        byLeaf[leaf] += pods;
    }
    for (Id leaf : leafOrder) {
        TopologyAssignment::Domain domain;
        domain.values.assign(tiers.size(), "");
        for (Id h = leaf; h != HyperNodeTree::kNone && h != m_tree.top; h = entry(h).parent) {
            const auto at = std::find(tiers.begin(), tiers.end(), entry(h).tier);
            if (at != tiers.end()) domain.values[static_cast<std::size_t>(at - tiers.begin())] = entry(h).name;
        }
        domain.count = static_cast<std::int32_t>(byLeaf[leaf]);
        m_result.assignment.domains.push_back(std::move(domain));
    }
}

void Planner::reportParts() {
    // A mixed gang: where each task's pods went, nodes in natural order.
    if (!m_mixed) return;
    const std::size_t parts = m_parts.size();
    const std::vector<NodeId>& order = m_cluster.nodesInOrder();
    for (std::size_t p = 0; p < parts; ++p) {
        std::map<std::uint32_t, std::int64_t> byRank;
        for (std::size_t s = 0; s < m_session.size(); ++s)
            if (const std::int64_t pods = m_placedPart[s * parts + p]; pods > 0) byRank[m_session[s].rank] += pods;
        std::string text;
        for (const auto& [rank, pods] : byRank)
            text += (text.empty() ? "" : ",") + m_cluster.node(order[rank]).name +
                    (pods == 1 ? std::string() : "x" + std::to_string(pods));
        m_result.notes.push_back("task " + m_parts[p].name + ": " + (text.empty() ? std::string("not placed") : text));
    }
}

void Planner::fail(const std::string& failure, std::int64_t minAvailable) {
    m_result.feasible = false;
    if (!failure.empty()) {
        m_result.message = failure;
        return;
    }
    // No HyperNode was even tried, so no task carries a node-level reason: what the PodGroup's
    // condition says (JobInfo.FitError: "count reason" strings sorted as text).
    std::vector<std::string> counts = {std::to_string(m_request.pods) + " Pending",
                                       std::to_string(minAvailable) + " minAvailable"};
    std::sort(counts.begin(), counts.end());
    m_result.message = "pod group is not ready, " + counts[0] + ", " + counts[1] +
                       "; Pending: " + std::to_string(m_request.pods) + " Undetermined";
}

void Planner::placePlain(const SubJob& subJob) {
    // No hard topology and no partitions: Volcano's ordinary allocate, over every node.
    Attempt attempt = placeTasks(m_tree.top, subJob.runs, subJob.pods, subJob.limit.present);
    if (!attempt.ok) {
        m_trace.add("", "", false, attempt.failure.empty() ? "the cluster has no Ready node" : attempt.failure);
        fail(attempt.failure, subJob.pods);
        return;
    }
    m_result.feasible = true;
    std::int64_t nodes = 0;
    for (const Placement& placement : attempt.placements) nodes += placement.pods > 0;
    m_result.message = subJob.pods == 1
                           ? std::string("the pod fits")
                           : "all " + std::to_string(subJob.pods) + " pods fit on " + plural(nodes, "node", "nodes");
    m_trace.add("", "", true,
                m_result.message + (subJob.limit.present
                                        ? ", nodes ordered by the binpack and LCA-tier scores"
                                        : ", nodes ordered by the binpack and HyperNode binpack scores"));
    report(attempt.placements);
    reportParts();
}

void Planner::setUpMinimum(std::vector<std::int64_t>& need) {
    // The PodGroup's minMember and minTaskMember (job_controller_actions.go createOrUpdatePodGroup):
    // the job's minAvailable, else the tasks' summed; each task's, else its replicas.
    const std::size_t parts = m_parts.size();
    m_min.task.assign(parts, 0);
    m_min.pods.assign(parts, 0);
    m_min.bestEffort.assign(parts, 0);
    std::int64_t tasks = 0;
    bool partitions = m_request.volcano.partitionSize > 0;
    std::int64_t byPartitions = 0; // the pods the tasks' minPartitions (else all their pods) ask
    for (std::size_t p = 0; p < parts; ++p) {
        const GangPart& part = m_gangParts[p];
        const VolcanoConstraint& v = m_mixed ? part.volcano : m_request.volcano;
        byPartitions += v.minPartitions > 0 && v.partitionSize > 0 ? std::int64_t(v.minPartitions) * v.partitionSize
                                                                   : part.pods;
        const std::optional<std::int32_t>& own = m_mixed ? part.volcano.minAvailable : m_request.volcano.minAvailable;
        m_min.pods[p] = part.pods;
        m_min.task[p] = std::clamp<std::int64_t>(own.value_or(part.pods), 0, part.pods);
        m_min.bestEffort[p] = m_parts[p].bestEffort ? 1 : 0;
        m_min.total += part.pods;
        tasks += m_min.task[p];
        partitions = partitions || part.volcano.partitionSize > 0;
    }
    m_min.job = std::clamp<std::int64_t>(m_request.volcano.minAvailable.value_or(tasks), 0, m_min.total);
    m_min.roles = m_min.job >= tasks;
    if (m_min.job >= m_min.total) return; // every pod is needed: the gang as it always was
    if (partitions) {
        if (m_min.job == byPartitions) return; // what minPartitions make: modelled by the partitions
        m_result.notes.push_back("minAvailable " + std::to_string(m_min.job) + " of " + std::to_string(m_min.total) +
                                 " pods beside a partitionPolicy is not modelled: the partitions' minPartitions "
                                 "decide, and the other tasks' pods are all placed");
        return;
    }
    m_min.active = true;
    // The gradient's pre-filter is the PodGroup's minResources: the first minAvailable pods task by
    // task when the tasks' minimums add up to more (CalcFirstCountResources), else each task's
    // minimum, then the rest up to minAvailable in task order (CalcPGMinResources).
    need.assign(parts, 0);
    std::int64_t left = m_min.job;
    for (std::size_t p = 0; p < parts && left > 0 && m_min.roles; ++p) {
        need[p] = std::min(m_min.task[p], left);
        left -= need[p];
    }
    for (std::size_t p = 0; p < parts && left > 0; ++p) {
        const std::int64_t more = std::min(m_min.pods[p] - need[p], left);
        need[p] += more;
        left -= more;
    }
}

bool Planner::minimumReady(const std::vector<std::int64_t>& placed) const {
    // The gang plugin's JobReadyFn: IsReady (pending BestEffort pods count) and, when the job's
    // minimum covers the tasks', CheckTaskReady.
    std::int64_t total = 0;
    for (std::size_t p = 0; p < placed.size(); ++p) {
        const std::int64_t pods = m_min.bestEffort[p] ? m_min.pods[p] : placed[p];
        if (m_min.roles && pods < m_min.task[p]) return false;
        total += pods;
    }
    return total >= m_min.job;
}

bool Planner::continueAllocating(const GangProgress& progress) const {
    // JobInfo.NeedContinueAllocating after a pod found no node: with every pod needed, stop; when
    // only the job's minimum counts, go on while the pods of the parts that have not failed can
    // still make it; else stop when a failed part is short of its own minimum.
    if (m_min.job >= m_min.total) return false;
    if (!m_min.roles) {
        std::int64_t left = 0;
        for (std::size_t p = 0; p < progress.placed.size(); ++p)
            if (!progress.failed[p]) left += m_min.bestEffort[p] ? m_min.pods[p] : m_min.pods[p] - progress.placed[p];
        return progress.placedTotal() + left >= m_min.job;
    }
    for (std::size_t p = 0; p < progress.placed.size(); ++p)
        if (progress.failed[p] && m_min.task[p] > 0 && progress.placed[p] < m_min.task[p]) return false;
    return true;
}

std::int64_t Planner::podsToReady(const GangProgress& progress, std::uint32_t part) const {
    // How many more pods of this part make the job ready, when this part alone is short of it;
    // else (another part short of its minimum) no bound: the run goes on.
    std::int64_t more = m_min.job - progress.placedTotal();
    for (std::size_t p = 0; p < progress.placed.size() && m_min.roles; ++p) {
        const std::int64_t short_ = m_min.task[p] - (m_min.bestEffort[p] ? m_min.pods[p] : progress.placed[p]);
        if (short_ <= 0) continue;
        if (p != part) return std::numeric_limits<std::int64_t>::max();
        more = std::max(more, short_);
    }
    return std::max<std::int64_t>(more, 1);
}

std::string Planner::minimumText() const {
    std::string text = "minAvailable " + std::to_string(m_min.job) + " of " + std::to_string(m_min.total) + " pods";
    if (!m_mixed || !m_min.roles) return text;
    std::string tasks;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        if (m_min.task[p] < m_min.pods[p])
            tasks += (tasks.empty() ? "" : ", ") + m_parts[p].name + " " + std::to_string(m_min.task[p]) + " of " +
                     std::to_string(m_min.pods[p]);
    return tasks.empty() ? text : text + " (tasks: " + tasks + ")";
}

std::vector<SubJob> Planner::onePodSubJobs(const std::vector<Run>& rest, const TierLimit& job) const {
    std::vector<SubJob> subJobs;
    for (const Run& run : rest)
        for (std::int64_t i = 0; i < run.pods; ++i) {
            SubJob subJob;
            subJob.pods = 1;
            subJob.limit = job;
            subJob.demand = unit(run.part);
            subJob.runs = {{run.part, 1}};
            subJob.afterReady = true;
            subJobs.push_back(std::move(subJob));
        }
    return subJobs;
}

void Planner::placePlainMinimum(const SubJob& subJob) {
    // No hard topology, no partitions, a minimum below the pods: Volcano's allocate stops the first
    // round once the job is ready (SubJobReady) and commits it if JobReady; the pods left go one a
    // round to their best node, and those no node takes stay pending.
    GangProgress progress{std::vector<std::int64_t>(m_parts.size(), 0), std::vector<char>(m_parts.size(), 0)};
    Attempt first = placeTasks(m_tree.top, subJob.runs, subJob.pods, subJob.limit.present, HyperNodeTree::kNone,
                               &progress);
    if (!first.ok || !minimumReady(progress.placed)) {
        if (first.ok) apply(first.placements, -1);
        m_trace.add("", "", false,
                    first.failure.empty() ? "the pods placed do not make " + minimumText() : first.failure);
        fail(first.failure, m_min.job);
        return;
    }
    const std::int64_t ready = progress.placedTotal();
    GangProgress more = progress;
    more.stopAtReady = false;
    Attempt rest = placeTasks(m_tree.top, first.rest, subJob.pods, subJob.limit.present, HyperNodeTree::kNone, &more);
    std::vector<Placement> placements = std::move(first.placements);
    placements.insert(placements.end(), rest.placements.begin(), rest.placements.end());
    std::int64_t pending = 0;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        if (!m_min.bestEffort[p]) pending += m_min.pods[p] - more.placed[p];
    m_result.feasible = true;
    m_result.message = "the job is ready: " + std::to_string(more.placedTotal()) + " of " +
                       std::to_string(m_min.total) + " pods placed (" + minimumText() + ")" +
                       (pending > 0 ? "; " + std::to_string(pending) + " stay pending" : std::string());
    m_trace.add("", "", true,
                "ready with " + std::to_string(ready) + " pods, nodes ordered by the binpack and HyperNode binpack "
                "scores; the other pods one a round");
    if (pending > 0)
        m_trace.add("", "", false,
                    std::to_string(pending) + " pods beyond minAvailable find no node" +
                        (rest.failure.empty() ? std::string() : ": " + rest.failure));
    report(placements);
    reportParts();
}

void Planner::traceJobGradient(const TierLimit& job, const Gradient& jobGradient,
                               const std::vector<std::int64_t>& need) {
    if (jobGradient.beyondLimit)
        m_trace.add("", "", false,
                    "HyperNodes above tier " + std::to_string(job.tier) + " are beyond the job's highestTierAllowed");
    for (const TierCount& count : jobGradient.counts)
        if (count.eligible < count.seen)
            m_trace.add(tierLabel(count.tier), "", false,
                        std::to_string(count.seen - count.eligible) + " of " + std::to_string(count.seen) +
                            " HyperNodes lack the idle resources the job needs (" + demandText(need) + ")");
}

std::string Planner::readyTrialText(const JobTrial& trial, std::size_t partitions) const {
    std::string reason = "fits";
    if (partitions > 1) {
        // Where the partitions went, the first few by name.
        std::vector<std::string> where;
        for (Id h : trial.subJobHyperNodes) where.push_back(entry(h).name);
        std::sort(where.begin(), where.end());
        where.erase(std::unique(where.begin(), where.end()), where.end());
        std::string list;
        for (std::size_t i = 0; i < where.size() && i < 4; ++i) list += (i ? ", " : "") + where[i];
        if (where.size() > 4) list += ", ...";
        reason += " " + std::to_string(trial.placedSubJobs) + " of " + std::to_string(partitions) + " partitions (in " +
                  list + ")";
    }
    return reason + "; binpack score " + formatScore(trial.score);
}

void Planner::rankTrialsInTrace(const std::vector<JobTrial>& trials, std::size_t best, std::size_t tied,
                                const std::vector<std::size_t>& traceOf, std::size_t traceStart) {
    // A trial's line is missing when the trace was full.
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const std::size_t at = traceOf[i];
        if (at < traceStart || at >= m_result.trace.size() || !trials[i].ready) continue;
        TraceEntry& line = m_result.trace[at];
        if (i == best) {
            line.taken = true;
            line.reason += tied > 1 ? ", the best, tied with " + plural(tied - 1, "other HyperNode", "other HyperNodes")
                                    : ", the best";
        } else if (sameScore(trials[i].score, trials[best].score)) {
            line.reason += ", tied with the best";
        } else {
            line.reason += ", lower than the best";
        }
    }
}

void Planner::commitTrial(Id chosen, const JobTrial& trial, const TierLimit& job, const std::vector<SubJob>& subJobs) {
    std::vector<Placement> placements = trial.placements;
    apply(placements, +1);
    m_result.feasible = true;
    m_result.message = "Allocate job to hyperNode success job=\"" + m_request.nameSpace + "/" + m_request.name +
                       "\" hyperNode=\"" + entry(chosen).name + "\"";
    if (chosen != m_tree.top || job.hard) {
        std::vector<Id> chain;
        for (Id h = chosen; h != HyperNodeTree::kNone && (h != m_tree.top || chosen == m_tree.top); h = entry(h).parent)
            chain.push_back(h);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            m_result.chosen.push_back({tierLabel(entry(*it).tier), entry(*it).name});
    }
    if (trial.nextSubJob < subJobs.size())
        placeRemaining(
            chosen, job,
            std::vector<SubJob>(subJobs.begin() + static_cast<std::ptrdiff_t>(trial.nextSubJob), subJobs.end()));
    // Pods beyond minAvailable: the job is ready and committed, so Volcano places one more pod per
    // round (its worksheet keeps the pods not tried yet).
    if (m_min.active && !trial.rest.empty()) {
        m_result.notes.push_back("the job is ready with " + minimumText() + "; the other pods are placed one a round");
        placeRemaining(chosen, job, onePodSubJobs(trial.rest, job), "pod", "minAvailable");
    }
    std::vector<Placement> all;
    const std::size_t parts = m_mixed ? m_parts.size() : 1;
    for (std::size_t s = 0; s < m_placed.size(); ++s)
        for (std::size_t p = 0; p < parts; ++p)
            if (const std::int64_t pods = m_mixed ? m_placedPart[s * parts + p] : m_placed[s]; pods > 0)
                all.push_back({static_cast<std::uint32_t>(s), pods, static_cast<std::uint32_t>(p)});
    report(all);
    reportParts();
}

void Planner::placeJob(const TierLimit& job, const std::vector<SubJob>& subJobs,
                       const std::vector<std::int64_t>& need) {
    // The job's minResources: the pods it needs, of every part.
    std::int64_t requiredPods = 0;
    for (std::int64_t pods : need) requiredPods += pods;
    const std::size_t partitions = static_cast<std::size_t>(
        std::count_if(subJobs.begin(), subJobs.end(), [](const SubJob& subJob) { return subJob.partition; }));

    Gradient jobGradient;
    if (job.hard) {
        jobGradient = gradient(m_tree.top, job.tier, need);
    } else {
        jobGradient.tiers = {{m_tree.top}};
    }
    traceJobGradient(job, jobGradient, need);

    std::string lastFailure;
    for (const std::vector<Id>& candidates : jobGradient.tiers) {
        std::vector<JobTrial> trials;
        const std::size_t traceStart = m_result.trace.size();
        std::vector<std::size_t> traceOf;
        for (Id candidate : candidates) {
            JobTrial trial = tryJob(candidate, subJobs, need);
            traceOf.push_back(m_result.trace.size());
            if (trial.ready) {
                m_trace.add(tierLabel(entry(candidate).tier), entry(candidate).name, false,
                            readyTrialText(trial, partitions));
            } else {
                lastFailure = trial.failure;
                m_trace.add(tierLabel(entry(candidate).tier), entry(candidate).name, false,
                            !trial.failure.empty() ? trial.failure
                            : m_min.active         ? "the tasks placed do not make " + minimumText()
                                                   : "no partition found a HyperNode with the idle resources it needs");
            }
            trials.push_back(std::move(trial));
        }
        std::size_t best = trials.size();
        for (std::size_t i = 0; i < trials.size(); ++i) {
            if (!trials[i].ready) continue;
            if (best == trials.size() ||
                (trials[i].score > trials[best].score && !sameScore(trials[i].score, trials[best].score)))
                best = i;
        }
        if (best == trials.size()) continue; // try the next tier

        std::vector<std::string> tied;
        for (std::size_t i = 0; i < trials.size(); ++i)
            if (trials[i].ready && sameScore(trials[i].score, trials[best].score))
                tied.push_back(entry(candidates[i]).name);
        rankTrialsInTrace(trials, best, tied.size(), traceOf, traceStart);
        const Id chosen = candidates[best];
        if (tied.size() > 1) {
            m_result.tiedWith = tied;
            m_result.notes.push_back("Volcano picks one of the " + std::to_string(tied.size()) +
                                     " HyperNodes tied on score at random; nodes shows the first by name, " +
                                     entry(chosen).name);
        }
        if (trials[best].tiedSubJobs > 0)
            m_result.notes.push_back(std::to_string(trials[best].tiedSubJobs) +
                                     (m_mixed ? " subJob(s)" : " partition(s)") +
                                     " had HyperNodes tied on score; Volcano picks at random, "
                                     "topodeck the first by name");
        commitTrial(chosen, trials[best], job, subJobs);
        return;
    }
    if (jobGradient.tiers.empty())
        m_trace.add("", "", false,
                    "no HyperNode" + (job.hard ? " up to tier " + std::to_string(job.tier) : std::string()) +
                        " has the idle resources the job needs (" + demandText(need) + "), so none is tried");
    fail(lastFailure, requiredPods);
}

void Planner::placeRemaining(Id allocated, const TierLimit& job, const std::vector<SubJob>& rest, const char* unit,
                             const char* beyond) {
    // Partitions beyond minPartitions: the job is ready, so Volcano places one more partition per
    // round, searching (without the idle pre-filter) under the highest HyperNode its tier limit
    // allows above what the job already holds.
    Id root = m_tree.top;
    if (job.hard) {
        root = allocated;
        while (entry(root).parent != HyperNodeTree::kNone && entry(entry(root).parent).tier <= job.tier)
            root = entry(root).parent;
    }
    std::vector<std::vector<Id>> tiers;
    std::map<std::int32_t, std::vector<Id>> byTier;
    std::vector<Id> queue{root};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const HyperNodeTree::Entry& hn = entry(queue[i]);
        if (!job.hard || hn.tier <= job.tier) byTier[hn.tier].push_back(queue[i]);
        queue.insert(queue.end(), hn.children.begin(), hn.children.end());
    }
    for (auto& [tier, ids] : byTier) {
        std::sort(ids.begin(), ids.end());
        tiers.push_back(std::move(ids));
    }

    std::size_t placed = 0;
    for (const SubJob& subJob : rest) {
        bool done = false;
        for (const std::vector<Id>& candidates : tiers) {
            std::size_t best = candidates.size();
            double bestScore = 0;
            for (std::size_t i = 0; i < candidates.size(); ++i) {
                SubJobOutcome outcome = trySubJob(candidates[i], subJob);
                if (!outcome.ok) continue;
                apply(outcome.placements, -1);
                if (best == candidates.size() || (outcome.score > bestScore && !sameScore(outcome.score, bestScore))) {
                    best = i;
                    bestScore = outcome.score;
                }
            }
            if (best == candidates.size()) continue;
            const SubJobOutcome outcome = trySubJob(candidates[best], subJob);
            m_trace.add(tierLabel(entry(candidates[best]).tier), entry(candidates[best]).name, true,
                        std::string("one more ") + unit + " beyond " + beyond + "; binpack score " +
                            formatScore(outcome.score));
            ++placed;
            done = true;
            break;
        }
        if (!done) break;
    }
    if (placed < rest.size())
        m_result.notes.push_back(std::to_string(rest.size() - placed) + " " + unit + "(s) beyond " + beyond +
                                 " find no room and stay pending");
}

void Planner::setUpParts(const TierLimit& job, std::vector<SubJob>& subJobs, std::vector<std::int64_t>& need) {
    // One PodGroup for the whole job. A task with a partitionPolicy gives one subJob per
    // partition (its subGroupPolicy); the other tasks' pods share the default subJob, which
    // inherits the job's networkTopology. Pods follow Volcano's task order: no TaskOrderFn
    // plugin orders them (the priority plugin compares pod priorities, which a task template
    // without priorityClassName leaves equal), so CompareTask does: the pod index, the number
    // ending the pod's name, then the creation time, then the uid. Tasks' pods come out by
    // index, task by task within an index (the controller creates them in task order; on equal
    // timestamps Volcano's uid order is random).
    const std::size_t parts = m_parts.size();
    need.assign(parts, 0);
    struct Partition {
        std::int32_t index = 0;
        std::string uid; // "<task>-<index>": SubJobOrderFn's uid order within an index
        std::uint32_t part = 0;
        bool required = false;
    };
    std::vector<Partition> partitions;
    std::vector<TierLimit> limits(parts);
    std::vector<std::int64_t> unpartitioned(parts, 0);
    for (std::uint32_t p = 0; p < parts; ++p) {
        const GangPart& part = m_gangParts[p];
        if (m_parts[p].bestEffort) {
            m_result.notes.push_back("task " + part.name +
                                     " requests no resources: Volcano's allocate action skips BestEffort pods (its "
                                     "backfill action places them) and counts them as ready");
            continue;
        }
        if (part.volcano.partitionSize <= 0) {
            unpartitioned[p] = part.pods;
            need[p] = part.pods;
            continue;
        }
        limits[p] = normalise(part.volcano.partitionTopology, ("task " + part.name + " partition").c_str(), &job);
        const std::int32_t count = part.pods / part.volcano.partitionSize;
        const std::int32_t required = part.volcano.minPartitions > 0 ? part.volcano.minPartitions : count;
        need[p] = std::int64_t(required) * part.volcano.partitionSize;
        for (std::int32_t i = 0; i < count; ++i)
            partitions.push_back(
                {i, part.name + "-" + std::to_string(i), p, part.volcano.minPartitions > 0 && i < required});
    }
    // The subJobs needed first (a task's first minPartitions partitions), then by partition
    // index and uid, where the default subJob (index 0, the job's uid, shorter than any
    // partition's) comes first.
    std::sort(partitions.begin(), partitions.end(), [](const Partition& a, const Partition& b) {
        if (a.required != b.required) return a.required;
        if (a.index != b.index) return a.index < b.index;
        return a.uid < b.uid;
    });
    const auto partitionSubJob = [&](const Partition& partition) {
        SubJob subJob;
        subJob.pods = m_gangParts[partition.part].volcano.partitionSize;
        subJob.limit = limits[partition.part];
        subJob.ownGradient = subJob.limit.hard;
        subJob.demand.assign(parts, 0);
        subJob.demand[partition.part] = subJob.pods;
        subJob.runs = {{partition.part, subJob.pods}};
        subJob.partition = true;
        return subJob;
    };
    std::size_t next = 0;
    for (; next < partitions.size() && partitions[next].required; ++next)
        subJobs.push_back(partitionSubJob(partitions[next]));

    // The default subJob's pods in task order, as runs of one task's pods.
    std::vector<Run> runs;
    std::int64_t longest = 0;
    for (std::int64_t pods : unpartitioned) longest = std::max(longest, pods);
    for (std::int64_t index = 0; index < longest;) {
        // Past the index where all but one task have run out, that one's pods come in one run.
        std::uint32_t left = 0;
        std::uint32_t last = 0;
        for (std::uint32_t p = 0; p < parts; ++p)
            if (unpartitioned[p] > index) ++left, last = p;
        if (left == 1) {
            if (!runs.empty() && runs.back().part == last)
                runs.back().pods += unpartitioned[last] - index;
            else
                runs.push_back({last, unpartitioned[last] - index});
            break;
        }
        for (std::uint32_t p = 0; p < parts; ++p) {
            if (unpartitioned[p] <= index) continue;
            if (!runs.empty() && runs.back().part == p)
                ++runs.back().pods;
            else
                runs.push_back({p, 1});
        }
        ++index;
    }
    std::int64_t defaultPods = 0;
    for (std::int64_t pods : unpartitioned) defaultPods += pods;
    if (defaultPods > 0 && partitions.empty()) {
        // No subGroupPolicy: the default subJob's minAvailable is the job's, and all its pods go
        // in one round, straight to the job's HyperNode (as for a uniform gang).
        SubJob subJob;
        subJob.pods = static_cast<std::int32_t>(defaultPods);
        subJob.limit = job;
        subJob.demand = unpartitioned;
        subJob.runs = std::move(runs);
        subJobs.push_back(std::move(subJob));
    } else if (defaultPods > 0) {
        for (const Run& run : runs)
            for (std::int64_t i = 0; i < run.pods; ++i) {
                SubJob subJob;
                subJob.pods = 1;
                subJob.limit = job;
                subJob.ownGradient = job.hard;
                subJob.demand = unit(run.part);
                subJob.runs = {{run.part, 1}};
                subJob.defaultPass = true;
                subJobs.push_back(std::move(subJob));
            }
    }
    for (; next < partitions.size(); ++next) subJobs.push_back(partitionSubJob(partitions[next]));
}

void Planner::run() {
    setUpResources();
    setUpSession();
    setUpHyperNodes();

    const TierLimit job = normalise(m_request.volcano.networkTopology, "job", nullptr);
    std::vector<SubJob> subJobs;
    std::vector<std::int64_t> need;
    bool partitioned = m_request.volcano.partitionSize > 0;
    if (m_mixed) {
        setUpParts(job, subJobs, need);
        partitioned =
            std::any_of(subJobs.begin(), subJobs.end(), [](const SubJob& subJob) { return subJob.partition; });
    } else if (partitioned) {
        const std::int32_t count = m_request.pods / m_request.volcano.partitionSize;
        const TierLimit limit = normalise(m_request.volcano.partitionTopology, "partition", &job);
        const std::int32_t size = m_request.volcano.partitionSize;
        for (std::int32_t i = 0; i < count; ++i)
            subJobs.push_back({size, limit, limit.hard, {size}, {{0, size}}, true});
        const std::int32_t required = m_request.volcano.minPartitions > 0 ? m_request.volcano.minPartitions : count;
        need = {std::int64_t(required) * size};
    } else {
        // The default subJob inherits the job's networkTopology. Inside a HyperNode of the job's
        // gradient it would first retry that HyperNode's lower tiers, which the job's gradient
        // already tried and found too small, so it goes straight to the HyperNode itself.
        subJobs.push_back({m_request.pods, job, false, {m_request.pods}, {{0, m_request.pods}}});
        need = {m_request.pods};
    }
    m_result.notes.push_back("inside a HyperNode, tasks go to nodes by the binpack and network-topology-aware "
                             "scores; Volcano adds its nodeorder plugin's scores and breaks node ties at random "
                             "(topodeck: by node name)");
    setUpMinimum(need);

    if (subJobs.empty()) {
        // Every task is BestEffort (refused before this) or has no pods.
        fail("", 0);
    } else if (job.hard || partitioned) {
        placeJob(job, subJobs, need);
    } else if (m_min.active) {
        placePlainMinimum(subJobs.front());
    } else {
        placePlain(subJobs.front());
    }
    m_trace.finish(
        [](std::size_t omitted, std::size_t) { return std::to_string(omitted) + " more entries not shown"; });
}

bool usesTopology(const GangRequest& request) {
    return request.volcano.networkTopology.has_value() || request.volcano.partitionTopology.has_value() ||
           std::any_of(request.parts.begin(), request.parts.end(),
                       [](const GangPart& part) { return part.volcano.partitionTopology.has_value(); });
}

bool requestsNothing(const ResourceList& perPod) {
    return std::none_of(perPod.begin(), perPod.end(), [](const ResourceList::Entry& entry) {
        return entry.second.nanos() > 0 && entry.first != "pods";
    });
}

// A task's partitionPolicy as Volcano's webhook checks it; empty when valid.
std::string partitionError(const VolcanoConstraint& volcano, std::int32_t pods, const std::string& prefix) {
    if (volcano.partitionSize < 0) return prefix + "partitionSize must be at least 1";
    if (volcano.partitionSize == 0) return {};
    if (pods % volcano.partitionSize != 0)
        return prefix + "partitionPolicy: totalPartitions x partitionSize must equal replicas (" +
               std::to_string(pods) + "), and " + std::to_string(pods) + " is not a multiple of partitionSize " +
               std::to_string(volcano.partitionSize);
    if (volcano.minPartitions < 0 || volcano.minPartitions > pods / volcano.partitionSize)
        return prefix + "partitionPolicy: minPartitions " + std::to_string(volcano.minPartitions) + " is outside 0.." +
               std::to_string(pods / volcano.partitionSize);
    return {};
}

std::string topologyError(const std::optional<VolcanoTopology>& topology) {
    if (!topology) return {};
    if (topology->highestTierAllowed && *topology->highestTierAllowed < 0)
        return "highestTierAllowed must be 0 or more";
    if (topology->highestTierAllowed && !topology->highestTierName.empty())
        return "highestTierAllowed and highestTierName cannot be set together";
    return {};
}

} // namespace

std::string_view VolcanoEngine::description() const {
    return "Volcano allocate + network-topology-aware: HyperNode tiers lowest first, binpack score, partitions";
}

std::string VolcanoEngine::unavailableReason(const PlacementCluster& cluster, const GangRequest& request) const {
    if (!cluster.hyperNodes() || !usesTopology(request)) return {};
    Result<HyperNodeTree> tree = resolveHyperNodes(*cluster.hyperNodes(), cluster.state());
    if (tree) return {};
    return "the HyperNodes do not form a tree (" + tree.error().message +
           "); Volcano schedules no job with networkTopology until they do";
}

PlacementResult VolcanoEngine::place(const PlacementCluster& cluster, const GangRequest& request,
                                     const EngineOptions& options) const {
    PlacementResult result;
    result.engine = std::string(name());
    const auto invalid = [&](std::string message) {
        result.invalidRequest = true;
        result.message = std::move(message);
        return result;
    };
    if (request.pods <= 0) return invalid("the gang needs at least one pod");
    const std::vector<GangPart> parts = request.partsOrWhole();
    if (std::all_of(parts.begin(), parts.end(), [](const GangPart& part) { return requestsNothing(part.perPod); }))
        return invalid("the pods request no resources: Volcano's allocate action skips BestEffort pods "
                       "(its backfill action places them)");
    const VolcanoConstraint& volcano = request.volcano;
    if (request.heterogeneous()) {
        std::int64_t total = 0;
        for (const GangPart& part : request.parts) {
            if (part.pods <= 0) return invalid("task " + part.name + " needs at least one pod");
            total += part.pods;
            if (std::string error = partitionError(part.volcano, part.pods, "task " + part.name + " "); !error.empty())
                return invalid(std::move(error));
            if (std::string error = topologyError(part.volcano.partitionTopology); !error.empty())
                return invalid(std::move(error));
        }
        if (total != request.pods)
            return invalid("the tasks' pods (" + std::to_string(total) + ") do not add up to the gang's (" +
                           std::to_string(request.pods) + ")");
    }
    if (volcano.partitionSize < 0) return invalid("partitionSize must be at least 1");
    if (volcano.partitionSize > 0) {
        if (request.pods % volcano.partitionSize != 0)
            return invalid("partitionPolicy: totalPartitions x partitionSize must equal replicas (" +
                           std::to_string(request.pods) + "), and " + std::to_string(request.pods) +
                           " is not a multiple of partitionSize " + std::to_string(volcano.partitionSize));
        if (volcano.minPartitions < 0 || volcano.minPartitions > request.pods / volcano.partitionSize)
            return invalid("partitionPolicy: minPartitions " + std::to_string(volcano.minPartitions) +
                           " is outside 0.." + std::to_string(request.pods / volcano.partitionSize));
    }
    for (const std::optional<VolcanoTopology>* topology : {&volcano.networkTopology, &volcano.partitionTopology}) {
        if (!*topology) continue;
        if ((*topology)->highestTierAllowed && *(*topology)->highestTierAllowed < 0)
            return invalid("highestTierAllowed must be 0 or more");
        if ((*topology)->highestTierAllowed && !(*topology)->highestTierName.empty())
            return invalid("highestTierAllowed and highestTierName cannot be set together");
    }

    HyperNodeTree tree;
    const bool derived = cluster.hyperNodes() == nullptr;
    if (derived) {
        tree = hyperNodeTreeFromIndex(cluster.index());
        result.notes.push_back("HyperNodes derived from label levels as Volcano's label discovery would");
    } else {
        Result<HyperNodeTree> resolved = resolveHyperNodes(*cluster.hyperNodes(), cluster.state());
        if (!resolved) {
            if (usesTopology(request)) {
                result.message = resolved.error().message;
                result.notes.push_back("Volcano's scheduler does not build its HyperNode cache, and skips jobs "
                                       "with networkTopology (\"hyperNodes are not ready for scheduling\")");
                return result;
            }
            // Jobs without topology still schedule; only the virtual top HyperNode is left.
            result.notes.push_back("HyperNodes ignored: " + resolved.error().message);
            resolved = resolveHyperNodes({}, cluster.state());
        }
        tree = std::move(*resolved);
        for (const std::string& warning : tree.warnings) result.notes.push_back("HyperNodes: " + warning);
    }
    Planner(cluster, request, options, tree, derived, result).run();
    return result;
}

const PlacementEngine& volcanoEngine() {
    static const VolcanoEngine engine;
    return engine;
}

} // namespace topodeck
