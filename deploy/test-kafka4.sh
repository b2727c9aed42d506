#!/usr/bin/env bash
# Integration tests against a Kafka 4.x broker (ADR 29), beside the 3.9 broker the other tests
# use: starts KAFKA_VERSION (default 4.4.0) from Maven Central jars in its own state directory
# (.kafka-4/, git-ignored) on its own ports (plain 39092, SASL 39094, SASL_SSL 39095, controller
# 39093), creates the topics and ACLs there, runs Jest's integration project against it and stops
# it again (also on failure; KAFKA4_KEEP=1 leaves it running). PostgreSQL and Redis as for the
# other integration tests. Needs the build (deploy/install.sh) first.
#
#   bash deploy/test-kafka4.sh [--ci]             # CI's suite: the pipeline over SASL with ACLs
#   bash deploy/test-kafka4.sh test/security test/intake apps/rating-service   # any paths
#   (arguments starting with - go to Jest as options; the others are test paths)
#
# The three-broker test on 4.x runs through deploy/test-brokers.sh with the same variables:
#   KAFKA_VERSION=4.4.0 KAFKA_CLUSTER_DIR=.kafka-4-cluster KAFKA_CLUSTER_PORT=39192 \
#     KAFKA_CLUSTER_CONTROLLER_PORT=39292 bash deploy/test-brokers.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${ROOT}"
# shellcheck source=deploy/node.sh
source "${ROOT}/deploy/node.sh"
use_node_runtime
started=${SECONDS}

export KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
export KAFKA_STATE_DIR="${ROOT}/.kafka-4"
export KAFKA_PORT=39092 KAFKA_SASL_PORT=39094 KAFKA_SSL_PORT=39095 KAFKA_CONTROLLER_PORT=39093
# What the tests and `ranking setup` read (test/support/environment.ts, test/global-setup.ts).
export KAFKA_BROKERS=127.0.0.1:39092 KAFKA_SASL_BROKERS=127.0.0.1:39094 KAFKA_SSL_BROKERS=127.0.0.1:39095
export KAFKA_TLS_DIR="${KAFKA_STATE_DIR}/tls" KAFKA_CREDENTIALS_FILE="${KAFKA_STATE_DIR}/credentials.json"

stop_broker() {
  [[ "${KAFKA4_KEEP:-0}" == 1 ]] || bash deploy/kafka/kafka.sh stop || true
}
trap stop_broker EXIT

bash deploy/kafka/kafka.sh start
node bin/ranking.js setup
# Options (--ci) go to Jest as they are; without a path, CI's suite.
options=() suites=()
for arg in "$@"; do
  if [[ "${arg}" == -* ]]; then options+=("${arg}"); else suites+=("${arg}"); fi
done
((${#suites[@]})) || suites=(test/security/kafka-sasl.int-spec.ts)
status=0
# The paths before --selectProjects, which takes every word after it as a project name.
npm run --silent jest -- "${options[@]}" "${suites[@]}" --selectProjects integration || status=$?
echo "[kafka4] Kafka ${KAFKA_VERSION}: $([[ ${status} == 0 ]] && echo passed || echo FAILED) in $((SECONDS - started)) s (broker start, setup and tests; the stop follows)"
exit "${status}"
