#!/usr/bin/env bash
# A local qdisc drop is local congestion, not a loss (tests/data/qdisc_drop.yaml): the sender's
# full qdisc refuses skbs, TCP enters CWR and sends them later, so the loss-free link sees no
# retransmission and the sender never enters Recovery (before the NIC reported its verdict the
# same run had 176 qdisc drops, 430 TcpRetransSegs and 29 SACK recoveries).
source "$(dirname "$0")/common.bash"

out="$TMP/o"
expect_status 0 "$SKSIM_BIN" run tests/data/qdisc_drop.yaml --out "$out" --quiet --log tcp,nic
log="$out/base/events.log"
expect_grep ' qdisc_drop dev=eth0 ' "$log"
expect_grep ' xmit_local_drop sk=1 verdict=1 ' "$log"
expect_grep ' ca_state sk=1 from=Open to=CWR ' "$log"
expect_grep ' ca_state sk=1 from=CWR to=Open ' "$log"
! grep -Eq ' ca_state sk=1 from=\S+ to=(Recovery|Loss) ' "$log" || fail "the sender entered Recovery or Loss"
drops="$(grep -c ' qdisc_drop ' "$log")"
cwr="$(grep -c ' xmit_local_drop ' "$log")"
[ "$drops" -eq "$cwr" ] || fail "$drops qdisc drops but TCP heard of $cwr"
counter() { # HOST NAME: a counter of metrics.json
  sed -n "/\"$1\": {/,/^    }/p" "$out/base/metrics.json" | grep -m1 "\"$2\":" | tr -dc '0-9'
}
for c in TcpRetransSegs TcpExtTCPRetransFail TcpExtTCPSackRecovery TcpExtTCPTimeouts; do
  [ "$(counter client "$c")" = 0 ] || fail "client $c = $(counter client "$c"), expected 0"
done
[ "$(counter client TcpOutSegs)" -gt 20000 ] || fail "client TcpOutSegs $(counter client TcpOutSegs)"
