// The public API while the integrity review works (ADR 41): GET /v1/ladders asked one after
// another by one client, with the service idle, during a ladder's first analysis (its whole log
// read, then judged) and during an annulment's dry run (the ladder's log folded twice). Each
// phase prints the public requests' count and latency (p50, p99, max) beside the review
// request's own time; the service's CPU and peak memory, and the load average, come last.
//   fill      a planted stream (`plantWinTrading`, one ladder) written to the event store
//             through its repository: what the review reads, nothing else.
// Run (on demand: 2 shared cores, a minute or two):
//   npm run build && node dist/bench/review.bench.js [events=300000] [service main=dist/apps/leaderboard-service/src/main.js]
// The second argument runs another build of the service (an older one, for a comparison).
// Needs the local services (bash deploy/infra-up.sh). Uses its own database, topics and Redis keys.
import { spawn } from 'node:child_process';
import { type LadderEvent, validateEvent } from '@ranking/contracts';
import { plantWinTrading } from '@ranking/generator';
import { issueServiceToken } from '@ranking/ingestion';
import { topicLayout } from '@ranking/kafka';
import {
  dropDatabase,
  EventStoreRepository,
  ServiceTokenRepository,
  sqlOf,
} from '@ranking/persistence';
import {
  benchSetup,
  cpuSeconds,
  freshDatabase,
  loadAverage,
  peakRssKb,
  secondsSince,
} from './bench-setup.js';

const events = Number(process.argv[2] ?? 300_000);
const main = process.argv[3] ?? 'dist/apps/leaderboard-service/src/main.js';
const LADDER = 'igame-gomoku';
const { prefix, databaseUrl, kafka } = benchSetup('review');
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

// --- fill -------------------------------------------------------------------------------
const db = await freshDatabase(databaseUrl);
const t = process.hrtime.bigint();
const stored: { ladder: string; seq: number; event: LadderEvent }[] = [];
for (const line of plantWinTrading({ seed: 44, events }).lines()) {
  const checked = validateEvent(JSON.parse(line));
  if (checked.ok && checked.event.ladder === LADDER)
    stored.push({ ladder: LADDER, seq: stored.length + 1, event: checked.event });
}
for (let at = 0; at < stored.length; at += 20_000)
  await db.transaction((manager) =>
    new EventStoreRepository(sqlOf(manager)).appendEvents(stored.slice(at, at + 20_000)),
  );
const issued = issueServiceToken();
await new ServiceTokenRepository(sqlOf(db.manager)).issue({
  tokenId: issued.tokenId,
  service: 'bench',
  ladders: [LADDER],
  scopes: ['review'],
  digest: issued.digest,
  expiresAt: null,
  issuedBy: 'review-bench',
});
console.log(
  `fill: ${stored.length.toLocaleString('en')} events of ${LADDER} in ${secondsSince(t).toFixed(1)} s`,
);
await db.destroy();

// --- the service ---------------------------------------------------------------------------
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
const service = spawn(process.execPath, [main], {
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_TOPIC_PREFIX: prefix,
    REDIS_KEY_PREFIX: `${prefix}:`,
    HTTP_PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

/** CPU seconds of the service's main thread (its event loop) and of the whole process. */
const cpuSplit = () => {
  const pid = service.pid!;
  return { main: cpuSeconds(pid, pid), all: cpuSeconds(pid) };
};
const cpuSince = (from: { main: number; all: number }) => {
  const now = cpuSplit();
  return `; service CPU ${(now.main - from.main).toFixed(1)} s on its event loop, ${(now.all - now.main - (from.all - from.main)).toFixed(1)} s on its other threads`;
};

/** Latencies of public requests asked one after another until `until` settles (or `count` of them). */
async function publicLatencies(until: Promise<unknown> | null, count = 300): Promise<number[]> {
  let done = until === null;
  void until?.finally(() => (done = true));
  const ms: number[] = [];
  while (until === null ? ms.length < count : !done) {
    const start = performance.now();
    const res = await fetch(`${base}/v1/ladders`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v1/ladders answered ${res.status}`);
    ms.push(performance.now() - start);
  }
  return ms;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const report = (phase: string, ms: number[], extra = '') => {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(
    `${phase.padEnd(28)} ${String(ms.length).padStart(5)} public requests  p50 ${quantile(sorted, 0.5).toFixed(1)} ms  p99 ${quantile(sorted, 0.99).toFixed(1)} ms  max ${sorted.at(-1)!.toFixed(1)} ms${extra}; load average ${loadAverage()}`,
  );
};

/** What the bench reads of a review answer. */
interface ReviewBody {
  readonly games?: number;
  readonly suspects?: readonly { players: [string, string]; since: string }[];
  readonly moved?: number;
}

/** A review request: its answer's status and body, and its time in seconds. */
async function review(path: string): Promise<{ status: number; body: ReviewBody; s: number }> {
  const start = process.hrtime.bigint();
  const res = await fetch(`${base}/review/api/${path}`, {
    headers: { authorization: `Bearer ${issued.token}` },
  });
  const body = (await res.json()) as ReviewBody;
  return { status: res.status, body, s: secondsSince(start) };
}

try {
  const deadline = Date.now() + 120_000;
  while (
    (await fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > deadline) throw new Error('the leaderboard service did not start');
    await sleep(100);
  }
  await publicLatencies(null, 100); // warm-up
  report('idle', await publicLatencies(null));

  let cpu = cpuSplit();
  const analysis = review(`ladders/${LADDER}/suspects`);
  const duringAnalysis = await publicLatencies(analysis);
  const suspects = await analysis;
  if (suspects.status !== 200) throw new Error(`suspects answered ${suspects.status}`);
  report(
    'first analysis (read, judge)',
    duringAnalysis,
    `; the analysis ${suspects.s.toFixed(2)} s for ${Number(suspects.body.games).toLocaleString('en')} games${cpuSince(cpu)}`,
  );

  const [first] = suspects.body.suspects ?? [];
  const query = new URLSearchParams({ player: first!.players[0], since: first!.since });
  cpu = cpuSplit();
  const dryRun = review(`ladders/${LADDER}/dry-run?${query.toString()}`);
  const duringDryRun = await publicLatencies(dryRun);
  const preview = await dryRun;
  if (preview.status !== 200) throw new Error(`the dry run answered ${preview.status}`);
  report(
    'dry run (two folds)',
    duringDryRun,
    `; the dry run ${preview.s.toFixed(2)} s, ${Number(preview.body.moved)} players moved${cpuSince(cpu)}`,
  );

  const pid = service.pid!;
  console.log(
    `service: ${cpuSeconds(pid).toFixed(1)} CPU s in all, peak RSS ${Math.round(peakRssKb(pid) / 1024)} MB (${main})`,
  );
} finally {
  service.kill('SIGTERM');
  await new Promise((resolve) => service.once('exit', resolve));
  await admin.deleteTopics({ topics: topicLayout(prefix).map((topic) => topic.topic) });
  await admin.disconnect();
  await dropDatabase(databaseUrl);
}
