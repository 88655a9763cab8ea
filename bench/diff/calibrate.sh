#!/usr/bin/env bash
# The diff gate's false alarms and power on real recordings (docs/performance.md, "The diff
# gate"). Needs jq (apt-get install jq).
#
#   bench/diff/calibrate.sh aa BUILD_DIR RUNS_DIR [SPLITS]
#     A/A: for each RUNS_DIR/PROGRAM/INTERVAL of record_runs.sh and each group size 1, 3 and 5,
#     SPLITS random splits (default 40) of its runs into a candidate and a baseline group of that
#     size, disjoint; prints the share of splits with any significant regression reported (a
#     summary, or the total) and the share that trips the default gate.
#   bench/diff/calibrate.sh power BUILD_DIR PLANTED_DIR [TRIALS]
#     For each extra-EXTRA of record_planted.sh, TRIALS (default 40) draws of 5 candidate runs
#     of it and 5 baseline runs of extra-0; prints the share of trials whose first reported
#     regression is significant and passes through Planted.regression.
# Draws use $RANDOM seeded by BN_SEED (default 1), so a rerun draws the same splits.
set -euo pipefail
mode=${1:?usage: calibrate.sh aa|power BUILD_DIR DIR [N]}
build=$(cd "${2:?usage: calibrate.sh aa|power BUILD_DIR DIR [N]}" && pwd)
dir=${3:?usage: calibrate.sh aa|power BUILD_DIR DIR [N]}
n=${4:-40}
RANDOM=${BN_SEED:-1}
command -v jq >/dev/null || { echo "calibrate.sh: needs jq (apt-get install jq)" >&2; exit 1; }

# draw K FILE...: K of the FILEs at random, one per line, without repetition.
draw() {
  local k=$1; shift
  local -a pool=("$@")
  local i j t
  for ((i = 0; i < k; i++)); do
    j=$((i + RANDOM % (${#pool[@]} - i)))
    t=${pool[i]} pool[i]=${pool[j]} pool[j]=$t
    echo "${pool[i]}"
  done
}

# report CANDIDATES... -- BASELINES...: the diff's JSON.
report() {
  local -a a=() b=()
  while [ "$1" != -- ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  "$build/bottlenecks" diff "${a[@]}" --format json --base "${b[@]}" 2>/dev/null || [ $? -eq 1 ]
}

case $mode in
aa)
  for runs in "$dir"/*/*/; do
    mapfile -t files < <(ls "$runs"run-*.bnp)
    for size in 1 3 5; do
      (( 2 * size <= ${#files[@]} )) || continue
      alarms=0 trips=0
      for ((s = 0; s < n; s++)); do
        mapfile -t picked < <(draw $((2 * size)) "${files[@]}")
        json=$(report "${picked[@]:0:size}" -- "${picked[@]:size}")
        jq -e '([.summaries[] | select(.direction == "regression" and .significant)] | length > 0)
               or (.total != null and .total.significant and .total.difference > 0)' <<<"$json" >/dev/null &&
          alarms=$((alarms + 1))
        [ "$(jq -r .verdict <<<"$json")" = fail ] && trips=$((trips + 1))
      done
      echo "$runs: $size runs per side, $n splits: any significant regression in $alarms ($((100 * alarms / n)) percent), gate tripped in $trips ($((100 * trips / n)) percent)"
    done
  done ;;
power)
  mapfile -t base < <(ls "$dir"/extra-0/run-*.bnp)
  for extra_dir in "$dir"/extra-*/; do
    [ "$extra_dir" = "$dir/extra-0/" ] && continue
    mapfile -t cand < <(ls "$extra_dir"run-*.bnp)
    found=0
    for ((s = 0; s < n; s++)); do
      mapfile -t a < <(draw 5 "${cand[@]}")
      mapfile -t b < <(draw 5 "${base[@]}")
      json=$(report "${a[@]}" -- "${b[@]}")
      jq -e '[.summaries[] | select(.direction == "regression")][0]
             | .significant and (.calls | index("Planted.regression") != null)' <<<"$json" >/dev/null &&
        found=$((found + 1))
    done
    echo "$extra_dir: 5 runs per side, $n trials: Planted.regression first and significant in $found of them ($((100 * found / n)) percent)"
  done ;;
*) echo "calibrate.sh: unknown mode '$mode' (aa, power)" >&2; exit 1 ;;
esac
