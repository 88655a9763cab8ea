#!/usr/bin/env bash
# Recorder fidelity against async-profiler (docs/performance.md, "Recorder fidelity").
#
#   bench/fidelity/run.sh BUILD_DIR ASYNC_PROFILER_LIB [ROUNDS] [SECONDS] [INTERVAL] [WORKLOAD]
#   (ASYNC_PROFILER_LIB may also come from $ASYNC_PROFILER_LIB)
#
# ASYNC_PROFILER_LIB is the path of an async-profiler build's libasyncProfiler.so; without it
# (or if the file is absent) the benchmark says so and exits 0: async-profiler is not part of
# this project and nothing here builds it.
#
# Each round runs a workload on the thread "worker" for SECONDS (default 30): WORKLOAD is javac
# (bench/fidelity/JavacWorkload.java, the default: the JDK's compiler compiling generated
# classes) or xml (XmlWorkload.java: parsing, XPath and serializing a generated document). It
# runs once per round, with both profilers loaded in the same JVM, sampling
# at INTERVAL (default 1ms): the agent (stacks=signal, the default) and async-profiler
# (event=cpu, its own default stack walker, on signal 42 so that SIGPROF stays the agent's).
# Both observe the same execution, with the same JIT decisions, so what differs between their
# profiles is their attribution and sampling noise, not the run. bn_fidelity_compare then
# compares the self-time shares of the worker's running samples: total-variation distance
# and top-10 overlap, per round and over all rounds pooled. Then, as a floor for the sampling
# noise, each profiler against itself (first half of the rounds against the second).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:?usage: run.sh BUILD_DIR ASYNC_PROFILER_LIB [ROUNDS] [SECONDS] [INTERVAL] [javac|xml]}
asprof=${2:-${ASYNC_PROFILER_LIB:-}}
rounds=${3:-3}
seconds=${4:-30}
interval=${5:-1ms}
case ${6:-javac} in
  javac) workload=JavacWorkload ;;
  xml) workload=XmlWorkload ;;
  *) echo "fidelity: WORKLOAD is javac or xml, not '$6'" >&2; exit 2 ;;
esac
if [[ -z $asprof || ! -f $asprof ]]; then
  echo "fidelity: no async-profiler library given (or '$asprof' is absent): skipped"
  exit 0
fi
build=$(mkdir -p "$build" && cd "$build" && pwd)
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
if [[ -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DBN_BENCH=ON >/dev/null
else
  cmake -S "$root" -B "$build" -DBN_BENCH=ON -DBN_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target bottlenecks-agent bn_fidelity_compare >/dev/null
compare=$build/bench/fidelity/bn_fidelity_compare
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" -d "$work" "$here/$workload.java"
interval_ns=$(awk -v i="$interval" 'BEGIN { n = i + 0; u = substr(i, length(n "") + 1);
  print n * (u == "ms" ? 1e6 : u == "us" ? 1e3 : u == "s" ? 1e9 : 1) }')

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $workload, $rounds rounds of $seconds s at $interval"
for ((r = 1; r <= rounds; r++)); do
  "$java_home/bin/java" \
    "-agentpath:$build/libbottlenecks-agent.so=interval=$interval,quiet,file=$work/agent-$r.bnp" \
    "-agentpath:$asprof=start,event=cpu,interval=$interval_ns,signal=42,threads,ann,collapsed,file=$work/asprof-$r.txt" \
    -cp "$work" "$workload" "$seconds" >/dev/null
  echo "round $r, same run:"
  "$compare" worker "$work/agent-$r.bnp" "$work/asprof-$r.txt" | sed 's/^/  /'
done
# Pooled: every round as one profile per profiler (both saw the same runs), which shrinks the
# sampling noise; then, as its floor, each profiler's first half of the rounds against its
# second half (other runs, so this also holds the runs' own variation).
list() { local kind=$1 ext=$2 from=$3 to=$4 out=; for ((r = from; r <= to; r++)); do out+="$work/$kind-$r.$ext,"; done; echo "${out%,}"; }
echo "all $rounds rounds pooled:"
"$compare" worker "$(list agent bnp 1 "$rounds")" "$(list asprof txt 1 "$rounds")" | sed 's/^/  /' | grep -v 'by handshake'
if ((rounds >= 2)); then
  half=$((rounds / 2))
  echo "noise floor, rounds 1-$half against $((half + 1))-$((2 * half)), each profiler against itself:"
  echo "  agent:          $("$compare" worker "$(list agent bnp 1 "$half")" "$(list agent bnp $((half + 1)) $((2 * half)))" | tail -1)"
  echo "  async-profiler: $("$compare" worker "$(list asprof txt 1 "$half")" "$(list asprof txt $((half + 1)) $((2 * half)))" | tail -1)"
fi
