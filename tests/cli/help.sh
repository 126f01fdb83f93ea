#!/usr/bin/env bash
# Every way of asking for help works, and each command's help names its options and examples.
source "$(dirname "$0")/common.bash"

expect_status 0 "$SKSIM_BIN" --help
for cmd in run compare validate list keys; do
  expect_grep "^  $cmd " "$TMP/out"
done
expect_status 0 "$SKSIM_BIN" help
expect_grep "^  compare " "$TMP/out"

run_opts=(--variant --seed --duration --set --out --fingerprint --quiet --max-events --max-wall)
compare_opts=(--seed --duration --set --out --fingerprint --quiet --max-events --max-wall)
check_help() { # CMD OPTION...
  local cmd="$1" opt
  shift
  for how in "help $cmd" "$cmd --help" "$cmd -h"; do
    # shellcheck disable=SC2086
    expect_status 0 "$SKSIM_BIN" $how
    expect_grep "^  sksim $cmd \\[OPTION" "$TMP/out"
    expect_grep "Examples:" "$TMP/out"
    for opt in "$@"; do
      expect_grep "$opt" "$TMP/out"
    done
  done
}
check_help run "${run_opts[@]}"
check_help compare "${compare_opts[@]}"
check_help validate
check_help list
check_help keys

expect_status 0 "$SKSIM_BIN" compare --help
expect_no_grep "--variant" "$TMP/out"
expect_status 2 "$SKSIM_BIN" help nosuchcommand
expect_grep "unknown command 'nosuchcommand'" "$TMP/err"
echo "ok"
