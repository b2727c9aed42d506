// The chaos soak (issue 41 item 5): every service running against a three-broker Kafka cluster,
// a PostgreSQL primary with a streaming standby (deploy/postgres-ha.sh) and a Redis of its own,
// two rating-service instances, games published through the intake at a steady rate, and a
// schedule of faults: a broker SIGKILLed and restarted, the PostgreSQL primary SIGKILLed (the HA
// engine promotes the standby), a rating service SIGKILLed, the intake SIGKILLed, Redis restarted
// empty. A supervisor (this script) restarts any service that exits, as Kubernetes or systemd
// would. At the end, after the backlog drained:
//   - every produced id the rules accept is stored exactly once, nothing else of ours is;
//   - the live state (the export) equals the offline replay of the stored log;
//   - each ladder's live board equals a rebuild from PostgreSQL;
//   - each bad message sent came back rejected (rejection or dead-letter topic) exactly once.
// And for each fault: the seconds until the backlog was back at its steady level, and the
// produce-to-committed latency of the events sent meanwhile. One table.
//
// Run: npm run build && node dist/bench/chaos-soak.bench.js [rate=300] [seconds=600]
// Needs PostgreSQL, the Kafka jars (bash deploy/infra-up.sh once), redis-server on PATH, and the
// HA packages (deploy/install.sh). It starts and stops the three-broker cluster and the HA pair
// itself; its services' logs are in .run/soak/.
import { execFile, type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import {
  kafkaClient,
  producerTopicLayout,
  producerTopicNames,
  topicLayout,
  topicNames,
} from '@ranking/kafka';
import {
  createDataSource,
  dropDatabase,
  ensureDatabase,
  exportLog,
  exportStandings,
  migrate,
  ProducerRepository,
  sqlOf,
  type Sql,
} from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { loadAverage } from './bench-setup.js';
import {
  type BacklogSample,
  type EventLatency,
  type Fault,
  faultRecoveries,
  quantile,
  steadyBacklog,
} from './chaos/recovery.js';
import { SupervisedService } from './chaos/supervised-service.js';

const run = promisify(execFile);
const rate = Number(process.argv[2] ?? 300);
const seconds = Number(process.argv[3] ?? 600);
if (!(rate > 0 && seconds >= 60))
  throw new Error('usage: chaos-soak.bench.js [rate>0] [seconds>=60]');
const ladders = ladderRegistry();
const prefix = `soak${Date.now().toString(36)}.`;
const topics = topicNames(prefix);
/** The game servers' producer (ADR 39): its topics, and its ids' namespace. */
const GAME_SERVER = 'soak';
const gameServer = producerTopicNames(GAME_SERVER, prefix);
const LOGS = '.run/soak';
mkdirSync(LOGS, { recursive: true });
const started = Date.now();
const clock = () => (Date.now() - started) / 1000;
const say = (text: string) => console.log(`[soak ${clock().toFixed(1).padStart(6)} s] ${text}`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// --- infrastructure -------------------------------------------------------------------------
const cluster = (...args: string[]) =>
  run('bash', ['deploy/kafka/kafka.sh', '--brokers', '3', ...args], { maxBuffer: 1 << 24 });
const postgresHa = (...args: string[]) =>
  run('bash', ['deploy/postgres-ha.sh', ...args], { maxBuffer: 1 << 24 });

say('starting the three-broker cluster and the PostgreSQL pair');
await cluster('start');
const brokers = (await cluster('brokers')).stdout.trim();
await postgresHa('up');
// `urls` prints "read-write: URL" and "read-only: URL"; the services write.
const serverUrl = /read-write:\s*(\S+)/.exec((await postgresHa('urls')).stdout)?.[1];
if (!serverUrl) throw new Error('deploy/postgres-ha.sh urls named no read-write URL');
const databaseUrl = (() => {
  const url = new URL(serverUrl);
  url.pathname = '/ranking_soak';
  return url.toString();
})();
await dropDatabase(databaseUrl);
await ensureDatabase(databaseUrl);
const db: DataSource = createDataSource(databaseUrl, 'soak');
await db.initialize();
await migrate(db);
await new ProducerRepository(sqlOf(db.manager)).upsert(GAME_SERVER, [...ladders.keys()]);

const redisPort = await freePort();
const redis: { process: ChildProcess | null } = { process: null };
const startRedis = () => {
  redis.process = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
};
startRedis();
const redisUrl = `redis://127.0.0.1:${redisPort}`;

const kafka = kafkaClient(brokers, 'soak');
const admin = kafka.admin();
await admin.connect();
// A new cluster may not know a just-created topic on every broker yet: ask until all do.
await admin.createTopics({
  topics: [...topicLayout(prefix), ...producerTopicLayout(GAME_SERVER, prefix)],
  waitForLeaders: false,
});
for (let attempt = 0; ; attempt++) {
  try {
    await admin.fetchTopicMetadata({
      topics: [...Object.values(topics), gameServer.intake, gameServer.rejections],
    });
    break;
  } catch (error) {
    if (attempt >= 120) throw error;
    await new Promise((r) => setTimeout(r, 500));
  }
}

// --- services -------------------------------------------------------------------------------
const leaderboardPort = await freePort();
const common = {
  KAFKA_BROKERS: brokers,
  KAFKA_TOPIC_PREFIX: prefix,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  LOG_LEVEL: 'info',
  // A killed member's partitions move on after 10 s rather than 30 s.
  KAFKA_SESSION_TIMEOUT_MS: '10000',
  HTTP_PORT: String(leaderboardPort),
  MAINTENANCE_HTTP_PORT: '0',
  RATING_HTTP_PORT: '0',
  INTAKE_HTTP_PORT: '0',
};
const service = (name: string, main: string, nodeArgs: string[] = []) =>
  new SupervisedService(
    name,
    `dist/apps/${main}/src/main.js`,
    common,
    `${LOGS}/${name}.log`,
    nodeArgs,
  );
const ratingFlags = ['--max-semi-space-size=32'];
const services = {
  intake: service('intake', 'intake-service'),
  rating1: service('rating-1', 'rating-service', ratingFlags),
  rating2: service('rating-2', 'rating-service', ratingFlags),
  maintenance: service('maintenance', 'maintenance-service'),
  leaderboard: service('leaderboard', 'leaderboard-service'),
};
for (const s of Object.values(services)) s.start();
say(`services started (logs in ${LOGS}/)`);

// --- the load -------------------------------------------------------------------------------
const total = Math.ceil(rate * seconds);
// Game servers publish game.finished alone (corrections are the operators'), with bad lines.
const LOAD = {
  seed: 41,
  badShare: 0.01,
  correctionShare: 0,
  days: 20,
  idPrefix: `${GAME_SERVER}:`,
};
const lines = generateEvents({ ...LOAD, events: total });
const offline = new ReplayEngine(ladders);
const digest = (value: string | Buffer) => createHash('sha1').update(value).digest('hex');
/** Accepted ids by the second they were sent (null once seen committed). */
const pending = new Map<string, number>();
const latencies: EventLatency[] = [];
/** Digests of the lines the rules reject, each to come back once. */
const rejectedDigests: string[] = [];
let acceptedSent = 0;
let acceptedCommitted = 0;

const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();
interface Outgoing {
  key: string;
  value: string;
}
let queue: Outgoing[] = [];
let sending = true;
/** One send at a time, whatever is queued (a stalled send lets the queue grow, never reorders). */
const sender = (async () => {
  while (sending || queue.length > 0) {
    if (queue.length === 0) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const batch = queue.slice(0, 2000);
    try {
      await producer.send({ topic: gameServer.intake, acks: -1, messages: batch });
      queue = queue.slice(batch.length);
    } catch (error) {
      say(`a send failed, trying again: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
})();

const keyOf = (line: string): string => {
  try {
    const ladder = (JSON.parse(line) as { ladder?: unknown }).ladder;
    return typeof ladder === 'string' ? ladder : 'unparsable';
  } catch {
    return 'unparsable';
  }
};

// Wait until one event went all the way (group joins, first fold): the faults start after that.
say('waiting for the services to take the first events');
const warm = lines.next();
{
  const line = warm.value as string;
  const result = offline.ingestLine(line);
  if (result.kind === 'accepted') {
    pending.set(result.event.id, clock());
    acceptedSent++;
  }
  queue.push({ key: keyOf(line), value: line });
}

/** Commits, seen from outside: each ladder's sequence grows in log order. */
const lastSeq = new Map<string, number>([...ladders.keys()].map((l) => [l, 0]));
async function pollCommits(): Promise<void> {
  const rows = await db.query<{ ladder: string; seq: string; event_id: string }[]>(
    `SELECT s.ladder, s.seq, s.event_id
       FROM unnest($1::text[], $2::bigint[]) AS l(ladder, seq)
       CROSS JOIN LATERAL (SELECT e.ladder, e.seq, e.event_id FROM event_store e
                           WHERE e.ladder = l.ladder AND e.seq > l.seq
                           ORDER BY e.seq LIMIT 100000) AS s`,
    [[...lastSeq.keys()], [...lastSeq.values()]],
  );
  const now = clock();
  for (const row of rows) {
    lastSeq.set(row.ladder, Math.max(lastSeq.get(row.ladder) ?? 0, Number(row.seq)));
    const sent = pending.get(row.event_id);
    if (sent !== undefined) {
      pending.delete(row.event_id);
      acceptedCommitted++;
      latencies.push({ sent, committed: now });
    }
  }
}
let polling = true;
let pollFailures = 0;
const samples: BacklogSample[] = [];
const poller = (async () => {
  let lastSample = 0;
  while (polling) {
    try {
      await pollCommits();
    } catch {
      // The primary is away (failover): the next poll asks the new one.
      pollFailures++;
      await new Promise((r) => setTimeout(r, 500));
    }
    const now = clock();
    if (now - lastSample >= 1) {
      samples.push({ t: now, backlog: acceptedSent - acceptedCommitted });
      lastSample = now;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
})();
while (acceptedCommitted === 0) await new Promise((r) => setTimeout(r, 200));
say('the first event is committed: the load and the fault schedule start');

const loadStart = clock();
const faults: Fault[] = [];
const fault = (name: string) => {
  faults.push({ name, at: clock() });
  say(`FAULT: ${name}`);
};
const at = (fraction: number) => loadStart + fraction * seconds;
let brokerVictim = -1;
let crashedPrimary = '';
const schedule: { at: number; what: () => Promise<void> }[] = [
  {
    at: at(0.1),
    what: async () => {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics: [topics.ladderEvents] });
      brokerVictim = meta[0]?.partitions.find((p) => p.partitionId === 0)?.leader ?? 1;
      fault(`broker ${brokerVictim} (leader of ladder-events/0) SIGKILLed`);
      await cluster('kill-node', String(brokerVictim));
    },
  },
  {
    at: at(0.2),
    what: async () => {
      say(`broker ${brokerVictim} restarted`);
      await cluster('start-node', String(brokerVictim));
    },
  },
  {
    at: at(0.3),
    what: async () => {
      crashedPrimary = (await postgresHa('primary')).stdout.trim();
      fault(`PostgreSQL primary (${crashedPrimary}) SIGKILLed (failover)`);
      await postgresHa('crash');
    },
  },
  {
    at: at(0.38),
    what: async () => {
      say(`${crashedPrimary} started again (it rejoins as the standby)`);
      await postgresHa('start-node', crashedPrimary);
    },
  },
  {
    at: at(0.45),
    what: () => {
      fault('rating-service instance 1 SIGKILLed');
      services.rating1.kill();
      return Promise.resolve();
    },
  },
  {
    at: at(0.6),
    what: () => {
      fault('intake SIGKILLed');
      services.intake.kill();
      return Promise.resolve();
    },
  },
  {
    at: at(0.75),
    what: async () => {
      fault('Redis restarted empty');
      const old = redis.process!;
      const gone = new Promise((r) => old.once('exit', r));
      old.kill('SIGKILL');
      await gone;
      startRedis();
    },
  },
];
const faultRunner = (async () => {
  for (const step of schedule) {
    const wait = step.at - clock();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait * 1000));
    try {
      await step.what();
    } catch (error) {
      say(`the fault step failed: ${(error as Error).message}`);
    }
  }
})();

// The steady load: every 100 ms the events due by then.
const tickMs = 100;
let produced = 1;
for (;;) {
  const due = Math.min(total, Math.floor((clock() - loadStart) * rate) + 1);
  while (produced < due) {
    const next = lines.next();
    if (next.done) break;
    const line = next.value;
    const result = offline.ingestLine(line);
    if (result.kind === 'accepted') {
      pending.set(result.event.id, clock());
      acceptedSent++;
    } else if (result.kind === 'rejected') rejectedDigests.push(digest(line));
    queue.push({ key: keyOf(line), value: line });
    produced++;
  }
  if (produced >= total) break;
  await new Promise((r) => setTimeout(r, tickMs));
}
const loadEnd = clock();
say(`load done: ${produced} events in ${(loadEnd - loadStart).toFixed(0)} s`);
await faultRunner;
sending = false;
await sender;

// --- drained --------------------------------------------------------------------------------
say('waiting for the backlog to drain');
const drainDeadline = Date.now() + 600_000;
const outboxEmpty = async () =>
  Number((await db.query('SELECT count(*) AS n FROM outbox'))[0].n) === 0 &&
  Number((await db.query('SELECT count(*) AS n FROM maintenance_outbox'))[0].n) === 0;
for (;;) {
  let done = false;
  try {
    done = acceptedCommitted === acceptedSent && (await outboxEmpty());
  } catch {
    done = false;
  }
  if (done) break;
  if (Date.now() > drainDeadline) {
    say(`NOT DRAINED after 10 minutes: ${acceptedSent - acceptedCommitted} events not committed`);
    break;
  }
  await new Promise((r) => setTimeout(r, 1000));
}
const drainedAt = clock();
polling = false;
await poller;
say(`drained ${(drainedAt - loadEnd).toFixed(0)} s after the load ended`);

// --- checks ---------------------------------------------------------------------------------
const problems: string[] = [];
const sql: Sql = { query: (text, params) => db.query(text, params) };
const collect = async (chunks: AsyncIterable<string> | Iterable<string>) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

// 1. Each accepted id stored exactly once, nothing of ours stored that the rules refuse.
const stored = await db.query<{ event_id: string; type: string }[]>(
  'SELECT event_id, type FROM event_store',
);
const storedIds = new Set(stored.map((r) => r.event_id));
if (storedIds.size !== stored.length) problems.push('an event id is stored twice');
const expectedIds = new Set<string>();
{
  const again = new ReplayEngine(ladders);
  for (const line of generateEvents({ ...LOAD, events: produced })) {
    const result = again.ingestLine(line);
    if (result.kind === 'accepted') expectedIds.add(result.event.id);
  }
}
const missing = [...expectedIds].filter((id) => !storedIds.has(id));
// The maintenance service's own decisions (period closes, penalties) are stored beside ours.
const extra = stored.filter((r) => !expectedIds.has(r.event_id) && r.type === 'game.finished');
if (missing.length > 0)
  problems.push(`${missing.length} accepted ids not stored, e.g. ${missing[0]}`);
if (extra.length > 0) problems.push(`${extra.length} games stored that the rules refuse`);

// 2. The export equals the offline replay of the stored log.
const live = JSON.parse(await collect(await exportStandings(sql, ladders, null, { skill: true })));
const fromLog = new ReplayEngine(ladders, { simulate: false, skill: true });
for (const line of (await collect(exportLog(sql, null))).split('\n')) fromLog.ingestLine(line);
const replayed = JSON.parse([...fromLog.render()].join(''));
const exportSame =
  JSON.stringify(live.ladders) === JSON.stringify(replayed.ladders) &&
  JSON.stringify(live.void) === JSON.stringify(replayed.void);
if (!exportSame) problems.push('the export differs from the offline replay of the stored log');

// 3. Each ladder's live board equals a rebuild from PostgreSQL.
const leaderboard = `http://127.0.0.1:${leaderboardPort}`;
async function liveBoards(): Promise<Map<string, string>> {
  const boards = new Map<string, string>();
  for (const ladder of ladders.keys()) {
    const rows: unknown[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const url = `${leaderboard}/v1/ladders/${ladder}/leaderboard?view=live&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      let answer: Response | null = null;
      for (let tries = 0; tries < 120; tries++) {
        answer = await fetch(url).catch(() => null);
        if (answer?.status === 200 || answer?.status === 404) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      if (answer?.status !== 200) break;
      const body = (await answer.json()) as { rows: unknown[]; nextCursor: string | null };
      rows.push(...body.rows);
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    boards.set(ladder, JSON.stringify(rows));
  }
  return boards;
}
const before = await liveBoards();
const client = new Redis(redisUrl);
await client.flushall();
await client.quit();
const after = await liveBoards();
const boardsDiffer = [...before].filter(([ladder, rows]) => after.get(ladder) !== rows);
if (boardsDiffer.length > 0)
  problems.push(`live boards differ from a rebuild: ${boardsDiffer.map(([l]) => l).join(', ')}`);

// 4. Each bad message came back rejected exactly once (the intake's rejections or a service's
// dead letters, matched by the value's digest).
const backCounts = new Map<string, number>();
{
  const ends = new Map<string, number>();
  for (const topic of [gameServer.rejections, topics.deadLetter])
    for (const p of await admin.fetchTopicOffsets(topic))
      ends.set(`${topic}/${p.partition}`, Number(p.high));
  const remaining = () => [...ends.values()].some((v) => v > 0);
  const reader = kafka.consumer({ groupId: `${prefix}reader`, maxWaitTimeInMs: 200 });
  await reader.connect();
  await reader.subscribe({
    topics: [gameServer.rejections, topics.deadLetter],
    fromBeginning: true,
  });
  const done = new Promise<void>((resolve) => {
    void reader.run({
      eachMessage: ({ topic, partition, message }) => {
        const key = `${topic}/${partition}`;
        if (message.value) {
          const d = digest(message.value);
          backCounts.set(d, (backCounts.get(d) ?? 0) + 1);
        }
        if (Number(message.offset) + 1 >= (ends.get(key) ?? 0)) ends.set(key, 0);
        if (!remaining()) resolve();
        return Promise.resolve();
      },
    });
  });
  if (remaining()) await Promise.race([done, new Promise((r) => setTimeout(r, 120_000))]);
  await reader.disconnect();
}
const expectedBack = new Map<string, number>();
for (const d of rejectedDigests) expectedBack.set(d, (expectedBack.get(d) ?? 0) + 1);
let notBack = 0;
let twice = 0;
for (const [d, n] of expectedBack) {
  const got = backCounts.get(d) ?? 0;
  if (got < n) notBack += n - got;
  if (got > n) twice += got - n;
}
if (notBack > 0) problems.push(`${notBack} bad messages never came back rejected`);
if (twice > 0) problems.push(`${twice} bad messages came back rejected more than once`);

// --- the table ------------------------------------------------------------------------------
const steady = steadyBacklog(samples, loadStart + 10, faults[0]?.at ?? loadEnd, rate);
const recoveries = faultRecoveries(faults, samples, latencies, steady);
const quiet = latencies.filter(
  (l) => l.sent >= loadStart + 10 && l.sent < (faults[0]?.at ?? loadEnd),
);
const fmt = (v: number | null, digits = 2) => (v === null ? 'n/a' : v.toFixed(digits));
console.log('');
console.log(
  `chaos soak: ${rate} events/s for ${seconds} s through the intake (${produced} events, ` +
    `${expectedIds.size} accepted, ${rejectedDigests.length} bad), 3 brokers, PostgreSQL primary + standby, ` +
    `2 rating services; load average ${loadAverage()}`,
);
console.log(
  `steady backlog (2 x p95 before the first fault, at least 1 s of load): ${steady.toFixed(0)} events; ` +
    `quiet p99 produce->committed ${fmt(
      quantile(
        quiet.map((l) => l.committed - l.sent),
        0.99,
      ),
    )} s`,
);
console.log('');
console.log(
  '| fault | at (s) | back to steady after (s) | peak backlog | events sent meanwhile | p50 (s) | p99 (s) | max (s) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of recoveries)
  console.log(
    `| ${r.fault} | ${(r.at - loadStart).toFixed(0)} | ${fmt(r.recoveredAfter, 1)} | ${r.peakBacklog} | ${r.events} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} |`,
  );
console.log('');
console.log(
  `drained ${(drainedAt - loadEnd).toFixed(0)} s after the load ended; event-store polls that failed (failover): ${pollFailures}`,
);
for (const s of Object.values(services))
  console.log(
    `${s.name}: started ${s.starts} times; unexpected exits: ${s.unexpectedExits.length === 0 ? 'none' : s.unexpectedExits.join('; ')}`,
  );
console.log(
  `checks: ids stored once ${missing.length === 0 && extra.length === 0 ? 'yes' : 'NO'}; ` +
    `export = offline replay ${exportSame ? 'yes' : 'NO'}; boards = rebuild ${boardsDiffer.length === 0 ? 'yes' : 'NO'}; ` +
    `bad messages back once ${notBack === 0 && twice === 0 ? 'yes' : 'NO'} (${rejectedDigests.length} sent)`,
);
for (const p of problems) console.log(`PROBLEM: ${p}`);

// --- tear down ------------------------------------------------------------------------------
await producer.disconnect();
await Promise.all(Object.values(services).map((s) => s.stop()));
for (const s of Object.values(services)) s.close();
await admin.disconnect();
await db.destroy();
redis.process?.kill('SIGTERM');
if (process.env.SOAK_KEEP !== '1') {
  await cluster('stop').catch(() => undefined);
  await postgresHa('down').catch(() => undefined);
}
process.exit(problems.length === 0 ? 0 : 1);
