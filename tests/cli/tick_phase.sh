#!/usr/bin/env bash
# hosts.H.tick_phase shifts a host's jiffies: a phase of one whole jiffy is no shift at all (the
# same run, event for event), half a jiffy moves every tick and timer of that host (another run),
# and the key's value reaches the run only through the host it names.
source "$(dirname "$0")/common.bash"

f=scenarios/example.yaml
fp() { # SETS...: the run's fingerprint line
  local sets=()
  for kv in "$@"; do sets+=(--set "$kv"); done
  expect_status 0 "$SKSIM_BIN" run "$f" --variant after --duration 150ms --quiet --fingerprint \
    --out "$TMP/r" --set hz=1000 "${sets[@]}"
  grep '^fingerprint ' "$TMP/out"
}
base="$(fp)"
[ "$(fp hosts.server.tick_phase=1ms)" = "$base" ] || fail "a whole-jiffy phase changed the run"
[ "$(fp hosts.server.tick_phase=0)" = "$base" ] || fail "phase 0 changed the run"
[ "$(fp hosts.server.tick_phase=500us)" != "$base" ] || fail "half a jiffy on the server changed nothing"
[ "$(fp hosts.client.tick_phase=500us)" != "$(fp hosts.server.tick_phase=500us)" ] ||
  fail "the client's and the server's phase gave the same run"
echo ok
