#!/usr/bin/env bash
# Recorder overhead: the same CPU-bound workload with no agent, and with the agent at 20 ms and
# 10 ms, interleaved round by round (so drifting machine load hits every variant alike).
# Prints per variant the medians of: the wall time of the measured part, the workers' CPU time
# for the same fixed work (its increase over no agent is what sampling costs the program's
# threads), the sampler thread's own CPU time as a share of one CPU (agent_cpu_ns / duration
# from the profile metadata), and the agent's self-estimate (overhead_percent, docs/recorder.md
# "Overhead"). Results: docs/performance.md, "Recorder overhead".
#
#   bench/agent_overhead/run.sh [BUILD_DIR] [ROUNDS] [THREADS] [UNITS] [IDLE]
# IDLE: extra threads parked for the whole run (a server's idle pool threads), default 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-9}
threads=${3:-2}
units=${4:-3000}
idle=${5:-0}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
agent=$build/libbottlenecks-agent.so
cli=$build/bottlenecks
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$java_home/bin/javac" -d "$work" "$here/Workload.java"
declare -A wall cpu self sampler
variants=(none 20ms 10ms)
for ((r = 1; r <= rounds; r++)); do
  for v in "${variants[@]}"; do
    if [[ $v == none ]]; then
      out=$("$java_home/bin/java" -cp "$work" Workload "$threads" "$units" "$idle")
    else
      out=$("$java_home/bin/java" "-agentpath:$agent=interval=$v,quiet,file=$work/$v.bnp" \
              -cp "$work" Workload "$threads" "$units" "$idle")
      info=$("$cli" info "$work/$v.bnp")
      self[$v]+="$(awk '$1 == "overhead_percent" {print $2}' <<<"$info") "
      sampler[$v]+="$(awk '$1 == "agent_cpu_ns" {c = $2} $1 == "duration" {d = $2} END {printf "%.3f", c / (d * 1e9) * 100}' <<<"$info") "
    fi
    wall[$v]+="${out% *} "
    cpu[$v]+="${out#* } "
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
change() { awk -v m="$1" -v b="$2" 'BEGIN {printf "%+.2f%%", (m / b - 1) * 100}'; }
wall_base=$(echo "${wall[none]}" | median)
cpu_base=$(echo "${cpu[none]}" | median)
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds, $threads threads, $units units, $idle idle threads"
printf '%-6s %9s %8s %14s %8s %12s %14s\n' agent wall_ms change worker_cpu_us change sampler_cpu self_estimate
for v in "${variants[@]}"; do
  w=$(echo "${wall[$v]}" | median)
  c=$(echo "${cpu[$v]}" | median)
  s=- p=-
  [[ $v != none ]] && s="$(echo "${self[$v]}" | median)%" && p="$(echo "${sampler[$v]}" | median)%"
  printf '%-6s %9s %8s %14s %8s %12s %14s\n' "$v" "$w" "$(change "$w" "$wall_base")" "$c" "$(change "$c" "$cpu_base")" "$p" "$s"
done
echo "raw wall_ms:       none ${wall[none]}| 20ms ${wall[20ms]}| 10ms ${wall[10ms]}"
echo "raw worker_cpu_us: none ${cpu[none]}| 20ms ${cpu[20ms]}| 10ms ${cpu[10ms]}"
