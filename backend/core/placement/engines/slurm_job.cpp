#include "core/placement/engines/slurm_job.h"

#include "core/text/hostlist.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace topodeck {

SlurmNodeTable::SlurmNodeTable(const PlacementCluster& cluster)
    : m_cluster(&cluster), m_order(&cluster.nodesInOrder()), m_positionOf(cluster.nodeSlots(), kNone) {
    for (std::size_t p = 0; p < m_order->size(); ++p) m_positionOf[(*m_order)[p]] = static_cast<std::int32_t>(p);
}

std::int32_t SlurmNodeTable::position(const std::string& name) const {
    const std::optional<NodeId> id = m_cluster->state().findNode(name);
    return id ? position(*id) : kNone;
}

const std::string& SlurmNodeTable::name(std::int32_t position) const {
    return m_cluster->node(id(position)).name;
}

std::string SlurmNodeTable::hostlist(const std::vector<std::int32_t>& positions) const {
    std::vector<std::string> names;
    names.reserve(positions.size());
    for (const std::int32_t p : positions) names.push_back(name(p));
    return compressHostlist(names);
}

namespace {

// -w / -x names as node positions; false (with the name) for one the cluster lacks.
bool positionsOf(const SlurmNodeTable& table, const std::vector<std::string>& names, std::vector<std::int32_t>& out,
                 std::string& unknown) {
    for (const std::string& name : names) {
        const std::int32_t position = table.position(name);
        if (position == SlurmNodeTable::kNone) {
            unknown = name;
            return false;
        }
        out.push_back(position);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return true;
}

Result<SlurmJobSpec> jobFromSbatch(const SlurmNodeTable& table, const SlurmRequest& s, std::string& unknown) {
    SlurmJobSpec job;
    std::vector<std::int32_t> excluded;
    if (!positionsOf(table, s.requiredNodes, job.required, unknown) ||
        !positionsOf(table, s.excludedNodes, excluded, unknown))
        return Error{std::string(slurm_errno::kInvalidNodeName) + ": " + unknown};
    job.excluded.assign(table.size(), 0);
    for (const std::int32_t p : excluded) job.excluded[static_cast<std::size_t>(p)] = 1;
    job.minNodes = s.minNodes;
    job.maxNodes = s.maxNodes;
    job.gpusPerNode = s.gpusPerNode;
    job.cpusPerNode = std::max(1, s.cpusPerNode);
    job.memoryMiB = s.memoryPerNodeMiB;
    job.exclusive = s.exclusive;
    if (s.switches && *s.switches > 0) job.switches = s.switches;
    job.segment = s.segment;
    job.spreadSegments = s.spreadSegments;
    job.consolidateSegments = s.consolidateSegments;
    return job;
}

// A gang without sbatch flags, as the sbatch line that asks the same with one pod per node.
Result<SlurmJobSpec> jobFromGang(const PlacementCluster& cluster, const SlurmNodeTable& table,
                                 const GangRequest& request, std::vector<std::string>& notes) {
    if (request.pods <= 0) return Error{std::string(slurm_errno::kNodeCountInvalid)};
    SlurmJobSpec job;
    job.excluded.assign(table.size(), 0);
    job.minNodes = job.maxNodes = request.pods;
    job.gpusPerNode = cluster.index().gpuResources().count(request.perPod);
    job.cpusPerNode = static_cast<std::int32_t>(
        std::clamp<std::int64_t>(request.perPod.get("cpu").value(), 1, std::numeric_limits<std::int32_t>::max()));
    const std::int64_t memoryBytes = request.perPod.get("memory").value();
    // Rounded up without overflowing: a request of 64Ei saturates at the int64 range.
    constexpr std::int64_t kMiB = std::int64_t{1} << 20;
    job.memoryMiB = memoryBytes <= 0 ? 0 : memoryBytes / kMiB + (memoryBytes % kMiB != 0 ? 1 : 0);
    notes.push_back("request as sbatch: -N " + std::to_string(job.minNodes) +
                    " --gres=gpu:" + std::to_string(job.gpusPerNode) + " -c " + std::to_string(job.cpusPerNode) +
                    (job.memoryMiB > 0 ? " --mem=" + std::to_string(job.memoryMiB) + "M" : "") + " (one pod per node)");
    return job;
}

} // namespace

Result<SlurmJobSpec> slurmJobFor(const PlacementCluster& cluster, const SlurmNodeTable& table,
                                 const GangRequest& request, const EngineOptions& options,
                                 std::vector<std::string>& notes, std::string* unknownNode) {
    const auto sameShape = [&request](const GangPart& part) { return part.perPod == request.parts.front().perPod; };
    if (request.heterogeneous() && !std::all_of(request.parts.begin(), request.parts.end(), sameShape)) {
        // A Slurm job asks one shape of every node; a heterogeneous job (sbatch's ":" components)
        // is several allocations, which topodeck does not model. Parts that ask alike (a
        // LeaderWorkerSet's leader like its workers) are one shape.
        std::string names;
        for (const GangPart& part : request.parts) names += (names.empty() ? "" : ", ") + part.name;
        return Error{"the gang has pods of several kinds (" + names +
                     "): a Slurm job gives every node one shape; "
                     "plan one part with --gang " +
                     request.name + "/PART"};
    }
    std::string unknown;
    Result<SlurmJobSpec> job =
        request.slurm ? jobFromSbatch(table, *request.slurm, unknown) : jobFromGang(cluster, table, request, notes);
    if (unknownNode) *unknownNode = unknown;
    if (!job) return job.error();
    // SchedulerParameters=max_switch_wait caps the wait and is the default.
    const std::int64_t requestedWait = request.slurm ? request.slurm->switchesWaitSeconds : -1;
    job->waitSeconds =
        requestedWait < 0 ? options.maxSwitchWaitSeconds : std::min(requestedWait, options.maxSwitchWaitSeconds);
    if (request.slurm && !request.slurm->requiredNodes.empty() &&
        request.slurm->maxNodes > static_cast<std::int32_t>(request.slurm->requiredNodes.size()))
        notes.push_back("sbatch --test-only looks at the -w nodes alone (slurmctld's job_start_data): it refuses a "
                        "-N above their count and answers a range with them; a submitted job takes more nodes");
    if (request.slurm && !request.slurm->partition.empty())
        notes.push_back("partition " + request.slurm->partition + " not modelled: every node of the snapshot is in it");
    if (!request.nodeSelector.empty() || !request.tolerations.empty())
        notes.push_back("node selector and tolerations ignored: Slurm knows no Kubernetes labels or taints");
    return job;
}

Status settleNodeCounts(SlurmJobSpec& job) {
    const auto requiredCount = static_cast<std::int32_t>(job.required.size());
    const std::int32_t minNodes = job.minNodes;
    job.minNodes = minNodes > 0 ? minNodes : requiredCount;
    job.maxNodes = job.maxNodes > 0 ? job.maxNodes : (minNodes > 0 ? minNodes : requiredCount);
    if (job.minNodes <= 0 || job.maxNodes < job.minNodes) return Error{std::string(slurm_errno::kNodeCountInvalid)};
    // slurmctld's _job_create (job_mgr.c): the -w list raises the minimum, and a minimum above the
    // maximum is refused at submit (ESLURM_INVALID_NODE_COUNT). sbatch refuses it even earlier.
    if (requiredCount > job.maxNodes) return Error{std::string(slurm_errno::kNodeCountInvalid)};
    job.minNodes = std::max(job.minNodes, requiredCount);
    return {};
}

std::int64_t floorUnits(const Quantity& quantity) {
    // 64-bit division when the amount allows it: 128-bit division dominates the per-node cost on a
    // large cluster.
    const __int128 nanos = quantity.nanos();
    if (nanos <= 0) return 0;
    const __int128 units = nanos <= std::numeric_limits<std::int64_t>::max()
                               ? static_cast<std::int64_t>(nanos) / 1000000000
                               : nanos / 1000000000;
    return units > std::numeric_limits<std::int32_t>::max() ? std::numeric_limits<std::int32_t>::max()
                                                            : static_cast<std::int64_t>(units);
}

namespace {

// What one node offers the job in a pool: its avail_cpus, or why it cannot take one task.
class NodeCheck {
public:
    NodeCheck(const PlacementCluster& cluster, const SlurmJobSpec& job, SlurmPool pool)
        : m_cluster(cluster), m_job(job), m_pool(pool), m_gpus(cluster.index().gpuResources()),
          // In 128 bits: a --mem (or a saturated 64Ei request) of 2^43 MiB and more overflows 64.
          m_memoryNeeded(Quantity::fromNanos(static_cast<__int128>(job.memoryMiB) * (1 << 20) * 1000000000)) {
        // Plain resource names are looked up directly; only prefix patterns ("nvidia.com/mig-*")
        // need a walk over every resource of the node.
        const std::vector<std::string>& names = m_gpus.patterns();
        m_gpuPrefixes =
            std::any_of(names.begin(), names.end(), [](const std::string& p) { return !p.empty() && p.back() == '*'; });
    }

