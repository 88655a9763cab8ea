#!/usr/bin/env bash
# What the progress points' probes cost a call (docs/performance.md, "Causal profiling"):
# bench/causal/ProbeCost.java on 1 and 2 threads, with the build's runtime jar.
#   bench/causal/probe_cost.sh [BUILD_DIR]   (default build; from the repository root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
runtime="$build/bottlenecks-runtime.jar"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$runtime" "$here/ProbeCost.java"
for threads in 1 2; do java -Xbootclasspath/a:"$runtime" -cp "$work" ProbeCost "$threads"; done
echo "System.nanoTime: clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
