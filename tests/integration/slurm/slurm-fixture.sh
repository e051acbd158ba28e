#!/usr/bin/env bash
# A real Slurm 22.05 cluster on this one machine, for integration tests: munged, slurmctld and one
# slurmd per simulated node (Debian's slurmd is built with --enable-multiple-slurmd), with fake
# GPUs and topology/tree, and two slurmrestd: JWT over TCP, and rest_auth/local on a unix socket.
# Every file, socket and log lives in one directory; nothing is installed or changed outside it.
# Needs root (slurmd launches jobs, munged must run as the munge user).
#
#   slurm-fixture.sh [options] up          starts it, waits until every node is idle and both
#                                          slurmrestd answer, prints the directory
#   slurm-fixture.sh [options] env         prints `export ...` lines for the clients (eval them)
#   slurm-fixture.sh [options] down        cancels the jobs and stops every process the fixture started
#   slurm-fixture.sh [options] ctld-stop   stops slurmctld only (the nodes, jobs and slurmrestd stay)
#   slurm-fixture.sh [options] ctld-start  starts it again; it recovers its state and jobs
#
# The env file holds SLURM_CONF, TOPODECK_SLURM_REST_URL (http://127.0.0.1:PORT, port = base port
# + node count + 1), TOPODECK_SLURM_REST_SOCKET, TOPODECK_SLURM_JWT_FILE (a root token for a day)
# and TOPODECK_SLURM_TOPOLOGY. It never exports SLURM_JWT: a Slurm client that sees it switches to
# auth/jwt.
#
# Options:
#   -d DIR        state directory (default $TOPODECK_SLURM_DIR; `up` makes a temp dir if neither)
#   -P PORT       base port: slurmctld listens on PORT, node i (from 1) on PORT+i (default 16817)
#   -n COUNT      nodes gpu-001..gpu-COUNT (default 32) under a generated tree: leaves of -L nodes,
#                 spines of -S leaves, one core switch (32 -> 4 leaves, 2 spines, 1 core)
#   -L SIZE       nodes per leaf switch (default 8)
#   -S COUNT      leaves per spine switch (default 2)
#   -T FILE       use this topology.conf instead of generating one; needs -N
#   -N HOSTLIST   the node names, in node-table order (with -T)
#   -g GPUS       GPUs per node (default 8; 0 for none)
#   -c CPUS       CPUs per node (default 64: 2 sockets x 32 cores)
#   -m MIB        RealMemory per node (default 512000)
#   -W HOSTLIST=W node Weight (repeatable; others keep Slurm's default 1)
#   -s SECONDS    SchedulerParameters=max_switch_wait (Slurm's default is 300)
#   -t SECONDS    how long `up` waits for all nodes to be idle (default 60)
#   -o PID        owner: a watchdog takes the cluster down when this process ends, however it ends
#
# `up` fails fast: a port already in use, a daemon that exits, or nodes not idle in time stop
# everything it started, print the ends of the logs and exit 1. `down` kills the pids the daemons
# recorded, then any slurmstepd or job process that still carries this cluster's SLURM_CONF.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

dir="${TOPODECK_SLURM_DIR:-}"
base_port=16817
node_count=32
leaf_size=8
leaves_per_spine=2
topology_file=""
node_hostlist=""
gpus=8
cpus=64
memory=512000
weights=()
max_switch_wait=""
ready_timeout=60
owner=""

while getopts "d:P:n:L:S:T:N:g:c:m:W:s:t:o:h" opt; do
    case "$opt" in
        d) dir="$OPTARG" ;;
        P) base_port="$OPTARG" ;;
        n) node_count="$OPTARG" ;;
        L) leaf_size="$OPTARG" ;;
        S) leaves_per_spine="$OPTARG" ;;
        T) topology_file="$OPTARG" ;;
        N) node_hostlist="$OPTARG" ;;
        g) gpus="$OPTARG" ;;
        c) cpus="$OPTARG" ;;
        m) memory="$OPTARG" ;;
        W) weights+=("$OPTARG") ;;
        s) max_switch_wait="$OPTARG" ;;
        t) ready_timeout="$OPTARG" ;;
        o) owner="$OPTARG" ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
