#!/usr/bin/env bash
# End-to-end checks of the views through the real binary: a recording opens on CPU time,
# convert keeps per-sample records and exports a view, --base compares the same view of two runs
# as amounts of time and aligns the states of a profile without records, and profiles without
# records get one clear line. The REPL transcripts are golden tests (tests/golden/mail_*, views_*).
# Usage: views_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
mail=$src/samples/mail/mail.bnp
collapsed=$src/samples/figure2/figure2.collapsed
jfr=$src/tests/formats/jfr/figure2.jfr
source "$(dirname "$0")/testlib.sh"
# A transcript's text as one line: the REPL wraps prose at 80 columns.
unwrapped() { tr '\n' ' ' <"$1" | tr -s ' '; }

case $case in
convert_keeps_records)
  # native -> native: the copy has the same views, number for number.
  "$bin" convert "$mail" -o "$work/copy.bnp" || fail "convert to native"
  for view in "thread mail.Sender" server; do
    for model in measured paper "cpus 3"; do
      "$bin" repl "$mail" --view "$view" --model "$model" --json -c "suggest 20" >"$work/a" || fail "repl original"
      "$bin" repl "$work/copy.bnp" --view "$view" --model "$model" --json -c "suggest 20" >"$work/b" || fail "repl copy"
      diff "$work/a" "$work/b" >/dev/null || fail "view $view ($model) differs after convert: $(diff "$work/a" "$work/b" | head -4)"
    done
  done
  ;;
export_view)
  # A view as collapsed stacks, typed time and refinements as frames; a flame-graph tool's input.
  "$bin" convert "$mail" --view "thread mail.Sender" -o "$work/senders.collapsed" 2>"$work/err" || fail "export"
  grep -q 'counts are nanoseconds' "$work/err" || fail "no note on counts: $(cat "$work/err")"
  grep -q ';:MONITOR;:THREAD mail.Composer;@mail.Composer.run;@mail.Mailbox.put;' "$work/senders.collapsed" ||
    fail "no monitor wait with its holder's stack"
  grep -q -v ';:\(RUN\|LOAD\|PRIO\|MONITOR\|WAIT\)\(;\| \)' "$work/senders.collapsed" &&
    fail "a stack without typed time: $(grep -v ':\(RUN\|LOAD\|PRIO\|MONITOR\|WAIT\)' "$work/senders.collapsed" | head -1)"
  "$bin" convert "$mail" --view server --model paper -o "$work/server.collapsed" 2>"$work/err" || fail "export server"
  grep -q 'counts are samples times' "$work/err" || fail "no note on counts: $(cat "$work/err")"
  # It reads back as an ordinary profile.
  "$bin" info "$work/server.collapsed" >/dev/null || fail "exported view does not read back"
  expect_error "collapsed stacks or pprof only" "$bin" convert "$mail" --view server -o "$work/server.bnp"
  ;;
opens_on_cpu)
  # Running threads only, as async-profiler and JFR open, with the switches one command away.
  "$bin" repl "$mail" -c "suggest 3" >"$work/out" || fail "repl"
  grep -q '^CPU: running threads only' "$work/out" || fail "not opened on CPU: $(head -3 "$work/out")"
  grep -q '`set states all` for wall time' "$work/out" || fail "no switch to wall time: $(head -3 "$work/out")"
  unwrapped "$work/out" | grep -q '`threads` and `view thread CLASS` for the threads' || fail "no switch to the threads"
  sed -n '/^HighCum/,$p' "$work/out" | grep -q ':WAIT\|Object.wait' && fail "waiting time in the CPU tree: $(cat "$work/out")"
  "$bin" repl "$mail" --states all -c "suggest 3" >"$work/out" || fail "repl --states all"
  grep -q '^wall time: every sample of every thread' "$work/out" || fail "not wall time: $(head -3 "$work/out")"
  grep -q '`set states running` for CPU time' "$work/out" || fail "no switch back to CPU"
  ;;
