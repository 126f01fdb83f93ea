#!/usr/bin/env bash
# workloads.W.start_jitter: each flow's thread first runs at start + U[0, jitter), drawn from the
# run's seed. Asserted from the event log's first sched_switch to each netperf thread: with
# jitter the four start times are distinct and inside the window, the same seed repeats them
# exactly, another seed moves them; without jitter every flow starts at the same instant.
source "$(dirname "$0")/common.bash"

f=tests/data/cli_tiny.yaml
# first_starts SEED JITTER: "flow time" per netperf thread, in flow order
first_starts() {
  expect_status 0 "$SKSIM_BIN" run "$f" --variant before --quiet --out "$TMP/r$1$2" \
    --set seed="$1" --set warmup=0 --set duration=20ms --set workloads.bulk.flows=4 --set hosts.client.cpus=4 \
    --set workloads.bulk.start=2ms --set workloads.bulk.start_jitter="$2" --log sched
  awk '$4 == "sched_switch" { for (i = 5; i <= NF; i++) if ($i ~ /^next=netperf:/) {
         t = substr($i, 6); if (!(t in seen)) { seen[t] = 1; print t, $1 } } }' \
    "$TMP/r$1$2/before/events.log" | sort
}

first_starts 1 5ms >"$TMP/s1"
first_starts 1 5ms >"$TMP/s1b"
first_starts 2 5ms >"$TMP/s2"
first_starts 1 0 >"$TMP/z"

[ "$(wc -l <"$TMP/s1")" -eq 4 ] || { cat "$TMP/s1" >&2; fail "expected 4 netperf threads"; }
cmp -s "$TMP/s1" "$TMP/s1b" || fail "the same seed gave other start times"
cmp -s "$TMP/s1" "$TMP/s2" && fail "seeds 1 and 2 gave the same start times"
[ "$(cut -d' ' -f2 "$TMP/z" | sort -u | wc -l)" -eq 1 ] || { cat "$TMP/z" >&2; fail "jitter 0: flows should start together"; }
# each jittered start lies in [t0, t0 + 5 ms), t0 = the common start without jitter, and all differ
t0="$(head -1 "$TMP/z" | cut -d' ' -f2)"
awk -v t0="$t0" '$2 < t0 || $2 >= t0 + 0.005 { print "out of window: " $0; bad = 1 } END { exit bad }' \
  "$TMP/s1" >&2 || fail "a start time is outside start + [0, jitter)"
[ "$(cut -d' ' -f2 "$TMP/s1" | sort -u | wc -l)" -eq 4 ] || fail "start times not distinct"
# a window that reaches past the end of the run is refused, naming the key
expect_status 2 "$SKSIM_BIN" run "$f" --set workloads.bulk.start=150ms \
  --set workloads.bulk.start_jitter=60ms --out "$TMP/late"
expect_grep 'workloads\.bulk\.start_jitter' "$TMP/err"
echo ok
