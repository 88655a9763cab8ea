#!/usr/bin/env bash
# Where a JVM's CPU time goes, by thread (the JIT's compiler threads against the
# program's own, since on a 2-CPU machine the compilers' extra work counts in CPU time but
# partly overlaps in wall time).
#
#   bench/calltree/thread_cpu.sh JAVA ARGS...
#
# Runs the command, reads /proc/PID/task/*/stat every 50 ms and prints, once it has ended, the
# CPU seconds (user + sys) of each group of threads at their last reading, largest first: the
# threads' kernel names with digits dropped ("C2 CompilerThre", "GC Thread#", "worker"; the
# launcher's main thread is "java"). A thread's CPU after its last reading (< 50 ms) is missed.
set -euo pipefail
ticks=$(getconf CLK_TCK)
last=$(mktemp)
trap 'rm -f "$last"' EXIT
declare -A cpu=()
start=$(date +%s.%N)
"$@" >/dev/null 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  for stat in /proc/"$pid"/task/*/stat; do
    line=$(cat "$stat" 2>/dev/null) || continue
    tid=${stat%/stat}
    name=${line#*(}
    read -r -a f <<<"${line##*) }"
    cpu[${tid##*/}]="${name%)*}|$((f[11] + f[12]))" # utime, stime: fields 14 and 15
  done
  sleep 0.05
done
wait "$pid" || true
for tid in "${!cpu[@]}"; do echo "${cpu[$tid]}"; done >"$last"
awk -F'|' -v hz="$ticks" -v wall="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')" '
  { name = $1; sub(/[0-9]+$/, "", name); t[name] += $2; n[name]++; total += $2 }
  END {
    for (g in t) printf "%8.2f s  %3d thread(s)  %s\n", t[g] / hz, n[g], g | "sort -rn"
    close("sort -rn")
    printf "%8.2f s  all threads; wall %.2f s\n", total / hz, wall
  }' "$last"
