#!/usr/bin/env bash
# End-to-end checks of the profile formats through the real binary (docs/formats.md).
# Usage: formats_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
sample=$src/samples/figure2/figure2.collapsed
source "$(dirname "$0")/testlib.sh"
# Aggregated stacks, so line order and repeated stacks do not matter.
canonical() { awk '{n=$NF; $NF=""; sub(/ $/, ""); c[$0]+=n} END {for (s in c) print s " " c[s]}' "$1" | LC_ALL=C sort; }
random_collapsed() {
  awk 'BEGIN { srand(11); for (i = 0; i < 3000; i++) { d = 1 + int(rand() * 12); s = "";
         for (j = 0; j < d; j++) s = s (j ? ";" : "") "org.x.C" int(rand() * 9) ".m" int(rand() * 5);
         print s " " 1 + int(rand() * 100) } }'
}
javabin=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin
# record_jfr DIR MILLIS: a JFR recording of tests/cli/java/HotMethod.java spinning for MILLIS ms of CPU.
record_jfr() {
  "$javabin/javac" -d "$1" "$src/tests/cli/java/HotMethod.java" || fail "javac"
  "$javabin/java" -XX:StartFlightRecording=filename="$1/hot.jfr",settings=profile -Xlog:disable -cp "$1" \
    HotMethod "$2" >/dev/null 2>&1 || fail "java with JFR"
  [ -s "$1/hot.jfr" ] || fail "no recording"
}

RANDOM=18  # corruption positions and bytes are the same in every run
case $case in
pprof_round_trip)
  # collapsed -> pprof -> collapsed, plain and gzipped, keeps every stack and count.
  random_collapsed >"$work/random.collapsed"
  for input in "$sample" "$work/random.collapsed"; do
    for out in p.pb.gz p.pprof p.pb; do
      "$bin" convert "$input" -o "$work/$out" || fail "convert to $out"
      "$bin" info "$work/$out" | grep -q '^format *pprof$' || fail "$out is not read as pprof"
      "$bin" convert "$work/$out" -o "$work/back.collapsed" || fail "convert $out back"
      diff <(canonical "$input") <(canonical "$work/back.collapsed") || fail "round trip of $input via $out differs"
    done
  done
  gzip -t "$work/p.pprof" || fail ".pprof is not gzipped"
  gzip -t "$work/p.pb" 2>/dev/null && fail ".pb is gzipped"
  # native -> pprof -> native: the same tree (nodes, leaves, total) and the same stacks.
  "$bin" convert "$work/random.collapsed" -o "$work/a.bnp" || fail "to native"
  "$bin" convert "$work/a.bnp" -o "$work/a.pb.gz" || fail "native to pprof"
  "$bin" convert "$work/a.pb.gz" -o "$work/b.bnp" || fail "pprof to native"
  diff <("$bin" info "$work/a.bnp" | grep -E '^(nodes|depth|total|distinct)') \
       <("$bin" info "$work/b.bnp" | grep -E '^(nodes|depth|total|distinct)') || fail "native round trip changed the tree"
  "$bin" convert "$work/b.bnp" -o "$work/b.collapsed" || fail "native to collapsed"
  diff <(canonical "$work/random.collapsed") <(canonical "$work/b.collapsed") || fail "native round trip lost stacks"
  ;;
compressed_output)
  random_collapsed >"$work/random.collapsed"
  "$bin" convert "$work/random.collapsed" -o "$work/x.collapsed.gz" || fail "to .gz"
  gzip -t "$work/x.collapsed.gz" || fail ".collapsed.gz is not gzip"
  "$bin" convert "$work/random.collapsed" -o "$work/x.collapsed.zst" || fail "to .zst"
  [ "$(od -An -tx1 -N4 "$work/x.collapsed.zst" | tr -d ' ')" = 28b52ffd ] || fail ".collapsed.zst is not zstd"
  for f in x.collapsed.gz x.collapsed.zst; do
    "$bin" convert "$work/$f" -o "$work/back.collapsed" || fail "read $f"
    diff <(canonical "$work/random.collapsed") <(canonical "$work/back.collapsed") || fail "$f differs"
  done
  expect_error "compressed already" "$bin" convert "$sample" -o "$work/x.bnp.gz"
  ;;
sample_type_errors)
  "$bin" convert "$sample" -o "$work/p.pb.gz" || fail "to pprof"
  expect_error "no sample type 'cpu' (the file has samples)" "$bin" info "$work/p.pb.gz" --sample-type cpu
  expect_error "applies to pprof and JFR" "$bin" info "$sample" --sample-type cpu
  "$bin" info "$work/p.pb.gz" --sample-type samples | grep -q '^total cost *100 samples$' || fail "--sample-type samples"
  ;;
