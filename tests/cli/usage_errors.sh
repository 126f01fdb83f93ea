#!/usr/bin/env bash
# Bad command lines exit 2 with a message on stderr and nothing run.
source "$(dirname "$0")/common.bash"

expect_status 2 "$SKSIM_BIN"
expect_grep "Usage:" "$TMP/err"
expect_status 2 "$SKSIM_BIN" frobnicate
expect_grep "unknown command 'frobnicate'" "$TMP/err"
expect_status 2 "$SKSIM_BIN" --frobnicate
expect_grep "unknown option '--frobnicate'" "$TMP/err"

for cmd in run compare validate list keys; do
  expect_status 2 "$SKSIM_BIN" "$cmd" --no-such-option
  expect_grep "^sksim $cmd: .*--no-such-option" "$TMP/err"
  expect_grep "sksim $cmd --help" "$TMP/err"
done

expect_status 2 "$SKSIM_BIN" run
expect_grep "expected exactly one scenario FILE" "$TMP/err"
expect_status 2 "$SKSIM_BIN" run a.yaml b.yaml
expect_status 2 "$SKSIM_BIN" validate
expect_status 2 "$SKSIM_BIN" keys extra
expect_status 2 "$SKSIM_BIN" list a b

f=tests/data/cli_tiny.yaml
expect_status 2 "$SKSIM_BIN" run "$f" --seed abc
expect_grep "--seed" "$TMP/err"
expect_status 2 "$SKSIM_BIN" run "$f" --seed -1
expect_status 2 "$SKSIM_BIN" run "$f" --set novalue
expect_grep "expected KEY=VALUE" "$TMP/err"
expect_status 2 "$SKSIM_BIN" run "$f" --max-events -5
expect_status 2 "$SKSIM_BIN" run "$f" --max-wall -1
expect_status 2 "$SKSIM_BIN" run "$f" --variant nosuch --out "$TMP/o"
expect_grep "unknown variant 'nosuch'" "$TMP/err"
[ ! -e "$TMP/o" ] || fail "a failed command created its output directory"
# a bad --duration is named as such, not as the --set it becomes inside
expect_status 2 "$SKSIM_BIN" run "$f" --set seed=2 --duration 10 --out "$TMP/o"
expect_grep "^sksim run: --duration 10: missing unit" "$TMP/err"

# run and compare: --jobs below 1 is a usage error, named as such
for cmd in run compare; do
  expect_status 2 "$SKSIM_BIN" "$cmd" "$f" --jobs 0 --out "$TMP/o"
  expect_grep "^sksim $cmd: --jobs must be >= 1" "$TMP/err"
done
[ ! -e "$TMP/o" ] || fail "a failed command created its output directory"

# sweep: zero seeds or jobs, and one key given as two --param, are usage errors
for o in "--seeds 0" "--jobs 0" "--seeds -2"; do
  # shellcheck disable=SC2086
  expect_status 2 "$SKSIM_BIN" sweep "$f" -p links.wire.rate=1Gbit $o --out "$TMP/o"
  expect_grep "^sksim sweep: --seeds and --jobs must be >= 1" "$TMP/err"
done
expect_status 2 "$SKSIM_BIN" sweep "$f" -p links.wire.rate=1Gbit -p links.wire.rate=2Gbit --out "$TMP/o"
expect_grep "^sksim sweep: --param links.wire.rate is given twice" "$TMP/err"
[ ! -e "$TMP/o" ] || fail "a failed sweep created its output directory"
echo "ok"
