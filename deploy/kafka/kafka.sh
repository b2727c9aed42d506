#!/usr/bin/env bash
# Single-node KRaft Apache Kafka broker from Maven Central jars (no Docker): 3.9.1 unless
# KAFKA_VERSION names another (4.x runs too: docs/adr/0029-node-24-and-kafka-4.md).
#
#   bash deploy/kafka/kafka.sh start   # fetch jars if needed, format once, start, wait ready
#   bash deploy/kafka/kafka.sh stop    # SIGTERM (30 s grace) then SIGKILL
#   bash deploy/kafka/kafka.sh status  # "up" (exit 0) / "down" (exit 1)
#   bash deploy/kafka/kafka.sh fetch   # only download jars into .kafka/libs
#   bash deploy/kafka/kafka.sh start --brokers 3   # a separate 3-node PLAINTEXT cluster on
#       127.0.0.1:29092-29094 (state in .kafka-cluster/); also stop|status|kill-node N|start-node N
#       |brokers with --brokers 3 (see "three-node cluster" below)
#
# State lives in <repo>/.kafka (git-ignored; KAFKA_STATE_DIR names another): data/, logs/,
# server.properties, log4j(2).properties, cluster-id, kafka.pid, kafka-version (the version that
# formatted data/), credentials.json (SCRAM passwords, made on first start), tls/ (a local CA and
# the certificates it signed, made on the first start that lacks them). The jars are a cache per
# version in <repo>/.cache/kafka/VERSION (git-ignored), shared by every state directory.
# Listeners: PLAINTEXT on 127.0.0.1:KAFKA_PORT (local development: unauthenticated, the ANONYMOUS
# principal is a super user), SASL_PLAINTEXT with SCRAM-SHA-512 on 127.0.0.1:KAFKA_SASL_PORT
# (every client a principal, authorised by ACLs; `ranking setup` writes them), the same over TLS
# (SASL_SSL) on 127.0.0.1:KAFKA_SSL_PORT (certificate from .kafka/tls/ca.pem; a client certificate
# is requested, not required), CONTROLLER on 127.0.0.1:KAFKA_CONTROLLER_PORT.
# No password is ever on a command line (ps shows every process's): the SCRAM passwords reach
# kafka-storage and kafka-configs through files, the keystore's through server.properties and
# openssl's through a file, all mode 600.
# Env: KAFKA_VERSION (default 3.9.1; a 4.x from Maven Central works the same way),
#      KAFKA_STATE_DIR (default <repo>/.kafka), KAFKA_CLUSTER_DIR (default <repo>/.kafka-cluster),
#      KAFKA_PORT (default 9092), KAFKA_SASL_PORT (9094), KAFKA_SSL_PORT (9095), KAFKA_CONTROLLER_PORT (9093),
#      KAFKA_BROKERS (if set and != 127.0.0.1:KAFKA_PORT an external broker is assumed),
#      JAVA_HOME, KAFKA_HEAP_OPTS (default "-Xms256m -Xmx1g"), KAFKA_START_TIMEOUT (default 90).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${SCRIPT_DIR}/../.." && pwd)"
# Kafka 3.9 by default; KAFKA_VERSION=4.x.y runs a 4.x broker (its own state directory: a store
# formatted by one version is not started by another, see check_store_version).
KAFKA_VERSION="${KAFKA_VERSION:-3.9.1}"
[[ "${KAFKA_VERSION}" =~ ^[34]\.[0-9]+\.[0-9]+$ ]] || {
  echo "[kafka] KAFKA_VERSION must be a 3.x.y or 4.x.y release, got '${KAFKA_VERSION}'" >&2
  exit 2
}
KAFKA_MAJOR="${KAFKA_VERSION%%.*}"
KAFKA_HOME="$(realpath -m "${KAFKA_STATE_DIR:-${ROOT}/.kafka}")"
LIBS_DIR="${ROOT}/.cache/kafka/${KAFKA_VERSION}"
DATA_DIR="${KAFKA_HOME}/data"
LOG_DIR="${KAFKA_HOME}/logs"
PROPS="${KAFKA_HOME}/server.properties"
if ((KAFKA_MAJOR >= 4)); then
  LOG4J_PROPS="${KAFKA_HOME}/log4j2.properties"
else
  LOG4J_PROPS="${KAFKA_HOME}/log4j.properties"