malformed_pprof)
  "$bin" convert "$sample" -o "$work/p.pb" || fail "to pprof"
  size=$(stat -c %s "$work/p.pb")
  head -c $((size / 2)) "$work/p.pb" >"$work/cut.pb"
  expect_error "cut.pb: pprof: .* at byte" "$bin" info "$work/cut.pb"
  gzip -c "$work/p.pb" | head -c 40 >"$work/cut.pb.gz"
  expect_error "truncated gzip" "$bin" info "$work/cut.pb.gz"
  ;;
jfr_hot_method)
  # A recording made by the JDK itself: its hot method is the top of the HighBase suggester.
  record_jfr "$work" 1500
  "$bin" info "$work/hot.jfr" >"$work/info" || fail "info: $(cat "$work/info")"
  grep -q '^format *jfr$' "$work/info" || fail "not read as JFR"
  "$bin" repl "$work/hot.jfr" -c 'set suggester HighBase; suggest 1' >"$work/out" || fail "repl"
  grep -qE '^ +0 .*\[HotMethod\.spin\]$' "$work/out" || fail "HotMethod.spin is not on top: $(cat "$work/out")"
  "$bin" repl "$work/hot.jfr" --threads -c 'suggest 3' | grep -q '\[thread main\]' || fail "--threads has no [thread main]"
  # Corrupted copies: one clear error line or a loaded profile, never a crash.
  size=$(stat -c %s "$work/hot.jfr")
  head -c 4 "$work/hot.jfr" >"$work/magic"
  for i in $(seq 1 60); do
    cp "$work/hot.jfr" "$work/bad.jfr"
    for j in 1 2 3; do
      printf "\\x$(printf %02x $((RANDOM % 256)))" |
        dd of="$work/bad.jfr" bs=1 seek=$(((RANDOM * 32768 + RANDOM) % size)) conv=notrunc 2>/dev/null
    done
    "$bin" info "$work/bad.jfr" >/dev/null 2>"$work/err"
    status=$?
    [ $status -le 1 ] || fail "crash (status $status) on corruption $i"
    # A file whose magic bytes were hit is no longer told as JFR: then any one line naming it.
    expected='bad.jfr: JFR chunk 1 at byte'
    head -c 4 "$work/bad.jfr" | cmp -s - "$work/magic" || expected='bad.jfr'
    [ $status -eq 0 ] || { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "$expected" "$work/err"; } ||
      fail "corruption $i: $(cat "$work/err")"
  done
  head -c $((size - 100)) "$work/hot.jfr" >"$work/cut.jfr"
  expect_error "cut.jfr: JFR chunk 1 at byte 0: the file ends" "$bin" info "$work/cut.jfr"
  ;;
go_pprof)
  # The real pprof opens our export and agrees on the top method (skipped without Go).
  command -v go >/dev/null || { echo "skipped: no go"; exit 0; }
  record_jfr "$work" 1000
  "$bin" convert "$work/hot.jfr" -o "$work/hot.pb.gz" || fail "to pprof"
  HOME=$work go tool pprof -top "$work/hot.pb.gz" >"$work/top" 2>/dev/null || fail "go tool pprof failed"
  awk '/flat%/ {getline; print $NF; exit}' "$work/top" | grep -qx 'HotMethod.spin' ||
    fail "pprof's top method is not HotMethod.spin: $(cat "$work/top")"
  ;;
every_format)
  # tests/formats holds a directory of figure-2 files per format (profile_formats_test holds them
  # to the format table): each file reads as its directory says and gives figure 2's stacks, and
  # every format --to offers writes figure 2 so that it reads back as itself.
  choices=$("$bin" convert --help | sed -n 's/.*--to TEXT:{\(.*\)}.*/\1/p')
  [ -n "$choices" ] || fail "convert --help lists no --to choices"
  for name in ${choices//,/ }; do
    [ "$name" = auto ] || [ -d "$src/tests/formats/$name" ] || fail "--to $name has no tests/formats/$name"
  done
  for dir in "$src"/tests/formats/*/; do
    name=$(basename "$dir")
    for file in "$dir"*; do
      "$bin" info "$file" | grep -qx "format *$name" || fail "$file is not read as $name"
      "$bin" convert "$file" -o "$work/back.collapsed" || fail "convert $file"
      diff <(canonical "$sample") <(canonical "$work/back.collapsed") || fail "$file is not figure 2"
    done
    case ",$choices," in
    *",$name,"*)
      "$bin" convert "$sample" -o "$work/out" --to "$name" || fail "--to $name"
      "$bin" info "$work/out" | grep -qx "format *$name" || fail "--to $name wrote another format"
      "$bin" convert "$work/out" -o "$work/back.collapsed" || fail "read back $name"
      diff <(canonical "$sample") <(canonical "$work/back.collapsed") || fail "round trip through $name differs"
      ;;
    esac
  done
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
