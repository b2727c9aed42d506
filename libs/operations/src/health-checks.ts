import {
  CONSUMER_STALL_MS,
  type ConsumerStatus,
  consumerProblem,
  LAG_INTERVAL_MS,
} from '@ranking/kafka';
import type { Kafka } from 'kafkajs';
import type { HealthCheck } from './health-check.js';

/** PostgreSQL answers a query. */
export const postgresCheck = (db: { query(sql: string): Promise<unknown> }): HealthCheck => ({
  name: 'postgres',
  check: async () => {
    await db.query('SELECT 1');
  },
});

/** The Kafka cluster answers a metadata request. */
export const kafkaCheck = (kafka: Kafka): HealthCheck => ({
  name: 'kafka',
  check: async () => {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      return { brokers: cluster.brokers.length };
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  },
});

/** A lag measurement older than this is not trusted (the broker or the database is away). */
export const LAG_STALE_MS = 3 * LAG_INTERVAL_MS + CONSUMER_STALL_MS;

/**
 * A consumer is ready when it hears from the broker, no batch is stuck in retry, and it is at
 * most `maxLag` messages behind by a recent measurement.
 */
export const consumerReadiness = (
  name: string,
  consumer: { status(): ConsumerStatus },
  maxLag: number,
): HealthCheck => ({
  name,
  check: () => {
    const status = consumer.status();
    const now = Date.now();
    const problem = consumerProblem(status, now);
    if (problem !== null) throw new Error(problem);
    const { lag } = status;
    if (lag === null) throw new Error('the lag has not been measured yet');
    if (now - lag.at > LAG_STALE_MS)
      throw new Error(`the lag was last measured ${Math.round((now - lag.at) / 1000)} s ago`);
    if (lag.total > BigInt(maxLag))
      throw new Error(`${lag.total} messages behind (ready at ${maxLag} or fewer)`);
    return Promise.resolve({ lag: Number(lag.total), quarantined: status.quarantined });
  },
});

/** A consumer that kafkajs stopped for good needs a restart; one waiting for a broker does not. */
export const consumerLiveness = (
  name: string,
  consumer: { status(): ConsumerStatus },
): HealthCheck => ({
  name,
  check: () => {
    const { crashed } = consumer.status();
    return crashed === null
      ? Promise.resolve()
      : Promise.reject(new Error(`stopped for good: ${crashed}`));
  },
});
