#!/usr/bin/env bash
# `sksim report FILE... --results DIR --out FILE`: one section per scenario with its title, its
# description and published result, the table from compare.json, one PASS/FAIL line per check and
# the figures, linked relative to the report; a scenario without results gets a section saying so.
source "$(dirname "$0")/common.bash"

res="$TMP/res"
# a scenario with a description and a published result (the top-level key `published`)
sed -e 's/^name: cli_tiny$/name: rep_demo/' \
    -e 's/^title: .*/title: "Demo | with a pipe"/' \
    -e '/^seed: 1$/i description: "Resched every 16th backlog skb instead of every one."' \
    -e '/^seed: 1$/i published: "1.2% more throughput on a 100G NIC (patch cover letter)."' \
    tests/data/cli_tiny.yaml >"$TMP/demo.yaml"
expect_status 0 "$SKSIM_BIN" validate "$TMP/demo.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/demo.yaml" --out "$res/rep_demo" --quiet
expect_status 1 "$SKSIM_BIN" compare tests/data/cli_fail.yaml --out "$res/cli_fail" --quiet

mkdir -p "$TMP/site"
expect_status 0 "$SKSIM_BIN" report "$TMP/demo.yaml" tests/data/cli_fail.yaml scenarios/example.yaml \
  --results "$res" --out "$TMP/site/report.md"
expect_grep "^wrote $TMP/site/report.md \(3 scenarios\)$" "$TMP/out"
expect_grep "compare.json" "$TMP/err" # example has no results here: said on stderr too
r="$TMP/site/report.md"
expect_grep "^# sksim report$" "$r"
# the summary table, in argument order, with each scenario's verdict
expect_grep "^\| \[rep_demo\]\(#rep_demo\) \| Demo \\\\\| with a pipe \| PASS 1/1 \|$" "$r"
expect_grep "^\| \[cli_fail\]\(#cli_fail\) \| A check that cannot pass \| FAIL 1/2 \|$" "$r"
expect_grep "^\| \[example\]\(#example\) \| .* \| no results \|$" "$r"
# one section each, in order
[ "$(grep '^## ' "$r" | cut -d: -f1 | tr '\n' ' ')" = "## rep_demo ## cli_fail ## example " ] ||
  fail "sections: $(grep '^## ' "$r")"
expect_grep "^\*\*What the patch changes:\*\* Resched every 16th backlog skb instead of every one\.$" "$r"
expect_grep "^\*\*Published result:\*\* 1\.2% more throughput on a 100G NIC \(patch cover letter\)\.$" "$r"
expect_grep "^\*\*Published result:\*\* \*\(none given: add \`published:\` to the scenario\)\*$" "$r"
# sksim's table and the checks, as compare prints them
expect_grep "^\| +\| +before \| +after \| +change \|$" "$r"
expect_grep "^\| TcpRetransSegs +\| +[0-9]+ \| +[0-9]+ \| +([-+][0-9.]+%|n/a) \|$" "$r"
expect_grep "^- PASS goodput is a number: [0-9.e+]+ in \[0, inf\]$" "$r"
expect_grep "^- PASS always passes: 2 in \[2, 2\]$" "$r"
expect_grep "^- FAIL impossible bound: .* not in \[-inf, -1\]$" "$r"
expect_grep "^\*\*No results:\*\* .*example/compare.json" "$r"
# the check lines are exactly compare's
grep '^PASS\|^FAIL' <("$SKSIM_BIN" compare tests/data/cli_fail.yaml --out "$TMP/again" --quiet || true) |
  sed 's/^/- /' >"$TMP/lines"
grep -A3 '^\*\*Checks' "$r" | grep -F -f "$TMP/lines" >/dev/null || fail "check lines differ from compare's"
# figures: relative links from the report's directory, when gnuplot drew them
if command -v gnuplot >/dev/null; then
  expect_grep "^!\[Retransmissions over time\]\(\.\./res/rep_demo/plots/retrans\.png\)  $" "$r"
  expect_grep "\(\[SVG\]\(\.\./res/rep_demo/plots/retrans\.svg\)\)$" "$r"
  expect_grep "^!\[Report counters\]\(\.\./res/rep_demo/plots/counters\.png\)  $" "$r"
  expect_grep "^!\[Retransmissions over time\]\(\.\./res/cli_fail/plots/retrans\.png\)  $" "$r"
