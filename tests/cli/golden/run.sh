#!/usr/bin/env bash
# The CLI's differential test: every invocation in cases.txt is run with topodeckctl, and its
# stdout, stderr and exit code are compared with the goldens under expected/. A refactor that
# changes any of them fails here, naming the case and the first differing line.
#   run.sh TOPODECKCTL             compare (what ctest runs)
#   run.sh TOPODECKCTL --update    write the goldens anew (review the diff before committing)
# Each case runs in tests/data (so file names print relative), with a scratch folder $TMP for
# what it writes, HOME inside it, no colour and the C locale; the scratch path prints as $TMP.
set -uo pipefail
ctl=$(realpath "$1")
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../../data" && pwd)
expected=$here/expected
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$expected"

failed=0 passed=0
declare -A seen
while IFS= read -r line || [ -n "$line" ]; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    name=${line%%|*}
    name=${name%% }
    command=${line#*|}
    if [[ -n "${seen[$name]:-}" ]]; then
        echo "cases.txt: case $name is named twice" >&2
        exit 2
    fi
    seen[$name]=1
    tmp=$scratch/$name
    mkdir -p "$tmp/home"
    # The command line is the case's, with $TMP and $CTL replaced; it is read by the shell so that
    # quoting works as it does in a terminal.
    command=${command//\$TMP/$tmp}
    (
        cd "$data" || exit 99
        export HOME=$tmp/home NO_COLOR=1 LC_ALL=C.UTF-8 TZ=UTC ASAN_OPTIONS=detect_leaks=1
        unset KUBECONFIG SLURM_CONF SLURM_JWT SPDLOG_LEVEL
        eval "\"$ctl\" $command" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
        echo $? >"$tmp/code"
    )
    for stream in stdout stderr; do
        sed -i -e "s|$tmp|\$TMP|g" -e "s|$ctl|topodeckctl|g" "$tmp/$stream"
    done
    if [[ "$update" == --update ]]; then
        for stream in stdout stderr code; do cp "$tmp/$stream" "$expected/$name.$stream"; done
        passed=$((passed + 1))
        continue
    fi
    ok=1
    for stream in stdout stderr code; do
        if ! cmp -s "$tmp/$stream" "$expected/$name.$stream"; then
            if [[ $ok == 1 ]]; then echo "FAIL $name: topodeckctl $command" >&2; fi
            ok=0
            diff -u "$expected/$name.$stream" "$tmp/$stream" | head -n 20 >&2
        fi
    done
    if [[ $ok == 1 ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <"$here/cases.txt"

if [[ "$update" == --update ]]; then
    # Goldens of cases no longer listed go too.
    for file in "$expected"/*.code; do
        base=$(basename "$file" .code)
        [[ -n "${seen[$base]:-}" ]] || rm -f "$expected/$base".{stdout,stderr,code}
    done
    echo "cli golden: wrote $passed cases"
    exit 0
fi
echo "cli golden: $passed passed, $failed failed"
[[ $failed == 0 ]]
