// Latency of the rating service at a steady load: events produced at a fixed rate, each timed
// from just before its send to (a) the moment its row is visible in the event store, i.e. its
// transaction committed (polled every 10 ms per ladder, so up to 10 ms late), and (b) the moment
// its rating-changes message arrives (published after the commit through the outbox).
// Two phases in one run, the same rate and length, other events: straight onto the ladder log
// (as the system's own principals write it), then as game servers publish, to the intake topic
// through the intake service (the extra hop of ADR 23).
// Run: npm run build && node dist/bench/latency.bench.js [rate=2000] [seconds=30]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import { generateEvents } from '@ranking/generator';
import { topicLayout } from '@ranking/kafka';
import { dropDatabase } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import { spawn } from 'node:child_process';
import { benchSetup, freshDatabase, loadAverage, spawnRatingService } from './bench-setup.js';

const rate = Number(process.argv[2] ?? 2000);
const duration = Number(process.argv[3] ?? 30);
const TICK_MS = 10;
const { prefix, topics, databaseUrl, kafka } = benchSetup('latency');
const now = () => Number(process.hrtime.bigint()) / 1e6;

const db = await freshDatabase(databaseUrl);
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
const child = spawnRatingService({ databaseUrl, prefix });
const intake = spawn(process.execPath, ['dist/apps/intake-service/src/main.js'], {
  env: { ...process.env, KAFKA_TOPIC_PREFIX: prefix, INTAKE_HTTP_PORT: '0' },
  stdio: 'ignore',
});

const sentAt = new Map<string, number>();
const latencies: number[] = [];
const committed: number[] = [];

// Commits, seen from outside: each ladder's sequence grows in log order, one partition at a time.
const lastSeq = new Map<string, number>([...ladderRegistry().keys()].map((l) => [l, 0]));
let polling = true;
const poller = (async () => {
  while (polling) {
    const rows = await db.query<{ ladder: string; seq: string; event_id: string }[]>(
      `SELECT s.ladder, s.seq, s.event_id FROM json_each_text($1::json) AS l(ladder, seq)
       CROSS JOIN LATERAL (SELECT e.ladder, e.seq, e.event_id FROM event_store e
                           WHERE e.ladder = l.ladder AND e.seq > l.seq::bigint) AS s`,
      [JSON.stringify(Object.fromEntries(lastSeq))],
    );
    const seen = now();
    for (const row of rows) {
      lastSeq.set(row.ladder, Math.max(lastSeq.get(row.ladder) ?? 0, Number(row.seq)));
      const sent = sentAt.get(row.event_id);
      if (sent !== undefined) committed.push(seen - sent);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
})();
let warm: (() => void) | null = null;
const consumer = kafka.consumer({ groupId: `${prefix}latency`, maxWaitTimeInMs: 50 });
await consumer.connect();
await consumer.subscribe({ topic: topics.ratingChanges, fromBeginning: true });
await consumer.run({
  eachMessage: ({ message }) => {
    const id = message.headers?.['x-event-id']?.toString();
    const sent = id === undefined ? undefined : sentAt.get(id);
    if (id === 'warm-up') warm?.();
    else if (sent !== undefined) latencies.push(now() - sent);
    return Promise.resolve();
  },
});
const producer = kafka.producer();
await producer.connect();

// The service is ready when a first event has gone all the way through.
await new Promise<void>((resolve) => {
  warm = resolve;
  void producer.send({
    topic: topics.ladderEvents,
    messages: [
      {
        key: 'qq-gomoku',
        value: JSON.stringify({
          id: 'warm-up',
          type: 'game.finished',
          ladder: 'qq-gomoku',
          gameId: 'warm-up',
          finishedAt: '2026-11-01T10:00:00+08:00',
          moves: 30,
          players: [
            { id: 'warm-a', result: 'win' },
            { id: 'warm-b', result: 'loss' },
          ],
        }),
      },
    ],
  });
});

const percentiles = (values: number[]) => {
  const q = (p: number) => values[Math.min(values.length - 1, Math.floor(p * values.length))]!;
  return `p50 ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms, max ${values[values.length - 1]!.toFixed(0)} ms`;
};

/** One phase: `rate` events a second for `duration` seconds to `topic`, timed to their commit. */
async function phase(name: string, topic: string, seed: number): Promise<void> {
  latencies.length = 0;
  committed.length = 0;
  const events = generateEvents({ seed, events: rate * duration, days: 30 })[Symbol.iterator]();
  const perTick = (rate * TICK_MS) / 1000;
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
      if (id !== undefined && !sentAt.has(id)) sentAt.set(id, now());
      messages.push({ key: /"ladder":"([^"]+)"/.exec(next.value)?.[1] ?? 'x', value: next.value });
    }
    produced += messages.length;
    void producer.send({ topic, messages });
  }
  const sendSeconds = (now() - started) / 1000;
  const waitUntil = now() + 30_000;
  let last = -1;
  while (now() < waitUntil && latencies.length !== last) {
    last = latencies.length;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  console.log(
    `[${name}] produced ${produced} events in ${sendSeconds.toFixed(1)} s (${Math.round(produced / sendSeconds)}/s target ${rate}/s); ` +
      `${latencies.length} rating-changes messages timed (void and rejected events publish none)`,
  );
  console.log(
    `[${name}] produce -> committed (in the event store): ${percentiles(sorted(committed))} (${committed.length} events)`,
  );
  console.log(
    `[${name}] produce -> rating-change received: ${percentiles(sorted(latencies))}; ` +
      `load average ${loadAverage()}`,
  );
}

// Distinct seeds: the generator's ids are the seed and a serial, so the phases never collide.
await phase('ladder log', topics.ladderEvents, 7);
await phase('through the intake', topics.gameResults, 8);
polling = false;
await poller;

for (const service of [child, intake]) {
  const exited = new Promise((resolve) => service.once('exit', resolve));
  service.kill('SIGTERM');
  await exited;
}
await consumer.disconnect();
await producer.disconnect();
await admin.deleteTopics({ topics: Object.values(topics) });
await admin.disconnect();
await db.destroy();
await dropDatabase(databaseUrl);
