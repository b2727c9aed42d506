// What every service benchmark starts from: the validated environment, its own topic prefix,
// its own database (dropped and migrated afresh) and a Kafka client.
import { readFileSync } from 'node:fs';
import { type Environment, loadEnvironment } from '@ranking/config';
import { kafkaClient, topicNames } from '@ranking/kafka';
import { createDataSource, dropDatabase, ensureDatabase, migrate } from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';

export interface BenchSetup {
  readonly env: Environment;
  readonly prefix: string;
  readonly topics: ReturnType<typeof topicNames>;
  readonly databaseUrl: string;
  readonly kafka: Kafka;
}

/** `name` keys the topic prefix and the database (`ranking_bench_<name>`). */
export function benchSetup(name: string): BenchSetup {
  const env = loadEnvironment();
  const prefix = `bench${name}${Date.now().toString(36)}.`;
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/ranking_bench_${name}`;
  return {
    env,
    prefix,
    topics: topicNames(prefix),
    databaseUrl: url.toString(),
    kafka: kafkaClient(env.KAFKA_BROKERS, 'bench'),
  };
}

/** Drops the database, creates and migrates it, and returns a connection to it. */
export async function freshDatabase(url: string): Promise<DataSource> {
  await dropDatabase(url);
  await ensureDatabase(url);
  const db = createDataSource(url, 'bench');
  await db.initialize();
  await migrate(db);
  return db;
}

/** Seconds since a `process.hrtime.bigint()` reading. */
export const secondsSince = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9;

/** CPU seconds (user + system) a process has used so far, from /proc (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
