// The rating service's batch transaction without Kafka: the drain bench's stream, cut per ladder
// into batches of `batch` messages, each folded by `handlePartitionBatch` in one transaction.
// Prints events/s, this process's and PostgreSQL's CPU per event, and where the time goes,
// statement by statement (wall time each statement waited for, summed over the run).
// Run: npm run build && node dist/bench/batch.bench.js [events=200000] [batch=3000]
// Needs PostgreSQL (bash deploy/infra-up.sh). Uses its own database (ranking_bench_batch).
import { readFileSync } from 'node:fs';
import { preparedSqlOf, type RawMessage, type Sql } from '@ranking/persistence';
import { BUILT_IN_LADDERS } from '@ranking/rating';
import { handlePartitionBatch } from '../apps/rating-service/src/partition-batch.js';
import {
  backlogEvents,
  benchSetup,
  freshDatabase,
  loadAverage,
  secondsSince,
} from './bench-setup.js';

const total = Number(process.argv[2] ?? 200_000);
const batchSize = Number(process.argv[3] ?? 3000);
const { databaseUrl, topics } = benchSetup('batch');
const ladders = new Map(BUILT_IN_LADDERS.map((l) => [l.id, l]));

const byLadder = new Map<string, RawMessage[]>();
for (const value of backlogEvents(total)) {
  const key = /"ladder":"([^"]+)"/.exec(value)?.[1] ?? 'x';
  let list = byLadder.get(key);
  if (!list) byLadder.set(key, (list = []));
  list.push({
    topic: topics.ladderEvents,
    partition: [...byLadder.keys()].indexOf(key),
    offset: String(list.length),
    key: Buffer.from(key),
    value: Buffer.from(value),
  });
}
// Batches interleave the ladders the way a consumer with several partitions sees them.
const batches: RawMessage[][] = [];
const cursors = [...byLadder.values()].map((list) => ({ list, at: 0 }));
while (cursors.some((c) => c.at < c.list.length))
  for (const c of cursors)
    if (c.at < c.list.length) {
      batches.push(c.list.slice(c.at, c.at + batchSize));
      c.at += batchSize;
    }

const db = await freshDatabase(databaseUrl);
const { pid } = (await db.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0]!;
const cpuOf = (p: number): number => {
  const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const waits = new Map<string, { calls: number; ms: number }>();
async function timedCall<T>(text: string, call: () => Promise<T>): Promise<T> {
  const name = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  const started = process.hrtime.bigint();
  try {
    return await call();
  } finally {
    const w = waits.get(name) ?? { calls: 0, ms: 0 };
    w.calls++;
    w.ms += Number(process.hrtime.bigint() - started) / 1e6;
    waits.set(name, w);
  }
}
const timed = (sql: Sql): Sql => ({
  query: <T>(text: string, params?: unknown[]) => timedCall(text, () => sql.query<T>(text, params)),
  copyFrom: (statement: string, data: string | Buffer) =>
    timedCall(statement, () => sql.copyFrom!(statement, data)),
});

const pgBefore = cpuOf(pid);
const usageBefore = process.cpuUsage();
const started = process.hrtime.bigint();
for (const messages of batches)
  await db.transaction((manager) =>
    handlePartitionBatch(
      timed(preparedSqlOf(manager)),
      ladders,
      topics.ladderEvents,
      messages[0]!.partition,
      messages,
      { topics },
    ),
  );
const wall = secondsSince(started);
const usage = process.cpuUsage(usageBefore);
const pgCpu = cpuOf(pid) - pgBefore;
const perEvent = (s: number) => `${Math.round((s * 1e6) / total)} µs/event`;
console.log(
  `${total} events in ${batches.length} batches of up to ${batchSize}: ${wall.toFixed(1)} s = ` +
    `${Math.round(total / wall).toLocaleString('en')} events/s`,
);
console.log(
  `CPU: this process ${perEvent((usage.user + usage.system) / 1e6)}, PostgreSQL backend ${perEvent(pgCpu)}; ` +
    `load average ${loadAverage()}`,
);
console.log('wait per statement (µs/event, calls):');
for (const [name, w] of [...waits].sort((a, b) => b[1].ms - a[1].ms))
  console.log(
    `  ${((w.ms * 1000) / total).toFixed(1).padStart(6)}  ${String(w.calls).padStart(5)}  ${name}`,
  );
await db.destroy();
