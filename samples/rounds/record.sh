#!/bin/sh
# Records samples/rounds: seed 003's first example (tests/agent/java/CausalRounds.java, the program
# the end-to-end tests run), first sampled, then labelled in the REPL, then recorded again in the
# causal mode with those labels as targets. Needs a JDK 17 and a build of this repository:
#   samples/rounds/record.sh [SECONDS]    (default 60; run from the repository root)
# BOTTLENECKS and AGENT override the paths of build/bottlenecks and build/libbottlenecks-agent.so.
set -eu
seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
bottlenecks=${BOTTLENECKS:-$PWD/build/bottlenecks}
agent=${AGENT:-$PWD/build/libbottlenecks-agent.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

javac -d "$work" "$PWD/tests/agent/java/CausalRounds.java"
# 1. Where does the time go? A sampled profile says: both workers.
"$bottlenecks" record -o "$work/sampled.bnp" --agent "$agent" -- java -cp "$work" CausalRounds 10
# 2. Label the two workers and save the labels.
"$bottlenecks" repl "$work/sampled.bnp" -c 'path CausalRounds.longWork; label long-worker;
  path CausalRounds.shortWork; label short-worker; save '"$here/rounds.labels"
# 3. What would speeding each up gain? Experiments of virtual speedup on those labels, five
#    speedups so that each has a dozen experiments.
"$bottlenecks" record --mode causal --targets "$here/rounds.labels" --progress CausalRounds.roundDone \
  --speedups 0:25:50:75:100 -o "$here/rounds.bnp" --agent "$agent" -- java -cp "$work" CausalRounds "$seconds"
