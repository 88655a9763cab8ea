#!/bin/sh
# Records samples/mail/mail.bnp: the mail client (src/mail) for 3 seconds at 10 ms with the
# project's recorder, per-sample records included (docs/views.md). Needs a JDK 17 and a build of
# this repository:
#   samples/mail/record.sh [SECONDS]    (default 3; run from the repository root)
# BOTTLENECKS and AGENT override the paths of build/bottlenecks and build/libbottlenecks-agent.so.
set -eu
seconds=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
bottlenecks=${BOTTLENECKS:-$PWD/build/bottlenecks}
agent=${AGENT:-$PWD/build/libbottlenecks-agent.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

javac -d "$work/classes" "$here"/src/mail/*.java
"$bottlenecks" record -o "$here/mail.bnp" --interval 10ms --agent "$agent" -- \
  java -cp "$work/classes" mail.Mailroom "$seconds"
