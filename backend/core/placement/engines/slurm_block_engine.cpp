#include "core/placement/engines/slurm_block_engine.h"

#include "core/exports/slurm_topology_from_index.h"
#include "core/placement/engines/slurm_flat_selection.h"
#include "core/placement/engines/slurm_job.h"
#include "core/slurm/slurm_topology.h"
#include "core/text/hostlist.h"
#include "core/text/text_format.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

namespace {

using namespace slurm_errno;

constexpr std::string_view kHostnameLevel = "kubernetes.io/hostname";
constexpr std::string_view kBlockLevel = "block";
constexpr std::string_view kAggregatedLevel = "aggregated block";

int ceilDiv(std::int64_t a, std::int64_t b) {
    return static_cast<int>((a + b - 1) / b);
}

// An aggregated block is named like slurmctld names it, the hostlist of its base blocks, unless
// the names do not compress (NVLink clique ids): then its first and last base block.
std::string aggregatedName(const std::vector<std::string>& names, std::size_t first, std::size_t last) {
    std::string name = compressHostlist(
        {names.begin() + static_cast<std::ptrdiff_t>(first), names.begin() + static_cast<std::ptrdiff_t>(last)});
    if (name.size() <= 80 || last - first < 3) return name;
    return names[first] + " .. " + names[last - 1] + " (" + std::to_string(last - first) + " blocks)";
}

// The blocks as slurmctld's bitmaps see them: base blocks in config order, each a sorted list of
// node positions (the node table is the natural name order, PlacementCluster::nodesInOrder()).
struct BlockLayout {
    std::vector<std::string> names;
    std::vector<std::vector<std::int32_t>> nodes;
    std::int32_t baseNodes = 0; // bblock_node_cnt
    std::uint32_t levels = 0;   // block_levels
    std::vector<std::string> notes;
    std::string error; // why there are no blocks to place on
};

BlockLayout layoutFor(const PlacementCluster& cluster, const SlurmNodeTable& table) {
    BlockLayout layout;
    std::vector<std::int32_t> blockSizes;
    const SlurmTopology* topology = cluster.slurmTopology();
    if (topology && topology->kind == SlurmTopology::Kind::Block) {
        std::size_t unknown = 0;
        for (const SlurmBlock& block : topology->blocks) {
            std::vector<std::int32_t> nodes;
            for (const std::string& name : block.nodes) {
                const std::int32_t position = table.position(name);
                if (position != SlurmNodeTable::kNone)
                    nodes.push_back(position);
                else
                    ++unknown;
            }
            layout.names.push_back(block.name);
            layout.nodes.push_back(std::move(nodes));
        }
        blockSizes = topology->blockSizes;
        if (unknown > 0)
            layout.notes.push_back(std::to_string(unknown) +
                                   " node names of the block topology are not in the cluster (slurmctld: Invalid "
                                   "hostnames in block configuration)");
    } else {
        const SlurmIndexBlocks derived = slurmBlockNodesFromIndex(cluster.index());
        for (std::size_t b = 0; b < derived.names.size(); ++b) {
            std::vector<std::int32_t> nodes;
            for (NodeId id : derived.nodes[b])
                if (const std::int32_t position = table.position(id); position != SlurmNodeTable::kNone)
                    nodes.push_back(position);
            layout.names.push_back(derived.names[b]);
            layout.nodes.push_back(std::move(nodes));
        }
        const TopologySpec& spec = cluster.spec();
        const int levels = slurmSwitchLevels(cluster.index());
        const TopologyLevel* lowest = levels > 0 ? &spec.levels[static_cast<std::size_t>(levels - 1)] : nullptr;
        std::string from;
        if (derived.fromNvlink)
            from = "the NVLink domains (" + spec.nvlinkLabel + "), in the order of the " +
                   (lowest ? lowest->name + " domains" : std::string("node names"));
        else if (lowest)
            from = "the " + lowest->name + " domains (" + lowest->nodeLabel + "), in natural order";
        const char* why = topology ? "the Slurm topology is not a block topology" : "no Slurm block topology given";
        if (!from.empty()) layout.notes.push_back(std::string(why) + ": blocks are " + from);
        if (derived.nodesLeftOut > 0)
            layout.notes.push_back(std::to_string(derived.nodesLeftOut) + " nodes are in no block (label missing)");
    }
    if (layout.names.empty()) {
        layout.error = topology && topology->kind == SlurmTopology::Kind::Block
                           ? "the Slurm block topology has no blocks"
                           : "no Slurm block topology (BlockName lines in topology.conf or a block in topology.yaml) "
                             "and no label hierarchy or NVLink domains to derive blocks from";
        return layout;
    }
    for (auto& nodes : layout.nodes) {
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    }
    const auto levels = slurmBlockLevels(blockSizes);
    if (!levels) {
        layout.error = levels.error().message;
        return layout;
    }
    layout.levels = levels->levels;
    layout.baseNodes = levels->baseNodes;
    // Without BlockSizes the base block is the first block that has nodes (block_record.c).
    for (std::size_t b = 0; b < layout.nodes.size() && layout.baseNodes == 0; ++b)
        layout.baseNodes = static_cast<std::int32_t>(layout.nodes[b].size());
    if (layout.baseNodes == 0) layout.error = "Blocks do not contain any nodes and the BlockSizes are not set";
    return layout;
}

// eval_nodes_block() for one job. Member names follow the Slurm locals they stand for.
class BlockEval {
public:
    BlockEval(const BlockLayout& layout, const SlurmJobSpec& job, const SlurmNodeMap& nodes,
              const SlurmNodeTable& table, TraceBudget& trace)
        : m_layout(layout), m_job(job), m_eligible(nodes.cpus.size(), 0), m_weight(nodes.weight),
          m_required(job.required), m_trace(trace), m_table(table), m_bblocks(static_cast<int>(layout.names.size())),
          m_requested(std::max(job.minNodes, job.maxNodes)) {
        for (std::size_t p = 0; p < m_eligible.size(); ++p) m_eligible[p] = nodes.cpus[p] > 0;
        m_isRequired.assign(m_eligible.size(), 0);
        for (std::int32_t p : m_required) m_isRequired[static_cast<std::size_t>(p)] = 1;
        m_inAnyBlock.assign(m_eligible.size(), 0);
        for (const auto& blockNodes : m_layout.nodes)
            for (std::int32_t p : blockNodes) m_inAnyBlock[static_cast<std::size_t>(p)] = 1;
    }

