#!/usr/bin/env bash
# Figures: `sksim compare` draws them into DIR/plots/ (PNG and SVG), `sksim plot DIR` redraws
# them for a compare, run or single-variant directory, and without gnuplot on PATH both print one
# warning and exit as they would otherwise (0 here), drawing nothing.
source "$(dirname "$0")/common.bash"

nopath="$TMP/empty-path"
mkdir "$nopath"

# no gnuplot: compare still succeeds, with a warning and no figures
expect_status 0 env PATH="$nopath" "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/nog" --quiet
expect_grep "^sksim: gnuplot not found on PATH: figures skipped \(install gnuplot-nox\)$" "$TMP/err"
[ "$(grep -c gnuplot "$TMP/err")" -eq 1 ] || fail "more than one warning"
[ -s "$TMP/nog/compare.json" ] || fail "compare.json missing"
[ ! -e "$TMP/nog/plots" ] || fail "figures drawn without gnuplot"
expect_status 0 env PATH="$nopath" "$SKSIM_BIN" plot "$TMP/nog"
expect_grep "gnuplot not found on PATH" "$TMP/err"

# a failing check keeps its exit status whatever happens to the figures
expect_status 1 env PATH="$nopath" "$SKSIM_BIN" compare tests/data/cli_fail.yaml --out "$TMP/nogf" --quiet

if ! command -v gnuplot >/dev/null; then
  echo "ok (gnuplot not installed: drawing not tested)"
  exit 0
fi

# compare draws the figures: retransmissions and counters (this model has no flow series yet)
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/c" --quiet
for fig in retrans counters; do
  for ext in png svg; do
    [ -s "$TMP/c/plots/$fig.$ext" ] || fail "compare did not draw $fig.$ext"
  done
done
[ "$(head -c 4 "$TMP/c/plots/retrans.png" | tail -c 3)" = "PNG" ] || fail "retrans.png is not a PNG"
expect_grep "<svg" "$TMP/c/plots/retrans.svg"
expect_grep "^# counter before after$" "$TMP/c/plots/counters.dat"
# each counters panel says its unit: a CPU profile row is microseconds of CPU time, the slowest
# flow's row bit/s (two flows make that row), not event counts
sed -e 's/counters: \[TcpOutSegs, TcpRetransSegs\]/counters: [TcpOutSegs, server.cpu_tcp_rcv_data]/' \
  tests/data/cli_tiny.yaml >"$TMP/units.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/units.yaml" --out "$TMP/u" --quiet \
  --set workloads.bulk.flows=2
svg="$TMP/u/plots/counters.svg"
expect_grep "counts over the measured interval unless a panel gives a unit" "$svg"
expect_grep "CPU time \(us, measured interval\)" "$svg"
expect_grep "slowest flow.{1,8}s goodput \(bit/s\)" "$svg"
# a plain count names no unit of its own: only the two non-count panels have a second line
[ "$(grep -c "measured interval)<" "$svg")" -eq 1 ] || fail "a count panel printed a unit line"
# each bar carries its value, in at most four significant digits with k/M/G (counters.gp
# fmtv): the first counter's values, formatted the same way, are all in the figure
read -r _ b a < <(grep -v '^#' "$TMP/u/plots/counters.dat" | head -n 1)
for v in "$b" "$a"; do
  label=$(awk -v v="$v" 'BEGIN { x = v < 0 ? -v : v
    if (x >= 1e9) s = sprintf("%.3gG", v / 1e9); else if (x >= 1e6) s = sprintf("%.3gM", v / 1e6)
    else if (x >= 1e4) s = sprintf("%.3gk", v / 1e3); else s = sprintf("%.4g", v); print s }')
  grep -qF "<text>$label</text>" "$svg" || fail "counters.svg has no bar label $label for $v"
done
[ -z "$(find "$TMP/c" -name '*.XXXXXX' -o -name '*.png.*' -o -name '*.svg.*')" ] || fail "temporary files left"
# the counters figure is 1000 pixels wide and grows by a row of panels (at most four to a row,
# 210 px each, plus 90 for the title): 2 counters are one row, 9 are three (PNG IHDR: width and
# height are the big-endian words at bytes 16-23)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'; }
[ "$(png_size "$TMP/c/plots/counters.png")" = "1000 300" ] ||
  fail "2 counters: counters.png is $(png_size "$TMP/c/plots/counters.png"), expected 1000 300"
sed -e 's/counters: \[TcpOutSegs, TcpRetransSegs\]/counters: [TcpOutSegs, TcpRetransSegs, TcpInSegs, TcpExtTCPTimeouts, TcpExtTCPLossProbes, TcpExtTCPDSACKRecv, TcpExtTCPBacklogDrop, cpu_tcp_rcv_data, cpu_copy_per_kb]/' \
  tests/data/cli_tiny.yaml >"$TMP/nine.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/nine.yaml" --out "$TMP/nine" --quiet
[ "$(png_size "$TMP/nine/plots/counters.png")" = "1000 720" ] ||
  fail "9 counters: counters.png is $(png_size "$TMP/nine/plots/counters.png"), expected 1000 720"

