# shellcheck shell=bash
# Real ClickHouse servers for end-to-end tests, each confined to a directory of the test's own:
# data, logs, users and config under DIR, listening on 127.0.0.1 only, on ports picked at random
# (CI machines run other things, so a port taken between the pick and the bind is picked again).
# Never the packaged service, whose data and ports belong to the machine.
#
# Source it after testlib.sh, at the top level of the test (not in $(...): the servers, their
# pids and the EXIT trap that stops them live in this shell; a test that sets an EXIT trap of its
# own afterwards calls clickhouse_stop_all in it). Needs curl and util-linux's setpriv.
#   clickhouse_start_node DIR     one server; sets CLICKHOUSE_HTTP_PORT, CLICKHOUSE_TCP_PORT
#   clickhouse_start_cluster DIR  two servers, DIR/1 and DIR/2, whose configs both name them as
#                                 cluster bn_two_shards (a shard each); sets CLICKHOUSE_HTTP_PORTS
#                                 and CLICKHOUSE_TCP_PORTS (arrays), CLICKHOUSE_HTTP_PORT = the first
#   clickhouse_query PORT SQL [NAME=VALUE...]
#                                 SQL over HTTP with those settings; the answer on stdout, the
#                                 server's error and a non-zero status on an error
#   clickhouse_stop_all           stops every server started here (also run on exit)
# Without clickhouse-server or curl the test exits with 77, which CMake marks as skipped
# (SKIP_RETURN_CODE), after one line saying what is missing.

for _ch_tool in clickhouse-server curl; do
  command -v "$_ch_tool" >/dev/null || { echo "SKIP: $_ch_tool is not installed" >&2; exit 77; }
done

CLICKHOUSE_PIDS=()  # the servers started and not yet stopped
# Startup takes about a second; a loaded 2-core machine can make it many times that.
CLICKHOUSE_START_SECONDS=${CLICKHOUSE_START_SECONDS:-60}

# Stop the servers before the test's own exit trap (testlib.sh removes the scratch directory).
eval "_ch_previous_trap=($(trap -p EXIT))"
# shellcheck disable=SC2064  # the previous trap's command is taken now, as text
trap "clickhouse_stop_all; ${_ch_previous_trap[2]-}" EXIT

clickhouse_query() {
  local url="http://127.0.0.1:$1/?" setting
  for setting in "${@:3}"; do url+="$setting&"; done
  curl -sS --fail-with-body --max-time 60 --data-binary "$2" "$url"
}