fi
CLUSTER_ID_FILE="${KAFKA_HOME}/cluster-id"
PID_FILE="${KAFKA_HOME}/kafka.pid"
CREDENTIALS_FILE="${KAFKA_HOME}/credentials.json"
# Which credentials the broker's metadata holds (a hash of the cluster id and credentials.json).
SCRAM_MARK="${KAFKA_HOME}/scram-applied"
# The Kafka version that formatted data/ (a store from before this file: 3.9.1).
STORE_VERSION_FILE="${KAFKA_HOME}/kafka-version"
LOCAL_BROKER="127.0.0.1:${KAFKA_PORT:-9092}"
SASL_BROKER="127.0.0.1:${KAFKA_SASL_PORT:-9094}"
SSL_BROKER="127.0.0.1:${KAFKA_SSL_PORT:-9095}"
# The local CA, the broker's keystore and a client certificate for mutual TLS (see ensure_tls).
TLS_DIR="${KAFKA_HOME}/tls"
CONTROLLER_ADDR="127.0.0.1:${KAFKA_CONTROLLER_PORT:-9093}"
SCRAM_MECHANISM="SCRAM-SHA-512"
# The SCRAM principals: admin is a super user (bootstraps ACLs where there is no plain
# listener); the others get exactly their ACLs (libs/kafka/src/acls.ts, written by `ranking setup`).
# Game servers are producers, each with a user `ranking producer add` makes (ADR 39).
SCRAM_USERS=(admin ops intake-service rating-service maintenance-service leaderboard-service)
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx1g}"

if [[ -n "${JAVA_HOME:-}" && -x "${JAVA_HOME}/bin/java" ]]; then
  JAVA="${JAVA_HOME}/bin/java"
else
  JAVA="java"
fi

log() { echo "[kafka] $*"; }
err() { echo "[kafka] $*" >&2; }

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- helpers ---------------------------------------------------------------

jars_present() {
  compgen -G "${LIBS_DIR}/kafka_2.13-${KAFKA_VERSION}.jar" >/dev/null || return 1
  if ((KAFKA_MAJOR >= 4)); then
    compgen -G "${LIBS_DIR}/log4j-slf4j2-impl-*.jar" >/dev/null &&
      compgen -G "${LIBS_DIR}/kafka-tools-${KAFKA_VERSION}.jar" >/dev/null
  else
    compgen -G "${LIBS_DIR}/slf4j-reload4j-*.jar" >/dev/null
  fi
}

# Kafka 4.x logs through log4j2 (its own properties format), 3.x through reload4j (log4j 1's).
log_config_flag() {
  if ((KAFKA_MAJOR >= 4)); then echo "-Dlog4j2.configurationFile=$1"; else echo "-Dlog4j.configuration=file:$1"; fi
}

# write_log_config FILE LOG_FILE BACKUPS: everything at INFO into LOG_FILE (20 MB a file).
write_log_config() {
  local file="$1" log_file="$2" backups="$3"
  if ((KAFKA_MAJOR >= 4)); then
    cat >"${file}" <<LOG4J2
# Generated by deploy/kafka/kafka.sh - everything goes to ${log_file}
appender.file.type=RollingFile
appender.file.name=file
appender.file.fileName=${log_file}
appender.file.filePattern=${log_file}.%i
appender.file.layout.type=PatternLayout
appender.file.layout.pattern=[%d] %p %m (%c)%n
appender.file.policies.type=Policies
appender.file.policies.size.type=SizeBasedTriggeringPolicy
appender.file.policies.size.size=20MB
appender.file.strategy.type=DefaultRolloverStrategy
appender.file.strategy.max=${backups}
rootLogger.level=INFO
rootLogger.appenderRef.file.ref=file
logger.request.name=kafka.request.logger
logger.request.level=WARN
LOG4J2
  else
    cat >"${file}" <<LOG4J
# Generated by deploy/kafka/kafka.sh - everything goes to ${log_file}
log4j.rootLogger=INFO, kafkaAppender
log4j.appender.kafkaAppender=org.apache.log4j.RollingFileAppender
log4j.appender.kafkaAppender.File=${log_file}
log4j.appender.kafkaAppender.MaxFileSize=20MB
log4j.appender.kafkaAppender.MaxBackupIndex=${backups}
log4j.appender.kafkaAppender.layout=org.apache.log4j.PatternLayout
log4j.appender.kafkaAppender.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
LOG4J
  fi
}

# A store formatted by one Kafka version is started by that version only: another version on it
# is an upgrade (or a downgrade) of that store, shared by whoever uses the broker, to be made on
# purpose (write the new version into its kafka-version file), not by a KAFKA_VERSION left set.
# $1: the data dir, $2: its kafka-version file.
check_store_version() {
  local data="$1" file="$2" formatted
  [[ -f "${data}/meta.properties" ]] || return 0
  formatted="$(cat "${file}" 2>/dev/null || echo 3.9.1)"
  [[ "${formatted}" == "${KAFKA_VERSION}" ]] && return 0
  err "${data} was formatted by Kafka ${formatted}, not ${KAFKA_VERSION}: start ${formatted} there"
  err "(KAFKA_VERSION=${formatted}) or give ${KAFKA_VERSION} its own state (KAFKA_STATE_DIR, KAFKA_CLUSTER_DIR)"
  return 1
}

