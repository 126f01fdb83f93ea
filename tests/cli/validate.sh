#!/usr/bin/env bash
# `sksim validate` accepts the example and the test scenarios, and `list` shows them.
source "$(dirname "$0")/common.bash"

expect_status 0 "$SKSIM_BIN" validate scenarios/example.yaml
expect_grep "^scenarios/example.yaml: ok \([0-9]+ variants\)$" "$TMP/out"
expect_status 0 "$SKSIM_BIN" validate tests/data/cli_tiny.yaml tests/data/cli_fail.yaml
expect_grep "^tests/data/cli_tiny.yaml: ok \(2 variants\)$" "$TMP/out"
expect_grep "^tests/data/cli_fail.yaml: ok \(2 variants\)$" "$TMP/out"

expect_status 0 "$SKSIM_BIN" list tests/data
expect_grep "^cli_bad_syntax.yaml +\(invalid: tests/data/cli_bad_syntax.yaml:[0-9]+:[0-9]+: " "$TMP/out"
expect_grep "^cli_tiny.yaml +cli_tiny +Tiny two-host stream for the CLI tests$" "$TMP/out"
sort -c "$TMP/out" || fail "list is not sorted"
expect_status 0 "$SKSIM_BIN" list
expect_grep "^example.yaml " "$TMP/out"
expect_status 2 "$SKSIM_BIN" list "$TMP/no-such-dir"

expect_status 0 "$SKSIM_BIN" keys
expect_grep "duration" "$TMP/out"
echo "ok"
