#include "core/placement/engines/slurm_flat_selection.h"

#include "core/placement/engines/slurm_job.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Slurm's node selection without a topology, rewritten from a reading of SchedMD's code (facts,
// not code): 22.05 src/plugins/select/cons_tres/job_test.c (choose_nodes, _eval_nodes,
// _select_cores, _cpus_to_use, _enough_nodes, _get_rem_max_cpus, can_job_run_on_node) and, for
// 24.05 and later, src/plugins/topology/common/{common_topo.c (common_topo_choose_nodes),
// eval_nodes.c (eval_nodes, _eval_nodes_consec, eval_nodes_select_cores, eval_nodes_cpus_to_use)},
// checked against 26.05.3. topology/flat's topology_p_eval_nodes is common_topo_choose_nodes, and
// eval_nodes() falls through to _eval_nodes_consec when no plugin evaluator takes the job.
//
// Derivation, in Slurm's terms:
// - node_map holds the nodes that can run one task now (slurm_job.h); avail_cpus is what
//   _select_cores leaves of a node's free CPUs: 0 when fewer than min_tasks_this_node tasks of -c
//   CPUs fit (--ntasks-per-node, or every task when the job may have one node), and for a GPU job
//   at most max_tasks_this_node x -c (gres_select_filter_sock_core), which only a task count
//   (-n, --ntasks-per-node) limits: a plain -N job has num_tasks 0.
// - sched_weight = Weight above a low byte 0xff - near_gpu_cnt, the GPUs the job can use on the
//   node (all of them for --exclusive, else at most its --gres=gpu:G): for an --exclusive GPU job
//   a node with more GPUs is lighter.
// - Consecutive sets: the node table is walked in order; a node outside node_map ends the current
//   set, and (without --contiguous) so does a change of sched_weight. -w nodes are counted first
//   and mark the set they sit in without adding to its node or CPU counts.
// - Rounds until satisfied: among the sets with nodes left, a set replaces the best so far when it
//   is the first, or holds -w nodes and the best does not, or is lighter; at equal weight when it
//   is the first to fit (nodes by _enough_nodes, CPUs >= rem_cpus), fits with fewer CPUs (tightest
//   fit), or does not fit and has more CPUs than the best (even a best that fits). --contiguous:
//   only a set that fits, with every -w node in one set. Nodes are taken in table order (up, then
//   down from the first -w node in a set with -w nodes); with at most one node still wanted, the
//   single node with the fewest CPUs that covers rem_cpus. Each taken node counts avail_cpus as
//   _cpus_to_use trims it (leaving one CPU for each further node still needed), and that trimmed
//   count stays on the node for the retries, as Slurm's avail_res does.
// - choose_nodes: max_nodes is capped at the task count; after a failed pass Slurm retries
//   without low-resource nodes: through 25.05 the nodes whose CPUs+GPUs are at most 1, 2, ...
//   (24.11.4+ tries each count again after a removal), from 25.11 one node at a time, fewest
//   CPUs x GPUs first (ties in node order, as glibc's qsort leaves them). From 24.05 the retries
//   run with max_nodes as it was before the task-count cap.
// Only the default selection is modelled: SelectTypeParameters=CR_Core(_Memory) without CR_LLN,
// no partition LLN flag, no --spread-job, no pack_serial_at_end, and no prefer_alloc_nodes (which
// select _eval_nodes_lln, _eval_nodes_spread, _eval_nodes_serial or _eval_nodes_busy instead);
// one thread per core; GPUs per node (--gres=gpu:G), not per job (-G is split per node).

namespace topodeck {
namespace {

constexpr std::int32_t kNone = -1;
constexpr std::int32_t kUnlimited = std::numeric_limits<std::int32_t>::max();  // NO_VAL tasks, no max
constexpr std::uint64_t kNoWeight = std::numeric_limits<std::uint64_t>::max(); // NO_VAL64
constexpr std::string_view kHostnameLevel = "kubernetes.io/hostname";
constexpr std::string_view kSetLevel = "node set";

// The rules that changed between releases, each with the release that changed it.
struct FlatRules {
    bool retriesUncapped = true;  // 24.05: retries run with max_nodes from before the task-count cap
    bool thresholdRecheck = true; // 24.11.4: a CPUs+GPUs threshold is tried again after a removal
    bool productRetry = true;     // 25.11: retries drop one node at a time, fewest CPUs x GPUs first
    bool tasksCappedAtJob = true; // 25.11: a node runs at most the job's task count

    static FlatRules forVersion(const SlurmVersion& v) {
        FlatRules rules;
        rules.retriesUncapped = v >= SlurmVersion{24, 5, 0};
        rules.thresholdRecheck = v >= SlurmVersion{24, 11, 4};
        rules.productRetry = rules.tasksCappedAtJob = v >= SlurmVersion{25, 11, 0};
        return rules;
    }

