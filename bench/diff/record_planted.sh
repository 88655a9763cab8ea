#!/usr/bin/env bash
# Records the diff gate's power runs (docs/performance.md, "The diff gate"): RUNS sampling
# recordings of bench/diff/Planted.java (Debian's Xalan, then EXTRA percent of the run's CPU in
# Planted.regression) for each EXTRA, into OUT/extra-EXTRA/run-N.bnp. EXTRA 0 is the baseline.
#
#   bench/diff/record_planted.sh BUILD_DIR OUT [RUNS] [EXTRAS] [INTERVAL]   (default 15, "0 2 5 10", 5ms)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: record_planted.sh BUILD_DIR OUT [RUNS] [EXTRAS] [INTERVAL]}" && pwd)
out=${2:?usage: record_planted.sh BUILD_DIR OUT [RUNS] [EXTRAS] [INTERVAL]}
runs=${3:-15}
extras=${4:-0 2 5 10}
interval=${5:-5ms}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
xalan_cp=/usr/share/java/xalan2.jar:/usr/share/java/serializer.jar:/usr/share/java/xercesImpl.jar
mkdir -p "$out/classes"
"$here/../calltree/xalan_input.sh" "$out/input" 8000
"$java_home/bin/javac" -cp "$xalan_cp" -d "$out/classes" "$here/Planted.java"
# Interleaved, so that a drift of the machine's speed falls on every EXTRA alike.
for ((i = 1; i <= runs; i++)); do
  for extra in $extras; do
    mkdir -p "$out/extra-$extra"
    "$build/bottlenecks" record -o "$out/extra-$extra/run-$i.bnp" --interval "$interval" -- \
      "$java_home/bin/java" -cp "$xalan_cp:$out/classes" Planted "$out/input/orders.xml" "$out/input/report.xsl" 1 "$extra" \
      >/dev/null 2>&1
  done
done
echo "record_planted: $runs runs of each of $extras in $out (load average $(cut -d' ' -f1-3 /proc/loadavg))"
