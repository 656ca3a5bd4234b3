#!/usr/bin/env bash
# Starts a throwaway Redis, a three-master Redis Cluster and PostgreSQL on loopback for the
# scale-out tests, installing them from Debian when missing, and prints the variables the tests
# read:
#
#   eval "$(scripts/start-test-services.sh)"     # exports TEST_REDIS_URL, TEST_REDIS_CLUSTER_URL
#                                                #   and TEST_DATABASE_URL
#   scripts/start-test-services.sh --stop        # stops them all and removes their data
#
# All listen on 127.0.0.1 only, on spare ports, with throwaway data (never a system cluster):
# Redis's under .test-services/, PostgreSQL's in a temporary directory the postgres user can reach
# (PostgreSQL refuses to run as root, so as root its tools run as the postgres user). Progress goes
# to stderr; stdout carries only the export lines.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE_DIR="$PWD/.test-services"
log() { echo "test services: $*" >&2; }

as_db_user() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

stop_services() {
  local pidfile
  for pidfile in "$STATE_DIR"/redis*.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  if [ -f "$STATE_DIR/pg-bin" ] && [ -f "$STATE_DIR/pg-dir" ]; then
    local pg_dir
    pg_dir="$(cat "$STATE_DIR/pg-dir")"
    as_db_user "$(cat "$STATE_DIR/pg-bin")/pg_ctl" -D "$pg_dir/data" -m fast -w stop \
      >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  fi
  rm -rf "$STATE_DIR"
}

if [ "${1:-}" = "--stop" ]; then
  stop_services
  log "stopped"
  exit 0
fi

# Anything left over from an earlier run goes first, so ports and data start clean.
stop_services

pg_bindir() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1
}

# promtool (Debian's prometheus) checks /metrics against Prometheus's own rules in the metrics test.
if ! command -v redis-server >/dev/null 2>&1 || [ -z "$(pg_bindir)" ] || ! command -v promtool >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing redis-server, postgresql and prometheus (promtool) from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq redis-server postgresql prometheus >&2
  else
    log "redis-server, PostgreSQL or promtool is missing; install them (apt-get install redis-server postgresql prometheus) or run as root"
    exit 1
  fi
fi

spare_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

mkdir -p "$STATE_DIR"

# Redis: no persistence, loopback only.
REDIS_PORT="$(spare_port)"
mkdir -p "$STATE_DIR/redis"
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
  --pidfile "$STATE_DIR/redis.pid" --dir "$STATE_DIR/redis" --logfile "$STATE_DIR/redis.log" \
  --save '' --appendonly no >&2
for _ in $(seq 1 50); do
  redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
  sleep 0.1
done
redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null
log "redis on 127.0.0.1:$REDIS_PORT"

# Redis Cluster: three masters, no replicas, no persistence, loopback only (the mode most managed
# Redis offerings run). A cluster node also listens on its port + 10000 for the cluster bus, so
# each port is drawn until that one is free too.
cluster_port() {
  local port
  while :; do
    port="$(spare_port)"
    if [ "$port" -lt 55535 ] && ! (echo >"/dev/tcp/127.0.0.1/$((port + 10000))") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}
CLUSTER_NODES=()
for _ in 1 2 3; do
  port="$(cluster_port)"
  mkdir -p "$STATE_DIR/redis-cluster-$port"
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --cluster-enabled yes \
    --cluster-config-file "$STATE_DIR/redis-cluster-$port/nodes.conf" \
    --pidfile "$STATE_DIR/redis-cluster-$port.pid" --dir "$STATE_DIR/redis-cluster-$port" \
    --logfile "$STATE_DIR/redis-cluster-$port/redis.log" --save '' --appendonly no >&2
  CLUSTER_NODES+=("127.0.0.1:$port")
done
for node in "${CLUSTER_NODES[@]}"; do
  for _ in $(seq 1 50); do
    redis-cli -h 127.0.0.1 -p "${node#*:}" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
done
redis-cli --cluster create "${CLUSTER_NODES[@]}" --cluster-replicas 0 --cluster-yes >/dev/null
for _ in $(seq 1 100); do
  redis-cli -h 127.0.0.1 -p "${CLUSTER_NODES[0]#*:}" cluster info 2>/dev/null |
    grep -q '^cluster_state:ok' && break
  sleep 0.1
done
log "redis cluster on ${CLUSTER_NODES[*]}"

# PostgreSQL: a private cluster with a random password, reachable over TCP on loopback only.
PG_BIN="$(pg_bindir)"
echo "$PG_BIN" >"$STATE_DIR/pg-bin"
PG_PORT="$(spare_port)"
PG_PASSWORD="$(node -e "console.log(require('crypto').randomBytes(18).toString('hex'))")"
PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/console-test-pg.XXXXXX")"
echo "$PG_DIR" >"$STATE_DIR/pg-dir"
mkdir -p "$PG_DIR/data" "$PG_DIR/socket"
printf '%s\n' "$PG_PASSWORD" >"$PG_DIR/password"
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$PG_DIR"
fi
as_db_user "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust \
  --auth-host=scram-sha-256 --pwfile="$PG_DIR/password" -E UTF8 >/dev/null
as_db_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR/socket -c fsync=off" start >&2
log "postgresql on 127.0.0.1:$PG_PORT"

echo "export TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
echo "export TEST_REDIS_CLUSTER_URL=redis+cluster://$(IFS=,; echo "${CLUSTER_NODES[*]}")"
echo "export TEST_DATABASE_URL=postgres://postgres:$PG_PASSWORD@127.0.0.1:$PG_PORT/postgres"
