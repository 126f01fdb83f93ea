#!/usr/bin/env bash
# A missing or invalid scenario exits 2 and says where: FILE:LINE:COL: on stderr, as is.
source "$(dirname "$0")/common.bash"

bad=tests/data/cli_bad_syntax.yaml
unknown=tests/data/cli_unknown_key.yaml
for cmd in run compare validate; do
  expect_status 2 "$SKSIM_BIN" "$cmd" "$bad"
  expect_grep "^$bad:[0-9]+:[0-9]+: " "$TMP/err"
  expect_status 2 "$SKSIM_BIN" "$cmd" "$unknown"
  expect_grep "^$unknown:[0-9]+:[0-9]+: " "$TMP/err"
  expect_status 2 "$SKSIM_BIN" "$cmd" "$TMP/does-not-exist.yaml"
  expect_grep "does-not-exist.yaml" "$TMP/err"
done
[ ! -e out/cli_bad_syntax ] || fail "a failed run created out/"

# validate goes on after a bad file, reports each, and fails as a whole
expect_status 2 "$SKSIM_BIN" validate "$bad" tests/data/cli_tiny.yaml
expect_grep "^tests/data/cli_tiny.yaml: ok \(" "$TMP/out"
expect_grep "^$bad:[0-9]+:[0-9]+: " "$TMP/err"
echo "ok"
