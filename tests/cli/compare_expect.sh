#!/usr/bin/env bash
# `sksim compare` writes compare.md/compare.json and each variant's outputs, prints the table and
# one PASS/FAIL line per expect check, and exits 1 when a check fails.
source "$(dirname "$0")/common.bash"

expect_status 1 "$SKSIM_BIN" compare tests/data/cli_fail.yaml --out "$TMP/fail" --quiet
expect_grep "^PASS always passes: 2 in \[2, 2\]$" "$TMP/out"
expect_grep "^FAIL impossible bound: .* not in \[-inf, -1\]$" "$TMP/out"
expect_grep "^\| +\| +before \| +after \| +change \|$" "$TMP/out"
expect_grep "^\| goodput \(Mbit/s\) +\|" "$TMP/out"
for file in compare.md compare.json before/metrics.json after/metrics.json; do
  [ -s "$TMP/fail/$file" ] || fail "$file missing"
done
expect_grep "^- FAIL impossible bound: " "$TMP/fail/compare.md"
expect_grep "^  \"pass\": false$" "$TMP/fail/compare.json"
if command -v jq >/dev/null; then
  jq -e '.checks | length == 2' "$TMP/fail/compare.json" >/dev/null || fail "compare.json checks"
fi

# all checks pass: exit 0; the report counters are rows of the table
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/ok" --quiet
expect_grep "^PASS goodput is a number: " "$TMP/out"
expect_grep "^\| TcpOutSegs +\|" "$TMP/out"
expect_grep "^\| TcpRetransSegs +\|" "$TMP/out"
expect_grep "^  \"pass\": true$" "$TMP/ok/compare.json"
# compare.md ends with the CPU profile: rows "<host> <cost row>" in ms per variant; both hosts
# copied data (the client from its writer, the server to its reader), and a row that is zero in
# every variant (no request/response work here) is left out
md="$TMP/ok/compare.md"
expect_grep "^## CPU time per operation$" "$md"
expect_grep "^\| client copy_per_kb +\| +[0-9]+\.[0-9] \| +[0-9]+\.[0-9] \|" "$md"
expect_grep "^\| server copy_per_kb +\| +[0-9]+\.[0-9] \| +[0-9]+\.[0-9] \|" "$md"
expect_no_grep "rr_app" "$md"
expect_no_grep "CPU time per operation" "$TMP/out" # printed table: the counters only
# no loss probe or RTO fired here, so no diagnosis table
expect_no_grep "^## Why the loss probes and RTOs fired$" "$md"
expect_grep '^  "timer_diag": \[\],?$' "$TMP/ok/compare.json"

# a lossy link: a TLP and an RTO fire on the client, and the diagnosis table before the profile
# has one row per non-zero class ("<host> <counter>", counts), the same in compare.json
expect_status 0 "$SKSIM_BIN" compare tests/data/observe_loss.yaml --out "$TMP/loss" --quiet
md="$TMP/loss/compare.md"
expect_grep "^## Why the loss probes and RTOs fired$" "$md"
expect_grep "^\| client SksimRTOPeerOther +\| +[1-9][0-9]* \|$" "$md"
expect_no_grep "^\| server Sksim" "$md"
why=$(grep -n '^## Why the loss' "$md" | cut -d: -f1)
[ "$why" -lt "$(grep -n '^## CPU time' "$md" | cut -d: -f1)" ] ||
  fail "the diagnosis table should come before the CPU profile"
expect_grep '"name": "client SksimRTOPeerOther"' "$TMP/loss/compare.json"

