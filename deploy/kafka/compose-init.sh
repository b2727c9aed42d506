#!/usr/bin/env bash
# docker compose's kafka-init (deploy/docker-compose.yml; runs in the apache/kafka image, as root):
#  - once: a CA and the broker's key and certificate (for the host name kafka) in a PKCS12
#    keystore, /etc/kafka/secrets/broker.p12, its random password in store-password, which the
#    image's start-up reads (KAFKA_SSL_KEYSTORE_CREDENTIALS); the CA's certificate in
#    /kafka-tls/ca.pem for the clients (KAFKA_SSL_CA_FILE);
#  - every run: the broker's JAAS file with the principals' PLAIN passwords, from the
#    KAFKA_<PRINCIPAL>_PASSWORD variables (deploy/.env).
# No password on a command line: keytool reads them from the environment (-storepass:env).
set -euo pipefail
umask 077
SECRETS="${KAFKA_SECRETS_DIR:-/etc/kafka/secrets}"
CA_DIR="${KAFKA_CA_DIR:-/kafka-tls}"
cd "${SECRETS}"

if [[ ! -s broker.p12 || ! -s "${CA_DIR}/ca.pem" ]]; then
  rm -f ca.p12 broker.p12 broker.csr broker.pem
  od -An -tx1 -N24 /dev/urandom | tr -d ' \n' >store-password
  STORE_PASSWORD="$(cat store-password)"
  export STORE_PASSWORD
  store=(-storetype PKCS12 -storepass:env STORE_PASSWORD)
  keytool -genkeypair -alias ca -keyalg EC -groupname secp256r1 -validity 3650 \
    -dname "CN=ranking compose Kafka CA" -ext bc:c -keystore ca.p12 "${store[@]}"
  keytool -exportcert -rfc -alias ca -keystore ca.p12 "${store[@]}" -file "${CA_DIR}/ca.pem"
  keytool -genkeypair -alias broker -keyalg EC -groupname secp256r1 -validity 825 \
    -dname "CN=kafka" -keystore broker.p12 "${store[@]}"
  keytool -certreq -alias broker -keystore broker.p12 "${store[@]}" -file broker.csr
  keytool -gencert -alias ca -keystore ca.p12 "${store[@]}" -infile broker.csr -outfile broker.pem \
    -rfc -validity 825 -ext san=dns:kafka,dns:localhost -ext eku=serverAuth
  keytool -importcert -noprompt -alias ca -file "${CA_DIR}/ca.pem" -keystore broker.p12 "${store[@]}"
  keytool -importcert -alias broker -file broker.pem -keystore broker.p12 "${store[@]}"
  rm -f broker.csr broker.pem
fi

{
  echo 'KafkaServer {'
  echo '  org.apache.kafka.common.security.plain.PlainLoginModule required'
  # The broker's own identity towards itself (inter-broker and controller): admin.
  printf '  username="admin"\n  password="%s"\n' "${KAFKA_ADMIN_PASSWORD}"
  # The principals of deploy/docker-compose.yml's containers (libs/kafka/src/acls.ts), and the
  # simulator's as the producer it is (ADR 39; KAFKA_PRODUCER_SIMULATOR_PASSWORD).
  for user in admin producer-simulator intake-service rating-service maintenance-service leaderboard-service; do
    variable="KAFKA_$(echo "${user%-service}" | tr 'a-z-' 'A-Z_')_PASSWORD"
    [[ -n "${!variable:-}" ]] || { echo "kafka-init: ${variable} is not set (deploy/.env)" >&2; exit 1; }
    printf '  user_%s="%s"\n' "${user}" "${!variable}"
  done
  echo '  ;'
  echo '};'
} >kafka_server_jaas.conf.tmp
mv kafka_server_jaas.conf.tmp kafka_server_jaas.conf

# The healthcheck's client: admin over SASL_SSL, trusting the CA in the keystore.
{
  echo 'security.protocol=SASL_SSL'
  echo 'sasl.mechanism=PLAIN'
  printf 'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="%s";\n' "${KAFKA_ADMIN_PASSWORD}"
  echo 'ssl.truststore.location=/etc/kafka/secrets/broker.p12'
  echo 'ssl.truststore.type=PKCS12'
  printf 'ssl.truststore.password=%s\n' "$(cat store-password)"
} >admin-client.properties.tmp
mv admin-client.properties.tmp admin-client.properties

# The broker runs as the image's user (1000), the clients as our image's node (1000).
chown -R 1000:1000 "${SECRETS}"
chmod 644 "${CA_DIR}/ca.pem"
echo "kafka-init: keystore and JAAS file ready"
