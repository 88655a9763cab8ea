#!/usr/bin/env bash
# What one instrumented call costs (docs/performance.md, "Call-tree mode"):
#
#   bench/calltree/micro.sh BUILD_DIR [RUNS] [ROUNDS]
#
# ProbeMicro.java makes 4,010,000 calls a round (ROUNDS, default 30) through three small
# methods, all instrumented (include=ProbeMicro,trivial=count). Each clock (tick, exact) runs
# against no agent under bench/common/interleave.sh (RUNS pairs, default 2); the CPU seconds the
# agent adds, divided by the calls, is the probes' cost per call.
set -euo pipefail
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: micro.sh BUILD_DIR [RUNS] [ROUNDS]}" && pwd)
runs=${2:-2}
rounds=${3:-30}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
cmake --build "$build" -j2 --target bottlenecks-agent >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" -d "$work" "$here/ProbeMicro.java"
echo "calls: $((rounds * 4010000)) per run"
for clock in tick exact; do
  echo "== clock=$clock against no agent; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  bn_interleave "$runs" 0 "$java_home/bin/java -cp $work ProbeMicro $rounds" "$java_home/bin/java" \
    "-agentpath:$build/libbottlenecks-agent.so=mode=calltree,quiet,include=ProbeMicro,trivial=count,clock=$clock,file=$work/run.bnp" \
    -cp "$work" ProbeMicro "$rounds"
done
