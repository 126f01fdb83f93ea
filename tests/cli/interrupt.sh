#!/usr/bin/env bash
# SIGINT and SIGTERM stop a run at the next event: exit 130/143, and the outputs are still
# written, marked "interrupted": true. --max-wall bounds the test if a signal were missed.
source "$(dirname "$0")/common.bash"

f=tests/data/cli_tiny.yaml
declare -A pid
for sig in INT TERM; do # both at once: the runs are long by design
  "$SKSIM_BIN" run "$f" --variant after --duration 100000s --max-wall 60 --quiet \
    --out "$TMP/$sig" >"$TMP/out.$sig" 2>"$TMP/err.$sig" &
  pid[$sig]=$!
done
sleep 1
for sig in INT TERM; do
  kill -s "$sig" "${pid[$sig]}"
done
for sig in INT TERM; do
  rc=0
  wait "${pid[$sig]}" || rc=$?
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  [ "$rc" -eq "$want" ] || { cat "$TMP/err.$sig" >&2; fail "SIG$sig: exit $rc, expected $want"; }
  d="$TMP/$sig/after"
  expect_grep "^  \"interrupted\": true,$" "$d/metrics.json"
  [ -s "$d/client.nstat" ] && [ -s "$d/timeseries.csv" ] || fail "SIG$sig: outputs missing"
done
echo "ok"
