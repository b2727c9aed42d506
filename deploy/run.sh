#!/usr/bin/env bash
# The README's run command: installs, brings up PostgreSQL, Redis and Kafka, migrates, creates the
# topics and ACLs, runs every service that exists (dist/apps/*-service) and the game simulator,
# each as its own Kafka principal on the SASL listener (so the ACLs are exercised every day) and
# its own PostgreSQL role (ADR 40; passwords generated once in .postgres/credentials.json),
# prints the leaderboard page's address, and stops everything it started on Ctrl-C.
# SIMULATE_RATE (events per second, default 20) and SIMULATE_BACKFILL_DAYS (default 3) tune the feed.
# RANKING_TOURNAMENTS_FILE (default: deploy/demo-tournaments.json) is served by the leaderboard
# service, and the simulator plays its tournaments out before the backfill.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Node 24 (deploy/node.sh): the pinned binary first on PATH when the machine's node is another.
# shellcheck source=deploy/node.sh
source "$ROOT/deploy/node.sh"
use_node_runtime
bash deploy/install.sh
bash deploy/infra-up.sh
# shellcheck source=deploy/kafka/principal.sh
source deploy/kafka/principal.sh
# shellcheck source=deploy/postgres/roles.sh
source deploy/postgres/roles.sh
ensure_database_credentials
# Topics and ACLs as the admin principal, the only one that may write them; the database's roles
# (with their passwords) and grants as the PostgreSQL superuser of DATABASE_URL; the simulator as
# a producer of every ladder with its backfill (ADR 39), and a new password for it each run.
(with_database_passwords with_principal admin node bin/ranking.js setup --with-simulator)
mkdir -p .run
(
  umask 077
  with_database_role ops with_principal admin node bin/ranking.js producer add simulator --rotate >.run/simulator-producer.json
)
export RANKING_TOURNAMENTS_FILE="${RANKING_TOURNAMENTS_FILE:-$ROOT/deploy/demo-tournaments.json}"
pids=()
names=()
stop() {
  trap - INT TERM
  echo "[run] stopping"
  # The simulator first (it was started last), then the services, each with SIGTERM.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[$i]}" 2>/dev/null || true
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" 2>/dev/null || true
    echo "[run] ${names[$i]} stopped"
  done
  echo "[run] stopped (the Kafka broker keeps running: npm run infra:down stops it)"
  exit 0
}
trap stop INT TERM
start() {
  local name="$1"
  shift
  "$@" >>".run/${name}.log" 2>&1 &
  pids+=("$!")
  names+=("$name")
  echo "[run] started ${name} (pid $!, log .run/${name}.log)"
}
for main in dist/apps/*-service/src/main.js; do
  [[ -f "$main" ]] || continue
  name="$(basename "$(dirname "$(dirname "$main")")")"
  # The rating service's larger young generation (see deploy/k8s/rating-service.yaml).
  flags=()
  [[ "$name" == rating-service ]] && flags=(--max-semi-space-size=32)
  # Each service is a principal of the same name (libs/kafka/src/acls.ts) and its own database
  # role (libs/persistence/src/database-roles.ts; the intake's reads the producers alone).
  start "$name" with_database_role "${name%-service}" with_principal "$name" node "${flags[@]}" "$main"
done
if [[ ${#pids[@]} -eq 0 ]]; then
  echo "[run] infrastructure ready; no services are built yet"
  exit 0
fi
# With the heap flag given, bin/ranking.js runs the CLI in this process (no re-executed child),
# so the SIGTERM of the stop reaches it.
start simulator with_producer .run/simulator-producer.json node "--max-old-space-size=${RANKING_HEAP_MB:-2048}" bin/ranking.js simulate --rate "${SIMULATE_RATE:-20}" \
  --backfill-days "${SIMULATE_BACKFILL_DAYS:-3}" --tournaments "$RANKING_TOURNAMENTS_FILE"
port="${HTTP_PORT:-3000}"
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:${port}/health/ready" >/dev/null 2>&1 && break
  sleep 1
done
echo "[run] leaderboard page: http://127.0.0.1:${port}/   (API docs: http://127.0.0.1:${port}/docs)"
echo "[run] tournaments: http://127.0.0.1:${port}/?tournament   (GET /v1/tournaments lists them)"
echo "[run] probes and metrics: /health/live, /health/ready, /metrics on ports ${port} (leaderboard), ${MAINTENANCE_HTTP_PORT:-3001} (maintenance), ${RATING_HTTP_PORT:-3002} (rating), ${INTAKE_HTTP_PORT:-3003} (intake); logs are JSON lines in .run/"
echo "[run] Ctrl-C stops everything"
wait
