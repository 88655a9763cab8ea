#!/usr/bin/env bash
# The same question asked of pprof and of bottlenecks (docs/performance.md "Importing,
# and against pprof"): which methods hold the most cumulative cost?
#
#   bench/pprof/run.sh [BUILD_DIR] [SIZE] [RUNS]     (defaults: build-bench, 1.1M, 3)
#
# Converts the synthetic profile of SIZE nodes (cached in BUILD_DIR/bench-profiles, as
# bench/scale makes it) to gzipped pprof once, then times, interleaved (bench/common/interleave.sh) (A B A B
# ...), `bottlenecks repl FILE.bnp -c suggest` (open the profile, rank every method by cum, list
# the top 10) against `go tool pprof -top -cum FILE.pb.gz` (open the same profile, rank every
# function by cum, print them). Needs `go` (Debian golang-go; pprof from
# golang-github-google-pprof-dev is what `go tool pprof` runs).
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
size=${2:-1.1M}
runs=${3:-3}
command -v go >/dev/null || { echo "bench/pprof: skipped: no go on PATH"; exit 0; }

. "$root/bench/common/build.sh"
bn_bench_build "$build" bottlenecks
profile=$(bn_bench_profile "$build" "$size")
pprof=$(bn_bench_export "$build" "$size" pb.gz)
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); A = bottlenecks repl -c suggest, B = go tool pprof -top -cum"
bn_interleave "$runs" 1 "go tool pprof -top -cum $pprof" \
  "$build/bottlenecks" repl "$profile" -c suggest
