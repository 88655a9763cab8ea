#!/usr/bin/env bash
# Extreme shapes at full size (docs/performance.md "Extreme shapes"): every command on deep
# recursion, wide nodes, a 1 MB name, many labels and a comparison, each a whole process
# measured by /usr/bin/time (wall seconds and peak resident memory, the median of RUNS runs).
#
#   bench/shapes/run.sh [BUILD_DIR] [RUNS]     (defaults: build-rel next to this checkout, 3)
#
# The shapes (bench/shapes/make_shape.sh) are written once into BUILD_DIR/bench-profiles/shapes
# and converted to the native format, so a row's command pays the open of a .bnp; the row
# `open` is that alone. A run over 300 s or 8 GB of address space fails, and its row says so. The target is every
# command within ~10 s and ~2 GB at 10^6 nodes.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-rel}
runs=${2:-3}
bin=$build/bottlenecks
make_shape=$root/bench/shapes/make_shape.sh
dir=$build/bench-profiles/shapes
mkdir -p "$dir"
export XDG_STATE_HOME=$dir/state  # labels the scripts leave unsaved stay here

# shape NAME SHAPE N: the profile NAME.bnp of SHAPE at size N, made when missing.
shape() {
  [ -f "$dir/$1.bnp" ] && return
  "$make_shape" "$2" "$3" "$dir/$1.collapsed" && "$bin" convert "$dir/$1.collapsed" -o "$dir/$1.bnp" >/dev/null
}
# row SHAPE COMMAND-NAME CMD...: the median wall time and peak memory of RUNS runs of CMD.
row() {
  local name=$1 what=$2; shift 2
  local walls=() peaks=() status=0
  for ((i = 0; i < runs; i++)); do
    # A command gone quadratic must not take the machine's memory with it: 8 GB at most.
    (ulimit -v 8388608 && exec /usr/bin/time -f '%e %M' -o "$dir/time" timeout 300 "$@") >/dev/null 2>"$dir/err" || status=$?
    [ "$status" -eq 0 ] || break
    read -r wall peak <"$dir/time"
    walls+=("$wall") peaks+=("$peak")
  done
  if [ "$status" -ne 0 ]; then
    printf '| %s | %s | %s |  |\n' "$name" "$what" "$([ "$status" -eq 124 ] && echo 'over 300 s' || echo "failed: $(tail -1 "$dir/err")")"
    return
  fi
  local wall peak
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  peak=$(printf '%s\n' "${peaks[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  printf '| %s | %s | %.2f s | %d MB |\n' "$name" "$what" "$wall" "$((peak / 1024))"
}
# repl_rows NAME M X S: the REPL's commands on NAME.bnp, each in a fresh process, about its method
# M; X is a sequence to exclude, S the numbers to select from M on (extending and trimming).
repl_rows() {
  local p=$dir/$1.bnp m=$2 x=$3 s=$4
  row "$1" open "$bin" repl "$p" -c quit
  row "$1" suggest "$bin" repl "$p" -c suggest
  row "$1" "path $m" "$bin" repl "$p" -c "path $m"
  row "$1" "set zoom on; path $m" "$bin" repl "$p" -c "set zoom on; path $m"
  row "$1" "path $m; select $s" "$bin" repl "$p" -c "path $m; select ${s//, /; select }"
  row "$1" "path $m; refine below" "$bin" repl "$p" -c "path $m; refine below"
  row "$1" "two labels; labels" "$bin" repl "$p" -c "path $m; label x; path main; label y; labels"
  row "$1" autolabel "$bin" repl "$p" -c autolabel
  row "$1" "exclude $x; suggest" "$bin" repl "$p" -c "exclude $x; suggest"
  row "$1" "path $m; flame" "$bin" repl "$p" -c "path $m; flame $dir/out.html"
  row "$1" info "$bin" info "$p"
  row "$1" "convert to collapsed" "$bin" convert "$p" -o "$dir/out.collapsed"
  row "$1" "flame --focus $m" "$bin" flame "$p" --focus "$m" -o "$dir/out.html"
}

cmake --build "$build" -j1 --target bottlenecks >/dev/null || exit 1
echo "bench/shapes/run.sh at $(git -C "$root" rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
shape chain-10k chain 10000
shape distinct-10k distinct 10000
shape distinct-60k distinct 60000
shape cycle-20k cycle 20000
shape deepcycle-4k deepcycle 4000
shape cycles-15k cycles 15000
shape parser parser 1000000
shape framework framework 1000000
shape chain chain 1000000
shape alternating alternating 1000000
shape wide wide 1000000
shape fan fan 500000
shape longname longname 1000000
shape wide-10k wide 10000
shape wide-100k wide 100000
shape fan-100k fan 100000
shape base base 1000000
"$make_shape" labels 10000 "$dir/10k.labels"
"$make_shape" labels 100000 "$dir/100k.labels"
"$make_shape" biglabel 10000 "$dir/big.labels"
"$make_shape" biglabel 1000000 "$dir/huge.labels"
name=$(cut -d';' -f2 "$dir/longname.collapsed" | head -1 | cut -d' ' -f1)
printf 'path main;%s\n' "$name" >"$dir/longname.cmds"

echo '| shape | command | wall | peak |'
echo '|---|---|---|---|'
row chain-10k "set zoom on; path a" "$bin" repl "$dir/chain-10k.bnp" -c "set zoom on; path a"
row chain-10k open "$bin" repl "$dir/chain-10k.bnp" -c quit
for d in 10k 60k; do
  row "distinct-$d" "set zoom on; path main" "$bin" repl "$dir/distinct-$d.bnp" -c "set zoom on; path main"
done
row distinct-60k "set zoom on; path m30000" "$bin" repl "$dir/distinct-60k.bnp" -c "set zoom on; path m30000"
row distinct-60k "suggest; autolabel" "$bin" repl "$dir/distinct-60k.bnp" -c "suggest; autolabel"
row distinct-60k "--base distinct-10k: suggest; set zoom on; path main; autolabel" "$bin" repl "$dir/distinct-60k.bnp" \
  --base "$dir/distinct-10k.bnp" -c "suggest; set zoom on; path main; autolabel"
for c in cycle-20k deepcycle-4k cycles-15k; do
  row "$c" "set zoom on; path r" "$bin" repl "$dir/$c.bnp" -c "set zoom on; path r"
done
row cycles-15k "suggest; autolabel" "$bin" repl "$dir/cycles-15k.bnp" -c "suggest; autolabel"
repl_rows parser r "t1;r;c1" "0, 0, 1"
repl_rows framework f50 "t1;r;f1" "0, 0, 1"
repl_rows chain a "t1;a;a" "0, 0, 1"
repl_rows alternating a "t1;a;b" "0, 0, 1"
repl_rows wide c1 "main;c1" "0, 1, 0"
repl_rows fan u "c1;u" "0, 0, 1"
row fan "path main;..;u; refine split" "$bin" repl "$dir/fan.bnp" -c "path main;..;u; refine split"
row wide-100k "set zoom on; path main; refine below" "$bin" repl "$dir/wide-100k.bnp" -c "set zoom on; path main; refine below"
row fan-100k "set zoom on; path main;..;u; refine split" "$bin" repl "$dir/fan-100k.bnp" -c "set zoom on; path main;..;u; refine split"
row longname "open, info" "$bin" info "$dir/longname.bnp"
row longname "path main;NAME" "$bin" repl "$dir/longname.bnp" -f "$dir/longname.cmds"
row longname "flame" "$bin" flame "$dir/longname.bnp" -o "$dir/out.html"
row wide-10k "load 10,000 labels; path main;c1; save" "$bin" repl "$dir/wide-10k.bnp" -c "load $dir/10k.labels; path main;c1; save $dir/out.labels"
row wide-10k "load 10,000 labels; labels" "$bin" repl "$dir/wide-10k.bnp" -c "load $dir/10k.labels; labels"
row wide "load 10^5 labels; labels" "$bin" repl "$dir/wide.bnp" -c "load $dir/100k.labels; labels"
row wide-10k "load a label of 10,000 summaries; labels; path main" "$bin" repl "$dir/wide-10k.bnp" -c "load $dir/big.labels; labels; path main"
row wide "load a label of 10^6 summaries; labels; path main" "$bin" repl "$dir/wide.bnp" -c "load $dir/huge.labels; labels; path main"
row "wide --base base" "suggest; set zoom on; path main; autolabel" "$bin" repl "$dir/wide.bnp" --base "$dir/base.bnp" -c "suggest; set zoom on; path main; autolabel"
row "wide --base base" flame "$bin" flame "$dir/wide.bnp" --base "$dir/base.bnp" -o "$dir/out.html"
row "framework --base parser" "suggest; set zoom on; path r; autolabel" "$bin" repl "$dir/framework.bnp" --base "$dir/parser.bnp" -c "suggest; set zoom on; path r; autolabel"
row "chain --base alternating" "suggest; set zoom on; path a; autolabel" "$bin" repl "$dir/chain.bnp" --base "$dir/alternating.bnp" -c "suggest; set zoom on; path a; autolabel"