compare_views_as_amounts)
  # Compared, the Server View is the CPU time of all threads in nanoseconds, the same amount as
  # the CPU tree's total, not a rate of CPUs; a Thread View is its class's thread time, not 1.
  cpu=$("$bin" repl "$mail" --json -c "suggest 1" | grep -o '"total":"[0-9]*"' | head -1 | grep -o '[0-9]*')
  [ -n "$cpu" ] && [ "$cpu" -gt 1000000 ] || fail "CPU tree total: '$cpu'"
  "$bin" repl "$mail" --base "$mail" --view server --json -c "suggest 1" >"$work/out" || fail "server comparison"
  grep -q "\"a_total\":\"$cpu\"" "$work/out" || fail "A's server total is not $cpu ns: $(grep compare "$work/out")"
  grep -q '"metric":"cpu-time"' "$work/out" || fail "not CPU time: $(head -2 "$work/out")"
  "$bin" repl "$mail" --base "$mail" --view "thread mail.Sender" -c "suggest 1" >"$work/out" || fail "thread comparison"
  unwrapped "$work/out" | grep -q 'not divided by its instances' || fail "no amounts in the header: $(head -3 "$work/out")"
  grep -q '^comparing A = mail.bnp (total 1 thread-time)' "$work/out" && fail "a thread view compared as shares"
  grep -q '^comparing A = mail.bnp (total [0-9.]* s)' "$work/out" || fail "A's total: $(grep comparing "$work/out")"
  ;;
jfr_against_recording)
  # JFR's execution samples are of running threads: the recording is counted alike, and says so.
  "$bin" repl "$jfr" --base "$mail" -c "suggest 2" >"$work/out" 2>"$work/err" || fail "$(cat "$work/err")"
  unwrapped "$work/out" | grep -q 'states: A = figure2.jfr records no thread states (JFR.s execution samples, of threads running Java code); B = mail.bnp counts one sample per runnable thread to match' ||
    fail "no states line: $(head -6 "$work/out")"
  "$bin" repl "$jfr" --base "$mail" --states all -c "suggest 2" >"$work/out" 2>"$work/err" || fail "$(cat "$work/err")"
  unwrapped "$work/out" | grep -q 'states: .*B = mail.bnp counts every sample, waiting threads included: the sides count different states' ||
    fail "no warning of different states: $(head -6 "$work/out")"
  expect_error "states running: A = figure2.jfr has no thread states" "$bin" repl "$jfr" --base "$mail" --states running -c suggest
  ;;
no_records)
  expect_error "view server needs per-sample records, which only a recording made with the agent has" \
    "$bin" repl "$collapsed" --view server -c suggest
  "$bin" repl "$collapsed" -c "threads" >"$work/out" 2>"$work/err" && fail "threads on a collapsed profile"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "not one line: $(cat "$work/err")"
  grep -q "thread classes need per-sample records" "$work/err" || fail "$(cat "$work/err")"
  ;;
base_same_view)
  # A run minus itself: every number of the same view is 0, and B is opened with A's model.
  "$bin" repl "$mail" --base "$mail" --view "thread mail.Sender" -c "suggest 3" >"$work/out" 2>"$work/err" ||
    fail "$(cat "$work/err")"
  grep -q '^view: thread mail.Sender' "$work/out" || fail "no view header: $(head -3 "$work/out")"
  grep -q '^comparing A = mail.bnp' "$work/out" || fail "no comparison header"
  grep -q 'HighCum: 3 of' "$work/out" || fail "no suggestions"
  ;;
bad_view_options)
  expect_error "--model: bad model 'fast'" "$bin" repl "$mail" --model fast -c suggest
  expect_error "unknown view 'sideways'" "$bin" repl "$mail" --view sideways -c suggest
  expect_error "no thread class 'Nobody' when threads are grouped by kind" "$bin" repl "$mail" --view "thread Nobody" -c suggest
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
