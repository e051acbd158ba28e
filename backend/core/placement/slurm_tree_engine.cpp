#include "core/placement/slurm_tree_engine.h"

#include "core/hostlist.h"
#include "core/placement/slurm_flat_selection.h"
#include "core/placement/slurm_job.h"
#include "core/slurm/slurm_topology.h"
#include "core/slurm/slurm_topology_from_index.h"

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
// _topo_choose_best_switch) and 24.05.3+ `src/plugins/topology/tree/eval_nodes_tree.c`, plus the
// node_scheduler.c decisions around them (see the comment above SlurmTreeEngine::place).
//
// The job and its node_map (which nodes can take one task, with their avail_cpus) come from
// slurm_job.h, shared with topology/block; GPU counts never enter the switch comparison.

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
    bool oneNodeSkipsTree = true;   // 26.05: -N 1 takes the first usable node by weight
    bool errnoReasons = true;       // 26.05: a pending job's state_desc is the topology errno text

    static TreeRules forVersion(const SlurmVersion& v) {
        TreeRules rules;
        const bool from2302 = v >= SlurmVersion{23, 2, 0};
        const bool from2405_3 = v >= SlurmVersion{24, 5, 3};
        const bool from2605 = v >= SlurmVersion{26, 5, 0};
        rules.cpuSums = rules.rangeRetry = rules.weightsToMax = from2302;
        rules.closerNeedsFitOnly = rules.subtractAncestors = from2405_3;
        rules.oneNodeSkipsTree = rules.errnoReasons = from2605;
        return rules;
    }

    std::string describe(const SlurmVersion& v) const {
        std::string text = "Slurm " + v.toString() + " topology/tree rules: ";
        text += cpuSums ? "CPU sums count for the top switch and leaf fit" : "switches compared by node counts only";
        text +=
            closerNeedsFitOnly ? "; a closer leaf wins when it fits" : "; a closer leaf must also be no looser a fit";
        text += subtractAncestors ? "; taken nodes leave ancestor counts" : "; ancestor counts keep taken nodes";
        text += oneNodeSkipsTree ? "; -N 1 takes the first usable node by weight" : "; -N 1 best-fits a leaf";
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

struct Pass {
    Failure failure = Failure::None;
    std::string why;                    // for people, when it failed
    std::vector<std::int32_t> selected; // node positions, ascending
    std::int32_t top = kNone;
    std::vector<std::int32_t> leaves; // leaf switches holding the allocation, in the order filled
    int leafCount = 0;                // what --switches counts
    bool ok() const { return failure == Failure::None; }
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

class TreePass {
public:
    TreePass(const SwitchTree& tree, const SlurmNodeMap& nodes, const SlurmJobSpec& job, const TreeRules& rules,
             const SlurmNodeTable& table, TraceBudget& trace)
        : m_tree(tree), m_nodes(nodes), m_job(job), m_rules(rules), m_table(table), m_trace(trace) {}

    Pass run(std::int32_t reqNodes);
    // Slurm 26.05+ for -N 1: no tree, the lowest-weight usable node in node-table order.
    Pass firstUsableNode();

private:
    // A step of a pass hands over to the next, or ends it: the job is satisfied, or the pass failed.
    enum class Step { Next, Satisfied, Failed };

    const TreeSwitch& sw(std::int32_t index) const { return m_tree.switches[index]; }
    bool enoughNodes(std::int64_t available) const {
        const std::int64_t needed = m_reqNodes > m_job.minNodes ? m_remNodes + m_job.minNodes - m_reqNodes : m_remNodes;
        return available >= needed;
    }
    bool fits(std::int32_t s) const { return m_count[s] >= m_remNodes && (!m_rules.cpuSums || m_cpus[s] >= m_remCpus); }
    void consume(std::int32_t position) {
        --m_remNodes;
        --m_minRemNodes;
        --m_maxNodes;
        m_remCpus -= m_nodes.cpus[position];
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
    Step chooseTopSwitch(Pass& pass);
    Step takeWeightGroups(Pass& pass);
    void traceWeightGroups(const TreeSwitch& top, std::size_t groupsUsed) const;
    Step fillHeldLeaves();
    void subtract(std::int32_t s, std::int64_t taken);
    void addDistances(std::int32_t from);
    Comparison compare(std::int32_t candidate, std::int32_t incumbent) const;
    std::string comparisonText(const Comparison& c, bool candidateWon) const;
    std::string candidateText(const CandidateRecord& record) const;
    void chooseTop(Pass& pass);
    void traceTop(std::int32_t top, const std::vector<char>& qualifies) const;
    bool leafLoop();
    Step fail(Pass& pass, Failure failure, std::string why) const;
    Pass succeed(Pass pass) const;

    const SwitchTree& m_tree;
    const SlurmNodeMap& m_nodes;
    const SlurmJobSpec& m_job;
    const TreeRules& m_rules;
    const SlurmNodeTable& m_table;
    TraceBudget& m_trace;

    std::int32_t m_reqNodes = 0;
    std::int64_t m_remNodes = 0, m_minRemNodes = 0, m_maxNodes = 0, m_remCpus = 0;
    std::vector<char> m_selected;                    // node_map
    std::vector<char> m_underTop;                    // by node position
    std::vector<char> m_candidate;                   // under the top switch and among the nodes the weights allow
    std::vector<std::uint32_t> m_weights;            // the weight groups' weights, ascending
    std::vector<std::vector<std::int32_t>> m_groups; // node positions per weight group
    std::vector<std::int32_t> m_groupOf;             // weight group by node position
    std::vector<std::int32_t> m_forced;              // lower-weight nodes forced in, ascending
    std::vector<std::int64_t> m_count;       // switch_node_cnt
    std::vector<std::int64_t> m_cpus;        // switch_cpu_cnt (filled once, as Slurm does)
    std::vector<std::int32_t> m_lowestGroup; // lightest weight group on each switch
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
    const std::string remaining = std::to_string(m_remNodes);
    switch (c.decider) {
    case Decider::TighterFit:
        return prefix + sw(winner).name + " is a tighter fit: " + std::to_string(m_count[winner]) + " < " +
               std::to_string(m_count[loser]) + " nodes";
    case Decider::OnlyOneFits:
        return prefix + sw(winner).name + " fits the remaining " + remaining + " nodes (" +
               std::to_string(m_count[winner]) + "), " + sw(loser).name + " does not (" +
               std::to_string(m_count[loser]) + ")";
    case Decider::MoreNodes:
        return "neither " + prefix + sw(winner).name + " nor " + sw(loser).name + " fits the remaining " + remaining +
               " nodes; more available: " + std::to_string(m_count[winner]) + " > " + std::to_string(m_count[loser]);
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
            if (m_rules.closerNeedsFitOnly)
                return text + ", and it fits the remaining " + std::to_string(m_remNodes) + " nodes";
            return text + (c.result > 0 ? ", and " + comparisonText(c, true) : ", and no looser a fit");
        }
        return "beats " + incumbent + " at distance " + d + ": " + comparisonText(c, true);
    }
    if (r.distance > r.incumbentDistance) return incumbent + " is closer: distance " + di + " < " + d;
    if (r.distance < r.incumbentDistance) {
        std::string text = "closer than " + incumbent + " (distance " + d + " < " + di + ") but ";
        if (m_rules.closerNeedsFitOnly)
            return text + "it does not fit the remaining " + std::to_string(m_remNodes) + " nodes";
        return text + comparisonText(c, false);
    }
    if (c.result < 0) return incumbent + " wins at distance " + d + ": " + comparisonText(c, false);
    return "ties with " + incumbent + " (" + counts + ", distance " + d + "): the earlier switch is kept";
}

TreePass::Step TreePass::fail(Pass& pass, Failure failure, std::string why) const {
    pass.failure = failure;
    pass.why = std::move(why);
    pass.selected.clear();
    pass.leaves.clear();
    m_trace.add("", "", false, pass.why);
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
    if (!m_trace.enabled()) return;
    const std::string needed = std::to_string(m_remNodes) + " needed";
    if (top != kNone)
        m_trace.add(switchLevelName(sw(top).level), sw(top).name, true,
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
                m_trace.add(switchLevelName(level), sw(s).name, false,
                            m_lowestGroup[s] > m_lowestGroup[top]
                                ? have + " but its lightest nodes weigh more than " + sw(top).name + "'s"
                                : have + "; " + sw(top).name + " comes later in the topology at the same level");
            }
        }
        const std::string where = " at level " + std::to_string(level);
        if (required > 0)
            m_trace.add(switchLevelName(level), "", false,
                        plural(required, "switch", "switches") + where +
                            " also hold required nodes, below the top switch");
        if (below > 0)
            m_trace.add(switchLevelName(level), "", false,
                        plural(below, "switch", "switches") + where +
                            " have enough nodes but sit below the top switch");
        if (short_ > 0)
            m_trace.add(switchLevelName(level), "", false,
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

// _eval_nodes_topo for a request of reqNodes nodes, step by step.
Pass TreePass::run(std::int32_t reqNodes) {
    Pass pass;
    Step step = begin(pass, reqNodes);
    if (step == Step::Next) {
        groupByWeight();
        countSwitches();
        step = chooseTopSwitch(pass);
    }
    if (step == Step::Next) step = takeWeightGroups(pass);
    if (step == Step::Next) step = fillHeldLeaves();
    if (step == Step::Next) {
        m_distance.assign(m_tree.switches.size(), 0);
        for (std::size_t s = 0; s < m_tree.switches.size(); ++s)
            if (m_requiredSwitch[s]) addDistances(static_cast<std::int32_t>(s));
        if (leafLoop() || (m_minRemNodes <= 0 && m_remCpus <= 0))
            step = Step::Satisfied;
        else
            step = fail(pass, Failure::Stalled,
                        "the leaves under " + sw(pass.top).name + " ran out with " +
                            plural(m_minRemNodes, "node", "nodes") + " still needed");
    }
    return step == Step::Satisfied ? succeed(pass) : pass;
}

// The counters for this request; the required nodes are taken first.
TreePass::Step TreePass::begin(Pass& pass, std::int32_t reqNodes) {
    m_reqNodes = reqNodes;
    m_remNodes = std::max(m_job.minNodes, reqNodes);
    m_minRemNodes = m_job.minNodes;
    m_maxNodes = m_job.maxNodes;
    m_remCpus = static_cast<std::int64_t>(m_job.minNodes) * m_job.cpusPerNode;
    m_selected.assign(m_nodes.cpus.size(), 0);
    m_filled.clear();
    m_forced.clear();
    if (m_nodes.eligible < m_job.minNodes)
        return fail(pass, Failure::FewEligible,
                    "only " + plural(m_nodes.eligible, "node can", "nodes can") + " take the job, -N " +
                        std::to_string(m_job.minNodes) + " needs " + std::to_string(m_job.minNodes));
    for (const std::int32_t position : m_job.required) {
        if (!m_nodes.contains(position))
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
        if (m_nodes.cpus[p] > 0) m_weights.push_back(m_nodes.weight[p]);
    std::sort(m_weights.begin(), m_weights.end());
    m_weights.erase(std::unique(m_weights.begin(), m_weights.end()), m_weights.end());
    m_groups.assign(m_weights.size(), {});
    m_groupOf.assign(nodeCount, kNone);
    for (std::size_t p = 0; p < nodeCount; ++p) {
        if (m_nodes.cpus[p] == 0) continue;
        const auto g = static_cast<std::int32_t>(
            std::lower_bound(m_weights.begin(), m_weights.end(), m_nodes.weight[p]) - m_weights.begin());
        m_groupOf[p] = g;
        m_groups[static_cast<std::size_t>(g)].push_back(static_cast<std::int32_t>(p));
    }
}

// Switch counts over node_map.
void TreePass::countSwitches() {
    const std::size_t switchCount = m_tree.switches.size();
    m_count.assign(switchCount, 0);
    m_cpus.assign(switchCount, 0);
    m_lowestGroup.assign(switchCount, std::numeric_limits<std::int32_t>::max());
    m_requiredSwitch.assign(switchCount, 0);
    for (std::size_t s = 0; s < switchCount; ++s)
        for (const std::int32_t p : m_tree.switches[s].nodes) {
            if (m_nodes.cpus[p] == 0) continue;
            ++m_count[s];
            m_cpus[s] += m_nodes.cpus[p];
            m_lowestGroup[s] = std::min(m_lowestGroup[s], m_groupOf[p]);
            if (m_selected[p]) m_requiredSwitch[s] = 1;
        }
}

// The top switch, and whether the required nodes sit under it (and already satisfy the job).
TreePass::Step TreePass::chooseTopSwitch(Pass& pass) {
    chooseTop(pass);
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
            bestCpus += m_nodes.cpus[p];
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
                        " are not enough");

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
            return fail(pass, Failure::MaxNodes, "the lower-weight nodes alone exceed the maximum node count");
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
            m_trace.add("", label, false, nodes + ", not needed");
        else if (g + 1 < groupsUsed)
            m_trace.add("", label, true, nodes + ": all taken, lower weights are always used first");
        else
            m_trace.add("", label, true, nodes + ": chosen by topology");
    }
}

// Leaves that hold required or forced nodes are filled first, in node-table order.
TreePass::Step TreePass::fillHeldLeaves() {
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
        }
        m_filled.push_back(leaf);
        if (m_trace.room() > 0)
            m_trace.add(switchLevelName(0), sw(leaf).name, true,
                        std::string(m_job.required.empty() ? "holds lower-weight nodes" : "holds required nodes") +
                            ", filled first" + (took.empty() ? "" : ": takes " + m_table.hostlist(took)));
        else
            m_trace.dropped(1);
        if (done) return Step::Satisfied;
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
    const std::size_t room = m_trace.room();
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
        if (m_trace.enabled()) {
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
        if (!took.empty()) m_filled.push_back(chosen);
        if (m_trace.enabled()) {
            trace.winner.reason += took.empty() ? "; no node left to take" : "; takes " + m_table.hostlist(took);
            rounds.push_back(std::move(trace));
        }
        if (done) break;
        if (m_rules.subtractAncestors) subtract(chosen, m_count[chosen]);
        m_count[chosen] = 0;
    }

    std::size_t loserRoom = room > rounds.size() ? room - rounds.size() : 0;
    for (RoundTrace& trace : rounds) {
        const std::size_t keep = std::min(loserRoom, trace.losers.size());
        loserRoom -= keep;
        for (std::size_t i = 0; i < keep; ++i) m_trace.add(std::move(trace.losers[i]));
        m_trace.dropped(trace.losers.size() - keep + trace.unrecorded);
        m_trace.add(std::move(trace.winner));
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
    m_trace.add("", m_table.name(pick), true,
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
};

Evaluation evaluate(TreePass& pass, const SlurmJobSpec& job, const TreeRules& rules, TraceBudget& trace) {
    Evaluation evaluation;
    if (rules.oneNodeSkipsTree && job.maxNodes == 1) {
        evaluation.placed = pass.firstUsableNode();
        return evaluation;
    }
    evaluation.placed = pass.run(job.maxNodes);
    const Pass& first = evaluation.placed;
    if (!first.ok() || !job.switches || first.leafCount <= *job.switches || job.waitSeconds <= 0) return evaluation;
    if (rules.rangeRetry)
        for (std::int32_t req = job.maxNodes - 1; req >= job.minNodes; --req) {
            trace.add("", "", false,
                      plural(first.leafCount, "leaf switch", "leaf switches") + " > --switches=" +
                          std::to_string(*job.switches) + ": retry with " + std::to_string(req) + " nodes");
            Pass retry = pass.run(req);
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

Reach reach(const TreeSetup& setup, const SlurmJobSpec& job, SlurmPool pool) {
    TraceBudget silent(nullptr, 0);
    const SlurmNodeMap nodes = slurmNodeMap(setup.cluster, setup.table, job, pool);
    TreePass pass(setup.tree, nodes, job, setup.rules, setup.table, silent);
    SlurmJobSpec plain = job;
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
void reportNotNow(const TreeSetup& setup, const SlurmJobSpec& job, const Pass& placed, PlacementResult& result) {
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
void reportPlaced(const TreeSetup& setup, const SlurmJobSpec& job, const Evaluation& evaluation,
                  PlacementResult& result) {
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
    std::int64_t processors = 0;
    for (const std::int32_t p : placed.selected)
        processors +=
            job.exclusive ? floorUnits(setup.cluster.node(setup.table.id(p)).allocatable.get("cpu")) : job.cpusPerNode;
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
    result.notes.push_back(rules.describe(options.slurmVersion));

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
    SlurmJobSpec& job = *built;
    if (Status counts = settleNodeCounts(job); !counts)
        return refusedAtSubmit(std::move(result), counts.error().message);
    result.notes.insert(result.notes.end(), jobNotes.begin(), jobNotes.end());
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
    TreePass nowPass(*tree, now, job, rules, table, trace);
    const Evaluation evaluation = evaluate(nowPass, job, rules, trace);
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
