#include "core/placement/engines/slurm_tree_engine.h"

#include "core/exports/slurm_topology_from_index.h"
#include "core/placement/engines/slurm_flat_selection.h"
#include "core/placement/engines/slurm_job.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

// Slurm topology/tree, rewritten from a reading of Slurm's own code (facts, not code):
// 22.05 `src/plugins/select/cons_tres/job_test.c` (_eval_nodes_topo, _topo_compare_switches,
// _topo_choose_best_switch, _cpus_to_use, choose_nodes) and 24.05.3+
// `src/plugins/topology/tree/eval_nodes_tree.c` with `topology/common/eval_nodes.c` and
// `common_topo.c` (eval_nodes_cpus_to_use, common_topo_choose_nodes), plus the node_scheduler.c
// decisions around them (see the comment above SlurmTreeEngine::place).
//
// The job and its node_map (which nodes can take one task, with their avail_cpus) come from
// slurm_job.h, shared with topology/block; GPU counts never enter the switch comparison. CPUs do,
// as avail_cpus (the free CPUs the job may use): 23.02+ sums them per switch for the top switch
// and for "fits"; both versions cap what each taken node gives at what the job still needs.

namespace topodeck {
namespace {

constexpr std::uint32_t kInfinite = 0xFFFFFFFFu; // Slurm's INFINITE hop distance
constexpr std::int32_t kNone = -1;

// The rules that changed between releases, each with the release that changed it.
struct TreeRules {
    bool cpuSums = true;            // 23.02: switch CPU sums count for the top switch and for "fits"
    bool rangeRetry = true;         // 23.02: -N min-max over --switches retries with one node fewer
    bool weightsToMax = true;       // 23.02 (same change): weight groups are added up to the maximum -N
    bool closerNeedsFitOnly = true; // 24.05.3: a closer leaf wins whenever it fits, tightness ignored
    bool subtractAncestors = true;  // 24.05.3: taken nodes are subtracted up the tree
    bool sortedRetry = true;        // 25.11: a failed pass is retried without one low node at a time
    bool oneNodeSkipsTree = true;   // 26.05: -N 1 takes the first usable node by weight
    bool errnoReasons = true;       // 26.05: a pending job's state_desc is the topology errno text

    static TreeRules forVersion(const SlurmVersion& v) {
        TreeRules rules;
        const bool from2302 = v >= SlurmVersion{23, 2, 0};
        const bool from2405_3 = v >= SlurmVersion{24, 5, 3};
        const bool from2511 = v >= SlurmVersion{25, 11, 0};
        const bool from2605 = v >= SlurmVersion{26, 5, 0};
        rules.cpuSums = rules.rangeRetry = rules.weightsToMax = from2302;
        rules.closerNeedsFitOnly = rules.subtractAncestors = from2405_3;
        rules.sortedRetry = from2511;
        rules.oneNodeSkipsTree = rules.errnoReasons = from2605;
        return rules;
    }

    std::string describe(const SlurmVersion& v, const std::string& origin) const {
        std::string text =
            "Slurm " + v.toString() + " topology/tree rules" + (origin.empty() ? "" : " (" + origin + ")") + ": ";
        text += cpuSums ? "CPU sums count for the top switch and leaf fit" : "switches compared by node counts only";
        text +=
            closerNeedsFitOnly ? "; a closer leaf wins when it fits" : "; a closer leaf must also be no looser a fit";
        text += subtractAncestors ? "; taken nodes leave ancestor counts" : "; ancestor counts keep taken nodes";
        text += oneNodeSkipsTree ? "; -N 1 takes the first usable node by weight" : "; -N 1 best-fits a leaf";
        text += sortedRetry ? "; a failed pass is retried without the lowest-resource nodes one at a time"
                            : "; a failed pass is retried without the nodes at or below a growing resource count";
        text +=
            rangeRetry ? "; -N min-max over --switches retries with fewer nodes" : "; -N min-max over --switches waits";
        if (v < SlurmVersion{22, 5, 0}) text += " (older than 22.05: 22.05 rules assumed)";
        return text;
    }
};

// ---------------------------------------------------------------------------------------------
// The switch table, as slurmctld builds it from topology.conf.

struct TreeSwitch {
    std::string name;
    int level = 0;
    std::int32_t parent = kNone; // SWITCH_NO_PARENT for a root
    std::vector<std::int32_t> children;
    std::vector<std::int32_t> nodes; // node-table positions, ascending, unique
};

struct SwitchTree {
    std::vector<TreeSwitch> switches;             // config order, which breaks ties
    std::vector<std::int32_t> leaves;             // level-0 switches in config order
    std::vector<std::vector<std::int32_t>> links; // parent-child edges both ways, for hop counts
    std::vector<std::int32_t> firstLeafOf;        // node position -> first leaf listing it, or kNone
};

Result<SwitchTree> buildSwitchTree(const SlurmTopology& topology, const SlurmNodeTable& table) {
    SwitchTree tree;
    const std::size_t count = topology.switches.size();
    tree.switches.resize(count);
    tree.links.resize(count);
    tree.firstLeafOf.assign(table.size(), kNone);
    std::unordered_map<std::string_view, std::int32_t> indexOf;
    indexOf.reserve(count * 2);
    for (std::size_t i = 0; i < count; ++i) {
        const SlurmSwitch& source = topology.switches[i];
        if (!indexOf.emplace(source.name, static_cast<std::int32_t>(i)).second)
            return Error{"Switch (" + source.name + ") has already been defined"};
        tree.switches[i].name = source.name;
    }

    // Node names usually come in node-table order (gpu-[001-008]), so the position after the last
    // match is tried before the name lookup.
    std::int32_t next = 0;
    const auto positionOfName = [&](const std::string& nodeName) -> std::int32_t {
        if (static_cast<std::size_t>(next) < table.size() && table.name(next) == nodeName) return next++;
        // Names the snapshot does not know are nodes we cannot place on.
        const std::int32_t position = table.position(nodeName);
        if (position != kNone) next = position + 1;
        return position;
    };

    // A line with Nodes is a leaf (its Switches are ignored); one with neither is an empty leaf.
    std::vector<char> resolved(count, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const SlurmSwitch& source = topology.switches[i];
        TreeSwitch& sw = tree.switches[i];
        if (!source.nodes.empty() || source.switches.empty()) {
            resolved[i] = 1;
            tree.leaves.push_back(static_cast<std::int32_t>(i));
            for (const std::string& nodeName : source.nodes)
                if (const std::int32_t position = positionOfName(nodeName); position != kNone)
                    sw.nodes.push_back(position);
            if (!std::is_sorted(sw.nodes.begin(), sw.nodes.end())) std::sort(sw.nodes.begin(), sw.nodes.end());
            sw.nodes.erase(std::unique(sw.nodes.begin(), sw.nodes.end()), sw.nodes.end());
            for (const std::int32_t position : sw.nodes)
                if (tree.firstLeafOf[position] == kNone) tree.firstLeafOf[position] = static_cast<std::int32_t>(i);
            continue;
        }
        for (const std::string& childName : source.switches) {
            const auto found = indexOf.find(childName);
            if (found == indexOf.end() || found->second == static_cast<std::int32_t>(i))
                return Error{"Switch configuration " + source.name + " has invalid child (" + childName + ")"};
            sw.children.push_back(found->second);
            // As slurmctld does: the last switch naming a child becomes its parent.
            tree.switches[found->second].parent = static_cast<std::int32_t>(i);
            tree.links[i].push_back(found->second);
            tree.links[found->second].push_back(static_cast<std::int32_t>(i));
        }
    }

    // Levels bottom-up: 1 + the highest child level, resolved in passes like slurmctld.
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t i = 0; i < count; ++i) {
            if (resolved[i]) continue;
            TreeSwitch& sw = tree.switches[i];
            const bool ready = std::all_of(sw.children.begin(), sw.children.end(),
                                           [&resolved](std::int32_t child) { return resolved[child] != 0; });
            if (!ready) continue;
            std::vector<std::int32_t> nodes;
            for (const std::int32_t child : sw.children) {
                sw.level = std::max(sw.level, tree.switches[child].level + 1);
                nodes.insert(nodes.end(), tree.switches[child].nodes.begin(), tree.switches[child].nodes.end());
            }
            if (!std::is_sorted(nodes.begin(), nodes.end())) std::sort(nodes.begin(), nodes.end());
            nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
            sw.nodes = std::move(nodes);
            resolved[i] = 1;
            progress = true;
        }
    }
    if (std::find(resolved.begin(), resolved.end(), 0) != resolved.end())
        return Error{"Switch configuration is not a tree"};
    return tree;
}

// ---------------------------------------------------------------------------------------------

std::string switchLevelName(int level) {
    return "switch level " + std::to_string(level);
}

// ---------------------------------------------------------------------------------------------
// One evaluation of _eval_nodes_topo.

enum class Failure {
    None,
    FewEligible,         // fewer nodes in node_map than -N (generic error before the tree runs)
    RequiredUnavailable, // a -w node is not in node_map
    NoTopSwitch,         // no switch has enough nodes (and CPUs)
    RequiredSpansTop,    // required nodes are not all under the top switch
    WeightShort,         // weight groups under the top switch fall short
    MaxNodes,            // required plus lower-weight nodes exceed the maximum node count
    Stalled,             // the leaf loop ran out of leaves
};

