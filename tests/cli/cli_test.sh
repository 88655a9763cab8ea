#!/usr/bin/env bash
# End-to-end checks of `bottlenecks info` and `convert` through the real binary.
# Usage: cli_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
sample=$src/samples/figure2/figure2.collapsed
source "$(dirname "$0")/testlib.sh"
# Aggregated stacks, so line order and repeated stacks do not matter.
canonical() { awk '{n=$NF; $NF=""; sub(/ $/, ""); c[$0]+=n} END {for (s in c) print s " " c[s]}' "$1" | LC_ALL=C sort; }

case $case in
info_figure2)
  "$bin" info "$sample" >"$work/out" || fail "info exited non-zero"
  grep -qx 'nodes               6 (2 leaves)' "$work/out" || fail "nodes line: $(cat "$work/out")"
  grep -q '^depth *max 4, mean 2.50$' "$work/out" || fail "depth line"
  grep -q '^out-degree *max 2, mean 1.25' "$work/out" || fail "out-degree line"
  grep -q '^total cost *100 samples$' "$work/out" || fail "total line"
  grep -q '^distinct methods *5$' "$work/out" || fail "methods line"
  ;;
info_json)
  "$bin" info "$sample" --json >"$work/out" || fail "info --json exited non-zero"
  for field in '"nodes":6' '"leaves":2' '"max_depth":4' '"total_cost":100' '"metric":"samples"' \
               '"mean_out_degree":"1.25"' '"distinct_methods":5'; do
    grep -qF "$field" "$work/out" || fail "json lacks $field: $(cat "$work/out")"
  done
  [ "$(wc -l <"$work/out")" -eq 1 ] || fail "json is not one line"
  ;;
round_trip)
  # collapsed -> native -> collapsed keeps every stack and count, also on a larger random input.
  awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) { d = 1 + int(rand() * 12); s = "";
         for (j = 0; j < d; j++) s = s (j ? ";" : "") "org.x.C" int(rand() * 9) ".m" int(rand() * 5);
         print s " " 1 + int(rand() * 100) } }' >"$work/random.collapsed"
  for input in "$sample" "$work/random.collapsed"; do
    "$bin" convert "$input" -o "$work/p.bnp" || fail "convert to native"
    "$bin" convert "$work/p.bnp" -o "$work/back.collapsed" || fail "convert back"
    diff <(canonical "$input") <(canonical "$work/back.collapsed") || fail "round trip of $input differs"
  done
  "$bin" convert "$sample" -o "$work/explicit" --to native || fail "--to native"
  "$bin" info "$work/explicit" | grep -q '^format *native$' || fail "--to native wrote no native file"
  ;;
standard_output)
  # `-o -` and `-o /dev/stdout` write to standard output; neither replaces /dev/stdout by a file.
  "$bin" convert "$sample" -o - >"$work/dash" || fail "convert -o - exited non-zero"
  [ "$(canonical "$work/dash")" = "$(canonical "$sample")" ] || fail "convert -o - printed: $(cat "$work/dash")"
  "$bin" convert "$sample" -o /dev/stdout --to collapsed >"$work/devout" || fail "convert -o /dev/stdout failed"
  [ "$(canonical "$work/devout")" = "$(canonical "$sample")" ] || fail "-o /dev/stdout printed: $(cat "$work/devout")"
  [ -L /dev/stdout ] || fail "/dev/stdout is no longer a symlink"
  ls /dev/stdout.tmp.* >/dev/null 2>&1 && fail "a temporary file was left in /dev"
  # A native profile goes through a pipe too, and reads back.
  "$bin" convert "$sample" -o - --to native | cat >"$work/piped.bnp" || fail "native to a pipe"
  "$bin" info "$work/piped.bnp" | grep -q '^total cost *100 samples$' || fail "piped native profile does not read back"
  ;;
convert_keeps_target_on_error)
  echo "precious" >"$work/target.bnp"
  printf 'a;b notanumber\n' >"$work/bad.collapsed"
  expect_error "bad.collapsed:1" "$bin" convert "$work/bad.collapsed" -o "$work/target.bnp"
  [ "$(cat "$work/target.bnp")" = precious ] || fail "target was overwritten"
  [ "$(ls "$work" | wc -l)" -eq 4 ] || fail "temporary files left behind: $(ls "$work")"
  ;;
bad_inputs)
  expect_error "No such file" "$bin" info "$work/missing.bnp"
  expect_error "is a directory" "$bin" info "$work"
  "$bin" convert "$sample" -o "$work/good.bnp" || fail "convert"
  head -c 30 "$work/good.bnp" >"$work/truncated.bnp"
  expect_error "truncated" "$bin" info "$work/truncated.bnp"
  : >"$work/empty.bnp"
  expect_error "the file is empty (0 bytes)" "$bin" info "$work/empty.bnp"
  head -c 4 "$work/good.bnp" >"$work/four-bytes.bnp"
  expect_error "cut off after 4 bytes, inside the 16-byte header of a native profile" "$bin" info "$work/four-bytes.bnp"
  expect_error "cannot run command file '$work': a directory" "$bin" repl "$sample" -f "$work"
  expect_error "not a command file" "$bin" repl "$sample" -f /dev/zero
  printf 'a;;b 3\n' >"$work/empty-frame.collapsed"
  expect_error "empty-frame.collapsed:1" "$bin" info "$work/empty-frame.collapsed"
  ;;
