#!/usr/bin/env bash
# Brings up what the system and the tests need, each step checking first (a second run is fast):
# PostgreSQL and Redis (the machine's own), the local Kafka broker, the database, migrations, topics.
# Needs `npm ci && npm run build` first (it runs the built `ranking setup`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Node 24 (deploy/node.sh): the pinned binary first on PATH when the machine's node is another.
# shellcheck source=deploy/node.sh
source "$ROOT/deploy/node.sh"
use_node_runtime
log() { echo "[infra] $*"; }

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  log "PostgreSQL is down; starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 >/dev/null || { log "PostgreSQL did not come up"; exit 1; }
log "PostgreSQL up"

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "Redis is down; starting it"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null || { log "Redis did not come up"; exit 1; }
log "Redis up"

bash deploy/kafka/kafka.sh start
node bin/ranking.js setup
