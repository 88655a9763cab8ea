# Sourced by the bench scripts. bn_interleave RUNS WARMUP "B COMMAND" A COMMAND...
# Runs B and A in turn (B A B A ...) after WARMUP unmeasured runs of each, so that a drift of
# the machine's speed hits both alike, and prints, for A and for B, the medians of user + sys
# CPU seconds and of wall seconds over RUNS runs, then the median of the pairwise ratios A/B.
# Uses only bash's `time` (children's CPU time); outputs of the commands are discarded. B is one
# string split into words as the shell splits them.
bn_interleave() {
  local runs=$1 warmup=$2 b=$3; shift 3
  local -a a_cpu=() a_wall=() b_cpu=() b_wall=() ratio_cpu=() ratio_wall=()
  local i t TIMEFORMAT='%U %S %R'
  bn_time_one() {  # prints "cpu wall" of one run of "$@"
    t=$({ time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
    awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' <<<"$t"
  }
  for ((i = 0; i < warmup; i++)); do bn_time_one $b >/dev/null; bn_time_one "$@" >/dev/null; done
  for ((i = 0; i < runs; i++)); do
    read -r bc bw < <(bn_time_one $b)
    read -r ac aw < <(bn_time_one "$@")
    a_cpu+=("$ac") a_wall+=("$aw") b_cpu+=("$bc") b_wall+=("$bw")
    ratio_cpu+=("$(awk -v x="$ac" -v y="$bc" 'BEGIN { printf "%.4f", (y > 0 ? x / y : 0) }')")
    ratio_wall+=("$(awk -v x="$aw" -v y="$bw" 'BEGIN { printf "%.4f", (y > 0 ? x / y : 0) }')")
  done
  bn_median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
  echo "A = $*"
  echo "B = $b"
  echo "$runs runs each, in turn, after $warmup warm-up; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "A cpu s $(bn_median "${a_cpu[@]}")  wall s $(bn_median "${a_wall[@]}")"
  echo "B cpu s $(bn_median "${b_cpu[@]}")  wall s $(bn_median "${b_wall[@]}")"
  echo "A/B cpu $(bn_median "${ratio_cpu[@]}")  wall $(bn_median "${ratio_wall[@]}")  (medians of the pairwise ratios)"
}
