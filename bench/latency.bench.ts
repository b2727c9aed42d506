// Latency of the rating service at a steady load: events produced at a fixed rate, each timed
// from just before its send to its commit and to the arrival of its rating-changes message, and
// broken down by stage, from outside the service where the data allows:
//   produce -> transaction began: the event's `recorded_at` (PostgreSQL's now(), the start of
//     the transaction that stored it): the Kafka fetch, and waiting for the transaction before;
//   began -> committed: the commit is bounded from above by the publish of its rating change
//     (the relay sends only what is committed) and by the first poll of the event store that
//     saw the row (the poll's statement_timestamp(); polls every 10 ms, their period printed);
//   committed -> published: the Kafka timestamp of the rating-changes message, set by the
//     outbox relay's producer as it sends (a lower bound, the commit being an upper one);
//   published -> received: the broker's acknowledgement and this bench's own fetch.
// And from inside, the service's /metrics over the phase: the Kafka fetch wait per message,
// the transactions (time, messages), the relay rounds and the GC pauses; CPU by process and
// the machine's, as the machine has 2 cores. One clock: the bench, PostgreSQL, both Kafka clients.
// Two phases in one run, the same rate and length, other events: straight onto the ladder log
// (as the system's own principals write it), then as game servers publish, to the intake topic
// through the intake service (the extra hop of ADR 23). Each phase starts once one event went
// all the way through its path (group joins, the first fold); the first WARM_SECONDS of each
// phase (JIT, pools, the batch size settling) are reported on their own and with the whole
// phase, never dropped: "steady" is what follows them.
// Run: npm run build && node dist/bench/latency.bench.js [rate=2000] [seconds=30]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import { generateEvents } from '@ranking/generator';
import { topicLayout } from '@ranking/kafka';
import { dropDatabase } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:net';
import {
  benchProducer,
  benchSetup,
  cpuSeconds,
  freshDatabase,
  loadAverage,
  spawnRatingService,
} from './bench-setup.js';

const rate = Number(process.argv[2] ?? 2000);
const duration = Number(process.argv[3] ?? 30);
const TICK_MS = 10;
/** The start of each phase reported on its own (the steady state is what follows). */
const WARM_SECONDS = 5;
const { prefix, topics, databaseUrl, kafka } = benchSetup('latency');
/** Milliseconds since the epoch, sub-millisecond: comparable with PostgreSQL's and Kafka's clocks. */
const now = () => performance.timeOrigin + performance.now();

/** A free port for the rating service's /metrics. */
const metricsPort = await new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

const db = await freshDatabase(databaseUrl);
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
const gameServer = await benchProducer(db, admin, prefix, [...ladderRegistry().keys()]);
const child = spawnRatingService({ databaseUrl, prefix }, [], {
  env: { RATING_HTTP_PORT: String(metricsPort) },
});
const intake = spawn(process.execPath, ['dist/apps/intake-service/src/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_TOPIC_PREFIX: prefix,
    INTAKE_HTTP_PORT: '0',
  },
  stdio: 'ignore',
});

