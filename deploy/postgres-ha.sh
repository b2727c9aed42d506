#!/usr/bin/env bash
# A PostgreSQL primary and a streaming standby managed by Patroni (etcd as its store), behind
# HAProxy, on this machine, on demand (ADR 38). The machine's PostgreSQL on 5432 is untouched.
#
#   deploy/postgres-ha.sh up        etcd, two Patroni nodes (one primary, one sync standby), HAProxy
#   deploy/postgres-ha.sh down      stops everything (the state directory stays; `clean` removes it)
#   deploy/postgres-ha.sh status    the members as Patroni sees them (patronictl list)
#   deploy/postgres-ha.sh urls      the read-write and read-only URLs (DATABASE_URL: the first)
#   deploy/postgres-ha.sh switchover  planned: the standby becomes primary, the old primary follows
#   deploy/postgres-ha.sh crash     drill: SIGKILL the primary's Patroni and PostgreSQL processes
#   deploy/postgres-ha.sh start-node NODE   starts a stopped or crashed node (it rejoins as standby)
#   deploy/postgres-ha.sh primary   the name of the node that is primary now (node1 or node2)
#   deploy/postgres-ha.sh clean     down, then removes the state directory
#
# Ports from PG_HA_PORT_BASE (5440): +0 read-write (HAProxy, to the primary), +1 read-only (to a
# streaming standby), +2/+3 node1/node2 PostgreSQL, +4/+5 their Patroni REST APIs, +6/+7 etcd
# client/peer. State (data directories, logs, configs) in PG_HA_STATE_DIR (.pg-ha, git-ignored).
# Run as root, the servers run as the `postgres` OS user (PostgreSQL refuses root).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${PG_HA_STATE_DIR:-$ROOT/.pg-ha}"
BASE="${PG_HA_PORT_BASE:-5440}"
SCOPE="${PG_HA_SCOPE:-ranking}"
# on: commits wait for the standby, and Patroni promotes only it (ADR 38). off: asynchronous,
# ONLY to reproduce what a lossy promotion does (ADR 38: a running consumer then skips the lost
# offsets); never run the services on it.
SYNCHRONOUS="${PG_HA_SYNCHRONOUS:-on}"
[[ $SYNCHRONOUS =~ ^(on|off)$ ]] || {
  echo "PG_HA_SYNCHRONOUS must be on or off" >&2
  exit 2
}
RW_PORT=$BASE
RO_PORT=$((BASE + 1))
ETCD_PORT=$((BASE + 6))
ETCD_PEER_PORT=$((BASE + 7))
NODES=(node1 node2)

pg_port() { [[ $1 == node1 ]] && echo $((BASE + 2)) || echo $((BASE + 3)); }
rest_port() { [[ $1 == node1 ]] && echo $((BASE + 4)) || echo $((BASE + 5)); }

bin_dir() {
  if [[ -n ${PG_BINDIR:-} ]]; then
    echo "$PG_BINDIR"
    return
  fi
  local newest
  newest=$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -n | tail -1)
  [[ -x /usr/lib/postgresql/$newest/bin/initdb ]] || {
    echo "no PostgreSQL server under /usr/lib/postgresql (set PG_BINDIR)" >&2
    exit 1
  }
  echo "/usr/lib/postgresql/$newest/bin"
}

