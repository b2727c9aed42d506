// Backlog drain of the rating service against a bare kafkajs consumer on the same backlog.
// Run: npm run build && node dist/bench/drain.bench.js [events=200000]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import { topicLayout } from '@ranking/kafka';
import {
  backlogEvents,
  benchSetup,
  cpuSeconds,
  freshDatabase,
  secondsSince as seconds,
  loadAverage,
  peakRssKb,
  spawnRatingService,
} from './bench-setup.js';

const total = Number(process.argv[2] ?? 200_000);
const { prefix, topics, databaseUrl, kafka } = benchSetup('drain');
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en')} events/s`;

async function produceBacklog(): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  let batch: { key: string; value: string }[] = [];
  for (const value of backlogEvents(total)) {
    batch.push({ key: /"ladder":"([^"]+)"/.exec(value)?.[1] ?? 'x', value });
    if (batch.length === 2000) {
      await producer.send({ topic: topics.ladderEvents, messages: batch });
      batch = [];
    }
  }
  if (batch.length) await producer.send({ topic: topics.ladderEvents, messages: batch });
  await producer.disconnect();
}

async function bareConsumer(): Promise<number> {
  const consumer = kafka.consumer({ groupId: `${prefix}bare`, maxBytesPerPartition: 4 << 20 });
  await consumer.connect();
  await consumer.subscribe({ topic: topics.ladderEvents, fromBeginning: true });
  let seen = 0;
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachBatch: ({ batch }) => {
        seen += batch.messages.length;
        if (seen >= total) resolve();
        return Promise.resolve();
      },
    });
  });
  const s = seconds(started);
  await consumer.disconnect();
  return s;
}

async function ratingService(): Promise<{
  seconds: number;
  firstBatch: number;
  firstApplied: number;
  peakRssKb: number;
  serviceCpu: number;
  databaseCpu: number;
}> {
  const db = await freshDatabase(databaseUrl);
  // SERVICE_NODE_ARGS profiles the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawnRatingService({ databaseUrl, prefix }, nodeArgs);
  const started = process.hrtime.bigint();
  let peak = 0;
  let firstBatch = 0;
  let firstApplied = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, firstBatch === 0 ? 50 : 500));
    peak = Math.max(peak, peakRssKb(child.pid!));
    const rows: { n: string }[] = await db.query(
      "SELECT coalesce(sum(next_offset), 0) AS n FROM consumer_offsets WHERE consumer = 'rating-service'",
    );
    if (firstBatch === 0 && Number(rows[0]!.n) > 0) {
      firstBatch = seconds(started);
      firstApplied = Number(rows[0]!.n);
    }
    if (Number(rows[0]!.n) >= total) break;
  }
  const s = seconds(started);
  // CPU time is what the run cost whatever else the machine was doing; wall time is not.
  const serviceCpu = cpuSeconds(child.pid!);
  const backends: { pid: number }[] = await db.query(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'bench'",
  );
  const databaseCpu = backends.reduce((sum, b) => sum + cpuSeconds(b.pid), 0);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(forced);
  await db.destroy();
  return { seconds: s, firstBatch, firstApplied, peakRssKb: peak, serviceCpu, databaseCpu };
}

await produceBacklog();
console.log(`backlog: ${total} events on ${topics.ladderEvents}`);
const bare = await bareConsumer();
console.log(`bare kafkajs consumer: ${bare.toFixed(1)} s = ${rate(total, bare)}`);
const rated = await ratingService();
console.log(
  `rating service (start-up included): ${rated.seconds.toFixed(1)} s = ${rate(total, rated.seconds)}, ` +
    `ratio to bare ${(bare / rated.seconds).toFixed(3)}, peak RSS ${(rated.peakRssKb / 1024).toFixed(0)} MB`,
);
console.log(
  `  of which start-up to the first committed batch ${rated.firstBatch.toFixed(1)} s; ` +
    `from there ${rate(total - rated.firstApplied, rated.seconds - rated.firstBatch)}`,
);
const perEvent = (cpu: number) => `${((cpu / total) * 1e6).toFixed(0)} µs/event`;
console.log(
  `CPU: service ${rated.serviceCpu.toFixed(1)} s (${perEvent(rated.serviceCpu)}), ` +
    `PostgreSQL backends ${rated.databaseCpu.toFixed(1)} s (${perEvent(rated.databaseCpu)}); ` +
    `load average at the end ${loadAverage()}`,
);
const admin = kafka.admin();
await admin.connect();
await admin.deleteTopics({ topics: Object.values(topics) });
await admin.disconnect();
