#!/usr/bin/env bash
# End-to-end checks of the fleet store (docs/fleet.md) against real ClickHouse servers started in
# the test's own directory (clickhouse_servers.sh): a slice equals the local sum of its files,
# stack by stack and metric by metric, on one node and through a two-shard Distributed table;
# pushes are idempotent and all or nothing; slices split into runs by host; bad URLs, empty
# slices and absent servers are one-line errors.
# Usage: fleet_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
source "$src/tests/cli/testlib.sh"
source "$(dirname "$0")/clickhouse_servers.sh"

# The recordings pushed: a sampling recording with per-sample records, two generated trees with
# a second metric (calls), collapsed stacks and a pprof file.
mail=$src/samples/mail/mail.bnp
"$bin" generate --nodes 20k --seed 3 --calls -o "$work/g3.bnp" || fail "generate"
"$bin" generate --nodes 20k --seed 4 --calls -o "$work/g4.bnp" || fail "generate"
files=("$mail" "$work/g3.bnp" "$work/g4.bnp" "$src/samples/compare-runs/a1.collapsed"
       "$src/tests/formats/pprof/figure2.pb.gz")

# summed METRIC: stdin's collapsed stacks, each stack's values added, sorted.
summed() { awk '{ v = $NF; $NF = ""; s[$0] += v } END { for (k in s) print k s[k] }' | LC_ALL=C sort; }

# local_sum METRIC FILE...: what the files hold under METRIC, summed (the recorded tree of a
# recording: --states all).
local_sum() {
  local metric=$1 f; shift
  for f in "$@"; do
    "$bin" info "$f" | grep -q "^\(metric\|other metrics\) .*\b$metric\b" || continue
    "$bin" convert "$f" --states all --metric "$metric" -o - || fail "convert $f"
  done | summed
}

# slice_sum METRIC URL: the slice under METRIC as collapsed stacks, summed the same way.
slice_sum() { "$bin" convert "$2" --metric "$1" -o - | summed; }

# same_stacks METRIC URL FILE...: the slice and the local sum agree on every stack and value.
same_stacks() {
  local metric=$1 url=$2; shift 2
  local_sum "$metric" "$@" >"$work/local.$metric"
  slice_sum "$metric" "$url" >"$work/slice.$metric" || fail "convert $url --metric $metric"
  [ -s "$work/local.$metric" ] || fail "nothing local under $metric"
  cmp -s "$work/local.$metric" "$work/slice.$metric" ||
    fail "$metric differs from the local sum: $(diff "$work/local.$metric" "$work/slice.$metric" | head -5)"
}

push() { "$bin" push "$@" >"$work/push.out" 2>"$work/push.err" || fail "push $*: $(cat "$work/push.err")"; }

