#!/usr/bin/env bash
# `sksim sweep`: a grid of two values x two seeds gives exactly four sweep.csv rows in grid order
# (first parameter slowest, then seed), each run's outputs under DIR/runs/<key=value>/seed-<n>/,
# and a second invocation skips every run whose metrics.json is complete and rewrites the same
# sweep.csv. Incomplete or interrupted runs, and runs of an edited scenario file, are run again;
# the number of jobs changes nothing.
source "$(dirname "$0")/common.bash"

f=tests/data/cli_tiny.yaml
key=stack.release_sock.resched_every
out="$TMP/sw"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --seeds 2 --variant after --jobs 2 \
  --out "$out"
expect_grep "^sweep: 4 runs \(2 points x 2 seeds x 1 variants\), skipped 0 .*, running 4 on 2 jobs$" "$TMP/out"
expect_grep "^sweep: wrote $out/sweep.csv \(4 rows\)$" "$TMP/out"
csv="$out/sweep.csv"
[ "$(wc -l <"$csv")" -eq 5 ] || { cat "$csv" >&2; fail "expected a header and 4 rows"; }
[ "$(head -n 1 "$csv")" = "$key,seed,variant,goodput_bps,transactions_per_s,TcpOutSegs,TcpRetransSegs,events,wall_s" ] ||
  fail "header: $(head -n 1 "$csv")"
# grid order: the parameter's values in order, seeds (base seed 1 + i) inside
[ "$(tail -n +2 "$csv" | cut -d, -f1-3 | tr '\n' ' ')" = "1,1,after 1,2,after 16,1,after 16,2,after " ] ||
  fail "rows: $(tail -n +2 "$csv" | cut -d, -f1-3 | tr '\n' ' ')"
for v in 1 16; do
  for s in 1 2; do
    m="$out/runs/$key=$v/seed-$s/after/metrics.json"
    [ -s "$m" ] || fail "$m missing"
    expect_grep "^  \"seed\": $s,$" "$m"
  done
done
[ ! -e "$out/runs/$key=1/seed-1/before" ] || fail "--variant after ran before"
# the parameter reached the runs: one row per run, wall_s last; events of equal runs agree
cp "$csv" "$TMP/first.csv"
# cli_tiny.yaml has no start_jitter and no link loss: nothing draws from the seed, so its two
# seeds are one run twice (identical event counts), and the sweep says so on stderr
[ "$(tail -n +2 "$csv" | cut -d, -f1,$(head -n 1 "$csv" | tr , '\n' | grep -n '^events$' | cut -d: -f1) | sort -u | wc -l)" -eq 2 ] ||
  fail "seeds without random draws gave different runs: $(cat "$csv")"
expect_grep "^sksim sweep: warning: no run draws from its seed .*the 2 seeds of each point are the same run" "$TMP/err"
# with a start offset drawn from the seed, or with one seed, there is nothing to warn about
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=16" --seeds 2 --variant after \
  --set workloads.bulk.start_jitter=1ms --out "$TMP/sw-jitter"
expect_no_grep "warning" "$TMP/err"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=16" --variant after --out "$TMP/sw-one"
expect_no_grep "warning" "$TMP/err"
# a key that the variants set, given to both of them, takes away their difference: sweep, compare
# and run say so (naming the variants); one variant alone, or a key no variant sets, is quiet
warned="warning: --(param|set) $key overrides the value that variants before, after give it"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=16" --out "$TMP/sw-both"
expect_grep "^sksim sweep: $warned" "$TMP/err"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "links.wire.rate=1Gbit" --out "$TMP/sw-rate"
expect_no_grep "overrides the value" "$TMP/err"
expect_status 0 "$SKSIM_BIN" compare "$f" --set "$key=4" --out "$TMP/cmp-set"
expect_grep "^sksim compare: $warned" "$TMP/err"
expect_status 0 "$SKSIM_BIN" run "$f" --set "$key=4" --out "$TMP/run-set"
expect_grep "^sksim run: $warned" "$TMP/err"
expect_status 0 "$SKSIM_BIN" run "$f" --variant after --set "$key=4" --out "$TMP/run-one"
expect_no_grep "overrides the value" "$TMP/err"