    std::string describe(const SlurmVersion& v) const {
        std::string text = "Slurm " + v.toString() +
                           " default node selection (no LLN, spread or pack_serial_at_end): best fit over "
                           "consecutive node sets; after a failed pass ";
        text += productRetry ? "nodes are dropped one at a time, fewest CPUs x GPUs first"
                             : "nodes with the fewest CPUs+GPUs are dropped in rising steps";
        if (v < SlurmVersion{22, 5, 0}) text += " (older than 22.05: 22.05 rules assumed)";
        return text;
    }
};

// The job as _eval_nodes reads it (job_details), settled as sbatch and slurmctld settle it.
struct FlatJob {
    SlurmJobSpec spec;            // node_map's view: cpusPerNode = the CPUs one node must have free
    std::int32_t minNodes = 1;    // min_nodes
    std::int32_t maxNodes = 1;    // max_nodes before choose_nodes' task-count cap
    std::int32_t reqNodes = 1;    // req_nodes (get_node_cnts)
    std::int32_t jobMaxNodes = 0; // details->max_nodes: 0 when -N did not give it
    std::int32_t numTasks = 0;    // num_tasks; 0 = not set
    bool tasksPerNodeSet = false; // --ntasks-per-node (or the per-node CPUs of an -N job)
    std::int32_t cpusPerTask = 1;
    std::int32_t minTasksPerNode = 1;
    std::int32_t maxTasksPerNode = kUnlimited;
    std::int64_t minCpus = 1;   // min_cpus
    std::int32_t pnMinCpus = 1; // pn_min_cpus
    bool spread = false;        // a -n job whose tasks spread over the nodes by their free CPUs
    bool contiguous = false;    // --contiguous
};

std::int32_t clampInt(std::int64_t value) {
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(value, 0, kUnlimited));
}

// sbatch (opt.c, slurm_opt.c) and slurmctld (job_mgr.c, get_node_cnts) settle the counts: an -N job
// (or a gang) runs -N x its per-node tasks and needs cpusPerNode CPUs on each node; a -n job needs
// -n x -c CPUs in all, one task's worth on each node, and without -N may have up to -n nodes.
FlatJob flatJobFor(const SlurmJobSpec& spec, const GangRequest& request, std::size_t tableSize) {
    FlatJob job;
    job.spec = spec;
    job.minNodes = spec.minNodes;
    job.maxNodes = job.reqNodes = job.jobMaxNodes = spec.maxNodes;
    const SlurmRequest* s = request.slurm ? &*request.slurm : nullptr;
    job.contiguous = s && s->contiguous;
    if (s && s->ntasks > 0) {
        job.spread = true;
        job.numTasks = s->ntasks;
        job.cpusPerTask = std::max(1, s->cpusPerTask);
        // Fewer tasks than nodes (-N or -w): sbatch lowers the node count to the tasks, and drops
        // -w names past it.
        const bool lowered = job.numTasks < job.minNodes;
        if (lowered) {
            job.minNodes = job.maxNodes = job.reqNodes = job.jobMaxNodes = job.numTasks;
            if (job.spec.required.size() > static_cast<std::size_t>(job.numTasks))
                job.spec.required.resize(static_cast<std::size_t>(job.numTasks));
        } else if (s->nodeCountGiven) {
            // sbatch caps -N's maximum at the tasks.
            job.maxNodes = job.jobMaxNodes = std::max(job.minNodes, std::min(job.maxNodes, job.numTasks));
            job.reqNodes = job.maxNodes;
        } else {
            // No -N: max_nodes is the partition's (unlimited here; choose_nodes caps it at the
            // tasks) and req_nodes the minimum (get_node_cnts).
            job.jobMaxNodes = 0;
            job.maxNodes = clampInt(static_cast<std::int64_t>(std::max<std::size_t>(tableSize, 1)));
            job.reqNodes = job.minNodes;
        }
        job.minCpus = std::int64_t{job.numTasks} * job.cpusPerTask;
        job.pnMinCpus = job.cpusPerTask;
        if (job.jobMaxNodes == 1) {
            job.minTasksPerNode = job.maxTasksPerNode = job.numTasks;
        } else if (job.numTasks == 1 || (job.numTasks == job.minNodes && job.numTasks == job.jobMaxNodes)) {
            job.maxTasksPerNode = 1;
        }
    } else {
        const std::int32_t perNode = std::max(1, spec.cpusPerNode);
        job.cpusPerTask = std::min(perNode, std::max(1, s ? s->cpusPerTask : perNode));
        const std::int32_t tasks = std::max(1, perNode / job.cpusPerTask);
        const bool fixed = job.minNodes == job.maxNodes;
        // sbatch sends a task count only with -n or --ntasks-per-node (and a fixed -N): a plain
        // -N job has num_tasks 0 (scontrol shows min_nodes instead), so nothing caps the tasks a
        // node may run, and a GPU job counts every free CPU too.
        job.tasksPerNodeSet = s && tasks > 1;
        job.numTasks = fixed && job.tasksPerNodeSet ? clampInt(std::int64_t{job.minNodes} * tasks) : 0;
        job.minTasksPerNode = tasks;
        job.maxTasksPerNode = job.tasksPerNodeSet ? tasks : kUnlimited;
        job.pnMinCpus = perNode;
        job.minCpus = fixed ? std::int64_t{job.minNodes} * perNode : perNode;
    }
    job.spec.minNodes = job.minNodes;
    job.spec.maxNodes = job.maxNodes;
    // A node is in node_map when it has room for min_tasks_this_node tasks (can_job_run_on_node).
    job.spec.cpusPerNode =
        clampInt(std::max<std::int64_t>(job.pnMinCpus, std::int64_t{job.minTasksPerNode} * job.cpusPerTask));
    return job;
}

// A consecutive node set is a run of the node table, named by its hostlist.
std::string hostsOf(const SlurmNodeTable& table, std::int32_t start, std::int32_t end) {
    std::vector<std::int32_t> positions;
    for (std::int32_t p = start; p <= end; ++p) positions.push_back(p);
    return table.hostlist(positions);
}

// One consecutive set of nodes (consec_* in _eval_nodes).
struct NodeSet {
    std::int32_t start = 0, end = 0;
    std::int32_t nodes = 0;
    std::int64_t cpus = 0;
    std::int32_t req = kNone; // first -w node in the set
    std::uint64_t weight = 0; // a fresh record is zero, as Slurm's xcalloc'd one
};

// The best set of a round in which no set fits, or every set does, found without the scan: the
// comparison then comes down to the lightest set, then the one with the most CPUs (none fits) or
// the fewest (all fit), then the first. A segment tree over the sets keeps both, and the smallest
// and largest node and CPU counts, as sets are used up: a large job on a fragmented node table
// needs about as many rounds as there are sets.
class SetTree {
public:
    static constexpr std::size_t kEmpty = std::numeric_limits<std::size_t>::max();
    static constexpr std::int64_t kNoCount = std::numeric_limits<std::int64_t>::max();

    SetTree(const std::vector<NodeSet>& sets, std::size_t count) : m_sets(sets) {
        while (m_leaves < count) m_leaves *= 2;
        m_largest.assign(2 * m_leaves, kEmpty);
        m_tightest.assign(2 * m_leaves, kEmpty);
        m_maxNodes.assign(2 * m_leaves, 0);
        m_maxCpus.assign(2 * m_leaves, 0);
        m_minNodes.assign(2 * m_leaves, kNoCount);
        m_minCpus.assign(2 * m_leaves, kNoCount);
        for (std::size_t i = 0; i < count; ++i) {
            if (sets[i].nodes == 0) continue;
            const std::size_t n = m_leaves + i;
            m_largest[n] = m_tightest[n] = i;
            m_maxNodes[n] = m_minNodes[n] = sets[i].nodes;
            m_maxCpus[n] = m_minCpus[n] = sets[i].cpus;
        }
        for (std::size_t n = m_leaves - 1; n >= 1; --n) pull(n);
    }

