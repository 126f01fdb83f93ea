#!/usr/bin/env bash
# Resource guards: --max-events stops each run after exactly N events (outputs written, marked
# interrupted, exit 0 with a note on stderr); --max-wall stops a run that would take hours (only
# that it stopped is asserted, never how long it took); a scenario whose memory estimate exceeds
# --max-memory or 75 % of RAM is refused before anything runs (exit 2, the exact message).
source "$(dirname "$0")/common.bash"

f=scenarios/example.yaml
expect_status 0 "$SKSIM_BIN" run "$f" --variant after --max-events 1000 --out "$TMP/ev" --quiet
expect_grep '^after: stopped early by --max-events or --max-wall$' "$TMP/err"
expect_grep '^  "interrupted": true,$' "$TMP/ev/after/metrics.json"
expect_grep '^    "events": 1000,$' "$TMP/ev/after/metrics.json"
# stopped inside the 100 ms warm-up: the summary gives the time reached, not the warm-up's end,
# and measured_s is what the counters cover (from 0, as they were never reset): more than 0
expect_status 0 "$SKSIM_BIN" run "$f" --variant after --max-events 1000 --out "$TMP/ev2"
grep -Eq '^after: simulated 0\.0[0-9]{2} s, 1000 events, .*\(interrupted\)$' "$TMP/out" ||
  fail "summary of a run stopped in its warm-up: $(cat "$TMP/out")"
grep -Eq '^  "measured_s": 0\.0[0-9]*[1-9][0-9]*(e-[0-9]+)?,$' "$TMP/ev2/after/metrics.json" ||
  fail "measured_s of a run stopped in its warm-up: $(grep measured_s "$TMP/ev2/after/metrics.json")"

# a run stopped while a flow's start (and much else) is still queued frees everything cleanly:
# the sanitizer build found a use-after-free here (world_free freed a flow whose start event
# the CPUs' own cancellations then moved in the queue)
cat >"$TMP/late.yaml" <<'YAML'
name: late
duration: 1s
hosts:
  a: {}
workloads:
  now: {type: stream, from: a, to: a}
  late: {type: stream, from: a, to: a, start: 900ms}
YAML
expect_status 0 "$SKSIM_BIN" run "$TMP/late.yaml" --max-events 10 --out "$TMP/late" --quiet
expect_grep '^  "interrupted": true,$' "$TMP/late/base/metrics.json"

expect_status 0 "$SKSIM_BIN" run "$f" --variant after --duration 100000s --max-wall 0.2 \
  --out "$TMP/wall" --quiet
expect_grep '^after: stopped early by --max-events or --max-wall$' "$TMP/err"
expect_grep '^  "interrupted": true,$' "$TMP/wall/after/metrics.json"

# memory: refused before the first run (no output directory), for run and compare
expect_status 2 "$SKSIM_BIN" run "$f" --max-memory 1MiB --out "$TMP/mem" --quiet
expect_grep "^scenarios/example.yaml: scenario would need ~0\.0[0-9]+ GiB of memory \(limit 0\.000977 GiB\); reduce flows or buffers, or raise --max-memory$" "$TMP/err"
[ ! -e "$TMP/mem" ] || fail "a refused scenario wrote $TMP/mem"
expect_status 2 "$SKSIM_BIN" compare "$f" --max-memory 1MiB --out "$TMP/mem" --quiet
expect_grep 'scenario would need ~.* GiB of memory \(limit 0\.000977 GiB\)' "$TMP/err"
# the default limit (75 % of RAM): 10000 flows with 1 GiB receive buffers need terabytes
expect_status 2 "$SKSIM_BIN" run "$f" --set workloads.bulk.flows=10000 \
  --set hosts.server.tcp.rcvbuf_max=1GiB --out "$TMP/mem" --quiet
expect_grep '^scenarios/example.yaml: scenario would need ~[0-9.e+]+ GiB of memory \(limit [0-9.e+]+ GiB\); reduce flows or buffers, or raise --max-memory$' "$TMP/err"
# raising the limit lets it through the check (then --max-events keeps the run short)
expect_status 0 "$SKSIM_BIN" run "$f" --variant after --max-memory 1GiB --max-events 10 --out "$TMP/ok" --quiet
expect_status 2 "$SKSIM_BIN" run "$f" --max-memory lots --quiet
expect_grep "^sksim run: --max-memory 'lots': " "$TMP/err"
# sweep: the J runs that go at the same time add up
expect_status 2 "$SKSIM_BIN" sweep "$f" --param hosts.server.cpus=2,3 --jobs 2 --max-memory 30MiB \
  --out "$TMP/sw" --quiet
expect_grep '^scenarios/example.yaml: scenario would need ~0\.0[0-9]+ GiB of memory for 2 runs at a time \(limit 0\.0293 GiB\); reduce flows or buffers, or raise --max-memory$' "$TMP/err"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param hosts.server.cpus=2,3 --jobs 1 --max-memory 30MiB \
  --variant after --duration 120ms --out "$TMP/sw" --quiet
echo ok