command="$1"

die() {
    echo "slurm-fixture: $*" >&2
    exit 1
}

is_number() { [[ "$1" =~ ^[0-9]+$ ]]; }
for value in "$base_port" "$node_count" "$leaf_size" "$leaves_per_spine" "$gpus" "$cpus" "$memory" "$ready_timeout"; do
    is_number "$value" || die "not a number: $value"
done
[ -z "$max_switch_wait" ] || is_number "$max_switch_wait" || die "not a number: -s $max_switch_wait"
[ -z "$owner" ] || is_number "$owner" || die "not a pid: -o $owner"

# --- processes -----------------------------------------------------------------------------------

# Pids from the daemons' pid files (slurmctld, every slurmd, munged).
recorded_pids() {
    local file pid
    for file in "$dir"/run/*.pid "$dir"/munge/munged.pid; do
        [ -f "$file" ] || continue
        pid=$(tr -dc '0-9' <"$file")
        # The watchdog runs `down` itself and must not end its own run.
        [ -n "$pid" ] && [ "$pid" != "$$" ] && [ -d "/proc/$pid" ] && echo "$pid"
    done
    return 0
}

# Processes of this cluster that no pid file names: slurmstepd and the jobs' own processes. Both
# inherit SLURM_CONF (slurmd's, and the submitter's through --export=ALL); jobs also carry
# SLURM_JOB_ID. The caller's shell may export the same SLURM_CONF, so that alone is not enough.
stray_pids() {
    local environ pid comm
    # One grep over every process's environment (a grep per process is slow on a busy machine).
    grep -lzxF "SLURM_CONF=$dir/etc/slurm.conf" /proc/[0-9]*/environ 2>/dev/null |
        while read -r environ; do
            pid="${environ#/proc/}"
            pid="${pid%/environ}"
            [ "$pid" = "$$" ] && continue
            comm=$(cat "/proc/$pid/comm" 2>/dev/null) || continue
            case "$comm" in
                slurmstepd | slurmd | slurmctld | slurmscriptd) echo "$pid" ;;
                *) grep -qz '^SLURM_JOB_ID=' "$environ" 2>/dev/null && echo "$pid" ;;
            esac
        done
    return 0
}

alive() {
    local pid
    for pid in "$@"; do
        if [ -d "/proc/$pid" ]; then echo "$pid"; fi
    done
}

fixture_pids() {
    { recorded_pids; stray_pids; } | sort -un
}

