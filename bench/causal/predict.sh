#!/bin/bash
# Causal predictions checked against real speedups (docs/performance.md, "Causal profiling").
# For each program and target: the program speedup mode=causal predicts at a virtual speedup of
# 50% (one recording per program, speedups=0:50, both targets), and the program speedup measured
# by running the program with the target's work really halved (a program parameter, not an edit
# of the profile), each as 1 - (time per unit of progress, faster) / (time per unit, as it is).
# The real runs alternate as-is and halved, RUNS pairs each, and the medians are compared.
#   bench/causal/predict.sh [SECONDS [RUNS [PROGRAM]]]   (default 30, 3 and every program; from the
#   repository root, after a build)
# Needs jq, and Debian's libh2-java for the real program. BOTTLENECKS and AGENT override the paths
# of build/bottlenecks and build/libbottlenecks-agent.so.
set -euo pipefail
seconds=${1:-30}
runs=${2:-3}
only=${3:-}
root=$PWD
bottlenecks=${BOTTLENECKS:-$root/build/bottlenecks}
agent=${AGENT:-$root/build/libbottlenecks-agent.so}
h2=/usr/share/java/h2.jar
command -v jq >/dev/null || { echo "predict.sh: needs jq (apt-get install jq)" >&2; exit 1; }
[ -r "$h2" ] || { echo "predict.sh: needs $h2 (apt-get install libh2-java)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$h2" "$root"/tests/agent/java/Causal{Rounds,Phases,Contention}.java "$root/bench/causal/H2Clients.java"

# Units of progress per second of one run: the programs print "N rounds|items" over SECONDS, or
# "N requests, R requests/s".
rate() {
  local out
  out=$(java -cp "$work:$h2" "$@" 2>/dev/null)
  case "$out" in
    *requests/s*) sed 's/.*, \([0-9.]*\) requests\/s/\1/' <<<"$out" ;;
    *) awk -v s="$seconds" '{ printf "%.3f\n", $1 / s }' <<<"$out" ;;
  esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| program | target | cost share (CPU) | predicted at 50% (95% interval) | experiments | measured | error |"
echo "|---|---|---|---|---|---|---|"
# program class, progress point, arguments as it is, then per target: method and arguments halved.
while IFS='|' read -r class progress base t1 fast1 t2 fast2; do
  [ -z "$only" ] || [ "$only" = "$class" ] || continue
  file="$work/$class.bnp"
  "$bottlenecks" record --mode causal --speedups 0:50 --progress "$progress" --target "$class.$t1" \
    --target "$class.$t2" -o "$file" --agent "$agent" -- java -cp "$work:$h2" "$class" "$seconds" $base \
    >/dev/null 2>&1
  causal=$("$bottlenecks" repl "$file" --json -c causal | jq -c 'select(.command == "causal")')
  for pair in "$t1|$fast1" "$t2|$fast2"; do
    target=${pair%%|*}
    fast=${pair#*|}
    as_is=() halved=()
    for _ in $(seq "$runs"); do
      as_is+=("$(rate "$class" "$seconds" $base)")
      halved+=("$(rate "$class" "$seconds" $fast)")
    done
    slow=$(printf '%s\n' "${as_is[@]}" | median)
    quick=$(printf '%s\n' "${halved[@]}" | median)
    jq -r --arg m "$class.$target" --arg c "$class" --argjson slow "$slow" --argjson quick "$quick" '
      .targets[] | select(.path == [$m]) as $t | ($t.points[] | select(.speedup == 0.5)) as $p
      | (1 - $slow / $quick) as $real
      | "| \($c) | \($m | split(".") | last) | \($t.cost_share * 1000 | round / 10)% | \($p.program_speedup * 1000 | round / 10)% (\($p.low * 1000 | round / 10) to \($p.high * 1000 | round / 10)) | \($p.experiments) | \($real * 1000 | round / 10)% | \(($p.program_speedup - $real) * 1000 | round / 10) points |"' \
      <<<"$causal"
  done
done <<'CASES'
CausalRounds|CausalRounds.roundDone|2000 1000|longWork|1000 1000|shortWork|2000 500
CausalPhases|CausalPhases.roundDone|1000 1000|parallelWork|500 1000|serialWork|1000 500
CausalContention|CausalContention.itemDone|8 300 100|critical|8 150 100|ownWork|8 300 50
H2Clients|H2Clients.requestDone|4 4000 100|report|4 2000 100|lookups|4 4000 50
CASES
