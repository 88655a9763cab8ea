#!/bin/sh
# Opening profiles with one and with two metrics (issue 15, docs/performance.md "Profiles with
# several metrics"), with farm-bench: A and B interleaved, so the ratios hold on a busy machine.
#
#   bench/metrics/run.sh NEW_BOTTLENECKS OLD_BOTTLENECKS [NODES]    (default 1M nodes)
#
# NEW is the build under test, OLD the baseline (main's binary). Prints three farm-bench reports:
# NEW against OLD on a one-metric profile (must stay near 1), NEW on a two-metric profile
# against the one-metric one, and `set metric calls; suggest` against `suggest`. Quote the
# medians of the CPU ratio and the load average printed before each.
set -eu
new=$1 old=$2 nodes=${3:-1M}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$new" generate --nodes "$nodes" -o "$dir/one.bnp"
"$new" generate --nodes "$nodes" --calls -o "$dir/two.bnp"
uptime
farm-bench -n 10 --timeout 600 --vs "$old info $dir/one.bnp" -- "$new" info "$dir/one.bnp"
uptime
farm-bench -n 10 --timeout 600 --vs "$new info $dir/one.bnp" -- "$new" info "$dir/two.bnp"
uptime
farm-bench -n 6 --timeout 600 --vs "$new repl $dir/two.bnp -c suggest" -- \
  "$new" repl "$dir/two.bnp" -c "set metric calls; suggest"
