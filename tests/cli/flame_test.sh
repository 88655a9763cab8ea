#!/usr/bin/env bash
# End-to-end checks of `bottlenecks flame` through the real binary (README, docs/repl.md). The
# pages' behaviour in a browser is tests/flame/flame_browser_test.cpp.
# Usage: flame_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
sample=$src/samples/figure2/figure2.collapsed
source "$(dirname "$0")/testlib.sh"

case $case in
html_and_svg)
  "$bin" flame "$sample" -o "$work/f.html" || fail "html"
  grep -q '^<!DOCTYPE html>' "$work/f.html" || fail "not a page"
  "$bin" flame "$sample" -o "$work/f.svg" --focus c || fail "svg"
  grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$work/f.svg" || fail "not an SVG"
  [ "$(grep -c '<g class="frame">' "$work/f.svg")" -eq 6 ] || fail "c, d, e and the callers b, a;b, a: $(grep -c '<g class' "$work/f.svg")"
  grep -q 'summary: cum 97 samples, base 15 samples' "$work/f.svg" || fail "focus numbers"
  # Compressed as the name says.
  "$bin" flame "$sample" -o "$work/f.svg.gz" || fail "svg.gz"
  gzip -dc "$work/f.svg.gz" | grep -q '^<svg' || fail "svg.gz is not a gzipped SVG"
  ;;
labels)
  # Labels saved by the REPL are drawn in their own colours.
  "$bin" repl "$sample" -c "path c;d; label hot; path a;c; label cold; save $work/l.labels" >/dev/null || fail "repl"
  "$bin" flame "$sample" --labels "$work/l.labels" -o "$work/l.svg" || fail "flame --labels"
  grep -q 'fill="#1f77b4"' "$work/l.svg" || fail "no frame in the first label's colour"
  grep -q 'fill="#2ca02c"' "$work/l.svg" || fail "no frame in the second label's colour"
  grep -q '>label hot</text>' "$work/l.svg" || fail "no legend"
  ;;
compare)
  small=$src/samples/compare-small
  "$bin" flame "$small/a.collapsed" --base "$small/b.collapsed" -o "$work/d.svg" || fail "compare"
  grep -q 'darkest at |A − B|' "$work/d.svg" || fail "no legend"
  "$bin" flame "$small/a.collapsed" --base "$small/b.collapsed" --normalize total -o "$work/d.html" || fail "normalised"
  grep -q '"comparison":true' "$work/d.html" || fail "no comparison in the data"
  # Several runs per side: frames are the runs' exact means.
  runs=$src/samples/compare-runs
  "$bin" flame "$runs/a1.collapsed" "$runs/a2.collapsed" "$runs/a3.collapsed" --base "$runs/b1.collapsed" \
    --base "$runs/b2.collapsed" -o "$work/runs.svg" || fail "several runs"
  grep -q '^A: cum 10.7 samples, base 10.7 samples$' "$work/runs.svg" || fail "verify is not A's mean 32/3"
  grep -q '^B: cum 29.5 samples' "$work/runs.svg" || fail "compute is not B's mean 59/2"
  ;;
bounded)
  # A large profile: narrow frames are merged, the page says so, and its size stays bounded.
  "$bin" generate --nodes 200k --seed 3 -o "$work/big.bnp" >/dev/null || fail "generate"
  "$bin" flame "$work/big.bnp" -o "$work/big.html" || fail "flame"
  grep -q 'frames merged' "$work/big.html" || fail "nothing merged"
  size=$(stat -c %s "$work/big.html")
  [ "$size" -lt 20000000 ] || fail "page of $size bytes"
  "$bin" flame "$work/big.bnp" --min-width 0 -o "$work/all.svg" || fail "--min-width 0"
  ! grep -q 'frames merged' "$work/all.svg" || fail "--min-width 0 merged frames"
  ;;
