#!/bin/sh
# Records the demonstration pair: SecurityDemo run with the SecurityManager (secure.collapsed.gz)
# and without it (insecure.collapsed.gz), same work in both. Needs a JDK 17, the recorder agent
# and the analyzer from a build of this repository:
#   samples/security/record.sh [ROUNDS]    (default 1000000; run from the repository root)
# AGENT and BOTTLENECKS override the paths of build/libbottlenecks-agent.so and build/bottlenecks.
set -eu
rounds=${1:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
agent=${AGENT:-$PWD/build/libbottlenecks-agent.so}
bottlenecks=${BOTTLENECKS:-$PWD/build/bottlenecks}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

javac -nowarn -d "$work/classes" "$here/src/SecurityDemo.java"

# $1 = output name, remaining arguments = extra JVM options.
record() {
  name=$1
  shift
  java -agentpath:"$agent"=file="$work/$name.bnp",interval=1ms "$@" -cp "$work/classes" SecurityDemo "$rounds"
  "$bottlenecks" convert "$work/$name.bnp" -o "$work/$name.collapsed"
  # Keep the main thread only: the JVM's waiting service threads are sampled too, and their
  # sample counts grow with wall time, which would show up as a spurious difference.
  grep '^SecurityDemo\.main' "$work/$name.collapsed" | gzip -9n > "$here/$name.collapsed.gz"
}

# -Djava.security.manager installs the default SecurityManager at startup (JDK 17 prints a
# deprecation warning); the policy grants SecurityDemo exactly what it needs.
record secure -Djava.security.manager -Djava.security.policy=="$here/src/security-demo.policy" \
  -Ddemo.classes="$work/classes"
record insecure