# Is a broker answering on $1 (default local)? $2 = timeout seconds.
broker_answers() {
  local brokers="${1:-$LOCAL_BROKER}" timeout="${2:-3}"
  (cd "${ROOT}" && KAFKA_BROKERS="${brokers}" KAFKA_WAIT_QUIET=1 \
    node --disable-warning=TimeoutNegativeWarning "${SCRIPT_DIR}/wait-ready.mjs" "${timeout}")
}

# Cheap TCP probe (no JVM / node start-up).
port_open() {
  local host="${1%:*}" port="${1##*:}"
  (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null
}

# PID from the pid file if that process is alive and really is our broker.
running_pid() {
  [[ -f "${PID_FILE}" ]] || return 1
  local pid
  pid="$(cat "${PID_FILE}" 2>/dev/null || true)"
  [[ "${pid}" =~ ^[0-9]+$ ]] || return 1
  kill -0 "${pid}" 2>/dev/null || return 1
  if [[ -r "/proc/${pid}/cmdline" ]] && ! tr '\0' ' ' <"/proc/${pid}/cmdline" | grep -q 'kafka\.Kafka'; then
    return 1
  fi
  echo "${pid}"
}

java_args() {
  # Same JVM flags as kafka-run-class.sh, with a modest heap (2-core box).
  local heap
  read -r -a heap <<<"${HEAP_OPTS}"
  JAVA_ARGS=("${JAVA}" "${heap[@]}" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent
    -Djava.awt.headless=true
    "-Dkafka.logs.dir=${LOG_DIR}"
    "$(log_config_flag "${LOG4J_PROPS}")"
    -cp "${LIBS_DIR}/*")
}

java_cmd() {
  local JAVA_ARGS
  java_args
  "${JAVA_ARGS[@]}" "$@"
}

write_configs() {
  mkdir -p "${DATA_DIR}" "${LOG_DIR}"
  local store_password
  store_password="$(cat "${TLS_DIR}/store-password")"
  # It holds the keystore's password: readable by its owner only (an older version's was 644).
  install -m 600 /dev/null "${PROPS}"
  cat >"${PROPS}" <<PROPS
# Generated by deploy/kafka/kafka.sh - single node KRaft (combined broker+controller).
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@${CONTROLLER_ADDR}
listeners=PLAINTEXT://${LOCAL_BROKER},SASL_PLAINTEXT://${SASL_BROKER},SASL_SSL://${SSL_BROKER},CONTROLLER://${CONTROLLER_ADDR}
advertised.listeners=PLAINTEXT://${LOCAL_BROKER},SASL_PLAINTEXT://${SASL_BROKER},SASL_SSL://${SSL_BROKER}
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL
sasl.enabled.mechanisms=${SCRAM_MECHANISM}
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
# SASL_SSL: the broker's key and certificate (signed by the local CA, for 127.0.0.1 and localhost);
# a client certificate is asked for and, when one is sent, must be signed by the same CA.
listener.name.sasl_ssl.ssl.keystore.type=PKCS12
listener.name.sasl_ssl.ssl.keystore.location=${TLS_DIR}/broker.p12
listener.name.sasl_ssl.ssl.keystore.password=${store_password}
listener.name.sasl_ssl.ssl.key.password=${store_password}
listener.name.sasl_ssl.ssl.truststore.type=PEM
listener.name.sasl_ssl.ssl.truststore.location=${TLS_DIR}/ca.pem
listener.name.sasl_ssl.ssl.client.auth=requested
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
# ANONYMOUS is whoever connects without authenticating: only the loopback PLAINTEXT and
# CONTROLLER listeners let anyone in unauthenticated, so this grants nothing on the SASL listener.
# This broker is for development and tests on this machine only; Docker Compose's and the
# platform's brokers have no unauthenticated listener and admin as their one super user
# (test/deploy/kafka-listeners.spec.ts).
super.users=User:ANONYMOUS;User:admin
log.dirs=${DATA_DIR}
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
PROPS

  write_log_config "${LOG4J_PROPS}" "${LOG_DIR}/server.log" 3
}

# .kafka/tls: a local CA (ca.pem, ca-key.pem), the broker's key and certificate in a PKCS12
# keystore (broker.p12, its password in store-password) and a client certificate for mutual TLS
# (client.pem, client-key.pem), made together when any is missing (a state directory from before
# the SASL_SSL listener is upgraded on its next start). Keys and passwords are mode 600.
TLS_FILES=(ca.pem ca-key.pem store-password broker.p12 client.pem client-key.pem)

ensure_tls() {
  local file missing=0
  for file in "${TLS_FILES[@]}"; do [[ -s "${TLS_DIR}/${file}" ]] || missing=1; done
  ((missing)) || return 0
  command -v openssl >/dev/null || { err "openssl is needed to make the TLS certificates"; return 1; }
  local t0 tmp
  t0="$(now)"
  tmp="${TLS_DIR}.tmp"
  rm -rf "${tmp}"
  # In the background and waited for: a subshell tested with || would run with set -e off.
  (
    umask 077
    mkdir -p "${tmp}"
    cd "${tmp}"
    od -An -tx1 -N24 /dev/urandom | tr -d ' \n' >store-password
    local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
    openssl req -x509 "${ec[@]}" -keyout ca-key.pem -out ca.pem -days 3650 \
      -subj "/CN=ranking local Kafka CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
    # sign NAME CN EXTENSIONS: NAME-key.pem and NAME.pem, signed by the CA for 825 days.
    sign() {
      openssl req "${ec[@]}" -keyout "$1-key.pem" -out "$1.csr" -subj "/CN=$2"
      printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "$3" >"$1.ext"
      openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca-key.pem -set_serial "0x$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')" \
        -days 825 -extfile "$1.ext" -out "$1.pem"
      rm -f "$1.csr" "$1.ext"
    }
    sign broker localhost $'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1'
    sign client ranking-client "extendedKeyUsage=clientAuth"
    openssl pkcs12 -export -name broker -in broker.pem -inkey broker-key.pem -certfile ca.pem \
      -passout file:store-password -out broker.p12
    rm -f broker-key.pem
    chmod 644 ca.pem client.pem broker.pem
  ) >"${KAFKA_HOME}/tls.log" 2>&1 &
  wait $! || {
    err "could not make the TLS certificates:"
    sed 's/^/[kafka]   /' "${KAFKA_HOME}/tls.log" >&2
    return 1
  }
  rm -rf "${TLS_DIR}"
  mv "${tmp}" "${TLS_DIR}"
  log "made a local CA and the broker's TLS certificate in ${TLS_DIR#"${ROOT}"/} in $(elapsed "${t0}")s"
}

# credentials.json: one random password per SCRAM user, written once (mode 600, git-ignored).
# A user added to SCRAM_USERS since (a new principal) gets one too; the others keep theirs.
ensure_credentials() {
  local user password missing=() first=1
  declare -A known=()
  if [[ -s "${CREDENTIALS_FILE}" ]]; then
    while read -r user password; do known["${user}"]="${password}"; done < <(credential_lines)
  fi
  for user in "${SCRAM_USERS[@]}"; do
    [[ -n "${known[${user}]:-}" ]] && continue
    missing+=("${user}")
    known["${user}"]="$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  (
    umask 077
    {
      echo "{"
      echo "  \"brokers\": \"${SASL_BROKER}\","
      echo "  \"mechanism\": \"scram-sha-512\","
      echo "  \"users\": {"
      for user in "${SCRAM_USERS[@]}"; do
        ((first)) || echo ","
        first=0
        printf '    "%s": "%s"' "${user}" "${known[${user}]}"
      done
      echo
      echo "  }"
      echo "}"
    } >"${CREDENTIALS_FILE}.tmp"
  )
  mv "${CREDENTIALS_FILE}.tmp" "${CREDENTIALS_FILE}"
  log "generated SCRAM credentials for ${missing[*]} in ${CREDENTIALS_FILE#"${ROOT}"/}"
}

