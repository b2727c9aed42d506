// What every service benchmark starts from: the validated environment, its own topic prefix,
// its own database (dropped and migrated afresh) and a Kafka client.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { type Environment, loadEnvironment } from '@ranking/config';
import { generateEvents } from '@ranking/generator';
import {
  kafkaClient,
  kafkaConnection,
  producerTopicLayout,
  producerTopicNames,
  topicNames,
} from '@ranking/kafka';
import {
  createDataSource,
  dropDatabase,
  ensureDatabase,
  EventStoreRepository,
  LadderCounterRepository,
  migrate,
  ProducerRepository,
  sqlOf,
  type StoredEvent,
} from '@ranking/persistence';
import { type LadderConfig, ReplayEngine } from '@ranking/rating';
import type { Admin, Kafka } from 'kafkajs';
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
    kafka: kafkaClient(kafkaConnection(env), 'bench'),
  };
}

/**
 * The bench's game server as a producer of every ladder (ADR 39): its topics and its row. Its
 * events' ids must begin with `<name>:`.
 */
export async function benchProducer(
  db: DataSource,
  admin: Admin,
  prefix: string,
  ladders: readonly string[],
  name = 'bench',
): Promise<{ name: string; topic: string; rejections: string }> {
  await admin.createTopics({ topics: producerTopicLayout(name, prefix), waitForLeaders: true });
  await new ProducerRepository(sqlOf(db.manager)).upsert(name, ladders);
  const topics = producerTopicNames(name, prefix);
  return { name, topic: topics.intake, rejections: topics.rejections };
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

/**
 * CPU seconds (user + system) a process has used so far, or one of its threads (`tid`; the
 * main thread's is the pid), from /proc (0 once it is gone).
 */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
    const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Peak resident memory of a process so far, in kB, from /proc (0 once it is gone). */
export function peakRssKb(pid: number): number {
  try {
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(hwm?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The machine's 1, 5 and 15 minute load averages, as every figure is quoted with them. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The node flags the rating service runs with (deploy/k8s/rating-service.yaml, run.sh, compose). */
export const RATING_SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

/**
 * The built rating service on the bench's database and topics: its output discarded, or each
 * line of it (stdout and stderr) handed to `onLine`; `env` adds to or overrides the bench's.
 */
export function spawnRatingService(
  setup: Pick<BenchSetup, 'databaseUrl' | 'prefix'>,
  nodeArgs: readonly string[] = [],
  options: { env?: Record<string, string>; onLine?: (line: string) => void } = {},
): ChildProcess {
  const args = [...RATING_SERVICE_NODE_FLAGS, ...nodeArgs, 'dist/apps/rating-service/src/main.js'];
  const { onLine } = options;
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      DATABASE_URL: setup.databaseUrl,
      KAFKA_TOPIC_PREFIX: setup.prefix,
      RATING_HTTP_PORT: '0',
      ...options.env,
    },
    stdio: onLine ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  if (onLine) {
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
  }
  return child;
}

/** The backlog the drain and batch benches fold: 30 days, 1 % bad messages, 1 % corrections. */
export const backlogEvents = (total: number): Iterable<string> =>
  generateEvents({ seed: 99, events: total, badShare: 0.01, correctionShare: 0.01, days: 30 });

/**
 * Fills the event store with the lines one ladder accepts, as the rating service would have
 * stored them (its counters too), and returns how many: what the rebuild and what-if benches
 * read.
 */
export async function fillEventStore(
  db: DataSource,
  ladder: LadderConfig,
  lines: Iterable<string>,
): Promise<number> {
  const eventStore = new EventStoreRepository(sqlOf(db.manager));
  const counterRepo = new LadderCounterRepository(sqlOf(db.manager));
  const engine = new ReplayEngine(new Map([[ladder.id, ladder]]));
  let seq = 0;
  let batch: StoredEvent[] = [];
  for (const line of lines) {
    const result = engine.ingestLine(line);
    if (result.kind !== 'accepted') continue;
    batch.push({ ladder: ladder.id, seq: ++seq, event: result.event });
    if (batch.length === 10_000) {
      await eventStore.appendEvents(batch);
      batch = [];
    }
  }
  await eventStore.appendEvents(batch);
  await counterRepo.lockLadders([ladder.id]);
  await counterRepo.saveLadders(
    new Map([[ladder.id, { lastSeq: seq, accepted: seq, lastMessageSeq: seq }]]),
  );
  await db.query('VACUUM ANALYZE');
  return seq;
}

/**
 * One run of the built CLI under /usr/bin/time, on a database: wall seconds, CPU seconds of the
 * CLI (with its re-exec), and what it printed (stdout, then stderr).
 */
export function timedCli(
  args: readonly string[],
  databaseUrl: string,
): Promise<{ seconds: number; cpu: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'cpu %U %S', process.execPath, 'bin/ranking.js', ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(errors);
      resolve({
        seconds: secondsSince(started),
        cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
        output: output + errors.replace(/^cpu .*\n?/m, ''),
      });
    });
  });
}
