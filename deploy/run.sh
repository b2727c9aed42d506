#!/usr/bin/env bash
# The README's run command: installs, brings up PostgreSQL, Redis and Kafka, migrates, creates the
# topics, then runs every service that exists (dist/apps/*-service) until Ctrl-C.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash deploy/install.sh
bash deploy/infra-up.sh
mkdir -p .run
pids=()
stop() {
  trap - INT TERM
  echo "[run] stopping services"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
  echo "[run] stopped (the Kafka broker keeps running: npm run infra:down stops it)"
}
trap stop INT TERM
for main in dist/apps/*-service/src/main.js; do
  [[ -f "$main" ]] || continue
  name="$(basename "$(dirname "$(dirname "$main")")")"
  node "$main" >>".run/${name}.log" 2>&1 &
  pids+=("$!")
  echo "[run] started ${name} (pid $!, log .run/${name}.log)"
done
if [[ ${#pids[@]} -eq 0 ]]; then
  echo "[run] infrastructure ready; no services are built yet. Try: npx ranking generate --seed 1 --events 10000 --out /tmp/events.ndjson && npx ranking replay --events /tmp/events.ndjson --simulate --out /tmp/standings.json"
  exit 0
fi
wait