# "user password" lines from credentials.json (the layout ensure_credentials writes).
credential_lines() {
  sed -n 's/^ *"\([a-z-]*\)": "\([0-9a-f]\{16,\}\)",\{0,1\}$/\1 \2/p' "${CREDENTIALS_FILE}"
}

scram_mark() {
  cat "${DATA_DIR}/meta.properties" "${CREDENTIALS_FILE}" 2>/dev/null | sha256sum | cut -d' ' -f1
}

# Storage formatted before the SASL listener existed (or credentials.json replaced): store the
# credentials through the running broker's plain listener (one JVM per user, once). Each
# password goes in a mode-600 file (--add-config-file), not on kafka-configs' command line.
apply_credentials() {
  [[ "$(cat "${SCRAM_MARK}" 2>/dev/null || true)" == "$(scram_mark)" ]] && return 0
  local t0 user password file="${KAFKA_HOME}/scram-config.properties"
  t0="$(now)"
  while read -r user password; do
    (umask 077 && echo "${SCRAM_MECHANISM}=iterations=4096,password=${password}" >"${file}")
    # Kafka 4.x moved ConfigCommand to the tools module.
    java_cmd "$( ((KAFKA_MAJOR >= 4)) && echo org.apache.kafka.tools.ConfigCommand || echo kafka.admin.ConfigCommand)" --bootstrap-server "${LOCAL_BROKER}" --alter \
      --add-config-file "${file}" --entity-type users --entity-name "${user}" >/dev/null
  done < <(credential_lines)
  rm -f "${file}"
  scram_mark >"${SCRAM_MARK}"
  log "stored SCRAM credentials in the broker in $(elapsed "${t0}")s"
}

