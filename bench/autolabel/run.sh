#!/usr/bin/env bash
# autolabel at scale (docs/performance.md "autolabel"): the cost of `autolabel` (15
# proposals) on a generated 1.1M-node profile, measured as the difference of two whole `repl`
# runs interleaved (bench/common/interleave.sh): A opens the profile and runs autolabel, B only opens it.
#
#   bench/autolabel/run.sh [BUILD_DIR] [RUNS]     (default: build next to this checkout, 5 runs)
#
# The profile is generated once (`bottlenecks generate --nodes 1.1M --seed 1`) into
# BUILD_DIR/bench-profiles. The target is autolabel's CPU (A's median minus B's) <= 1 s.
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
cmake --build "$build" -j2 --target bottlenecks >/dev/null
mkdir -p "$build/bench-profiles"
profile=$build/bench-profiles/synthetic-1.1M.bnp
if [ ! -f "$profile" ] || [ "$build/bottlenecks" -nt "$profile" ]; then
  "$build/bottlenecks" generate --nodes 1.1M --seed 1 -o "$profile"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bottlenecks" repl "$profile" -c "autolabel" | head -5
bn_interleave "$runs" 1 "$build/bottlenecks repl $profile -c quit" \
  "$build/bottlenecks" repl "$profile" -c autolabel
