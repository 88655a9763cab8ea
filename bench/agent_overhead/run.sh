#!/usr/bin/env bash
# Recorder overhead: the same CPU-bound workload with no agent, and with the agent at 20 ms and
# 10 ms, interleaved round by round (so drifting machine load hits every variant alike).
# Prints per variant the medians of: the wall time of the measured part, the workers' CPU time
# for the same fixed work (its increase over no agent is what sampling costs the program's
# threads), the sampler thread's own CPU time as a share of one CPU (agent_cpu_ns / duration
# from the profile metadata: every tick and the waits between them), the same per tick (a
# change that makes ticks cheaper shows there even when the interval also changes), the CPU
# time of the first tick (which also names the threads that existed before the agent), and the
# agent's self-estimate (overhead_percent, docs/recorder.md "Overhead").
# Then the one-time cost: the same JVM doing no work (UNITS = 0), with and without the agent at
# 10 ms, interleaved; medians of the process's CPU time (user + sys) and wall time, so agent
# loading, VMInit, the first ticks and the final write show apart from the steady state.
# With ASYNC_PROFILER_LIB set to the path of an async-profiler build's libasyncProfiler.so (not
# part of this project; skipped when unset or absent), a fourth variant runs it at 10 ms
# (event=cpu) in the same rounds, and every variant's process CPU time (user + sys) is printed
# with its increase over no agent: the agent's against async-profiler's at the same interval.
# Results: docs/performance.md, "Recorder overhead".
#
#   bench/agent_overhead/run.sh [BUILD_DIR] [ROUNDS] [THREADS] [UNITS] [IDLE]
# Defaults: 5 rounds, 2 threads, 60000 units (a measured part of ~4.6 s on an idle 2-CPU
# machine: steady state; short runs add the start-up cost to a small denominator).
# IDLE: extra threads parked for the whole run (a server's idle pool threads), default 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-5}
threads=${3:-2}
units=${4:-60000}
idle=${5:-0}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
agent=$build/libbottlenecks-agent.so
cli=$build/bottlenecks
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$java_home/bin/javac" -d "$work" "$here/Workload.java"
declare -A wall cpu self sampler per_tick first proc
variants=(none 20ms 10ms)
asprof=${ASYNC_PROFILER_LIB:-}
[[ -n $asprof && -f $asprof ]] && variants+=(asprof10ms)
TIMEFORMAT='%U %S'
for ((r = 1; r <= rounds; r++)); do
  for v in "${variants[@]}"; do
    if [[ $v == none ]]; then
      { t=$( { time "$java_home/bin/java" -cp "$work" Workload "$threads" "$units" "$idle" >"$work/out"; } 2>&1); }
      out=$(<"$work/out")
    elif [[ $v == asprof10ms ]]; then
      { t=$( { time "$java_home/bin/java" "-agentpath:$asprof=start,event=cpu,interval=10000000,file=$work/ap.txt,collapsed" \
                -cp "$work" Workload "$threads" "$units" "$idle" >"$work/out"; } 2>&1); }
      out=$(tail -1 "$work/out")
    else
      { t=$( { time "$java_home/bin/java" "-agentpath:$agent=interval=$v,quiet,file=$work/$v.bnp" \
                -cp "$work" Workload "$threads" "$units" "$idle" >"$work/out"; } 2>&1); }
      out=$(<"$work/out")
      info=$("$cli" info "$work/$v.bnp")
      self[$v]+="$(awk '$1 == "overhead_percent" {print $2}' <<<"$info") "
      sampler[$v]+="$(awk '$1 == "agent_cpu_ns" {c = $2} $1 == "duration" {d = $2} END {printf "%.3f", c / (d * 1e9) * 100}' <<<"$info") "
      per_tick[$v]+="$(awk '$1 == "agent_cpu_ns" {c = $2} $1 == "ticks" {t = $2} END {printf "%.0f", c / t / 1000}' <<<"$info") "
      first[$v]+="$(awk '$1 == "first_tick_cpu_ns" {printf "%.0f", $2 / 1000}' <<<"$info") "
    fi
    wall[$v]+="${out% *} "
    cpu[$v]+="${out#* } "
    proc[$v]+="$(awk -v u="${t% *}" -v s="${t#* }" 'BEGIN {printf "%.0f", (u + s) * 1000}') "
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
change() { awk -v m="$1" -v b="$2" 'BEGIN {printf "%+.2f%%", (m / b - 1) * 100}'; }
wall_base=$(echo "${wall[none]}" | median)
cpu_base=$(echo "${cpu[none]}" | median)
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds, $threads threads, $units units, $idle idle threads"
printf '%-6s %9s %8s %14s %8s %12s %12s %14s %14s\n' agent wall_ms change worker_cpu_us change sampler_cpu us_per_tick first_tick_us self_estimate
for v in "${variants[@]}"; do
  w=$(echo "${wall[$v]}" | median)
  c=$(echo "${cpu[$v]}" | median)
  s=- p=- t=- f=-
  if [[ $v != none && $v != asprof10ms ]]; then
    s="$(echo "${self[$v]}" | median)%" p="$(echo "${sampler[$v]}" | median)%"
    t=$(echo "${per_tick[$v]}" | median) f=$(echo "${first[$v]}" | median)
  fi
  printf '%-6s %9s %8s %14s %8s %12s %12s %14s %14s\n' "$v" "$w" "$(change "$w" "$wall_base")" "$c" "$(change "$c" "$cpu_base")" "$p" "$t" "$f" "$s"
done
proc_base=$(echo "${proc[none]}" | median)
echo "process CPU (user + sys), medians:"
for v in "${variants[@]}"; do
  p=$(echo "${proc[$v]}" | median)
  printf '  %-10s %8s ms %+8s ms\n' "$v" "$p" "$((p - proc_base))"
done
if [[ " ${variants[*]} " == *" asprof10ms "* ]]; then
  a=$(echo "${proc[10ms]}" | median) b=$(echo "${proc[asprof10ms]}" | median)
  echo "  agent / async-profiler at 10 ms, added process CPU: $(awk -v a="$a" -v b="$b" -v n="$proc_base" 'BEGIN {printf "%.2f", (a - n) / (b - n)}')"
fi
echo "raw process_cpu_ms: $(for v in "${variants[@]}"; do printf '%s %s| ' "$v" "${proc[$v]}"; done)"
echo "raw wall_ms:       none ${wall[none]}| 20ms ${wall[20ms]}| 10ms ${wall[10ms]}"
echo "raw worker_cpu_us: none ${cpu[none]}| 20ms ${cpu[20ms]}| 10ms ${cpu[10ms]}"
echo "raw sampler_cpu:   20ms ${sampler[20ms]}| 10ms ${sampler[10ms]}"

# One-time cost: a JVM that starts, warms up nothing and exits, with and without the agent.
declare -A st_cpu st_wall
TIMEFORMAT='%R %U %S'
for ((r = 1; r <= rounds; r++)); do
  for v in none 10ms; do
    agent_arg=()
    [[ $v != none ]] && agent_arg=("-agentpath:$agent=interval=$v,quiet,file=$work/start.bnp")
    t=$({ time "$java_home/bin/java" "${agent_arg[@]}" -cp "$work" Workload "$threads" 0 >/dev/null; } 2>&1)
    read -r real user sys <<<"$t"
    st_wall[$v]+="$(awk -v r="$real" 'BEGIN {printf "%.0f", r * 1000}') "
    st_cpu[$v]+="$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.0f", (u + s) * 1000}') "
  done
done
echo "start-up (no work, $rounds rounds): process CPU ms / wall ms, medians"
for v in none 10ms; do
  printf '%-6s %9s %9s\n' "$v" "$(echo "${st_cpu[$v]}" | median)" "$(echo "${st_wall[$v]}" | median)"
done