// The errno text a 26.05+ pending job shows as its reason; "" where Slurm returns a plain error.
std::string_view errnoText(Failure failure) {
    switch (failure) {
    case Failure::RequiredUnavailable:
        return slurm_errno::kTopoReqNodesNotAvail;
    case Failure::NoTopSwitch:
    case Failure::WeightShort:
    case Failure::Stalled:
        return slurm_errno::kTopoInsufficient;
    case Failure::RequiredSpansTop:
        return slurm_errno::kTopoConfigUnavailable;
    case Failure::MaxNodes:
        return slurm_errno::kTopoMaxNodeLimit;
    case Failure::None:
    case Failure::FewEligible:
        break;
    }
    return {};
}

// What the retry loop of common_topo_choose_nodes (25.11+) does after a failed pass: stop (BREAK),
// drop the top switch's nodes (RETRY), or drop the weakest node the pass took (RETRY_HINT).
enum class RetryAction { Break, DropTop, DropTaken };

struct Pass {
    Failure failure = Failure::None;
    std::string why;                    // for people, when it failed
    std::vector<std::int32_t> selected; // node positions, ascending
    std::int32_t top = kNone;
    std::vector<std::int32_t> leaves; // leaf switches holding the allocation, in the order filled
    int leafCount = 0;                // what --switches counts
    RetryAction retry = RetryAction::Break;
    std::vector<std::int32_t> nodeMap; // node_map as the failed pass left it, for DropTop and DropTaken
    bool topHoldsAll = false;          // every node of node_map is under the top switch
    bool ok() const { return failure == Failure::None; }
};

// The job as _eval_nodes_topo reads it: SlurmJobSpec, with cpusPerNode as pn_min_cpus (what a node
// needs to take part), plus job_details' min_cpus, cpus_per_task and num_tasks and get_node_cnts'
// req_nodes.
struct TreeJob : SlurmJobSpec {
    std::int64_t minCpus = 0;  // rem_cpus at the start, and rem_max_cpus (max_cpus is not modelled)
    std::int32_t reqNodes = 0; // rem_nodes = MAX(min_nodes, req_nodes)
    std::int32_t cpusPerTask = 1;
    std::int32_t ntasks = 0; // -n whose tasks spread over the nodes by their free CPUs; 0: a node-count job
};

// How _topo_compare_switches decided, kept as plain data so that trace text is only built for
// the candidates the trace has room for.
enum class Decider { TighterFit, OnlyOneFits, MoreNodes, LowerLevel, Tie };

struct Comparison {
    int result = 0;             // 1: the candidate is the better fit, -1: the incumbent, 0: neither
    bool candidateFits = false; // at the level where the parent climb stopped
    Decider decider = Decider::Tie;
    std::int32_t a = kNone, b = kNone; // switches compared last (ancestors after a climb)
    int climbs = 0;
};

struct CandidateRecord {
    std::int32_t leaf = kNone;
    std::int32_t incumbent = kNone; // kNone: first candidate of the round
    std::uint32_t distance = 0, incumbentDistance = 0;
    Comparison comparison;
    bool replaced = false;
};

// The GPUs each node can give a GPU job (avail_gpus after gres_select_filter_remove_unusable), by
// node position: the free ones now, all of them in the later pools or for --exclusive.
std::vector<std::int32_t> usableGpus(const PlacementCluster& cluster, const SlurmNodeTable& table, SlurmPool pool,
                                     bool exclusive) {
    std::vector<std::int32_t> gpus(table.size(), 0);
    const GpuResources& resources = cluster.index().gpuResources();
    const bool wholeNode = pool != SlurmPool::Now || exclusive;
    for (std::size_t p = 0; p < gpus.size(); ++p) {
        const NodeId id = table.id(static_cast<std::int32_t>(p));
        std::int64_t total = 0;
        for (const auto& [resource, quantity] : cluster.node(id).allocatable)
            if (resources.matches(resource)) total += floorUnits(wholeNode ? quantity : cluster.free(id, resource));
        gpus[p] = static_cast<std::int32_t>(std::min<std::int64_t>(total, std::numeric_limits<std::int32_t>::max()));
    }
    return gpus;
}

class TreePass {
public:
    TreePass(const SwitchTree& tree, const SlurmNodeMap& nodes, const TreeJob& job, const TreeRules& rules,
             const SlurmNodeTable& table, const PlacementCluster& cluster, SlurmPool pool, TraceBudget& trace)
        : m_tree(tree), m_nodes(nodes), m_job(job), m_rules(rules), m_table(table), m_cluster(cluster), m_pool(pool),
          m_trace(&trace) {}

    // A new job_test: every node of node_map back, with the avail_cpus cons_tres computed for it.
    void startJob();
    // keepTop: 23.02+'s try_again, a node range lowered within --switches under the same top switch.
    Pass run(std::int32_t reqNodes, std::int32_t keepTop = kNone);
    // Slurm 26.05+ for -N 1: no tree, the lowest-weight usable node in node-table order.
    Pass firstUsableNode();

    // What the retry loops of choose_nodes / common_topo_choose_nodes see and change between passes.
    bool usable(std::int32_t p) const { return m_avail[p] > 0 && !m_removed[p]; }
    void remove(std::int32_t p) { m_removed[p] = 1; }
    bool required(std::int32_t p) const { return std::binary_search(m_job.required.begin(), m_job.required.end(), p); }
    // 22.05's avail_res_cnt: avail_cpus (as _cpus_to_use last left it) plus the usable GPUs of a GPU job.
    std::int64_t resourceCount(std::int32_t p) const { return m_avail[p] + (m_job.gpusPerNode > 0 ? gpus(p) : 0); }
    // 25.11+'s avail_res_prod: the node's avail_cpus before any pass, times its usable GPUs for a GPU job.
    std::int64_t resourceProduct(std::int32_t p) const {
        return std::int64_t{m_startAvail[p]} * (m_job.gpusPerNode > 0 ? gpus(p) : 1);
    }
    const std::vector<std::int32_t>& avail() const { return m_avail; }
    void restoreAvail(std::vector<std::int32_t> avail) { m_avail = std::move(avail); }
    void setTrace(TraceBudget& trace) { m_trace = &trace; }
    const SlurmNodeTable& table() const { return m_table; }
    std::size_t nodeCount() const { return m_nodes.cpus.size(); }

private:
    // A step of a pass hands over to the next, or ends it: the job is satisfied, or the pass failed.
    enum class Step { Next, Satisfied, Failed };

    const TreeSwitch& sw(std::int32_t index) const { return m_tree.switches[index]; }
    std::int32_t cpusOf(std::int32_t p) const { return m_removed[p] ? 0 : m_avail[p]; }
    // Only the retries look at GPU counts, so they are read when first asked for.
    std::int32_t gpus(std::int32_t p) const {
        if (m_gpus.empty()) m_gpus = usableGpus(m_cluster, m_table, m_pool, m_job.exclusive);
        return m_gpus[p];
    }
    bool enoughNodes(std::int64_t available) const {
        const std::int64_t needed = m_reqNodes > m_job.minNodes ? m_remNodes + m_job.minNodes - m_reqNodes : m_remNodes;
        return available >= needed;
    }
    // _topo_compare_switches' i_fit: 23.02+ also wants the switch's CPU sum to cover rem_cpus.
    bool fits(std::int32_t s) const { return m_count[s] >= m_remNodes && (!m_rules.cpuSums || m_cpus[s] >= m_remCpus); }
    // Whether CPUs, not only node counts, can decide a comparison: a -n job under 23.02+ rules (for an
    // -N job every node brings its share, so enough nodes always means enough CPUs).
    bool cpusDecide() const { return m_rules.cpuSums && m_job.ntasks > 0; }
    // The CPUs a node gives the job, as _cpus_to_use (22.05) / eval_nodes_cpus_to_use (26.05) cap them:
    // no more than rem_max_cpus less one CPU for each further node the job must still take (cpus per
    // core is 1 here: a Kubernetes node's CPUs are counted as cores), but at least pn_min_cpus; a
    // whole-node job keeps all. Slurm writes a lowered count back into avail_res, so later passes of
    // this job see the node with that many CPUs. Then rem_cpus and rem_max_cpus drop by it.
    void consume(std::int32_t position) {
        std::int64_t cpus = cpusOf(position);
        if (!m_job.exclusive) {
            const std::int64_t room = m_remMaxCpus - std::max<std::int64_t>(m_minRemNodes - 1, 0);
            if (cpus > room) {
                cpus = std::max<std::int64_t>(room, m_job.cpusPerNode);
                m_avail[position] = static_cast<std::int32_t>(cpus);
            }
        }
        --m_remNodes;
        --m_minRemNodes;
        --m_maxNodes;
        m_remCpus -= cpus;
        m_remMaxCpus -= cpus;
    }
    // Takes one node into the allocation; true when the request is satisfied.
    bool take(std::int32_t position) {
        m_selected[position] = 1;
        consume(position);
        return m_remNodes <= 0 && m_remCpus <= 0;
    }
    Step begin(Pass& pass, std::int32_t reqNodes);
    void groupByWeight();
    void countSwitches();
    Step chooseTopSwitch(Pass& pass, std::int32_t keepTop);
    Step takeWeightGroups(Pass& pass);
    void traceWeightGroups(const TreeSwitch& top, std::size_t groupsUsed) const;
    Step fillHeldLeaves(Pass& pass);
    void subtract(std::int32_t s, std::int64_t taken);
    void addDistances(std::int32_t from);
    Comparison compare(std::int32_t candidate, std::int32_t incumbent) const;
    std::string comparisonText(const Comparison& c, bool candidateWon) const;
    // "6 nodes"; for a -n job under 23.02+ rules "1 node and 8 CPUs", or "4 CPUs" once the nodes are
    // covered.
    std::string remainingText() const {
        const std::string nodes = std::to_string(m_remNodes) + " nodes";
        if (!cpusDecide()) return nodes;
        const std::string cpus = plural(m_remCpus, "CPU", "CPUs");
        return m_remNodes > 0 ? plural(m_remNodes, "node", "nodes") + " and " + cpus : cpus;
    }
    std::string candidateText(const CandidateRecord& record) const;
    void chooseTop(Pass& pass);
    void traceTop(std::int32_t top, const std::vector<char>& qualifies) const;
    bool leafLoop();
    Step fail(Pass& pass, Failure failure, std::string why, RetryAction retry = RetryAction::Break) const;
    Pass succeed(Pass pass) const;