terminal_escapes)
  # A profile whose names hold escape sequences (clear screen, bell, colour, C1 CSI, a
  # right-to-left override): no printer may pass them to the terminal raw.
  printf 'main;evil\033[2J\007.run 30\nmain;red\033[31m.x;c1\302\2332J.y 20\nmain;rtl\342\200\256.z 5\n' \
    >"$work/evil.collapsed"
  "$bin" repl "$work/evil.collapsed" --keep-going \
    -c $'suggest\nselect 1\npath main;red*\nlabel hot\nlabels\npath main;red*;evil*\nset names short\nshow' \
    >"$work/out" 2>"$work/err"
  "$bin" info "$work/evil.collapsed" >>"$work/out" 2>>"$work/err" || fail "info failed"
  # Errors printed by main quote what they were given (here a file name).
  "$bin" info "$work/no-such"$'\033[2J' >>"$work/out" 2>>"$work/err" && fail "info of a missing file succeeded"
  grep -q 'no-such\\x1b\[2J' "$work/err" || fail "the error does not show the file name escaped: $(cat -v "$work/err")"
  grep -q 'evil\\x1b\[2J\\x07.run' "$work/out" || fail "the name is not shown escaped: $(cat -v "$work/out")"
  grep -q 'c1\\u009b2J.y' "$work/out" || fail "the C1 control is not shown escaped: $(cat -v "$work/out")"
  grep -q 'evil\\x1b' "$work/err" || fail "the error does not show the name escaped: $(cat -v "$work/err")"
  for stream in out err; do
    if LC_ALL=C grep -q $'[\001-\010\013-\037\177]\|\302[\200-\237]\|\342\200[\252-\256]' "$work/$stream"; then
      fail "raw control characters reach the terminal on std$stream: $(cat -v "$work/$stream")"
    fi
  done
  ;;
partial_flag)
  "$bin" convert "$sample" -o "$work/good.bnp" || fail "convert"
  size=$(stat -c %s "$work/good.bnp")
  head -c $((size - 3)) "$work/good.bnp" >"$work/cut.bnp"
  # The error says how to read it anyway.
  expect_error "truncated, or the recorder did not finish); --partial reads its complete chunks" "$bin" info "$work/cut.bnp"
  expect_error "; --partial reads" "$bin" repl "$work/cut.bnp" -c suggest
  "$bin" info --partial "$work/cut.bnp" >"$work/out" 2>"$work/err" || fail "--partial failed: $(cat "$work/err")"
  grep -q "warning" "$work/err" || fail "--partial gave no warning"
  grep -q '^nodes *6 ' "$work/out" || fail "--partial lost nodes: $(cat "$work/out")"
  ;;
unknown_command)
  expect_error "unknown command 'frobnicate'; the commands: info, convert, record, repl, generate, flame, diff" \
    "$bin" frobnicate
  ;;
not_a_profile)
  # No line is a stack: not a profile, naming the formats tried. A bad line after a stack: a
  # malformed collapsed file, named by its line.
  printf 'hello world\nthis is not a profile\n' >"$work/notprof.txt"
  expect_error "not a profile this tool reads (native, JFR, pprof or collapsed stacks)" "$bin" info "$work/notprof.txt"
  printf 'a;b 3\nhello world\n' >"$work/bad.collapsed"
  expect_error "bad.collapsed:2: sample count 'world' is not a non-negative integer" "$bin" info "$work/bad.collapsed"
  grep -q "not a profile" "$work/err" && fail "a malformed collapsed file called not a profile"
  ;;
find_word)
  # A plain word is looked for inside names, as pprof's -focus does; a glob matches whole names.
  printf 'x1 3\nx2 4\ny 1\n' >"$work/xs.collapsed"
  "$bin" repl "$work/xs.collapsed" -c 'find x' >"$work/out" || fail "find x"
  grep -q '^find x: 2 methods:' "$work/out" || fail "find x: $(cat "$work/out")"
  "$bin" repl "$work/xs.collapsed" -c 'find x1' >"$work/out" || fail "find x1"
  grep -q '^find x1: 1 method:' "$work/out" || fail "find x1 (singular): $(cat "$work/out")"
  "$bin" repl "$work/xs.collapsed" -c 'find x*1' >"$work/out" || fail "find x*1"
  grep -q '^find x\*1: 1 method:' "$work/out" || fail "find x*1: $(cat "$work/out")"
  ;;
autosave_keeps_last)
  # Each scripted session that labels keeps its labels; only the 10 newest sessions' files stay.
  for i in $(seq 1 12); do
    "$bin" repl "$sample" -c 'path a; label hot' >/dev/null 2>"$work/err" || fail "run $i"
  done
  grep -q "unsaved-12.labels" "$work/err" || fail "the 12th session: $(cat "$work/err")"
  kept=$(cd "$XDG_STATE_HOME/bottlenecks" && ls | sort -t- -k2 -n | tr '\n' ' ')
  [ "$kept" = "unsaved-3.labels unsaved-4.labels unsaved-5.labels unsaved-6.labels unsaved-7.labels unsaved-8.labels unsaved-9.labels unsaved-10.labels unsaved-11.labels unsaved-12.labels " ] \
    || fail "kept: $kept"
  ;;
help)
  for sub in info convert; do
    "$bin" "$sub" --help >"$work/out" || fail "$sub --help"
    grep -q "PROFILE" "$work/out" || fail "$sub --help does not document PROFILE"
  done
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
