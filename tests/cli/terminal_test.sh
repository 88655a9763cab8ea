#!/usr/bin/env bash
# End-to-end checks of the interactive REPL at a real terminal: the session runs under
# util-linux `script`, which gives it a pseudo-terminal, and is driven like a user would, waiting
# for each prompt before typing.
# Usage: terminal_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
sample=$src/samples/figure2/figure2.collapsed
source "$(dirname "$0")/testlib.sh"
export HOME=$work  # the history file goes here
export NO_COLOR=1 TERM=dumb

# start PROFILE: the REPL at a terminal, as coprocess TTY. script runs the command through
# $SHELL -c, and dash does not replace itself with the command: the shell would stay in the
# terminal's foreground group and a Ctrl-C would end it, and with it script, under the REPL.
start() {
  coproc TTY { script -qfec "exec $(printf '%q ' "$bin" repl "$1")" /dev/null; }
  session=$TTY_PID seen=""
}
# descendants PID: the processes below PID (script runs the REPL in a session of its own, so
# neither a process group nor ctest reaches it).
descendants() {
  local stat fields child
  for stat in /proc/[0-9]*/stat; do
    { read -r fields <"$stat"; } 2>/dev/null || continue
    fields=${fields##*) }  # after "PID (COMMAND) ": state, parent, ...
    fields=${fields#* }
    [[ ${fields%% *} == "$1" ]] || continue
    child=${stat#/proc/}
    child=${child%/stat}
    echo "$child"
    descendants "$child"
  done
}
# On exit, a session still running (a failed expectation) is killed: it would keep ctest's
# output pipe open and hang the run.
end_session() {
  [[ -n ${session-} ]] || return 0
  local pids
  pids=$(descendants "$session")
  kill -KILL $pids "$session" 2>/dev/null
  return 0
}
trap 'end_session; rm -rf "$work"' EXIT
# wait_for_keys: waits until the REPL reads the terminal key by key. Between two prompts the
# pseudo-terminal is in canonical mode, where the line discipline would take a Ctrl-D as end of
# file and hand libedit a NUL once it switches to raw mode (the key is lost).
wait_for_keys() {
  local pid tty="" tries
  for ((tries = 0; tries < 1200; tries++)); do
    if [[ -z $tty ]]; then
      for pid in $(descendants "$session"); do
        tty=$(readlink "/proc/$pid/fd/0" 2>/dev/null) || continue
        [[ $tty == /dev/pts/* ]] && break
        tty=""
      done
    fi
    [[ -n $tty && $(stty -a -F "$tty" 2>/dev/null) == *-icanon* ]] && return 0
    sleep 0.05
  done
  fail "the REPL never read its terminal key by key (${tty:-no terminal found})"
}
# expect TEXT: reads the session's output until TEXT has appeared (waits 60 s at most for each
# character, so a loaded machine only makes it slower).
expect() {
  local c
  while [[ $seen != *"$1"* ]]; do
    IFS= read -r -N 1 -t 60 c <&"${TTY[0]}" || fail "no '$1' after: $(printf '%s' "$seen" | cat -v | tail -c 600)"
    seen+=$c
  done
  seen=${seen#*"$1"}
}
# keys TEXT: sends TEXT as typed keys (a line ends with $'\r', the Enter key) once the REPL reads
# them.
keys() {
  wait_for_keys
  printf '%s' "$1" >&"${TTY[1]}"
}
# finish: waits for the session to end and returns its exit status; a failure shows the status
# and what the session printed last.
finish() {
  exec {TTY[1]}>&-
  local rest="" out=${TTY[0]-}  # bash closes the coprocess's descriptors once it has ended
  [[ -z $out ]] || { IFS= read -r -d '' -t 60 rest <&"$out"; } 2>/dev/null
  seen+=$rest
  wait "$session"
  local status=$?
  session=""
  ((status == 0)) || echo "session status $status after: $(printf '%s' "$seen" | cat -v | tail -c 600)" >&2
  return "$status"
}

prompt='bottlenecks> '
case $case in
quit_asks)
  # `quit` with unsaved labels asks; "n" goes back to the prompt, "y" quits and keeps nothing.
  start "$sample"
  expect "$prompt"; keys $'path c;d\r'
  expect "$prompt"; keys $'label hot\r'
  expect "$prompt"; keys $'quit\r'
  expect 'labels changed since the last save were not saved'
  expect 'quit without saving them? [y/N] '; keys $'n\r'
  expect "$prompt"; keys $'labels\r'
  expect 'label hot'
  expect "$prompt"; keys $'quit\r'
  expect 'quit without saving them? [y/N] '; keys $'y\r'
  finish || fail "the session did not end with status 0"
  [ ! -e "$XDG_STATE_HOME/bottlenecks" ] || fail "labels the user gave up were kept: $(ls "$XDG_STATE_HOME/bottlenecks")"
  # Saved labels need no question.
  start "$sample"
  expect "$prompt"; keys $'path a\r'
  expect "$prompt"; keys $'label root\r'
  expect "$prompt"; keys "save $work/kept.labels"$'\r'
  expect "$prompt"; keys $'quit\r'
  finish || fail "the session did not end after quit"
  [[ $seen != *'[y/N]'* ]] || fail "asked although the labels were saved"
  ;;
ctrl_d_keeps)
  # Ctrl-D asks as `quit` does; a second Ctrl-D at the question keeps the labels in a file.
  start "$sample"
  expect "$prompt"; keys $'path c;d\r'
  expect "$prompt"; keys $'label hot\r'
  expect "$prompt"; keys $'\004'
  expect 'quit without saving them? [y/N] '; keys $'\004'
  kept=$XDG_STATE_HOME/bottlenecks/unsaved-1.labels
  expect 'unsaved labels kept'; expect "$kept"
  finish || fail "the session did not end with status 0"
  "$bin" repl "$sample" -c "load $kept; labels" >"$work/out" 2>&1 || fail "cannot load $kept: $(cat "$work/out")"
  grep -q '^label hot: cum 60 ' "$work/out" || fail "the kept labels differ: $(cat "$work/out")"
  ;;
completion)
  # Tab after a trailing ';' completes the next frame and keeps the ';'; a short name completes
  # as a short name.
  printf 'org.x.Foo.run;org.x.Foo.call 3\norg.y.Bar.go 1\n' >"$work/p.collapsed"
  start "$work/p.collapsed"
  expect "$prompt"; keys $'path org.x.Foo.run;\t\r'
  expect '[org.x.Foo.run;org.x.Foo.call]'
  expect "$prompt"; keys $'path Foo.r\t;\t\r'
  expect "$prompt"; keys $'quit\r'
  finish || fail "the session did not end after quit"
  grep -q 'Foo\.run' "$HOME/.bottlenecks_history" || fail "no history"
  grep 'path' "$HOME/.bottlenecks_history" | tail -n 1 | grep -q 'org\.x\.Foo\.run' &&
    fail "a short name completed to the full name: $(cat "$HOME/.bottlenecks_history")"
  grep 'path' "$HOME/.bottlenecks_history" | tail -n 1 | grep -q 'Foo\.run;Foo\.call' ||
    fail "the short name did not complete, or the ';' was lost: $(cat "$HOME/.bottlenecks_history")"
  ;;
interrupt_keeps)
  # Ctrl-C during a long search: a progress line first, then the search stops at its next step
  # and the session goes on, its labels kept. The search: autolabel on a framework's recursion
  # nested 50 deep in 198 places (10^6 nodes), zooming from up to 60 suggestions at both ends, each
  # across the whole tree: 6 s on a fast machine (docs/performance.md "Extreme shapes"); progress
  # shows after one.
  "$src/bench/shapes/make_shape.sh" framework 1000000 "$work/deep.collapsed" || fail "make_shape"
  start "$work/deep.collapsed"
  expect "$prompt"; keys $'path main;t1\r'
  expect "$prompt"; keys $'label top\r'
  expect "$prompt"; keys $'autolabel\r'
  expect 'autolabel: '; expect ' (Ctrl-C stops)'
  printf '\003' >&"${TTY[1]}"
  expect 'interrupted: autolabel stopped after '
  expect "$prompt"; keys $'labels\r'
  expect 'label top'
  expect "$prompt"; keys "save $work/kept.labels"$'\r'
  expect "$prompt"; keys $'quit\r'
  finish || fail "the session did not end after quit"
  grep -q '^label top' "$work/kept.labels" || fail "the label was lost: $(cat "$work/kept.labels")"
  ! grep -q '^label auto-' "$work/kept.labels" || fail "the interrupted autolabel labelled: $(cat "$work/kept.labels")"
  ;;
*)
  fail "unknown case $case" ;;
esac
