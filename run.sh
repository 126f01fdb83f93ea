#!/usr/bin/env bash
# run.sh - the one entry point: install what is missing, build, then do the main job.
#
#   ./run.sh          build (Release, build/) and compare the seed scenarios
#   ./run.sh test     build, run every test, then again under ASan+UBSan (build-asan/)
#   ./run.sh bench    build and run every benchmark (build/tests/bench_*)
set -euo pipefail
cd "$(dirname "$0")"

# The scenarios that `./run.sh` compares, in order: one line per scenario.
SCENARIOS=(
  scenarios/example.yaml
)

DEPS=(gcc cmake pkg-config libglib2.0-dev libyaml-dev gnuplot-nox libpcap-dev)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

usage() {
  echo "usage: ./run.sh [test|bench]" >&2
  echo "  (none)  build and compare: ${SCENARIOS[*]}" >&2
  echo "  test    build and run the tests, plain and under sanitizers" >&2
  echo "  bench   build and run the benchmarks" >&2
}

ensure_deps() {
  local missing=() p
  for p in "${DEPS[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "run.sh: installing ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "run.sh: missing packages; install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
}

build() { # build DIR [cmake args...]
  local dir="$1"
  shift
  cmake -S . -B "$dir" "$@"
  cmake --build "$dir" -j"$(nproc)"
}

main_job() {
  local s
  for s in "${SCENARIOS[@]}"; do
    ./build/sksim compare "$s"
  done
}

test_job() {
  ctest --test-dir build --output-on-failure -j2
  build build-asan -DSKSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  ctest --test-dir build-asan --output-on-failure -j2
}

bench_job() {
  local b found=0
  for b in build/tests/bench_*; do
    [ -x "$b" ] || continue
    found=1
    echo "== $b"
    "$b"
  done
  [ "$found" -eq 1 ] || echo "run.sh: no benchmarks built" >&2
}

case "${1:-}" in
  "" | test | bench) ;;
  *) usage; exit 2 ;;
esac
[ $# -le 1 ] || { usage; exit 2; }

ensure_deps
build build -DCMAKE_BUILD_TYPE=Release
case "${1:-}" in
  "") main_job ;;
  test) test_job ;;
  bench) bench_job ;;
esac