    // avail_cpus when the node can take one task, else 0 with the reason counted; its avail_gpus
    // in *gpusOut when the job asks for GPUs.
    std::int32_t availableCpus(NodeId id, SlurmIneligible& why, std::int32_t* gpusOut = nullptr) const {
        const auto reject = [](std::int64_t& reason) {
            ++reason;
            return 0;
        };
        const bool wholeNode = m_pool != SlurmPool::Now || m_job.exclusive;
        if (m_pool != SlurmPool::All && !m_cluster.usable(id)) {
            const Node& node = m_cluster.node(id);
            return reject(!node.ready ? why.notReady : node.unschedulable ? why.cordoned : why.drained);
        }
        if (m_pool == SlurmPool::Now && m_job.exclusive && !m_cluster.idle(id)) return reject(why.busy);
        if (m_job.gpusPerNode > 0) {
            const std::int64_t free = gpus(id, wholeNode);
            if (free < m_job.gpusPerNode) return reject(why.gpus);
            if (gpusOut) *gpusOut = static_cast<std::int32_t>(std::min<std::int64_t>(free, 0x7fffffff));
        }
        // A node that does not report CPUs or memory is not limited by them. The node's own record
        // is read only when it must be: at cluster size, touching every node is what costs.
        std::int64_t cpus = amount(id, "cpu", wholeNode);
        if (cpus < m_job.cpusPerNode && !m_cluster.node(id).allocatable.contains("cpu")) cpus = m_job.cpusPerNode;
        if (cpus < m_job.cpusPerNode) return reject(why.cpus);
        if (m_job.memoryMiB > 0) {
            const Quantity memory =
                wholeNode ? m_cluster.node(id).allocatable.get("memory") : m_cluster.free(id, "memory");
            if (memory < m_memoryNeeded && m_cluster.node(id).allocatable.contains("memory")) return reject(why.memory);
        }
        return static_cast<std::int32_t>(cpus);
    }

private:
    std::int64_t amount(NodeId id, std::string_view resource, bool wholeNode) const {
        return floorUnits(wholeNode ? m_cluster.node(id).allocatable.get(resource) : m_cluster.free(id, resource));
    }

