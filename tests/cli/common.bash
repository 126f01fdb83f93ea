# common.bash - helpers sourced by the tests/cli/*.sh tests (not a test itself: not *.sh).
# Tests run from the repository root with $SKSIM_BIN set to the built binary.
set -euo pipefail
: "${SKSIM_BIN:?SKSIM_BIN must name the sksim binary}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/sksim-cli.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# expect_status N CMD...: run CMD, stdout to $TMP/out, stderr to $TMP/err; its status must be N.
expect_status() {
  local want="$1" rc=0
  shift
  "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "--- stdout" >&2; cat "$TMP/out" >&2
    echo "--- stderr" >&2; cat "$TMP/err" >&2
    fail "'$*' exited $rc, expected $want"
  fi
}

# expect_interrupted SIG N CMD...: run CMD in the background (stdout to $TMP/out, stderr to
# $TMP/err), send it SIG after a second, and require exit status N (130 for INT, 143 for TERM).
expect_interrupted() {
  local sig="$1" want="$2" pid rc=0
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  sleep 1
  kill -s "$sig" "$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "'$*' after SIG$sig: exit $rc, expected $want"; }
}

# expect_grep PATTERN FILE: an extended regex that must match a line of FILE.
expect_grep() {
  grep -Eq -- "$1" "$2" || { cat "$2" >&2; fail "no line of $2 matches '$1'"; }
}

expect_no_grep() {
  if grep -Eq -- "$1" "$2"; then cat "$2" >&2; fail "a line of $2 matches '$1'"; fi
}
