#!/usr/bin/env bash
# A local qdisc drop is local congestion, not a loss (tests/data/qdisc_drop.yaml): the sender's
# full qdisc refuses skbs, TCP enters CWR and sends them later, so the loss-free link sees no
# retransmission and the sender never enters Recovery (before the NIC reported its verdict the
# same run had 176 qdisc drops, 430 TcpRetransSegs and 29 SACK recoveries).
# Then each kind of qdisc drop lands on its own counter: a pfifo's refusals on SksimQdiscDrops;
# fq_codel, which queues every skb and drops from its fattest flow when over its 2-skb limit, on
# SksimQdiscOverlimitDrops.
source "$(dirname "$0")/common.bash"

out="$TMP/o"
expect_status 0 "$SKSIM_BIN" run tests/data/qdisc_drop.yaml --out "$out" --quiet --log tcp,nic
log="$out/base/events.log"
expect_grep ' qdisc_drop dev=eth0 why=full ' "$log"
expect_grep ' xmit_local_drop sk=1 verdict=1 ' "$log"
expect_grep ' ca_state sk=1 from=Open to=CWR ' "$log"
expect_grep ' ca_state sk=1 from=CWR to=Open ' "$log"
! grep -Eq ' ca_state sk=1 from=\S+ to=(Recovery|Loss) ' "$log" || fail "the sender entered Recovery or Loss"
drops="$(grep -c ' qdisc_drop ' "$log")"
cwr="$(grep -c ' xmit_local_drop ' "$log")"
[ "$drops" -eq "$cwr" ] || fail "$drops qdisc drops but TCP heard of $cwr"
counter() { # HOST NAME: a counter of metrics.json
  awk -v h="\"$1\": {" -v c="\"$2\":" 'index($0, h) { inside = 1 }
    inside && index($0, c) { gsub(/[^0-9]/, ""); print; exit }' "$out/base/metrics.json"
}
for c in TcpRetransSegs TcpExtTCPRetransFail TcpExtTCPSackRecovery TcpExtTCPTimeouts; do
  [ "$(counter client "$c")" = 0 ] || fail "client $c = $(counter client "$c"), expected 0"
done
[ "$(counter client TcpOutSegs)" -gt 20000 ] || fail "client TcpOutSegs $(counter client TcpOutSegs)"
[ "$(counter client SksimQdiscDrops)" = "$drops" ] ||
  fail "pfifo: SksimQdiscDrops $(counter client SksimQdiscDrops), the log has $drops refusals"
for c in SksimQdiscCodelDrops SksimQdiscOverlimitDrops; do
  [ "$(counter client "$c")" = 0 ] || fail "pfifo: client $c = $(counter client "$c"), expected 0"
done

out="$TMP/fq"
expect_status 0 "$SKSIM_BIN" run tests/data/qdisc_drop.yaml --out "$out" --quiet --log nic \
  --set hosts.client.nic.qdisc=fq_codel
over="$(grep -c ' qdisc_drop dev=eth0 why=overlimit ' "$out/base/events.log")"
[ "$over" -gt 0 ] || fail "fq_codel: no overlimit drop in the log"
[ "$(counter client SksimQdiscOverlimitDrops)" = "$over" ] ||
  fail "fq_codel: SksimQdiscOverlimitDrops $(counter client SksimQdiscOverlimitDrops), the log has $over"
[ "$(counter client SksimQdiscDrops)" = 0 ] ||
  fail "fq_codel refused $(counter client SksimQdiscDrops) skbs; it queues every one"