short_focus)
  # --focus reads names as the REPL's `path` does: short names, prefixes, globs.
  names=$src/tests/golden/java_names.collapsed
  "$bin" flame "$names" --focus 'SecurityManager.getClassContext' -o "$work/short.svg" || fail "short name"
  grep -q "java.lang.SecurityManager.getClassContext, its callers above" "$work/short.svg" || fail "short focus title"
  "$bin" flame "$names" --focus 'Servlet.service;*CCommandImpl.execute' -o "$work/glob.html" || fail "glob"
  expect_error "--focus 'Nowhere.run': no method matches 'Nowhere.run'" \
    "$bin" flame "$names" --focus 'Nowhere.run' -o "$work/x.html"
  ;;
bad_input)
  expect_error "--focus 'c;a': call sequence \[c;a\] has no root: \[c\] never calls a" \
    "$bin" flame "$sample" --focus 'c;a' -o "$work/x.html"
  expect_error "--focus 'a;;b': empty method name" "$bin" flame "$sample" --focus 'a;;b' -o "$work/x.html"
  expect_error "--focus 'a;..;d': a flame graph draws consecutive calls" \
    "$bin" flame "$sample" --focus 'a;..;d' -o "$work/x.html"
  # A name it does not write is refused, naming those it does, before any work.
  expect_error "cannot write a flame graph to '$work/x.png': name it .html, .htm or .svg" \
    "$bin" flame "$sample" -o "$work/x.png"
  [ ! -e "$work/x.png" ] || fail "x.png written"
  expect_error "cannot write" "$bin" flame "$sample" -o "$work/no/such/dir/x.html"
  expect_error "labels" "$bin" flame "$sample" --labels "$work/missing.labels" -o "$work/x.html"
  [ ! -e "$work/x.html" ] || fail "a failed run left a file"
  ;;
causal)
  # A causal recording's curves below the picture, one chart per target in the order of `causal`.
  rounds=$src/samples/rounds/rounds.bnp
  "$bin" flame "$rounds" -o "$work/r.html" || fail "html"
  [ "$(grep -c '<section id="causal">' "$work/r.html")" -eq 1 ] || fail "no causal section"
  [ "$(grep -c '<svg class="causal-chart"' "$work/r.html")" -eq 2 ] || fail "not one chart per target"
  order=$("$bin" repl "$rounds" --json -c causal 2>/dev/null | tail -n 1 | grep -o '"label":"[^"]*"' | cut -d'"' -f4 |
    tr '\n' ' ')
  [ "$order" = "long-worker short-worker " ] || fail "causal ranks '$order'"
  grep -q '>1. long-worker</text>' "$work/r.html" || fail "first chart is not long-worker"
  grep -q '>2. short-worker</text>' "$work/r.html" || fail "second chart is not short-worker"
  grep -q '>cost 61.5%, if 50% faster +39.1%</text>' "$work/r.html" || fail "not the REPL's numbers"
  grep -q '>off the critical path</text>' "$work/r.html" || fail "no flag"
  "$bin" flame "$rounds" --progress CausalRounds.roundDone -o "$work/r.svg" || fail "svg"
  [ "$(grep -c '<svg class="causal-chart"' "$work/r.svg")" -eq 2 ] || fail "not one SVG chart per target"
  expect_error "no progress point 'nope' (recorded: CausalRounds.roundDone)" \
    "$bin" flame "$rounds" --progress nope -o "$work/x.html"
  # Without experiments: no section, and --progress has nothing to pick from.
  "$bin" flame "$sample" -o "$work/plain.html" || fail "plain"
  ! grep -q 'causal' "$work/plain.html" || fail "a page without experiments mentions causal"
  expect_error "--progress end: this profile has no causal experiments" \
    "$bin" flame "$sample" --progress end -o "$work/x.html"
  [ ! -e "$work/x.html" ] || fail "a failed run left a file"
  ;;
*) fail "unknown case $case" ;;
esac
