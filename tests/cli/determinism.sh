#!/usr/bin/env bash
# The same scenario and seed give the same results: every output file identical between two
# runs except the "sim" block of metrics.json (wall-clock time), and identical fingerprints.
source "$(dirname "$0")/common.bash"

f=scenarios/example.yaml
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/a" --fingerprint --quiet
grep '^fingerprint ' "$TMP/out" >"$TMP/fp.a"
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/b" --fingerprint --quiet
grep '^fingerprint ' "$TMP/out" >"$TMP/fp.b"
[ -s "$TMP/fp.a" ] || fail "no fingerprint printed"
cmp -s "$TMP/fp.a" "$TMP/fp.b" || fail "fingerprints differ: $(cat "$TMP/fp.a" "$TMP/fp.b")"

# the "sim" block is last: from its key to the closing brace at the same indent
strip_sim() { sed '/^  "sim": {$/,/^  }$/d' "$1"; }
n=0
while IFS= read -r file; do
  rel="${file#"$TMP/a/"}"
  [ -f "$TMP/b/$rel" ] || fail "$rel only in the first run"
  if [ "${rel##*/}" = metrics.json ]; then
    grep -q '^  "sim": {$' "$file" || fail "$rel has no sim block"
    diff <(strip_sim "$file") <(strip_sim "$TMP/b/$rel") >&2 || fail "$rel differs"
  else
    cmp "$file" "$TMP/b/$rel" >&2 || fail "$rel differs"
  fi
  n=$((n + 1))
done < <(find "$TMP/a" -type f | sort)
[ "$n" -ge 3 ] || fail "only $n files compared"
[ "$(find "$TMP/b" -type f | wc -l)" -eq "$n" ] || fail "the second run wrote other files"

# compare --jobs 2 runs the variants in two threads: the same files (but the wall-clock "sim"
# block), the same compare.md and compare.json, and the same lines on stdout in variant order
# (but the wall-clock figures) as one after another.
expect_status 0 "$SKSIM_BIN" compare "$f" --duration 300ms --out "$TMP/j1" --fingerprint --jobs 1
sed 's/ wall .*//' "$TMP/out" >"$TMP/out.j1"
expect_status 0 "$SKSIM_BIN" compare "$f" --duration 300ms --out "$TMP/j2" --fingerprint --jobs 2
sed 's/ wall .*//' "$TMP/out" >"$TMP/out.j2"
grep -q '^before: simulated' "$TMP/out.j1" || fail "no summary line from compare"
diff "$TMP/out.j1" "$TMP/out.j2" >&2 || fail "compare --jobs 2 printed other lines"
m=0
for rel in compare.md compare.json before/metrics.json after/metrics.json \
  before/timeseries.csv after/timeseries.csv before/server.nstat after/client.nstat; do
  [ -f "$TMP/j2/$rel" ] || fail "$rel missing with --jobs 2"
  diff <(strip_sim "$TMP/j1/$rel") <(strip_sim "$TMP/j2/$rel") >&2 || fail "$rel differs with --jobs 2"
  m=$((m + 1))
done
echo "ok ($n files; --jobs 2: $m files)"
