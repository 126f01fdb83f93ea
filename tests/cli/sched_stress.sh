#!/usr/bin/env bash
# Load balancing cannot break a run, and stays deterministic: a short batch of random small
# scenarios (tests/stress/sched-stress.py: CPUs, flows, pinning, policy, preemption, balancing
# on/off, loopback) must all exit 0 with no sanitizer report; a balancing-heavy scenario gives the
# same fingerprint twice, and a sweep gives the same results with 1 and 2 jobs at a time.
source "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 0; }

python3 tests/stress/sched-stress.py --bin "$SKSIM_BIN" --runs 24 --seed 7 --min-ms 30 \
  --max-ms 80 --out "$TMP/fails" >"$TMP/stress" 2>&1 || { cat "$TMP/stress" >&2; fail "stress runs failed"; }

# 8-CPU hosts, 60 rr flows, IRQs on CPU 0: newidle, periodic and nohz pulls all happen
f=scenarios/delack-prequeue.yaml
fp() {
  expect_status 0 "$SKSIM_BIN" run "$f" -v before --duration 60ms --set warmup=0 \
    --set hosts.client.sched.policy="$1" --set hosts.server.sched.preempt="$2" \
    --out "$TMP/r" --fingerprint --quiet
  grep '^fingerprint ' "$TMP/out"
}
for pp in "cfs full" "eevdf voluntary"; do
  # shellcheck disable=SC2086
  a="$(fp $pp)"; b="$(fp $pp)"
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "fingerprints differ ($pp): $a / $b"
done

sweep() {
  expect_status 0 "$SKSIM_BIN" sweep "$f" -v before --duration 40ms --set warmup=0 \
    --param hosts.server.cpus=2,3,8 --param hosts.server.sched.load_balance=true,false \
    --seeds 2 --jobs "$1" --out "$TMP/sweep$1" --quiet
  # every column but wall_s (the last one is wall-clock time)
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
           { s = ""; for (i = 1; i <= NF; i++) if (i != w) s = s $i ","; print s }' \
    "$TMP/sweep$1/sweep.csv"
}
sweep 1 >"$TMP/s1"
sweep 2 >"$TMP/s2"
[ "$(wc -l <"$TMP/s1")" -eq 13 ] || fail "sweep.csv: expected 12 runs"
diff "$TMP/s1" "$TMP/s2" >&2 || fail "sweep results differ between --jobs 1 and --jobs 2"
echo "ok"