case $case in
node | cluster)
  if [ "$case" = node ]; then
    clickhouse_start_node "$work/ch" || fail "the server did not start"
    store=clickhouse://127.0.0.1:$CLICKHOUSE_HTTP_PORT/fleet
  else
    clickhouse_start_cluster "$work/ch" || fail "the cluster did not start"
    for port in "${CLICKHOUSE_HTTP_PORTS[@]}"; do push --create --to "clickhouse://127.0.0.1:$port/fleet"; done
    store="clickhouse://127.0.0.1:$CLICKHOUSE_HTTP_PORT/fleet?cluster=bn_two_shards"
  fi
  push --create --to "$store"
  grep -q "^schema version 1 ready" "$work/push.out" || fail "create: $(cat "$work/push.out")"
  [[ $store == *\?* ]] && sep='&' || sep='?'
  push "${files[@]}" --to "$store" --label service=shop --label version=1.5 --label host=h1
  grep -q "^pushed 5 recordings" "$work/push.out" || fail "push: $(cat "$work/push.out")"
  slice="$store${sep}service=shop&version=1.5"
  same_stacks samples "$slice" "${files[@]}"
  same_stacks calls "$slice" "${files[@]}"
  # A sampling recording's slice opens on CPU, as the file does.
  "$bin" info "$slice" >"$work/info" || fail "info"
  grep -q '^metric *cpu-time$' "$work/info" || fail "metric 0 is not cpu-time: $(cat "$work/info")"
  grep -q '^recordings *5$' "$work/info" || fail "recordings: $(cat "$work/info")"
  # The same files again: skipped, never counted twice.
  push "${files[@]}" --to "$store" --label service=shop --label version=1.5 --label host=h1
  grep -q "^pushed 0 recordings.*5 already there, skipped" "$work/push.out" || fail "again: $(cat "$work/push.out")"
  same_stacks samples "$slice" "${files[@]}"
  if [ "$case" = cluster ]; then
    # A push's samples and recording row lie on the shard its id selects (the remainder by the
    # shards' total weight, 2: the first shard takes even ids). Push ids are random, so which
    # shards hold rows is not fixed; where each push lies is.
    for i in 0 1; do
      port=${CLICKHOUSE_HTTP_PORTS[i]}
      for t in samples recordings; do
        n=$(clickhouse_query "$port" "SELECT count() FROM fleet.$t WHERE push % 2 != $i") || fail "count on $port"
        [ "$n" -eq 0 ] || fail "shard $i holds $n $t rows of the other shard's pushes"
      done
    done
    total=$(clickhouse_query "$CLICKHOUSE_HTTP_PORT" "SELECT uniqExact(push) FROM fleet.samples_all") || fail "pushes"
    [ "$total" -eq 5 ] || fail "$total pushes hold samples, not 5"
  fi
  # Slices by label, host and time (other files: a recording is stored once, whatever its labels).
  "$bin" generate --nodes 5k --seed 5 -o "$work/g5.bnp" || fail "generate"
  "$bin" generate --nodes 5k --seed 6 -o "$work/g6.bnp" || fail "generate"
  push "$work/g5.bnp" --to "$store" --label service=api --label version=1 --label host=a --label region=eu \
    --time 2026-11-20T10:00
  push "$work/g6.bnp" --to "$store" --label service=api --label version=1 --label host=b --time 2026-11-21T10:00
  same_stacks samples "$store${sep}service=api&label.region=eu" "$work/g5.bnp"
  same_stacks samples "$store${sep}service=api&host=b" "$work/g6.bnp"
  same_stacks samples "$store${sep}service=api&from=2026-11-21&to=2026-11-22" "$work/g6.bnp"
  same_stacks samples "$store${sep}service=api&from=2026-11-20&to=2026-11-22" "$work/g5.bnp" "$work/g6.bnp"
  push "$mail" --to "$store" --label service=api --label version=1
  grep -q "1 already there, skipped" "$work/push.out" || fail "a recording pushed under other labels: $(cat "$work/push.out")"
  ;;
runs)
  # --runs-by host: one run per host, so that diff tests across hosts.
  clickhouse_start_node "$work/ch" || fail "the server did not start"
  store=clickhouse://127.0.0.1:$CLICKHOUSE_HTTP_PORT/fleet
  push --create --to "$store"
  for h in 1 2 3; do
    "$bin" generate --nodes 5k --seed "$((10 + h))" -o "$work/old$h.bnp" || fail "generate"
    "$bin" generate --nodes 5k --seed "$((20 + h))" -o "$work/new$h.bnp" || fail "generate"
    push "$work/old$h.bnp" --to "$store" --label service=s --label version=1 --label "host=h$h"
    push "$work/new$h.bnp" --to "$store" --label service=s --label version=2 --label "host=h$h"
  done
  "$bin" diff "$store?service=s&version=2" --base "$store?service=s&version=1" --runs-by host --format json \
    >"$work/diff.json" 2>"$work/err"
  [ $? -le 1 ] || fail "diff: $(cat "$work/err")"
  python3 - "$work/diff.json" <<'PY' || fail "runs: $(head -c 600 "$work/diff.json")"
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["a"], d["b"]
assert [r["file"].rsplit(" ", 1)[1] for r in a] == ["host=h1", "host=h2", "host=h3"], a
assert len(b) == 3, b
PY
  # --runs-by day (runs_by= in the URL does the same): one run per day of the recordings.
  for d in 1 2 3 4; do "$bin" generate --nodes 2k --seed "$((30 + d))" -o "$work/d$d.bnp" || fail "generate"; done
  push "$work/d1.bnp" --to "$store" --label service=d --label version=1 --time 2026-11-20T23:59
  push "$work/d2.bnp" --to "$store" --label service=d --label version=1 --time 2026-11-21T00:01
  push "$work/d3.bnp" --to "$store" --label service=d --label version=2 --time 2026-11-20T12:00
  push "$work/d4.bnp" --to "$store" --label service=d --label version=2 --time 2026-11-21T12:00
  "$bin" diff "$store?service=d&version=2&runs_by=day" --base "$store?service=d&version=1" --runs-by day \
    --format json >"$work/days.json" 2>"$work/err"
  [ $? -le 1 ] || fail "diff by day: $(cat "$work/err")"
  python3 - "$work/days.json" <<'PY' || fail "runs by day: $(head -c 600 "$work/days.json")"
