#!/usr/bin/env bash
# `sksim --version` prints the project version, and nothing else.
source "$(dirname "$0")/common.bash"

expect_status 0 "$SKSIM_BIN" --version
[ "$(cat "$TMP/out")" = "sksim 0.1.0" ] || fail "--version printed '$(cat "$TMP/out")'"
expect_status 0 "$SKSIM_BIN" -V
[ "$(cat "$TMP/out")" = "sksim 0.1.0" ] || fail "-V printed '$(cat "$TMP/out")'"
echo "ok"
