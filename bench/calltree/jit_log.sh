#!/usr/bin/env bash
# What C2 does with and without an agent (docs/performance.md, "Call-tree mode";
# bench/LOG.md, "Eleventh round"): runs one Java command twice, without the agent and with
# AGENT_FLAG, each with HotSpot's -XX:+LogCompilation, then compares the two logs (JitLog.java:
# C2's compilations and their time, how busy C2 was and its queue, the uncommon traps that ran,
# recompilations, and the methods only one run compiled).
#
#   bench/calltree/jit_log.sh OUT_DIR AGENT_FLAG JAVA ARGS...
#
# e.g. bench/calltree/jit_log.sh /tmp/jit "-agentpath:build-rel/libbottlenecks-agent.so=mode=calltree,quiet,file=/tmp/jit/run.bnp" \
#        java -cp WORK JavacWorkload rounds=4 40
# The logs stay in OUT_DIR (base.log, agent.log: tens of MB each). Logging slows the JIT's
# threads a little; compare runs logged alike.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: jit_log.sh OUT_DIR AGENT_FLAG JAVA ARGS...}
agent=${2:?usage: jit_log.sh OUT_DIR AGENT_FLAG JAVA ARGS...}
java=${3:?usage: jit_log.sh OUT_DIR AGENT_FLAG JAVA ARGS...}
shift 3
mkdir -p "$out"
log="-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation"
for side in base agent; do
  flag=""
  [[ $side == agent ]] && flag=$agent
  echo "== $side; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  # shellcheck disable=SC2086 # $log and $flag are lists of options
  /usr/bin/time -f "$side: %U s user, %S s system, %e s wall" "$java" $log "-XX:LogFile=$out/$side.log" $flag "$@" >/dev/null
done
"$java" "$here/JitLog.java" "$out/base.log" "$out/agent.log"
