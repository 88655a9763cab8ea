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
deep)
  # Seed 004 Table 1's shape: mean depth 60-70 (Trade3: 59.9 and 64.6), max depth 135.
  "$bin" generate --nodes 20k --deep -o "$work/d.bnp" || fail "generate --deep exited non-zero"
  "$bin" info "$work/d.bnp" >"$work/info" || fail "info cannot read the deep profile"
  grep -Eq '^depth +max 135, mean (6[0-9])\.' "$work/info" || fail "depth line: $(grep '^depth' "$work/info")"
  grep -q '^synthetic.shape *deep' "$work/info" || fail "no shape in the metadata: $(cat "$work/info")"
  "$bin" generate --nodes 20k -o "$work/a.bnp" || fail "generate exited non-zero"
  "$bin" info "$work/a.bnp" | grep -Eq '^depth +max [0-9]+, mean (3[5-9]|[45][0-9])\.' || fail "usual shape changed"
  ;;
bad_sizes)
  for nodes in 12x -5 "" 1.5G 99; do
    "$bin" generate --nodes "$nodes" -o "$work/x.bnp" >"$work/out" 2>"$work/err" && fail "accepted --nodes '$nodes'"
    [ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected one error line for '$nodes', got: $(cat "$work/err")"
    [ -e "$work/x.bnp" ] && fail "wrote a file for --nodes '$nodes'"
  done
  ;;
fleet_hosts)
  # stacks FILE: the profile's stacks, without their counts, sorted.
  stacks() {
    "$bin" convert "$1" -o "$1.collapsed" || fail "convert $1 exited non-zero"
    sed 's/ [0-9]*$//' "$1.collapsed" | sort >"$1.stacks"
  }
  for host in 1 2; do
    "$bin" generate --nodes 20k --host "$host" -o "$work/h$host.bnp" || fail "generate --host $host exited non-zero"
    stacks "$work/h$host.bnp"
  done
  "$bin" generate --nodes 20k --host 1 -o "$work/again.bnp" || fail "generate --host 1 exited non-zero"
  cmp -s "$work/h1.bnp" "$work/again.bnp" || fail "the same host twice gave different files"
  cmp -s "$work/h1.bnp" "$work/h2.bnp" && fail "two hosts gave the same file"
  # Same code, each host its own rarely taken paths: most stacks shared, not all.
  all=$(wc -l <"$work/h1.bnp.stacks")
  shared=$(comm -12 "$work/h1.bnp.stacks" "$work/h2.bnp.stacks" | wc -l)
  ((shared * 100 > all * 80)) || fail "host 2 has only $shared of host 1's $all stacks"
  ((shared < all)) || fail "host 2 has every stack of host 1's"
  # Every host's stacks are the program's.
  "$bin" generate --nodes 20k -o "$work/program.bnp" || fail "generate exited non-zero"
  stacks "$work/program.bnp"
  [[ -z $(comm -23 "$work/h1.bnp.stacks" "$work/program.bnp.stacks") ]] || fail "host 1 has stacks the program has not"
  "$bin" info "$work/h1.bnp" | grep -q '^synthetic.host *1$' || fail "no host in the metadata"
  for host in 0 -1 x ""; do
    expect_error "--host" "$bin" generate --nodes 20k --host "$host" -o "$work/x.bnp"
    [ -e "$work/x.bnp" ] && fail "wrote a file for --host '$host'"
  done
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
