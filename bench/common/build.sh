# Sourced by the benchmark scripts: bn_bench_build BUILD_DIR TARGET... configures BUILD_DIR for
# the benchmarks (a new one with only what they need: no tests, no agent; an existing one keeps
# its options and gets BN_BENCH=ON) and builds the targets; root must be the checkout's root.
bn_bench_build() {
  bn_build=$1
  shift
  if [ -f "$bn_build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$bn_build" -DBN_BENCH=ON >/dev/null
  else
    cmake -S "$root" -B "$bn_build" -DBN_BENCH=ON -DBN_AGENT=OFF -DBN_TESTS=OFF >/dev/null
  fi
  cmake --build "$bn_build" -j"$(nproc)" --target "$@" >/dev/null
  mkdir -p "$bn_build/bench-profiles"
}

# bn_bench_profile BUILD_DIR SIZE [deep]: the cached synthetic profile of SIZE nodes (bench/scale's;
# with `deep`, of the deeper shape of `generate --deep`), generated when missing or older than the
# bottlenecks binary; prints its path.
bn_bench_profile() {
  if [ "${3:-}" = deep ]; then
    bn_profile=$1/bench-profiles/synthetic-deep-$2.bnp
  else
    bn_profile=$1/bench-profiles/synthetic-$2.bnp
  fi
  if [ ! -f "$bn_profile" ] || [ "$1/bottlenecks" -nt "$bn_profile" ]; then
    "$1/bottlenecks" generate --nodes "$2" --seed 1 ${3:+--deep} -o "$bn_profile" >&2
  fi
  echo "$bn_profile"
}

# bn_bench_export BUILD_DIR SIZE SUFFIX: that profile converted once to the format `convert`
# infers from SUFFIX (collapsed, pb, pb.gz, ...), remade when the profile is newer; prints its path.
bn_bench_export() {
  bn_source=$(bn_bench_profile "$1" "$2")
  bn_export=$1/bench-profiles/synthetic-$2.$3
  if [ ! -f "$bn_export" ] || [ "$bn_source" -nt "$bn_export" ]; then
    "$1/bottlenecks" convert "$bn_source" -o "$bn_export" >&2
  fi
  echo "$bn_export"
}
