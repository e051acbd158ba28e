#!/usr/bin/env bash
# Installs the Debian 12 packages that building and running topodeck need; with --tests, also what
# the test suite needs (Slurm's daemons, etcd and Go for the test kube-apiserver, clang for the
# fuzz targets, Google Benchmark, Xvfb, OpenSSL for the fault proxy).
# Idempotent: packages already present are skipped, so a second run does nothing.
#   install-deps.sh            build and run (the README's run command)
#   install-deps.sh --tests    build, run and every test (the README's test command, CI)
set -euo pipefail

with_tests=false
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=true ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument $arg (see --help)" >&2; exit 2 ;;
  esac
done

build_packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libxkbcommon-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev libvulkan-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libyaml-cpp-dev libyaml-dev libre2-dev libspdlog-dev libfmt-dev libcurl4-openssl-dev libsimdjson-dev
)
# The real-Slurm integration test runs its own munged, slurmctld and slurmd daemons (Debian 12
# ships Slurm 22.05). Not slurm-wlm-emulator: it replaces slurmctld/slurmd system-wide with
# front-end builds that do not work.
# The Kubernetes integration tests build a real kube-apiserver from Debian's kubernetes source
# package (tests/integration/kube/build-kube-apiserver.sh) and run it over Debian's etcd; the fault
# proxy speaks TLS through OpenSSL.
# The fuzz preset builds the libFuzzer targets with Debian's clang 14 and its runtime libraries
# (libFuzzer, ASan, UBSan); the other builds use g++. lld links every build (CMakeLists.txt).
test_packages=(
  libbenchmark-dev xvfb xauth clang-14 libclang-rt-14-dev lld
  slurmctld slurmd slurm-client slurmrestd slurm-wlm-jwt-plugin munge
  golang-go etcd-server etcd-client golang-github-modern-go-reflect2-dev golang-github-json-iterator-go-dev
  openssl libssl-dev ca-certificates curl
)
run_packages=(
  qt6-qpa-plugins libqt6svg6 fonts-dejavu-core fonts-noto-core fonts-noto-cjk
)

wanted=("${build_packages[@]}" "${run_packages[@]}")
if $with_tests; then wanted+=("${test_packages[@]}"); fi
missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#wanted[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Installing munge and the Slurm daemons must not start them as services: the tests start their
# own. A policy-rc.d that denies every start is put in place for the install if none exists.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  trap '$SUDO rm -f "$policy"' EXIT
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
