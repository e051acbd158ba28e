#pragma once

// What both Slurm topology plugins (tree and block) start from, as slurmctld and cons_tres hand
// it to them: the node table, the job's request (from an sbatch line or from the gang), the nodes
// that can take one task of it (node_map), the errno texts they answer with, and a trace budget.

#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/engines/placement_result.h"
#include "core/placement/engines/trace_budget.h"
#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// slurm_errno.c, word for word, and the submit-time rejections.
namespace slurm_errno {
inline constexpr std::string_view kTopoInsufficient = "Insufficient resources in topology unit";
inline constexpr std::string_view kTopoNoFit = "No suitable topology unit found";
inline constexpr std::string_view kTopoSegmentNoFit = "No suitable topology unit found for segment";
inline constexpr std::string_view kTopoReqNodesNotAvail = "Required nodes lack available resources";
inline constexpr std::string_view kTopoReqNodesNoMatch = "Required nodes do not fit topology";
inline constexpr std::string_view kTopoWeightNoFit =
    "Weight-based selection could not satisfy request within topology unit";
inline constexpr std::string_view kTopoMaxNodeLimit = "Exceeded maximum node limit during topology allocation";
inline constexpr std::string_view kTopoEmptyNodeMap = "No available nodes in topology";
inline constexpr std::string_view kTopoConfigUnavailable = "Requested topology configuration is not available";
inline constexpr std::string_view kNodeConfigUnavailable = "Requested node configuration is not available";
inline constexpr std::string_view kInvalidNodeName = "Invalid node name specified";
inline constexpr std::string_view kNodeCountInvalid = "Node count specification invalid";
} // namespace slurm_errno

// Slurm's node table: the cluster's nodes in natural name order (PlacementCluster::nodesInOrder()),
// addressed by position as slurmctld's bitmaps are.
class SlurmNodeTable {
public:
    static constexpr std::int32_t kNone = -1;
    explicit SlurmNodeTable(const PlacementCluster& cluster);

    std::size_t size() const { return m_order->size(); }
    NodeId id(std::int32_t position) const { return (*m_order)[static_cast<std::size_t>(position)]; }
    std::int32_t position(NodeId id) const { return id < m_positionOf.size() ? m_positionOf[id] : kNone; }
    std::int32_t position(const std::string& name) const; // kNone for a name the cluster lacks
    const std::string& name(std::int32_t position) const;
    // The names of these positions as one Slurm hostlist.
    std::string hostlist(const std::vector<std::int32_t>& positions) const;

private:
    const PlacementCluster* m_cluster;
    const std::vector<NodeId>* m_order;
    std::vector<std::int32_t> m_positionOf; // by NodeId
};

// The job as the topology plugins read it (not to be confused with SlurmJob, a running job).
struct SlurmJobSpec {
    std::int32_t minNodes = 0; // -N min[-max], as given (0 when only -w says)
    std::int32_t maxNodes = 0;
    std::int32_t cpusPerNode = 1;
    std::int64_t gpusPerNode = 0;
    std::int64_t memoryMiB = 0; // per node; 0 = not requested
    bool exclusive = false;
    std::optional<std::int32_t> switches; // --switches=N, N > 0
    std::int64_t waitSeconds = 0;         // the --switches wait, capped by max_switch_wait
    std::int32_t segment = 0;
    bool spreadSegments = false;
    bool consolidateSegments = false;
    std::vector<std::int32_t> required; // -w, node positions, ascending, unique
    std::vector<char> excluded;         // -x, by node position
};

// The job from the gang's sbatch request, else `-N pods --gres=gpu:G -c C --mem=M` with one pod per
// node (said in a note, as is what Slurm would not see: a partition, Kubernetes selectors). A -w or
// -x name the cluster lacks is "Invalid node name specified: NAME", with unknownNode set to it.
Result<SlurmJobSpec> slurmJobFor(const PlacementCluster& cluster, const SlurmNodeTable& table,
                                 const GangRequest& request, const EngineOptions& options,
                                 std::vector<std::string>& notes, std::string* unknownNode = nullptr);

// slurmctld's node counts around -w: -w alone sets the count, and a nodelist raises -N to its size
// within the maximum.
Status settleNodeCounts(SlurmJobSpec& job);

// Where Slurm looks for room: now; on up nodes with everything free (what `sbatch --test-only` can
// reach once running jobs end); on every node, down ones included (whether the job can ever run,
// checked at submit).
enum class SlurmPool { Now, Up, All };

// Why nodes are not in node_map, counted.
struct SlurmIneligible {
    std::int64_t notReady = 0, cordoned = 0, drained = 0; // drained: in the what-if
    std::int64_t excluded = 0, busy = 0, gpus = 0, cpus = 0, memory = 0;
    // "2 not ready, cordoned or drained, 1 with fewer than 8 free GPUs", or "" when none; with
    // byState, the first part as "1 NotReady (DOWN), 1 cordoned (DRAIN)".
    std::string describe(const SlurmJobSpec& job, bool byState = false) const;
};

// cons_tres' node_map: a node is in it when it is up (Now and Up pools), not excluded, and can serve
// --gres=gpu:G, the CPUs and --mem right now (Now) or once free (Up, All); --exclusive also wants it
// idle now. GPU counts never enter the topology comparison, CPUs do (tree's switch sums).
struct SlurmNodeMap {
    std::vector<std::int32_t> cpus;    // avail_cpus by node position; 0 = not in node_map
    std::vector<std::uint32_t> weight; // Weight= by node position
    std::vector<std::int32_t> gpus;    // avail_gpus by node position, when the job asks for GPUs (else empty)
    std::int64_t eligible = 0;
    bool mixedWeights = false;
    SlurmIneligible why;

    bool contains(std::int32_t position) const { return cpus[static_cast<std::size_t>(position)] > 0; }
};
SlurmNodeMap slurmNodeMap(const PlacementCluster& cluster, const SlurmNodeTable& table, const SlurmJobSpec& job,
                          SlurmPool pool);

// Whole units of a quantity, clamped to [0, 2^31): CPUs and GPUs as Slurm counts them.
std::int64_t floorUnits(const Quantity& quantity);

// A request Slurm refuses at submit (a bad node name or count, a broken topology): invalidRequest,
// in Slurm's words.
PlacementResult refusedAtSubmit(PlacementResult result, std::string_view message);

// What `sbatch --test-only` says of a job that fits once running jobs end (the snapshot has no end times).
inline constexpr std::string_view kTestOnlyLaterStart =
    "sbatch --test-only prints a later start time, when running jobs have freed enough nodes (job end times are not "
    "in the snapshot)";
// A job that fits no nodes even once running jobs end: with fitsCountingDown it pends on DOWN or
// drained nodes (ReqNodeNotAvail), else sbatch rejects it; the message and --test-only's words.
void reportSlurmUnreachable(bool fitsCountingDown, PlacementResult& result);

} // namespace topodeck