format_storage() {
  if [[ -f "${DATA_DIR}/meta.properties" ]]; then
    log "storage already formatted ($(grep -h '^cluster.id=' "${DATA_DIR}/meta.properties" || true)), skipping format"
    return 0
  fi
  local cid
  if [[ -s "${CLUSTER_ID_FILE}" ]]; then
    cid="$(tr -d '[:space:]' <"${CLUSTER_ID_FILE}")"
  else
    cid="$(java_cmd kafka.tools.StorageTool random-uuid | tail -n1 | tr -d '[:space:]')"
    [[ -n "${cid}" ]] || { err "could not generate a cluster id"; return 1; }
    echo "${cid}" >"${CLUSTER_ID_FILE}"
  fi
  # The --add-scram arguments (passwords) go in a mode-600 argument file (@file, one argument a
  # line), not on kafka-storage's command line.
  local args="${KAFKA_HOME}/format-args" user password users=0
  (
    umask 077
    while read -r user password; do
      printf '%s\n' --add-scram "${SCRAM_MECHANISM}=[name=${user},iterations=4096,password=${password}]"
    done < <(credential_lines) >"${args}"
  )
  users="$(grep -c -- '^--add-scram$' "${args}" || true)"
  log "formatting ${DATA_DIR} with cluster id ${cid} and ${users} SCRAM users"
  # Kafka 4.x prints its bootstrap records, the SCRAM users' salted keys among them: not those.
  java_cmd kafka.tools.StorageTool format -t "${cid}" -c "${PROPS}" "@${args}" |
    grep -v '^Bootstrap metadata:' | sed 's/^/[kafka]   /'
  rm -f "${args}"
  echo "${KAFKA_VERSION}" >"${STORE_VERSION_FILE}"
  scram_mark >"${SCRAM_MARK}"
}

# --- subcommands -----------------------------------------------------------

cmd_fetch() {
  if jars_present; then
    log "jars already in ${LIBS_DIR#"${ROOT}"/} ($(find "${LIBS_DIR}" -name '*.jar' | wc -l) jars), skipping fetch"
    return 0
  fi
  local t0
  t0="$(now)"
  log "fetching kafka_2.13:${KAFKA_VERSION} jars from Maven Central into ${LIBS_DIR#"${ROOT}"/}"
  mkdir -p "${LIBS_DIR}" "${KAFKA_HOME}"
  # The pom's kafka4 profile: log4j2 instead of reload4j, and kafka-tools (ConfigCommand).
  local profile=()
  ((KAFKA_MAJOR >= 4)) && profile=(-P kafka4)
  # mvn -q still emits stray ANSI resets on stdout: keep its output in a file, show it on failure.
  if ! mvn -q -B -Dstyle.color=never -f "${SCRIPT_DIR}/pom.xml" process-resources \
    "-Dkafka.version=${KAFKA_VERSION}" "-Dkafka.libs.dir=${LIBS_DIR}" "${profile[@]}" >"${KAFKA_HOME}/fetch.log" 2>&1; then
    err "maven fetch failed:"
    sed 's/^/[kafka]   /' "${KAFKA_HOME}/fetch.log" >&2
    return 1
  fi
  jars_present || { err "fetch finished but jars are missing in ${LIBS_DIR}"; return 1; }
  log "fetched $(find "${LIBS_DIR}" -name '*.jar' | wc -l) jars in $(elapsed "${t0}")s"
}