    std::int64_t gpus(NodeId id, bool wholeNode) const {
        // The index's per-node GPU counts (dense, no lookups) bound what is free from above:
        // what-if assumptions only take more. Most busy nodes are ruled out here.
        const TopologyIndex& index = m_cluster.index();
        if (id < index.nodeSlots()) {
            const NodeStats& stats = index.node(id);
            if ((wholeNode ? stats.gpusTotal : stats.gpusTotal - stats.gpusUsed) < m_job.gpusPerNode) return 0;
        }
        std::int64_t total = 0;
        if (m_gpuPrefixes) {
            for (const auto& [resource, quantity] : m_cluster.node(id).allocatable)
                if (m_gpus.matches(resource)) total += amount(id, resource, wholeNode);
        } else {
            for (const std::string& resource : m_gpus.patterns()) total += amount(id, resource, wholeNode);
        }
        return total;
    }

    const PlacementCluster& m_cluster;
    const SlurmJobSpec& m_job;
    SlurmPool m_pool;
    const GpuResources& m_gpus;
    Quantity m_memoryNeeded;
    bool m_gpuPrefixes = false;
};

} // namespace

SlurmNodeMap slurmNodeMap(const PlacementCluster& cluster, const SlurmNodeTable& table, const SlurmJobSpec& job,
                          SlurmPool pool) {
    SlurmNodeMap map;
    map.cpus.assign(table.size(), 0);
    map.weight.assign(table.size(), 1);
    if (job.gpusPerNode > 0) map.gpus.assign(table.size(), 0);
    const NodeCheck check(cluster, job, pool);
    std::optional<std::uint32_t> firstWeight;
    // In id order, not node-table order: node records and their resource lists then come in the
    // order they were stored, which keeps the per-node reads cache-friendly on a large cluster.
    for (NodeId id = 0; id < cluster.nodeSlots(); ++id) {
        const std::int32_t position = table.position(id);
        if (position == SlurmNodeTable::kNone) continue;
        const auto p = static_cast<std::size_t>(position);
        map.weight[p] = cluster.nodeWeight(id);
        if (job.excluded[p]) {
            ++map.why.excluded;
            continue;
        }
        map.cpus[p] = check.availableCpus(id, map.why, map.gpus.empty() ? nullptr : &map.gpus[p]);
        if (map.cpus[p] == 0) continue;
        ++map.eligible;
        if (!firstWeight)
            firstWeight = map.weight[p];
        else if (*firstWeight != map.weight[p])
            map.mixedWeights = true;
    }
    return map;
}

std::string SlurmIneligible::describe(const SlurmJobSpec& job, bool byState) const {
    std::string text;
    const auto add = [&text](std::int64_t count, const std::string& what) {
        if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    };
    if (byState) {
        add(notReady, "NotReady (DOWN)");
        add(cordoned, "cordoned (DRAIN)");
        add(drained, "drained in the what-if");
    } else {
        add(notReady + cordoned + drained, "not ready, cordoned or drained");
    }
    add(excluded, "excluded (-x)");
    add(busy, "not idle (--exclusive)");
    add(gpus, "with fewer than " + std::to_string(job.gpusPerNode) + " free GPUs");
    add(cpus, "with fewer than " + std::to_string(job.cpusPerNode) + " free CPUs");
    add(memory, "with less than " + std::to_string(job.memoryMiB) + " MiB free memory");
    return text;
}

PlacementResult refusedAtSubmit(PlacementResult result, std::string_view message) {
    result.invalidRequest = true;
    result.message = std::string(message);
    return result;
}

void reportSlurmUnreachable(bool fitsCountingDown, PlacementResult& result) {
    if (fitsCountingDown) {
        result.message = "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions";
        result.notes.push_back("sbatch --test-only prints: allocation failure: Requested node configuration is not "
                               "available; a submitted job pends (ReqNodeNotAvail)");
    } else {
        result.message = std::string(slurm_errno::kNodeConfigUnavailable);
        result.notes.push_back("sbatch rejects the job (\"Batch job submission failed: Requested node configuration "
                               "is not available\"); --test-only prints \"allocation failure: \" and the same words");
    }
}

} // namespace topodeck