    const SwitchTree& m_tree;
    const SlurmNodeMap& m_nodes;
    const TreeJob& m_job;
    const TreeRules& m_rules;
    const SlurmNodeTable& m_table;
    const PlacementCluster& m_cluster;
    SlurmPool m_pool;
    TraceBudget* m_trace;
    mutable std::vector<std::int32_t> m_gpus; // usable GPUs by node position, once asked for

    std::vector<std::int32_t> m_startAvail; // avail_cpus by node position as cons_tres computed them
    std::vector<std::int32_t> m_avail;      // the same, as _cpus_to_use left them
    std::vector<char> m_removed;            // taken out of node_map by a retry
    std::int32_t m_reqNodes = 0;
    std::int64_t m_remNodes = 0, m_minRemNodes = 0, m_maxNodes = 0, m_remCpus = 0, m_remMaxCpus = 0;
    bool m_maxNodesReached = false;                  // the leaf loop stopped at the maximum node count
    std::int64_t m_eligible = 0;                     // nodes in node_map
    std::vector<char> m_selected;                    // node_map
    std::vector<char> m_underTop;                    // by node position
    std::vector<char> m_candidate;                   // under the top switch and among the nodes the weights allow
    std::vector<std::uint32_t> m_weights;            // the weight groups' weights, ascending
    std::vector<std::vector<std::int32_t>> m_groups; // node positions per weight group
    std::vector<std::int32_t> m_groupOf;             // weight group by node position
    std::vector<std::int32_t> m_forced;              // lower-weight nodes forced in, ascending
    std::vector<std::int64_t> m_count;               // switch_node_cnt
    std::vector<std::int64_t> m_cpus;                // switch_cpu_cnt (filled once, as Slurm does)
    std::vector<std::int64_t> m_firstCpus;           // the same, as the first pass of this _eval_nodes_topo had it
    std::vector<std::int32_t> m_lowestGroup;         // lightest weight group on each switch
    std::vector<char> m_requiredSwitch;
    std::vector<std::uint32_t> m_distance;
    std::vector<std::int32_t> m_filled; // leaves in fill order
};

void TreePass::subtract(std::int32_t s, std::int64_t taken) {
    for (std::int32_t x = s; x != kNone; x = sw(x).parent) m_count[x] = m_count[x] <= taken ? 0 : m_count[x] - taken;
}

// Adds the hop distances from one switch to every switch (BFS over parent-child links gives the
// same numbers as slurmctld's Floyd-Warshall table).
void TreePass::addDistances(std::int32_t from) {
    std::vector<std::uint32_t> hops(m_tree.switches.size(), kInfinite);
    std::vector<std::int32_t> queue{from};
    hops[from] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (const std::int32_t next : m_tree.links[queue[head]])
            if (hops[next] == kInfinite) {
                hops[next] = hops[queue[head]] + 1;
                queue.push_back(next);
            }
    for (std::size_t s = 0; s < hops.size(); ++s)
        m_distance[s] = (hops[s] == kInfinite || m_distance[s] == kInfinite) ? kInfinite : m_distance[s] + hops[s];
}

// _topo_compare_switches: fit decides, tighter fit wins, and when neither fits both climb to
// their parents until those differ no more.
Comparison TreePass::compare(std::int32_t candidate, std::int32_t incumbent) const {
    Comparison c;
    std::int32_t a = candidate, b = incumbent;
    while (true) {
        const bool aFits = fits(a), bFits = fits(b);
        c.candidateFits = aFits;
        c.a = a;
        c.b = b;
        if (aFits && bFits) {
            if (m_count[a] != m_count[b]) {
                c.result = m_count[a] < m_count[b] ? 1 : -1;
                c.decider = Decider::TighterFit;
                return c;
            }
            break;
        }
        if (aFits || bFits) {
            c.result = aFits ? 1 : -1;
            c.decider = Decider::OnlyOneFits;
            return c;
        }
        const std::int32_t pa = sw(a).parent, pb = sw(b).parent;
        // A root's parent is SWITCH_NO_PARENT; Slurm would index past its table when leaves sit
        // at different depths. We stop climbing there.
        if (pa == pb || pa == kNone || pb == kNone) break;
        a = pa;
        b = pb;
        ++c.climbs;
    }
    if (m_count[a] != m_count[b]) {
        c.result = m_count[a] > m_count[b] ? 1 : -1;
        c.decider = Decider::MoreNodes;
    } else if (sw(a).level != sw(b).level) {
        c.result = sw(a).level < sw(b).level ? 1 : -1;
        c.decider = Decider::LowerLevel;
    }
    return c;
}

std::string TreePass::comparisonText(const Comparison& c, bool candidateWon) const {
    const std::int32_t winner = candidateWon ? c.a : c.b, loser = candidateWon ? c.b : c.a;
    const std::string prefix = c.climbs > 0 ? "level-" + std::to_string(sw(winner).level) + " ancestor " : "";
    const std::string remaining = remainingText();
    // A -n job under 23.02+ rules: what each switch has of both.
    const auto has = [this](std::int32_t s) {
        return cpusDecide() ? plural(m_count[s], "node", "nodes") + ", " + plural(m_cpus[s], "CPU", "CPUs")
                            : std::to_string(m_count[s]);
    };
    switch (c.decider) {
    case Decider::TighterFit:
        return prefix + sw(winner).name + " is a tighter fit: " + std::to_string(m_count[winner]) + " < " +
               std::to_string(m_count[loser]) + " nodes";
    case Decider::OnlyOneFits:
        return prefix + sw(winner).name + " fits the remaining " + remaining + " (" + has(winner) + "), " +
               sw(loser).name + " does not (" + has(loser) + ")";
    case Decider::MoreNodes:
        return "neither " + prefix + sw(winner).name + " nor " + sw(loser).name + " fits the remaining " + remaining +
               (cpusDecide() ? " (" + has(winner) + "; " + has(loser) + "); more nodes: " : "; more available: ") +
               std::to_string(m_count[winner]) + " > " + std::to_string(m_count[loser]);
    case Decider::LowerLevel:
        return prefix + sw(winner).name + " is at a lower level: " + std::to_string(sw(winner).level) + " < " +
               std::to_string(sw(loser).level);
    case Decider::Tie:
        break;
    }
    return "";
}

std::string TreePass::candidateText(const CandidateRecord& r) const {
    const std::string counts = plural(m_count[r.leaf], "node", "nodes");
    if (r.incumbent == kNone) return "first candidate: " + counts + ", distance " + std::to_string(r.distance);
    const std::string& incumbent = sw(r.incumbent).name;
    const std::string d = std::to_string(r.distance), di = std::to_string(r.incumbentDistance);
    const Comparison& c = r.comparison;
    if (r.replaced) {
        if (r.distance < r.incumbentDistance) {
            std::string text = "closer than " + incumbent + ": distance " + d + " < " + di;
            if (m_rules.closerNeedsFitOnly) return text + ", and it fits the remaining " + remainingText();
            return text + (c.result > 0 ? ", and " + comparisonText(c, true) : ", and no looser a fit");
        }
        return "beats " + incumbent + " at distance " + d + ": " + comparisonText(c, true);
    }
    if (r.distance > r.incumbentDistance) return incumbent + " is closer: distance " + di + " < " + d;
    if (r.distance < r.incumbentDistance) {
        std::string text = "closer than " + incumbent + " (distance " + d + " < " + di + ") but ";
        if (m_rules.closerNeedsFitOnly) return text + "it does not fit the remaining " + remainingText();
        return text + comparisonText(c, false);
    }
    if (c.result < 0) return incumbent + " wins at distance " + d + ": " + comparisonText(c, false);
    return "ties with " + incumbent + " (" + counts + ", distance " + d + "): the earlier switch is kept";
}

TreePass::Step TreePass::fail(Pass& pass, Failure failure, std::string why, RetryAction retry) const {
    pass.failure = failure;
    pass.why = std::move(why);
    pass.selected.clear();
    pass.leaves.clear();
    pass.retry = retry;
    pass.nodeMap.clear();
    if (retry == RetryAction::DropTop) {
        for (const std::int32_t p : sw(pass.top).nodes)
            if (cpusOf(p) > 0) pass.nodeMap.push_back(p);
    } else if (retry == RetryAction::DropTaken) {
        for (std::size_t p = 0; p < m_selected.size(); ++p)
            if (m_selected[p]) pass.nodeMap.push_back(static_cast<std::int32_t>(p));
    }
    m_trace->add("", "", false, pass.why);
    return Step::Failed;
}

// Lists the allocation and the leaves holding it (--switches counts every leaf switch that holds
// one of its nodes).
Pass TreePass::succeed(Pass pass) const {
    pass.selected.clear();
    for (std::size_t position = 0; position < m_selected.size(); ++position)
        if (m_selected[position]) pass.selected.push_back(static_cast<std::int32_t>(position));
    pass.leaves = m_filled;
    for (const std::int32_t leaf : m_tree.leaves) {
        const auto& nodes = sw(leaf).nodes;
        if (!std::any_of(nodes.begin(), nodes.end(), [this](std::int32_t p) { return m_selected[p] != 0; })) continue;
        ++pass.leafCount;
        if (std::find(pass.leaves.begin(), pass.leaves.end(), leaf) == pass.leaves.end()) pass.leaves.push_back(leaf);
    }
    return pass;
}

