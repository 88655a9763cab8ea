#!/bin/sh
# Writes a profile of one degenerate shape as collapsed stacks (docs/performance.md "Extreme
# shapes"), for tests/cli/shapes_test.sh at small sizes and bench/shapes/run.sh at full size.
#
#   bench/shapes/make_shape.sh SHAPE N OUT
#
# SHAPE:
#   chain        one method calling itself: main;a;a;...;a, N calls of a, in chains of at most
#                50,000 (each under a caller of its own, t1, t2, ...: the readers refuse stacks
#                deeper than 65,536 frames), the innermost a of each chain costing 100 (a line per
#                frame would make the file quadratic in N), beside main;w costing 50
#   alternating  the same with a and b calling each other: main;a;b;a;b;...
#   distinct     main;m1;m2;...;mN, N methods each calling the next, the innermost costing 100
#   cycle        a recursion whose cycle is N distinct methods long: main;r;c1;...;cN;r;c1;...;cN,
#                the innermost costing 100 (N up to 32,000: the readers' 65,536 frames)
#   deepcycle    the same cycle 12 times (N up to 5,000)
#   cycles       16 recursions, main;t1;..., main;t16;..., each the cycle 4 times (N up to 16,000):
#                the paths of a step nest 4 deep in 16 separate places
#   framework    a framework's recursion (filters, interceptors): r calling f1..f100 calling r again,
#                50 deep (5,050 frames), in N / 5,050 recursions under t1, t2, ...
#   parser       a recursive descent parser's recursion: r calling c1 calling c2 calling r again,
#                N frames in chains of at most 48,000 under t1, t2, ..., the innermost costing 100
#   wide         N methods c1..cN called by main, each costing 1, so main has N children
#   fan          the same with every ci calling one utility u costing 2: u has N callers
#   longname     a method whose name is N bytes (x...x), called by main, beside main;b
#   base         the wide shape again with c1..cN/2 costing 2: the other side of a comparison
# and, for the wide shape, label files (docs/repl.md "Label files"):
#   labels       N labels, w1..wN, each of one summary [main;ci]
#   biglabel     one label, wide, of the N summaries [main;ci]
set -eu
shape=$1 n=$2 out=$3
LC_ALL=C awk -v shape="$shape" -v n="$n" '
# k copies of s, by doubling (appending a frame at a time copies the line each time).
function repeat(s, k,    out) {
  out = ""
  for (; k > 0; k = int(k / 2)) {
    if (k % 2 == 1) out = out s
    s = s s
  }
  return out
}
function chain(first, second,    left, len, t) {
  left = n; t = 0
  while (left > 0) {
    len = left < 50000 ? left : 50000; left -= len; t++
    print "main;t" t repeat(";" first ";" second, int(len / 2)) (len % 2 == 1 ? ";" first : "") " 100"
  }
  print "main;w 50"
}
BEGIN {
  if (shape == "chain") chain("a", "a")
  else if (shape == "alternating") chain("a", "b")
  else if (shape == "distinct") {
    printf "main"; for (i = 1; i <= n; i++) printf ";m%d", i; print " 100"
  } else if (shape == "cycle" || shape == "deepcycle") {
    printf "main"
    for (k = (shape == "cycle" ? 2 : 12); k > 0; k--) { printf ";r"; for (i = 1; i <= n; i++) printf ";c%d", i }
    print " 100"
  } else if (shape == "cycles") {
    cycle = ""; for (i = 1; i <= n; i++) cycle = cycle ";c" i
    for (t = 1; t <= 16; t++) print "main;t" t repeat(";r" cycle, 4) " 100"
  } else if (shape == "framework") {
    cycle = ""; for (i = 1; i <= 100; i++) cycle = cycle ";f" i
    for (t = 1; t <= int(n / 5050); t++) print "main;t" t repeat(";r" cycle, 50) " 100"
  } else if (shape == "parser") {
    left = n; t = 0
    while (left > 0) {
      len = left < 48000 ? left : 48000; left -= len; t++
      s = repeat(";r;c1;c2", int(len / 3))
      print "main;t" t s substr(";r;c1", 1, (len % 3 == 0 ? 0 : len % 3 == 1 ? 2 : 5)) " 100"
    }
  } else if (shape == "wide") for (i = 1; i <= n; i++) print "main;c" i " 1"
  else if (shape == "fan") for (i = 1; i <= n; i++) print "main;c" i ";u 2"
  else if (shape == "longname") {
    s = "x"; while (length(s) * 2 <= n) s = s s
    s = s substr(s, 1, n - length(s))
    print "main;" s " 3"; print "main;b 1"
  } else if (shape == "base") for (i = 1; i <= n; i++) print "main;c" i " " (i <= n / 2 ? 2 : 1)
  else if (shape == "labels") {
    print "# bottlenecks labels v2"
    for (i = 1; i <= n; i++) print "label w" i "\n  main\n  c" i
  } else if (shape == "biglabel") {
    print "# bottlenecks labels v2"
    for (i = 1; i <= n; i++) print "label wide\n  main\n  c" i
  } else { print "unknown shape " shape > "/dev/stderr"; exit 2 }
}' >"$out"
