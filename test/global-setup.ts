import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Redis } from 'ioredis';
import pg from 'pg';

// Jest loads this file outside the test module graph (no aliases, no local imports), so it
// talks to the services with the client libraries and migrates through the built `ranking setup`.
// Keep these in step with test/support/environment.ts.
const TEST_ENV = {
  kafkaBrokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ranking',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const TEMPLATE_DATABASE = `ranking_test_template_${createHash('sha1')
  .update(process.cwd())
  .digest('hex')
  .slice(0, 10)}`;
const databaseUrlFor = (name: string): string => {
  const url = new URL(TEST_ENV.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
const HINT =
  'run `npm run infra:up` (or `bash .ci/run`) to start the services the integration tests need';

async function checkKafka(): Promise<void> {
  const admin = new Kafka({
    brokers: TEST_ENV.kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 2 },
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
    // The first group lookup creates __consumer_offsets; a new broker answers "not the
    // coordinator" until it is ready. Wait for it here, so tests start warm.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.describeGroups(['warm-up']);
        break;
      } catch (error) {
        if (attempt >= 120) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } catch (error) {
    throw new Error(
      `Kafka at ${TEST_ENV.kafkaBrokers} does not answer (${(error as Error).message}); ${HINT}`,
    );
  } finally {
    await admin.disconnect();
  }
}

async function checkRedis(): Promise<void> {
  const redis = new Redis(TEST_ENV.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis at ${TEST_ENV.redisUrl} does not answer (${(error as Error).message}); ${HINT}`,
    );
  } finally {
    redis.disconnect();
  }
}

async function recreateTemplate(): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrlFor('postgres') });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${TEST_ENV.databaseUrl} is not usable (${(error as Error).message}); ${HINT}`,
    );
  } finally {
    await admin.end();
  }
  // Its errors only (JSON lines on stderr): the migrations it ran are no news in a test run.
  execFileSync(process.execPath, ['bin/ranking.js', 'setup', '--skip-kafka'], {
    env: { ...process.env, DATABASE_URL: databaseUrlFor(TEMPLATE_DATABASE), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Once per run: the real services answer, and the template database every suite copies is migrated. */
export default async function globalSetup(): Promise<void> {
  await Promise.all([checkKafka(), checkRedis()]);
  await recreateTemplate();
}
