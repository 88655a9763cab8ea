#!/bin/sh
# Every figure of docs/performance.md's "Interactive scale" and "Labels" (both from bench/scale),
# "Opening a profile" (both shapes) and "Importing, and against pprof" (but the pprof import)
# sections, in one go: run it on an idle machine and compare the output with the
# docs' tables.
#
#   bench/run_all.sh [BUILD_DIR]      (default: build-bench next to this checkout's sources)
#
# The recorder's benchmarks need a JDK (bench/agent_overhead, bench/fidelity) and the views' a
# long recording (bench/views): they are run on their own, as their sections say.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
status=0
echo "bench/run_all.sh at $(git -C "$root" rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
for script in scale/run.sh open/run.sh import/run.sh pprof/run.sh; do
  echo
  echo "=== bench/$script (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  "$root/bench/$script" "$build" || status=$?
done
exit "$status"
