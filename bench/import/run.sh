#!/usr/bin/env bash
# Importing collapsed stacks against reading their bytes (docs/performance.md
# "Importing, and against pprof").
#
#   bench/import/run.sh [BUILD_DIR] [SIZE] [RUNS]     (defaults: build-bench, 1.1M, 3)
#
# Converts the synthetic profile of SIZE nodes (cached in BUILD_DIR/bench-profiles, as
# bench/scale makes it) to plain collapsed stacks once (about 1.2 GB at 1.1M nodes: deep stacks
# of long Java names), then times, interleaved (bench/common/interleave.sh) (A B A B ...), `bottlenecks info`
# of that file (import: split, normalise, intern and build the tree, then the shape statistics)
# against `wc -l` of it (reading the bytes and finding the lines). MB/s = file size / A's CPU
# seconds (user + sys).
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
size=${2:-1.1M}
runs=${3:-3}

. "$root/bench/common/build.sh"
bn_bench_build "$build" bottlenecks
collapsed=$(bn_bench_export "$build" "$size" collapsed)
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); $(stat -c %s "$collapsed") bytes of collapsed stacks"
bn_interleave "$runs" 1 "wc -l $collapsed" "$build/bottlenecks" info "$collapsed"
