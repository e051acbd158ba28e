#!/usr/bin/env bash
# Builds a real kube-apiserver for the Kubernetes integration tests from Debian 12's `kubernetes`
# source package (Kubernetes 1.20.2), offline with Debian's Go, and caches the binary so a machine
# pays the build (about 3 minutes on 2 cores) once. Debian ships no kube-apiserver binary.
#
#   build-kube-apiserver.sh          prints the path of the cached binary, building it if needed
#
# The cache is $TOPODECK_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/topodeck). Needs
# golang-go, golang-github-modern-go-reflect2-dev and golang-github-json-iterator-go-dev
# (installer/install-deps.sh --tests) and access to Debian's source archive.
set -euo pipefail

version=1.20.2
source_version="1.20.5+really$version"
cache="${TOPODECK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/topodeck}"
target="$cache/kube-apiserver-v$version/kube-apiserver"

die() {
    echo "build-kube-apiserver: $*" >&2
    exit 1
}

if [ -x "$target" ] && "$target" --version 2>/dev/null | grep -q "v$version"; then
    echo "$target"
    exit 0
fi
for tool in go apt-get tar; do
    command -v "$tool" >/dev/null || die "$tool not found (run installer/install-deps.sh --tests)"
done
for dir in /usr/share/gocode/src/github.com/modern-go/reflect2 /usr/share/gocode/src/github.com/json-iterator/go; do
    [ -d "$dir" ] || die "$dir is missing (run installer/install-deps.sh --tests)"
done

mkdir -p "$cache"
work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/build.log"
echo "build-kube-apiserver: building kube-apiserver v$version in $work (once per machine)" >&2

# apt-get source needs a deb-src line; a private list leaves /etc/apt alone. The mirror is the one
# this machine's apt already uses for bookworm (one-line or deb822 sources), never a name of ours.
debian_mirror() {
    local file uri
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i + 1) == "bookworm") { print $i; exit } break } }' "$file")
        [ -n "$uri" ] && { echo "$uri"; return; }
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
            /(^|\n)Suites:[^\n]*bookworm( |\n|$)/ && /(^|\n)Types:[^\n]*deb( |\n|$)/ {
                for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, f, " "); print f[2]; exit } }' "$file")
        [ -n "$uri" ] && { echo "$uri"; return; }
    done
}
mirror=$(debian_mirror)
[ -n "$mirror" ] || die "no bookworm archive in this machine's apt sources"
mkdir -p "$work/apt/lists/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" >"$work/apt/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/apt/lists" -o APT::Sandbox::User=root)
(cd "$work" && apt-get "${apt_options[@]}" update -qq && apt-get "${apt_options[@]}" source --download-only kubernetes) \
    >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "cannot download the kubernetes source package"; }
tarball="$work/kubernetes_$source_version.orig.tar.gz"
[ -f "$tarball" ] || die "expected $tarball (has Debian moved to another kubernetes version?)"
tar -xzf "$tarball" -C "$work"

# Module mode fails on Go 1.19 with this tree; GOPATH mode resolves everything from vendor/.
export GOPATH="$work/gopath" GO111MODULE=off GOPROXY=off CGO_ENABLED=0 GOFLAGS= GOCACHE="$work/gocache"
mkdir -p "$GOPATH/src/k8s.io"
ln -s "$work/kubernetes-$version" "$GOPATH/src/k8s.io/kubernetes"
cd "$GOPATH/src/k8s.io/kubernetes"

# The vendored reflect2 1.0.1 crashes at run time with Go >= 1.18: use Debian's 1.0.2 and the
# json-iterator that goes with it.
for package in github.com/modern-go/reflect2 github.com/json-iterator/go; do
    rm -rf "vendor/$package"
    mkdir -p "vendor/$package"
    find "/usr/share/gocode/src/$package" -maxdepth 1 -type f \( -name '*.go' -o -name '*.s' \) ! -name '*_test.go' \
        -exec cp {} "vendor/$package/" \;
done

# The tarball lacks the generated OpenAPI definitions; generate them with the vendored generator
# over every package that asks for it.
go build -o "$work/openapi-gen" ./vendor/k8s.io/kube-openapi/cmd/openapi-gen >>"$log" 2>&1 ||
    { tail -n 20 "$log" >&2; die "cannot build openapi-gen"; }
packages=$(grep -rl --include='*.go' --exclude='*_test.go' -e '+k8s:openapi-gen=' pkg cmd staging/src/k8s.io |
    xargs -n1 dirname | sort -u | grep -v -e code-generator -e sample-apiserver |
    sed -e 's#^staging/src/#k8s.io/kubernetes/vendor/#' -e 's#^\(pkg\|cmd\)/#k8s.io/kubernetes/\1/#' | paste -sd, -)
"$work/openapi-gen" --input-dirs "$packages" --output-package k8s.io/kubernetes/pkg/generated/openapi \
    -O zz_generated.openapi --go-header-file vendor/k8s.io/code-generator/hack/boilerplate.go.txt \
    --output-base "$GOPATH/src" --report-filename "$work/api-violations.txt" >>"$log" 2>&1 ||
    { tail -n 20 "$log" >&2; die "openapi-gen failed"; }

base=k8s.io/kubernetes/vendor/k8s.io
ldflags="-s -w -X $base/component-base/version.gitVersion=v$version -X $base/component-base/version.gitMajor=1"
ldflags+=" -X $base/component-base/version.gitMinor=20 -X $base/client-go/pkg/version.gitVersion=v$version"
go build -ldflags "$ldflags" -o "$work/kube-apiserver" ./cmd/kube-apiserver >>"$log" 2>&1 ||
    { tail -n 30 "$log" >&2; die "go build ./cmd/kube-apiserver failed"; }

mkdir -p "$(dirname "$target")"
mv "$work/kube-apiserver" "$target.new"
mv "$target.new" "$target"
echo "$target"
