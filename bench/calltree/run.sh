#!/usr/bin/env bash
# Call-tree mode slowdown (docs/performance.md, "Call-tree mode").
#
#   [WARMUP=1] [JAVAC_CLASSES=40] [VARIANTS="calltree ..."] [WORKLOADS="javac xml"] bench/calltree/run.sh BUILD_DIR [RUNS] [JAVAC_ROUNDS] [XML_ROUNDS] [ANCHOR_RUNS]
#
# Real programs doing a fixed amount of work (bench/fidelity's workloads with rounds=N):
# javac compiling a generated source tree of JAVAC_CLASSES classes (default 40) JAVAC_ROUNDS
# times (default 10), and the
# JDK's XML stack (Xerces DOM parse, XPath, XSLT serialize) on a 2000-order document XML_ROUNDS
# times (default 20). WORKLOADS may also name javac-jdk: javac compiling a real source tree once,
# jdk.compiler's own comp and tree packages of javac (42 files, attributed against the other 364 sources
# of the module, parsed as needed) from the JDK's src.zip (Debian: openjdk-17-source); its call
# tree has about 17 million calling contexts, where the generated one has 0.1 million
# (docs/performance.md, "A real source tree"). Each variant runs against no agent under bench/common/interleave.sh, interleaved A B A B
# (RUNS pairs, default 5), which gives the wall-time ratio pair by pair:
#   calltree          mode=calltree with its defaults (the application's classes, which for
#                     javac is the compiler itself, jdk.compiler; trivial=skip; clock=tick)
#   calltree-exact    the same with clock=exact (System.nanoTime() at every entry and exit)
#   calltree-wrappers the defaults with trivial=wrappers (tiny wrappers of the package's methods
#                     get no probes either; not run unless named in VARIANTS)
#   calltree-count    mode=calltree,include=*,trivial=count: every method of every class but
#                     the never-touched set (docs/recorder.md), the JDK's included
#   method-events     the anchor: a minimal agent receiving JVMTI MethodEntry/MethodExit for
#                     every method (bn_method_events, counting only), ANCHOR_RUNS pairs
#                     (default 3: it is slow)
# VARIANTS (default: all four, in this order) runs only those named. The whole process is timed (JVM start-up, class loading and instrumentation included). Prints
# the reports; quote the median ratio and the load average printed before each.
set -euo pipefail
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR [RUNS] [JAVAC_ROUNDS] [XML_ROUNDS] [ANCHOR_RUNS]}" && pwd)
runs=${2:-5}
javac_rounds=${3:-10}
xml_rounds=${4:-20}
anchor_runs=${5:-3}
warmup=${WARMUP:-1}
javac_classes=${JAVAC_CLASSES:-40}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java=$java_home/bin/java
cmake -S "$root" -B "$build" -DBN_BENCH=ON >/dev/null
cmake --build "$build" -j2 --target bottlenecks-agent bn_method_events >/dev/null
agent=$build/libbottlenecks-agent.so
anchor=$build/bench/calltree/libbn_method_events.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" -d "$work" "$root/bench/fidelity/JavacWorkload.java" "$root/bench/fidelity/XmlWorkload.java"
workloads=${WORKLOADS:-javac xml}
if [[ " $workloads " == *" javac-jdk "* ]]; then
  src_zip=$java_home/lib/src.zip
  [[ -f $src_zip ]] || { echo "run.sh: javac-jdk needs the JDK's sources, $src_zip (apt-get install openjdk-17-source)" >&2; exit 1; }
  (cd "$work" && unzip -q "$src_zip" 'jdk.compiler/*')
  find "$work/jdk.compiler" -path '*/javac/comp/*.java' -o -path '*/javac/tree/*.java' | sort >"$work/jdk-sources.list"
fi

variant_flag() {
  case $1 in
    calltree) flag="-agentpath:$agent=mode=calltree,quiet,file=$work/run.bnp" ;;
    calltree-exact) flag="-agentpath:$agent=mode=calltree,quiet,clock=exact,file=$work/run.bnp" ;;
    calltree-wrappers) flag="-agentpath:$agent=mode=calltree,quiet,trivial=wrappers,file=$work/run.bnp" ;;
    calltree-count) flag="-agentpath:$agent=mode=calltree,quiet,include=*,trivial=count,file=$work/run.bnp" ;;
    method-events) flag="-agentpath:$anchor" ;;
  esac
}

for workload in $workloads; do
  case $workload in
    javac) program=(JavacWorkload "rounds=$javac_rounds" "$javac_classes") ;;
    xml) program=(XmlWorkload "rounds=$xml_rounds") ;;
    javac-jdk) program=(-m jdk.compiler/com.sun.tools.javac.Main -nowarn -implicit:none
      --patch-module "jdk.compiler=$work/jdk.compiler" -d "$work/jdk-out" "@$work/jdk-sources.list") ;;
    *) echo "run.sh: unknown workload '$workload' (javac, xml, javac-jdk)" >&2; exit 1 ;;
  esac
  baseline="$java -cp $work ${program[*]}"
  for variant in ${VARIANTS:-calltree calltree-exact calltree-count method-events}; do
    n=$runs
    [[ $variant == method-events ]] && n=$anchor_runs
    echo "== $workload, $variant against no agent; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    variant_flag "$variant"
    bn_interleave "$n" "$warmup" "$baseline" "$java" "$flag" -cp "$work" "${program[@]}"
  done
done