require() {
  local missing=()
  for command in etcd patroni patronictl haproxy curl; do
    command -v "$command" >/dev/null || missing+=("$command")
  done
  if ((${#missing[@]})); then
    echo "missing: ${missing[*]} (deploy/install.sh installs them: patroni etcd-server haproxy)" >&2
    exit 1
  fi
}

# As root, a server runs as `postgres` (setpriv execs it: the pid recorded is the server's own).
AS_SERVER=()
((EUID == 0)) && AS_SERVER=(setpriv --reuid=postgres --regid=postgres --init-groups --)

alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Starts a server in the background, its output in $STATE/<name>.log, its pid in $STATE/<name>.pid.
launch() {
  local name=$1
  shift
  if alive "$STATE/$name.pid"; then return; fi
  setsid bash -c 'exec "$@"' _ "$@" >>"$STATE/$name.log" 2>&1 < /dev/null &
  echo $! >"$STATE/$name.pid"
}

wait_until() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      echo "timed out after ${seconds}s waiting for $what (logs in $STATE)" >&2
      return 1
    fi
    sleep 0.5
  done
}

rest() { curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$(rest_port "$1")/$2"; }

node_config() {
  local node=$1 bin=$2
  cat <<YAML
scope: $SCOPE
name: $node
namespace: /ranking-ha/
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$(rest_port "$node")
  connect_address: 127.0.0.1:$(rest_port "$node")
etcd3:
  hosts: 127.0.0.1:$ETCD_PORT
bootstrap:
  dcs:
    # The leader key lives 20 s without renewal (Patroni's minimum): a dead primary is replaced
    # after at most that, plus a loop.
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    # Synchronous: only the synchronous standby is promoted, which lacks no acknowledged commit.
    # (Asynchronous, PG_HA_SYNCHRONOUS=off: promoted however far behind.)
    maximum_lag_on_failover: 1073741824
    # Only the synchronous standby may be promoted: an automatic failover loses no commit that
    # a client saw succeed. Not strict: with the standby away the primary goes on alone (ADR 38).
    synchronous_mode: $([[ $SYNCHRONOUS == on ]] && echo true || echo false)
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        max_connections: 200
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth: trust
postgresql:
  listen: 127.0.0.1:$(pg_port "$node")
  connect_address: 127.0.0.1:$(pg_port "$node")
  data_dir: $STATE/$node/data
  bin_dir: $bin
  pgpass: $STATE/$node/pgpass
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
    rewind:
      username: postgres
      password: postgres
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
  parameters:
    unix_socket_directories: $STATE/$node
    logging_collector: 'off'
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
YAML
}

haproxy_config() {
  cat <<CFG
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  # Pooled connections sit idle for long: the proxy never closes them for that.
  timeout client 1h
  timeout server 1h
  timeout check 2s
# The primary: the member whose Patroni answers 200 on /primary. A member marked down has its
# sessions cut, so a pool's idle connections to an old primary fail at once and are replaced.
listen primary
  bind 127.0.0.1:$RW_PORT
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
  server node1 127.0.0.1:$(pg_port node1) check port $(rest_port node1)
  server node2 127.0.0.1:$(pg_port node2) check port $(rest_port node2)
# Streaming standbys (reads that may lag), the primary when none is up.
listen standby
  bind 127.0.0.1:$RO_PORT
  balance roundrobin
  option httpchk OPTIONS /replica
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
  server node1 127.0.0.1:$(pg_port node1) check port $(rest_port node1)
  server node2 127.0.0.1:$(pg_port node2) check port $(rest_port node2)
  server primary 127.0.0.1:$RW_PORT backup
CFG
}

start_node() {
  local node=$1
  mkdir -p "$STATE/$node"
  node_config "$node" "$(bin_dir)" >"$STATE/$node/patroni.yml"
  chmod 700 "$STATE/$node"
  ((EUID == 0)) && chown -R postgres:postgres "$STATE/$node"
  launch "$node" "${AS_SERVER[@]}" patroni "$STATE/$node/patroni.yml"
}

ctl() { patronictl -c "$STATE/node1/patroni.yml" "$@"; }

primary() {
  for node in "${NODES[@]}"; do
    if rest "$node" primary; then
      echo "$node"
      return
    fi
  done
  return 1
}

# The standby streams, and in synchronous mode is the synchronous one (the one a failover may
# promote).
sync_standby() {
  local node check=sync
  [[ $SYNCHRONOUS == off ]] && check='replica?lag=16MB'
  node=$(primary) || return 1
  for other in "${NODES[@]}"; do
    [[ $other == "$node" ]] && continue
    rest "$other" "$check" && return
  done
  return 1
}

is_primary() { [[ $(primary) == "$1" ]]; }

up() {
  require
  mkdir -p "$STATE"
  chmod 755 "$STATE"
  ((EUID == 0)) && chown postgres:postgres "$STATE"
  launch etcd "${AS_SERVER[@]}" etcd --name ha --data-dir "$STATE/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "ha=http://127.0.0.1:$ETCD_PEER_PORT"
  wait_until "etcd" 60 curl -sf --max-time 2 "http://127.0.0.1:$ETCD_PORT/health"
  # The first node bootstraps (initdb) and takes the leader key; the second clones it. On a busy
  # two-core machine (CI, the fresh-clone run of issue 42) the bootstrap took over 120 s once.
  start_node node1
  wait_until "a primary" 240 primary
  for node in "${NODES[@]}"; do start_node "$node"; done
  haproxy_config >"$STATE/haproxy.cfg"
  launch haproxy haproxy -db -f "$STATE/haproxy.cfg"
  wait_until "a streaming standby" 180 sync_standby
  wait_until "HAProxy to reach the primary" 60 \
    "$(bin_dir)/pg_isready" -q -h 127.0.0.1 -p "$RW_PORT" -U postgres
  urls
}

stop_pid() {
  local file=$1
  if alive "$file"; then
    local pid
    pid=$(cat "$file")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 120); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

down() {
  [[ -d $STATE ]] || return 0
  stop_pid "$STATE/haproxy.pid"
  # Patroni stops its PostgreSQL on SIGTERM; the standby first, so the primary does not wait.
  local first
  first=$(primary 2>/dev/null || echo node1)
  for node in "${NODES[@]}"; do [[ $node != "$first" ]] && stop_pid "$STATE/$node.pid"; done
  stop_pid "$STATE/$first.pid"
  stop_pid "$STATE/etcd.pid"
}

# A crash as when the primary's machine dies: Patroni first (so it restarts nothing), then the
# postmaster (stopped, so it forks nothing more) and all its processes.
crash() {
  local node pm
  node=$(primary) || {
    echo "no primary to crash" >&2
    exit 1
  }
  kill -KILL "$(cat "$STATE/$node.pid")"
  rm -f "$STATE/$node.pid"
  pm=$(head -1 "$STATE/$node/data/postmaster.pid")
  kill -STOP "$pm"
  pkill -KILL -P "$pm" || true
  kill -KILL "$pm"
  echo "$node"
}

urls() {
  echo "read-write: postgres://postgres@127.0.0.1:$RW_PORT/ranking"
  echo "read-only:  postgres://postgres@127.0.0.1:$RO_PORT/ranking"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) ctl list ;;
  urls) urls ;;
  primary) primary ;;
  switchover)
    node=$(primary)
    ctl switchover --leader "$node" --force
    wait_until "a streaming standby" 180 sync_standby
    ;;
  crash) crash ;;
  start-node)
    [[ ${2:-} =~ ^node[12]$ ]] || {
      echo "usage: $0 start-node node1|node2" >&2
      exit 2
    }
    start_node "$2"
    wait_until "$2 to stream as synchronous standby" 180 sync_standby
    ;;
  clean)
    down
    rm -rf "$STATE"
    ;;
  *)
    echo "usage: $0 up|down|status|urls|primary|switchover|crash|start-node NODE|clean" >&2
    exit 2
    ;;
esac