// One line for the top switch and for each switch that competed with it at its level or above;
// the rest (on a large cluster, thousands of switches) are summarised per level.
void TreePass::traceTop(std::int32_t top, const std::vector<char>& qualifies) const {
    if (!m_trace->enabled()) return;
    const std::string needed = std::to_string(m_remNodes) + " needed";
    if (top != kNone)
        m_trace->add(switchLevelName(sw(top).level), sw(top).name, true,
                     (m_job.required.empty() ? "top switch: the highest level with enough nodes ("
                                             : "top switch: the highest-level switch holding required nodes (") +
                         plural(m_count[top], "eligible node", "eligible nodes") + ", " + needed + ")");
    int highest = 0;
    for (const TreeSwitch& x : m_tree.switches) highest = std::max(highest, x.level);
    for (int level = highest; level >= 0; --level) {
        std::int64_t below = 0, short_ = 0, required = 0;
        std::int32_t largestShort = kNone;
        for (std::size_t i = 0; i < m_tree.switches.size(); ++i) {
            const auto s = static_cast<std::int32_t>(i);
            if (s == top || sw(s).level != level) continue;
            if (!m_job.required.empty()) {
                required += m_requiredSwitch[s];
            } else if (!qualifies[s]) {
                ++short_;
                if (largestShort == kNone || m_count[s] > m_count[largestShort]) largestShort = s;
            } else if (top != kNone && level < sw(top).level) {
                ++below;
            } else if (top != kNone) {
                const std::string have = "enough nodes (" + std::to_string(m_count[s]) + ")";
                m_trace->add(switchLevelName(level), sw(s).name, false,
                             m_lowestGroup[s] > m_lowestGroup[top]
                                 ? have + " but its lightest nodes weigh more than " + sw(top).name + "'s"
                                 : have + "; " + sw(top).name + " comes later in the topology at the same level");
            }
        }
        const std::string where = " at level " + std::to_string(level);
        if (required > 0)
            m_trace->add(switchLevelName(level), "", false,
                         plural(required, "switch", "switches") + where +
                             " also hold required nodes, below the top switch");
        if (below > 0)
            m_trace->add(switchLevelName(level), "", false,
                         plural(below, "switch", "switches") + where +
                             " have enough nodes but sit below the top switch");
        if (short_ > 0)
            m_trace->add(switchLevelName(level), "", false,
                         plural(short_, "switch", "switches") + where + " have too few eligible nodes" +
                             (m_rules.cpuSums ? " or CPUs" : "") + " (largest: " + sw(largestShort).name + " with " +
                             std::to_string(m_count[largestShort]) + ", " + needed + ")");
    }
}

void TreePass::chooseTop(Pass& pass) {
    const std::size_t switchCount = m_tree.switches.size();
    std::vector<char> qualifies(switchCount, 0);
    std::int32_t top = kNone, topGroup = 0;
    for (std::size_t i = 0; i < switchCount; ++i) {
        const auto s = static_cast<std::int32_t>(i);
        if (m_requiredSwitch[s] && (top == kNone || sw(s).level > sw(top).level)) top = s;
        if (!enoughNodes(m_count[s]) || (m_rules.cpuSums && m_remCpus > m_cpus[s])) continue;
        qualifies[s] = 1;
        if (!m_job.required.empty() || m_count[s] == 0) continue;
        // The lightest weight group on the switch must be no heavier; equal levels go to the later.
        if (top == kNone || (sw(s).level >= sw(top).level && m_lowestGroup[s] <= topGroup)) {
            top = s;
            topGroup = m_lowestGroup[s];
        }
    }
    pass.top = top;
    traceTop(top, qualifies);
}

void TreePass::startJob() {
    // cons_tres' avail_cpus: the free CPUs of the cores the job may use; with -c and no GPUs,
    // _allocate_sc counts whole tasks only (tasks x cpus_per_task). With GPUs the GRES core filter
    // decides later, which is not modelled.
    m_startAvail = m_nodes.cpus;
    if (m_job.cpusPerTask > 1 && m_job.gpusPerNode == 0)
        for (std::int32_t& cpus : m_startAvail) cpus -= cpus % m_job.cpusPerTask;
    m_avail = m_startAvail;
    m_removed.assign(m_avail.size(), 0);
}

// _eval_nodes_topo for a request of reqNodes nodes, step by step.
Pass TreePass::run(std::int32_t reqNodes, std::int32_t keepTop) {
    Pass pass;
    Step step = begin(pass, reqNodes);
    if (step == Step::Next) {
        groupByWeight();
        countSwitches();
        // try_again starts after the top switch was chosen: it keeps that switch, and the switch
        // CPU sums as they were (nodes capped by the pass before count in full).
        if (keepTop == kNone)
            m_firstCpus = m_cpus;
        else
            m_cpus = m_firstCpus;
        step = chooseTopSwitch(pass, keepTop);
    }
    if (step == Step::Next) step = takeWeightGroups(pass);
    if (step == Step::Next) step = fillHeldLeaves(pass);
    if (step == Step::Next) {
        m_distance.assign(m_tree.switches.size(), 0);
        for (std::size_t s = 0; s < m_tree.switches.size(); ++s)
            if (m_requiredSwitch[s]) addDistances(static_cast<std::int32_t>(s));
        if (leafLoop() || (m_minRemNodes <= 0 && m_remCpus <= 0))
            step = Step::Satisfied;
        else if (m_maxNodesReached && m_rules.sortedRetry)
            step = fail(pass, Failure::MaxNodes,
                        "the maximum node count was reached with " + plural(m_remCpus, "CPU", "CPUs") + " still needed",
                        RetryAction::DropTaken);
        else
            step = fail(
                pass, Failure::Stalled,
                "the leaves under " + sw(pass.top).name + " ran out with " +
                    (m_minRemNodes > 0 ? plural(m_minRemNodes, "node", "nodes") : plural(m_remCpus, "CPU", "CPUs")) +
                    " still needed",
                RetryAction::DropTaken);
    }
    return step == Step::Satisfied ? succeed(pass) : pass;
}

// The counters for this request; the required nodes are taken first.
TreePass::Step TreePass::begin(Pass& pass, std::int32_t reqNodes) {
    m_reqNodes = reqNodes;
    m_remNodes = std::max(m_job.minNodes, reqNodes);
    m_minRemNodes = m_job.minNodes;
    m_maxNodes = m_job.maxNodes;
    m_remCpus = m_remMaxCpus = m_job.minCpus;
    m_maxNodesReached = false;
    m_selected.assign(m_nodes.cpus.size(), 0);
    m_filled.clear();
    m_forced.clear();
    m_eligible = 0;
    for (std::size_t p = 0; p < m_avail.size(); ++p) m_eligible += cpusOf(static_cast<std::int32_t>(p)) > 0;
    if (m_eligible < m_job.minNodes)
        return fail(pass, Failure::FewEligible,
                    "only " + plural(m_eligible, "node can", "nodes can") + " take the job, -N " +
                        std::to_string(m_job.minNodes) + " needs " + std::to_string(m_job.minNodes));
    for (const std::int32_t position : m_job.required) {
        if (cpusOf(position) == 0)
            return fail(pass, Failure::RequiredUnavailable,
                        "required node " + m_table.name(position) + " lacks available resources");
        take(position);
    }
    return Step::Next;
}

// Weight groups: the distinct weights of the nodes in node_map, lightest first.
void TreePass::groupByWeight() {
    const std::size_t nodeCount = m_nodes.cpus.size();
    m_weights.clear();
    for (std::size_t p = 0; p < nodeCount; ++p)
        if (cpusOf(static_cast<std::int32_t>(p)) > 0) m_weights.push_back(m_nodes.weight[p]);
    std::sort(m_weights.begin(), m_weights.end());
    m_weights.erase(std::unique(m_weights.begin(), m_weights.end()), m_weights.end());
    m_groups.assign(m_weights.size(), {});
    m_groupOf.assign(nodeCount, kNone);
    for (std::size_t p = 0; p < nodeCount; ++p) {
        if (cpusOf(static_cast<std::int32_t>(p)) == 0) continue;
        const auto g = static_cast<std::int32_t>(
            std::lower_bound(m_weights.begin(), m_weights.end(), m_nodes.weight[p]) - m_weights.begin());
        m_groupOf[p] = g;
        m_groups[static_cast<std::size_t>(g)].push_back(static_cast<std::int32_t>(p));
    }
}

// Switch counts over node_map. The CPU sums (23.02+ switch_cpu_cnt) add each node's avail_cpus as
// they stand now (a required node's already capped by _cpus_to_use): the free CPUs the job may use,
// not the node's total. They are computed once per pass and never lowered, neither when the weight
// groups narrow the candidates nor when nodes are taken.
void TreePass::countSwitches() {
    const std::size_t switchCount = m_tree.switches.size();
    m_count.assign(switchCount, 0);
    m_cpus.assign(switchCount, 0);
    m_lowestGroup.assign(switchCount, std::numeric_limits<std::int32_t>::max());
    m_requiredSwitch.assign(switchCount, 0);
    for (std::size_t s = 0; s < switchCount; ++s)
        for (const std::int32_t p : m_tree.switches[s].nodes) {
            if (cpusOf(p) == 0) continue;
            ++m_count[s];
            m_cpus[s] += cpusOf(p);
            m_lowestGroup[s] = std::min(m_lowestGroup[s], m_groupOf[p]);
            if (m_selected[p]) m_requiredSwitch[s] = 1;
        }
}

