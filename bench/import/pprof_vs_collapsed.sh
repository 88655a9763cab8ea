#!/usr/bin/env bash
# Import speed (docs/performance.md "Importing, and against pprof"): the
# same profile opened from pprof and from collapsed stacks, as whole `bottlenecks info` processes
# run in turn (pprof, collapsed, pprof, ...) so that a drift of the machine's speed hits both.
#
#   bench/import/pprof_vs_collapsed.sh [BUILD_DIR] [NODES] [RUNS]     (defaults: build-bench, 1M, 3)
#
# Builds `bottlenecks` (RelWithDebInfo, bench/common/build.sh), writes a synthetic profile of
# NODES nodes once and its plain pprof and collapsed exports (cached in BUILD_DIR/bench-profiles
# as bench/scale makes them, remade when the binary is newer), runs one warm-up pair and RUNS
# counted pairs, and prints each run's CPU seconds (user + system), the medians and the median of
# the pairwise ratios pprof / collapsed. Exit status 2 if that ratio is above the target of 2.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
nodes=${2:-1M}
runs=${3:-3}

. "$root/bench/common/build.sh"
bn_bench_build "$build" bottlenecks
bin=$build/bottlenecks
pprof=$(bn_bench_export "$build" "$nodes" pb)
collapsed=$(bn_bench_export "$build" "$nodes" collapsed)
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: pprof $(stat -c %s "$pprof") bytes, collapsed $(stat -c %s "$collapsed") bytes"

# CPU seconds of one `info` run.
cpu_of() {
  local TIMEFORMAT='%U %S' t
  t=$({ time "$bin" info "$1" >/dev/null 2>&1; } 2>&1)
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f", a[1] + a[2] }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

cpu_of "$pprof" >/dev/null  # warm-up pair: page cache, first faults
cpu_of "$collapsed" >/dev/null
pprof_times="" collapsed_times="" ratios=""
for i in $(seq "$runs"); do
  p=$(cpu_of "$pprof")
  c=$(cpu_of "$collapsed")
  echo "pair $i: pprof $p s, collapsed $c s"
  pprof_times="$pprof_times$p\n" collapsed_times="$collapsed_times$c\n"
  ratios="$ratios$(awk -v p="$p" -v c="$c" 'BEGIN { printf "%.3f", p / c }')\n"
done
p=$(printf "$pprof_times" | median) c=$(printf "$collapsed_times" | median) r=$(printf "$ratios" | median)
echo "median CPU: pprof $p s, collapsed $c s; median ratio pprof / collapsed $r (target <= 2)"
awk -v r="$r" 'BEGIN { exit (r <= 2) ? 0 : 2 }'
