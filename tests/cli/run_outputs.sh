#!/usr/bin/env bash
# `sksim run` writes metrics.json, one .nstat per host and timeseries.csv per variant, in
# DIR/<variant>/, and leaves no temporary or partial file behind.
source "$(dirname "$0")/common.bash"

f=tests/data/cli_tiny.yaml
out="$TMP/run"
expect_status 0 "$SKSIM_BIN" run "$f" --out "$out" --fingerprint
expect_grep "^before: simulated [0-9.]+ s, [0-9]+ events, wall [0-9.]+ s, [0-9.]+M events/s$" "$TMP/out"
expect_grep "^after: simulated " "$TMP/out"
[ "$(grep -c '^fingerprint events=[0-9a-f]\{16\} counters=[0-9a-f]\{16\}$' "$TMP/out")" -eq 2 ] ||
  fail "expected one fingerprint line per variant"

for v in before after; do
  d="$out/$v"
  for file in metrics.json client.nstat server.nstat timeseries.csv; do
    [ -s "$d/$file" ] || fail "$d/$file missing or empty"
  done
  expect_grep "^  \"scenario\": \"cli_tiny\",$" "$d/metrics.json"
  expect_grep "^  \"variant\": \"$v\",$" "$d/metrics.json"
  expect_grep "^  \"interrupted\": false,$" "$d/metrics.json"
  [ "$(tail -c 2 "$d/metrics.json" | head -c 1)" = "}" ] || fail "metrics.json does not end in }"
  [ "$(head -n 1 "$d/client.nstat")" = "#kernel" ] || fail "nstat without #kernel"
  expect_grep "^time_s(,|$)" "$d/timeseries.csv"
  if command -v jq >/dev/null; then jq -e . "$d/metrics.json" >/dev/null || fail "invalid JSON"; fi
done
# nothing but the outputs: no .tmp, no g_file_set_contents leftovers (name.XXXXXX)
extra="$(find "$out" -type f ! -name '*.json' ! -name '*.nstat' ! -name '*.csv')"
[ -z "$extra" ] || fail "unexpected files: $extra"
[ "$(find "$out" -type f | wc -l)" -eq 8 ] || fail "expected 8 files: $(find "$out" -type f)"

# receiver columns: sk_rcvbuf starts at tcp_rmem[1] and autotuning grows it; without
# autotuning it stays, and the offered window never exceeds the buffer
ts="$out/before/timeseries.csv"
col() { head -n 1 "$1" | tr ',' '\n' | grep -n -x "$2" | cut -d: -f1; }
rb=$(col "$ts" 'flow.bulk/0.rcvbuf'); rw=$(col "$ts" 'flow.bulk/0.rcv_wnd')
[ -n "$rb" ] && [ -n "$rw" ] || fail "no rcvbuf/rcv_wnd columns in $ts"
[ "$(sed -n 2p "$ts" | cut -d, -f"$rb")" = 131072 ] || fail "rcvbuf does not start at 131072"
[ "$(tail -n +2 "$ts" | cut -d, -f"$rb" | sort -n | tail -n 1)" -gt 131072 ] ||
  fail "autotuning did not grow rcvbuf"
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/fixed" --variant before --quiet \
  --set hosts.server.tcp.rcvbuf_autotune=false
ts="$TMP/fixed/before/timeseries.csv"
[ "$(tail -n +2 "$ts" | cut -d, -f"$rb" | sort -u)" = 131072 ] || fail "fixed rcvbuf moved"
[ "$(tail -n +2 "$ts" | cut -d, -f"$rw" | sort -n | tail -n 1)" -le 131072 ] ||
  fail "window above a fixed 131072-byte buffer"

# CPU columns are shares of each interval: within [0, 1], softirq never above busy, and the
# receiving host's CPUs did some work
ts="$out/before/timeseries.csv"
for c in 0 1; do
  b=$(col "$ts" "server.cpu$c.busy"); q=$(col "$ts" "server.cpu$c.softirq")
  [ -n "$b" ] && [ -n "$q" ] || fail "no server.cpu$c columns in $ts"
  tail -n +2 "$ts" | awk -F, -v b="$b" -v q="$q" '
    $b < 0 || $b > 1 + 1e-9 || $q > $b + 1e-9 { bad = 1 } END { exit bad }' ||
    fail "server.cpu$c: a share outside [0, 1] or softirq above busy"
done
[ "$(tail -n +2 "$ts" | cut -d, -f"$(col "$ts" server.cpu0.busy)" | sort -g | tail -n 1)" != 0 ] ||
  fail "server.cpu0 never busy"

# one variant only; --quiet prints no summary
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/one" --variant after --quiet
[ ! -s "$TMP/out" ] || fail "--quiet printed: $(cat "$TMP/out")"
[ -d "$TMP/one/after" ] && [ ! -e "$TMP/one/before" ] || fail "--variant after ran other variants"

# overrides reach the run
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/seed" --variant after --seed 9 --duration 100ms
expect_grep "^  \"seed\": 9,$" "$TMP/seed/after/metrics.json"
expect_grep "^  \"duration_s\": 0.10000000000000001,$" "$TMP/seed/after/metrics.json"

# the default DIR is out/<scenario name>, relative to the working directory
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$SKSIM_BIN" run "$OLDPWD/$f" --variant before --quiet) || fail "run in $TMP/cwd"
[ -s "$TMP/cwd/out/cli_tiny/before/metrics.json" ] || fail "default out/<name>/<variant> not used"
echo "ok"
