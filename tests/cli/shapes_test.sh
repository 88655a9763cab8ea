#!/usr/bin/env bash
# Extreme shapes through the real binary: deep recursion, wide nodes, a huge name, many labels,
# a comparison. Sizes are chosen so each case takes seconds; a command gone superlinear on its
# shape would take minutes or gigabytes instead, so every run is bounded by a timeout and a
# memory cap rather than timed (docs/performance.md "Extreme shapes" has the full-size figures).
# Usage: shapes_test.sh BOTTLENECKS SOURCE_DIR CASE [SANITIZED]
set -uo pipefail
bin=$1 src=$2 case=$3 sanitized=${4:-0}
source "$(dirname "$0")/testlib.sh"
make_shape=$src/bench/shapes/make_shape.sh

# run NAME CMD...: CMD's output in $work/NAME.out, its errors in $work/NAME.err; fails the test
# when it fails, runs over 120 s (about 1 s each here) or needs over 2 GB of address space. An
# ASan build reserves terabytes of address space for its shadow memory, so it gets no cap.
run() {
  local name=$1; shift
  (
    [ "$sanitized" = 1 ] || ulimit -v 2097152
    exec timeout 120 "$@"
  ) >"$work/$name.out" 2>"$work/$name.err"
  local status=$?
  [ "$status" -eq 0 ] || fail "$name: exit $status ($([ "$status" -eq 124 ] && echo 'over 120 s'))" \
    "$(head -c 500 "$work/$name.err")"
}
# has NAME TEXT: the output of run NAME holds the line TEXT (leading blanks ignored).
has() { sed 's/^ *//' "$work/$1.out" | grep -xF -- "$2" >/dev/null || fail "$1: no line '$2' in: $(head -c 2000 "$work/$1.out")"; }
# holds NAME TEXT: the output of run NAME holds TEXT.
holds() { grep -qF -- "$2" "$work/$1.out" || fail "$1: no '$2' in: $(head -c 2000 "$work/$1.out")"; }

# The commands every shape goes through that need no method named: the file's shape, a round
# trip through the native format, flame graphs, suggest and autolabel.
common() {
  local p=$1
  run info "$bin" info "$p"
  run convert "$bin" convert "$p" -o "$work/p.bnp"
  run back "$bin" convert "$work/p.bnp" -o "$work/back.collapsed"
  [ "$(LC_ALL=C sort "$p" | md5sum)" = "$(LC_ALL=C sort "$work/back.collapsed" | md5sum)" ] ||
    fail "convert: the round trip changed the stacks"
  run flame "$bin" flame "$work/p.bnp" -o "$work/p.html"
  grep -q '^<!DOCTYPE html>' "$work/p.html" || fail "flame: not a page"
  run autolabel "$bin" repl "$work/p.bnp" -c 'suggest; autolabel; labels'
}

