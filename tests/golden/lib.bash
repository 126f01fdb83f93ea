# lib.bash - shared by tests/update-golden and tests/cli/golden.sh (sourced, not run).
# A golden file is a run's metrics.json without its "sim" block (wall-clock time, the only part
# that differs between identical runs): every host's counters and CPU times, per-flow results and
# both fingerprints, exactly as sksim prints them.

GOLDEN_DIR=tests/golden
GOLDEN_SEED=1

# golden_table: "NAME DURATION [SETS...]" lines of durations.txt, comments and blanks dropped.
golden_table() {
  grep -v '^[[:space:]]*\(#\|$\)' "$GOLDEN_DIR/durations.txt"
}

# golden_run BIN NAME DURATION OUTDIR [KEY=VALUE...]: run every variant, write
# OUTDIR/<variant>.json (golden form). Returns sksim's status.
golden_run() {
  local bin="$1" name="$2" dur="$3" out="$4" kv m v
  shift 4
  local sets=()
  for kv in "$@"; do sets+=(--set "$kv"); done
  mkdir -p "$out"
  "$bin" run "scenarios/$name.yaml" --seed "$GOLDEN_SEED" --duration "$dur" "${sets[@]}" \
    --out "$out/raw" --quiet || return $?
  for m in "$out"/raw/*/metrics.json; do
    v="${m%/metrics.json}"
    v="${v##*/}"
    sed '/^  "sim": {$/,/^  }$/d' "$m" | sed -e '$!N;s/,\n}$/\n}/;P;D' >"$out/$v.json"
  done
  rm -rf "$out/raw"
}

# golden_flatten FILE: one "path value" line per scalar of a golden JSON file (pretty-printed
# by sksim: one key per line), e.g. "hosts.server.counters.TcpInSegs 1234", "flows.0.cwnd 10".
golden_flatten() {
  awk '
    function path(   i, p) { p = ""; for (i = 1; i <= d; i++) if (k[i] != "") p = p (p == "" ? "" : ".") k[i]; return p }
    {
      line = $0; sub(/^[ \t]+/, "", line); sub(/,$/, "", line)
      key = ""; val = line
      if (line ~ /^"[^"]*": /) { key = line; sub(/^"/, "", key); sub(/": .*$/, "", key); val = line; sub(/^"[^"]*": /, "", val) }
      if (key == "" && d > 0 && isarr[d] && val !~ /^[]}]/) key = idx[d]++
      if (val == "{" || val == "[") { d++; k[d] = key; isarr[d] = (val == "["); idx[d] = 0; next }
      if (val ~ /^[]}]$/ || val == "[]" && key == "") { d--; next }
      p = path(); print (p == "" ? "" : p ".") key, val
    }' "$1"
}

# golden_diff OLD NEW: what moved, one line per changed value: "path: old -> new (delta, pct)"
# for numbers, "path: old -> new" otherwise, "path: added/removed". Prints nothing when equal.
golden_diff() {
  awk '
    NR == FNR { old[$1] = substr($0, length($1) + 2); order[++n] = $1; next }
    { new[$1] = substr($0, length($1) + 2); if (!($1 in old)) order[++n] = $1 }
    END {
      for (i = 1; i <= n; i++) {
        p = order[i]
        if (!(p in new)) { printf "  %s: %s -> (removed)\n", p, old[p]; continue }
        if (!(p in old)) { printf "  %s: (added) -> %s\n", p, new[p]; continue }
        if (old[p] == new[p]) continue
        o = old[p]; v = new[p]
        if (o ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ && v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) {
          dlt = v - o
          pct = (o != 0) ? sprintf("%+.2f%%", 100 * dlt / o) : "new"
          printf "  %s: %s -> %s (delta %+.6g, %s)\n", p, o, v, dlt, pct
        } else {
          printf "  %s: %s -> %s\n", p, o, v
        }
      }
    }' <(golden_flatten "$1") <(golden_flatten "$2")
}