# _ch_alive PID: PID is a server of ours still running: a child of this shell (so never a later
# process given a reaped server's pid) and not a zombie waiting to be reaped.
_ch_alive() {
  local fields state
  read -r fields 2>/dev/null <"/proc/$1/stat" || return 1
  fields=${fields##*) }  # after "PID (COMMAND) ": state, parent, ...
  state=${fields%% *}
  fields=${fields#* }
  [[ $state != Z && ${fields%% *} == "$$" ]]
}

# _ch_pick_ports COUNT: _ch_ports = COUNT distinct ports in 10000-31999 (below Linux's range
# for outgoing connections) that nothing listens on now.
_ch_pick_ports() {
  local port
  _ch_ports=()
  while ((${#_ch_ports[@]} < $1)); do
    port=$((10000 + RANDOM % 22000))
    [[ " ${_ch_ports[*]} " == *" $port "* ]] && continue
    (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
    _ch_ports+=("$port")
  done
}

# _ch_write_config DIR HTTP TCP INTERSERVER [REMOTE_SERVERS_XML]
_ch_write_config() {
  local dir=$1
  mkdir -p "$dir/log" "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas"
  # max_server_memory_usage is newer than 18.16: the cap is the profile's
  # max_memory_usage_for_all_queries.
  cat >"$dir/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles><default>
    <max_memory_usage>1000000000</max_memory_usage>
    <max_memory_usage_for_all_queries>2000000000</max_memory_usage_for_all_queries>
    <background_pool_size>2</background_pool_size>
  </default></profiles>
  <users><default>
    <password></password>
    <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile>
    <quota>default</quota>
  </default></users>
  <quotas><default></default></quotas>
</yandex>
EOF
  cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$dir/log/server.log</log>
    <errorlog>$dir/log/error.log</errorlog>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$2</http_port>
  <tcp_port>$3</tcp_port>
  <interserver_http_port>$4</interserver_http_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mlock_executable>false</mlock_executable>
  <macros><bn_server>$dir</bn_server></macros>
  ${5-}
</yandex>
EOF
}

# _ch_launch DIR: starts DIR's server in the background and records its pid. setpriv's parent
# death signal stops it even if this shell is killed outright (a ctest timeout) and never runs
# its exit trap.
_ch_launch() {
  : >"$1/log/error.log"
  setpriv --pdeathsig TERM -- clickhouse-server --config-file="$1/config.xml" >"$1/log/console.log" 2>&1 &
  CLICKHOUSE_PIDS+=($!)
  _ch_last_pid=$!
}

# _ch_wait DIR PID HTTP_PORT: 0 once the server answers, 2 if it could not bind its ports (pick
# others), 1 if it failed otherwise or took too long (its error log on stderr). The answer is the
# server's macro bn_server, its directory: a server of someone else's that took the port after it
# was picked answers a plain SELECT 1 too.
_ch_whoami="SELECT substitution FROM system.macros WHERE macro = 'bn_server'"
_ch_wait() {
  local deadline=$((SECONDS + CLICKHOUSE_START_SECONDS))
  while ((SECONDS < deadline)); do
    [[ $(curl -s --max-time 5 --data-binary "$_ch_whoami" "http://127.0.0.1:$3/" 2>/dev/null) == "$1" ]] && return 0
    if ! _ch_alive "$2"; then
      grep -q 'Address already in use' "$1/log/error.log" "$1/log/console.log" && return 2
      echo "clickhouse-server in $1 exited while starting:" >&2
      tail -n 20 "$1/log/error.log" "$1/log/console.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "clickhouse-server in $1 did not answer within $CLICKHOUSE_START_SECONDS s:" >&2
  tail -n 20 "$1/log/error.log" >&2
  return 1
}

# _ch_stop PID...: SIGTERM, up to 20 s to shut down, then SIGKILL; reaps them and forgets them.
_ch_stop() {
  local pid kept=() deadline=$((SECONDS + 20))
  for pid in "$@"; do _ch_alive "$pid" && kill -TERM "$pid"; done
  for pid in "$@"; do
    while _ch_alive "$pid" && ((SECONDS < deadline)); do sleep 0.05; done
    _ch_alive "$pid" && kill -KILL "$pid"
    wait "$pid" 2>/dev/null || :  # its exit status is not ours to report
  done
  for pid in "${CLICKHOUSE_PIDS[@]}"; do
    [[ " $* " == *" $pid "* ]] || kept+=("$pid")
  done
  CLICKHOUSE_PIDS=("${kept[@]}")
}

# _ch_start_servers DIR...: one server per DIR, all answering, all named in each config's
# cluster when there are several; while some could not bind its ports, all again on others.
_ch_start_servers() {
  local attempt i status pids
  if ((BASH_SUBSHELL > 0)); then
    echo "clickhouse_servers.sh: start servers in the test's shell, not in \$(...) or a pipe" >&2
    return 1
  fi
  for ((attempt = 1; attempt <= 5; attempt++)); do
    _ch_pick_ports $((3 * $#))
    CLICKHOUSE_HTTP_PORTS=("${_ch_ports[@]:0:$#}")
    CLICKHOUSE_TCP_PORTS=("${_ch_ports[@]:$#:$#}")
    # shellcheck disable=SC2034  # for the test that sources this
    CLICKHOUSE_HTTP_PORT=${CLICKHOUSE_HTTP_PORTS[0]} CLICKHOUSE_TCP_PORT=${CLICKHOUSE_TCP_PORTS[0]}
    pids=()
    for ((i = 1; i <= $#; i++)); do
      _ch_write_config "${!i}" "${CLICKHOUSE_HTTP_PORTS[i - 1]}" "${CLICKHOUSE_TCP_PORTS[i - 1]}" \
        "${_ch_ports[2 * $# + i - 1]}" "$(_ch_remote_servers)"
      _ch_launch "${!i}"
      pids+=("$_ch_last_pid")
    done
    for ((i = 1; i <= $#; i++)); do
      status=0
      _ch_wait "${!i}" "${pids[i - 1]}" "${CLICKHOUSE_HTTP_PORTS[i - 1]}" || status=$?
      ((status == 0)) || break
    done
    if ((status == 0)); then
      for ((i = 1; i <= $#; i++)); do
        echo "clickhouse-server in ${!i}: http ${CLICKHOUSE_HTTP_PORTS[i - 1]}, tcp ${CLICKHOUSE_TCP_PORTS[i - 1]}" >&2
      done
      return 0
    fi
    _ch_stop "${pids[@]}"
    ((status == 2)) || return 1
  done
  echo "clickhouse_servers.sh: no ports it could bind after 5 attempts" >&2
  return 1
}

# The <remote_servers> section of the servers being started: none for a single node.
_ch_remote_servers() {
  ((${#CLICKHOUSE_TCP_PORTS[@]} > 1)) || return 0
  local port
  printf '<remote_servers><bn_two_shards>'
  for port in "${CLICKHOUSE_TCP_PORTS[@]}"; do
    printf '<shard><replica><host>127.0.0.1</host><port>%s</port></replica></shard>' "$port"
  done
  printf '</bn_two_shards></remote_servers>'
}

clickhouse_start_node() {
  _ch_start_servers "$1"
}

clickhouse_start_cluster() {
  _ch_start_servers "$1/1" "$1/2"
}

clickhouse_stop_all() {
  _ch_stop "${CLICKHOUSE_PIDS[@]}"
}