// The top switch, and whether the required nodes sit under it (and already satisfy the job).
TreePass::Step TreePass::chooseTopSwitch(Pass& pass, std::int32_t keepTop) {
    if (keepTop == kNone)
        chooseTop(pass);
    else
        pass.top = keepTop;
    if (pass.top == kNone && !m_job.required.empty())
        return fail(pass, Failure::RequiredSpansTop,
                    "the required nodes " + m_table.hostlist(m_job.required) + " are under no switch");
    if (pass.top == kNone) {
        std::int32_t largest = kNone;
        for (std::size_t s = 0; s < m_tree.switches.size(); ++s)
            if (largest == kNone || m_count[s] > m_count[largest]) largest = static_cast<std::int32_t>(s);
        return fail(pass, Failure::NoTopSwitch,
                    "no switch has the " + std::to_string(m_remNodes) + " nodes needed" +
                        (largest == kNone
                             ? std::string()
                             : " (largest: " + sw(largest).name + " with " + std::to_string(m_count[largest]) + ")"));
    }
    const TreeSwitch& top = sw(pass.top);
    m_underTop.assign(m_nodes.cpus.size(), 0);
    for (const std::int32_t p : top.nodes) m_underTop[p] = 1;
    pass.topHoldsAll = m_count[pass.top] == m_eligible;
    for (const std::int32_t position : m_job.required)
        if (!m_underTop[position])
            return fail(pass, Failure::RequiredSpansTop,
                        "required nodes " + m_table.hostlist(m_job.required) + " are not all under " + top.name);
    if (m_job.required.empty()) return Step::Next;
    if (m_remNodes <= 0 && m_remCpus <= 0) return Step::Satisfied;
    if (m_maxNodes <= 0)
        return fail(pass, Failure::MaxNodes, "the required nodes already reach the maximum node count");
    return Step::Next;
}

// Whole weight groups under the top switch, added until they suffice. Groups before the last one
// are forced into the allocation; only the last group is chosen by topology. From here on switches
// count only the candidates: under the top switch and in those groups or node_map.
TreePass::Step TreePass::takeWeightGroups(Pass& pass) {
    const std::size_t nodeCount = m_nodes.cpus.size();
    std::vector<char> inBest(nodeCount, 0);
    std::vector<std::int32_t> best;
    std::int64_t bestCpus = 0;
    std::size_t forcedEnd = 0, groupsUsed = 0;
    bool sufficient = false, requested = false;
    for (std::size_t g = 0; g < m_groups.size() && !(m_rules.weightsToMax ? requested : sufficient); ++g) {
        if (!best.empty()) forcedEnd = best.size();
        for (const std::int32_t p : m_groups[g]) {
            if (m_selected[p] || !m_underTop[p]) continue;
            inBest[p] = 1;
            best.push_back(p);
            bestCpus += cpusOf(p);
        }
        const bool enough = bestCpus >= m_remCpus && enoughNodes(static_cast<std::int64_t>(best.size()));
        sufficient = m_rules.weightsToMax ? sufficient || enough : enough;
        requested = static_cast<std::int64_t>(best.size()) >= m_remNodes && bestCpus >= m_remCpus;
        groupsUsed = g + 1;
    }
    traceWeightGroups(sw(pass.top), groupsUsed);
    if (!sufficient)
        return fail(pass, Failure::WeightShort,
                    "the " + std::to_string(best.size()) + " usable nodes under " + sw(pass.top).name +
                        (m_job.ntasks > 0 ? " (" + plural(bestCpus, "CPU", "CPUs") + ")" : "") + " are not enough",
                    RetryAction::DropTop);

    m_forced.assign(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(forcedEnd));
    std::sort(m_forced.begin(), m_forced.end());
    if (!m_forced.empty()) {
        for (const std::int32_t p : m_forced) {
            if (m_maxNodes <= 0) break;
            consume(p);
        }
        // Every forced node joins node_map, even past the maximum node count.
        for (const std::int32_t p : m_forced) m_selected[p] = 1;
        for (std::size_t s = 0; s < m_tree.switches.size(); ++s)
            if (!m_requiredSwitch[s])
                for (const std::int32_t p : m_tree.switches[s].nodes)
                    if (m_underTop[p] && inBest[p] && m_selected[p]) {
                        m_requiredSwitch[s] = 1;
                        break;
                    }
        if (m_remNodes <= 0 && m_remCpus <= 0) return Step::Satisfied;
        if (m_maxNodes <= 0)
            return fail(pass, Failure::MaxNodes, "the lower-weight nodes alone exceed the maximum node count",
                        RetryAction::DropTaken);
    }

    m_candidate.assign(nodeCount, 0);
    for (std::size_t p = 0; p < nodeCount; ++p) m_candidate[p] = m_underTop[p] && (inBest[p] || m_selected[p]);
    for (std::size_t s = 0; s < m_tree.switches.size(); ++s) {
        std::int64_t n = 0;
        for (const std::int32_t p : m_tree.switches[s].nodes) n += m_candidate[p];
        m_count[s] = n;
    }
    return Step::Next;
}

void TreePass::traceWeightGroups(const TreeSwitch& top, std::size_t groupsUsed) const {
    if (m_groups.size() <= 1) return;
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        std::int64_t under = 0;
        for (const std::int32_t p : m_groups[g]) under += m_underTop[p] && !m_selected[p];
        const std::string label = "Weight=" + std::to_string(m_weights[g]);
        const std::string nodes = plural(under, "node", "nodes") + " under " + top.name;
        if (g >= groupsUsed)
            m_trace->add("", label, false, nodes + ", not needed");
        else if (g + 1 < groupsUsed)
            m_trace->add("", label, true, nodes + ": all taken, lower weights are always used first");
        else
            m_trace->add("", label, true, nodes + ": chosen by topology");
    }
}

// Leaves that hold required or forced nodes are filled first, in node-table order.
TreePass::Step TreePass::fillHeldLeaves(Pass& pass) {
    if (m_job.required.empty() && m_forced.empty()) return Step::Next;
    std::int64_t taken = 0; // Slurm keeps counting across leaves, and subtracts the running total
    for (const std::int32_t leaf : m_tree.leaves) {
        if (!m_requiredSwitch[leaf]) continue;
        std::vector<std::int32_t> took;
        bool done = false;
        for (const std::int32_t p : sw(leaf).nodes) {
            if (!m_candidate[p] || m_selected[p]) continue;
            ++taken;
            took.push_back(p);
            if ((done = take(p))) break;
            // 25.11+ gives up here when the maximum node count is reached; 22.05 goes on
            // (the success test still ends the fill).
            if (m_rules.sortedRetry && m_maxNodes <= 0) break;
        }
        m_filled.push_back(leaf);
        if (m_trace->room() > 0)
            m_trace->add(switchLevelName(0), sw(leaf).name, true,
                         std::string(m_job.required.empty() ? "holds lower-weight nodes" : "holds required nodes") +
                             ", filled first" + (took.empty() ? "" : ": takes " + m_table.hostlist(took)));
        else
            m_trace->drop(1);
        if (done) return Step::Satisfied;
        if (m_rules.sortedRetry && m_maxNodes <= 0)
            return fail(pass, Failure::MaxNodes,
                        "the maximum node count was reached with " + plural(m_remCpus, "CPU", "CPUs") + " still needed",
                        RetryAction::DropTaken);
        if (m_rules.subtractAncestors) subtract(leaf, taken);
    }
    return Step::Next;
}