cmd_start() {
  if [[ -n "${KAFKA_BROKERS:-}" && "${KAFKA_BROKERS}" != "${LOCAL_BROKER}" ]]; then
    log "KAFKA_BROKERS=${KAFKA_BROKERS}: using external broker, not starting a local one"
    return 0
  fi

  local t0 pid
  t0="$(now)"
  check_store_version "${DATA_DIR}" "${STORE_VERSION_FILE}"

  if pid="$(running_pid)"; then
    log "broker process ${pid} already running, checking that it answers"
    if broker_answers "${LOCAL_BROKER}" "${START_TIMEOUT}"; then
      ensure_credentials
      apply_credentials
      if ! port_open "${SASL_BROKER}"; then
        # Started by an older kafka.sh: the plain listener serves on; the SASL tests will fail.
        err "WARNING: broker pid ${pid} has no SASL listener on ${SASL_BROKER} (started by an older kafka.sh);"
        err "restart it to get one: bash deploy/kafka/kafka.sh stop && bash deploy/kafka/kafka.sh start"
      fi
      if ! port_open "${SSL_BROKER}"; then
        # Likewise from before the SASL_SSL listener: the TLS tests will fail until a restart.
        err "WARNING: broker pid ${pid} has no SASL_SSL listener on ${SSL_BROKER} (started by an older kafka.sh);"
        err "restart it to get one: bash deploy/kafka/kafka.sh stop && bash deploy/kafka/kafka.sh start"
      fi
      log "reusing broker on ${LOCAL_BROKER}, SASL on ${SASL_BROKER}, SASL_SSL on ${SSL_BROKER} (pid ${pid})"
      return 0
    fi
    err "broker pid ${pid} does not answer on ${LOCAL_BROKER}; see ${LOG_DIR}/server.log"
    return 1
  fi
  if port_open "${LOCAL_BROKER}"; then
    if broker_answers "${LOCAL_BROKER}" 10; then
      log "a broker already answers on ${LOCAL_BROKER}, reusing it"
      return 0
    fi
    err "${LOCAL_BROKER} is taken by something that is not a Kafka broker"
    return 1
  fi
  if port_open "${CONTROLLER_ADDR}"; then
    err "controller port ${CONTROLLER_ADDR} is already in use"
    return 1
  fi

  if port_open "${SASL_BROKER}"; then
    err "SASL port ${SASL_BROKER} is already in use"
    return 1
  fi
  if port_open "${SSL_BROKER}"; then
    err "SASL_SSL port ${SSL_BROKER} is already in use"
    return 1
  fi

  # A new state directory whose version's jars are cached already: the fetch makes none.
  mkdir -p "${KAFKA_HOME}"
  cmd_fetch
  ensure_tls
  write_configs
  ensure_credentials
  format_storage

  log "starting kafka ${KAFKA_VERSION} (KRaft, heap ${HEAP_OPTS}) on ${LOCAL_BROKER}"
  # setsid: own session/process group, so the broker survives the caller's job control.
  local JAVA_ARGS
  java_args
  setsid nohup "${JAVA_ARGS[@]}" kafka.Kafka "${PROPS}" >"${LOG_DIR}/kafka.out" 2>&1 </dev/null &
  pid=$!
  echo "${pid}" >"${PID_FILE}"

  local deadline=$((SECONDS + START_TIMEOUT))
  while ((SECONDS < deadline)); do
    if ! kill -0 "${pid}" 2>/dev/null; then
      err "broker process ${pid} exited during start-up; last log lines:"
      tail -n 20 "${LOG_DIR}/kafka.out" "${LOG_DIR}/server.log" 2>/dev/null | sed 's/^/[kafka]   /' >&2
      rm -f "${PID_FILE}"
      return 1
    fi
    if port_open "${LOCAL_BROKER}" && broker_answers "${LOCAL_BROKER}" 5; then
      apply_credentials
      log "broker up on ${LOCAL_BROKER}, SASL on ${SASL_BROKER}, SASL_SSL on ${SSL_BROKER} (pid ${pid}) - started in $(elapsed "${t0}")s"
      return 0
    fi
    sleep 0.5
  done
  err "broker did not answer within ${START_TIMEOUT}s; see ${LOG_DIR}/server.log (pid ${pid} left running)"
  return 1
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "${PID_FILE}"
    log "no broker started by this script is running"
    return 0
  fi
  log "stopping broker pid ${pid} (SIGTERM)"
  kill -TERM "${pid}" 2>/dev/null || true
  local i
  for ((i = 0; i < 60; i++)); do
    kill -0 "${pid}" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "${pid}" 2>/dev/null; then
    log "broker did not stop within 30s, sending SIGKILL"
    kill -KILL "${pid}" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "${PID_FILE}"
  log "stopped"
}

cmd_status() {
  local brokers="${KAFKA_BROKERS:-$LOCAL_BROKER}"
  if broker_answers "${brokers}" 3; then
    echo "up"
    return 0
  fi
  echo "down"
  return 1
}

# --- three-node cluster (--brokers 3) ---------------------------------------
#
# A separate mode for fault tests: three combined broker+controller nodes, a 3-voter quorum,
# PLAINTEXT only (no SASL listener, no authorizer), topics at replication factor 3 with
# min.insync.replicas=2. State in <repo>/.kafka-cluster/node-N (data, logs, server.properties);
# jars shared with the single broker (.cache/kafka/VERSION). Ports: node N's broker on
# KAFKA_CLUSTER_PORT+N-1 (default 29092..29094), its controller on
# KAFKA_CLUSTER_CONTROLLER_PORT+N-1 (29192..29194). Heap per node: KAFKA_CLUSTER_HEAP_OPTS
# (default "-Xms128m -Xmx384m").

CLUSTER_HOME="$(realpath -m "${KAFKA_CLUSTER_DIR:-${ROOT}/.kafka-cluster}")"
CLUSTER_SIZE=3
CLUSTER_PORT="${KAFKA_CLUSTER_PORT:-29092}"
CLUSTER_CONTROLLER_PORT="${KAFKA_CLUSTER_CONTROLLER_PORT:-29192}"
CLUSTER_HEAP_OPTS="${KAFKA_CLUSTER_HEAP_OPTS:--Xms128m -Xmx384m}"

node_dir() { echo "${CLUSTER_HOME}/node-$1"; }
node_broker() { echo "127.0.0.1:$((CLUSTER_PORT + $1 - 1))"; }
node_controller() { echo "127.0.0.1:$((CLUSTER_CONTROLLER_PORT + $1 - 1))"; }
cluster_brokers() {
  local n list=()
  for ((n = 1; n <= CLUSTER_SIZE; n++)); do list+=("$(node_broker "${n}")"); done
  (IFS=,; echo "${list[*]}")
}
cluster_voters() {
  local n list=()
  for ((n = 1; n <= CLUSTER_SIZE; n++)); do list+=("${n}@$(node_controller "${n}")"); done
  (IFS=,; echo "${list[*]}")
}

