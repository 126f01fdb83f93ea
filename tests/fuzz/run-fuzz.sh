#!/usr/bin/env bash
# run-fuzz.sh BUILD_DIR SECONDS - run each libFuzzer target of BUILD_DIR (built with
# -DSKSIM_FUZZ=ON) for SECONDS. The working corpus lives in BUILD_DIR/fuzz-corpus/<target>/,
# seeded from scenarios/*.yaml and tests/bad/*.yaml (scenario) or tests/fuzz/corpus/set/ (set).
# An input that crashes is copied to tests/fuzz/crashes/<target>/ (ctest replays that directory
# in every build) and the script exits 1. Called by `./run.sh fuzz [SECONDS]`.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="$1"
secs="${2:-60}"
status=0
for target in scenario set; do
  corpus="$build/fuzz-corpus/$target"
  art="$build/fuzz-artifacts/$target"
  mkdir -p "$corpus" "$art"
  if [ "$target" = scenario ]; then
    cp -n scenarios/*.yaml tests/bad/*.yaml "$corpus/" 2>/dev/null || true
  else
    cp -n tests/fuzz/corpus/set/* "$corpus/" 2>/dev/null || true
  fi
  echo "== fuzz_$target for ${secs}s"
  rc=0
  "$build/tests/fuzz/fuzz_$target" "$corpus" -max_total_time="$secs" -max_len=8192 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$art/" -print_final_stats=1 2>"$build/fuzz-$target.log" || rc=$?
  grep -E '^stat::number_of_executed_units|^#[0-9]+ *DONE' "$build/fuzz-$target.log" || true
  if [ "$rc" -ne 0 ]; then
    status=1
    for f in "$art"/*; do
      [ -f "$f" ] || continue
      cp "$f" "tests/fuzz/crashes/$target/"
      echo "fuzz_$target: crash input saved as tests/fuzz/crashes/$target/${f##*/}" >&2
    done
    tail -40 "$build/fuzz-$target.log" >&2
  fi
done
exit "$status"
