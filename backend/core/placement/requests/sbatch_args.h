#pragma once

#include "core/placement/requests/gang_request.h"
#include "core/result.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace topodeck {

// What an sbatch submission asks of the Slurm topology plugins, as a GangRequest with `slurm`
// set: pods = the maximum node count, perPod = what each node must have free (nvidia.com/gpu,
// cpu when CPUs were asked for, memory when --mem* was given).
//
// Options read: -N/--nodes=MIN[-MAX], -n/--ntasks, --ntasks-per-node, -c/--cpus-per-task,
// --cpus-per-gpu, --mem (K/M/G/T, default M), --mem-per-cpu, --mem-per-gpu,
// --gres=gpu[:type][:G][,...], --tres-per-node=gres/gpu[:type]:G, --gpus-per-node=[type:]G,
// -G/--gpus=[type:]G (a total, split evenly over -N), --gpus-per-task, --exclusive,
// --switches=N[@time], --segment=S, --spread-segments, --consolidate-segments, --contiguous, -w/--nodelist,
// -x/--exclude (hostlists), -p/--partition, -J/--job-name, -t/--time (checked).
// Accepted and ignored (they do not change where the job may go, or a dry-run cannot model them):
// -A/--account, -a/--array, -b/--begin, -C/--constraint, --cluster-constraint, --comment,
// -d/--dependency, -D/--chdir, -e/--error, -o/--output, -i/--input, --export,
// --export-file, -H/--hold, --mail-type, --mail-user, --nice, --priority, --no-requeue, --requeue,
// --open-mode, --parsable, -q/--qos, -Q/--quiet, -v/--verbose, --reservation, --signal,
// --test-only, --time-min, -W/--wait, --wrap, --wckey, -k/--no-kill, -O/--overcommit,
// -s/--oversubscribe, --propagate, --get-user-env, --gpu-bind, --gpu-freq, --cpu-bind,
// --cpu-freq, --mem-bind, --hint, -m/--distribution, --threads-per-core, --cores-per-socket,
// --sockets-per-node, --ntasks-per-socket, --ntasks-per-core, --ntasks-per-gpu, --gpus-per-socket,
// --mincpus, --tmp, --licenses/-L, -M/--clusters, --network, --reboot, --spread-job,
// --use-min-nodes, --kill-on-invalid-dep, --gres-flags, --acctg-freq, --profile, --bb, --bbf,
// --delay-boot, --deadline, --mcs-label, --container, --ignore-pbs, -S/--core-spec,
// --thread-spec, --wait-all-nodes, --uid, --gid, --batch, --prefer, --tres-bind.
// Anything else, including options that print instead of submitting (--help, --version), is an
// error naming the option. Long options may be abbreviated as getopt_long allows.

// One sbatch command line, with or without the leading "sbatch"; shell quoting and backslash
// line continuations are understood. The first argument that is not an option is the script and
// ends the options, as in sbatch.
Result<GangRequest> parseSbatchLine(std::string_view text);
// The same line's arguments as sbatch would get them (without "sbatch"), to run it for real.
Result<std::vector<std::string>> sbatchArguments(std::string_view text);

// A file holding either one `sbatch ...` command (after comments) or a batch script whose
// #SBATCH directives are read up to its first command, as sbatch does. `commandLine` options
// are applied last and win over directives, as on the real command line. Errors name the file
// and line; a file with neither directives nor an sbatch command (and no `commandLine`) is an
// error, as it is more likely the wrong file than a one-node job.
Result<GangRequest> parseSbatchScript(std::string_view text, std::string_view sourceName = "script",
                                      std::string_view commandLine = {});
Result<GangRequest> readSbatchFile(const std::string& path, std::string_view commandLine = {});

// A Slurm duration (time_str2secs): MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC, in
// seconds; "-1", INFINITE and UNLIMITED give kSlurmInfiniteSeconds.
inline constexpr std::int64_t kSlurmInfiniteSeconds = std::numeric_limits<std::int64_t>::max();
Result<std::int64_t> parseSlurmDuration(std::string_view text);

} // namespace topodeck