check_node() {
  [[ "$1" =~ ^[1-9][0-9]*$ ]] && (($1 <= CLUSTER_SIZE)) || {
    err "node must be 1..${CLUSTER_SIZE}, got '${1}'"
    return 2
  }
}

node_pid() {
  local file pid
  file="$(node_dir "$1")/kafka.pid"
  [[ -f "${file}" ]] || return 1
  pid="$(cat "${file}" 2>/dev/null || true)"
  [[ "${pid}" =~ ^[0-9]+$ ]] || return 1
  kill -0 "${pid}" 2>/dev/null || return 1
  if [[ -r "/proc/${pid}/cmdline" ]] && ! tr '\0' ' ' <"/proc/${pid}/cmdline" | grep -q 'kafka\.Kafka'; then
    return 1
  fi
  echo "${pid}"
}

write_node_configs() {
  local n="$1" dir
  dir="$(node_dir "${n}")"
  mkdir -p "${dir}/data" "${dir}/logs"
  cat >"${dir}/server.properties" <<PROPS
# Generated by deploy/kafka/kafka.sh --brokers ${CLUSTER_SIZE} - node ${n} (combined broker+controller).
process.roles=broker,controller
node.id=${n}
controller.quorum.voters=$(cluster_voters)
listeners=PLAINTEXT://$(node_broker "${n}"),CONTROLLER://$(node_controller "${n}")
advertised.listeners=PLAINTEXT://$(node_broker "${n}")
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${dir}/data
num.partitions=1
default.replication.factor=${CLUSTER_SIZE}
min.insync.replicas=2
offsets.topic.replication.factor=${CLUSTER_SIZE}
transaction.state.log.replication.factor=${CLUSTER_SIZE}
transaction.state.log.min.isr=2
unclean.leader.election.enable=false
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
num.replica.fetchers=1
PROPS
  write_log_config "${dir}/$(basename "${LOG4J_PROPS}")" "${dir}/logs/server.log" 2
}

# Runs java with node N's heap, logs and log4j configuration.
node_java_args() {
  local n="$1" dir heap
  dir="$(node_dir "${n}")"
  read -r -a heap <<<"${CLUSTER_HEAP_OPTS}"
  JAVA_ARGS=("${JAVA}" "${heap[@]}" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent
    -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
    "-Dkafka.logs.dir=${dir}/logs"
    "$(log_config_flag "${dir}/$(basename "${LOG4J_PROPS}")")"
    -cp "${LIBS_DIR}/*")
}

format_node() {
  local n="$1" dir cid JAVA_ARGS
  dir="$(node_dir "${n}")"
  [[ -f "${dir}/data/meta.properties" ]] && return 0
  cid="$(tr -d '[:space:]' <"${CLUSTER_HOME}/cluster-id")"
  node_java_args "${n}"
  "${JAVA_ARGS[@]}" kafka.tools.StorageTool format -t "${cid}" -c "${dir}/server.properties" |
    grep -v '^Bootstrap metadata:' | sed 's/^/[kafka]   /'
  echo "${KAFKA_VERSION}" >"${dir}/kafka-version"
}

# Starts node N's JVM (configs written, storage formatted) and records its pid; does not wait.
launch_node() {
  local n="$1" dir pid JAVA_ARGS
  dir="$(node_dir "${n}")"
  if pid="$(node_pid "${n}")"; then
    log "node ${n} already running (pid ${pid})"
    return 0
  fi
  if port_open "$(node_broker "${n}")" || port_open "$(node_controller "${n}")"; then
    err "node ${n}'s ports $(node_broker "${n}") / $(node_controller "${n}") are taken by another process"
    return 1
  fi
  check_store_version "${dir}/data" "${dir}/kafka-version"
  write_node_configs "${n}"
  format_node "${n}"
  node_java_args "${n}"
  setsid nohup "${JAVA_ARGS[@]}" kafka.Kafka "${dir}/server.properties" >"${dir}/logs/kafka.out" 2>&1 </dev/null &
  pid=$!
  echo "${pid}" >"${dir}/kafka.pid"
  log "node ${n}: pid ${pid}, broker $(node_broker "${n}"), controller $(node_controller "${n}")"
}

