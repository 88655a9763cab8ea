#!/usr/bin/env bash
# Records the runs the diff gate is calibrated on (docs/performance.md, "The diff gate"): RUNS
# sampling recordings of each real program from Debian's packages at each interval, into
# OUT/PROGRAM/INTERVAL/run-N.bnp.
#   xalan  Debian's Xalan (libxalan2-java) on bench/calltree/xalan_input.sh's report, 8000 orders
#   h2     Debian's H2 (libh2-java): a correlated subquery over 6000 rows in memory
#
#   bench/diff/record_runs.sh BUILD_DIR OUT [RUNS] [INTERVALS]   (default 10, "5ms 20ms")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: record_runs.sh BUILD_DIR OUT [RUNS] [INTERVALS]}" && pwd)
out=${2:?usage: record_runs.sh BUILD_DIR OUT [RUNS] [INTERVALS]}
runs=${3:-10}
intervals=${4:-5ms 20ms}
java=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
mkdir -p "$out"
"$here/../calltree/xalan_input.sh" "$out/xalan-input" 8000
xalan_cp=/usr/share/java/xalan2.jar:/usr/share/java/serializer.jar:/usr/share/java/xercesImpl.jar
program() {
  case $1 in
    xalan) echo "-cp $xalan_cp org.apache.xalan.xslt.Process -IN $out/xalan-input/orders.xml -XSL $out/xalan-input/report.xsl -OUT /dev/null" ;;
    h2) echo "-cp /usr/share/java/h2.jar org.h2.tools.Shell -url jdbc:h2:mem:x -sql" ;;
  esac
}
h2_sql="CREATE TABLE t AS SELECT X AS id, MOD(X, 100) AS g FROM SYSTEM_RANGE(1, 6000); SELECT COUNT(*) FROM t a WHERE a.id > (SELECT AVG(id) FROM t b WHERE b.g = a.g)"
for name in xalan h2; do
  for interval in $intervals; do
    dir=$out/$name/$interval
    mkdir -p "$dir"
    for ((i = 1; i <= runs; i++)); do
      # shellcheck disable=SC2046  # the program's words split as written
      if [ "$name" = h2 ]; then
        "$build/bottlenecks" record -o "$dir/run-$i.bnp" --interval "$interval" -- "$java" $(program h2) "$h2_sql" >/dev/null 2>&1
      else
        "$build/bottlenecks" record -o "$dir/run-$i.bnp" --interval "$interval" -- "$java" $(program xalan) >/dev/null 2>&1
      fi
    done
    echo "record_runs: $dir: $runs runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  done
done
