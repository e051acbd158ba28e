#!/usr/bin/env bash
# A real Kubernetes API server on loopback for integration tests: Debian's etcd and a kube-apiserver
# 1.20.2 built from Debian's source package (build-kube-apiserver.sh). Only etcd and the API server
# run: no scheduler, controllers or kubelets, so tests create Nodes and bound Pods themselves. Every
# file, certificate and log lives in one directory; nothing outside it is changed.
#
#   kube-fixture.sh [options] up     starts it, waits until /readyz answers, prints the directory
#   kube-fixture.sh [options] env    prints `export ...` lines for the clients (eval them)
#   kube-fixture.sh [options] down   stops every process the fixture started
#
# Options:
#   -d DIR    state directory (default $TOPODECK_KUBE_DIR; `up` makes a temp dir if neither)
#   -P PORT   the API server's port; etcd uses PORT+1 and PORT+2 (default 16443)
#   -o PID    owner: a watchdog takes the server down when this process ends, however it ends
#   -t SECS   how long `up` waits for the API server (default 60)
#
# What `up` provides (see DIR/env):
#   TOPODECK_KUBE_SERVER       https://127.0.0.1:PORT, certificate for 127.0.0.1, localhost, kube.test
#   TOPODECK_KUBE_CA           the CA that signed it (and the client certificates)
#   TOPODECK_KUBE_ADMIN_TOKEN  a bearer token in system:masters
#   TOPODECK_KUBE_VIEWER_TOKEN a token that may list and watch nodes and topology objects, not pods
#   TOPODECK_KUBE_NOBODY_TOKEN a token without any rights
#   TOPODECK_KUBE_CLIENT_CERT, TOPODECK_KUBE_CLIENT_KEY   a client certificate in system:masters
#   TOPODECK_KUBE_SERVER_CERT, TOPODECK_KUBE_SERVER_KEY   the serving pair (a test proxy may reuse it)
#   TOPODECK_KUBE_ETCD         etcd's client URL (for etcdctl compact)
#   TOPODECK_KUBECONFIG        a kubeconfig with the contexts admin, viewer, nobody and cert
# The watch cache is off for pods (--watch-cache-sizes=pods#0), so a pod watch is served by etcd
# itself and a compaction gives a real 410 Gone; nodes keep the watch cache.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

here=$(cd "$(dirname "$0")" && pwd -P)
dir="${TOPODECK_KUBE_DIR:-}"
port=16443
owner=""
ready_timeout=60

while getopts "d:P:o:t:h" opt; do
    case "$opt" in
        d) dir="$OPTARG" ;;
        P) port="$OPTARG" ;;
        o) owner="$OPTARG" ;;
        t) ready_timeout="$OPTARG" ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
command="$1"

die() {
    echo "kube-fixture: $*" >&2
    exit 1
}

for value in "$port" "$ready_timeout"; do [[ "$value" =~ ^[0-9]+$ ]] || die "not a number: $value"; done
[ -z "$owner" ] || [[ "$owner" =~ ^[0-9]+$ ]] || die "not a pid: -o $owner"