    void clear(std::size_t set) {
        std::size_t n = m_leaves + set;
        m_largest[n] = m_tightest[n] = kEmpty;
        m_maxNodes[n] = m_maxCpus[n] = 0;
        m_minNodes[n] = m_minCpus[n] = kNoCount;
        for (n /= 2; n >= 1; n /= 2) pull(n);
    }
    // The round's winner when it is certain without the scan, else kEmpty.
    std::size_t winner(std::int64_t neededNodes, std::int64_t remCpus) const {
        if (m_maxNodes[1] < neededNodes || m_maxCpus[1] < remCpus) return m_largest[1];
        if (m_minNodes[1] >= neededNodes && m_minCpus[1] >= remCpus) return m_tightest[1];
        return kEmpty;
    }

private:
    bool before(std::size_t a, std::size_t b, bool most) const {
        if (a == kEmpty || b == kEmpty) return b == kEmpty;
        const NodeSet& x = m_sets[a];
        const NodeSet& y = m_sets[b];
        if (x.weight != y.weight) return x.weight < y.weight;
        if (x.cpus != y.cpus) return most ? x.cpus > y.cpus : x.cpus < y.cpus;
        return a < b;
    }
    void pull(std::size_t n) {
        const std::size_t l = 2 * n, r = 2 * n + 1;
        m_largest[n] = before(m_largest[l], m_largest[r], true) ? m_largest[l] : m_largest[r];
        m_tightest[n] = before(m_tightest[l], m_tightest[r], false) ? m_tightest[l] : m_tightest[r];
        m_maxNodes[n] = std::max(m_maxNodes[l], m_maxNodes[r]);
        m_maxCpus[n] = std::max(m_maxCpus[l], m_maxCpus[r]);
        m_minNodes[n] = std::min(m_minNodes[l], m_minNodes[r]);
        m_minCpus[n] = std::min(m_minCpus[l], m_minCpus[r]);
    }

    const std::vector<NodeSet>& m_sets;
    std::size_t m_leaves = 1;
    std::vector<std::size_t> m_largest, m_tightest;
    std::vector<std::int64_t> m_maxNodes, m_maxCpus, m_minNodes, m_minCpus;
};

// Why a set became the best one of a round.
enum class Won { First, Required, Lighter, FirstFit, Tighter, Larger };

std::string wonText(Won won, std::int64_t cpus, std::int64_t beaten) {
    switch (won) {
    case Won::First:
        return "the first set";
    case Won::Required:
        return "holds required nodes";
    case Won::Lighter:
        return "lower Weight";
    case Won::FirstFit:
        return "the first set that fits";
    case Won::Tighter:
        return "the tightest fit (" + std::to_string(cpus) + " < " + std::to_string(beaten) + " CPUs)";
    case Won::Larger:
        return "does not fit but has more CPUs (" + std::to_string(cpus) + " > " + std::to_string(beaten) + ")";
    }
    return {};
}

// One pass of _eval_nodes / _eval_nodes_consec.
struct PassOutcome {
    bool ok = false;
    bool permanent = false; // EVAL_ACTION_BREAK: no retry can help
    bool limited = false;   // max_nodes stopped or skipped a node: a retry without some nodes may fit
    std::string why;
    std::vector<std::pair<std::int32_t, std::int32_t>> setsUsed; // [start, end] per round
};

// What a whole selection (choose_nodes) came to.
struct Selection {
    bool ok = false;
    std::vector<std::int32_t> nodes; // node positions, ascending
    std::vector<std::pair<std::int32_t, std::int32_t>> setsUsed;
    std::string why;
    std::int32_t retries = 0;
    bool retriesCut = false;
};

// The pass ends without a selection: why, and whether a retry on fewer nodes could help.
PassOutcome failedPass(PassOutcome out, std::string why, bool permanent) {
    out.why = std::move(why);
    out.permanent = permanent;
    return out;
}

// What a pass still has to find as it takes nodes (_eval_nodes' rem_cpus, min_rem_nodes,
// rem_nodes, rem_max_cpus and max_nodes), and the CPUs each node counts (avail_cpu_per_node).
struct PassState {
    std::vector<char>& nodeMap; // on return: the nodes taken
    std::int32_t maxNodes;
    std::vector<std::int32_t> availOf;
    std::int64_t remCpus;
    std::int32_t minRemNodes;
    std::int64_t remNodes;
    std::int64_t remMaxCpus;

    void take(std::int32_t p, std::int32_t cpus) {
        nodeMap[static_cast<std::size_t>(p)] = 1;
        remCpus -= cpus;
        remMaxCpus -= cpus;
        --remNodes;
        --minRemNodes;
        --maxNodes;
    }
    bool satisfied() const { return remNodes <= 0 && remCpus <= 0; }
};

// The set a round takes its nodes from, and why it beat the others (for the trace).
struct RoundChoice {
    std::size_t best = 0;
    std::int32_t nodes = 0; // 0: no set has nodes left, or --contiguous found the -w nodes split
    std::int64_t cpus = 0;
    bool fits = false;
    Won won = Won::First;
    std::int64_t beaten = 0; // the CPUs of the set the winner last displaced
    bool splitRequired = false;
};

class FlatSelect {
public:
    FlatSelect(const FlatJob& job, const SlurmNodeMap& map, const FlatRules& rules, const SlurmNodeTable& table,
               TraceBudget& trace)
        : m_job(job), m_map(map), m_rules(rules), m_table(table), m_trace(trace),
          m_count(static_cast<std::int32_t>(map.cpus.size())) {
        m_avail = map.cpus;
        m_required.assign(map.cpus.size(), 0);
        for (const std::int32_t p : job.spec.required) m_required[static_cast<std::size_t>(p)] = 1;
        m_weight.resize(map.cpus.size());
        m_res.resize(map.cpus.size());
        for (std::size_t p = 0; p < map.cpus.size(); ++p) {
            const std::int64_t gpus = map.gpus.empty() ? 0 : map.gpus[p];
            // near_gpu_cnt: every GPU for a whole node, else at most the job's per-node count.
            const std::int64_t near =
                map.gpus.empty()
                    ? 0
                    : std::min<std::int64_t>(job.spec.exclusive ? gpus : std::min(gpus, job.spec.gpusPerNode), 0xff);
            m_weight[p] = (std::uint64_t{map.weight[p]} << 16) | static_cast<std::uint64_t>(0xff - near);
            // avail_res_cnt (CPUs + GPUs) through 25.05, avail_res_prod (CPUs x GPUs) since.
            m_res[p] =
                m_rules.productRetry ? (map.gpus.empty() ? map.cpus[p] : map.cpus[p] * gpus) : map.cpus[p] + gpus;
        }
    }

