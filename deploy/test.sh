#!/usr/bin/env bash
# The README's test command: installs, brings up PostgreSQL, Redis and Kafka (each step checks
# first), then runs every test tier (unit and integration) against the real services.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Node 24 (deploy/node.sh): the pinned binary first on PATH when the machine's node is another.
# shellcheck source=deploy/node.sh
source "$ROOT/deploy/node.sh"
use_node_runtime
bash deploy/install.sh
bash deploy/infra-up.sh
npm run --silent jest -- "$@"