// The leaf loop: pick the best leaf (_topo_choose_best_switch), take its nodes in node-table
// order, repeat until satisfied or stalled. True when the request is satisfied.
bool TreePass::leafLoop() {
    // Every round's winner is traced; the losers fill the room left, earliest rounds first.
    struct RoundTrace {
        std::vector<TraceEntry> losers;
        std::size_t unrecorded = 0;
        TraceEntry winner;
    };
    std::vector<RoundTrace> rounds;
    const std::size_t room = m_trace->room();
    std::size_t losersRecorded = 0;
    bool done = false;
    std::int64_t previous = m_remNodes + 1;
    for (int round = 1; !done && previous != m_remNodes; ++round) {
        previous = m_remNodes;
        std::int32_t chosen = kNone;
        CandidateRecord chosenRecord;
        std::vector<CandidateRecord> records;
        std::size_t unrecorded = 0;
        for (const std::int32_t leaf : m_tree.leaves) {
            if (m_requiredSwitch[leaf]) continue;
            if (m_count[leaf] == 0 || m_distance[leaf] == kInfinite) continue; // Slurm's "first possibility" guard
            CandidateRecord record;
            record.leaf = leaf;
            record.distance = m_distance[leaf];
            if (chosen == kNone) {
                record.replaced = true;
            } else {
                record.incumbent = chosen;
                record.incumbentDistance = m_distance[chosen];
                record.comparison = compare(leaf, chosen);
                const bool closer = m_distance[leaf] < m_distance[chosen];
                const bool sameDistance = m_distance[leaf] == m_distance[chosen];
                record.replaced = (sameDistance && record.comparison.result > 0) ||
                                  (closer && (m_rules.closerNeedsFitOnly ? record.comparison.candidateFits
                                                                         : record.comparison.result >= 0));
            }
            if (record.replaced) {
                chosen = leaf;
                chosenRecord = record;
            }
            if (losersRecorded + records.size() < room)
                records.push_back(record);
            else
                ++unrecorded;
        }
        if (chosen == kNone) break;

        RoundTrace trace;
        if (m_trace->enabled()) {
            // Texts are built now: they quote the counts this round compared.
            const std::string prefix = "round " + std::to_string(round) + ": ";
            bool chosenRecorded = false;
            for (const CandidateRecord& record : records) {
                if (record.leaf == chosen) {
                    chosenRecorded = true;
                    continue;
                }
                trace.losers.push_back(TraceEntry{switchLevelName(0), sw(record.leaf).name, false,
                                                  prefix + candidateText(record) +
                                                      (record.replaced ? "; displaced later in the round" : "")});
            }
            trace.unrecorded = unrecorded - (chosenRecorded ? 0 : 1);
            losersRecorded += trace.losers.size();
            trace.winner = TraceEntry{switchLevelName(0), sw(chosen).name, true,
                                      prefix + "chosen, " + candidateText(chosenRecord)};
        }

        addDistances(chosen);
        std::vector<std::int32_t> took;
        for (const std::int32_t p : sw(chosen).nodes) {
            if (m_maxNodes <= 0) break;
            if (!m_candidate[p] || m_selected[p]) continue;
            took.push_back(p);
            if ((done = take(p))) break;
        }
        // With the maximum node count taken and the job not satisfied, later rounds can take nothing:
        // 25.11+ fails here at once, 22.05 stalls a round later (same nodes, another error).
        m_maxNodesReached = !done && m_maxNodes <= 0;
        if (!took.empty()) m_filled.push_back(chosen);
        if (m_trace->enabled()) {
            trace.winner.reason += took.empty() ? "; no node left to take" : "; takes " + m_table.hostlist(took);
            rounds.push_back(std::move(trace));
        }
        if (done || m_maxNodesReached) break;
        if (m_rules.subtractAncestors) subtract(chosen, m_count[chosen]);
        m_count[chosen] = 0;
    }

    std::size_t loserRoom = room > rounds.size() ? room - rounds.size() : 0;
    for (RoundTrace& trace : rounds) {
        const std::size_t keep = std::min(loserRoom, trace.losers.size());
        loserRoom -= keep;
        for (std::size_t i = 0; i < keep; ++i) m_trace->add(std::move(trace.losers[i]));
        m_trace->drop(trace.losers.size() - keep + trace.unrecorded);
        m_trace->add(std::move(trace.winner));
    }
    return done;
}

Pass TreePass::firstUsableNode() {
    Pass pass;
    m_selected.assign(m_nodes.cpus.size(), 0);
    m_filled.clear();
    std::int32_t pick = kNone;
    if (!m_job.required.empty()) {
        pick = m_job.required.front();
        if (!m_nodes.contains(pick)) {
            fail(pass, Failure::RequiredUnavailable,
                 "required node " + m_table.name(pick) + " lacks available resources");
            return pass;
        }
    } else {
        for (std::size_t p = 0; p < m_nodes.cpus.size(); ++p)
            if (m_nodes.cpus[p] > 0 && (pick == kNone || m_nodes.weight[p] < m_nodes.weight[pick]))
                pick = static_cast<std::int32_t>(p);
        if (pick == kNone) {
            fail(pass, Failure::FewEligible, "no node can take the job");
            return pass;
        }
    }
    m_selected[pick] = 1;
    m_trace->add("", m_table.name(pick), true,
                 "Slurm 26.05+ does not run topology/tree for a one-node job: the first usable node of the lowest "
                 "weight in node-table order");
    if (m_tree.firstLeafOf[pick] != kNone) m_filled.push_back(m_tree.firstLeafOf[pick]);
    return succeed(pass);
}

// ---------------------------------------------------------------------------------------------
// --switches: count the leaves of a successful pass; over the limit the job waits (23.02+ first
// retries a node range with one node fewer at a time). After the wait the first pass is accepted.

struct Evaluation {
    Pass placed;                // what runs: now, or after the wait
    bool waits = false;         // pending for --switches until the wait expires
    std::int32_t loweredTo = 0; // 23.02+: the -N a node range settled on within --switches
    std::string retried;        // how a retry after a failed first pass found the allocation
    bool retriesCut = false;    // the retries stopped at kMaxRetryPasses
};

// One call of _eval_nodes_topo.
Evaluation evalNodesTopo(TreePass& pass, const TreeJob& job, const TreeRules& rules, TraceBudget& trace) {
    Evaluation evaluation;
    evaluation.placed = pass.run(job.reqNodes);
    const Pass& first = evaluation.placed;
    if (!first.ok() || !job.switches || first.leafCount <= *job.switches || job.waitSeconds <= 0) return evaluation;
    // try_again: only while req_nodes > min_nodes, which a -n job without -N never has (slurmctld
    // schedules it from its minimum node count).
    if (rules.rangeRetry)
        for (std::int32_t req = job.reqNodes - 1; req >= job.minNodes; --req) {
            trace.add("", "", false,
                      plural(first.leafCount, "leaf switch", "leaf switches") + " > --switches=" +
                          std::to_string(*job.switches) + ": retry with " + std::to_string(req) + " nodes");
            Pass retry = pass.run(req, first.top);
            if (!retry.ok()) {
                evaluation.placed = std::move(retry);
                return evaluation;
            }
            if (retry.leafCount <= *job.switches) {
                evaluation.placed = std::move(retry);
                evaluation.loweredTo = req;
                return evaluation;
            }
        }
    evaluation.waits = true;
    return evaluation;
}

// Slurm's retries can run one pass per node; past this many topodeck stops and says so.
constexpr int kMaxRetryPasses = 256;

// One retry pass, untraced. One trace line says how it went; a successful pass is then run again,
// from the same avail_cpus, with its full trace.
Evaluation retryPass(TreePass& pass, const TreeJob& job, const TreeRules& rules, TraceBudget& trace,
                     const std::vector<std::int32_t>& removed, const std::string& why, int number) {
    std::vector<std::int32_t> avail = trace.enabled() ? pass.avail() : std::vector<std::int32_t>();
    TraceBudget silent(nullptr, 0);
    pass.setTrace(silent);
    Evaluation evaluation = evalNodesTopo(pass, job, rules, silent);
    pass.setTrace(trace);
    if (!trace.enabled()) return evaluation;
    // The nodes taken out so far, by name while they are few.
    std::string without = "on the same nodes";
    if (removed.size() > 16) {
        without = "without " + plural(static_cast<std::int64_t>(removed.size()), "node", "nodes") + why;
    } else if (!removed.empty()) {
        std::vector<std::int32_t> sorted = removed;
        std::sort(sorted.begin(), sorted.end());
        without = "without " + pass.table().hostlist(sorted) + why;
    }
    const std::string retry = "retry " + std::to_string(number) + ", " + without;
    if (evaluation.placed.ok()) evaluation.retried = retry;
    trace.add("", "", evaluation.placed.ok(),
              retry + ": " + (evaluation.placed.ok() ? "fits; that pass follows" : "fails: " + evaluation.placed.why));
    if (evaluation.placed.ok()) {
        pass.restoreAvail(std::move(avail));
        std::string retried = std::move(evaluation.retried);
        evaluation = evalNodesTopo(pass, job, rules, trace);
        evaluation.retried = std::move(retried);
    }
    return evaluation;
}

// The nodes of node_map in node-table order, as the retries start from them.
std::vector<std::int32_t> nodeMapOf(const TreePass& pass, std::size_t nodeCount) {
    std::vector<std::int32_t> nodes;
    for (std::size_t p = 0; p < nodeCount; ++p)
        if (pass.usable(static_cast<std::int32_t>(p))) nodes.push_back(static_cast<std::int32_t>(p));
    return nodes;
}

// 22.05 up to 25.05, choose_nodes after a failed _eval_nodes: for count = 1, 2, ... below the
// largest avail_res_cnt (CPUs, plus GPUs for a GPU job), take out every node (but required ones)
// with at most count resources, in node-table order and never below -N's minimum, and try again.
Evaluation retryByCount(TreePass& pass, const TreeJob& job, const TreeRules& rules, TraceBudget& trace,
                        Evaluation first) {
    const std::vector<std::int32_t> nodes = nodeMapOf(pass, pass.nodeCount());
    std::int64_t remNodes = static_cast<std::int64_t>(nodes.size());
    std::vector<std::int32_t> removed;
    if (remNodes <= job.minNodes) {
        // Nothing can go: one more pass (for GRES away from the cores, not modelled) on the same nodes.
        Evaluation again = retryPass(pass, job, rules, trace, removed, "", 1);
        return again.placed.ok() ? again : first;
    }
    std::int64_t mostResources = 0;
    for (const std::int32_t p : nodes) mostResources = std::max(mostResources, pass.resourceCount(p));
    int passes = 0;
    for (std::int64_t count = 1; count < mostResources; ++count) {
        bool changed = false;
        for (const std::int32_t p : nodes) {
            if (!pass.usable(p)) continue;
            const std::int64_t resources = pass.resourceCount(p);
            if (resources <= 0 || resources > count || pass.required(p)) continue;
            changed = true;
            pass.remove(p);
            removed.push_back(p);
            if (--remNodes <= job.minNodes) break;
        }
        if (!changed && count != 1) continue;
        if (++passes > kMaxRetryPasses) {
            first.retriesCut = true;
            break;
        }
        const std::string why =
            " (at most " + std::to_string(count) + (job.gpusPerNode > 0 ? " CPUs + GPUs)" : " CPUs)");
        Evaluation retry = retryPass(pass, job, rules, trace, removed, removed.empty() ? "" : why, passes);
        if (retry.placed.ok()) return retry;
        if (remNodes <= job.minNodes) break;
    }
    return first;
}