    // Empty on success; else the errno text. invalid(): submit would reject the job.
    std::string_view run();
    bool invalid() const { return m_invalid; }
    std::vector<std::int32_t> allocation() const;
    const std::vector<int>& chosenBlocks() const { return m_chosenBlocks; } // one per segment
    int bblocksPerBlock() const { return m_bblockPerBlock; }

private:
    struct Candidate {
        enum class Status { Qualifies, TooFew, ShortAsblock, HoldsRequired };
        int block = 0;
        Status status = Status::TooFew;
        int nodes = 0;  // nodes_on_block: eligible nodes in the block
        int usable = 0; // avail_bnc: within its max_llblock fullest lower-level blocks
        std::uint32_t weight = 0;
    };

    std::string_view pass();
    std::string_view countNodes();
    std::string_view chooseBlock(int& chosen);
    std::string_view takeNodes(int chosen);
    // A step of takeNodes that may end the pass: empty on success, else the errno text; nullopt: go on.
    using Outcome = std::optional<std::string_view>;
    Outcome markRequired(int chosen);
    Outcome chooseWeightGroups(int chosen, std::vector<std::int32_t>& forced);
    Outcome takeForced(int chosen, const std::vector<std::int32_t>& forced);
    Outcome fillUsedBblocks();
    template <class Holds> void markBblocksHolding(int chosen, Holds&& holds);
    std::string_view fillBestBblocks(int chosen);
    int blockLevelFor(int nodes, int* llblockLevel) const;
    bool sameLlblock(int a, int b) const { return a >= 0 && (a >> m_llLevel) == (b >> m_llLevel); }
    void chooseBestBblock(int i, bool& bestSameBlock, bool& bestFit, int& best) const;
    bool enoughNodes(int avail, int rem) const {
        const int needed = m_reqNodes > m_job.minNodes ? rem + m_job.minNodes - m_reqNodes : rem;
        return avail >= needed;
    }
    std::pair<int, int> bblocksOf(int block) const {
        return {block * m_bblockPerBlock, std::min(m_bblocks, (block + 1) * m_bblockPerBlock)};
    }
    std::string blockName(int block) const;
    std::string segmentPrefix() const;
    void traceCandidates(const std::vector<Candidate>& candidates, int chosen) const;
    std::string nodesText(const std::vector<std::int32_t>& positions) const;
    void take(std::int32_t p) {
        m_nodeMap[static_cast<std::size_t>(p)] = 1;
        --m_remNodes;
        --m_minRemNodes;
        --m_maxNodes;
    }

    const BlockLayout& m_layout;
    const SlurmJobSpec& m_job;
    std::vector<char> m_eligible;                // node_map as it came, to start each segment from
    const std::vector<std::uint32_t>& m_weight;  // by node position
    const std::vector<std::int32_t>& m_required; // -w, node positions
    std::vector<char> m_isRequired;
    std::vector<char> m_inAnyBlock;
    TraceBudget& m_trace;
    const SlurmNodeTable& m_table;
    const int m_bblocks;   // block_count
    const int m_requested; // req_nodes = max_nodes: topology/block places the minimum of a range

    bool m_invalid = false;
    int m_remNodes = 0;
    int m_minRemNodes = 0;
    int m_maxNodes = 0;
    int m_reqNodes = 0;
    int m_segment = 0;
    int m_segmentCnt = 1;
    int m_remSegmentCnt = 0;
    int m_asRemNodes = -1;
    int m_blockLevel = -1;
    int m_llLevel = 0;
    int m_bblockPerBlock = 1;
    int m_blockCnt = 1;
    int m_bblockPerLl = 1;
    int m_llSize = 1;
    int m_maxLl = 0;
    int m_llCnt = 0;
    bool m_llTracking = false; // nodes_on_llblock allocated
    bool m_spreadCheck = false;
    int m_blockPerAsblock = 0;
    int m_asblockInx = -1;
    bool m_reqMode = false; // req_nodes_bitmap set
    bool m_firstSegment = true;
    int m_segmentIndex = 0;

