import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  deleteAcls,
  ensureAcls,
  kafkaClient,
  type KafkaConnection,
  type Principal,
  type ProducerGrant,
  producerPrincipal,
  rankingAcls,
  upsertScramUser,
} from '@ranking/kafka';
import { TEST_ENV } from './environment.js';
import { testKafka } from './kafka.js';
import { waitFor } from './wait-for.js';

let passwords: Record<string, string> | undefined;

/** A principal's SCRAM password, from the credentials file the local broker's first start wrote. */
export function passwordOf(principal: Principal | 'admin'): string {
  if (!passwords) {
    let text: string;
    try {
      text = readFileSync(TEST_ENV.kafkaCredentialsFile, 'utf8');
    } catch (error) {
      throw new Error(
        `no Kafka credentials at ${TEST_ENV.kafkaCredentialsFile} (KAFKA_CREDENTIALS_FILE): start the broker with deploy/kafka/kafka.sh (${(error as Error).message})`,
      );
    }
    passwords = (JSON.parse(text) as { users: Record<string, string> }).users;
  }
  const password = passwords[principal];
  if (password === undefined) throw new Error(`no password for ${principal} in the credentials`);
  return password;
}

/** The connection as `principal` on the SASL listener. */
export const principalConnection = (principal: Principal | 'admin'): KafkaConnection => ({
  brokers: TEST_ENV.kafkaSaslBrokers,
  sasl: { mechanism: 'scram-sha-512', username: principal, password: passwordOf(principal) },
});

/** The environment variables that run a service (or the CLI) as `principal`. */
export const principalEnv = (principal: Principal | 'admin'): Record<string, string> => ({
  KAFKA_BROKERS: TEST_ENV.kafkaSaslBrokers,
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: principal,
  KAFKA_SASL_PASSWORD: passwordOf(principal),
});

/**
 * The environment variables that run a service (or the CLI) as `principal` on the SASL_SSL
 * listener, trusting the local CA.
 */
export const principalTlsEnv = (principal: Principal | 'admin'): Record<string, string> => ({
  ...principalEnv(principal),
  KAFKA_BROKERS: TEST_ENV.kafkaSslBrokers,
  KAFKA_SSL: 'true',
  KAFKA_SSL_CA_FILE: join(TEST_ENV.kafkaTlsDir, 'ca.pem'),
});

/** A kafkajs client as `principal` on the SASL listener. */
export const principalKafka = (principal: Principal | 'admin', clientId = `test-${principal}`) =>
  kafkaClient(principalConnection(principal), clientId);

/** The connection as `principal` on the SASL_SSL listener, trusting the local CA. */
export const principalTlsConnection = (principal: Principal | 'admin'): KafkaConnection => ({
  brokers: TEST_ENV.kafkaSslBrokers,
  tls: { ca: readFileSync(join(TEST_ENV.kafkaTlsDir, 'ca.pem'), 'utf8') },
  sasl: principalConnection(principal).sasl!,
});

/**
 * A producer's Kafka user (ADR 39), made with a new password as `ranking producer add` makes it,
 * and the connection as it on the SASL listener (`tls`: the SASL_SSL one). Producers' users are
 * the broker's, not a prefix's: a test's producer names are its own.
 */
export async function producerConnection(
  producer: string,
  options: { readonly tls?: boolean } = {},
): Promise<KafkaConnection> {
  const password = randomBytes(18).toString('base64url');
  const username = producerPrincipal(producer);
  await upsertScramUser(testKafka(), username, password);
  const sasl = { mechanism: 'scram-sha-512' as const, username, password };
  const connection = options.tls
    ? { ...principalTlsConnection('admin'), sasl }
    : { brokers: TEST_ENV.kafkaSaslBrokers, sasl };
  // The controller has the credential when the call returns; a broker applies it a moment later.
  await waitFor(
    async () => {
      const admin = kafkaClient(connection, `test-login-${producer}`).admin();
      try {
        await admin.connect();
        return true;
      } catch {
        return false;
      } finally {
        await admin.disconnect();
      }
    },
    { timeout: 30_000, interval: 200, what: `the login of ${username}` },
  );
  return connection;
}

/** The ACLs of a test's topics and groups, and of its producers. */
const prefixAcls = (prefix: string, producers: readonly ProducerGrant[]) =>
  rankingAcls(prefix, producers);

/** Writes the system's ACLs for `prefix` and `producers`, as `ranking setup` does for production's. */
export async function grantAcls(
  prefix: string,
  producers: readonly ProducerGrant[] = [],
): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    if (!(await ensureAcls(admin, prefixAcls(prefix, producers), prefix)).authorizer)
      throw new Error('the broker has no authorizer: start it with deploy/kafka/kafka.sh');
  } finally {
    await admin.disconnect();
  }
}

/** Removes the ACLs `grantAcls(prefix, producers)` wrote. */
export async function revokeAcls(
  prefix: string,
  producers: readonly ProducerGrant[] = [],
): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await deleteAcls(admin, prefixAcls(prefix, producers));
  } finally {
    await admin.disconnect();
  }
}
