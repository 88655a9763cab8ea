#!/usr/bin/env bash
# End-to-end checks of profiles with several metrics through the real binary:
# generate --calls, info, --metric wherever a profile is opened, convert, and --base.
# Usage: metrics_test.sh BOTTLENECKS PROJECT_DIR CASE
set -uo pipefail
bin=$1 project=$2 case=$3
source "$(dirname "$0")/testlib.sh"

two="$work/two.bnp"
"$bin" generate --nodes 2000 --calls -o "$two" || fail "generate --calls exited non-zero"
# total_of FILE [ARGS]: the total cost `info` prints for the metric in force.
total_of() { "$bin" info "$@" | sed -n 's/^total cost *\(-\{0,1\}[0-9]*\).*/\1/p'; }

case $case in
info_lists_metrics)
  "$bin" info "$two" >"$work/info" || fail "info exited non-zero"
  grep -q '^metric *samples$' "$work/info" || fail "metric line: $(cat "$work/info")"
  # pprof's unit "count" is named by what it counts.
  grep -q '^other metrics *calls: total [0-9]* calls (--metric calls)$' "$work/info" || fail "no calls line: $(cat "$work/info")"
  "$bin" info "$two" --json >"$work/json" || fail "info --json exited non-zero"
  grep -q '"metrics":\[{"name":"samples","unit":"samples","total_cost":'"$(total_of "$two")"'},{"name":"calls","unit":"count","total_cost":[0-9]*}\]' \
    "$work/json" || fail "info --json metrics: $(cat "$work/json")"
  # --metric makes calls the metric searched: its total is the calls total.
  calls=$(sed -n 's/^other metrics *calls: total \([0-9]*\) calls.*/\1/p' "$work/info")
  [ "$(total_of "$two" --metric calls)" = "$calls" ] || fail "--metric calls total"
  "$bin" info "$two" --metric calls | grep -q '^other metrics *samples: ' || fail "samples not listed under --metric calls"
  # A single-metric profile lists one metric.
  "$bin" info "$project/samples/figure2/figure2.collapsed" --json | grep -q '"metrics":\[{[^}]*}\]' ||
    fail "figure 2 has one metric"
  ;;
unknown_metric)
  expect_error "--metric: no metric 'bogus' in $two (it has samples (samples), calls (count))" \
    "$bin" info "$two" --metric bogus
  expect_error "no metric 'calls'" "$bin" repl "$project/samples/figure2/figure2.collapsed" --metric calls -c suggest
  ;;
convert_keeps_metrics)
  # native -> native and native -> pprof -> native keep both metrics and their totals.
  "$bin" convert "$two" -o "$work/copy.bnp" || fail "convert to native"
  "$bin" convert "$two" -o "$work/two.pb.gz" || fail "convert to pprof"
  "$bin" convert "$work/two.pb.gz" -o "$work/back.bnp" || fail "convert pprof to native"
  for f in "$work/copy.bnp" "$work/back.bnp"; do
    for m in samples calls; do
      [ "$(total_of "$f" --metric $m)" = "$(total_of "$two" --metric $m)" ] || fail "$f: $m total changed"
    done
  done
  # pprof keeps metric 0 as the default sample type; --sample-type picks another.
  [ "$(total_of "$work/two.pb.gz")" = "$(total_of "$two")" ] || fail "pprof default sample type"
  [ "$(total_of "$work/two.pb.gz" --sample-type calls)" = "$(total_of "$two" --metric calls)" ] ||
    fail "--sample-type calls"
  # --metric before a conversion makes that metric the first of the output.
  "$bin" convert "$two" --metric calls -o "$work/calls-first.bnp" || fail "convert --metric calls"
  "$bin" info "$work/calls-first.bnp" | grep -q '^metric *calls$' || fail "calls is not metric 0 after --metric"
  # Collapsed stacks hold one value: the metric in force.
  "$bin" convert "$two" --metric calls -o "$work/calls.collapsed" || fail "convert to collapsed"
  sum=$(awk '{ s += $NF } END { print s }' "$work/calls.collapsed")
  [ "$sum" = "$(total_of "$two" --metric calls)" ] || fail "collapsed calls sum $sum"
  ;;
base_same_metric)
  # --metric applies to both sides; a side without the metric is refused, naming it.
  "$bin" generate --nodes 2000 --calls --seed 2 -o "$work/b.bnp" || fail "generate B"
  "$bin" repl "$two" --base "$work/b.bnp" --metric calls -c suggest >"$work/out" 2>"$work/err" ||
    fail "compare under calls: $(cat "$work/err")"
  grep -q '^metric: calls (count)' "$work/out" || fail "no metric header: $(head -3 "$work/out")"
  "$bin" generate --nodes 2000 -o "$work/one.bnp" || fail "generate one-metric B"
  expect_error "no metric 'calls' in $work/one.bnp" "$bin" repl "$two" --base "$work/one.bnp" --metric calls -c suggest
  # Without --metric both sides search samples, as before.
  "$bin" repl "$two" --base "$work/one.bnp" -c suggest >/dev/null 2>"$work/err" || fail "samples compare: $(cat "$work/err")"
  # `set metric calls` with a B that lacks it: refused, and the session stays on samples.
  "$bin" repl "$two" --base "$work/one.bnp" --keep-going -c 'set metric calls; set' >"$work/out" 2>"$work/err"
  grep -q "no metric 'calls'" "$work/err" || fail "set metric on a B without it: $(cat "$work/err")"
  grep -q '^metric = samples' "$work/out" || fail "metric changed after a refused switch: $(cat "$work/out")"
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