    Selection run();

private:
    PassOutcome pass(std::vector<char>& nodeMap, std::int32_t maxNodes, bool traced);
    // The steps of a pass. takeRequired returns the outcome when the -w nodes end the pass.
    std::optional<PassOutcome> takeRequired(PassState& state, const PassOutcome& out, TraceBudget& trace);
    std::size_t buildSets(PassState& state, std::vector<NodeSet>& sets);
    void traceSets(const std::vector<NodeSet>& sets, std::size_t setCount, TraceBudget& trace) const;
    RoundChoice chooseSet(const std::vector<NodeSet>& sets, std::size_t setCount, std::size_t lastRequiredSet,
                          const PassState& state, const SetTree* tree, const TraceBudget& trace) const;
    std::vector<std::int32_t> takeFromSet(PassState& state, const NodeSet& chosen, PassOutcome& out);
    std::int32_t selectCores(std::int32_t p) const;
    std::int32_t cpusToUse(std::int32_t p, std::int32_t avail, std::int64_t remMaxCpus, std::int32_t minRemNodes);
    bool enoughNodes(std::int64_t availNodes, std::int64_t remNodes) const;
    bool cpusWithin(const std::vector<char>& nodeMap, std::int32_t maxNodes) const;
    std::string setName(std::int32_t start, std::int32_t end) const;
    std::string remaining(std::int64_t nodes, std::int64_t cpus) const;
    std::vector<std::int32_t> selected(const std::vector<char>& nodeMap) const;