# sksim plot on the hand-made compare output: every figure, listed on stdout
cp -r tests/data/plot_compare "$TMP/hand"
expect_status 0 "$SKSIM_BIN" plot "$TMP/hand" --host server
for fig in retrans throughput throughput_flows cpu counters; do
  expect_grep "^wrote $TMP/hand/plots/$fig.png$" "$TMP/out"
  expect_grep "^wrote $TMP/hand/plots/$fig.svg$" "$TMP/out"
  [ -s "$TMP/hand/plots/$fig.png" ] || fail "$fig.png missing"
done
expect_grep "^0.03 10 10 0$" "$TMP/hand/plots/throughput-before.dat"
expect_grep "^0.03 5 1 0$" "$TMP/hand/plots/retrans-before.dat"
# a --host the results do not have is an error, not a silently skipped figure
expect_status 2 "$SKSIM_BIN" plot "$TMP/hand" --host sever
expect_grep "no host 'sever' in its timeseries.csv" "$TMP/err"

# a run output (variant subdirectories, no compare.json) and a single variant's directory
expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/r" --quiet \
  --set links.wire.rate=200Mbit
expect_status 0 "$SKSIM_BIN" plot "$TMP/r" "$TMP/r/after"
[ -s "$TMP/r/plots/retrans.png" ] || fail "run directory not drawn"
[ -s "$TMP/r/after/plots/retrans.svg" ] || fail "variant directory not drawn"
[ ! -e "$TMP/r/plots/counters.png" ] || fail "counters drawn without compare.json"
# throughput figures when the models sample flows, else a note saying why not
if head -n 1 "$TMP/r/after/timeseries.csv" | grep -Eq ',flow\.[^,]+\.delivered_bytes(,|$)'; then
  [ -s "$TMP/r/plots/throughput.png" ] && [ -s "$TMP/r/plots/throughput_flows.svg" ] ||
    fail "throughput not drawn"
else
  expect_grep "^skipped throughput: no flow" "$TMP/out"
fi

# request/response flows get a transactions/s figure, from their flow.<name>.transactions
# columns; a stream has no such column and no such figure (nor a note about it)
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/rr" --quiet \
  --set workloads.bulk.type=rr
[ -s "$TMP/rr/plots/transactions.png" ] && [ -s "$TMP/rr/plots/transactions.svg" ] ||
  fail "no transactions figure for an RR workload"
expect_grep "^# time_s total bulk/0  \(transactions/s\)$" "$TMP/rr/plots/transactions-after.dat"
head -n 1 "$TMP/rr/after/timeseries.csv" | grep -q ',flow\.bulk/0\.transactions,' ||
  fail "no transactions column for the RR flow"
! head -n 1 "$TMP/c/after/timeseries.csv" | grep -q 'transactions' || fail "a stream flow has a transactions column"
[ ! -e "$TMP/c/plots/transactions.png" ] || fail "transactions drawn for a stream"

# the per-flow key: each line of a variant with up to 6 flows has its entry, a variant with
# more gets one entry for all its lines
for flows in 2 7; do
  expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/f$flows" --quiet \
    --set links.wire.rate=200Mbit --set duration=100ms --set workloads.bulk.flows=$flows
  expect_status 0 "$SKSIM_BIN" plot "$TMP/f$flows"
done
svg2="$TMP/f2/plots/throughput_flows.svg" svg7="$TMP/f7/plots/throughput_flows.svg"
[ "$(grep -c '<text>after bulk/[01]</text>' "$svg2")" -eq 2 ] || fail "2 flows: not one key entry each"
[ "$(grep -c '<text>after, 7 flows (a line each)</text>' "$svg7")" -eq 1 ] || fail "7 flows: no entry for the variant"
! grep -q '<text>after bulk/' "$svg7" || fail "7 flows: a key entry per flow"

# CPU use: at 200 Mbit/s no CPU averages 25 % (~5 %), so the figure is skipped with a note; at 40 Gbit/s
# the busy CPUs are drawn, in % of each interval
expect_grep "^skipped cpu: no <host>.cpu<N>.busy column averaging 25 % or more" "$TMP/out"
expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/fast" --quiet \
  --set links.wire.rate=40Gbit
expect_status 0 "$SKSIM_BIN" plot "$TMP/fast"
[ -s "$TMP/fast/plots/cpu.png" ] && [ -s "$TMP/fast/plots/cpu.svg" ] || fail "cpu not drawn"
dat="$TMP/fast/plots/cpu-after.dat"
head -n 1 "$dat" | grep -Eq '^# time_s( [a-z]+\.cpu[0-9]+)+  \(% busy\)$' || fail "cpu header: $(head -n 1 "$dat")"
tail -n +2 "$dat" | awk '{ for (i = 2; i <= NF; i++) if ($i < 0 || $i > 100) bad = 1 } END { exit bad }' ||
  fail "a CPU share outside 0-100 %"

# nothing to plot: exit 2
mkdir "$TMP/none"
expect_status 2 "$SKSIM_BIN" plot "$TMP/none"
expect_grep "no results here" "$TMP/err"
expect_status 2 "$SKSIM_BIN" plot
echo "ok"
