#!/usr/bin/env bash
# `bottlenecks diff` of two 1.1M-node profiles × 5 runs per side (docs/performance.md, "The diff
# gate"; target under 2 s of wall): ten `generate --nodes 1.1M --seed 1..10` profiles, seeds 1-5
# the candidate runs and 6-10 the baseline, timed by farm-bench as whole processes.
#
#   bench/diff/speed.sh BUILD_DIR [OTHER_BOTTLENECKS] [PAIRS]
#     BUILD_DIR is built (bench/common/build.sh) and its bottlenecks timed, PAIRS times (default
#     15); with OTHER_BOTTLENECKS (another build's binary, e.g. the commit before) the two run in
#     turn and farm-bench gives their paired ratio. Their outputs are compared first: a change
#     of speed must not change the report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/bench/common/build.sh"
build=${1:?usage: speed.sh BUILD_DIR [OTHER_BOTTLENECKS] [PAIRS]}
other=${2:-}
pairs=${3:-15}
command -v farm-bench >/dev/null || { echo "speed.sh: needs farm-bench (the workplace's timer)" >&2; exit 1; }
bn_bench_build "$build" bottlenecks
build=$(cd "$build" && pwd)
profiles=$build/bench-profiles/diff
mkdir -p "$profiles"
for seed in $(seq 10); do
  p=$profiles/g$seed.bnp
  [ -f "$p" ] || "$build/bottlenecks" generate --nodes 1.1M --seed "$seed" -o "$p" >&2
done
runs=("$profiles"/g{1..5}.bnp --base "$profiles"/g{6..10}.bnp)
if [ -n "$other" ]; then
  cmp -s <("$build/bottlenecks" diff "${runs[@]}") <("$other" diff "${runs[@]}") ||
    echo "speed.sh: the two builds' reports differ" >&2
  farm-bench -n "$pairs" --timeout 900 --vs "$other diff ${runs[*]}" -- "$build/bottlenecks" diff "${runs[@]}"
else
  farm-bench -n "$pairs" --timeout 900 -- "$build/bottlenecks" diff "${runs[@]}"
fi
