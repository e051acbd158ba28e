#!/usr/bin/env bash
# Runs the fuzz targets (the fuzz preset builds them: cmake --workflow --preset fuzz).
#   tests/fuzz/run.sh SECONDS [TARGET...]     (default: every target in build/fuzz/fuzz/)
# Each target runs SECONDS seconds, two at a time (nproc at most), with a per-input timeout of
# 5 s and an RSS limit of 2 GB, under ASan (leaks too) and UBSan, on the corpus
# build/fuzz/corpus/<name>/: its seeds (seeds.txt), its regression files
# (tests/data/fuzz-regressions/<name>/) and what earlier runs found. Crashes, timeouts, OOMs and
# leaks go to build/fuzz/findings/<name>/ (emptied first), the log to build/fuzz/logs/<name>.log.
# One line per target; exits 1 when any target found something, 2 on a usage or build problem.
# TOPODECK_FUZZ_BUILD names another build directory (default build/fuzz).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${TOPODECK_FUZZ_BUILD:-$root/build/fuzz}
data=$root/tests/data
seeds=$root/tests/fuzz/seeds.txt
dicts=$root/tests/fuzz/dict

usage() {
    echo "usage: tests/fuzz/run.sh SECONDS [TARGET...]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
seconds=$1
shift
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || usage

if ! ls "$build"/fuzz/*_fuzz >/dev/null 2>&1; then
    echo "run.sh: no fuzz targets in $build/fuzz/; build them first with: cmake --workflow --preset fuzz" >&2
    exit 2
fi
if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for binary in "$build"/fuzz/*_fuzz; do
        name=${binary##*/}
        targets+=("${name%_fuzz}")
    done
fi
for name in "${targets[@]}"; do
    if [ ! -x "$build/fuzz/${name}_fuzz" ]; then
        echo "run.sh: no target $name ($build/fuzz/${name}_fuzz); build it with: cmake --workflow --preset fuzz" >&2
        exit 2
    fi
done

# The dictionary of each target, by the format it reads.
dictionary() {
    case $1 in
    snapshot_text | kube_list | kube_watch | kube_status | hypernodes) echo "$dicts/kube.dict" ;;
    kubeconfig | exec_credential) echo "$dicts/kubeconfig.dict" ;;
    manifests) echo "$dicts/manifests.dict" ;;
    sbatch_line | sbatch_script) echo "$dicts/sbatch.dict" ;;
    topology_conf | topology_yaml | scontrol_topology) echo "$dicts/slurm_topology.dict" ;;
    slurm_nodes_json | slurm_jobs_json | slurm_snapshot | scontrol_nodes | slurm_openapi) echo "$dicts/slurm_json.dict" ;;
    esac
}

# A Slurm snapshot directory as one input (fuzz_support.h's packFiles).
pack() {
    local dir=$1 first=1 file
    for file in "$dir"/*; do
        [ -f "$file" ] || continue
        [ $first -eq 1 ] || printf '\n'
        first=0
        printf '==> %s <==\n' "${file##*/}"
        cat "$file"
    done
}

prepare_corpus() {
    local name=$1 corpus=$build/corpus/$1 line target path
    mkdir -p "$corpus"
    while read -r target path _; do
        [ "$target" = "$name" ] || continue
        case $path in
        pack:*) pack "$data/${path#pack:}" >"$corpus/seed-$(echo "$path" | tr '/:' '__')" ;;
        *)
            if [ -d "$data/$path" ]; then
                cp "$data/$path"/* "$corpus/" 2>/dev/null
            else
                cp "$data/$path" "$corpus/"
            fi
            ;;
        esac
    done < <(grep -v '^#' "$seeds")
    if [ -d "$data/fuzz-regressions/$name" ]; then cp "$data/fuzz-regressions/$name"/* "$corpus/" 2>/dev/null; fi
    return 0
}

run_one() {
    local name=$1 findings=$build/findings/$1 log=$build/logs/$1.log dict
    rm -rf "$findings"
    mkdir -p "$findings" "$build/logs"
    prepare_corpus "$name"
    local args=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$findings/")
    dict=$(dictionary "$name")
    [ -n "$dict" ] && [ -f "$dict" ] && args+=(-dict="$dict")
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$build/fuzz/${name}_fuzz" "${args[@]}" "$build/corpus/$name" >"$log" 2>&1
    echo $? >"$build/logs/$name.rc"
}

summary() {
    local name=$1 log=$build/logs/$1.log rc stat execs speed added found
    rc=$(cat "$build/logs/$name.rc" 2>/dev/null || echo 1)
    stat_of() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    execs=$(stat_of number_of_executed_units)
    speed=$(stat_of average_exec_per_sec)
    added=$(stat_of new_units_added)
    found=$(cd "$build/findings/$name" && ls 2>/dev/null | grep -E '^(crash|timeout|oom|leak)-' | tr '\n' ' ')
    if [ -z "$found" ] && [ "$rc" != 0 ]; then found="exit status $rc, see $log"; fi
    printf '%-18s %10s execs %7s exec/s %5s new units   findings: %s\n' "$name" "${execs:-?}" "${speed:-?}" \
        "${added:-?}" "${found:-none}"
    [ -z "$found" ]
}

start=$(date +%s)
jobs=$(nproc)
[ "$jobs" -gt 2 ] && jobs=2
echo "== fuzz: ${#targets[@]} targets, $seconds s each, $jobs at a time =="
running=0
for name in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_one "$name" &
    running=$((running + 1))
done
wait

failed=()
for name in "${targets[@]}"; do summary "$name" || failed+=("$name"); done
echo "== fuzz: $(($(date +%s) - start)) s wall-clock =="
if [ ${#failed[@]} -gt 0 ]; then
    cat <<HELP
Findings in ${failed[*]} (artifacts under $build/findings/<name>/, logs under $build/logs/).
To turn one into a regression file that ctest replays (fuzz.<name>):
  1. Minimise it:  $build/fuzz/<name>_fuzz -minimize_crash=1 -runs=100000 -timeout=5 \\
                     -exact_artifact_path=/tmp/minimal <the artifact>
     (a timeout or leak: minimise by hand, or use the artifact as it is)
  2. Keep it:      cp /tmp/minimal tests/data/fuzz-regressions/<name>/<what-it-does>
  3. Fix the reader so that the input gets an Error naming the source and place, then check with
     $build/fuzz/<name>_fuzz tests/data/fuzz-regressions/<name>/<what-it-does>
     and ctest -R fuzz.<name> in the dev build.
HELP
    exit 1
fi
exit 0