    std::vector<char> m_nodeMap;
    std::vector<char> m_origNodeMap;
    std::vector<char> m_allocMap;
    std::vector<char> m_bblockRequired;
    std::vector<int> m_nodesOnBblock;
    std::vector<int> m_nodesOnLl;
    std::vector<int> m_chosenBlocks;
    // Per pass: the weight groups, per-block counts and the chosen block's eligible nodes.
    std::vector<std::pair<std::uint32_t, std::int32_t>> m_byWeight;
    std::vector<int> m_nodesOnBlock;
    std::vector<std::uint32_t> m_lowestWeight;
    std::vector<int> m_nodesOnAsblock;
    std::vector<char> m_blockMap; // the chosen block's eligible nodes
    std::vector<char> m_best;     // ... of the weight groups taken: the candidates
};

int BlockEval::blockLevelFor(int nodes, int* llblockLevel) const {
    const int bblocks = ceilDiv(nodes, m_layout.baseNodes);
    int level = 0;
    while ((1LL << level) < bblocks) ++level;
    if (llblockLevel) {
        *llblockLevel = 0;
        for (int l = std::min(level - 1, 31); l >= 0; --l)
            if (m_layout.levels & (1u << l)) {
                *llblockLevel = l;
                break;
            }
    }
    for (int l = level; l < 32; ++l)
        if (m_layout.levels & (1u << l)) return l;
    return -1; // no configured level is big enough: the whole topology is one block
}

std::string BlockEval::blockName(int block) const {
    const auto [first, last] = bblocksOf(block);
    return aggregatedName(m_layout.names, static_cast<std::size_t>(first), static_cast<std::size_t>(last));
}

std::string BlockEval::segmentPrefix() const {
    if (m_segmentCnt <= 1) return {};
    return "segment " + std::to_string(m_segmentIndex + 1) + "/" + std::to_string(m_segmentCnt) + ": ";
}

// "3 nodes (n[05,07-08])"
std::string BlockEval::nodesText(const std::vector<std::int32_t>& positions) const {
    return plural(positions.size(), "node", "nodes") + " (" + m_table.hostlist(positions) + ")";
}

// _choose_best_bblock(): fewest lower-level blocks first, then fewest base blocks.
void BlockEval::chooseBestBblock(int i, bool& bestSameBlock, bool& bestFit, int& best) const {
    const bool fit = m_nodesOnBblock[static_cast<std::size_t>(i)] >= m_remNodes;
    if (m_llTracking && !sameLlblock(best, i)) {
        bool sameBlock = false;
        const int mask = (1 << m_llLevel) - 1;
        for (int j = i & ~mask; j < m_bblocks && j <= (i | mask); ++j)
            if (m_bblockRequired[static_cast<std::size_t>(j)]) {
                sameBlock = true;
                break;
            }
        if (best == -1 || (sameBlock && !bestSameBlock)) {
            best = i;
            bestFit = fit;
            bestSameBlock = sameBlock;
            return;
        }
        if (!sameBlock && bestSameBlock) return;
        const int bestLl = m_nodesOnLl[static_cast<std::size_t>(best >> m_llLevel)];
        const int ll = m_nodesOnLl[static_cast<std::size_t>(i >> m_llLevel)];
        const bool llFit = ll >= m_remNodes;
        const bool bestLlFit = bestLl >= m_remNodes;
        if (llFit != bestLlFit) {
            if (llFit) {
                best = i;
                bestFit = fit;
                bestSameBlock = sameBlock;
            }
            return;
        }
        // Both fit: the smaller lower-level block; neither: the larger one. Equal: fall through.
        if (ll != bestLl) {
            if (llFit ? ll < bestLl : ll > bestLl) {
                best = i;
                bestFit = fit;
                bestSameBlock = sameBlock;
            }
            return;
        }
    }
    const int nodes = m_nodesOnBblock[static_cast<std::size_t>(i)];
    const int bestNodes = best >= 0 ? m_nodesOnBblock[static_cast<std::size_t>(best)] : 0;
    if (best == -1 || (fit && !bestFit) || (!fit && !bestFit && nodes >= bestNodes) || (fit && nodes <= bestNodes)) {
        best = i;
        bestFit = fit;
    }
}

std::string_view BlockEval::run() {
    const int nodeCount = static_cast<int>(m_eligible.size());
    m_remNodes = std::min(m_job.minNodes, m_requested);
    m_reqNodes = m_requested;
    m_maxNodes = m_requested;
    m_minRemNodes = m_job.minNodes;
    m_segment = m_job.segment;
    if (m_segment > m_remNodes) {
        m_trace.add("", "", false,
                    "--segment=" + std::to_string(m_segment) + " is larger than the job (" +
                        std::to_string(m_remNodes) + " nodes) and is ignored");
        m_segment = 0;
    }
    if (m_segment > 0 && m_remNodes % m_segment != 0) {
        m_trace.add("", "", false,
                    "--segment=" + std::to_string(m_segment) + " does not divide the job size (" +
                        std::to_string(m_remNodes) + " nodes)");
        m_invalid = true;
        return kTopoConfigUnavailable;
    }
    if (m_segment > 0) {
        m_asRemNodes = m_remNodes;
        m_segmentCnt = m_remNodes / m_segment;
        m_remSegmentCnt = m_segmentCnt;
        m_remNodes = m_segment;
        if (m_segmentCnt > 1) m_reqNodes /= m_segmentCnt;
    }
    m_blockLevel = blockLevelFor(m_remNodes, &m_llLevel);
    if (m_blockLevel < 0) {
        m_bblockPerBlock = m_bblocks;
        m_blockCnt = 1;
    } else {
        m_bblockPerBlock = 1 << m_blockLevel;
        m_blockCnt = ceilDiv(m_bblocks, m_bblockPerBlock);
    }
    m_spreadCheck = m_job.spreadSegments && m_segmentCnt > 1;
    m_bblockPerLl = 1 << m_llLevel;
    m_llSize = m_bblockPerLl * m_layout.baseNodes;
    m_maxLl = ceilDiv(m_remNodes, m_llSize);
    m_llCnt = ceilDiv(m_bblocks, m_bblockPerLl);
    m_llTracking = m_bblockPerBlock != m_bblockPerLl * m_maxLl;
    if (m_segment > 0 && m_job.consolidateSegments) {
        const int asLevel =
            m_job.spreadSegments
                ? blockLevelFor(ceilDiv(m_segment, m_layout.baseNodes) * m_layout.baseNodes * m_segmentCnt, nullptr)
                : blockLevelFor(m_asRemNodes, nullptr);
        m_blockPerAsblock = asLevel < 0 ? m_bblocks : 1 << (asLevel - std::max(m_blockLevel, 0));
    }
    {
        std::string shape = std::to_string(m_remNodes) + (m_segmentCnt > 1 ? " nodes per segment" : " nodes") +
                            ": base blocks of " + std::to_string(m_layout.baseNodes) + " nodes; candidates are ";
        shape += m_blockLevel < 0 ? "the whole topology (no configured block size is large enough)"
                                  : "blocks of " + plural(m_bblockPerBlock, "base block", "base blocks");
        if (m_llTracking)
            shape += ", using at most " + plural(m_maxLl, "lower-level block", "lower-level blocks") + " of " +
                     plural(m_bblockPerLl, "base block", "base blocks");
        m_trace.add("", "", false, std::move(shape));
    }

    m_nodeMap = m_eligible;
    m_origNodeMap = m_eligible;
    if (!m_required.empty()) {
        for (std::int32_t p : m_required)
            if (!m_nodeMap[static_cast<std::size_t>(p)]) return kTopoReqNodesNotAvail;
        for (std::int32_t p : m_required)
            if (!m_inAnyBlock[static_cast<std::size_t>(p)]) return kTopoReqNodesNoMatch;
        const int count = static_cast<int>(m_required.size());
        if (count > m_maxNodes) return kTopoMaxNodeLimit;
        if (m_segmentCnt > 1) {
            if (m_asRemNodes > count) return kTopoConfigUnavailable;
            for (int p = 0; p < nodeCount; ++p)
                if (!m_isRequired[static_cast<std::size_t>(p)]) m_nodeMap[p] = m_origNodeMap[p] = 0;
        } else {
            m_reqMode = true;
        }
    }

    m_allocMap.assign(m_eligible.size(), 0);
    while (true) {
        std::string_view error = pass();
        if (error.empty() && m_remSegmentCnt > 0) {
            if (--m_remSegmentCnt > 0) {
                for (int p = 0; p < nodeCount; ++p) m_allocMap[p] |= m_nodeMap[p];
                if (m_job.spreadSegments)
                    for (int i = 0; i < m_bblocks; ++i)
                        if (m_bblockRequired[static_cast<std::size_t>(i)])
                            for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)]) m_origNodeMap[p] = 0;
                for (int p = 0; p < nodeCount; ++p) m_nodeMap[p] = m_origNodeMap[p] && !m_allocMap[p];
                m_firstSegment = false;
                ++m_segmentIndex;
                continue;
            }
            for (int p = 0; p < nodeCount; ++p) m_nodeMap[p] |= m_allocMap[p];
        }
        // A failed pass of consolidated segments is reported as the segment not fitting.
        if (!error.empty() && m_blockPerAsblock > 0 && m_asblockInx != -1) error = kTopoSegmentNoFit;
        return error;
    }
}