# CPU profile rows as counters: report rows in us of CPU time, summed over hosts or of one host,
# and expect checks over them; twice the link rate copies twice the bytes
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_cpu_counters.yaml --out "$TMP/cpu" --quiet
expect_grep "^\| cpu_copy_per_kb +\| +[0-9]+ \| +[0-9]+ \| +\+[0-9.]+% \|$" "$TMP/out"
expect_grep "^\| server.cpu_tcp_rcv_data +\| +[0-9]+ \| +[0-9]+ \|" "$TMP/out"
expect_grep "^PASS twice the bytes, twice the copying: [0-9.]+ in \[1.9, 2.1\]$" "$TMP/out"
sed 's/cpu_copy_per_kb, server/cpu_copy_per_kbb, server/' tests/data/cli_cpu_counters.yaml >"$TMP/bad_cpu.yaml"
expect_status 2 "$SKSIM_BIN" validate "$TMP/bad_cpu.yaml"
expect_grep "bad_cpu.yaml:[0-9]+:[0-9]+: unknown counter 'cpu_copy_per_kbb' in report.counters \(did you mean 'cpu_copy_per_kb'\?\)$" "$TMP/err"

# one flow: no per-flow spread row; several: the slowest flow's goodput in each variant, which
# is at most the total divided by the number of flows
expect_no_grep "slowest flow" "$TMP/out"
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --set workloads.bulk.flows=3 \
  --out "$TMP/three" --quiet
expect_grep "^\| slowest flow, goodput \(Mbit/s\) +\|" "$TMP/out"
expect_no_grep "slowest flow, transactions" "$TMP/out"
# a stream-only scenario has no transactions: no row that would read 0 in every variant
expect_no_grep "^\| transactions/s " "$TMP/out"
if command -v jq >/dev/null; then
  jq -e '(.rows[] | select(.name == "goodput_bps_min_flow") | .values.after) as $m
         | (.rows[] | select(.name == "goodput_bps") | .values.after) as $t
         | $m > 0 and $m <= $t / 3' "$TMP/three/compare.json" >/dev/null ||
    fail "compare.json: slowest flow's goodput missing or above the mean"
fi

# a stream and an rr workload together: each type gets its own slowest-flow row, over its own
# flows only (a stream flow has no transactions, which would make the slowest rr flow 0)
sed 's/^workloads:$/workloads:\n  req: {type: rr, from: client, to: server, flows: 2}/' \
  tests/data/cli_tiny.yaml | sed 's/^    to: server$/    to: server\n    flows: 2/' >"$TMP/mixed.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/mixed.yaml" --out "$TMP/mixed" --quiet
expect_grep "^\| slowest flow, goodput \(Mbit/s\) +\|" "$TMP/out"
expect_grep "^\| slowest flow, transactions/s +\|" "$TMP/out"
expect_grep "^\| transactions/s +\|" "$TMP/out"
if command -v jq >/dev/null; then
  jq -e '(.rows[] | select(.name == "transactions_per_s_min_flow") | .values.after) as $m
         | (.rows[] | select(.name == "transactions_per_s") | .values.after) as $t
         | $m > 0 and $m <= $t / 2' "$TMP/mixed/compare.json" >/dev/null ||
    fail "compare.json: the slowest rr flow is 0 or above the mean of the two rr flows"
fi

# every variant runs with the same seed: --seed, else the base scenario's
expect_grep "^  \"seed\": 1,$" "$TMP/ok/before/metrics.json"
expect_grep "^  \"seed\": 1,$" "$TMP/ok/after/metrics.json"
expect_status 0 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/s5" --seed 5 --quiet
expect_grep "^  \"seed\": 5,$" "$TMP/s5/after/metrics.json"

# a check naming an unknown variant is a scenario error, found before anything runs
sed 's/check: 1 + 1/check: aftr.goodput/' tests/data/cli_fail.yaml >"$TMP/typo.yaml"
expect_status 2 "$SKSIM_BIN" compare "$TMP/typo.yaml" --out "$TMP/typo"
expect_grep "^$TMP/typo.yaml:[0-9]+:[0-9]+: expect 'always passes': column 1: unknown variant 'aftr'" "$TMP/err"
[ ! -e "$TMP/typo" ] || fail "compare ran despite a bad check"
echo "ok"
