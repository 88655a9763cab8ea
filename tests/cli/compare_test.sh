#!/usr/bin/env bash
# End-to-end checks of `bottlenecks repl A --base B`: option errors, empty sides and
# the normalisation header. The transcripts themselves are golden tests (tests/golden/compare_*).
# Usage: compare_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
a=$src/samples/compare-small/a.collapsed
b=$src/samples/compare-small/b.collapsed
source "$(dirname "$0")/testlib.sh"

case $case in
bad_options)
  expect_error "--base" "$bin" repl "$a" --normalize total -c suggest
  expect_error "--base" "$bin" repl "$a" --scale 2 -c suggest
  expect_error "excludes" "$bin" repl "$a" --base "$b" --scale 2 --normalize total -c suggest
  expect_error "^bottlenecks: error: --scale: .-2." "$bin" repl "$a" --base "$b" --scale=-2 -c suggest
  expect_error "--scale: 'x'" "$bin" repl "$a" --base "$b" --scale x -c suggest
  expect_error "missing.collapsed" "$bin" repl "$a" --base "$work/missing.collapsed" -c suggest
  expect_error "sideways" "$bin" repl "$a" --base "$b" --normalize sideways -c suggest
  [ "$(wc -l <"$work/err")" -ge 1 ] || fail "no error line"
  ;;
empty_side)
  # A run that recorded nothing: one stack of count 0 (a 0-byte file is refused as no profile).
  echo "idle 0" >"$work/empty.collapsed"
  "$bin" repl "$a" --base "$work/empty.collapsed" -c suggest >"$work/out" 2>"$work/err" ||
    fail "an empty B was refused: $(cat "$work/err")"
  grep -q '^note: profile B is empty' "$work/out" || fail "empty B not reported: $(cat "$work/out")"
  grep -q '66 100.0% .* 66 *- *\[main\]' "$work/out" || fail "[main] is not A's alone: $(cat "$work/out")"
  "$bin" repl "$work/empty.collapsed" --base "$a" -c suggest >"$work/out" 2>"$work/err" || fail "an empty A was refused"
  grep -q '^note: profile A is empty' "$work/out" || fail "empty A not reported"
  expect_error "profile B's total is 0" "$bin" repl "$a" --base "$work/empty.collapsed" --normalize total -c suggest
  ;;
normalize_total)
  "$bin" repl "$a" --base "$b" --normalize total -c suggest >"$work/out" 2>"$work/err" || fail "$(cat "$work/err")"
  grep -q 'normalisation: total (B × 33/25)$' "$work/out" || fail "header: $(head -2 "$work/out")"
  # The header wraps at 80 columns: read it as one line.
  sed '/^$/q' "$work/out" | tr '\n' ' ' | tr -s ' ' |
    grep -q "the difference sums to 0, so percentages are of A's total 66 samples" || fail "A - (66/50)B does not sum to 0"
  "$bin" repl "$a" --base "$b" --normalize total --json -c suggest >"$work/out" || fail "--json"
  head -1 "$work/out" | grep -qF '"normalization":"total (B × 33/25)"' || fail "json header: $(head -1 "$work/out")"
  ;;
several_runs)
  # Several runs per side: A is the mean of a1..a3, B of b1 and b2.
  runs=$src/samples/compare-runs
  "$bin" repl "$runs/a1.collapsed" "$runs/a2.collapsed" "$runs/a3.collapsed" --base "$runs/b1.collapsed" \
    --base "$runs/b2.collapsed" --json -c 'path main;check;verify' >"$work/out" 2>"$work/err" || fail "$(cat "$work/err")"
  head -1 "$work/out" | grep -qF '"a":["a1.collapsed","a2.collapsed","a3.collapsed"],"a_total":["42","51","41"]' ||
    fail "json header: $(head -1 "$work/out")"
  grep -qF '"summary":{"a":{"base":"32/3","cum":"32/3","present":true}' "$work/out" || fail "mean of verify: $(cat "$work/out")"
  # The same run twice on each side is that run: same numbers as one run per side.
  # After the header (up to its blank line), which names the runs.
  "$bin" repl "$a" "$a" --base "$b" --base "$b" -c 'suggest' | sed '1,/^$/d' >"$work/twice" || fail "twice"
  "$bin" repl "$a" --base "$b" -c 'suggest' | sed '1,/^$/d' | sed 's/ *(within noise)//' >"$work/once" || fail "once"
  sed 's/ *(within noise)//' "$work/twice" | diff "$work/once" - >/dev/null || fail "two copies differ from one run"
  # Without --base, the REPL searches PROFILE's tree and says so (causal pools the recordings'
  # experiments); a flame graph of several runs needs a comparison.
  "$bin" repl "$a" "$a" -c suggest >"$work/alone" 2>&1 || fail "runs alone: $(cat "$work/alone")"
  grep -qF "note: 1 more recording without --base: the tree searched is" "$work/alone" ||
    fail "runs alone, header: $(cat "$work/alone")"
  expect_error "base" "$bin" flame "$a" "$a" -o "$work/two.html"
  ;;
several_runs_bad)
  runs=$src/samples/compare-runs
  # A missing file among several is named.
  expect_error "missing.collapsed" "$bin" repl "$a" --base "$b" --base "$work/missing.collapsed" -c suggest
  expect_error "missing.collapsed" "$bin" repl "$a" "$work/missing.collapsed" --base "$b" -c suggest
  # Runs of one side that measure different metrics cannot be averaged, even with --force.
  "$bin" generate --nodes 200 --calls -o "$work/two.bnp" || fail "generate"
  "$bin" convert "$work/two.bnp" --metric calls -o "$work/calls.bnp" || fail "convert --metric calls"
  expect_error "cannot average the runs of B: run 1 measures samples (samples) but run 2 measures calls (count)" \
    "$bin" repl "$work/two.bnp" --base "$work/two.bnp" --base "$work/calls.bnp" -c suggest
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
