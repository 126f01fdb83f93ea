#!/usr/bin/env bash
# `sksim compare --seeds N`: every variant runs for N consecutive seeds, each seed into
# DIR/seed-<N>/ with its own report (the same one `compare --seed N` writes), and DIR's
# compare.md/json give the mean of each row and each check over the seeds, with the 95 %
# confidence interval of the check's mean (Student t); a check passes when its mean is in band.
# The means and intervals are recomputed here from the per-seed reports.
source "$(dirname "$0")/common.bash"

loss=(--set links.wire.loss=0.002) # random losses: the seeds differ
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --seeds 3 --seed 5 "${loss[@]}" \
  --jobs 2 --quiet --out "$TMP/a"
for k in 5 6 7; do
  for f in compare.md compare.json before/metrics.json after/metrics.json; do
    [ -s "$TMP/a/seed-$k/$f" ] || fail "seed-$k/$f missing"
  done
done
expect_grep "^PASS goodput is a number: .* \(mean of 3 seeds, 95 % CI .* to .*\)$" "$TMP/out"
expect_grep "^Seeds 5 to 7: every figure is the mean over the 3 seeds" "$TMP/a/compare.md"

# seed 6's report is the one a one-seed compare writes
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --seed 6 "${loss[@]}" --quiet \
  --out "$TMP/one"
cmp -s "$TMP/one/compare.json" "$TMP/a/seed-6/compare.json" ||
  fail "seed-6/compare.json differs from compare --seed 6"

python3 - "$TMP/a" <<'PY' || fail "the means or intervals of compare.json are wrong"
import json, math, statistics, sys
top = json.load(open(f"{sys.argv[1]}/compare.json"))
seeds = [json.load(open(f"{sys.argv[1]}/seed-{k}/compare.json")) for k in (5, 6, 7)]
assert top["seed"] == 5 and top["seeds"] == 3
rows = {r["name"]: r["values"] for r in top["rows"]}
differ = False
for name, values in rows.items():
    for variant, mean in values.items():
        xs = [next(r["values"][variant] for r in s["rows"] if r["name"] == name) for s in seeds]
        differ |= len(set(xs)) > 1
        assert math.isclose(mean, sum(xs) / 3, rel_tol=1e-12, abs_tol=1e-9), (name, variant)
assert differ, "every seed gave the same figures: the test proves nothing"
t95 = 4.302653  # Student t, 0.975, 2 degrees of freedom
for i, c in enumerate(top["checks"]):
    xs = [s["checks"][i]["value"] for s in seeds]
    assert c["seed_values"] == xs
    mean = sum(xs) / 3
    half = t95 * statistics.stdev(xs) / math.sqrt(3)
    assert math.isclose(c["value"], mean, rel_tol=1e-12)
    assert math.isclose(c["ci_lo"], mean - half, rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(c["ci_hi"], mean + half, rel_tol=1e-9, abs_tol=1e-9)
    assert c["pass"] == (mean >= c["min"])
PY

# the same figures whatever --jobs
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --seeds 3 --seed 5 "${loss[@]}" \
  --quiet --out "$TMP/b"
cmp -s "$TMP/a/compare.json" "$TMP/b/compare.json" || fail "--jobs 2 and 1 differ"

# a check fails on its mean: exit 1
expect_status 1 "$SKSIM_BIN" compare tests/data/cli_fail.yaml --seeds 2 --quiet --out "$TMP/f"
expect_grep "^FAIL impossible bound: .* not in \[-inf, -1\] \(mean of 2 seeds" "$TMP/out"
expect_grep '^  "pass": false$' "$TMP/f/compare.json"

expect_status 2 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --seeds 0
expect_grep "seeds must be between 1 and 1000" "$TMP/err"
# one trace file per variant: with several seeds they would overwrite each other
expect_status 2 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --seeds 2 --trace "$TMP/t.json"
expect_grep "trace one seed with --seed N" "$TMP/err"
# interrupted: exit 130 and no report of the seeds that did not all run
expect_interrupted INT 130 "$SKSIM_BIN" compare scenarios/delack-prequeue.yaml --seeds 3 \
  --duration 2s --quiet --out "$TMP/int"
[ ! -e "$TMP/int/compare.json" ] || fail "an interrupted compare --seeds left compare.json"
expect_no_grep "CRITICAL" "$TMP/err"
echo ok