std::string_view BlockEval::pass() {
    const std::size_t nodeCount = m_eligible.size();
    if (m_remSegmentCnt > 0) {
        m_remNodes = m_segment;
        m_minRemNodes = m_job.minNodes / m_segmentCnt;
        m_maxNodes = m_requested / m_segmentCnt;
        m_maxLl = ceilDiv(m_remNodes, m_llSize);
    }
    if (std::find(m_nodeMap.begin(), m_nodeMap.end(), 1) == m_nodeMap.end()) {
        if (m_firstSegment) return kTopoEmptyNodeMap;
        m_trace.add("", "", false, segmentPrefix() + "no eligible nodes are left for this segment");
        return kTopoSegmentNoFit;
    }

    // Weight groups, lowest first; required nodes count as taken.
    m_byWeight.clear();
    for (std::size_t p = 0; p < nodeCount; ++p) {
        if (!m_nodeMap[p]) continue;
        m_byWeight.emplace_back(m_weight[p], static_cast<std::int32_t>(p));
        if (m_reqMode && m_isRequired[p]) {
            --m_remNodes;
            --m_minRemNodes;
            --m_maxNodes;
        }
    }
    std::sort(m_byWeight.begin(), m_byWeight.end());
    if (const std::string_view error = countNodes(); !error.empty()) return error;
    int chosen = -1;
    if (const std::string_view error = chooseBlock(chosen); !error.empty()) return error;
    return takeNodes(chosen);
}

// Eligible nodes per block and lower-level block, and the spread-segment bound.
std::string_view BlockEval::countNodes() {
    m_bblockRequired.assign(static_cast<std::size_t>(m_bblocks), 0);
    m_nodesOnBlock.assign(static_cast<std::size_t>(m_blockCnt), 0);
    m_lowestWeight.assign(static_cast<std::size_t>(m_blockCnt), UINT32_MAX);
    m_nodesOnLl.assign(m_llTracking ? static_cast<std::size_t>(m_llCnt) : 0, 0);
    int availSegments = 0;
    int prevBlock = -1;
    int partialSum = 0;
    int partialCnt = 0;
    int maxPartial = 0;
    // _partial_bblock_segments(): segments that base blocks too small for one could still make.
    const auto partialSegments = [&] {
        if (partialSum == 0) return 0;
        return std::min(partialSum / m_segment, partialCnt / ceilDiv(m_segment, maxPartial));
    };
    for (int i = 0; i < m_bblocks; ++i) {
        const int block = i / m_bblockPerBlock;
        int count = 0;
        for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)]) {
            if (!m_nodeMap[static_cast<std::size_t>(p)]) continue;
            ++count;
            m_lowestWeight[static_cast<std::size_t>(block)] =
                std::min(m_lowestWeight[static_cast<std::size_t>(block)], m_weight[static_cast<std::size_t>(p)]);
        }
        m_nodesOnBlock[static_cast<std::size_t>(block)] += count;
        if (m_spreadCheck && m_firstSegment && count > 0) {
            if (prevBlock != block) {
                availSegments += partialSegments();
                prevBlock = block;
                partialSum = partialCnt = maxPartial = 0;
            }
            if (count >= m_segment) {
                ++availSegments;
            } else {
                partialSum += count;
                ++partialCnt;
                maxPartial = std::max(maxPartial, count);
            }
        }
        if (m_llTracking) m_nodesOnLl[static_cast<std::size_t>(i / m_bblockPerLl)] += count;
    }
    if (m_spreadCheck && m_firstSegment) {
        availSegments += partialSegments();
        if (availSegments < m_segmentCnt) {
            m_trace.add("", "", false,
                        "base blocks can hold only " + std::to_string(availSegments) + " of the " +
                            std::to_string(m_segmentCnt) + " spread segments");
            return kTopoSegmentNoFit;
        }
    }
    m_nodesOnAsblock.clear();
    if (m_blockPerAsblock > 0 && m_firstSegment) {
        m_nodesOnAsblock.assign(static_cast<std::size_t>(ceilDiv(m_blockCnt, m_blockPerAsblock)), 0);
        for (int b = 0; b < m_blockCnt; ++b)
            m_nodesOnAsblock[static_cast<std::size_t>(b / m_blockPerAsblock)] +=
                m_nodesOnBlock[static_cast<std::size_t>(b)];
    }
    return {};
}

