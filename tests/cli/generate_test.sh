#!/usr/bin/env bash
# End-to-end checks of `bottlenecks generate` through the real binary.
# Usage: generate_test.sh BOTTLENECKS CASE
set -uo pipefail
bin=$1 case=$2
source "$(dirname "$0")/testlib.sh"

case $case in
size_and_seed)
  "$bin" generate --nodes 20k -o "$work/a.bnp" || fail "generate exited non-zero"
  "$bin" info "$work/a.bnp" >"$work/info" || fail "info cannot read the generated profile"
  grep -q '^nodes *20000 ' "$work/info" || fail "nodes line: $(cat "$work/info")"
  grep -q '^distinct methods' "$work/info" || fail "no methods line"
  # The default seed is 1; the same seed gives the same bytes, another seed another profile.
  "$bin" generate --nodes 20000 --seed 1 -o "$work/b.bnp" || fail "generate --seed 1 exited non-zero"
  cmp -s "$work/a.bnp" "$work/b.bnp" || fail "same size and seed gave different files"
  "$bin" generate --nodes 20000 --seed 2 -o "$work/c.bnp" || fail "generate --seed 2 exited non-zero"
  cmp -s "$work/a.bnp" "$work/c.bnp" && fail "different seeds gave the same file"
  ;;
bad_sizes)
  for nodes in 12x -5 "" 1.5G 99; do
    "$bin" generate --nodes "$nodes" -o "$work/x.bnp" >"$work/out" 2>"$work/err" && fail "accepted --nodes '$nodes'"
    [ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected one error line for '$nodes', got: $(cat "$work/err")"
    [ -e "$work/x.bnp" ] && fail "wrote a file for --nodes '$nodes'"
  done
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