    const FlatJob& m_job;
    const SlurmNodeMap& m_map;
    const FlatRules& m_rules;
    const SlurmNodeTable& m_table;
    TraceBudget& m_trace;
    std::int32_t m_count;
    std::vector<std::int32_t> m_avail; // avail_res->avail_cpus, trimmed by _cpus_to_use across passes
    std::vector<char> m_required;
    std::vector<std::uint64_t> m_weight; // sched_weight
    std::vector<std::int64_t> m_res;     // avail_res_cnt / avail_res_prod
    std::int64_t m_work = 0;             // nodes visited, to bound the retries
};

// _select_cores: the CPUs of node p the job may count, 0 when it cannot run its tasks there.
std::int32_t FlatSelect::selectCores(std::int32_t p) const {
    std::int32_t avail = m_avail[static_cast<std::size_t>(p)];
    std::int32_t maxTasks = m_job.maxTasksPerNode;
    const std::int32_t fits = avail / m_job.cpusPerTask;
    if (fits < m_job.minTasksPerNode)
        maxTasks = 0;
    else if (maxTasks == kUnlimited || fits < maxTasks)
        maxTasks = fits;
    if (m_rules.tasksCappedAtJob && m_job.numTasks > 0 && m_job.numTasks < maxTasks) maxTasks = m_job.numTasks;
    if (maxTasks == 0) return 0;
    if (m_job.spec.gpusPerNode > 0)
        avail = clampInt(std::min<std::int64_t>(avail, std::int64_t{maxTasks} * m_job.cpusPerTask));
    return avail;
}

// _cpus_to_use: a taken node counts no more CPUs than the job still needs, less one for each
// further node it must have; never below pn_min_cpus. The trimmed count stays on the node.
std::int32_t FlatSelect::cpusToUse(std::int32_t p, std::int32_t avail, std::int64_t remMaxCpus,
                                   std::int32_t minRemNodes) {
    if (m_job.spec.exclusive) return avail; // whole_node: every CPU of the node
    const std::int64_t room = remMaxCpus - std::max(minRemNodes - 1, 0);
    if (avail > room) {
        avail = clampInt(std::max<std::int64_t>(room, m_job.pnMinCpus));
        m_avail[static_cast<std::size_t>(p)] = avail;
        if (!m_rules.productRetry)
            m_res[static_cast<std::size_t>(p)] =
                avail + (m_map.gpus.empty() ? 0 : m_map.gpus[static_cast<std::size_t>(p)]);
    }
    return avail;
}

// _enough_nodes: with a node range, reaching the minimum is enough.
bool FlatSelect::enoughNodes(std::int64_t availNodes, std::int64_t remNodes) const {
    const std::int64_t needed = m_job.reqNodes > m_job.minNodes ? remNodes + m_job.minNodes - m_job.reqNodes : remNodes;
    return availNodes >= needed;
}

std::string FlatSelect::setName(std::int32_t start, std::int32_t end) const {
    return hostsOf(m_table, start, end);
}

std::string FlatSelect::remaining(std::int64_t nodes, std::int64_t cpus) const {
    return plural(std::max<std::int64_t>(nodes, 0), "node", "nodes") + " and " +
           plural(std::max<std::int64_t>(cpus, 0), "CPU", "CPUs");
}

std::vector<std::int32_t> FlatSelect::selected(const std::vector<char>& nodeMap) const {
    std::vector<std::int32_t> nodes;
    for (std::int32_t p = 0; p < m_count; ++p)
        if (nodeMap[static_cast<std::size_t>(p)]) nodes.push_back(p);
    return nodes;
}

std::optional<PassOutcome> FlatSelect::takeRequired(PassState& state, const PassOutcome& out, TraceBudget& trace) {
    std::int64_t counted = 0;
    for (const std::int32_t r : m_job.spec.required) {
        if (state.maxNodes <= 0) break;
        const std::int32_t cpus = cpusToUse(r, selectCores(r), state.remMaxCpus, state.minRemNodes);
        if (cpus == 0) return failedPass(out, "required node " + m_table.name(r) + " lacks available resources", true);
        state.availOf[static_cast<std::size_t>(r)] = cpus;
        counted += cpus;
        state.take(r, cpus);
    }
    if (trace.room() > 0)
        trace.add("", m_table.hostlist(m_job.spec.required), true,
                  "required (-w): taken first, " + plural(counted, "CPU", "CPUs") + " counted");
    else
        trace.drop();
    if (state.satisfied()) {
        for (std::int32_t p = 0; p < m_count; ++p)
            state.nodeMap[static_cast<std::size_t>(p)] = m_required[static_cast<std::size_t>(p)];
        PassOutcome done = out;
        done.ok = true;
        return done;
    }
    if (state.maxNodes <= 0) return failedPass(out, "the required nodes use up the maximum node count", true);
    return std::nullopt;
}

std::size_t FlatSelect::buildSets(PassState& state, std::vector<NodeSet>& sets) {
    std::vector<char>& nodeMap = state.nodeMap;
    sets.assign(1, NodeSet{});
    sets[0].weight = kNoWeight;
    std::size_t index = 0;
    const auto next = [&](std::uint64_t weight) {
        sets.emplace_back();
        ++index;
        sets[index].weight = weight;
    };
    for (std::int32_t p = 0; p < m_count; ++p) {
        const auto u = static_cast<std::size_t>(p);
        const bool required = m_required[u] != 0;
        bool present = nodeMap[u] != 0;
        std::int32_t cpus = 0;
        if (present && !required) {
            cpus = selectCores(p);
            state.availOf[u] = cpus;
            if (cpus == 0) {
                nodeMap[u] = 0;
                present = false;
            }
        }
        NodeSet* set = &sets[index];
        if (present && !m_job.contiguous && set->weight != kNoWeight && m_weight[u] != set->weight) {
            if (set->nodes == 0) {
                set->req = kNone;
            } else {
                set->end = p - 1;
                next(0);
                set = &sets[index];
            }
        }
        if (present) {
            if (set->nodes == 0) set->start = p;
            if (required) {
                if (set->req == kNone) set->req = p;
                continue;
            }
            nodeMap[u] = 0;
            set->cpus += cpus;
            ++set->nodes;
            set->weight = m_weight[u];
        } else if (set->nodes == 0) {
            set->req = kNone;
            set->weight = kNoWeight;
        } else {
            set->end = p - 1;
            next(kNoWeight);
        }
    }
    if (sets[index].nodes != 0) sets[index++].end = m_count - 1;
    return index;
}

void FlatSelect::traceSets(const std::vector<NodeSet>& sets, std::size_t setCount, TraceBudget& trace) const {
    constexpr std::size_t kListedSets = 24; // the rest of a fragmented table is only counted
    if (!trace.enabled()) return;
    for (std::size_t i = 0; i < setCount; ++i) {
        if (i >= kListedSets || trace.room() <= 1) {
            trace.drop();
            continue;
        }
        const NodeSet& s = sets[i];
        trace.add(kSetLevel, setName(s.start, s.end), false,
                  plural(s.nodes, "node", "nodes") + ", " + plural(s.cpus, "CPU", "CPUs") + ", Weight " +
                      std::to_string(m_weight[static_cast<std::size_t>(s.start)] >> 16) +
                      (s.req != kNone ? ", holds required nodes" : ""));
    }
}

RoundChoice FlatSelect::chooseSet(const std::vector<NodeSet>& sets, std::size_t setCount, std::size_t lastRequiredSet,
                                  const PassState& state, const SetTree* tree, const TraceBudget& trace) const {
    RoundChoice choice;
    const std::int64_t needed =
        m_job.reqNodes > m_job.minNodes ? state.remNodes + m_job.minNodes - m_job.reqNodes : state.remNodes;
    const std::size_t known = tree && trace.room() == 0 ? tree->winner(needed, state.remCpus) : SetTree::kEmpty;
    if (known != SetTree::kEmpty) {
        const NodeSet& s = sets[known];
        choice.best = known;
        choice.nodes = s.nodes;
        choice.cpus = s.cpus;
        choice.fits = s.cpus >= state.remCpus && enoughNodes(s.nodes, state.remNodes);
        return choice;
    }
    std::int32_t bestReq = kNone;
    std::uint64_t bestWeight = 0;
    for (std::size_t i = 0; i < setCount; ++i) {
        const NodeSet& s = sets[i];
        if (s.nodes == 0) continue;
        if (m_job.contiguous && !m_job.spec.required.empty() && s.req == kNone) continue;
        const bool fits = s.cpus >= state.remCpus && enoughNodes(s.nodes, state.remNodes);
        std::optional<Won> why;
        if (choice.nodes == 0)
            why = Won::First;
        else if (bestReq == kNone && s.req != kNone)
            why = Won::Required;
        else if (s.weight < bestWeight)
            why = Won::Lighter;
        else if (s.weight == bestWeight && fits && !choice.fits)
            why = Won::FirstFit;
        else if (s.weight == bestWeight && fits && s.cpus < choice.cpus)
            why = Won::Tighter;
        else if (s.weight == bestWeight && !fits && s.cpus > choice.cpus)
            why = Won::Larger;
        else if (!choice.fits && m_job.contiguous && fits)
            why = Won::FirstFit;
        if (why) {
            choice.beaten = choice.cpus;
            choice.cpus = s.cpus;
            choice.nodes = s.nodes;
            choice.best = i;
            bestReq = s.req;
            choice.fits = fits;
            bestWeight = s.weight;
            choice.won = *why;
        }
        // --contiguous: every -w node must be in this one set (the -w marks never change).
        if (m_job.contiguous && !m_job.spec.required.empty() && lastRequiredSet > i) {
            choice.nodes = 0;
            choice.splitRequired = true;
            break;
        }
    }
    return choice;
}

std::vector<std::int32_t> FlatSelect::takeFromSet(PassState& state, const NodeSet& chosen, PassOutcome& out) {
    std::vector<std::int32_t>& availOf = state.availOf;
    std::vector<std::int32_t> taken;
    const auto takeFrom = [&](std::int32_t p) {
        if (state.maxNodes == 0 || state.satisfied()) return false;
        const auto u = static_cast<std::size_t>(p);
        if (state.nodeMap[u] || availOf[u] <= 0) return true;
        if (chosen.req == kNone && state.maxNodes == 1 && availOf[u] < state.remCpus) {
            out.limited = true; // the job can have one more node only, and this one is too small
            return true;
        }
        state.take(p, cpusToUse(p, availOf[u], state.remMaxCpus, state.minRemNodes));
        taken.push_back(p);
        return true;
    };
    if (chosen.req != kNone) {
        // Up from the first required node, then down from it.
        for (std::int32_t p = chosen.req; p <= chosen.end && takeFrom(p);) ++p;
        for (std::int32_t p = chosen.req - 1; p >= chosen.start && takeFrom(p);) --p;
    } else {
        if (state.remNodes <= 1) {
            // One node still wanted: the one with the fewest CPUs that covers the rest.
            std::int32_t single = kNone;
            std::int32_t size = 0;
            for (std::int32_t p = chosen.start; p <= chosen.end; ++p) {
                const auto u = static_cast<std::size_t>(p);
                if (state.nodeMap[u] || availOf[u] < state.remCpus) continue;
                if (single == kNone || availOf[u] < size) {
                    single = p;
                    size = availOf[u];
                    if (size == state.remCpus) break;
                }
            }
            if (single != kNone)
                for (std::int32_t p = chosen.start; p <= chosen.end; ++p)
                    if (p != single) availOf[static_cast<std::size_t>(p)] = 0;
        }
        for (std::int32_t p = chosen.start; p <= chosen.end && takeFrom(p);) ++p;
    }
    std::sort(taken.begin(), taken.end());
    return taken;
}

// One pass of _eval_nodes (22.05 job_test.c) / _eval_nodes_consec (24.05+ eval_nodes.c): the -w
// nodes, then rounds over the consecutive node sets until the job is satisfied.
PassOutcome FlatSelect::pass(std::vector<char>& nodeMap, std::int32_t maxNodes, bool traced) {
    PassOutcome out;
    TraceBudget silent(nullptr, 0);
    TraceBudget& trace = traced ? m_trace : silent;
    m_work += m_count;

    // eval_nodes' own checks: enough nodes at all, and every -w node among them.
    std::int64_t inMap = 0;
    for (const char in : nodeMap) inMap += in ? 1 : 0;
    if (inMap < m_job.minNodes)
        return failedPass(
            out, plural(inMap, "node", "nodes") + " can take the job, " + std::to_string(m_job.minNodes) + " needed",
            true);
    for (const std::int32_t r : m_job.spec.required)
        if (!nodeMap[static_cast<std::size_t>(r)])
            return failedPass(out, "required node " + m_table.name(r) + " cannot take the job", true);

    // _get_rem_max_cpus: no --mincpus/max CPUs or CPUs per GPU, so rem_max_cpus starts at min_cpus.
    PassState state{nodeMap,       maxNodes,       std::vector<std::int32_t>(static_cast<std::size_t>(m_count), 0),
                    m_job.minCpus, m_job.minNodes, std::max(m_job.minNodes, m_job.reqNodes),
                    m_job.minCpus};

    // -w nodes first, in table order.
    if (!m_job.spec.required.empty())
        if (std::optional<PassOutcome> done = takeRequired(state, out, trace)) return *done;

    std::vector<NodeSet> sets;
    const std::size_t setCount = buildSets(state, sets);
    std::size_t lastRequiredSet = 0;
    for (std::size_t i = 0; i < setCount; ++i)
        if (sets[i].req != kNone) lastRequiredSet = i;
    traceSets(sets, setCount, trace);

    // Rounds: the best set, then its nodes, until satisfied. An untraced round in which no set
    // fits, or every set does, takes the winner from the tree: the one the scan finds, unless -w or
    // --contiguous make it depend on more than weight and CPUs.
    const bool useTree = m_job.spec.required.empty() && !m_job.contiguous;
    SetTree tree(sets, useTree ? setCount : 0);
    std::int32_t round = 0;
    bool noHole = false; // --contiguous and no set holds the rest
    while (setCount > 0 && state.maxNodes > 0) {
        ++round;
        const RoundChoice choice = chooseSet(sets, setCount, lastRequiredSet, state, useTree ? &tree : nullptr, trace);
        if (choice.nodes == 0) {
            if (choice.splitRequired)
                return failedPass(out, "the required nodes are not in one run of consecutive nodes", true);
            break;
        }
        NodeSet& chosen = sets[choice.best];
        if (m_job.contiguous && !choice.fits) {
            if (trace.room() > 0)
                trace.add(kSetLevel, setName(chosen.start, chosen.end), false,
                          "round " + std::to_string(round) + ": no run of consecutive nodes holds the remaining " +
                              remaining(state.remNodes, state.remCpus) + " (--contiguous)");
            else
                trace.drop();
            noHole = true;
            break;
        }

        const std::int64_t remNodesBefore = state.remNodes, remCpusBefore = state.remCpus;
        const std::vector<std::int32_t> taken = takeFromSet(state, chosen, out);
        if (state.maxNodes == 0 && !state.satisfied()) out.limited = true;
        out.setsUsed.emplace_back(chosen.start, chosen.end);
        if (trace.room() == 0)
            trace.drop();
        else
            trace.add(kSetLevel, setName(chosen.start, chosen.end), !taken.empty(),
                      "round " + std::to_string(round) + ": chosen, " +
                          wonText(choice.won, choice.cpus, choice.beaten) +
                          (choice.fits ? "; fits" : "; does not fit") + " the remaining " +
                          remaining(remNodesBefore, remCpusBefore) +
                          (taken.empty() ? "" : "; took " + m_table.hostlist(taken)));
        if (state.satisfied()) {
            out.ok = true;
            return out;
        }
        chosen.cpus = 0;
        chosen.nodes = 0;
        if (useTree) tree.clear(choice.best);
    }
    if (state.maxNodes <= 0 && !state.satisfied()) out.limited = true;
    if (state.remCpus <= 0 && enoughNodes(0, state.remNodes)) {
        out.ok = true; // a node range that reached its minimum
        return out;
    }
    if (noHole) return failedPass(out, "no run of consecutive free nodes holds the job (--contiguous)", round == 1);
    return failedPass(
        out, "the consecutive node sets ran out with " + remaining(state.remNodes, state.remCpus) + " still needed",
        false);
}

// Whether at most maxNodes of these nodes could count min_cpus: a node never counts more than its
// avail_cpus, which only shrink from pass to pass.
bool FlatSelect::cpusWithin(const std::vector<char>& nodeMap, std::int32_t maxNodes) const {
    std::vector<std::int32_t> cpus;
    for (std::int32_t p = 0; p < m_count; ++p)
        if (nodeMap[static_cast<std::size_t>(p)]) cpus.push_back(m_avail[static_cast<std::size_t>(p)]);
    const std::size_t take = std::min(cpus.size(), static_cast<std::size_t>(std::max(maxNodes, 0)));
    std::nth_element(cpus.begin(), cpus.begin() + static_cast<std::ptrdiff_t>(take), cpus.end(), std::greater<>());
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < take; ++i) sum += cpus[i];
    return sum >= m_job.minCpus;
}