# run again: every run is skipped and sweep.csv is the same file
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --seeds 2 --variant after --jobs 2 \
  --out "$out"
expect_grep "skipped 4 \(complete metrics.json\), running 0 " "$TMP/out"
cmp "$TMP/first.csv" "$csv" >&2 || fail "sweep.csv changed when every run was skipped"

# an interrupted run and a missing one are run again, the others skipped
sed -i 's/"interrupted": false/"interrupted": true/' "$out/runs/$key=1/seed-2/after/metrics.json"
rm "$out/runs/$key=16/seed-1/after/metrics.json"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --seeds 2 --variant after --out "$out"
expect_grep "skipped 2 \(complete metrics.json\), running 2 " "$TMP/out"
expect_grep "^  \"interrupted\": false,$" "$out/runs/$key=1/seed-2/after/metrics.json"
# same results, except the wall-clock column
diff <(cut -d, -f1-8 "$TMP/first.csv") <(cut -d, -f1-8 "$csv") >&2 || fail "rerun changed results"

# each run records the overrides it ran with; other overrides (here --duration) run it again
sum="$(sha256sum "$f" | cut -d' ' -f1)"
[ "$(tail -n +2 "$out/runs/$key=16/seed-2/after/sweep-overrides.txt")" = "$(printf '%s\n' "$key=16" seed=2)" ] ||
  fail "sweep-overrides.txt: $(cat "$out/runs/$key=16/seed-2/after/sweep-overrides.txt")"
expect_grep "^# scenario sha256 $sum, sksim " "$out/runs/$key=16/seed-2/after/sweep-overrides.txt"
# an edited scenario file runs everything again (a comment is enough: the bytes are hashed)
cp "$f" "$TMP/edited.yaml"
cp -r "$out" "$TMP/sw-edit"
expect_status 0 "$SKSIM_BIN" sweep "$TMP/edited.yaml" --param "$key=1,16" --seeds 2 --variant after \
  --out "$TMP/sw-edit"
expect_grep "skipped 4 \(complete metrics.json\), running 0 " "$TMP/out"
echo "# edited" >>"$TMP/edited.yaml"
expect_status 0 "$SKSIM_BIN" sweep "$TMP/edited.yaml" --param "$key=1,16" --seeds 2 --variant after \
  --out "$TMP/sw-edit"
expect_grep "skipped 0 \(complete metrics.json\), running 4 " "$TMP/out"
cp -r "$out" "$TMP/sw-dur"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --seeds 2 --variant after --out "$TMP/sw-dur" \
  --duration 150ms
expect_grep "skipped 0 \(complete metrics.json\), running 4 " "$TMP/out"
expect_grep "^  \"duration_s\": 0.14999999999999999,$" "$TMP/sw-dur/runs/$key=1/seed-1/after/metrics.json"

# one job at a time gives the same rows (but for wall_s) as two
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --seeds 2 --variant after --jobs 1 \
  --out "$TMP/one" --quiet
[ ! -s "$TMP/out" ] || fail "--quiet printed: $(cat "$TMP/out")"
diff <(cut -d, -f1-8 "$TMP/first.csv") <(cut -d, -f1-8 "$TMP/one/sweep.csv") >&2 ||
  fail "--jobs 1 and --jobs 2 differ"

# two parameters and both variants: 2 x 2 points x 1 seed x 2 variants, variants innermost
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=1,16" --param hosts.server.cpus=1,2 \
  --out "$TMP/two" --quiet