import json, sys
d = json.load(open(sys.argv[1]))
for side in ("a", "b"):
    assert [r["file"].rsplit(" ", 1)[1] for r in d[side]] == ["day=2026-11-20", "day=2026-11-21"], d[side]
PY
  expect_error "this command reads one profile" "$bin" info "$store?service=s" --runs-by host
  expect_error "is a file, not a clickhouse:// source" "$bin" info "$work/old1.bnp" --runs-by host
  ;;
faults)
  clickhouse_start_node "$work/ch" || fail "the server did not start"
  port=$CLICKHOUSE_HTTP_PORT
  store=clickhouse://127.0.0.1:$port/fleet
  expect_error "no database 'fleet'; create it with \`bottlenecks push --create" "$bin" info "$store?service=x"
  push --create --to "$store"
  expect_error "the store is empty" "$bin" info "$store?service=x"
  push "$mail" --to "$store" --label service=mail --label version=1
  expect_error "no samples in this slice; the store has: service=mail version=1 (1 recordings" \
    "$bin" repl "$store?service=mial" -c quit
  expect_error "unknown parameter 'sevice'" "$bin" info "$store?sevice=mail"
  expect_error "bad port '8l23'" "$bin" info "clickhouse://127.0.0.1:8l23/fleet"
  expect_error "from: bad time" "$bin" info "$store?service=mail&from=yesterday"
  # A port nothing listens on.
  expect_error "cannot connect: Connection refused" "$bin" info "clickhouse://127.0.0.1:1/fleet"
  expect_error "is required" "$bin" push "$mail" --to "$store" --label version=1
  expect_error "refused the credentials of user 'nobody'" \
    "$bin" info "clickhouse://nobody:secret@127.0.0.1:$port/fleet?service=mail"
  grep -q secret "$work/err" && fail "the password is printed: $(cat "$work/err")"
  # A store of another layout version, and a statement the server refuses (a table of the same
  # name without the columns a query needs).
  clickhouse_query "$port" "CREATE DATABASE other" >/dev/null || fail "create other"
  clickhouse_query "$port" "CREATE TABLE other.bn_schema (version UInt32) ENGINE = TinyLog" >/dev/null || fail "schema"
  clickhouse_query "$port" "INSERT INTO other.bn_schema VALUES (2)" >/dev/null || fail "version 2"
  expect_error "the store has schema version 2, this bottlenecks reads version 1" \
    "$bin" info "clickhouse://127.0.0.1:$port/other?service=mail"
  clickhouse_query "$port" "CREATE DATABASE odd" >/dev/null || fail "create odd"
  clickhouse_query "$port" "CREATE TABLE odd.bn_schema (version UInt32) ENGINE = TinyLog" >/dev/null || fail "schema"
  clickhouse_query "$port" "INSERT INTO odd.bn_schema VALUES (1)" >/dev/null || fail "version 1"
  for t in samples stacks frames recordings; do
    clickhouse_query "$port" "CREATE TABLE odd.$t (x UInt8) ENGINE = TinyLog" >/dev/null || fail "odd.$t"
  done
  expect_error "ClickHouse refused the statement: " "$bin" info "clickhouse://127.0.0.1:$port/odd?service=mail"
  # The server goes away mid-push: the recording is not half-counted, and pushing it again
  # stores it whole. The kill comes once the first batch of sample rows is in the table.
  "$bin" generate --nodes 1.5M --seed 9 -o "$work/big.bnp" || fail "generate"
  "$bin" push "$work/big.bnp" --to "$store" --label service=big --label version=1 >"$work/cut.out" 2>"$work/cut.err" &
  pusher=$!
  for _ in $(seq 600); do
    n=$(clickhouse_query "$port" "SELECT count() FROM fleet.samples WHERE service = 'big'") || n=0
    [ "$n" -gt 0 ] && break
    sleep 0.05
  done
  [ "$n" -gt 0 ] || fail "no sample rows arrived"
  kill -9 "${CLICKHOUSE_PIDS[0]}"
  wait "$pusher" && fail "the push succeeded although its server was killed: $(cat "$work/cut.out")"
  [ "$(wc -l <"$work/cut.err")" -eq 1 ] || fail "more than one error line: $(cat "$work/cut.err")"
  grep -q "big.bnp: .*nothing of it is counted" "$work/cut.err" || fail "cut push: $(cat "$work/cut.err")"
  clickhouse_stop_all
  clickhouse_start_node "$work/ch" || fail "the server did not start again"
  store=clickhouse://127.0.0.1:$CLICKHOUSE_HTTP_PORT/fleet
  n=$(clickhouse_query "$CLICKHOUSE_HTTP_PORT" "SELECT count() FROM fleet.samples WHERE service = 'big'") || fail "count"
  [ "$n" -gt 0 ] || fail "the cut push left no rows: the test killed nothing mid-way"
  expect_error "no samples in this slice" "$bin" info "$store?service=big"
  push "$work/big.bnp" --to "$store" --label service=big --label version=1
  # Stack by stack is shown above on smaller files; here the shape and total, which a recording
  # counted one and a half times would not keep.
  shape() { "$bin" info "$1" | grep -E '^(nodes|depth|out-degree|distinct methods|total cost) '; }
  cmp -s <(shape "$work/big.bnp") <(shape "$store?service=big") ||
    fail "the slice is not the file: $(diff <(shape "$work/big.bnp") <(shape "$store?service=big"))"
  ;;