// choose_nodes / common_topo_choose_nodes: one pass, then the retries without low-resource nodes.
Selection FlatSelect::run() {
    Selection result;
    std::vector<char> origMap(static_cast<std::size_t>(m_count), 0);
    for (std::int32_t p = 0; p < m_count; ++p) origMap[static_cast<std::size_t>(p)] = m_map.contains(p) ? 1 : 0;
    std::int32_t maxNodes = m_job.maxNodes;
    if (m_job.numTasks > 0 && !m_job.tasksPerNodeSet && maxNodes > m_job.numTasks)
        maxNodes = std::max(m_job.numTasks, m_job.minNodes);
    const std::int32_t retryMax = m_rules.retriesUncapped ? m_job.maxNodes : maxNodes;

    std::vector<char> nodeMap = origMap;
    PassOutcome outcome = pass(nodeMap, maxNodes, true);
    const auto finish = [&](const PassOutcome& last) {
        result.ok = last.ok;
        if (last.ok) {
            result.nodes = selected(nodeMap);
            result.setsUsed = last.setsUsed;
        }
        return result;
    };
    result.why = outcome.why;
    if (outcome.ok) return finish(outcome);
    // A pass that failed without max_nodes holding it back took every node it could: a retry on
    // fewer nodes (whose counted CPUs only shrink) fails too, so Slurm's retries are not run. Nor
    // are they when even the nodes with the most CPUs, as many as the job may have, fall short.
    if (outcome.permanent || !outcome.limited || !cpusWithin(origMap, retryMax)) return finish(outcome);

    constexpr std::int64_t kWorkLimit = 50'000'000; // node visits, about a second
    const auto cut = [&] {
        if (m_work < kWorkLimit) return false;
        result.retriesCut = true;
        return true;
    };
    std::int64_t remaining = 0;
    for (const char in : origMap) remaining += in ? 1 : 0;
    PassOutcome last = outcome;
    const auto retry = [&](const auto& without) {
        nodeMap = origMap;
        last = pass(nodeMap, retryMax, false);
        ++result.retries;
        if (m_trace.room() == 0)
            m_trace.drop();
        else
            m_trace.add("", "", last.ok,
                        "retry " + std::to_string(result.retries) + without() + ": " + (last.ok ? "fits" : last.why));
    };
    if (m_rules.productRetry) {
        // 25.11+: a pass on every node again, then one node less each time.
        std::vector<std::int32_t> order;
        std::size_t next = 0;
        bool sorted = false;
        do {
            if (cut()) break;
            retry([&] {
                return next == 0 ? std::string(" on every node") : " without " + m_table.name(order[next - 1]);
            });
            if (last.ok || last.permanent || remaining <= m_job.minNodes) break;
            if (!sorted) {
                for (std::int32_t p = 0; p < m_count; ++p)
                    if (origMap[static_cast<std::size_t>(p)] && !m_required[static_cast<std::size_t>(p)])
                        order.push_back(p);
                std::stable_sort(order.begin(), order.end(), [this](std::int32_t a, std::int32_t b) {
                    return m_res[static_cast<std::size_t>(a)] < m_res[static_cast<std::size_t>(b)];
                });
                sorted = true;
                if (order.empty()) break;
            }
            if (next == order.size()) break;
            origMap[static_cast<std::size_t>(order[next++])] = 0;
            --remaining;
        } while (next < order.size());
    } else {
        // Through 25.05: drop the nodes whose CPUs+GPUs are at most 1, 2, ... and retry.
        if (remaining <= m_job.minNodes) {
            retry([] { return std::string(" on every node"); });
            return finish(last);
        }
        std::int64_t most = 0;
        for (std::int32_t p = 0; p < m_count; ++p)
            if (origMap[static_cast<std::size_t>(p)]) most = std::max(most, m_res[static_cast<std::size_t>(p)]);
        for (std::int64_t count = 1; count < most; ++count) {
            if (cut()) break;
            bool unchanged = true;
            std::vector<std::int32_t> dropped;
            for (std::int32_t p = 0; p < m_count; ++p) {
                const auto u = static_cast<std::size_t>(p);
                if (!origMap[u] || m_res[u] <= 0 || m_res[u] > count || m_required[u]) continue;
                if (m_rules.thresholdRecheck && unchanged) --count;
                unchanged = false;
                origMap[u] = 0;
                dropped.push_back(p);
                if (--remaining <= m_job.minNodes) break;
            }
            if (unchanged && count != 1) continue;
            retry([&] {
                return dropped.empty() ? std::string(" on the same nodes")
                                       : " without " + m_table.hostlist(dropped) + " (CPUs+GPUs at most " +
                                             std::to_string(count + (m_rules.thresholdRecheck ? 1 : 0)) + ")";
            });
            if (last.ok || remaining <= m_job.minNodes) break;
        }
    }
    if (!last.ok) result.why = outcome.why; // the first pass says why best
    return finish(last);
}