// 25.11+, common_topo_choose_nodes after a failed eval_nodes: the same pass again, then, until one
// succeeds, take out the nodes the failure points at: the top switch's (RETRY), or of the nodes the
// pass took the one with the smallest avail_res_prod (RETRY_HINT), else the next smallest of all
// (avail_res_prod: CPUs, times GPUs for a GPU job; ties in node-table order); stop on BREAK or at
// -N's minimum. The job's failure is the first of these passes'.
Evaluation retryLowestFirst(TreePass& pass, const TreeJob& job, const TreeRules& rules, TraceBudget& trace) {
    const std::size_t nodeCount = pass.nodeCount();
    std::int64_t remNodes = static_cast<std::int64_t>(nodeMapOf(pass, nodeCount).size());
    std::optional<Evaluation> firstFailure;
    std::vector<std::int32_t> removed, sorted;
    bool built = false, skipRemoved = false;
    std::size_t next = 0;
    for (int passes = 1;; ++passes) {
        if (passes > kMaxRetryPasses) {
            firstFailure->retriesCut = true;
            break;
        }
        Evaluation retry = retryPass(pass, job, rules, trace, removed, "", passes);
        if (retry.placed.ok()) return retry;
        if (!firstFailure) firstFailure = retry;
        const Pass& failed = retry.placed;
        if (failed.retry == RetryAction::Break || remNodes <= job.minNodes) break;
        if (failed.retry == RetryAction::DropTop) {
            for (const std::int32_t p : failed.nodeMap)
                if (pass.usable(p)) {
                    pass.remove(p);
                    removed.push_back(p);
                }
            remNodes = static_cast<std::int64_t>(nodeMapOf(pass, nodeCount).size());
            skipRemoved = built;
            if (built && next >= sorted.size()) break;
            continue;
        }
        if (!built) {
            for (std::size_t p = 0; p < nodeCount; ++p)
                if (pass.usable(static_cast<std::int32_t>(p)) && !pass.required(static_cast<std::int32_t>(p)))
                    sorted.push_back(static_cast<std::int32_t>(p));
            if (sorted.empty()) break;
            std::stable_sort(sorted.begin(), sorted.end(), [&pass](std::int32_t a, std::int32_t b) {
                return pass.resourceProduct(a) < pass.resourceProduct(b);
            });
            built = true;
            next = 0;
        }
        if (failed.retry == RetryAction::DropTaken && !failed.nodeMap.empty()) {
            std::size_t at = next;
            while (at < sorted.size() && !std::binary_search(failed.nodeMap.begin(), failed.nodeMap.end(), sorted[at]))
                ++at;
            if (at == sorted.size()) break;
            pass.remove(sorted[at]);
            removed.push_back(sorted[at]);
            --remNodes;
            if (at == next)
                ++next;
            else
                skipRemoved = true;
        } else {
            while (skipRemoved && next < sorted.size() && !pass.usable(sorted[next])) ++next;
            if (next == sorted.size()) break;
            pass.remove(sorted[next]);
            removed.push_back(sorted[next]);
            --remNodes;
            ++next;
        }
        if (next >= sorted.size()) break;
    }
    return std::move(*firstFailure);
}

// One job_test: the tree pass, and when it fails, cons_tres' (22.05 up to 25.05) or
// common_topo_choose_nodes' (25.11+) retries on fewer nodes. A failure that leaves nothing to try
// (BREAK in 25.11+: no top switch, an unavailable required node, too few nodes) ends it: 22.05
// would retry, but on fewer nodes those failures can only repeat.
Evaluation evaluate(TreePass& pass, const TreeJob& job, const TreeRules& rules, TraceBudget& trace) {
    pass.startJob();
    Evaluation evaluation;
    if (rules.oneNodeSkipsTree && job.maxNodes == 1) {
        evaluation.placed = pass.firstUsableNode();
        return evaluation;
    }
    evaluation = evalNodesTopo(pass, job, rules, trace);
    if (evaluation.placed.ok() || evaluation.placed.retry == RetryAction::Break) return evaluation;
    // Too few CPUs under a top switch that holds every node: on fewer nodes the same switch is the
    // top again (or none is) with fewer CPUs, so 22.05's retries can only fail; 25.11+ drops the
    // top switch's nodes and stops on the empty node_map.
    if (evaluation.placed.failure == Failure::WeightShort && evaluation.placed.topHoldsAll) return evaluation;
    trace.add("", "", false, "the pass failed; Slurm tries again on fewer nodes");
    if (rules.sortedRetry) return retryLowestFirst(pass, job, rules, trace);
    return retryByCount(pass, job, rules, trace, std::move(evaluation));
}

// Whether the job fits a pool at all (the submit-time check ignores --switches) and within
// --switches (what the will-run simulation behind `sbatch --test-only` needs).
struct Reach {
    bool fits = false;
    bool withinSwitches = false;
};

// What one dry-run needs besides the request: the switch tree, the node table and the rules.
struct TreeSetup {
    const PlacementCluster& cluster;
    const SlurmNodeTable& table;
    const SwitchTree& tree;
    const TreeRules& rules;
};

Reach reach(const TreeSetup& setup, const TreeJob& job, SlurmPool pool) {
    TraceBudget silent(nullptr, 0);
    const SlurmNodeMap nodes = slurmNodeMap(setup.cluster, setup.table, job, pool);
    TreePass pass(setup.tree, nodes, job, setup.rules, setup.table, setup.cluster, pool, silent);
    TreeJob plain = job;
    plain.switches.reset();
    Reach result;
    result.fits = evaluate(pass, plain, setup.rules, silent).placed.ok();
    result.withinSwitches = result.fits;
    if (result.fits && job.switches) {
        const Evaluation withSwitches = evaluate(pass, job, setup.rules, silent);
        result.withinSwitches = withSwitches.placed.ok() && !withSwitches.waits;
    }
    return result;
}

// ---------------------------------------------------------------------------------------------

std::string formatDuration(std::int64_t seconds) {
    char buffer[48];
    const long long s = seconds % 60, m = (seconds / 60) % 60, h = (seconds / 3600) % 24, d = seconds / 86400;
    if (d > 0)
        std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld", d, h, m, s);
    else if (h > 0)
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", h, m, s);
    else
        std::snprintf(buffer, sizeof buffer, "%lld:%02lld", m, s);
    return buffer;
}

// The job's CPUs and node counts as sbatch and slurmctld settle them. An -N job (and a gang) needs
// cpusPerNode CPUs on each node: min_cpus = -N x that. A -n job whose tasks may spread
// (SlurmRequest::ntasks) needs ntasks x -c CPUs in all, and any node that can run one task takes
// part (_select_cores: min_tasks_this_node is 1, or every task when the job can have one node
// only). sbatch (opt.c) lowers -N and the -w list to the task count. Without -N the job may use up to
// ntasks nodes (22.05 choose_nodes: max_nodes = MAX(num_tasks, min_nodes); 26.05
// _copy_job_desc_to_job_record: an implicit max_nodes) but is scheduled from its minimum
// (get_node_cnts: req_nodes = min_nodes).
TreeJob treeJobFor(SlurmJobSpec spec, const GangRequest& request) {
    TreeJob job;
    static_cast<SlurmJobSpec&>(job) = std::move(spec);
    job.reqNodes = job.maxNodes;
    job.cpusPerTask = request.slurm ? std::max(1, request.slurm->cpusPerTask) : job.cpusPerNode;
    job.minCpus = std::int64_t{job.minNodes} * job.cpusPerNode;
    if (!request.slurm || request.slurm->ntasks <= 0) return job;
    const SlurmRequest& s = *request.slurm;
    job.ntasks = s.ntasks;
    if (job.ntasks < job.minNodes) {
        job.minNodes = job.ntasks;
        if (job.required.size() > static_cast<std::size_t>(job.ntasks)) job.required.resize(job.ntasks);
    }
    if (s.nodeCountGiven) {
        job.maxNodes = std::max(job.minNodes, std::min(job.maxNodes, job.ntasks));
        job.reqNodes = job.maxNodes;
    } else {
        job.maxNodes = std::max(job.ntasks, job.minNodes);
        job.reqNodes = job.minNodes;
    }
    job.minCpus = std::int64_t{job.ntasks} * job.cpusPerTask;
    const std::int64_t share = job.maxNodes == 1 ? job.minCpus : job.cpusPerTask;
    job.cpusPerNode =
        static_cast<std::int32_t>(std::min<std::int64_t>(share, std::numeric_limits<std::int32_t>::max()));
    return job;
}

std::string unavailable(const PlacementCluster& cluster) {
    if (slurmTopologyIsFlat(cluster)) return {}; // topology/flat: placeSlurmFlat
    if (const SlurmTopology* topology = cluster.slurmTopology();
        topology && topology->kind != SlurmTopology::Kind::Tree)
        return "the Slurm topology \"" + topology->name + "\" is " +
               (topology->kind == SlurmTopology::Kind::Block ? "topology/block" : "topology/flat") +
               ", not a switch tree (topology/tree)";
    return {};
}

// Where the job would go were every running job gone, or were down nodes up: what Slurm says of a
// job that does not fit now.
void reportNotNow(const TreeSetup& setup, const TreeJob& job, const Pass& placed, PlacementResult& result) {
    result.notes.push_back("not now: " + placed.why);
    const Reach up = reach(setup, job, SlurmPool::Up);
    if (up.fits) {
        const std::string_view text = errnoText(placed.failure);
        result.message = setup.rules.errnoReasons && !text.empty() ? std::string(text) : "Resources";
        result.notes.push_back(up.withinSwitches
                                   ? std::string(kTestOnlyLaterStart)
                                   : "sbatch --test-only prints: allocation failure: Requested node configuration "
                                     "is not available (never within --switches=" +
                                         std::to_string(*job.switches) +
                                         "); a submitted job pends, then waits for switches");
        return;
    }
    reportSlurmUnreachable(reach(setup, job, SlurmPool::All).fits, result);
}

