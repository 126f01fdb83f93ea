#!/usr/bin/env bash
# The `sksim sweep` examples of `sksim sweep --help` and of README.md resolve: every run of their
# grid is a valid scenario. A sweep resolves every run before it checks memory, so with
# --max-memory 1 a valid grid is refused for memory (exit 2, "would need ~") and an invalid
# one fails first with the scenario error. (The README's example once swept hosts.server.cpus
# down to 1 on example.yaml, whose server takes its interrupt on CPU 1.) Then what example.yaml's
# header says about its variants.
source "$(dirname "$0")/common.bash"

# each example, its backslash continuations joined, one per line
help_examples() {
  "$SKSIM_BIN" sweep --help | sed -n '/^Examples:/,/^$/p' | sed -e 's/^ *//' |
    sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^sksim sweep '
}
readme_examples() {
  sed -n '/^### `sksim sweep/,/^### /p' README.md | sed -n '/^```sh/,/^```/p' |
    sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^\./build/sksim sweep ' |
    sed -e 's|^\./build/sksim |sksim |'
}

n=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  n=$((n + 1))
  read -r -a argv <<<"${line#sksim }"
  # a later --out wins over the example's own
  expect_status 2 "$SKSIM_BIN" "${argv[@]}" --max-memory 1 --out "$TMP/ex$n" ||
    fail "example $n: $line"
  grep -q "would need ~" "$TMP/err" || { cat "$TMP/err" >&2; fail "example $n does not resolve: $line"; }
  expect_no_grep "warning: no run draws from its seed" "$TMP/err"
  expect_no_grep "overrides the value that variant" "$TMP/err"
done < <(help_examples; readme_examples)
[ "$n" -ge 4 ] || fail "found $n sweep examples, expected 2 in --help and 2 in README.md"

# example.yaml's header says its two variants are the same run (nothing else on the receiver's
# CPU, so cond_resched() never yields): the same fingerprints
expect_status 0 "$SKSIM_BIN" compare scenarios/example.yaml --duration 300ms --fingerprint \
  --out "$TMP/example"
[ "$(grep -c '^fingerprint ' "$TMP/out")" -eq 2 ] || fail "expected two fingerprints"
[ "$(grep '^fingerprint ' "$TMP/out" | sort -u | wc -l)" -eq 1 ] ||
  fail "example.yaml's variants differ: $(grep '^fingerprint ' "$TMP/out")"
echo "ok"