// The block: lowest node weight, then fewest eligible nodes, "<=" so the later block wins ties.
std::string_view BlockEval::chooseBlock(int& chosen) {
    const std::size_t nodeCount = m_eligible.size();
    int availSegments = 0;
    std::uint32_t chosenWeight = 0;
    int chosenNodes = 0;
    std::vector<Candidate> candidates;
    candidates.reserve(static_cast<std::size_t>(m_blockCnt));
    std::vector<int> llCounts;
    for (int b = 0; b < m_blockCnt; ++b) {
        Candidate candidate;
        candidate.block = b;
        candidate.nodes = m_nodesOnBlock[static_cast<std::size_t>(b)];
        candidate.weight = m_lowestWeight[static_cast<std::size_t>(b)];
        if (!m_nodesOnAsblock.empty() &&
            m_nodesOnAsblock[static_cast<std::size_t>(b / m_blockPerAsblock)] < m_asRemNodes) {
            candidate.status = Candidate::Status::ShortAsblock;
            candidates.push_back(candidate);
            continue;
        }
        if (!m_llTracking) {
            candidate.usable = candidate.nodes;
        } else {
            // Integer division as in Slurm: a trailing partial lower-level block is not counted.
            const int offset = b * (m_bblockPerBlock / m_bblockPerLl);
            const int perBlock = std::min(m_bblockPerBlock / m_bblockPerLl, m_llCnt - offset);
            llCounts.assign(m_nodesOnLl.begin() + offset, m_nodesOnLl.begin() + offset + std::max(perBlock, 0));
            std::sort(llCounts.begin(), llCounts.end(), std::greater<>());
            const int take = std::min(m_maxLl, static_cast<int>(llCounts.size()));
            candidate.usable = std::accumulate(llCounts.begin(), llCounts.begin() + std::max(take, 0), 0);
        }
        if (m_reqMode) {
            const auto [first, last] = bblocksOf(b);
            bool holds = false;
            for (int i = first; i < last && !holds; ++i)
                for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)])
                    if (m_nodeMap[static_cast<std::size_t>(p)] && m_isRequired[static_cast<std::size_t>(p)]) {
                        holds = true;
                        break;
                    }
            if (holds) {
                candidate.status = Candidate::Status::HoldsRequired;
                candidates.push_back(candidate);
                chosen = b;
                break;
            }
        }
        // Eligible nodes always bring the per-node CPUs, so the CPU totals Slurm also checks
        // here never bind before the node counts do.
        if (!enoughNodes(candidate.usable, m_remNodes)) {
            candidate.status = Candidate::Status::TooFew;
            candidates.push_back(candidate);
            continue;
        }
        candidate.status = Candidate::Status::Qualifies;
        candidates.push_back(candidate);
        if (m_firstSegment && m_segmentCnt > 1) {
            const int fits = candidate.nodes / m_segment;
            availSegments += m_spreadCheck ? std::min(fits, m_bblockPerBlock) : fits;
        }
        if (!m_reqMode && candidate.nodes > 0 &&
            (chosen == -1 || candidate.weight < chosenWeight ||
             (candidate.weight == chosenWeight && candidate.nodes <= chosenNodes))) {
            chosen = b;
            chosenWeight = candidate.weight;
            chosenNodes = candidate.nodes;
        }
    }
    traceCandidates(candidates, chosen);
    if (chosen == -1) return m_segmentCnt > 1 ? kTopoSegmentNoFit : kTopoNoFit;
    if (m_segmentCnt > 1 && m_firstSegment && availSegments < m_segmentCnt) {
        m_trace.add("", "", false,
                    "the qualifying blocks can hold at most " + std::to_string(availSegments) + " of the " +
                        std::to_string(m_segmentCnt) + " segments");
        return kTopoSegmentNoFit;
    }

    // block_node_bitmap[block_inx]: the chosen block's eligible nodes.
    const auto [firstBblock, lastBblock] = bblocksOf(chosen);
    m_blockMap.assign(nodeCount, 0);
    for (int i = firstBblock; i < lastBblock; ++i)
        for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)])
            if (m_nodeMap[static_cast<std::size_t>(p)]) m_blockMap[static_cast<std::size_t>(p)] = 1;
    m_chosenBlocks.push_back(chosen);
    if (m_reqMode) {
        for (std::int32_t p : m_required)
            if (!m_blockMap[static_cast<std::size_t>(p)]) return kTopoReqNodesNoMatch;
    }
    if (m_blockPerAsblock > 0 && m_firstSegment) {
        // --consolidate-segments: every later segment stays inside this aggregated block.
        m_asblockInx = chosen / m_blockPerAsblock;
        std::vector<char> inAsblock(nodeCount, 0);
        for (int b = 0; b < m_blockCnt; ++b) {
            if (b / m_blockPerAsblock != m_asblockInx) continue;
            const auto [first, last] = bblocksOf(b);
            for (int i = first; i < last; ++i)
                for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)])
                    if (m_nodeMap[static_cast<std::size_t>(p)]) inAsblock[static_cast<std::size_t>(p)] = 1;
        }
        for (std::size_t p = 0; p < nodeCount; ++p) m_origNodeMap[p] = m_origNodeMap[p] && inAsblock[p];
    }
    return {};
}

