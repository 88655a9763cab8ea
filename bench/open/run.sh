#!/usr/bin/env bash
# Opening a profile against decompressing its bytes (docs/performance.md "Opening a
# profile").
#
#   bench/open/run.sh [BUILD_DIR] [RUNS]     (defaults: build-bench, 5)
#
# For the synthetic profiles of 1.1M and 10M nodes, of bench/scale's shape and of the deeper one of
# `generate --deep` (cached in BUILD_DIR/bench-profiles), writes the zstd frames of the file's chunks to FILE.frames.zst and
# times, interleaved (bench/common/interleave.sh) (A B A B ...), `bottlenecks repl FILE -c quit` (read,
# decompress, decode, build the tree and the search backend: what a user waits for before the
# prompt) against `zstd -d` of the same frames. Prints the report per size; its ratio
# line is the figure docs/performance.md quotes, with the load average printed first.
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
runs=${2:-5}

. "$root/bench/common/build.sh"
bn_bench_build "$build" bottlenecks bn_zstd_frames
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for spec in "1.1M" "10M" "1.1M deep" "10M deep"; do
  set -- $spec
  profile=$(bn_bench_profile "$build" "$@")
  "$build/bench/open/bn_zstd_frames" "$profile" "$profile.frames.zst" >/dev/null
  echo
  echo "== $1 nodes${2:+, $2 shape}: A = open (bottlenecks repl -c quit), B = zstd -d of the same frames"
  bn_interleave "$runs" 1 "zstd -q -d -f $profile.frames.zst -o /dev/null" \
    "$build/bottlenecks" repl "$profile" -c quit
done