case $case in
recursion | mutual_recursion)
  # main;t1;a;a;...;a (or a;b;a;b;...;b), 50,000 calls deep, beside main;w.
  if [ "$case" = recursion ]; then
    shape=chain two='a;a' zoom_a='0  100 66.7%   100 66.7%  [a;a]' zoom_t1='1  100 66.7%     0 0.0%  [t1;a;a]'
    leaf=a base_all=150
  else
    shape=alternating two='a;b' zoom_a='0  100 66.7%     0 0.0%  [a;b;a]' zoom_t1='1  100 66.7%     0 0.0%  [t1;a;b;a]'
    leaf=b base_all=50
  fi
  "$make_shape" "$shape" 50000 "$work/p.collapsed" || fail "make_shape"
  common "$work/p.collapsed"
  has info 'nodes               50003 (2 leaves)'
  holds info 'depth               max 50002, mean'
  # Zooming stops at the recursion at once, from [a] and from above it.
  run zoom "$bin" repl "$work/p.bnp" -c 'set zoom on; path a; path t1'
  has zoom "$zoom_a"
  has zoom "$zoom_t1"
  has zoom 'zooming stops at recursion: this calls a again (select it to go one call'
  # Extending and trimming one call at a time, deep in the recursion.
  run extend "$bin" repl "$work/p.bnp" -c "path t1;$two; select 0; select 0; select 1"
  has extend "[t1;$two]"
  has extend "[main;t1;$two]"
  has extend "[main;t1;$two;a]"
  has extend "[t1;$two;a]"
  [ "$(grep -c '^  cum  100 samples  (66.7% of total)$' "$work/extend.out")" -eq 4 ] || fail "extend: cums"
  # Every measurement under t1 is below a and the leaf, however deep.
  run refine "$bin" repl "$work/p.bnp" -c 'path t1; refine below'
  holds refine "100 66.7%   100 66.7%  [t1;..;$leaf]"
  run labels "$bin" repl "$work/p.bnp" -c "path a; label rec; path main;w; label w; path t1;a; label deep; labels"
  has labels "all labels together: cum 150 samples (100.0% of total), base $base_all samples ($( [ $base_all = 150 ] && echo 100.0 || echo 33.3)%"
  holds labels "cum 100 samples (66.7% of total), base 0 samples (0.0% of total)"
  # Filters through the whole depth.
  run filters "$bin" repl "$work/p.bnp" -c "exclude t1;$two; suggest 1; unfilter; focus t1;..;$leaf; suggest 1"
  has filters "0   50 100.0%    50 100.0%  [w]"
  has filters "0  100 100.0%   100 100.0%  [$leaf]"
  # The flame graph of [a]: its callers are one frame each, the recursion below it.
  run flame_focus "$bin" flame "$work/p.bnp" --focus a -o "$work/a.html"
  grep -q '"callers":{"depth":\[0,1,2\],' "$work/a.html" || fail "flame --focus a: callers other than a, t1, main"
  grep -q '"focusCum":100,' "$work/a.html" || fail "flame --focus a: cum"
  run repl_flame "$bin" repl "$work/p.bnp" -c "path a; flame $work/r.html"
  ;;
wide | fan)
  # main calling c1..c100000 (and each ci calling u, in the fan).
  "$make_shape" "$case" 100000 "$work/p.collapsed" || fail "make_shape"
  common "$work/p.collapsed"
  if [ "$case" = wide ]; then
    has info 'nodes               100001 (100000 leaves)'
    has info 'out-degree          max 100000, mean 100000 (interior nodes)'
    total=100000
  else
    has info 'nodes               200001 (100000 leaves)'
    total=200000
  fi
  run zoom "$bin" repl "$work/p.bnp" -c 'set zoom on; path main; set zoom off; set limit all; path main; select 99999'
  has zoom "cum  $total samples  (100.0% of total)"
  # Zooming from main takes the 95,000 heaviest children (the cutoff), and lists 5.
  has zoom "... and 94995 more (\`set limit N\` or \`set limit all\` lists them)"
  has zoom "[main;c99999]  (unreliable: under 10 samples)"
  run refine "$bin" repl "$work/p.bnp" -c 'path main; refine below'
  holds refine "  ... and $([ "$case" = wide ] && echo 99995 || echo 99996) more (\`set limit N\` or \`set limit all\` lists them)"
  # Zoomed, the refinement unites a prefix of 95,000 of main;..;x: each built and united by
  # total_cum_of was quadratic (10,000 children: 1.4 s and 758 MB).
  run refine_zoomed "$bin" repl "$work/p.bnp" -c 'set zoom on; path main; refine below'
  holds refine_zoomed "extended downward refinement (zoomed):"
  run filters "$bin" repl "$work/p.bnp" -c 'exclude main;c1; focus main; suggest 1'
  holds filters "filters: exclude main;c1: $((total - total / 100000)) of $total samples (100.0%) kept"
  holds filters "0  $((total - total / 100000)) 100.0%"
  if [ "$case" = fan ]; then
    # u has 100,000 callers, each a top extension.
    run callers "$bin" repl "$work/p.bnp" -c 'path u; set zoom on; path u'
    has callers "cum  200000 samples  (100.0% of total)"
    has callers "... and 99995 more (\`set limit N\` or \`set limit all\` lists them)"
    # `refine split` measures every caller's sequence in two passes over the tree, not one each.
    run split "$bin" repl "$work/p.bnp" -c 'path main;..;u; refine split'
    has split "... and 99995 more (\`set limit N\` or \`set limit all\` lists them)"
    run split_zoomed "$bin" repl "$work/p.bnp" -c 'set zoom on; path main;..;u; refine split'
    has split_zoomed "... and 94995 more (\`set limit N\` or \`set limit all\` lists them)"
  fi
  ;;