// Whole weight groups, then the base blocks of the chosen block one by one (_choose_best_bblock).
std::string_view BlockEval::takeNodes(int chosen) {
    std::fill(m_nodeMap.begin(), m_nodeMap.end(), 0);
    if (m_reqMode)
        if (const Outcome ended = markRequired(chosen)) return *ended;
    std::vector<std::int32_t> forced;
    if (const Outcome ended = chooseWeightGroups(chosen, forced)) return *ended;
    if (const Outcome ended = takeForced(chosen, forced)) return *ended;
    if (m_reqMode || !forced.empty())
        if (const Outcome ended = fillUsedBblocks()) return *ended;
    return fillBestBblocks(chosen);
}

// The required nodes are the allocation's start; their base blocks are in use.
BlockEval::Outcome BlockEval::markRequired(int chosen) {
    for (std::int32_t p : m_required) m_nodeMap[static_cast<std::size_t>(p)] = 1;
    if (m_llTracking)
        markBblocksHolding(chosen, [this](std::int32_t p) { return m_isRequired[static_cast<std::size_t>(p)] != 0; });
    if (m_maxLl < 0) {
        m_trace.add("", "", false, "the required nodes span more lower-level blocks than the job may use");
        return kTopoConfigUnavailable;
    }
    if (m_remNodes <= 0) return std::string_view();
    if (m_maxNodes <= 0) return kTopoMaxNodeLimit;
    return std::nullopt;
}

// Whole weight groups of the chosen block, lowest first, until enough: the candidates (m_best).
// All but the last group are forced in, whatever the topology.
BlockEval::Outcome BlockEval::chooseWeightGroups(int chosen, std::vector<std::int32_t>& forced) {
    m_best.assign(m_eligible.size(), 0);
    std::vector<std::int32_t> bestList;
    std::size_t forcedCount = 0;
    bool sufficient = false;
    bool requested = false;
    for (std::size_t g = 0; g < m_byWeight.size() && !requested;) {
        std::size_t end = g;
        while (end < m_byWeight.size() && m_byWeight[end].first == m_byWeight[g].first) ++end;
        if (!bestList.empty()) forcedCount = bestList.size();
        for (std::size_t k = g; k < end; ++k) {
            const auto p = static_cast<std::size_t>(m_byWeight[k].second);
            if ((m_reqMode && m_isRequired[p]) || !m_blockMap[p]) continue;
            m_best[p] = 1;
            bestList.push_back(m_byWeight[k].second);
        }
        const int bestCount = static_cast<int>(bestList.size());
        if (!sufficient) sufficient = enoughNodes(bestCount, m_remNodes);
        requested = bestCount >= m_remNodes;
        g = end;
    }
    if (!sufficient) {
        m_trace.add("", "", false,
                    segmentPrefix() + "block " + blockName(chosen) + " has " + std::to_string(bestList.size()) +
                        " eligible nodes; " + std::to_string(m_remNodes) + " needed");
        return kTopoInsufficient;
    }
    forced.assign(bestList.begin(), bestList.begin() + static_cast<std::ptrdiff_t>(forcedCount));
    std::sort(forced.begin(), forced.end());
    return std::nullopt;
}

// Marks the chosen block's base blocks that hold a node `holds` accepts as in use; each new
// lower-level block they open counts against the lower-level blocks the job may use.
template <class Holds> void BlockEval::markBblocksHolding(int chosen, Holds&& holds) {
    const auto [firstBblock, lastBblock] = bblocksOf(chosen);
    int lastLl = -1;
    for (int i = firstBblock; i < lastBblock; ++i) {
        if (m_bblockRequired[static_cast<std::size_t>(i)]) {
            lastLl = i;
            continue;
        }
        const auto& nodes = m_layout.nodes[static_cast<std::size_t>(i)];
        if (std::none_of(nodes.begin(), nodes.end(), holds)) continue;
        m_bblockRequired[static_cast<std::size_t>(i)] = 1;
        if (!sameLlblock(lastLl, i)) {
            --m_maxLl;
            lastLl = i;
        }
    }
}

// The lower-weight nodes join the allocation; their base blocks are in use.
BlockEval::Outcome BlockEval::takeForced(int chosen, const std::vector<std::int32_t>& forced) {
    if (!forced.empty()) {
        for (std::size_t k = 0; k < forced.size() && m_maxNodes > 0; ++k) {
            --m_remNodes;
            --m_minRemNodes;
            --m_maxNodes;
        }
        for (std::int32_t p : forced) m_nodeMap[static_cast<std::size_t>(p)] = 1;
        m_trace.add("", "", true,
                    segmentPrefix() + "node weight: " + nodesText(forced) +
                        " of lower weight taken first, whatever the topology");
        if (m_remNodes <= 0) return std::string_view();
        if (m_maxNodes <= 0) return kTopoMaxNodeLimit;
        markBblocksHolding(chosen, [&](std::int32_t p) { return std::binary_search(forced.begin(), forced.end(), p); });
    }
    if (m_maxLl < 0) {
        m_trace.add("", "", false,
                    segmentPrefix() + "the lower-weight nodes span more lower-level blocks than the job may use");
        return kTopoWeightNoFit;
    }
    return std::nullopt;
}

// The base blocks already in use are filled first.
BlockEval::Outcome BlockEval::fillUsedBblocks() {
    for (int i = 0; i < m_bblocks; ++i) {
        if (!m_bblockRequired[static_cast<std::size_t>(i)]) continue;
        for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)]) {
            const auto u = static_cast<std::size_t>(p);
            if (!m_blockMap[u] || !m_best[u] || m_nodeMap[u]) continue;
            take(p);
            if (m_remNodes <= 0) return std::string_view();
        }
    }
    return std::nullopt;
}