Selection selectIn(const PlacementCluster& cluster, const SlurmNodeTable& table, const FlatJob& job,
                   const FlatRules& rules, SlurmPool pool) {
    TraceBudget silent(nullptr, 0);
    const SlurmNodeMap map = slurmNodeMap(cluster, table, job.spec, pool);
    return FlatSelect(job, map, rules, table, silent).run();
}

// What the job asks that Slurm's flat selection does not read, and how the counts were settled.
void noteRequest(const GangRequest& request, const FlatJob& job, const SlurmVersion& version,
                 std::vector<std::string>& notes) {
    if (job.spread)
        notes.push_back(
            "-n " + std::to_string(job.numTasks) + ": " + plural(job.minCpus, "CPU", "CPUs") + " in all, on " +
            (job.maxNodes == job.minNodes
                 ? plural(job.minNodes, "node", "nodes")
                 : std::to_string(job.minNodes) + " to " +
                       plural(std::min(job.maxNodes, std::max(job.numTasks, job.minNodes)), "node", "nodes")) +
            " with " + plural(job.spec.cpusPerNode, "free CPU", "free CPUs") + " or more each");
    if (!request.slurm) return;
    const SlurmRequest& s = *request.slurm;
    if (s.switches)
        notes.push_back("--switches ignored: Slurm counts leaf switches only with topology/tree, so the job never "
                        "waits for switches here");
    if (s.segment > 0 || s.spreadSegments || s.consolidateSegments)
        notes.push_back(version < SlurmVersion{24, 5, 0}
                            ? "--segment ignored: sbatch before Slurm 24.05 has no --segment option and rejects it"
                            : "--segment ignored: only topology/block (and, since 26.05, ring and torus3d) read it; "
                              "Slurm keeps it on the job and places the job as a whole");
    if (s.contiguous)
        notes.push_back("--contiguous: the nodes must be one run of consecutive nodes in the node table, with "
                        "every -w node in it");
}

} // namespace