/** The machine's busy and total CPU time so far (jiffies, every core), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}
const kafkaPid = (() => {
  try {
    return Number(readFileSync('.kafka/kafka.pid', 'utf8').trim());
  } catch {
    return 0;
  }
})();

/** CPU seconds of this database's PostgreSQL backends so far, by application name. */
async function backendCpu(): Promise<Map<string, number>> {
  const rows = await db.query<{ pid: number; app: string }[]>(
    'SELECT pid, application_name AS app FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpu = new Map<string, number>();
  for (const { pid, app } of rows) cpu.set(app, (cpu.get(app) ?? 0) + cpuSeconds(pid));
  return cpu;
}

/** One event's stages, in epoch milliseconds. */
interface Timing {
  readonly sent: number;
  began?: number;
  committed?: number;
  published?: number;
  received?: number;
}
let timings = new Map<string, Timing>();

// Commits, seen from outside: each ladder's sequence grows in log order, one partition at a time.
const lastSeq = new Map<string, number>([...ladderRegistry().keys()].map((l) => [l, 0]));
let polling = true;
/** The warm-up event under way, if any. */
let warm = null as { id: string; done: () => void } | null;

/** Poll periods (between two polls' snapshots): how late a commit can be seen at worst. */
let pollPeriods: number[] = [];
const poller = (async () => {
  let previous: number | null = null;
  while (polling) {
    // A row is visible to a statement whose snapshot was taken after its commit, so the
    // statement's own start (PostgreSQL's clock) bounds the commit from above, however long
    // the answer takes to come back to this busy process. The LIMIT keeps each ladder's
    // lookup on the primary key: without it the planner flattens the lateral join into a hash
    // join over a scan of the whole event store, every poll (75 ms at 200,000 rows), and the
    // bench's own polling takes a fifth of a core from the system it measures.
    const rows = await db.query<
      { ladder: string | null; seq: string; event_id: string; began: number; asked: number }[]
    >(
      `SELECT s.ladder, s.seq, s.event_id, extract(epoch FROM s.recorded_at)::float8 * 1000 AS began,
              extract(epoch FROM statement_timestamp())::float8 * 1000 AS asked
       FROM (SELECT 1) AS one LEFT JOIN LATERAL (
         SELECT s.* FROM unnest($1::text[], $2::bigint[]) AS l(ladder, seq)
         CROSS JOIN LATERAL (SELECT e.ladder, e.seq, e.event_id, e.recorded_at FROM event_store e
                             WHERE e.ladder = l.ladder AND e.seq > l.seq
                             ORDER BY e.seq LIMIT 100000) AS s) AS s ON true`,
      [[...lastSeq.keys()], [...lastSeq.values()]],
    );
    const asked = Number(rows[0]!.asked);
    if (previous !== null) pollPeriods.push(asked - previous);
    previous = asked;
    for (const row of rows) {
      if (row.ladder === null) continue;
      lastSeq.set(row.ladder, Math.max(lastSeq.get(row.ladder) ?? 0, Number(row.seq)));
      const timing = timings.get(row.event_id);
      if (row.event_id === warm?.id) warm.done();
      if (timing) {
        timing.began = Number(row.began);
        timing.committed = Math.min(asked, timing.committed ?? asked);
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
})();
const consumer = kafka.consumer({ groupId: `${prefix}latency`, maxWaitTimeInMs: 50 });
await consumer.connect();
await consumer.subscribe({ topic: topics.ratingChanges, fromBeginning: true });
await consumer.run({
  eachMessage: ({ message }) => {
    const id = message.headers?.['x-event-id']?.toString();
    if (id !== undefined && id === warm?.id) warm.done();
    const timing = id === undefined ? undefined : timings.get(id);
    if (timing) {
      timing.published = Number(message.timestamp);
      timing.received = now();
      // The relay publishes only what is committed: the publish bounds the commit too.
      if (timing.committed === undefined || timing.committed > timing.published)
        timing.committed = timing.published;
    }
    return Promise.resolve();
  },
});
const producer = kafka.producer();
await producer.connect();

/**
 * Waits until one event sent to `topic` is committed or published (group joins, first fold): the
 * commit counts too, as the rules may void it (no rating change then).
 */
async function warmUp(topic: string, n: number, idPrefix = ''): Promise<void> {
  const id = `${idPrefix}warm-up-${n}`;
  await new Promise<void>((resolve) => {
    warm = { id, done: resolve };
    void producer.send({
      topic,
      messages: [
        {
          key: 'qq-gomoku',
          value: JSON.stringify({
            id,
            type: 'game.finished',
            ladder: 'qq-gomoku',
            gameId: id,
            finishedAt: '2026-11-01T10:00:00+08:00',
            moves: 30,
            players: [
              { id: `warm-a-${n}`, result: 'win' },
              { id: `warm-b-${n}`, result: 'loss' },
            ],
          }),
        },
      ],
    });
  });
  warm = null;
}

const percentiles = (values: number[]) => {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `p50 ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms (${values.length})`;
};

/** The rating service's metrics as sample -> value (`name{labels}` as exposed). */
async function scrape(): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(\S+)$/.exec(line);
    if (match && !line.startsWith('#')) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/**
 * A histogram's observations between two scrapes: count, mean, and the bucket bounds its
 * p50/p99 fall under (Prometheus buckets: "<= bound").
 */
function histogram(
  before: Map<string, number>,
  after: Map<string, number>,
  name: string,
  labels = '',
  unit = 1000,
  suffix = ' ms',
): string {
  const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const count = delta(`${name}_count${labels ? `{${labels}}` : ''}`);
  if (count === 0) return 'none';
  const sum = delta(`${name}_sum${labels ? `{${labels}}` : ''}`);
  const buckets: [number, number][] = [];
  for (const key of after.keys()) {
    if (!key.startsWith(`${name}_bucket{`)) continue;
    if (labels && !key.includes(labels)) continue;
    const le = /le="([^"]+)"/.exec(key)?.[1];
    if (le) buckets.push([le === '+Inf' ? Infinity : Number(le), delta(key)]);
  }
  buckets.sort((a, b) => a[0] - b[0]);
  const under = (p: number) => {
    const bound = buckets.find(([, n]) => n >= p * count)?.[0] ?? Infinity;
    return bound === Infinity ? 'over the top bucket' : `<= ${+(bound * unit).toFixed(1)}${suffix}`;
  };
  return `${count} observed, mean ${((sum / count) * unit).toFixed(1)}${suffix}, p50 ${under(0.5)}, p99 ${under(0.99)}`;
}

const differences = (timing: Timing[], from: keyof Timing, to: keyof Timing) =>
  timing.flatMap((t) => (t[from] !== undefined && t[to] !== undefined ? [t[to] - t[from]] : []));

/** One phase: `rate` events a second for `duration` seconds to `topic`, timed through each stage. */
async function phase(name: string, topic: string, seed: number, idPrefix = ''): Promise<void> {
  timings = new Map();
  pollPeriods = [];
  const events = generateEvents({ seed, events: rate * duration, days: 30, idPrefix })[
    Symbol.iterator
  ]();
  const perTick = (rate * TICK_MS) / 1000;
  const metricsBefore = await scrape();
  const pids = [child.pid!, intake.pid!, process.pid, kafkaPid];
  const cpuBefore = pids.map(cpuSeconds);
  const machineBefore = machineCpu();
  const backendsBefore = await backendCpu();
  const started = now();
  let produced = 0;
  for (let tick = 0; produced < rate * duration; tick++) {
    const due = started + tick * TICK_MS;
    if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
    const messages = [];
    for (let i = 0; i < perTick; i++) {
      const next = events.next();
      if (next.done) break;
      const id = /"id":"([^"]+)"/.exec(next.value)?.[1];
      if (id !== undefined && !timings.has(id)) timings.set(id, { sent: now() });
      messages.push({ key: /"ladder":"([^"]+)"/.exec(next.value)?.[1] ?? 'x', value: next.value });
    }
    produced += messages.length;
    void producer.send({ topic, messages });
  }
  const sendSeconds = (now() - started) / 1000;
  const cpuSent = pids.map(cpuSeconds);
  const machineSent = machineCpu();
  const backendsSent = await backendCpu();
  const busy =
    ((machineSent.busy - machineBefore.busy) / (machineSent.total - machineBefore.total)) *
    availableParallelism();
  const waitUntil = now() + 30_000;
  const received = () => [...timings.values()].filter((t) => t.received !== undefined).length;
  let last = -1;
  while (now() < waitUntil && received() !== last) {
    last = received();
    await new Promise((r) => setTimeout(r, 2000));
  }
  const metricsAfter = await scrape();
  const backends = [...backendsSent]
    .map(
      ([app, c]) =>
        `${app || '(none)'} ${((c - (backendsBefore.get(app) ?? 0)) / sendSeconds).toFixed(2)}`,
    )
    .join(', ');
  const all = [...timings.values()];
  const published = all.filter((t) => t.received !== undefined);
  const cpu = cpuSent.map((c, i) => ((c - cpuBefore[i]!) / sendSeconds).toFixed(2));
  console.log(
    `[${name}] produced ${produced} events in ${sendSeconds.toFixed(1)} s (${Math.round(produced / sendSeconds)}/s target ${rate}/s); ` +
      `${published.length} rating-changes messages timed (void and rejected events publish none); ` +
      `CPU cores used while sending: rating service ${cpu[0]}, intake ${cpu[1]}, bench ${cpu[2]}, Kafka ${cpu[3]}; ` +
      `PostgreSQL backends: ${backends}; the machine ${busy.toFixed(2)} of ${availableParallelism()}`,
  );
  const warmEnd = started + WARM_SECONDS * 1000;
  for (const [part, timing] of [
    ['whole phase', all],
    [`first ${WARM_SECONDS} s`, all.filter((t) => t.sent < warmEnd)],
    [`after ${WARM_SECONDS} s (steady)`, all.filter((t) => t.sent >= warmEnd)],
  ] as const) {
    console.log(
      `[${name}] ${part}: produce -> committed (in the event store): ${percentiles(differences(timing, 'sent', 'committed'))}`,
    );
    console.log(
      `[${name}] ${part}: produce -> rating-change received: ${percentiles(differences(timing, 'sent', 'received'))}`,
    );
  }
  const steady = all.filter((t) => t.sent >= warmEnd);
  console.log(`[${name}] stages (steady, from outside):`);
  for (const [label, from, to] of [
    ['produce -> transaction began (fetch, waiting for the one before)', 'sent', 'began'],
    ['transaction began -> committed (upper bound)', 'began', 'committed'],
    ['committed -> published (relay, Kafka timestamp; lower bound)', 'committed', 'published'],
    ['published -> received (ack, bench fetch)', 'published', 'received'],
  ] as const)
    console.log(`  ${label}: ${percentiles(differences(steady, from, to))}`);
  console.log(
    `  (a commit is bounded by its rating change's publish, else by the first poll of the event store that saw it, one poll period late at most: ${percentiles(pollPeriods)})`,
  );
  const h = (metric: string, labels?: string, unit?: number, suffix?: string) =>
    histogram(metricsBefore, metricsAfter, metric, labels, unit, suffix);
  console.log(`[${name}] stages (whole phase, the rating service's /metrics):`);
  console.log(
    `  produce -> fetched (per message): ${h('ranking_fetch_wait_seconds', `topic="${topics.ladderEvents}"`)}`,
  );
  console.log(`  transaction (settle): ${h('ranking_batch_duration_seconds')}`);
  console.log(`  messages per transaction: ${h('ranking_batch_messages', '', 1, '')}`);
  console.log(`  outbox relay round: ${h('ranking_outbox_round_seconds')}`);
  for (const kind of ['minor', 'major', 'incremental'])
    console.log(`  GC ${kind}: ${h('nodejs_gc_duration_seconds', `kind="${kind}"`)}`);
  console.log(
    `  event loop lag: p99 ${((metricsAfter.get('nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000).toFixed(1)} ms, ` +
      `max ${((metricsAfter.get('nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000).toFixed(1)} ms (since start)`,
  );
  console.log(`[${name}] load average ${loadAverage()}`);
}

// Distinct seeds: the generator's ids are the seed and a serial, so the phases never collide.
await warmUp(topics.ladderEvents, 1);
await phase('ladder log', topics.ladderEvents, 7);
await warmUp(gameServer.topic, 2, `${gameServer.name}:`);
await phase('through the intake', gameServer.topic, 8, `${gameServer.name}:`);
polling = false;
await poller;

for (const service of [child, intake]) {
  const exited = new Promise((resolve) => service.once('exit', resolve));
  service.kill('SIGTERM');
  await exited;
}
await consumer.disconnect();
await producer.disconnect();
await admin.deleteTopics({
  topics: [...Object.values(topics), gameServer.topic, gameServer.rejections],
});
await admin.disconnect();
await db.destroy();
await dropDatabase(databaseUrl);
