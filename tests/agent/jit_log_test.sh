#!/usr/bin/env bash
# bench/calltree/JitLog.java on two small logs in -XX:+LogCompilation's form, whose figures are
# known by construction: which tasks are C2's (no level attribute), which traps ran (a thread,
# and only the first of the two lines HotSpot writes), C2's queue over the run, and the methods
# each run compiled.
# Usage: jit_log_test.sh JAVA JITLOG_JAVA
set -euo pipefail
java=$1
jitlog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Base: C2 queues A.f and B.g at 0.1 s and compiles A.f from 0.2 to 0.4 s; B.g is still queued
# when the run ends at 1.0 s. C.h is C1's. One trap runs (two lines), one is only compiled in.
cat >"$work/base.log" <<'LOG'
<task_queued compile_id='1' method='A f ()V' bytes='10' count='5000' stamp='0.100' comment='tiered'/>
<task_queued compile_id='2' method='B g ()V' bytes='10' count='5000' stamp='0.100' comment='tiered'/>
<task_queued compile_id='3' method='C h ()V' bytes='5' count='200' level='3' stamp='0.100' comment='tiered'/>
<uncommon_trap thread='7' reason='unstable_if' action='reinterpret' compile_id='1' compiler='c2' level='4' stamp='0.900'>
<uncommon_trap thread='7' reason='unstable_if' action='reinterpret' compile_id='1' compiler='c2' level='4' count='1' state='unstable_if' stamp='0.900'>
<make_not_entrant thread='7' compile_id='1' compiler='c2' level='4' stamp='0.900'/>
<make_not_entrant thread='7' compile_id='3' compiler='c1' level='3' stamp='0.950'/>
<tty_done stamp='1.000'/>
<task compile_id='3' method='C h ()V' bytes='5' count='200' level='3' stamp='0.150'>
<task_done success='1' nmsize='80' count='200' stamp='0.160'/>
<task compile_id='1' method='A f ()V' bytes='10' count='5000' stamp='0.200'>
<uncommon_trap bci='4' reason='null_check' action='maybe_recompile' debug_id='0'/>
<task_done success='1' nmsize='100' count='5000' inlined_bytes='2048' stamp='0.400'/>
LOG
# Agent: A.f compiled twice, B.g once from 0.8 s, D.k on-stack; the run ends at 2.0 s.
cat >"$work/agent.log" <<'LOG'
<task_queued compile_id='1' method='A f ()V' bytes='10' stamp='0.100'/>
<task_queued compile_id='2' method='B g ()V' bytes='10' stamp='0.700'/>
<task_queued compile_id='4' method='A f ()V' bytes='10' stamp='0.500'/>
<task_queued compile_id='5' method='D k ()V' bytes='30' stamp='1.000' compile_kind='osr'/>
<tty_done stamp='2.000'/>
<task compile_id='1' method='A f ()V' bytes='10' stamp='0.200'>
<task_done success='1' inlined_bytes='1024' stamp='0.500'/>
<task compile_id='4' method='A f ()V' bytes='10' stamp='0.600'>
<task_done success='1' stamp='0.700'/>
<task compile_id='2' method='B g ()V' bytes='10' stamp='0.800'>
<task_done success='1' stamp='1.000'/>
<task compile_id='5' method='D k ()V' bytes='30' compile_kind='osr' stamp='1.100'>
<task_done success='1' stamp='1.200'/>
LOG

out=$("$java" "$jitlog" "$work/base.log" "$work/agent.log")
expect() { grep -qF -- "$1" <<<"$out" || fail "no line with '$1' in:"$'\n'"$out"; }
expect "base.log: run 1.0 s"
expect "  C2: 1 compilations (0 on-stack), 1 methods, 0 KB of bytecode, 2 KB inlined"
expect "  C2's compilations took 0.2 s: busy 20% of the run"
expect "  C2's queue: 1.0 tasks on average, 1 at the end" # 2 tasks for 0.1 s, then 1 for 0.8 s
expect "  recompiled by C2: 0 methods, 0 compilations more; C2 code made not entrant: 1"
expect "  uncommon traps that ran: 1 {unstable_if=1}"
expect "agent.log: run 2.0 s"
expect "  C2: 4 compilations (1 on-stack), 2 methods, 0 KB of bytecode, 1 KB inlined"
expect "  C2's compilations took 0.7 s: busy 35% of the run"
expect "  C2's queue: 0.2 tasks on average, 0 at the end" # 0.1+0.1+0.1+0.1+0.1 task-seconds over 2 s
expect "  recompiled by C2: 1 methods, 1 compilations more; C2 code made not entrant: 0"
expect "  uncommon traps that ran: 0 {}"
expect "  in both          1 methods |     1,   0.20 s |     2,   0.40 s"
expect "  first only       0 methods |     0,   0.00 s |     0,   0.00 s"
expect "  second only      1 methods |     0,   0.00 s |     1,   0.20 s"
expect "(quartiles): second only 0.40 0.40 0.40, in both 0.10 0.10 0.10"

# Bad input: one line, no stack trace.
err=$("$java" "$jitlog" "$work/base.log" "$work/missing.log" 2>&1) && fail "a missing log was accepted"
[ "$(wc -l <<<"$err")" = 1 ] || fail "a missing log gave more than one line: $err"
echo "ok"