record)
  # record --push --every: a snapshot's growth is pushed as it appears, and the pushes add up to
  # the recording, which is then in the store (pushing the file again is skipped).
  clickhouse_start_node "$work/ch" || fail "the server did not start"
  store=clickhouse://127.0.0.1:$CLICKHOUSE_HTTP_PORT/fleet
  push --create --to "$store"
  javac -d "$work/classes" "$src"/samples/mail/src/mail/*.java || fail "javac"
  "$bin" record -o "$work/live.bnp" --interval 10ms --push "$store" --label service=live --label version=1 \
    --every 500ms -- java -cp "$work/classes" mail.Mailroom 4 >"$work/rec.out" 2>"$work/rec.err" ||
    fail "record: $(cat "$work/rec.err")"
  grep -q "^bottlenecks: pushed $work/live.bnp" "$work/rec.out" || fail "record: $(cat "$work/rec.out")"
  pushes=$(clickhouse_query "$CLICKHOUSE_HTTP_PORT" "SELECT count() FROM fleet.recordings WHERE service = 'live'") ||
    fail "count"
  [ "$pushes" -ge 3 ] || fail "$pushes pushes in 4 s of snapshots every 500 ms"
  same_stacks samples "$store?service=live" "$work/live.bnp"
  push "$work/live.bnp" --to "$store" --label service=live --label version=1
  grep -q "1 already there, skipped" "$work/push.out" || fail "the recording again: $(cat "$work/push.out")"
  expect_error "only the sampling mode writes snapshots" "$bin" record -o "$work/x.bnp" --mode calltree \
    --push "$store" --label service=x --label version=1 --every 1s -- java -version
  expect_error "go with --push" "$bin" record -o "$work/x.bnp" --every 1s -- java -version
  ;;
*) fail "unknown case $case" ;;
esac
