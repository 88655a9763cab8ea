#!/usr/bin/env bash
# Opening profiles with one and with two metrics (docs/performance.md "Profiles with
# several metrics"), with bench/common/interleave.sh: A and B interleaved, so the ratios hold on a busy machine.
#
#   bench/metrics/run.sh NEW_BOTTLENECKS OLD_BOTTLENECKS [NODES]    (default 1M nodes)
#
# NEW is the build under test, OLD the baseline (main's binary). Prints three reports:
# NEW against OLD on a one-metric profile (must stay near 1), NEW on a two-metric profile
# against the one-metric one, and `set metric calls; suggest` against `suggest`. Quote the
# medians of the CPU ratio and the load average printed before each.
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
new=$1 old=$2 nodes=${3:-1M}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$new" generate --nodes "$nodes" -o "$dir/one.bnp"
"$new" generate --nodes "$nodes" --calls -o "$dir/two.bnp"
uptime
bn_interleave 10 1 "$old info $dir/one.bnp" "$new" info "$dir/one.bnp"
uptime
bn_interleave 10 1 "$new info $dir/one.bnp" "$new" info "$dir/two.bnp"
uptime
bn_interleave 6 1 "$new repl $dir/two.bnp -c suggest" \
  "$new" repl "$dir/two.bnp" -c "set metric calls; suggest"
