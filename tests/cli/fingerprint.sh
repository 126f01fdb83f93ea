#!/usr/bin/env bash
# Fingerprints (hash of the executed events and of the final counters) do not depend on how a
# run is launched: the same run twice, `sweep --jobs 1` against `--jobs 2` (runs in parallel
# threads), and a sweep's run against the same `sksim run`. Random loss makes every seed take
# another path, so the fingerprints really differ between seeds (checked too).
source "$(dirname "$0")/common.bash"

f=scenarios/example.yaml
common=(--variant after --duration 150ms --quiet)

# the same run twice
for i in 1 2; do
  expect_status 0 "$SKSIM_BIN" run "$f" "${common[@]}" --set links.wire.loss=0.001 --seed 5 \
    --fingerprint --out "$TMP/r$i"
  grep '^fingerprint ' "$TMP/out" >"$TMP/fp.r$i"
done
cmp -s "$TMP/fp.r1" "$TMP/fp.r2" || fail "two identical runs: $(cat "$TMP/fp.r1" "$TMP/fp.r2")"

# sweep --jobs 1 and --jobs 2: the same fingerprint in every run directory
fingerprints() { # DIR: "<run dir> <events> <counters>" per run, sorted
  (cd "$1" && find runs -name metrics.json | sort | while read -r m; do
    echo "${m%/metrics.json} $(grep -A2 '^  "fingerprint": {$' "$m" | grep -o '[0-9a-f]\{16\}' | tr '\n' ' ')"
  done)
}
for j in 1 2; do
  expect_status 0 "$SKSIM_BIN" sweep "$f" "${common[@]}" --param links.wire.loss=0.0005,0.002 \
    --seeds 3 --jobs "$j" --out "$TMP/sw$j"
  fingerprints "$TMP/sw$j" >"$TMP/fp.sw$j"
done
[ "$(wc -l <"$TMP/fp.sw1")" -eq 6 ] || { cat "$TMP/fp.sw1" >&2; fail "expected 6 sweep runs"; }
diff "$TMP/fp.sw1" "$TMP/fp.sw2" >&2 || fail "sweep fingerprints differ between --jobs 1 and 2"
distinct=$(awk '{print $2}' "$TMP/fp.sw1" | sort -u | wc -l)
[ "$distinct" -ge 5 ] || { cat "$TMP/fp.sw1" >&2; fail "only $distinct distinct fingerprints in 6 runs"; }

# a sweep run = the same `sksim run` (seed 2 is the base seed 1 + 1)
expect_status 0 "$SKSIM_BIN" run "$f" "${common[@]}" --set links.wire.loss=0.002 --seed 2 \
  --fingerprint --out "$TMP/one"
want="$(awk '$1 == "runs/links.wire.loss=0.002/seed-2/after" {print "fingerprint events=" $2 " counters=" $3}' "$TMP/fp.sw1")"
[ -n "$want" ] || { cat "$TMP/fp.sw1" >&2; fail "no sweep run for loss=0.002 seed 2"; }
expect_grep "^$want\$" "$TMP/out"
echo "ok ($distinct distinct fingerprints)"