// Then base block after base block, the best by _choose_best_bblock, until satisfied or stuck.
std::string_view BlockEval::fillBestBblocks(int chosen) {
    const auto [firstBblock, lastBblock] = bblocksOf(chosen);
    m_nodesOnBblock.assign(static_cast<std::size_t>(m_bblocks), 0);
    std::fill(m_nodesOnLl.begin(), m_nodesOnLl.end(), 0);
    for (int i = firstBblock; i < lastBblock; ++i) {
        if (m_bblockRequired[static_cast<std::size_t>(i)]) continue;
        int count = 0;
        for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(i)])
            if (m_blockMap[static_cast<std::size_t>(p)] && m_best[static_cast<std::size_t>(p)]) ++count;
        m_nodesOnBblock[static_cast<std::size_t>(i)] = count;
        if (m_llTracking) m_nodesOnLl[static_cast<std::size_t>(i / m_bblockPerLl)] += count;
    }
    int prevRemNodes = m_remNodes + 1;
    while (prevRemNodes != m_remNodes) {
        prevRemNodes = m_remNodes;
        int bestBblock = -1;
        bool bestFit = false;
        bool bestSameBlock = true;
        for (int i = firstBblock; i < lastBblock; ++i)
            if (!m_bblockRequired[static_cast<std::size_t>(i)]) chooseBestBblock(i, bestSameBlock, bestFit, bestBblock);
        if (bestBblock == -1) break;
        const std::string& name = m_layout.names[static_cast<std::size_t>(bestBblock)];
        if (m_maxLl <= 0 && !bestSameBlock) {
            m_trace.add(kBlockLevel, name, false,
                        segmentPrefix() + "would open one more lower-level block than the job may use");
            break;
        }
        m_bblockRequired[static_cast<std::size_t>(bestBblock)] = 1;
        const int remBefore = m_remNodes;
        std::vector<std::int32_t> taken;
        for (std::int32_t p : m_layout.nodes[static_cast<std::size_t>(bestBblock)]) {
            const auto u = static_cast<std::size_t>(p);
            if (!m_blockMap[u] || !m_best[u] || m_nodeMap[u]) continue;
            if (m_maxNodes <= 0) break;
            take(p);
            taken.push_back(p);
            if (m_remNodes <= 0) break;
        }
        if (m_trace.room() > 0) {
            std::string why = bestFit ? "fits the remaining " + std::to_string(remBefore) +
                                            " alone, the smallest that does (ties go to the later block)"
                                      : "no base block fits the remaining " + std::to_string(remBefore) +
                                            " alone: the largest (ties go to the later block)";
            if (m_llTracking && bestSameBlock) why = "in a lower-level block already used; " + why;
            m_trace.add(kBlockLevel, name, true, segmentPrefix() + "took " + nodesText(taken) + ": " + why);
        } else {
            m_trace.drop();
        }
        if (m_remNodes <= 0) return {};
        if (!bestSameBlock) --m_maxLl;
    }
    if (m_minRemNodes <= 0) return {};
    m_trace.add("", "", false,
                segmentPrefix() + "the base blocks of " + blockName(chosen) + " ran out with " +
                    std::to_string(m_remNodes) + " nodes still needed");
    return kTopoInsufficient;
}

void BlockEval::traceCandidates(const std::vector<Candidate>& candidates, int chosen) const {
    const std::string_view level = m_bblockPerBlock == 1 ? kBlockLevel : kAggregatedLevel;
    const std::string prefix = segmentPrefix();
    const Candidate* winner = nullptr;
    for (const Candidate& c : candidates)
        if (c.block == chosen) winner = &c;
    const std::string winnerName = chosen >= 0 ? blockName(chosen) : std::string();
    for (const Candidate& c : candidates) {
        if (m_trace.room() == 0) {
            m_trace.drop();
            continue;
        }
        std::string reason = prefix + plural(c.nodes, "eligible node", "eligible nodes");
        switch (c.status) {
        case Candidate::Status::ShortAsblock:
            reason += "; its aggregated block for the consolidated segments has too few (" +
                      std::to_string(m_asRemNodes) + " needed)";
            break;
        case Candidate::Status::HoldsRequired:
            reason += "; holds required nodes (the first such block is taken)";
            break;
        case Candidate::Status::TooFew:
            if (c.usable < c.nodes)
                reason += ", " + std::to_string(c.usable) + " within its " +
                          plural(m_maxLl, "fullest lower-level block", "fullest lower-level blocks");
            reason += "; " + std::to_string(m_remNodes) + " needed";
            break;
        case Candidate::Status::Qualifies:
            reason += ", lowest weight " + std::to_string(c.weight);
            if (c.block == chosen)
                reason += ": chosen (lowest weight, then fewest eligible nodes; ties go to the later block)";
            else if (winner && c.weight > winner->weight)
                reason += "; " + winnerName + " has nodes of lower weight (" + std::to_string(winner->weight) + ")";
            else if (winner && c.nodes > winner->nodes)
                reason += "; " + winnerName + " is a tighter fit (" + std::to_string(winner->nodes) + " nodes)";
            else if (winner)
                reason += "; " + winnerName + " ties and comes later in the configuration, so it wins";
            break;
        }
        m_trace.add(level, blockName(c.block), c.block == chosen, std::move(reason));
    }
}

std::vector<std::int32_t> BlockEval::allocation() const {
    std::vector<std::int32_t> nodes;
    for (std::size_t p = 0; p < m_nodeMap.size(); ++p)
        if (m_nodeMap[p]) nodes.push_back(static_cast<std::int32_t>(p));
    return nodes;
}

} // namespace

std::string_view SlurmBlockEngine::description() const {
    return "Slurm topology/block: one aggregated block by weight and tightest fit, BlockSizes, --segment";
}

std::string SlurmBlockEngine::unavailableReason(const PlacementCluster& cluster, const GangRequest&) const {
    if (slurmTopologyIsFlat(cluster, true)) return {}; // topology/flat: placeSlurmFlat
    return layoutFor(cluster, SlurmNodeTable(cluster)).error;
}

