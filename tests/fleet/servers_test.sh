#!/usr/bin/env bash
# The ClickHouse test servers (clickhouse_servers.sh) start, store and answer, shard through
# their cluster, and are all gone once stopped.
# Usage: servers_test.sh CASE
set -uo pipefail
case=$1
source "$(dirname "$0")/../cli/testlib.sh"
source "$(dirname "$0")/clickhouse_servers.sh"

# query PORT SQL [NAME=VALUE...]: clickhouse_query, failing the test on an error.
query() { clickhouse_query "$@" || fail "query '$2' on port $1"; }

# stop_and_check: after clickhouse_stop_all no process of ours is left, by the pids started or
# by a command line naming this test's directory.
stop_and_check() {
  local pids=("${CLICKHOUSE_PIDS[@]}") pid left
  clickhouse_stop_all
  for pid in "${pids[@]}"; do
    [[ -d /proc/$pid ]] && grep -qa clickhouse-server "/proc/$pid/cmdline" && fail "server $pid still runs"
  done
  # The pattern from a pipe: grep's own command line must not hold it.
  left=$(grep -lsaF -f <(echo "$work/") /proc/[0-9]*/cmdline) && fail "still running: $left"
}

case $case in
node)
  clickhouse_start_node "$work/node" || fail "the server did not start"
  port=$CLICKHOUSE_HTTP_PORT
  query "$port" "CREATE DATABASE fleet"
  query "$port" "CREATE TABLE fleet.stacks (host UInt32, stack String, samples UInt64) ENGINE = MergeTree ORDER BY (host, stack)"
  query "$port" "INSERT INTO fleet.stacks VALUES (1, 'main;run', 7), (2, 'main;run', 5), (2, 'main;idle', 1)"
  answer=$(query "$port" "SELECT stack, sum(samples) FROM fleet.stacks GROUP BY stack ORDER BY stack FORMAT CSV")
  [[ $answer == $'"main;idle",1\n"main;run",12' ]] || fail "read back: $answer"
  [[ $(ls "$work/node/data/data/fleet") == stacks ]] || fail "the table is not in the node's directory"
  stop_and_check
  ;;
cluster)
  clickhouse_start_cluster "$work/cluster" || fail "the cluster did not start"
  [[ $CLICKHOUSE_HTTP_PORT == "${CLICKHOUSE_HTTP_PORTS[0]}" ]] || fail "CLICKHOUSE_HTTP_PORT is not the first server's"
  for port in "${CLICKHOUSE_HTTP_PORTS[@]}"; do
    query "$port" "CREATE DATABASE fleet"
    query "$port" "CREATE TABLE fleet.local (n UInt64) ENGINE = MergeTree ORDER BY n"
    query "$port" "CREATE TABLE fleet.all AS fleet.local ENGINE = Distributed(bn_two_shards, fleet, local, rand())"
  done
  query "$CLICKHOUSE_HTTP_PORT" "INSERT INTO fleet.all SELECT number FROM system.numbers LIMIT 1000" \
    insert_distributed_sync=1
  for port in "${CLICKHOUSE_HTTP_PORTS[@]}"; do
    rows=$(query "$port" "SELECT count() FROM fleet.local")
    ((rows > 0 && rows < 1000)) || fail "the shard on port $port holds $rows of the 1000 rows"
  done
  answer=$(query "${CLICKHOUSE_HTTP_PORTS[1]}" "SELECT count(), sum(n) FROM fleet.all FORMAT CSV")
  [[ $answer == 1000,499500 ]] || fail "the Distributed table reads $answer, not 1000,499500"
  stop_and_check
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
