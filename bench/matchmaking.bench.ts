// Matchmaking: GET /ladders/:ladder/players/:player/opponents on a ladder of 100,000 players at a
// fixed rate with autocannon (a random player each request, as the leaderboard bench does), beside
// a naive baseline in the same run: the same answer as one PostgreSQL query per request
// (`ORDER BY abs(skill_mu - $x), player LIMIT n` over the ladder's active players: no index can
// serve it, and `ladder_players` has none on the estimate on purpose, ADR 21), sent from this
// process over as many connections.
//
// The skill columns are seeded directly: means normal around 25 (sd 6), sigmas 1 to 8, last games
// spread over the last 30 days (about 14/30 of the players active). Runs:
//   GET /ping                    the server's floor
//   opponents limit=10           a random player of all 100,000 (about half inactive: asking
//                                players, the walk skips them)
//   opponents limit=100
//   opponents limit=10 + games   while games land: every 100 ms five games' players get new
//                                estimates, with their events and the ladder's log position, as the
//                                rating service writes them; the index follows by polling
//   naive query limit=10         the baseline (PostgreSQL alone, no HTTP, no JSON): at 20 a
//                                second, then as fast as the connections go (its capacity: at the
//                                endpoint's rate it would only build a queue)
// then how long after the last game the answers' asOf passed it (the index's lag), and the
// player endpoint (its estimate rides on the live row). The first request's time is the index's
// load; its heap is measured on a copy built in this process.
// See leaderboard.bench.ts for how autocannon holds a rate and why the latencies are measured
// ones. Run: npm run build && node dist/bench/matchmaking.bench.js [players=100000] [rate=500] [seconds=15] [connections=10]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database, topics and Redis
// keys, dropped at the end.
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRequire } from 'node:module';
import { topicLayout } from '@ranking/kafka';
import { dropDatabase, SkillReader, sqlOf } from '@ranking/persistence';
import { SkillIndex } from '@ranking/rating';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import {
  benchSetup,
  cpuSeconds,
  freshDatabase,
  loadAverage,
  secondsSince as seconds,
} from './bench-setup.js';

interface AutocannonResult {
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

const players = Number(process.argv[2] ?? 100_000);
const rate = Number(process.argv[3] ?? 500);
const duration = Number(process.argv[4] ?? 15);
const connections = Number(process.argv[5] ?? 10);
const { env, prefix, topics, databaseUrl, kafka } = benchSetup('matchmaking');
const redisPrefix = `${prefix}:`;
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const ladder = 'qq-xiangqi';
const DAY = 86_400_000;
const now = Date.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomPlayer = () => `p${1 + Math.floor(Math.random() * players)}`;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * The heap a SkillIndex of the ladder takes, in MiB, built here as the service builds it (the
 * rows read, turned into entries, then dropped), measured between full GCs.
 */
async function indexMiB(db: DataSource): Promise<string> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const index = new SkillIndex(
    (await new SkillReader(sqlOf(db.manager)).ladderPlayers(ladder)).map((r) => ({
      player: r.player,
      mu: r.mu!,
      sigma: r.sigma!,
      lastPlayedAt: r.lastPlayedAt,
    })),
  );
  gc();
  const used = process.memoryUsage().heapUsed - before;
  return `${(used / 2 ** 20).toFixed(1)} MiB for ${index.size.toLocaleString('en')} players`;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * The naive baseline for `seconds`: at `perSecond` queries a second, each timed from when it
 * was due (a queue behind slow ones counts: no coordinated omission), or, with `perSecond`
 * null, as fast as `conns` connections go, one query after another (its capacity).
 */
async function naive(limit: number, conns: number, perSecond: number | null) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: conns });
  const text = `SELECT player, skill_mu, skill_sigma, last_played_at FROM ladder_players
    WHERE ladder = $1 AND last_played_at >= $2 AND player <> $3
    ORDER BY abs(skill_mu - $4), player LIMIT $5`;
  const ask = async () => {
    const player = randomPlayer();
    const { rows } = await pool.query<{ skill_mu: number | null }>(
      'SELECT skill_mu FROM ladder_players WHERE ladder = $1 AND player = $2',
      [ladder, player],
    );
    await pool.query(text, [ladder, Date.now() - 14 * DAY, player, rows[0]?.skill_mu ?? 25, limit]);
  };
  await Promise.all(Array.from({ length: conns }, ask)); // connections open, plans warm
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + duration * 1000;
  if (perSecond === null) {
    await Promise.all(
      Array.from({ length: conns }, async () => {
        while (performance.now() < end) {
          const sent = performance.now();
          await ask();
          latencies.push(performance.now() - sent);
        }
      }),
    );
  } else {
    const pending: Promise<void>[] = [];
    for (let i = 0; i < perSecond * duration; i++) {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(ask().then(() => void latencies.push(performance.now() - due)));
    }
    await Promise.all(pending);
  }
  const elapsed = (performance.now() - started) / 1000;
  await pool.end();
  latencies.sort((a, b) => a - b);
  const ms = (p: number) => `${percentile(latencies, p).toFixed(1)} ms`;
  return `${Math.round(latencies.length / elapsed)} q/s  p50 ${ms(50)}  p90 ${ms(90)}  p99 ${ms(99)}  max ${ms(100)}`;
}

