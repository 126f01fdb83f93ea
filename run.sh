#!/usr/bin/env bash
# run.sh - the one entry point: install what is missing, build, then do the main job.
#
#   ./run.sh          build (Release, build/), compare the scenarios below into out/<name>/
#                     and write out/report.md; exits 1 if an expect check failed
#   ./run.sh test     build, run every test, a valgrind memcheck of one short compare (when
#                     valgrind is installed), then every test again under ASan+UBSan (build-asan/)
#   ./run.sh bench    build and run every benchmark (build/tests/bench_*)
#   ./run.sh fuzz [SECONDS]  build the libFuzzer targets with clang (build-fuzz/) and run each
#                     for SECONDS (default 60); crashing inputs go to tests/fuzz/crashes/
set -euo pipefail
cd "$(dirname "$0")"

# The scenarios that `./run.sh` compares and reports, in order: one line per scenario.
SCENARIOS=(
  scenarios/release-sock-resched.yaml
  scenarios/sendmsg-flush-backlog.yaml
  scenarios/delack-prequeue.yaml
  scenarios/backlog-limit.yaml
)

DEPS=(gcc cmake pkg-config libglib2.0-dev libyaml-dev gnuplot-nox libpcap-dev)
# `./run.sh test` also needs these: valgrind for the memcheck, python3 for the tests that parse
# JSON and for the scheduler stress batch (without them those parts would only be skipped).
TEST_DEPS=(valgrind python3)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

usage() {
  echo "usage: ./run.sh [test|bench|fuzz [SECONDS]]" >&2
  echo "  (none)  build, compare ${SCENARIOS[*]} and write out/report.md" >&2
  echo "  test    build and run the tests, plain and under sanitizers" >&2
  echo "  bench   build and run the benchmarks" >&2
  echo "  fuzz    build the fuzz targets with clang and run each for SECONDS (default 60)" >&2
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

# Compare every scenario (each into out/<scenario name>/, compare's default; its variants run
# on all cores, --jobs), then write out/report.md over all of them. A failed check does not stop
# the others: the status is the worst one seen (1 a check failed, 2 an error); an interrupt
# stops at once.
main_job() {
  local s rc status=0
  for s in "${SCENARIOS[@]}"; do
    rc=0
    ./build/sksim compare "$s" --jobs "$(nproc)" || rc=$?
    case "$rc" in
      0) ;;
      1) [ "$status" -ge 1 ] || status=1 ;;
      130 | 143) exit "$rc" ;;
      *) status=2 ;;
    esac
  done
  ./build/sksim report "${SCENARIOS[@]}" --results out --out out/report.md || status=2
  [ "$status" -eq 0 ] || echo "run.sh: a check failed or a scenario did not run (status $status); see out/report.md" >&2
  return "$status"
}

# valgrind memcheck over one short compare (run, outputs, report, figures): no error and no
# definite leak, or the test job fails. Skipped (with a note) when valgrind is not installed.
valgrind_job() {
  if ! command -v valgrind >/dev/null; then
    echo "run.sh: valgrind not installed; memcheck skipped" >&2
    return 0
  fi
  local out
  out="$(mktemp -d)"
  echo "run.sh: valgrind memcheck of sksim compare scenarios/example.yaml --duration 120ms"
  valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
    ./build/sksim compare scenarios/example.yaml --duration 120ms --out "$out" --quiet >/dev/null
  rm -rf "$out"
  echo "run.sh: valgrind: no errors, no definite leaks"
}

test_job() {
  ctest --test-dir build --output-on-failure -j2
  valgrind_job
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
  # Whole-model speed (issues 3 and 4): events per second and simulated seconds per wall second.
  for b in tests/bench/*.yaml; do
    [ -f "$b" ] || continue
    echo "== $b"
    ./build/sksim run "$b" --quiet --out "build/bench-out/$(basename "$b" .yaml)"
    grep -A3 '"sim"' "build/bench-out/$(basename "$b" .yaml)/base/metrics.json"
  done
}

# Fuzzing needs clang (libFuzzer); installed here only when fuzzing is asked for.
fuzz_job() {
  local secs="${1:-60}"
  [[ "$secs" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh fuzz: SECONDS must be a positive integer" >&2; exit 2; }
  if ! command -v clang >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang
    else
      echo "run.sh: fuzzing needs clang: sudo apt-get install -y clang" >&2
      exit 2
    fi
  fi
  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DSKSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=Release
  cmake --build build-fuzz -j"$(nproc)" --target fuzz_scenario fuzz_set
  tests/fuzz/run-fuzz.sh build-fuzz "$secs"
}

case "${1:-}" in
  "" | test | bench) [ $# -le 1 ] || { usage; exit 2; } ;;
  fuzz) [ $# -le 2 ] || { usage; exit 2; } ;;
  *) usage; exit 2 ;;
esac

[ "${1:-}" != test ] || DEPS+=("${TEST_DEPS[@]}")
ensure_deps
if [ "${1:-}" = fuzz ]; then
  fuzz_job "${2:-}"
  exit
fi
build build -DCMAKE_BUILD_TYPE=Release
case "${1:-}" in
  "") main_job ;;
  test) test_job ;;
  bench) bench_job ;;
esac