bool slurmTopologyIsFlat(const PlacementCluster& cluster, bool nvlinkBlocks) {
    if (const SlurmTopology* topology = cluster.slurmTopology()) return topology->kind == SlurmTopology::Kind::Flat;
    const std::vector<TopologyLevel>& levels = cluster.spec().levels;
    const bool noLevels = levels.empty() || (levels.size() == 1 && levels.front().nodeLabel == kHostnameLevel);
    if (!noLevels) return false;
    return !nvlinkBlocks || cluster.spec().nvlinkLabel.empty() || cluster.index().nvlinkDomainCount() == 0;
}

PlacementResult placeSlurmFlat(const PlacementCluster& cluster, const GangRequest& request,
                               const EngineOptions& options, std::string_view engine) {
    PlacementResult result;
    result.engine = std::string(engine);
    result.rulesVersion = options.slurmVersion.toString();
    result.rulesVersionOrigin = options.slurmVersionOrigin;
    const SlurmTopology* topology = cluster.slurmTopology();
    if (slurmTopologyIsFlat(cluster)) {
        result.notes.push_back("no topology: Slurm's topology/flat node selection (select/cons_tres _eval_nodes: "
                               "best fit over runs of consecutive nodes in node-table order, lowest Weight first)");
        result.notes.push_back(topology ? "the Slurm topology \"" + topology->name + "\" is topology/flat"
                                        : std::string("no topology.conf or topology.yaml, and no label level above "
                                                      "the node to derive switches or blocks from"));
    } else {
        result.notes.push_back("--contiguous: topology/tree leaves the job to Slurm's default node selection "
                               "(select/cons_tres _eval_nodes: best fit over runs of consecutive nodes)");
    }
    const FlatRules rules = FlatRules::forVersion(options.slurmVersion);
    result.notes.push_back(rules.describe(options.slurmVersion));

    const SlurmNodeTable table(cluster);
    std::vector<std::string> jobNotes;
    Result<SlurmJobSpec> built = slurmJobFor(cluster, table, request, options, jobNotes);
    if (!built) return refusedAtSubmit(std::move(result), built.error().message);
    if (Status counts = settleNodeCounts(*built); !counts)
        return refusedAtSubmit(std::move(result), counts.error().message);
    const FlatJob job = flatJobFor(*built, request, table.size());
    result.notes.insert(result.notes.end(), jobNotes.begin(), jobNotes.end());
    noteRequest(request, job, options.slurmVersion, result.notes);

    TraceBudget trace(&result.trace, options.maxTraceEntries);
    const SlurmNodeMap now = slurmNodeMap(cluster, table, job.spec, SlurmPool::Now);
    const std::string why = now.why.describe(job.spec, true);
    trace.add("", "", now.eligible > 0,
              "node_map: " + std::to_string(now.eligible) + " of " + std::to_string(table.size()) +
                  " nodes can take the job" + (why.empty() ? "" : " (" + why + ")"));
    const Selection placed = FlatSelect(job, now, rules, table, trace).run();
    trace.finish(
        [](std::size_t dropped, std::size_t) { return std::to_string(dropped) + " more trace entries not shown"; });
    if (placed.retriesCut)
        result.notes.push_back("topodeck stopped Slurm's retries after " + std::to_string(placed.retries) +
                               " passes; Slurm goes on and may still place the job");

    if (!placed.ok) {
        result.notes.push_back("not now: " + placed.why);
        if (selectIn(cluster, table, job, rules, SlurmPool::Up).ok) {
            result.message = "Resources";
            result.notes.emplace_back(kTestOnlyLaterStart);
        } else {
            reportSlurmUnreachable(selectIn(cluster, table, job, rules, SlurmPool::All).ok, result);
        }
        return result;
    }

    result.feasible = true;
    result.assignment.levels = {std::string(kHostnameLevel)};
    std::int64_t wholeCpus = 0;
    for (const std::int32_t p : placed.nodes) {
        const std::string& name = table.name(p);
        result.nodes.push_back(NodePods{name, 1});
        result.assignment.domains.push_back(TopologyAssignment::Domain{{name}, 1});
        wholeCpus += floorUnits(cluster.node(table.id(p)).allocatable.get("cpu"));
    }
    for (const auto& [start, end] : placed.setsUsed)
        result.chosen.push_back(ChosenDomain{std::string(kSetLevel), hostsOf(table, start, end)});
    if (placed.retries > 0)
        result.notes.push_back("the first pass failed (" + placed.why + "); Slurm's retry " +
                               std::to_string(placed.retries) + " without low-resource nodes found this allocation");
    const std::string hosts = table.hostlist(placed.nodes);
    const auto count = static_cast<std::int64_t>(placed.nodes.size());
    // Slurm says nothing when a job starts; this line is ours, in the other Slurm engines' words.
    result.message = "would start now on " + plural(count, "node", "nodes") + ": " + hosts;
    // The job's CPUs once its tasks are laid out: -n x -c, at least pn_min_cpus on each node, or
    // whole nodes for --exclusive.
    const std::int64_t processors =
        job.spec.exclusive ? wholeCpus : std::max(job.minCpus, count * std::int64_t{job.pnMinCpus});
    if (!job.spec.required.empty() && count > static_cast<std::int64_t>(job.spec.required.size()))
        // job_start_data tests the -w nodes alone (checked on 22.05.8; 26.05 reads the same).
        result.notes.emplace_back("sbatch --test-only looks at the -w nodes alone and prints: allocation failure: "
                                  "Requested node configuration is not available; a submitted job runs as shown");
    else
        result.notes.push_back("sbatch --test-only prints: Job <id> to start at <now> using " +
                               std::to_string(processors) + " processors on nodes " + hosts);
    return result;
}

} // namespace topodeck