namespace {

// The job as eval_nodes_block receives it: -N as given (a range places its minimum), no --switches.
// Its node counts around -w are slurmctld's, whatever the topology plugin: the list sets or raises
// -N and a list beyond the maximum is refused at submit (settleNodeCounts), as for topology/tree.
Result<SlurmJobSpec> blockJob(const PlacementCluster& cluster, const SlurmNodeTable& table, const GangRequest& request,
                              const EngineOptions& options, std::vector<std::string>& notes) {
    std::string unknownNode;
    Result<SlurmJobSpec> job = slurmJobFor(cluster, table, request, options, notes, &unknownNode);
    if (!job) return Error{unknownNode.empty() ? job.error().message : std::string(kInvalidNodeName)};
    if (Status counts = settleNodeCounts(*job); !counts) return counts.error();
    if (request.slurm && request.slurm->switches)
        notes.emplace_back("--switches is read by topology/tree only; topology/block ignores it");
    if (job->maxNodes > job->minNodes) notes.emplace_back("node range: topology/block places the minimum node count");
    return job;
}

// The allocation as the result's nodes, assignment (each node with the base block it was taken
// from) and chosen blocks.
void reportAllocation(const BlockLayout& layout, const BlockEval& eval, const SlurmNodeTable& table,
                      PlacementResult& result) {
    // The base block each node sits in (the first one listing it).
    std::vector<std::int32_t> bblockOf(table.size(), -1);
    for (std::size_t b = layout.nodes.size(); b-- > 0;)
        for (std::int32_t p : layout.nodes[b]) bblockOf[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(b);
    const std::vector<std::int32_t> allocated = eval.allocation();
    std::vector<char> used(layout.names.size(), 0);
    result.assignment.levels = {std::string(kBlockLevel), std::string(kHostnameLevel)};
    for (std::int32_t p : allocated) {
        const std::string& nodeName = table.name(p);
        result.nodes.push_back({nodeName, 1});
        const std::int32_t b = bblockOf[static_cast<std::size_t>(p)];
        if (b >= 0) used[static_cast<std::size_t>(b)] = 1;
        result.assignment.domains.push_back(
            {{b >= 0 ? layout.names[static_cast<std::size_t>(b)] : std::string(), nodeName}, 1});
    }
    const int perBlock = eval.bblocksPerBlock();
    std::vector<int> seen;
    for (int block : eval.chosenBlocks()) {
        if (perBlock == 1 || std::find(seen.begin(), seen.end(), block) != seen.end()) continue;
        seen.push_back(block);
        const auto first = static_cast<std::size_t>(block * perBlock);
        const std::size_t last = std::min(layout.names.size(), first + static_cast<std::size_t>(perBlock));
        result.chosen.push_back({std::string(kAggregatedLevel), aggregatedName(layout.names, first, last)});
    }
    std::vector<std::string> usedNames;
    for (std::size_t b = 0; b < used.size(); ++b)
        if (used[b]) usedNames.push_back(layout.names[b]);
    result.chosen.push_back({std::string(kBlockLevel), aggregatedName(usedNames, 0, usedNames.size())});
    result.feasible = true;
    result.message = "would start now on " + plural(static_cast<std::int64_t>(allocated.size()), "node", "nodes") +
                     ": " + table.hostlist(allocated);
}

} // namespace

PlacementResult SlurmBlockEngine::place(const PlacementCluster& cluster, const GangRequest& request,
                                        const EngineOptions& options) const {
    if (slurmTopologyIsFlat(cluster, true)) return placeSlurmFlat(cluster, request, options, name());
    PlacementResult result;
    result.engine = std::string(name());
    const SlurmNodeTable table(cluster);
    const BlockLayout layout = layoutFor(cluster, table);
    result.notes = layout.notes;
    result.rulesVersion = options.slurmVersion.toString();
    result.rulesVersionOrigin = options.slurmVersionOrigin;
    const std::string origin = options.slurmVersionOrigin.empty() ? "" : " (" + options.slurmVersionOrigin + ")";
    if (options.slurmVersion < SlurmVersion{23, 11, 0}) {
        result.notes.push_back("topology/block first shipped in Slurm 23.11; Slurm " + options.slurmVersion.toString() +
                               origin + " has no block plugin");
    } else {
        if (!origin.empty())
            result.notes.push_back("Slurm " + options.slurmVersion.toString() + " topology/block rules" + origin);
        if (options.slurmVersion < SlurmVersion{26, 5, 0})
            result.notes.emplace_back(
                "before Slurm 26.05 a pending job shows only Reason=Resources, not the topology error");
    }
    if (!layout.error.empty()) {
        result.message = layout.error;
        return result;
    }
    Result<SlurmJobSpec> job = blockJob(cluster, table, request, options, result.notes);
    if (!job) return refusedAtSubmit(std::move(result), job.error().message);

    // cons_tres' part: which nodes could take one task of this job now; and at submit, whether any
    // node of the cluster could run one at all.
    const SlurmNodeMap nodes = slurmNodeMap(cluster, table, *job, SlurmPool::Now);
    if (nodes.eligible == 0 && slurmNodeMap(cluster, table, *job, SlurmPool::All).eligible == 0) {
        result.trace.push_back({"", "", false, "no node of the cluster has the GPUs, CPUs and memory one task asks"});
        return refusedAtSubmit(std::move(result), kNodeConfigUnavailable);
    }
    TraceBudget trace(&result.trace, options.maxTraceEntries);
    const std::string why = nodes.why.describe(*job);
    trace.add("", "", nodes.eligible > 0,
              std::to_string(nodes.eligible) + " of " + std::to_string(table.size()) + " nodes eligible" +
                  (why.empty() ? "" : ": " + why));

    BlockEval eval(layout, *job, nodes, table, trace);
    const std::string_view error = eval.run();
    trace.finish([](std::size_t dropped, std::size_t limit) {
        return std::to_string(dropped) + " more entries left out (trace limit " + std::to_string(limit) + ")";
    });
    if (!error.empty()) {
        result.invalidRequest = eval.invalid();
        result.message = std::string(error);
        return result;
    }
    reportAllocation(layout, eval, table, result);
    return result;
}

const PlacementEngine& slurmBlockEngine() {
    static const SlurmBlockEngine engine;
    return engine;
}

} // namespace topodeck
