#pragma once

#include "core/live/live_target.h"
#include "core/slurm/slurm_text.h"
#include "net/child_process.h"
#include "net/slurm_fetch.h"
#include "net/slurm_source.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace topodeck {

// The Slurm commands of a login node, run without a shell, each with a deadline. Slurm 22.05's
// sinfo/squeue --json exit 0 with an "errors" list when slurmctld is unreachable: the readers of
// their output say so; a failing command is Unreachable when it could not talk to slurmctld,
// else Failing, with the end of its stderr.
class SlurmCli {
public:
    // A command that prints more than maxOutput is stopped, and its answer refused (see ReadLimits).
    SlurmCli(const SlurmTarget& target, std::chrono::milliseconds timeout, const std::atomic<bool>* cancelled,
             std::size_t maxOutput = ReadLimits::fromEnvironment().slurmReply);

    // sinfo --json; where it has no --json (Slurm before 21.08, or no data_parser plugin),
    // `scontrol -o -d show nodes` instead.
    SlurmFetch nodes();
    SlurmFetch squeueJson();   // squeue --json --all; NotInstalled where it has no --json
    SlurmFetch showTopology(); // scontrol show topology
    // The release slurmctld runs: SLURM_VERSION of `scontrol show config`, which slurmctld fills
    // in itself. Where that fails (slurmctld unreachable, no such line), the commands' own
    // release: the first line of `sinfo --version` ("slurm-wlm 22.05.8"), else of `scontrol
    // version`; slurmctld runs the same or a newer one (it serves clients up to two releases
    // older), so the client's may name older rules than slurmctld follows.
    struct Version {
        std::string text;        // "22.05.8", "slurm-wlm 22.05.8"
        std::string command;     // "scontrol show config", "sinfo --version"
        bool controller = false; // slurmctld's own (scontrol show config)
        // The client's, because slurmctld could not be reached: worth asking slurmctld again.
        bool controllerUnreachable = false;
    };
    Result<Version> version();
    // sbatch --test-only <arguments> (then --wrap true when `wrap`, else the arguments end with
    // the batch script): Slurm's own answer for a request.
    Result<SbatchTestOnly> testOnly(const std::vector<std::string>& sbatchArguments, bool wrap = true);

    std::string describe() const;

private:
    // Without a shell, with SLURM_CONF, the deadline and the cancel flag.
    ChildProcessRequest commandRequest(std::vector<std::string> argv) const;
    SlurmFetch run(std::vector<std::string> argv);

    SlurmTarget m_target;
    std::chrono::milliseconds m_timeout;
    const std::atomic<bool>* m_cancelled;
    std::size_t m_maxOutput;
    bool m_lastTooLarge = false; // the last run() was stopped for printing too much
};

} // namespace topodeck