distinct)
  # main;m1;...;m30000: zooming from main passes 30,000 summaries, one method longer each time;
  # building each one cost O(depth²) in all (10,000 deep took 8.8 s and 1.25 GB).
  "$make_shape" distinct 30000 "$work/p.collapsed" || fail "make_shape"
  common "$work/p.collapsed"
  run zoom "$bin" repl "$work/p.bnp" -c 'set zoom on; path main; path m15000'
  holds zoom "100 100.0%   100 100.0%  [main;m1;m2;<29995 frames>;m29998;m29999;m30000]"
  holds zoom "100 100.0%     0   0.0%  [main;m1;m2;<14995 frames>;m14998;m14999;m15000]"
  holds zoom "100 100.0%   100 100.0%  [m15000;m15001;<14997 frames>;m29999;m30000]"
  # A recursion whose cycle is 20,000 methods: the two paths of [r;c1;...] nest, the inner one
  # inside the outer one's last node, for the whole cycle.
  "$make_shape" cycle 20000 "$work/c.collapsed" || fail "make_shape"
  run cycle "$bin" repl "$work/c.collapsed" -c 'set zoom on; path r'
  holds cycle "100 100.0%     0 0.0%  [r;c1;c2;c3;<19994 frames>;c19998;c19999;c20000;r]"
  holds cycle "zooming stops at recursion: this calls r again"
  ;;
nested_recursion)
  # Recursions whose calls nest in one another: 16 of a cycle of 8,000 methods, each 4 deep, and
  # a recursive descent parser's r -> c1 -> c2 -> r, 200,000 calls deep. Zooming (and autolabel,
  # which zooms up to 120 times) measures each step by one sweep over the paths: building
  # the steps where more than a few paths nested took O(depth * cycle^2), minutes and gigabytes
  # here.
  "$make_shape" cycles 8000 "$work/p.collapsed" || fail "make_shape"
  common "$work/p.collapsed"
  holds autolabel "0  1600 100.0%     1600 100.0%  auto-1  [c8000]"
  run zoom "$bin" repl "$work/p.bnp" -c 'set zoom on; path r; path c5'
  holds zoom "1  1600 100.0%     0 0.0%  [r;c1;c2;c3;c4;<7993 frames>;c7998;c7999;c8000;r]"
  holds zoom "1  1600 100.0%     0 0.0%  [c5;c6;c7;c8;c9;<7991 frames>;r;c1;c2;c3;c4;c5]"
  "$make_shape" parser 200000 "$work/q.collapsed" || fail "make_shape"
  run parser "$bin" repl "$work/q.collapsed" -c 'set zoom on; path r; path c2; suggest; autolabel'
  holds parser "1  500 100.0%     0 0.0%  [r;c1;c2;r]"
  holds parser "1  500 100.0%   400 80.0%  [c2;r;c1;c2]"
  holds parser "zooming stops at recursion: this calls c2 again"
  ;;
long_name)
  # One method's name is 1 MB (the collapsed-stacks reader takes lines up to 1 MiB): too long
  # for a command line, so the script is a file.
  "$make_shape" longname 1000000 "$work/p.collapsed" || fail "make_shape"
  common "$work/p.collapsed"
  has info 'distinct methods    3'
  name=$(cut -d';' -f2 "$work/p.collapsed" | head -1 | cut -d' ' -f1)
  printf 'path main;%s\nlabel long\nset zoom on\npath main\nshow --full\nrefine below\nexclude %s\nsuggest\nsave %s\n' \
    "$name" "$name" "$work/l.labels" >"$work/long.cmds"
  run long "$bin" repl "$work/p.bnp" -f "$work/long.cmds"
  holds long 'cum  3 samples  (75.0% of total)'
  holds long '0    1 100.0%     1 100.0%  [b]'
  [ "$(wc -c <"$work/l.labels")" -gt 1000000 ] || fail "save: the name was not written whole"
  run load "$bin" repl "$work/p.bnp" -c "load $work/l.labels; labels"
  has load "label long: cum 3 samples (75.0% of total), base 3 samples (75.0% of total)"
  ;;
