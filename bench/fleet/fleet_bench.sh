#!/usr/bin/env bash
# The fleet store at 100, 300 and 1,000 hosts (docs/performance.md, "A fleet in ClickHouse"): a
# synthetic fleet of one program (`generate --host K`: the same call tree on every host, each
# host's own costs and rarely taken paths), version 1.4 on hosts 1..N and 1.5 on hosts
# 1001..1000+N, pushed to a real ClickHouse server started in a scratch directory; then the
# whole slice and a comparison of the two versions read back, beside the same questions asked of
# the files locally.
#
#   bench/fleet/fleet_bench.sh BUILD_DIR [NODES] [STEPS]
# NODES per host (default 20k), STEPS the host counts (default "100 300 1000").
set -euo pipefail
build=$(cd "${1:?usage: fleet_bench.sh BUILD_DIR [NODES] [STEPS]}" && pwd)
nodes=${2:-20k}
steps=${3:-100 300 1000}
bin=$build/bottlenecks
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../tests/cli/testlib.sh"
source "$here/../../tests/fleet/clickhouse_servers.sh"

clickhouse_start_node "$work/ch"
port=$CLICKHOUSE_HTTP_PORT
store=clickhouse://127.0.0.1:$port/fleet
"$bin" push --create --to "$store" >/dev/null

# seconds CMD...: wall seconds of CMD, output discarded; "failed" (and why on stderr) if it fails.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null || { echo "fleet_bench.sh: failed: $*" >&2; echo failed; return; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
q() { clickhouse_query "$port" "$1"; }

printf '| hosts | push, recordings/s | sample rows | bytes on disk per row | per sample | distinct stacks | slice `info` s | slice `diff` s | local `diff` s | slice `diff --runs-by host` s |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
pushed=0
for n in $steps; do
  files=()
  for ((h = pushed + 1; h <= n; h++)); do
    "$bin" generate --nodes "$nodes" --seed 1 --host "$h" -o "$work/v14-$h.bnp"
    "$bin" generate --nodes "$nodes" --seed 1 --host "$((1000 + h))" -o "$work/v15-$h.bnp"
  done
  start=$(date +%s.%N)
  for ((h = pushed + 1; h <= n; h++)); do
    "$bin" push "$work/v14-$h.bnp" --to "$store" --label service=shop --label version=1.4 --label "host=h$h" >/dev/null
    "$bin" push "$work/v15-$h.bnp" --to "$store" --label service=shop --label version=1.5 --label "host=h$h" >/dev/null
  done
  end=$(date +%s.%N)
  rate=$(awk -v k="$((2 * (n - pushed)))" -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", k / (b - a) }')
  pushed=$n
  q "OPTIMIZE TABLE fleet.stacks FINAL" >/dev/null
  q "OPTIMIZE TABLE fleet.frames FINAL" >/dev/null
  rows=$(q "SELECT count() FROM fleet.samples")
  disk=$(q "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'fleet' AND active")
  per_row=$(awk -v d="$disk" -v r="$rows" 'BEGIN { printf "%.1f", d / r }')
  samples=$(q "SELECT sum(value) FROM fleet.samples WHERE metric = 'samples'")
  per_sample=$(awk -v d="$disk" -v r="$samples" 'BEGIN { printf "%.2f", d / r }')
  stacks=$(q "SELECT uniqExact(stack) FROM fleet.samples")
  info_s=$(seconds "$bin" info "$store?service=shop")
  diff_s=$(seconds "$bin" diff "$store?service=shop&version=1.5" --base "$store?service=shop&version=1.4" \
    --fail-if 'cum > 100%' --format json)
  local_s=$(seconds "$bin" diff "$work"/v15-*.bnp --base "$work"/v14-*.bnp --fail-if 'cum > 100%' --format json)
  runs_s=$(seconds "$bin" diff "$store?service=shop&version=1.5" --base "$store?service=shop&version=1.4" \
    --runs-by host --fail-if 'cum > 100%' --format json)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$rate" "$rows" "$per_row" "$per_sample" "$stacks" \
    "$info_s" "$diff_s" "$local_s" "$runs_s"
done
