#pragma once

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// A Slurm node as sinfo --json, slurmrestd /nodes or `scontrol show nodes` report it, reduced to
// what occupancy and placement need. Counts are totals on the node.
struct SlurmNode {
    // The base state (NODE_STATE_BASE) and the flags Slurm adds to it ("mixed+DRAIN").
    enum class Base { Unknown, Idle, Mixed, Allocated, Down, Error, Future };
    enum Flag : std::uint32_t {
        Drain = 1u << 0, // DRAIN: drained once idle, draining while jobs run
        Completing = 1u << 1,
        NotResponding = 1u << 2,
        Reserved = 1u << 3,    // RESERVED (in an advanced reservation)
        Maintenance = 1u << 4, // MAINTENANCE
        PoweredDown = 1u << 5, // POWERED_DOWN / POWER_DOWN / POWERING_DOWN
        PoweringUp = 1u << 6,  // POWERING_UP
        Fail = 1u << 7,        // FAIL / FAILING
        Planned = 1u << 8,     // PLANNED (backfill holds it for a pending job)
        Reboot = 1u << 9,      // REBOOT_REQUESTED / REBOOT_ISSUED
        Cloud = 1u << 10,
    };

    std::string name;
    Base base = Base::Unknown;
    std::uint32_t flags = 0;
    std::int64_t cpus = 0;
    std::int64_t cpusAllocated = 0;
    std::int64_t memoryMiB = 0;          // real_memory
    std::int64_t memoryAllocatedMiB = 0; // alloc_memory
    std::int64_t gpus = 0;               // every gpu GRES, typed or not
    std::int64_t gpusUsed = 0;
    std::string gpuType; // "h100" from gpu:h100:8; empty when untyped or mixed
    std::uint32_t weight = 1;
    std::vector<std::string> partitions;
    std::string reason;
    std::string features; // comma-separated, as Slurm writes them

    bool has(Flag flag) const { return (flags & flag) != 0; }
    // Slurm's own long state, as `sinfo -O StateLong` prints it: "idle", "mixed", "allocated",
    // "drained", "draining", "down", "reserved", "maint", ... (lower case; '*' not included).
    std::string stateName() const;
    // Up and answering: the node could run something once freed (not down, failed, powered down,
    // not responding, future or of unknown state).
    bool ready() const;
    // Ready and open to new work: not drained or draining, not in maintenance, not reserved.
    bool schedulable() const;
    friend bool operator==(const SlurmNode&, const SlurmNode&) = default;
};

// What one job holds on one of its nodes.
struct SlurmJobAllocation {
    std::string node;
    std::int64_t cpus = 0;
    std::int64_t memoryMiB = 0;
    std::int64_t gpus = 0;
    friend bool operator==(const SlurmJobAllocation&, const SlurmJobAllocation&) = default;
};

// A job as squeue --json, slurmrestd /jobs or `scontrol show job` report it.
struct SlurmJob {
    std::uint32_t id = 0;
    std::string name;
    std::string user;
    std::string partition;
    std::string state;       // upper case: RUNNING, PENDING, COMPLETING, SUSPENDED, ...
    std::string stateReason; // Resources, Priority, None, ...
    std::string nodes;       // the hostlist, "" while pending
    std::int64_t nodeCount = 0;
    std::string tresPerNode;    // "gres:gpu:8"
    std::int64_t startTime = 0; // epoch seconds; for a pending job Slurm's estimate (0: unknown)
    std::int64_t endTime = 0;
    std::int64_t timeLimitMinutes = 0; // 0: none / infinite
    std::uint32_t arrayJobId = 0;      // 0 unless an array task
    std::optional<std::uint32_t> arrayTaskId;
    // Per node, in the order of `nodes`; empty when Slurm did not say (pending, or a reply
    // without job_resources). GPUs come from gres_detail, one entry per node.
    std::vector<SlurmJobAllocation> allocations;

    // Running, suspended or completing: it holds its nodes.
    bool holdsNodes() const;
    friend bool operator==(const SlurmJob&, const SlurmJob&) = default;
};

// One reply of sinfo --json / squeue --json / slurmrestd: the objects, and what Slurm said about
// the request. Slurm 22.05's CLI exits 0 with an errors list when slurmctld is unreachable, and
// slurmrestd answers 500 with one; the reader returns those as errors, not as an empty cluster.
struct SlurmReplyMeta {
    std::string dataParser;      // "v0.0.38", "data_parser/v0.0.40", ...
    // The Slurm that answered, as meta.Slurm (v0.0.38 and before) or meta.slurm gives it: its
    // "release", else "major.minor.micro" from its "version"; empty when the reply has neither.
    std::string slurmRelease;    // "22.05.8"
    std::int64_t lastUpdate = 0; // last_update (v0.0.39+), epoch seconds; 0 when not given
    std::vector<std::string> warnings;
};

struct SlurmNodesReply {
    SlurmReplyMeta meta;
    std::vector<SlurmNode> nodes;
};

struct SlurmJobsReply {
    SlurmReplyMeta meta;
    std::vector<SlurmJob> jobs;
};

// One GRES entry of a node's gres / gres_used or a job's gres_detail: "gpu:h100:8(S:0-1)",
// "gpu:8", "gpu:a100:2(IDX:0,3)", "gpu:(null):0(IDX:N/A)", "shard:4".
struct SlurmGres {
    std::string name; // "gpu"
    std::string type; // "h100"; empty when untyped
    std::int64_t count = 0;
    std::string detail; // what was in parentheses: "S:0-1", "IDX:0-1"
    friend bool operator==(const SlurmGres&, const SlurmGres&) = default;
};
// A comma-separated GRES list (commas inside parentheses belong to the entry). "N/A", "(null)"
// and "" are empty lists. Errors quote the entry.
Result<std::vector<SlurmGres>> parseGresList(std::string_view text);
// The GPUs of a GRES list: every "gpu" entry's count (typed entries are counted once: Slurm lists
// a node's gpu:8 and gpu:h100:8 for the same devices only in gres_used of some versions, where the
// typed entries are the ones kept).
std::int64_t gresGpuCount(const std::vector<SlurmGres>& gres);
// The GPU type of a GRES list: the one type every typed "gpu" entry shares ("h100"), else empty
// (untyped, no GPUs, or several types).
std::string gresGpuType(const std::vector<SlurmGres>& gres);

// Adds one of Slurm's node state names to a node, in any of the spellings its outputs use: the
// JSON base states ("idle", "mixed", "IDLE", ...), state flags ("DRAIN", "NOT_RESPONDING",
// "POWERED_DOWN", ...), scontrol's "IDLE+DRAIN" joined form, sinfo's long names ("drained",
// "draining", "maint", "resv") and its suffixes ('*' not responding, '~' powered down, ...).
// Base names set the base, flag names add a flag; false for a name Slurm does not use.
bool addSlurmNodeState(SlurmNode& node, std::string_view name);

} // namespace topodeck