many_labels)
  # 10,000 labels of one summary each, on the wide shape.
  "$make_shape" wide 10000 "$work/p.collapsed" && "$make_shape" labels 10000 "$work/l.labels" ||
    fail "make_shape"
  run load "$bin" repl "$work/p.collapsed" -c "load $work/l.labels; path main; path main;c5; label w5b; save $work/saved.labels"
  has load "overlap with label w5: cum 1 samples (100.0% of this cum), base 1 samples"
  [ "$(grep -c '^label ' "$work/saved.labels")" -eq 10001 ] || fail "save: not 10,001 labels"
  # `labels` lists the pairs that share cost among 5·10^7: all of them measured afresh after the
  # load, then those of the label that changed, the rest kept.
  run labels "$bin" repl "$work/p.collapsed" -c "load $work/l.labels; labels; path main;c5; label w5b; path main;c6; label w5b; labels"
  has labels "all labels together: cum 10000 samples (100.0% of total), base 10000 samples"
  has labels "w5b and w5: cum 1 samples (0.0% of total), base 1 samples (0.0% of total)"
  has labels "w5b and w6: cum 1 samples (0.0% of total), base 1 samples (0.0% of total)"
  [ "$(grep -c ' and w' "$work/labels.out")" -eq 2 ] || fail "labels: pairs that share nothing listed"
  ;;
big_label)
  # One label of 300,000 summaries: labelling or loading them one by one must not scan the
  # label's list each time (that took 16 s at this size; 10^6 is bench/shapes' figure, kept out
  # of the suite for the sanitized build's memory).
  "$make_shape" wide 300000 "$work/p.collapsed" && "$make_shape" biglabel 300000 "$work/l.labels" ||
    fail "make_shape"
  run convert "$bin" convert "$work/p.collapsed" -o "$work/p.bnp"
  run labels "$bin" repl "$work/p.bnp" -c "load $work/l.labels; labels; path main;c1; unlabel wide; labels"
  has labels "label wide: cum 300000 samples (100.0% of total), base 300000 samples (100.0% of"
  has labels "label wide: cum 299999 samples (100.0% of total), base 299999 samples (100.0% of"
  "$make_shape" wide 10000 "$work/q.collapsed" && "$make_shape" biglabel 10000 "$work/m.labels" || fail "make_shape"
  run flame_labels "$bin" flame "$work/q.collapsed" --labels "$work/m.labels" -o "$work/l.svg"
  grep -q '>label wide</text>' "$work/l.svg" || fail "flame --labels: no legend"
  ;;
compare)
  # A minus B: 100,000 methods, half of them twice as heavy in B; and two recursions.
  "$make_shape" wide 100000 "$work/a.collapsed" && "$make_shape" base 100000 "$work/b.collapsed" ||
    fail "make_shape"
  run wide "$bin" repl "$work/a.collapsed" --base "$work/b.collapsed" -c 'suggest 1; set zoom on; path main; autolabel 3'
  has wide "cum  -50000 samples  (100.0% of total)"
  run flame "$bin" flame "$work/a.collapsed" --base "$work/b.collapsed" -o "$work/d.html"
  "$make_shape" chain 50000 "$work/c.collapsed" && "$make_shape" alternating 20000 "$work/d.collapsed" ||
    fail "make_shape"
  run recursion "$bin" repl "$work/c.collapsed" --base "$work/d.collapsed" -c 'suggest 3; set zoom on; path a; autolabel'
  holds recursion 'zooming stops at recursion'
  ;;
*) fail "unknown case $case" ;;
esac