async function main(): Promise<void> {
  const db = await freshDatabase(databaseUrl);
  let t = process.hrtime.bigint();
  // Uniforms from a hash of the index (repeatable), a normal mean by Box-Muller.
  await db.query(
    `INSERT INTO ladder_players (ladder, player, rating, games, wins, losses, draws, rated_games,
       disconnects, clean_streak, disconnect_penalties, level, territory, captures,
       skill_mu, skill_sigma, last_played_at)
     SELECT $1, 'p' || i, 1300 + (i::bigint * 7919) % 700, 30, 15, 14, 1, 30, 0, 0, 0, 0, false, 0,
       25 + 6 * sqrt(-2 * ln(1 - u1)) * cos(2 * pi() * u2), 1 + 7 * u3, $3::bigint - (u4 * 30 * $4)::bigint
     FROM (SELECT i,
             ('x' || substr(h, 1, 8))::bit(32)::bigint / 4294967296.0 AS u1,
             ('x' || substr(h, 9, 8))::bit(32)::bigint / 4294967296.0 AS u2,
             ('x' || substr(h, 17, 8))::bit(32)::bigint / 4294967296.0 AS u3,
             ('x' || substr(h, 25, 8))::bit(32)::bigint / 4294967296.0 AS u4
           FROM (SELECT i, md5(i::text) AS h FROM generate_series(1, $2) AS i) AS hashed) AS u`,
    [ladder, players, now, DAY],
  );
  await db.query('INSERT INTO ladders (ladder, last_seq, accepted) VALUES ($1, 0, 0)', [ladder]);
  await db.query('VACUUM ANALYZE');
  const [{ active }] = await db.query<[{ active: string }]>(
    'SELECT count(*) AS active FROM ladder_players WHERE ladder = $1 AND last_played_at >= $2',
    [ladder, now - 14 * DAY],
  );
  console.log(
    `seeded ${players.toLocaleString('en')} players (${Number(active).toLocaleString('en')} active) in ${seconds(t).toFixed(1)} s`,
  );

  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
  await admin.disconnect();
  const service = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/mmprof'] : []),
      'dist/apps/leaderboard-service/src/main.js',
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_KEY_PREFIX: redisPrefix,
        HTTP_PORT: String(port),
        RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  service.stdout?.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n'))
      if (line.includes('skill index'))
        console.log(`  service: ${line.replace(/\x1b\[[0-9;]*m/g, '').replace(/^.*\] /, '')}`);
  });
  const redis = new Redis(env.REDIS_URL);
  try {
    await until(async () => (await fetch(`${base}/health`)).status === 200, 'the service');
    t = process.hrtime.bigint();
    const first = await fetch(`${base}/v1/ladders/${ladder}/players/p1/opponents`);
    if (first.status !== 200) throw new Error(`opponents: ${first.status} ${await first.text()}`);
    console.log(
      `first opponents request (loads the index): ${(seconds(t) * 1000).toFixed(0)} ms; its heap: ${await indexMiB(db)} (measured on the same built here)`,
    );

    const run = async (name: string, path: string | (() => string), conns = connections) => {
      const cpuBefore = cpuSeconds(service.pid!);
      const result = await autocannon({
        url: `${base}${typeof path === 'string' ? path : path()}`,
        ...(typeof path === 'string'
          ? {}
          : {
              requests: [
                {
                  setupRequest: (request: Record<string, unknown>) => ({
                    ...request,
                    path: path(),
                  }),
                },
              ],
            }),
        connections: conns,
        overallRate: rate,
        ignoreCoordinatedOmission: true,
        duration,
      });
      const cpu = cpuSeconds(service.pid!) - cpuBefore;
      console.log(
        `${name.padEnd(30)} ${Math.round(result.requests.average)} req/s  p50 ${result.latency.p50} ms  p90 ${result.latency.p90} ms  p99 ${result.latency.p99} ms  max ${result.latency.max} ms  non-2xx ${result.non2xx}  errors ${result.errors}  service CPU ${Math.round((cpu / Math.max(result.requests.total, 1)) * 1e6)} µs/request`,
      );
      return result;
    };
    const opponents = (limit: number) => () =>
      `/v1/ladders/${ladder}/players/${randomPlayer()}/opponents?limit=${limit}`;
    await autocannon({ url: `${base}${opponents(10)()}`, connections: 10, duration: 3 });
    console.log(
      `${rate} req/s over ${connections} connections, ${duration} s a run, measured latencies; load average ${loadAverage()}`,
    );
    const ping = await run('GET /ping (bare)', '/ping');
    const ten = await run('opponents limit=10', opponents(10));
    const hundred = await run('opponents limit=100', opponents(100));

    // Games landing while it answers: five games (ten players) every 100 ms.
    let seq = 0;
    let writing = true;
    let lastWrite = 0;
    const writer = (async () => {
      const writes = new pg.Client({ connectionString: databaseUrl });
      await writes.connect();
      while (writing) {
        const at = Date.now();
        const events: string[] = [];
        const moved: string[] = [];
        for (let g = 0; g < 5; g++) {
          const [a, b] = [randomPlayer(), randomPlayer()];
          if (a === b) continue;
          moved.push(a, b);
          events.push(
            JSON.stringify({
              id: `bench-${seq + events.length + 1}`,
              type: 'game.finished',
              ladder,
              gameId: `bench-${seq + events.length + 1}`,
              finishedAt: new Date(at).toISOString(),
              moves: 40,
              players: [
                { id: a, result: 'win', first: true },
                { id: b, result: 'loss', first: false },
              ],
            }),
          );
        }
        await writes.query('BEGIN');
        await writes.query(
          `UPDATE ladder_players SET skill_mu = skill_mu + 0.5 - random(), last_played_at = $3
           WHERE ladder = $1 AND player = ANY($2::text[])`,
          [ladder, moved, at],
        );
        await writes.query(
          `INSERT INTO event_store (ladder, seq, event_id, type, payload, game_id)
           SELECT $1, $2::bigint + n, 'bench-' || ($2::bigint + n), 'game.finished', p, 'bench-' || ($2::bigint + n)
           FROM unnest($3::text[]) WITH ORDINALITY AS e(p, n)`,
          [ladder, seq, events],
        );
        seq += events.length;
        await writes.query('UPDATE ladders SET last_seq = $2, accepted = $2 WHERE ladder = $1', [
          ladder,
          seq,
        ]);
        await writes.query('COMMIT');
        lastWrite = Date.now();
        await sleep(100 - (Date.now() - at));
      }
      await writes.end();
    })();
    const busy = await run('opponents limit=10 + games', opponents(10));
    writing = false;
    await writer;
    t = process.hrtime.bigint();
    await until(async () => {
      const res = await fetch(`${base}/v1/ladders/${ladder}/players/p1/opponents?limit=1`);
      return Date.parse(((await res.json()) as { asOf: string }).asOf) >= lastWrite;
    }, 'the index to pass the last game');
    console.log(
      `  ${seq} games written during the run; the answers' asOf passed the last one ${(seconds(t) * 1000).toFixed(0)} ms after it committed`,
    );

    // Its own rates: at the endpoint's it would only queue (see its capacity).
    const light = Math.min(rate, 20);
    console.log(
      `${`naive query limit=10 @${light}/s`.padEnd(30)} ${await naive(10, connections, light)}`,
    );
    console.log(
      `${`naive query limit=10 ×${connections}`.padEnd(30)} ${await naive(10, connections, null)}  (capacity)`,
    );
    await run('GET player (around=5)', () => `/v1/ladders/${ladder}/players/${randomPlayer()}`);
    const ratio = (r: AutocannonResult) =>
      (r.latency.p99 / Math.max(ping.latency.p99, 0.001)).toFixed(2);
    console.log(
      `p99 ratio to the bare endpoint: opponents ${ratio(ten)}x, limit=100 ${ratio(hundred)}x, with games landing ${ratio(busy)}x; load average ${loadAverage()}`,
    );
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
    await redis.quit();
    const cleanup = kafka.admin();
    await cleanup.connect();
    await cleanup.deleteTopics({ topics: Object.values(topics) });
    await cleanup.disconnect();
    await db.destroy();
    await dropDatabase(databaseUrl);
  }
}

await main();
