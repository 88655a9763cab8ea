#!/bin/sh
# Views at scale (docs/performance.md "Views").
#
#   bench/views/run.sh [BUILD_DIR] [RECORDS]   (defaults: build-bench, 10000000)
#
# Builds bn_views_bench (RelWithDebInfo, the default build) and prints one table: opening a
# synthetic recording of RECORDS per-thread records, building each kind of view from it
# (target 2 s at 10M records, scaled for other sizes), memory per record, and REPL commands on
# the thread and server views (target 100 ms). Exit status 2 if a target is missed.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
records=${2:-10000000}

. "$root/bench/common/build_target.sh"
bench_build bn_views_bench
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GB RAM"
mkdir -p "$build/bench-profiles"
exec "$build/bench/views/bn_views_bench" "$records" 2 100 "$build/bench-profiles/views-$records.bnp" 2>/dev/null
