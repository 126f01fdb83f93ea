#!/usr/bin/env bash
# hosts.H.nic.qdisc: seed 000's client with its NIC cut to 10 Gbit/s (the link's rate), so that
# the four flows queue in its root qdisc. A pfifo shares the NIC by whatever each flow's TSQ
# budget lets it queue, which follows its cwnd: the flows' goodputs differ by over 10 % (1.96 to
# 3.26 Gbit/s, seed 1, 800 ms). fq_codel's round robin gives each flow the same bytes: within
# 1 % of each other. No flow drops either way (TSQ keeps each one's queue below CoDel's target).
source "$(dirname "$0")/common.bash"

goodputs() { # QDISC: the flows' goodputs in Mbit/s, one per line
  local out="$TMP/$1"
  expect_status 0 "$SKSIM_BIN" run scenarios/release-sock-resched.yaml --variant after \
    --duration 800ms --quiet --out "$out" --set links.wire.rate=10Gbit \
    --set "hosts.clnt.nic.qdisc=$1"
  grep -o '"goodput_bps": [0-9.e+]*' "$out/after/metrics.json" |
    awk '{ printf "%d\n", $2 / 1e6 }'
}

spread() { # min and max of stdin -> (max - min) / max in percent
  sort -n | awk 'NR == 1 { lo = $1 } { hi = $1; n++ } END { if (n != 4) exit 1; printf "%d\n", (hi - lo) * 100 / hi }'
}

fifo="$(goodputs pfifo | spread)" || fail "pfifo: not four flows"
fq="$(goodputs fq_codel | spread)" || fail "fq_codel: not four flows"
[ "$fifo" -gt 10 ] || fail "pfifo: the flows' goodputs are within ${fifo} % (expected > 10 %)"
[ "$fq" -lt 1 ] || fail "fq_codel: the flows' goodputs differ by ${fq} % (expected < 1 %)"
for c in SksimQdiscDrops SksimQdiscCodelDrops SksimQdiscOverlimitDrops; do
  drops="$(awk -v c="\"$c\":" '/"clnt": \{/ { inside = 1 }
    inside && index($0, c) { gsub(/[^0-9]/, ""); print; exit }' "$TMP/fq_codel/after/metrics.json")"
  [ "$drops" = 0 ] || fail "fq_codel: $c = ${drops:-?} at the client"
done