# Waits until `count` brokers are registered, asking `brokers`.
wait_cluster() {
  local brokers="$1" count="$2" deadline=$((SECONDS + START_TIMEOUT)) n
  while ((SECONDS < deadline)); do
    for ((n = 1; n <= CLUSTER_SIZE; n++)); do
      if [[ -f "$(node_dir "${n}")/kafka.pid" ]] && ! node_pid "${n}" >/dev/null; then
        err "node ${n} exited during start-up; last log lines:"
        tail -n 20 "$(node_dir "${n}")/logs/kafka.out" "$(node_dir "${n}")/logs/server.log" 2>/dev/null |
          sed 's/^/[kafka]   /' >&2
        return 1
      fi
    done
    if (cd "${ROOT}" && KAFKA_BROKERS="${brokers}" KAFKA_WAIT_QUIET=1 KAFKA_WAIT_BROKERS="${count}" \
      node --disable-warning=TimeoutNegativeWarning "${SCRIPT_DIR}/wait-ready.mjs" 5); then
      return 0
    fi
    sleep 0.5
  done
  err "the cluster did not list ${count} brokers within ${START_TIMEOUT}s; see ${CLUSTER_HOME}/node-*/logs/server.log"
  return 1
}

cluster_start() {
  local t0 n
  t0="$(now)"
  cmd_fetch
  mkdir -p "${CLUSTER_HOME}"
  if [[ ! -s "${CLUSTER_HOME}/cluster-id" ]]; then
    java_cmd kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n1 | tr -d "[:space:]" >"${CLUSTER_HOME}/cluster-id"
  fi
  log "starting a ${CLUSTER_SIZE}-node KRaft cluster (PLAINTEXT, heap ${CLUSTER_HEAP_OPTS} each)"
  for ((n = 1; n <= CLUSTER_SIZE; n++)); do launch_node "${n}"; done
  wait_cluster "$(cluster_brokers)" "${CLUSTER_SIZE}"
  log "cluster up on $(cluster_brokers) (controllers $(cluster_voters)) - started in $(elapsed "${t0}")s"
  log "use it with KAFKA_BROKERS=$(cluster_brokers)"
}

stop_node() {
  local n="$1" pid i
  if ! pid="$(node_pid "${n}")"; then
    rm -f "$(node_dir "${n}")/kafka.pid"
    return 0
  fi
  kill -TERM "${pid}" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do
    kill -0 "${pid}" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "${pid}" 2>/dev/null; then
    log "node ${n} did not stop within 30s, sending SIGKILL"
    kill -KILL "${pid}" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$(node_dir "${n}")/kafka.pid"
  log "node ${n} stopped"
}

cluster_stop() {
  local n
  # In parallel: a node waiting for its controlled shutdown needs the others' quorum.
  for ((n = 1; n <= CLUSTER_SIZE; n++)); do stop_node "${n}" & done
  wait
  log "cluster stopped"
}

cluster_status() {
  local n pid up=0
  for ((n = 1; n <= CLUSTER_SIZE; n++)); do
    if pid="$(node_pid "${n}")"; then
      echo "node ${n}: running (pid ${pid}) on $(node_broker "${n}")"
      up=$((up + 1))
    else
      echo "node ${n}: down"
    fi
  done
  ((up == CLUSTER_SIZE))
}

# SIGKILL one node (a crash: no controlled shutdown).
cluster_kill_node() {
  local n="$1" pid
  check_node "${n}"
  if ! pid="$(node_pid "${n}")"; then
    err "node ${n} is not running"
    return 1
  fi
  kill -KILL "${pid}"
  while kill -0 "${pid}" 2>/dev/null; do sleep 0.1; done
  rm -f "$(node_dir "${n}")/kafka.pid"
  log "node ${n} (pid ${pid}) SIGKILLed"
}

cluster_start_node() {
  local n="$1" t0
  check_node "${n}"
  t0="$(now)"
  launch_node "${n}"
  wait_cluster "$(node_broker "${n}")" "${CLUSTER_SIZE}"
  log "node ${n} back in the cluster in $(elapsed "${t0}")s"
}

# --- command line ----------------------------------------------------------

BROKERS=1
ARGS=()
while (($#)); do
  case "$1" in
    --brokers)
      BROKERS="${2:-}"
      shift 2 || { err "--brokers needs a number"; exit 2; }
      ;;
    --brokers=*)
      BROKERS="${1#--brokers=}"
      shift
      ;;
    *)
      ARGS+=("$1")
      shift
      ;;
  esac
done
set -- "${ARGS[@]+"${ARGS[@]}"}"

if [[ "${BROKERS}" == "${CLUSTER_SIZE}" ]]; then
  case "${1:-}" in
    start) cluster_start ;;
    stop) cluster_stop ;;
    status) cluster_status ;;
    kill-node) cluster_kill_node "${2:-}" ;;
    start-node) cluster_start_node "${2:-}" ;;
    brokers) cluster_brokers ;;
    *)
      echo "usage: $0 --brokers ${CLUSTER_SIZE} {start|stop|status|kill-node N|start-node N|brokers}" >&2
      exit 2
      ;;
  esac
  exit $?
elif [[ "${BROKERS}" != 1 ]]; then
  err "--brokers takes 1 (the default single broker) or ${CLUSTER_SIZE}"
  exit 2
fi

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  fetch) cmd_fetch ;;
  *)
    echo "usage: $0 {start|stop|status|fetch}" >&2
    exit 2
    ;;
esac
