#!/usr/bin/env bash
# Sourced by deploy/run.sh: runs a command as one of the system's Kafka principals on the local
# broker's SASL_SSL listener (SCRAM over TLS, the broker's certificate checked against the local
# CA in .kafka/tls/ca.pem), with the password kafka.sh generated in .kafka/credentials.json.
# The password reaches the command through its environment (an exported variable of a
# subshell), never through an argument list that `ps` would show. It execs the command, so call
# it in a background job or a subshell (whose pid is then the command's):
#   with_principal rating-service node dist/apps/rating-service/src/main.js &
#   ( with_principal admin node bin/ranking.js setup )
PRINCIPAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PRINCIPAL_CREDENTIALS="${KAFKA_CREDENTIALS_FILE:-${PRINCIPAL_ROOT}/.kafka/credentials.json}"
PRINCIPAL_CA="${PRINCIPAL_ROOT}/.kafka/tls/ca.pem"
PRINCIPAL_BROKERS="127.0.0.1:${KAFKA_SSL_PORT:-9095}"

with_principal() {
  local principal="$1"
  shift
  local fields
  # mechanism, password: one a line.
  fields="$(node -e '
    const [file, who] = process.argv.slice(1);
    const c = JSON.parse(require("fs").readFileSync(file, "utf8"));
    if (!c.users[who]) { console.error(`no credentials for ${who} in ${file}`); process.exit(1); }
    console.log([c.mechanism, c.users[who]].join("\n"));
  ' "${PRINCIPAL_CREDENTIALS}" "${principal}")" || exit 1
  { read -r KAFKA_SASL_MECHANISM; read -r KAFKA_SASL_PASSWORD; } <<<"${fields}"
  export KAFKA_SASL_MECHANISM KAFKA_SASL_PASSWORD
  export KAFKA_BROKERS="${PRINCIPAL_BROKERS}" KAFKA_SSL=true KAFKA_SSL_CA_FILE="${PRINCIPAL_CA}"
  export KAFKA_SASL_USERNAME="${principal}"
  exec "$@"
}

# Runs a command as a producer (ADR 39) on the same listener, with the credentials
# `ranking producer add` printed into FILE (its JSON object: kafka.username and kafka.password).
#   ( with_producer .run/simulator-producer.json node bin/ranking.js simulate )
with_producer() {
  local file="$1"
  shift
  local fields
  fields="$(node -e '
    const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (!p.kafka || !p.kafka.password) { console.error(`no password in ${process.argv[1]}`); process.exit(1); }
    console.log([p.kafka.username, p.kafka.password].join("\n"));
  ' "${file}")" || exit 1
  { read -r KAFKA_SASL_USERNAME; read -r KAFKA_SASL_PASSWORD; } <<<"${fields}"
  export KAFKA_SASL_USERNAME KAFKA_SASL_PASSWORD KAFKA_SASL_MECHANISM=scram-sha-512
  export KAFKA_BROKERS="${PRINCIPAL_BROKERS}" KAFKA_SSL=true KAFKA_SSL_CA_FILE="${PRINCIPAL_CA}"
  exec "$@"
}
