#!/bin/sh
# Call sequences with gaps and aspects at scale (docs/performance.md "Aspects").
#
#   bench/aspects/run.sh [BUILD_DIR] [NODES]   (defaults: build-bench, 10000000)
#
# Builds bn_aspects_bench (RelWithDebInfo, the default build) and prints the median CPU and
# wall time of evaluating a sequence with a gap and two aspects on the synthetic tree of NODES
# nodes (seed 1, as `bottlenecks generate --nodes NODES --seed 1`), of its extended downward
# refinement, and of the REPL's `refine below`. Exit status 2 if the first two miss 300 ms.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
nodes=${2:-10000000}

. "$root/bench/common/build_target.sh"
bench_build bn_aspects_bench
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
exec "$build/bench/aspects/bn_aspects_bench" "$nodes" 300
