#!/usr/bin/env bash
# Sourced by deploy/run.sh: runs a command as one of the system's Kafka principals on the local
# broker's SASL listener, with the password that kafka.sh generated in .kafka/credentials.json.
# The password reaches the command through its environment (an exported variable of a
# subshell), never through an argument list that `ps` would show. It execs the command, so call
# it in a background job or a subshell (whose pid is then the command's):
#   with_principal rating-service node dist/apps/rating-service/src/main.js &
#   ( with_principal admin node bin/ranking.js setup )
PRINCIPAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PRINCIPAL_CREDENTIALS="${KAFKA_CREDENTIALS_FILE:-${PRINCIPAL_ROOT}/.kafka/credentials.json}"

with_principal() {
  local principal="$1"
  shift
  local fields
  # brokers, mechanism, password: one a line.
  fields="$(node -e '
    const [file, who] = process.argv.slice(1);
    const c = JSON.parse(require("fs").readFileSync(file, "utf8"));
    if (!c.users[who]) { console.error(`no credentials for ${who} in ${file}`); process.exit(1); }
    console.log([c.brokers, c.mechanism, c.users[who]].join("\n"));
  ' "${PRINCIPAL_CREDENTIALS}" "${principal}")" || exit 1
  { read -r KAFKA_BROKERS; read -r KAFKA_SASL_MECHANISM; read -r KAFKA_SASL_PASSWORD; } <<<"${fields}"
  export KAFKA_BROKERS KAFKA_SASL_MECHANISM KAFKA_SASL_PASSWORD
  export KAFKA_SASL_USERNAME="${principal}"
  exec "$@"
}
