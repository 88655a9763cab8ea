#!/usr/bin/env bash
# What mode=causal costs a real program (docs/performance.md, "Causal profiling"): Debian's H2 with
# 4 client threads doing a fixed 1,600 requests (bench/causal/H2Clients.java, SECONDS 0), with no
# agent and with the agent, interleaved (bench/common/interleave.sh), in three variants:
#   sample       the sampler alone, which mode=causal runs beside its experiments;
#   causal-0%    mode=causal with speedups=0: every experiment at 0%, so no pause is inserted and
#                what remains is the sampling's cost (a stack walk per ms of each thread's CPU);
#   causal       mode=causal with its default speedups: the pauses it inserts on purpose too, the
#                method itself; their total (causal.pause_ns of one run) is printed apart.
# warmup=100ms: the experiments start at once (the run is a few seconds).
#   bench/causal/overhead.sh [BUILD_DIR] [RUNS]   (default build and 5; from the repository root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
runs=${2:-5}
h2=/usr/share/java/h2.jar
[ -r "$h2" ] || { echo "overhead.sh: needs $h2 (apt-get install libh2-java)" >&2; exit 1; }
source "$here/../common/interleave.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$h2" "$here/H2Clients.java"
agent="$build/libbottlenecks-agent.so"
program=(-cp "$work:$h2" H2Clients 0)
causal="mode=causal,quiet,warmup=100ms,target=H2Clients.report,target=H2Clients.lookups,progress=H2Clients.requestDone"
declare -A variants=(
  [sample]="mode=sample,quiet"
  [causal-0%]="$causal,speedups=0"
  [causal]="$causal"
)
for name in sample causal-0% causal; do
  echo "== $name"
  bn_interleave "$runs" 1 "java ${program[*]}" \
    java "-agentpath:$agent=${variants[$name]},file=$work/$name.bnp" "${program[@]}"
done
echo "== pauses inserted by one causal run"
"$build/bottlenecks" info "$work/causal.bnp" | grep -E "duration|causal\.(pause_ns|sampling_ns|samples|experiments)"
