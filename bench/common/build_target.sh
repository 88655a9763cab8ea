# Sourced by the benchmarks' run.sh after setting `root` (the source tree) and `build`: builds
# the targets given as arguments in $build (RelWithDebInfo, the default build). A new build
# directory gets only what a benchmark needs; an existing one keeps its options.
bench_build() {
  if [ -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DBN_BENCH=ON >/dev/null
  else
    cmake -S "$root" -B "$build" -DBN_BENCH=ON -DBN_AGENT=OFF -DBN_TESTS=OFF >/dev/null
  fi
  cmake --build "$build" -j"$(nproc)" --target "$@" >/dev/null
}
