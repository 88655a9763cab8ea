#!/usr/bin/env bash
# The call-tree transformer's cost alone (docs/performance.md, "Call-tree mode"):
#
#   bench/calltree/transform.sh BUILD_DIR [RUNS] [CLASSES] [BASE_BUILD_DIR]
#
# TransformJdk.java hands the first CLASSES (default 1000) classes of the JDK's java.xml module
# once each to BUILD_DIR's transformer (every method instrumented, as include=*,trivial=count)
# in a fresh JVM, as a recording's class loading does: the interpreter, the JIT compiling ASM
# and the transformer, and the transformation. Each run prints the transforming thread's CPU per
# class. Each JVM loads its build's agent with mode=calltree and an include= that matches no class:
# the runtime's natives (the trees' memory, which Probe.pause reaches) and the compiler directive
# that keeps the transformer out of C2 are then what a recording has, and nothing else is
# transformed. With BASE_BUILD_DIR (another checkout's build), the whole process's CPU (JIT threads
# included) is compared, interleaved A B A B (bench/common/interleave.sh, RUNS pairs, default
# 4): A is BUILD_DIR, B the base.
set -euo pipefail
. "$(cd "$(dirname "$0")/.." && pwd)/common/interleave.sh"
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: transform.sh BUILD_DIR [RUNS] [CLASSES] [BASE_BUILD_DIR]}" && pwd)
runs=${2:-4}
classes=${3:-1000}
base=${4:+$(cd "$4" && pwd)}
java_home=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
cmake --build "$build" -j2 --target bottlenecks-agent >/dev/null
# The ASM jars a build's transformer is loaded with: none ('-') where ASM is relocated into its
# jar (bottlenecks/transform/asm); Debian's, as its CMakeCache records them, for an older base.
asm_jars() {
  if "$java_home/bin/jar" --list --file "$1/bottlenecks-transformer.jar" | grep '^bottlenecks/transform/asm/' >/dev/null; then
    echo -
  else
    sed -n 's/^BN_ASM_JARS:STRING=//p' "$1/CMakeCache.txt"
  fi
}
agent() { echo "-agentpath:$1/libbottlenecks-agent.so=mode=calltree,quiet,include=no.such.package.*,file=$work/$2.bnp"; }
asm=$(asm_jars "$build")
base_asm=${base:+$(asm_jars "$base")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" -d "$work" "$here/TransformJdk.java"
for ((i = 0; i < runs; i++)); do
  echo "$(basename "$build"): $("$java_home/bin/java" "$(agent "$build" a)" -cp "$work" TransformJdk "$build" "$asm" "$classes" 2>/dev/null)"
  [[ -n $base ]] && echo "$(basename "$base") (base): $("$java_home/bin/java" "$(agent "$base" b)" -cp "$work" TransformJdk "$base" "$base_asm" "$classes" 2>/dev/null)"
done
if [[ -n $base ]]; then
  echo "== whole process, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  bn_interleave "$runs" 0 "$java_home/bin/java $(agent "$base" b) -cp $work TransformJdk $base $base_asm $classes" \
    "$java_home/bin/java" "$(agent "$build" a)" -cp "$work" TransformJdk "$build" "$asm" "$classes"
fi