recorded_pids() {
    local file pid
    for file in "$dir"/run/*.pid; do
        [ -f "$file" ] || continue
        pid=$(tr -dc '0-9' <"$file")
        [ -n "$pid" ] && [ "$pid" != "$$" ] && [ -d "/proc/$pid" ] && echo "$pid"
    done
    return 0
}

stop_everything() {
    [ -n "$dir" ] && [ -d "$dir/run" ] || return 0
    local pids deadline
    pids=$(recorded_pids)
    # shellcheck disable=SC2086 # one pid per word
    [ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while [ -n "$pids" ] && [ $SECONDS -lt $deadline ]; do
        sleep 0.1
        pids=$(recorded_pids)
    done
    if [ -n "$pids" ]; then
        echo "kube-fixture: killing what did not stop in 10 s: $pids" >&2
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null || true
    fi
    rm -f "$dir"/run/*.pid
}

show_logs() {
    local log
    for log in "$dir/log/etcd.log" "$dir/log/kube-apiserver.log"; do
        [ -s "$log" ] || continue
        echo "---- ${log#"$dir"/} (last 25 lines)" >&2
        tail -n 25 "$log" >&2
    done
}

fail() {
    echo "kube-fixture: up failed: $*" >&2
    exit 1
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A key and a certificate signed by the fixture's CA: name, subject, extensions.
issue() {
    local name="$1" subject="$2" extensions="$3"
    openssl req -new -newkey rsa:2048 -nodes -keyout "$dir/pki/$name.key" -subj "$subject" \
        -out "$dir/pki/$name.csr" 2>/dev/null
    printf '%s\n' "$extensions" >"$dir/pki/$name.ext"
    openssl x509 -req -in "$dir/pki/$name.csr" -CA "$dir/pki/ca.crt" -CAkey "$dir/pki/ca.key" -CAcreateserial \
        -days 30 -sha256 -extfile "$dir/pki/$name.ext" -out "$dir/pki/$name.crt" 2>/dev/null
}

write_pki() {
    mkdir -p "$dir/pki"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/pki/ca.key" -out "$dir/pki/ca.crt" -days 30 \
        -subj "/CN=topodeck-test-ca" 2>/dev/null
    issue server "/CN=kube-apiserver" \
        "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kube.test
extendedKeyUsage=serverAuth"
    issue admin "/O=system:masters/CN=cert-admin" "extendedKeyUsage=clientAuth"
    openssl genrsa -out "$dir/pki/sa.key" 2048 2>/dev/null
    openssl rsa -in "$dir/pki/sa.key" -pubout -out "$dir/pki/sa.pub" 2>/dev/null
    chmod 600 "$dir"/pki/*.key
}

write_tokens() {
    admin_token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
    viewer_token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
    nobody_token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
    {
        echo "$admin_token,admin,uid-admin,\"system:masters\""
        echo "$viewer_token,viewer,uid-viewer"
        echo "$nobody_token,nobody,uid-nobody"
    } >"$dir/tokens.csv"
    chmod 600 "$dir/tokens.csv"
}

write_kubeconfig() {
    local server="https://127.0.0.1:$port"
    cat >"$dir/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: fixture
  cluster:
    server: $server
    certificate-authority: $dir/pki/ca.crt
contexts:
- {name: admin, context: {cluster: fixture, user: admin}}
- {name: viewer, context: {cluster: fixture, user: viewer}}
- {name: nobody, context: {cluster: fixture, user: nobody}}
- {name: cert, context: {cluster: fixture, user: cert-admin}}
users:
- {name: admin, user: {token: $admin_token}}
- {name: viewer, user: {token: $viewer_token}}
- {name: nobody, user: {token: $nobody_token}}
- {name: cert-admin, user: {client-certificate: $dir/pki/admin.crt, client-key: $dir/pki/admin.key}}
KUBECONFIG
    chmod 600 "$dir/kubeconfig"
    {
        echo "export TOPODECK_KUBE_DIR=$dir"
        echo "export TOPODECK_KUBE_SERVER=$server"
        echo "export TOPODECK_KUBE_CA=$dir/pki/ca.crt"
        echo "export TOPODECK_KUBE_ADMIN_TOKEN=$admin_token"
        echo "export TOPODECK_KUBE_VIEWER_TOKEN=$viewer_token"
        echo "export TOPODECK_KUBE_NOBODY_TOKEN=$nobody_token"
        echo "export TOPODECK_KUBE_CLIENT_CERT=$dir/pki/admin.crt"
        echo "export TOPODECK_KUBE_CLIENT_KEY=$dir/pki/admin.key"
        echo "export TOPODECK_KUBE_SERVER_CERT=$dir/pki/server.crt"
        echo "export TOPODECK_KUBE_SERVER_KEY=$dir/pki/server.key"
        echo "export TOPODECK_KUBE_ETCD=http://127.0.0.1:$((port + 1))"
        echo "export TOPODECK_KUBECONFIG=$dir/kubeconfig"
    } >"$dir/env"
}

start_etcd() {
    etcd --name fixture --data-dir "$dir/etcd" \
        --listen-client-urls "http://127.0.0.1:$((port + 1))" --advertise-client-urls "http://127.0.0.1:$((port + 1))" \
        --listen-peer-urls "http://127.0.0.1:$((port + 2))" --initial-advertise-peer-urls "http://127.0.0.1:$((port + 2))" \
        --initial-cluster "fixture=http://127.0.0.1:$((port + 2))" --unsafe-no-fsync --log-level warn \
        </dev/null >>"$dir/log/etcd.log" 2>&1 &
    echo $! >"$dir/run/etcd.pid"
}

start_apiserver() {
    local binary="$1"
    local issuer=https://kubernetes.default.svc.cluster.local
    # TaintNodesByCondition is off so that created Nodes keep the taints a test gives them.
    "$binary" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$port" --insecure-port=0 \
        --etcd-servers="http://127.0.0.1:$((port + 1))" \
        --tls-cert-file="$dir/pki/server.crt" --tls-private-key-file="$dir/pki/server.key" \
        --client-ca-file="$dir/pki/ca.crt" --token-auth-file="$dir/tokens.csv" --anonymous-auth=false \
        --authorization-mode=RBAC \
        --service-account-key-file="$dir/pki/sa.pub" --service-account-signing-key-file="$dir/pki/sa.key" \
        --service-account-issuer="$issuer" --api-audiences="$issuer" \
        --service-cluster-ip-range=10.96.0.0/24 --endpoint-reconciler-type=none \
        --disable-admission-plugins=ServiceAccount,TaintNodesByCondition \
        --watch-cache-sizes=pods#0 --max-requests-inflight=2000 --max-mutating-requests-inflight=1000 \
        </dev/null >>"$dir/log/kube-apiserver.log" 2>&1 &
    echo $! >"$dir/run/kube-apiserver.pid"
}

api() {
    curl -sS --fail --cacert "$dir/pki/ca.crt" -H "Authorization: Bearer $admin_token" "$@"
}

wait_ready() {
    local deadline=$((SECONDS + ready_timeout)) pid
    while :; do
        for pid in etcd kube-apiserver; do
            [ -d "/proc/$(tr -dc '0-9' <"$dir/run/$pid.pid")" ] || fail "$pid exited"
        done
        if [ "$(api -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/readyz" 2>/dev/null)" = 200 ]; then
            return 0
        fi
        [ $SECONDS -lt $deadline ] || fail "the API server was not ready after ${ready_timeout} s"
        sleep 0.2
    done
}

# The viewer may read nodes and the topology objects, but not pods.
write_rbac() {
    local server="https://127.0.0.1:$port"
    api -X POST -H 'Content-Type: application/json' "$server/apis/rbac.authorization.k8s.io/v1/clusterroles" \
        -d '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"topology-viewer"},
             "rules":[{"apiGroups":[""],"resources":["nodes"],"verbs":["get","list","watch"]},
                      {"apiGroups":["kueue.x-k8s.io","kai.scheduler","topology.volcano.sh"],"resources":["*"],
                       "verbs":["get","list","watch"]}]}' >/dev/null
    api -X POST -H 'Content-Type: application/json' "$server/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" \
        -d '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"topology-viewer"},
             "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"topology-viewer"},
             "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"viewer"}]}' >/dev/null
}

cmd_up() {
    local tool binary
    for tool in etcd openssl curl; do
        command -v "$tool" >/dev/null || die "$tool not found (run installer/install-deps.sh --tests)"
    done
    binary=$("$here/build-kube-apiserver.sh") || die "no kube-apiserver"
    [ -n "$dir" ] || dir=$(mktemp -d /tmp/topodeck-kube.XXXXXX)
    mkdir -p "$dir"/{run,log}
    dir=$(cd "$dir" && pwd -P)
    [ -z "$(recorded_pids)" ] || die "a fixture is already running in $dir (run down first)"
    local p
    for p in "$port" $((port + 1)) $((port + 2)); do
        port_in_use "$p" && die "port $p is in use (choose another with -P)"
    done

    trap 'if [ $? -ne 0 ]; then show_logs; stop_everything; fi' EXIT
    write_pki
    write_tokens
    write_kubeconfig
    start_etcd
    start_apiserver "$binary"
    wait_ready
    write_rbac || fail "cannot create the viewer's RBAC objects"
    if [ -n "$owner" ]; then
        setsid "$0" -d "$dir" -o "$owner" watch </dev/null >>"$dir/log/watchdog.log" 2>&1 &
        echo $! >"$dir/run/watchdog.pid"
    fi
    trap - EXIT
    echo "$dir"
}

cmd_env() {
    [ -n "$dir" ] && [ -f "$dir/env" ] || die "no fixture in '${dir}' (give -d DIR or TOPODECK_KUBE_DIR)"
    cat "$dir/env"
}

cmd_down() {
    [ -n "$dir" ] || die "down needs -d DIR or TOPODECK_KUBE_DIR"
    [ -d "$dir" ] || return 0
    dir=$(cd "$dir" && pwd -P)
    stop_everything
}

cmd_watch() {
    [ -n "$owner" ] || die "watch needs -o PID"
    while kill -0 "$owner" 2>/dev/null; do sleep 1; done
    echo "kube-fixture: owner $owner is gone; stopping the API server in $dir"
    rm -f "$dir/run/watchdog.pid"
    stop_everything
}

case "$command" in
    up) cmd_up ;;
    env) cmd_env ;;
    down) cmd_down ;;
    watch) cmd_watch ;;
    *) usage ;;
esac