[ "$(tail -n +2 "$TMP/two/sweep.csv" | cut -d, -f1-4 | tr '\n' ' ')" = \
  "1,1,1,before 1,1,1,after 1,2,1,before 1,2,1,after 16,1,1,before 16,1,1,after 16,2,1,before 16,2,1,after " ] ||
  fail "two-parameter rows: $(tail -n +2 "$TMP/two/sweep.csv" | cut -d, -f1-4 | tr '\n' ' ')"
[ -s "$TMP/two/runs/$key=16/hosts.server.cpus=2/seed-1/before/metrics.json" ] || fail "nested run dir"

# the figures: one per metric (when gnuplot is installed)
if command -v gnuplot >/dev/null; then
  for m in goodput_bps transactions_per_s TcpOutSegs TcpRetransSegs; do
    [ -s "$out/plots/$m.png" ] && [ -s "$out/plots/$m.svg" ] && [ -s "$out/plots/$m.dat" ] ||
      fail "figure $m missing"
  done
fi

# a CPU profile row as a report counter is a sweep column, and a resumed sweep reads it back
# from each run's metrics.json (cpu_profile_s) to the same value
c="tests/data/cli_cpu_counters.yaml"
expect_status 0 "$SKSIM_BIN" sweep "$c" --param "workloads.bulk.write_size=64KiB,1MiB" --variant after \
  --out "$TMP/swc"
head -n 1 "$TMP/swc/sweep.csv" | grep -q ',TcpOutSegs,cpu_copy_per_kb,server.cpu_tcp_rcv_data,' ||
  fail "cpu columns: $(head -n 1 "$TMP/swc/sweep.csv")"
awk -F, 'NR > 1 && !($7 > 0) { bad = 1 } END { exit bad }' "$TMP/swc/sweep.csv" ||
  fail "cpu_copy_per_kb not positive: $(cat "$TMP/swc/sweep.csv")"
cp "$TMP/swc/sweep.csv" "$TMP/swc-first.csv"
expect_status 0 "$SKSIM_BIN" sweep "$c" --param "workloads.bulk.write_size=64KiB,1MiB" --variant after \
  --out "$TMP/swc"
expect_grep "skipped 2 \(complete metrics.json\), running 0 " "$TMP/out"
cmp "$TMP/swc-first.csv" "$TMP/swc/sweep.csv" >&2 || fail "resumed sweep read the CPU columns back differently"

# errors are found before anything runs
expect_status 2 "$SKSIM_BIN" sweep "$f" --out "$TMP/e1"
expect_grep "expected at least one --param" "$TMP/err"
expect_status 2 "$SKSIM_BIN" sweep "$f" --param "stack.release_sock.resched_evry=1,2" --out "$TMP/e2"
expect_grep "unknown key 'stack.release_sock.resched_evry'" "$TMP/err"
expect_status 2 "$SKSIM_BIN" sweep "$f" --param "$key=1,0" --out "$TMP/e3"
expect_grep "$key=0/seed-1: " "$TMP/err"
expect_status 2 "$SKSIM_BIN" sweep "$f" --param "$key=1,,2" --out "$TMP/e4"
expect_status 2 "$SKSIM_BIN" sweep "$f" --param "seed=1,2" --out "$TMP/e5"
expect_status 2 "$SKSIM_BIN" sweep "$f" --param "$key=1" --variant nope --out "$TMP/e6"
for d in e1 e2 e3 e4 e5 e6; do [ ! -e "$TMP/$d" ] || fail "$d: ran despite the error"; done

# --duration comes after the --set lines, as for `run`: a warm-up longer than the file's 200 ms
# but shorter than --duration is valid (the base seed's resolution took the --set lines alone)
expect_status 0 "$SKSIM_BIN" run "$f" --variant after --set warmup=250ms --duration 300ms \
  --out "$TMP/w1"
expect_status 0 "$SKSIM_BIN" sweep "$f" --param "$key=16" --variant after --set warmup=250ms \
  --duration 300ms --out "$TMP/w2"
expect_grep "^  \"warmup_s\": 0.25,$" "$TMP/w2/runs/$key=16/seed-1/after/metrics.json"
echo "ok"
