#!/usr/bin/env bash
# The three-broker fault tests (issues 16 and 41, ADR 37; in .ci/run): builds, starts the 3-node
# KRaft cluster of `kafka.sh start --brokers 3` (127.0.0.1:29092-29094, controllers 29192-29194,
# state in .kafka-cluster/), runs test/cluster/*.cluster-test.ts against it (every service with
# each node SIGKILLed in turn; the rating service losing all three nodes in each order), and
# stops the cluster again (also on failure). PostgreSQL and Redis as for the integration tests
# (DATABASE_URL, REDIS_URL). Arguments go to Jest (e.g. a path: test/cluster/three-brokers).
#
#   npm run test:brokers            # RANKING_CLUSTER_EVENTS (default 6000) games per victim
#   KAFKA_CLUSTER_KEEP=1 npm run test:brokers   # leave the cluster running afterwards
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"
# Node 24 (deploy/node.sh): the pinned binary first on PATH when the machine's node is another.
# shellcheck source=deploy/node.sh
source "$ROOT/deploy/node.sh"
use_node_runtime
KAFKA_SH=(bash deploy/kafka/kafka.sh --brokers 3)
started=$SECONDS

stop_cluster() {
  if [[ "${KAFKA_CLUSTER_KEEP:-0}" != 1 ]]; then
    "${KAFKA_SH[@]}" stop || true
  fi
}
trap stop_cluster EXIT

npm run --silent build
"${KAFKA_SH[@]}" start
KAFKA_BROKERS="$("${KAFKA_SH[@]}" brokers)"
export KAFKA_BROKERS

status=0
node --experimental-vm-modules --no-warnings=ExperimentalWarning node_modules/jest/bin/jest.js \
  --config jest.cluster.config.js --runInBand --forceExit "$@" || status=$?
echo "[test-brokers] $([[ ${status} == 0 ]] && echo passed || echo FAILED) in $((SECONDS - started))s (build, cluster start and test; the stop follows)"
exit "${status}"
