#!/bin/sh
# Every line a golden transcript prints fits 80 columns (the README's promise), except what the
# user asked to be wide: output after `set width off` or `set width N` with N > 80 (until the
# width is set back), and `show --full`. Echoed commands and comments are the script's own
# text; JSON Lines are for programs; an error stays one line (`bottlenecks: error: ...`) so a
# script can match it whole. Columns count UTF-8 code points, as the REPL does.
#   tests/golden/check_widths.sh DIR     (the directory of the *.out files)
set -eu
dir=$1
status=0
for f in "$dir"/*.out; do
  LC_ALL=C awk -v file="$(basename "$f")" '
    /^bottlenecks> / {
      cmd = substr($0, 14)
      full = (cmd ~ /^show --full/)
      if (cmd ~ /^set width off/) wide = 1
      else if (cmd ~ /^set width [0-9]+/) { split(cmd, w, " "); wide = (w[3] + 0 > 80) }
      next
    }
    /^#/ || /^\{/ || /^bottlenecks: error: / || wide || full { next }
    {
      line = $0
      gsub(/[\200-\277]/, "", line)
      if (length(line) > 80) { printf "%s:%d: %d columns: %s\n", file, NR, length(line), $0; bad = 1 }
    }
    END { exit bad }
  ' "$f" || status=1
done
exit $status
