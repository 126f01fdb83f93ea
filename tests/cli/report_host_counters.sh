#!/usr/bin/env bash
# report.counters entries HOST.COUNTER: a row of that host's value whatever report.host says,
# labelled HOST.<full nstat name> in compare.md, compare.json, the counters figure's data,
# `sksim report` and sweep.csv; an unqualified row keeps its meaning (report.host's value, or the
# sum over hosts). TcpOutSegs differs between the two ends of cli_tiny's stream (data one way,
# ACKs the other), so a host's row cannot pass for the sum by accident.
source "$(dirname "$0")/common.bash"

# nstat VARIANT_DIR HOST COUNTER: the value in VARIANT_DIR/HOST.nstat
nstat() {
  awk -v c="$3" '$1 == c { print $2; found = 1 } END { exit !found }' "$1/$2.nstat" ||
    fail "$3 missing from $1/$2.nstat"
}

# cell TABLE LABEL COLUMN: the value in column COLUMN (1 = first variant) of the row LABEL
cell() {
  awk -F'|' -v l="$2" -v c="$3" '{ n = $2; gsub(/ /, "", n) } n == l { v = $(c + 2); gsub(/ /, "", v);
    print v; found = 1 } END { exit !found }' "$1" || fail "no row '$2' in $1"
}

# the counters in file order; the unqualified one first, then both hosts', short names allowed
sed -e 's/^  counters: .*/  counters: [TcpOutSegs, server.TcpOutSegs, client.OutSegs, client.TCPTimeouts]/' \
  tests/data/cli_tiny.yaml >"$TMP/hc.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/hc.yaml" --out "$TMP/sum" --quiet
md="$TMP/sum/compare.md"
[ "$(grep -E '^\| [a-zA-Z.]+ +\|' "$md" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | head -n 4 |
     tr '\n' ' ')" = "TcpOutSegs server.TcpOutSegs client.TcpOutSegs client.TcpExtTCPTimeouts " ] ||
  { cat "$md" >&2; fail "rows not in file order or not labelled HOST.<nstat name>"; }
for col in 1 2; do
  variant=$([ "$col" -eq 1 ] && echo before || echo after)
  c=$(nstat "$TMP/sum/$variant" client TcpOutSegs)
  s=$(nstat "$TMP/sum/$variant" server TcpOutSegs)
  [ "$c" -ne "$s" ] || fail "$variant: client and server sent as many segments ($c): a weak test"
  [ "$(cell "$md" client.TcpOutSegs "$col")" = "$c" ] || fail "$variant: client row is not $c"
  [ "$(cell "$md" server.TcpOutSegs "$col")" = "$s" ] || fail "$variant: server row is not $s"
  [ "$(cell "$md" TcpOutSegs "$col")" = "$((c + s))" ] || fail "$variant: sum row is not $((c + s))"
done
expect_grep '^      "name": "server\.TcpOutSegs",$' "$TMP/sum/compare.json"
if [ -f "$TMP/sum/plots/counters.dat" ]; then # written when gnuplot is installed
  expect_grep "^client.TcpOutSegs $(nstat "$TMP/sum/before" client TcpOutSegs) " "$TMP/sum/plots/counters.dat"
fi

# with report.host, the unqualified row is that host's and the qualified rows do not move
sed -e 's/^report:$/report:\n  host: server/' "$TMP/hc.yaml" >"$TMP/hs.yaml"
expect_status 0 "$SKSIM_BIN" compare "$TMP/hs.yaml" --out "$TMP/host" --quiet
md="$TMP/host/compare.md"
c=$(nstat "$TMP/host/after" client TcpOutSegs)
s=$(nstat "$TMP/host/after" server TcpOutSegs)
[ "$(cell "$md" TcpOutSegs 2)" = "$s" ] || fail "report.host server: unqualified row is not $s"
[ "$(cell "$md" client.TcpOutSegs 2)" = "$c" ] || fail "report.host server: client row is not $c"
[ "$(cell "$md" server.TcpOutSegs 2)" = "$s" ] || fail "report.host server: server row is not $s"

# `sksim report` shows the same labels, from compare.json
sed -e 's/^name: cli_tiny$/name: hc/' "$TMP/hs.yaml" >"$TMP/hc_named.yaml"
mkdir -p "$TMP/res"
cp -r "$TMP/host" "$TMP/res/hc"
expect_status 0 "$SKSIM_BIN" report "$TMP/hc_named.yaml" --results "$TMP/res" --out "$TMP/report.md"
expect_grep "^\| client\.TcpOutSegs +\| +$(cell "$md" client.TcpOutSegs 1) \|" "$TMP/report.md"

# a sweep's column of a named host
expect_status 0 "$SKSIM_BIN" sweep "$TMP/hs.yaml" --param stack.release_sock.resched_every=1 \
  --variant after --out "$TMP/sw"
expect_grep "^stack.release_sock.resched_every,seed,variant,goodput_bps,transactions_per_s,TcpOutSegs,server.TcpOutSegs,client.TcpOutSegs,client.TcpExtTCPTimeouts,events,wall_s$" "$TMP/sw/sweep.csv"
sw="$TMP/sw/runs/stack.release_sock.resched_every=1/seed-1/after"
[ "$(tail -n 1 "$TMP/sw/sweep.csv" | cut -d, -f6-8)" = \
  "$(nstat "$sw" server TcpOutSegs),$(nstat "$sw" server TcpOutSegs),$(nstat "$sw" client TcpOutSegs)" ] ||
  fail "sweep.csv: $(tail -n 1 "$TMP/sw/sweep.csv")"

# errors: FILE:LINE:COL, exit status 2, with a hint (more in tests/bad/report_qualified_*)
sed -e 's/server.TcpOutSegs/sever.TcpOutSegs/' "$TMP/hc.yaml" >"$TMP/bad.yaml"
expect_status 2 "$SKSIM_BIN" compare "$TMP/bad.yaml" --out "$TMP/bad"
expect_grep "^$TMP/bad.yaml:[0-9]+:[0-9]+: unknown host 'sever' in report.counters entry 'sever.TcpOutSegs' \(did you mean 'server'\?\)$" "$TMP/err"
[ ! -e "$TMP/bad" ] || fail "compare ran despite a bad report counter"
echo "ok"
