#!/usr/bin/env bash
# Golden outputs: every scenario of scenarios/ (each must be listed in tests/golden/durations.txt)
# runs at seed 1 for its reduced duration, and each variant's metrics.json without the "sim"
# block must equal tests/golden/<scenario>/<variant>.json byte for byte: every host's counters
# and CPU times, per-flow results and both fingerprints. On a mismatch it prints every value that
# moved (old -> new, delta, %). After an intended model change: tests/update-golden, review, commit.
source "$(dirname "$0")/common.bash"
source tests/golden/lib.bash

for f in scenarios/*.yaml; do
  name="$(basename "$f" .yaml)"
  golden_table | awk -v n="$name" '$1 == n {found = 1} END {exit !found}' ||
    fail "$f has no line in tests/golden/durations.txt (add one, then run tests/update-golden)"
done

bad=0 n=0
while read -r name dur sets; do
  # shellcheck disable=SC2086
  golden_run "$SKSIM_BIN" "$name" "$dur" "$TMP/$name" $sets || fail "$name: sksim run failed"
  for new in "$TMP/$name"/*.json; do
    v="${new##*/}"
    old="$GOLDEN_DIR/$name/$v"
    n=$((n + 1))
    if [ ! -f "$old" ]; then
      echo "MISSING $name/$v (run tests/update-golden)" >&2
      bad=1
    elif ! cmp -s "$old" "$new"; then
      echo "CHANGED $name/$v:" >&2
      golden_diff "$old" "$new" >&2
      bad=1
    fi
  done
  for old in "$GOLDEN_DIR/$name"/*.json; do
    [ -f "$TMP/$name/${old##*/}" ] || { echo "GONE $name/${old##*/}: the scenario has no such variant" >&2; bad=1; }
  done
done < <(golden_table)
[ "$bad" -eq 0 ] || fail "golden outputs differ; if the change is intended: tests/update-golden, review, commit"
echo "ok ($n golden files)"
