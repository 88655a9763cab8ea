#!/bin/sh
# Interactive scale benchmark (docs/performance.md "Interactive scale").
#
#   bench/scale/run.sh [BUILD_DIR]      (default: build-bench next to this checkout's sources)
#
# Builds `bottlenecks` and bn_interactive_bench (RelWithDebInfo, the default build), generates
# synthetic profiles of 1.1M and 10M nodes once (cached in BUILD_DIR/bench-profiles, remade when
# the bottlenecks binary is newer), and prints one table per size: load time, file and memory
# bytes per node, and the latency of REPL commands against the issue's targets. Exit status 2
# if any target is missed.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}

# A new build directory gets only what the benchmark needs; an existing one keeps its options.
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DBN_BENCH=ON >/dev/null
else
  cmake -S "$root" -B "$build" -DBN_BENCH=ON -DBN_AGENT=OFF -DBN_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target bottlenecks bn_interactive_bench >/dev/null

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GB RAM, load average $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$build/bench-profiles"
status=0
# size, load target (s), command target (ms)
for spec in "1.1M 0.3 50" "10M 3 300"; do
  set -- $spec
  profile=$build/bench-profiles/synthetic-$1.bnp
  if [ ! -f "$profile" ] || [ "$build/bottlenecks" -nt "$profile" ]; then
    echo "generating $profile ..."
    "$build/bottlenecks" generate --nodes "$1" --seed 1 -o "$profile"
  fi
  echo
  "$build/bench/scale/bn_interactive_bench" "$profile" "$2" "$3" 2>/dev/null || status=$?
done
exit "$status"