# Argument "cancel": scancel the jobs first, so that slurmstepd ends them itself (best effort:
# slurmctld may be gone or hung).
stop_everything() {
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    if [ "${1:-}" = cancel ] && [ -f "$dir/etc/slurm.conf" ] && [ -n "$(recorded_pids)" ]; then
        SLURM_CONF="$dir/etc/slurm.conf" timeout 2 scancel --quiet --user=root >/dev/null 2>&1 || true
    fi
    local pids deadline
    pids=$(fixture_pids)
    # shellcheck disable=SC2086 # one pid per word
    if [ -n "$pids" ]; then kill -TERM $pids 2>/dev/null || true; fi
    deadline=$((SECONDS + 15))
    while [ -n "$pids" ] && [ $SECONDS -lt $deadline ]; do
        sleep 0.1
        # Jobs whose slurmstepd went first are found again by their environment.
        # shellcheck disable=SC2086
        pids=$({ alive $pids; stray_pids; } | sort -un)
    done
    if [ -n "$pids" ]; then
        echo "slurm-fixture: killing what did not stop in 15 s: $pids" >&2
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null || true
    fi
    rm -f "$dir"/run/*.pid "$dir/munge/munged.pid"
}

show_logs() {
    local log
    echo "slurm-fixture: logs in $dir/log and $dir/munge:" >&2
    for log in "$dir/munge/munged.log" "$dir/log/slurmctld.log"; do
        [ -s "$log" ] || continue
        echo "---- ${log#"$dir"/} (last 25 lines)" >&2
        tail -n 25 "$log" >&2
    done
    # The slurmd logs are alike; the first one with an error is the one worth reading.
    log=$(grep -l -E 'error|fatal' "$dir"/log/slurmd-*.log 2>/dev/null | head -n 1 || true)
    if [ -n "$log" ]; then
        echo "---- ${log#"$dir"/} (last 15 lines)" >&2
        tail -n 15 "$log" >&2
    fi
}

# --- configuration -------------------------------------------------------------------------------

# Slurm's own hostlist syntax, expanded by Slurm (scontrol needs some slurm.conf to start).
expand_hostlist() {
    SLURM_CONF="$dir/etc/hostlist.conf" scontrol show hostnames "$1"
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

write_generated_topology() {
    local leaves=$(((node_count + leaf_size - 1) / leaf_size))
    local spines=$(((leaves + leaves_per_spine - 1) / leaves_per_spine))
    local leaf spine first last
    for ((leaf = 1; leaf <= leaves; leaf++)); do
        first=$(((leaf - 1) * leaf_size + 1))
        last=$((leaf * leaf_size < node_count ? leaf * leaf_size : node_count))
        printf 'SwitchName=leaf%02d Nodes=gpu-[%03d-%03d]\n' "$leaf" "$first" "$last"
    done
    for ((spine = 1; spine <= spines; spine++)); do
        first=$(((spine - 1) * leaves_per_spine + 1))
        last=$((spine * leaves_per_spine < leaves ? spine * leaves_per_spine : leaves))
        printf 'SwitchName=spine%02d Switches=leaf[%02d-%02d]\n' "$spine" "$first" "$last"
    done
    printf 'SwitchName=core Switches=spine[01-%02d]\n' "$spines"
}

write_config() {
    mkdir -p "$dir"/{etc,ctld,spool,run,log,jobs,dev}
    printf 'ClusterName=hostlist\nSlurmctldHost=localhost\n' >"$dir/etc/hostlist.conf"

    local -a nodes
    if [ -n "$topology_file" ]; then
        [ -n "$node_hostlist" ] || die "-T needs -N HOSTLIST (the node names in node-table order)"
        [ -r "$topology_file" ] || die "cannot read $topology_file"
        cp "$topology_file" "$dir/etc/topology.conf"
        mapfile -t nodes < <(expand_hostlist "$node_hostlist") || die "bad hostlist: $node_hostlist"
    else
        [ "$node_count" -ge 1 ] && [ "$node_count" -le 999 ] || die "-n must be 1..999"
        write_generated_topology >"$dir/etc/topology.conf"
        mapfile -t nodes < <(expand_hostlist "gpu-[001-$(printf '%03d' "$node_count")]")
    fi
    [ ${#nodes[@]} -ge 1 ] || die "no nodes"

    local -A weight_of=()
    local spec name
    for spec in "${weights[@]}"; do
        [[ "$spec" == *=* ]] && is_number "${spec##*=}" || die "-W wants HOSTLIST=WEIGHT, got: $spec"
        while read -r name; do weight_of[$name]="${spec##*=}"; done < <(expand_hostlist "${spec%=*}")
    done

    local gres_spec="" i=0 gpu
    if [ "$gpus" -gt 0 ]; then
        gres_spec=" Gres=gpu:$gpus"
        # slurmd drops a GPU without File= and stat()s the files; /dev/null symlinks are quiet.
        for ((gpu = 0; gpu < gpus; gpu++)); do ln -sfn /dev/null "$dir/dev/nvidia$gpu"; done
    fi
    local sockets=2
    [ $((cpus % 2)) -eq 0 ] || sockets=1

    {
        echo "# Written by slurm-fixture.sh"
        echo "ClusterName=topodeck"
        echo "SlurmctldHost=localhost(127.0.0.1)"
        echo "SlurmctldPort=$base_port"
        echo "SlurmUser=root"
        echo "SlurmdUser=root"
        echo "AuthType=auth/munge"
        echo "CredType=cred/munge"
        echo "AuthInfo=socket=$dir/munge/munge.socket.2"
        echo "AuthAltTypes=auth/jwt" # slurmrestd's tokens (slurm-wlm-jwt-plugin)
        echo "AuthAltParameters=jwt_key=$dir/etc/jwt_hs256.key"
        echo "StateSaveLocation=$dir/ctld"
        echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
        echo "SlurmctldLogFile=$dir/log/slurmctld.log"
        echo "SlurmdSpoolDir=$dir/spool/%n"
        echo "SlurmdPidFile=$dir/run/slurmd-%n.pid"
        echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
        echo "SlurmdParameters=config_overrides" # report the configured CPUs/memory, not the host's
        echo "ProctrackType=proctrack/linuxproc"
        echo "TaskPlugin=task/none"
        echo "JobAcctGatherType=jobacct_gather/none"
        echo "AccountingStorageType=accounting_storage/none"
        echo "JobCompType=jobcomp/none"
        echo "MpiDefault=none"
        echo "MailProg=/bin/true"
        echo "SelectType=select/cons_tres"
        echo "SelectTypeParameters=CR_Core_Memory"
        echo "DefMemPerCPU=4000" # else a one-GPU job takes all of a node's memory
        echo "TopologyPlugin=topology/tree"
        echo "ReturnToService=1" # an admin-set DOWN stays down (a test marks a node down)
        echo "KillWait=2"
        [ -n "$max_switch_wait" ] && echo "SchedulerParameters=max_switch_wait=$max_switch_wait"
        [ "$gpus" -gt 0 ] && echo "GresTypes=gpu"
        # One line per node, in the given order: that is Slurm's node-table order.
        for name in "${nodes[@]}"; do
            i=$((i + 1))
            printf 'NodeName=%s NodeAddr=127.0.0.1 NodeHostname=localhost Port=%d CPUs=%d Boards=1 ' \
                "$name" $((base_port + i)) "$cpus"
            printf 'SocketsPerBoard=%d CoresPerSocket=%d ThreadsPerCore=1 RealMemory=%d%s Weight=%s State=UNKNOWN\n' \
                "$sockets" $((cpus / sockets)) "$memory" "$gres_spec" "${weight_of[$name]:-1}"
        done
        echo "PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
    } >"$dir/etc/slurm.conf"

    {
        echo "AutoDetect=off"
        [ "$gpus" -gt 0 ] && echo "Name=gpu File=$dir/dev/nvidia[0-$((gpus - 1))]"
    } >"$dir/etc/gres.conf"

    head -c 32 /dev/urandom >"$dir/etc/jwt_hs256.key"
    chmod 600 "$dir/etc/jwt_hs256.key"
    for name in "${nodes[@]}"; do mkdir -p "$dir/spool/$name"; done
    printf '%s\n' "${nodes[@]}" >"$dir/etc/nodes"
    : >"$dir/log/slurmctld.log"

    {
        echo "export SLURM_CONF=$dir/etc/slurm.conf"
        echo "export SBATCH_OUTPUT=$dir/jobs/slurm-%j.out"
        echo "export TOPODECK_SLURM_DIR=$dir"
        echo "export TOPODECK_SLURM_TOPOLOGY=$dir/etc/topology.conf"
        echo "export TOPODECK_SLURM_REST_URL=http://127.0.0.1:$(rest_port)"
        echo "export TOPODECK_SLURM_REST_SOCKET=$dir/rest/slurmrestd.sock"
        echo "export TOPODECK_SLURM_JWT_FILE=$dir/etc/jwt.token"
    } >"$dir/env"
}

rest_port() {
    echo $((base_port + $(wc -l <"$dir/etc/nodes") + 1))
}

# slurmrestd refuses to run as root or SlurmUser, so it binds as root and drops to nobody. Only
# the slurmctld plugins are loaded (the dbv0.0.3x ones are fatal without slurmdbd). JWT over TCP
# needs the daemon itself on auth/jwt (SLURM_JWT=daemon); rest_auth/local needs munge instead, so
# each runs in its own process. It has no daemon mode: setsid, and its pid is recorded.
start_rest() {
    local plugins=openapi/v0.0.38,openapi/v0.0.37,openapi/v0.0.36
    mkdir -p "$dir/rest"
    chown nobody "$dir/rest" # the socket is created after the switch to nobody
    SLURM_JWT=daemon setsid slurmrestd -s "$plugins" -a rest_auth/jwt -u nobody "127.0.0.1:$(rest_port)" \
        </dev/null >>"$dir/log/slurmrestd-jwt.log" 2>&1 &
    echo $! >"$dir/run/slurmrestd-jwt.pid"
    setsid slurmrestd -s "$plugins" -a rest_auth/local -u nobody "unix:$dir/rest/slurmrestd.sock" \
        </dev/null >>"$dir/log/slurmrestd-local.log" 2>&1 &
    echo $! >"$dir/run/slurmrestd-local.pid"
    local token
    token=$(scontrol token username=root lifespan=86400) || fail "scontrol token failed"
    printf '%s\n' "${token#SLURM_JWT=}" >"$dir/etc/jwt.token"
    chmod 600 "$dir/etc/jwt.token"
}

wait_rest() {
    local deadline=$((SECONDS + ready_timeout)) token
    token=$(cat "$dir/etc/jwt.token")
    until curl -sf -o /dev/null -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $token" \
        "http://127.0.0.1:$(rest_port)/slurm/v0.0.38/ping" &&
        curl -sf -o /dev/null --unix-socket "$dir/rest/slurmrestd.sock" http://localhost/slurm/v0.0.38/ping; do
        [ $SECONDS -lt $deadline ] || fail "slurmrestd did not answer within ${ready_timeout} s"
        local name
        for name in jwt local; do
            [ -d "/proc/$(cat "$dir/run/slurmrestd-$name.pid")" ] || fail "slurmrestd ($name) exited"
        done
        sleep 0.1
    done
}

start_munge() {
    # munged refuses a key or seed directory that is not its own, so it runs as the munge user.
    rm -rf "$dir/munge"
    mkdir -p "$dir/munge"
    head -c 1024 /dev/urandom >"$dir/munge/munge.key"
    chown -R munge:munge "$dir/munge"
    chmod 755 "$dir/munge" # munged wants its directories writable by itself only
    chmod 400 "$dir/munge/munge.key"
    runuser -u munge -- munged --num-threads=10 \
        --socket="$dir/munge/munge.socket.2" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" ||
        fail "munged did not start"
}

fail() {
    echo "slurm-fixture: up failed: $*" >&2
    exit 1
}

# After a failed `up`: show why, then stop what was started.
up_failed() {
    show_logs
    stop_everything
}

wait_ready() {
    local total deadline idle states pid
    total=$(wc -l <"$dir/etc/nodes")
    deadline=$((SECONDS + ready_timeout))
    while :; do
        pid=$(tr -dc '0-9' <"$dir/run/slurmctld.pid" 2>/dev/null || true)
        [ -n "$pid" ] && [ -d "/proc/$pid" ] || fail "slurmctld exited"
        states=$(sinfo -h -N -o '%N %T' 2>/dev/null || true)
        idle=$(awk '$2 == "idle" { n++ } END { print n + 0 }' <<<"$states")
        [ "$idle" -eq "$total" ] && return 0
        if [ $SECONDS -ge $deadline ]; then
            echo "slurm-fixture: node states after ${ready_timeout} s:" >&2
            sinfo -N -o '%N %T %E' >&2 || true
            fail "only $idle of $total nodes idle after ${ready_timeout} s"
        fi
        sleep 0.2
    done
}

# --- commands ------------------------------------------------------------------------------------

cmd_up() {
    [ "$(id -u)" -eq 0 ] || die "needs root (slurmd launches jobs; munged runs as the munge user)"
    local tool
    for tool in munged slurmctld slurmd slurmrestd sinfo scontrol scancel runuser curl; do
        command -v "$tool" >/dev/null || die "$tool not found (installer/install-deps.sh --tests installs Slurm and munge)"
    done
    getent passwd munge >/dev/null || die "no munge user (install the munge package)"
    if [ -z "$dir" ]; then
        dir=$(mktemp -d /tmp/topodeck-slurm.XXXXXX)
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    [ -z "$(recorded_pids)" ] || die "a fixture is already running in $dir (run down first)"
    chmod 755 "$dir" # munged (not root) must reach its files below it

    write_config
    local total port
    total=$(wc -l <"$dir/etc/nodes")
    for ((port = base_port; port <= base_port + total + 1; port++)); do
        port_in_use "$port" && die "port $port is in use (choose another base with -P)"
    done

    # From here on, whatever fails stops what was started and shows the logs.
    trap 'if [ $? -ne 0 ]; then up_failed; fi' EXIT
    export SLURM_CONF="$dir/etc/slurm.conf"
    start_munge
    slurmctld -c -i >>"$dir/log/slurmctld.out" 2>&1 || fail "slurmctld did not start"
    local name
    while read -r name; do
        slurmd -N "$name" >>"$dir/log/slurmd-start.out" 2>&1 || fail "slurmd -N $name did not start"
    done <"$dir/etc/nodes"
    start_rest
    wait_ready
    wait_rest
    if [ -n "$owner" ]; then
        setsid "$0" -d "$dir" -o "$owner" watch </dev/null >>"$dir/log/watchdog.log" 2>&1 &
        echo $! >"$dir/run/watchdog.pid"
    fi
    trap - EXIT
    echo "$dir"
}

cmd_env() {
    [ -n "$dir" ] && [ -f "$dir/env" ] || die "no fixture in '${dir}' (give -d DIR or TOPODECK_SLURM_DIR)"
    cat "$dir/env"
}

cmd_down() {
    [ -n "$dir" ] || die "down needs -d DIR or TOPODECK_SLURM_DIR"
    [ -d "$dir" ] || return 0
    dir=$(cd "$dir" && pwd -P)
    stop_everything cancel
}

# Started by `up -o PID`: once PID is gone (the test ended, crashed or was killed on a timeout),
# take the cluster down.
cmd_watch() {
    [ -n "$owner" ] || die "watch needs -o PID"
    while kill -0 "$owner" 2>/dev/null; do sleep 1; done
    echo "slurm-fixture: owner $owner is gone; stopping the cluster in $dir"
    rm -f "$dir/run/watchdog.pid"
    stop_everything cancel
}

ctld_pid() {
    local pid
    [ -f "$dir/run/slurmctld.pid" ] || return 0
    pid=$(tr -dc '0-9' <"$dir/run/slurmctld.pid" 2>/dev/null || true)
    [ -n "$pid" ] && [ -d "/proc/$pid" ] && echo "$pid"
    return 0
}

cmd_ctld_stop() {
    [ -n "$dir" ] && [ -f "$dir/etc/slurm.conf" ] || die "ctld-stop needs -d DIR or TOPODECK_SLURM_DIR"
    local pid deadline=$((SECONDS + 15))
    pid=$(ctld_pid)
    [ -n "$pid" ] || return 0
    kill -TERM "$pid"
    while [ -d "/proc/$pid" ]; do
        [ $SECONDS -lt $deadline ] || kill -KILL "$pid" 2>/dev/null || true
        sleep 0.1
    done
}

cmd_ctld_start() {
    [ -n "$dir" ] && [ -f "$dir/etc/slurm.conf" ] || die "ctld-start needs -d DIR or TOPODECK_SLURM_DIR"
    [ -z "$(ctld_pid)" ] || die "slurmctld is running"
    export SLURM_CONF="$dir/etc/slurm.conf"
    # Without -c: it recovers the nodes and jobs from its state directory.
    slurmctld -i >>"$dir/log/slurmctld.out" 2>&1 || die "slurmctld did not start"
    local deadline=$((SECONDS + ready_timeout))
    until scontrol ping 2>/dev/null | grep -q UP; do
        [ $SECONDS -lt $deadline ] || die "slurmctld did not answer within ${ready_timeout} s"
        sleep 0.2
    done
}

case "$command" in
    up) cmd_up ;;
    ctld-stop) cmd_ctld_stop ;;
    ctld-start) cmd_ctld_start ;;
    env) cmd_env ;;
    down) cmd_down ;;
    watch) cmd_watch ;;
    *) usage ;;
esac
