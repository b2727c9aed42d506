import { createHash } from 'node:crypto';

/** Where the integration tests find the real services (the same variables the system reads). */
export const TEST_ENV = {
  kafkaBrokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  /** The same broker's SASL_PLAINTEXT (SCRAM-SHA-512) listener (deploy/kafka/kafka.sh). */
  kafkaSaslBrokers: process.env.KAFKA_SASL_BROKERS ?? '127.0.0.1:9094',
  /** The same broker's SASL_SSL (SCRAM-SHA-512 over TLS) listener. */
  kafkaSslBrokers: process.env.KAFKA_SSL_BROKERS ?? '127.0.0.1:9095',
  /** The local CA (ca.pem) and a client certificate it signed (client.pem, client-key.pem). */
  kafkaTlsDir: process.env.KAFKA_TLS_DIR ?? '.kafka/tls',
  /** The SCRAM passwords kafka.sh generated on the broker's first start. */
  kafkaCredentialsFile: process.env.KAFKA_CREDENTIALS_FILE ?? '.kafka/credentials.json',
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ranking',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/**
 * The migrated template every suite's database is copied from (made once in global setup).
 * Named per checkout, so two checkouts (worktrees, CI clones) can run their tests at once
 * against one PostgreSQL without dropping each other's template. Keep in step with
 * test/global-setup.ts.
 */
export const TEMPLATE_DATABASE = `ranking_test_template_${createHash('sha1')
  .update(process.cwd())
  .digest('hex')
  .slice(0, 10)}`;

export function databaseUrlFor(name: string): string {
  const url = new URL(TEST_ENV.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
