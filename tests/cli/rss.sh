#!/usr/bin/env bash
# RSS (hosts.H.nic.rx_queues, irq_cpus) end to end on the lossy scenario: with one queue the
# NIC's log lines do not name a queue; with four, every server RX line names one (0-3) while
# the single-queue client's still do not; eight flows keep all four IRQ CPUs in softirq while
# the CPUs outside irq_cpus see (almost) none; the run is deterministic; rx_queues 1 given
# explicitly is the default run, event for event.
source "$(dirname "$0")/common.bash"

f=tests/data/observe_loss.yaml
q4=(--set hosts.server.nic.rx_queues=4 --set workloads.bulk.flows=8 --set hosts.server.cpus=6
    --set 'hosts.server.nic.irq_cpus=[2-5]')

expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/q1" --quiet --log nic
log="$TMP/q1/base/events.log"
expect_grep ' server:\S+ \S+ random_loss dev=eth0 seq=[0-9]+ frame=' "$log"
expect_no_grep 'queue=' "$log"

expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/q4" --quiet --log nic "${q4[@]}"
log="$TMP/q4/base/events.log"
expect_grep ' server:\S+ \S+ random_loss dev=eth0 queue=[0-3] seq=[0-9]+ frame=' "$log"
expect_no_grep ' server:\S+ \S+ random_loss dev=eth0 seq=' "$log"
expect_no_grep ' client:\S+ .*queue=' "$log"
for q in 0 1 2 3; do expect_grep " server:.* queue=$q " "$log"; done

if command -v python3 >/dev/null; then
  python3 - "$TMP/q4/base/metrics.json" <<'PY' || fail "softirq not on the four IRQ CPUs"
import json, sys
cpus = {c["cpu"]: c["softirq_s"] for c in json.load(open(sys.argv[1]))["hosts"]["server"]["cpus"]}
irq = [cpus[c] for c in (2, 3, 4, 5)]
assert all(s > 0 for s in irq), cpus
assert cpus[0] + cpus[1] < 0.01 * sum(irq), cpus
PY
fi

# the event fingerprint: the only "events" key whose value is a string
fp() { grep -Eo '"events": *"[0-9a-f]+"' "$1"; }
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/q4b" --quiet "${q4[@]}"
[ "$(fp "$TMP/q4/base/metrics.json")" = "$(fp "$TMP/q4b/base/metrics.json")" ] ||
  fail "two runs with four queues differ"
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/q1b" --quiet --set hosts.server.nic.rx_queues=1 \
  --set 'hosts.server.nic.irq_cpus=[]'
[ "$(fp "$TMP/q1/base/metrics.json")" = "$(fp "$TMP/q1b/base/metrics.json")" ] ||
  fail "rx_queues=1 given explicitly differs from the default"
echo ok