// The allocation, and what Slurm does with it: start now, or wait for --switches first.
void reportPlaced(const TreeSetup& setup, const TreeJob& job, const Evaluation& evaluation, PlacementResult& result) {
    const Pass& placed = evaluation.placed;
    const SwitchTree& tree = setup.tree;
    result.feasible = true;
    std::vector<std::string> names;
    for (const std::int32_t p : placed.selected) {
        const std::string& nodeName = setup.table.name(p);
        names.push_back(nodeName);
        result.nodes.push_back(NodePods{nodeName, 1});
        const std::int32_t leaf = tree.firstLeafOf[p];
        result.assignment.domains.push_back(
            TopologyAssignment::Domain{{leaf == kNone ? std::string() : tree.switches[leaf].name, nodeName}, 1});
    }
    result.assignment.levels = {"leaf switch", "kubernetes.io/hostname"};
    for (const std::int32_t leaf : placed.leaves)
        if (leaf != placed.top) result.chosen.push_back(ChosenDomain{switchLevelName(0), tree.switches[leaf].name});

    const std::string hosts = compressHostlist(names);
    if (evaluation.waits) {
        const std::string switches = plural(*job.switches, "switch", "switches");
        result.message = "would wait up to " + formatDuration(job.waitSeconds) + " for " + switches +
                         ", else place on " + plural(placed.leafCount, "switch", "switches");
        result.notes.push_back("Switches=" + std::to_string(*job.switches) + "@" + formatDuration(job.waitSeconds) +
                               ": the job pends (\"waiting for switches\") and runs on " + hosts +
                               " once the wait has passed, unless one leaf switch frees up first");
        result.notes.push_back(reach(setup, job, SlurmPool::Up).withinSwitches
                                   ? "sbatch --test-only predicts a later start within " + switches +
                                         ", when running jobs free it; it does not model the fallback after the wait"
                                   : "sbatch --test-only prints: allocation failure: Requested node configuration is "
                                     "not available (no placement within " +
                                         switches +
                                         " exists even with every node free), yet a submitted job runs after the wait");
        return;
    }
    if (evaluation.loweredTo > 0)
        result.notes.push_back("the node range was lowered to " + std::to_string(evaluation.loweredTo) +
                               " nodes to stay within --switches=" + std::to_string(*job.switches));
    if (job.switches && placed.leafCount > *job.switches)
        result.notes.push_back("--switches=" + std::to_string(*job.switches) + "@0: no wait, the job runs on " +
                               plural(placed.leafCount, "leaf switch", "leaf switches"));
    // Slurm says nothing when a job starts; this line is ours, in slurm-block's words.
    result.message =
        "would start now on " + plural(static_cast<std::int64_t>(names.size()), "node", "nodes") + ": " + hosts;
    if (!evaluation.retried.empty())
        result.notes.push_back("the first pass failed; Slurm found this allocation on its " + evaluation.retried);
    // The job's CPUs once its tasks are laid out: ntasks x -c for a -n job, its share on each node for
    // an -N job, whole nodes for --exclusive.
    std::int64_t processors = job.ntasks > 0 && !job.exclusive ? job.minCpus : 0;
    if (processors == 0)
        for (const std::int32_t p : placed.selected)
            processors += job.exclusive ? floorUnits(setup.cluster.node(setup.table.id(p)).allocatable.get("cpu"))
                                        : job.cpusPerNode;
    result.notes.push_back("sbatch --test-only prints: Job <id> to start at <now> using " + std::to_string(processors) +
                           " processors on nodes " + hosts);
}

} // namespace

std::string_view SlurmTreeEngine::name() const {
    return "slurm-tree";
}

std::string_view SlurmTreeEngine::description() const {
    return "Slurm topology/tree: best-fit leaf switches under the top switch, --switches waits (rules per "
           "--slurm-version)";
}

std::string SlurmTreeEngine::unavailableReason(const PlacementCluster& cluster, const GangRequest&) const {
    return unavailable(cluster);
}

// What Slurm reports, by where the job fits (node_scheduler.c _pick_best_nodes and job_start_data):
//   fits now, within --switches      starts now; `sbatch --test-only` prints "Job N to start at <now>
//                                    using P processors on nodes H in partition P"
//   fits now on more leaves          pends ("waiting for switches") until the wait ends, then runs on
//                                    them; --test-only predicts a later start within the switch count
//                                    if one ever exists, else "allocation failure: Requested node
//                                    configuration is not available"; it never models the fallback
//   fits on up nodes once free       pends: Reason=Resources (26.05+: the topology errno text);
//                                    --test-only prints a later start time
//   fits only counting down nodes    pends: "Nodes required for job are DOWN, DRAINED or reserved for
//                                    jobs in higher priority partitions" (ReqNodeNotAvail);
//                                    --test-only: "allocation failure: Requested node configuration is
//                                    not available"
//   never fits                       sbatch rejects it: "Requested node configuration is not
//                                    available"; --test-only prints the same after "allocation failure: "
PlacementResult SlurmTreeEngine::place(const PlacementCluster& cluster, const GangRequest& request,
                                       const EngineOptions& options) const {
    // No topology, or --contiguous (which _eval_nodes_topo leaves to the default selection).
    if (slurmTopologyIsFlat(cluster) || (request.slurm && request.slurm->contiguous && unavailable(cluster).empty()))
        return placeSlurmFlat(cluster, request, options, name());
    PlacementResult result;
    result.engine = std::string(name());
    if (std::string reason = unavailable(cluster); !reason.empty()) return refusedAtSubmit(std::move(result), reason);
    const TreeRules rules = TreeRules::forVersion(options.slurmVersion);
    result.notes.push_back(rules.describe(options.slurmVersion, options.slurmVersionOrigin));
    result.rulesVersion = options.slurmVersion.toString();
    result.rulesVersionOrigin = options.slurmVersionOrigin;

    const SlurmNodeTable table(cluster);
    SlurmTopology derived;
    const SlurmTopology* topology = cluster.slurmTopology();
    if (!topology) {
        derived = slurmTreeFromIndex(cluster.state(), cluster.index());
        topology = &derived;
        result.notes.push_back("switch tree derived from the node labels (one switch per domain of " +
                               std::to_string(slurmSwitchLevels(cluster.index())) +
                               " levels): pass --slurm-topology to use the cluster's topology.conf");
    }
    Result<SwitchTree> tree = buildSwitchTree(*topology, table);
    if (!tree) return refusedAtSubmit(std::move(result), tree.error().message);
    for (const std::string& warning : topology->warnings) result.notes.push_back("topology: " + warning);

    std::vector<std::string> jobNotes;
    Result<SlurmJobSpec> built = slurmJobFor(cluster, table, request, options, jobNotes);
    if (!built) return refusedAtSubmit(std::move(result), built.error().message);
    if (Status counts = settleNodeCounts(*built); !counts)
        return refusedAtSubmit(std::move(result), counts.error().message);
    const TreeJob job = treeJobFor(std::move(*built), request);
    result.notes.insert(result.notes.end(), jobNotes.begin(), jobNotes.end());
    if (job.ntasks > 0)
        result.notes.push_back("-n " + std::to_string(job.ntasks) + ": " + plural(job.minCpus, "CPU", "CPUs") +
                               " in all, on up to " + plural(job.maxNodes, "node", "nodes") + " with " +
                               plural(job.cpusPerNode, "free CPU", "free CPUs") + " or more each");
    if (job.segment > 0) result.notes.push_back("--segment applies to topology/block; topology/tree ignores it");

    TraceBudget trace(&result.trace, options.maxTraceEntries);
    const SlurmNodeMap now = slurmNodeMap(cluster, table, job, SlurmPool::Now);
    const std::string why = now.why.describe(job, true);
    trace.add("", "", now.eligible > 0,
              "node_map: " + std::to_string(now.eligible) + " of " + std::to_string(table.size()) +
                  " nodes can take the job" + (why.empty() ? "" : " (" + why + ")"));
    if (now.mixedWeights)
        result.notes.push_back("node weights differ: sbatch --test-only ignores Weight, so compare weight-dependent "
                               "placements with a submitted job");
    TreePass nowPass(*tree, now, job, rules, table, cluster, SlurmPool::Now, trace);
    const Evaluation evaluation = evaluate(nowPass, job, rules, trace);
    if (evaluation.retriesCut)
        result.notes.push_back("topodeck stopped Slurm's retries after " + std::to_string(kMaxRetryPasses) +
                               " passes; Slurm goes on and may still place the job");
    trace.finish(
        [](std::size_t dropped, std::size_t) { return std::to_string(dropped) + " more trace entries not shown"; });

    const Pass& placed = evaluation.placed;
    if (placed.top != kNone)
        result.chosen.push_back(
            ChosenDomain{switchLevelName(tree->switches[placed.top].level), tree->switches[placed.top].name});
    const TreeSetup setup{cluster, table, *tree, rules};
    if (placed.ok())
        reportPlaced(setup, job, evaluation, result);
    else
        reportNotNow(setup, job, placed, result);
    return result;
}

const PlacementEngine& slurmTreeEngine() {
    static const SlurmTreeEngine engine;
    return engine;
}

} // namespace topodeck