fi
expect_grep "results in \[\`\.\./res/rep_demo/\`\]\(\.\./res/rep_demo/\)" "$r"
# no link to the results directory of a scenario that has none
expect_grep "^Scenario \`scenarios/example.yaml\`; results would be in \`\.\./res/example/\`\.$" "$r"

# where the CPU time moved: nowhere when the variants run alike (resched_every does not matter
# at 1 Gbit/s); with twice the link rate in "after", at most 6 rows, the largest moves first
expect_grep "^\*\*Where the CPU time moved:\*\* nowhere; " "$r"
sed -e 's/^name: cli_tiny$/name: rep_move/' -e 's/^    stack.release_sock.resched_every: 16$/    links.wire.rate: 2Gbit/' \
  tests/data/cli_tiny.yaml >"$TMP/move.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/move.yaml" --out "$res/rep_move" --quiet
expect_status 0 "$SKSIM_BIN" report "$TMP/move.yaml" --results "$res" --out "$TMP/site/move.md"
m="$TMP/site/move.md"
expect_grep "^\*\*Where the CPU time moved\*\* \(ms" "$m"
sed -n '/^\*\*Where the CPU time moved/,/^$/d; /^| \(client\|server\) [a-z_]* /p' "$m" >"$TMP/moved"
[ "$(wc -l <"$TMP/moved")" -ge 1 ] && [ "$(wc -l <"$TMP/moved")" -le 6 ] || fail "moved rows: $(cat "$TMP/moved")"
awk -F'|' '{ d = $4 - $3; if (d < 0) d = -d; if (NR > 1 && d > last + 1e-9) bad = 1; last = d }
           END { exit bad }' "$TMP/moved" || fail "moved rows not largest first: $(cat "$TMP/moved")"

# defaults: RESULTS=out (relative to the working directory), --out RESULTS/report.md
mkdir -p "$TMP/cwd/out"
cp -r "$res/cli_fail" "$TMP/cwd/out/"
(cd "$TMP/cwd" && "$SKSIM_BIN" report "$OLDPWD/tests/data/cli_fail.yaml" >/dev/null) || fail "default report"
expect_grep "^- FAIL impossible bound: " "$TMP/cwd/out/report.md"
if command -v gnuplot >/dev/null; then
  expect_grep "^!\[Retransmissions over time\]\(cli_fail/plots/retrans\.png\)  $" "$TMP/cwd/out/report.md"
fi

# compare --seeds: the mean over the seeds, each check with its interval, the first seed's figures
sed -e 's/^name: cli_tiny$/name: rep_seeds/' tests/data/cli_tiny.yaml >"$TMP/seeds.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/seeds.yaml" --seeds 2 --seed 4 --out "$res/rep_seeds" --quiet
expect_status 0 "$SKSIM_BIN" report "$TMP/seeds.yaml" --results "$res" --out "$TMP/site/seeds.md"
s="$TMP/site/seeds.md"
expect_grep "^\*\*sksim's result\*\* \(the mean over seeds 4 to 5; " "$s"
expect_grep "^- PASS goodput is a number: [0-9.e+]+ in \[0, inf\] \(mean of 2 seeds, 95 % CI .* to .*\)$" "$s"
if command -v gnuplot >/dev/null; then
  expect_grep "^\*\*Figures\*\* \(the runs of seed 4\)$" "$s"
  expect_grep "^!\[Retransmissions over time\]\(\.\./res/rep_seeds/seed-4/plots/retrans\.png\)  $" "$s"
fi

# errors
expect_status 2 "$SKSIM_BIN" report
expect_status 2 "$SKSIM_BIN" report "$TMP/missing.yaml" --results "$res" --out "$TMP/x.md"
[ ! -e "$TMP/x.md" ] || fail "report written despite a missing scenario"
echo "ok"
