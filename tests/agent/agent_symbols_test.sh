#!/usr/bin/env bash
# The agent shared object runs inside a JVM: it must carry only the call-tree model and file
# format (no Boost, no CLI11, no analyzer code) and export only the JVM's entry points.
# Usage: agent_symbols_test.sh AGENT_SO
set -euo pipefail
so=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

symbols=$(nm -C "$so")
[ -n "$symbols" ] || fail "nm found no symbols in $so (stripped?)"
for banned in 'boost::' 'CLI::' 'nlohmann::' 'bn::iface::' 'bn::repl::' 'bn::comparative::' \
              'bn::calltree::TreeProfile' 'bn::calltree::read_collapsed' 'bn::calltree::open_profile'; do
  found=$(grep -F -- "$banned" <<<"$symbols" | head -n 3 || true)
  [ -z "$found" ] || fail "the agent contains $banned code:"$'\n'"$found"
done

exported=$(nm -D --defined-only "$so" | awk '{print $3}' | sort | tr '\n' ' ')
[ "$exported" = "Agent_OnAttach Agent_OnLoad Agent_OnUnload " ] || fail "the agent exports more than its entry points: $exported"
echo "ok: no Boost, CLI11 or analyzer code; exports $exported"
