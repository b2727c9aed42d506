// Leaderboard service: daily board build for 1,000,000 ranked players (close message to switch),
// then GET leaderboard (limit 100) and GET player (a random player each request) at a fixed
// 2,000 requests/s with autocannon, against a bare endpoint of the same server (/ping) as the ceiling.
// Run: npm run build && node dist/bench/leaderboard.bench.js [players=1000000] [rate=2000] [seconds=20] [connections=10]
//
// How autocannon holds a rate: each connection sends its share of the second's requests back to
// back, each as soon as the previous answer is in, then waits for the next second. So the load is
// a burst of `connections` concurrent requests at the start of every second, and the latency
// mostly measures that burst's queue: it grows with the connections (10 by default, autocannon's
// own default; the player run is repeated over twice as many to show it). Its coordinated-
// omission correction assumes requests were due every 1/rate apart, but takes 1/rate in seconds
// as milliseconds (1 ms), and adds made-up samples for every answer slower than 1 ms; the
// requests were never late (they are sent early, back to back). The figures here are the
// measured latencies (ignoreCoordinatedOmission); BENCH_CORRECTED=1 prints autocannon's
// corrected ones instead.
// Needs the local services (bash deploy/infra-up.sh). Uses its own database, topics and Redis keys,
// dropped at the end unless BENCH_KEEP=1 (then it prints the settings to start the service on them).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { topicLayout } from '@ranking/kafka';
import { dropDatabase } from '@ranking/persistence';
import {
  benchSetup,
  cpuSeconds,
  freshDatabase,
  secondsSince as seconds,
  loadAverage,
} from './bench-setup.js';
import { Redis } from 'ioredis';

interface AutocannonResult {
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

const players = Number(process.argv[2] ?? 1_000_000);
const rate = Number(process.argv[3] ?? 2_000);
const duration = Number(process.argv[4] ?? 20);
const connections = Number(process.argv[5] ?? 10);
const { env, prefix, topics, databaseUrl, kafka } = benchSetup('leaderboard');
const redisPrefix = `${prefix}:`;
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const ladder = 'qq-gomoku';
const key = '2026-11-29';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function main(): Promise<void> {
  const db = await freshDatabase(databaseUrl);
  let t = process.hrtime.bigint();
  // Distinct ratings with ties every 7 players, as real boards have.
  await db.query(
    `INSERT INTO daily_standings (ladder, period_key, player, rating, games, wins, losses, draws, rated_games, level)
     SELECT $1, $2, 'p' || i, (i::bigint * 7919) % ($3 / 7 + 1), 30, 15, 14, 1, 30, 25 FROM generate_series(1, $3) AS i`,
    [ladder, key, players],
  );
  await db.query(
    `INSERT INTO ladder_players (ladder, player, rating, games, wins, losses, draws, rated_games, disconnects,
       clean_streak, disconnect_penalties, level, territory, captures)
     SELECT $1, 'p' || i, (i::bigint * 7919) % ($2 / 7 + 1), 30, 15, 14, 1, 30, 0, 0, 0, 25, false, 0
     FROM generate_series(1, $2) AS i`,
    [ladder, players],
  );
  await db.query('ANALYZE');
  console.log(
    `seeded ${players.toLocaleString('en')} standings and players in ${seconds(t).toFixed(1)} s`,
  );

  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
  await admin.disconnect();
  const service = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/lbprof'] : []),
      'dist/apps/leaderboard-service/src/main.js',
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        KAFKA_TOPIC_PREFIX: prefix,
        REDIS_KEY_PREFIX: redisPrefix,
        HTTP_PORT: String(port),
        // The load comes from one address: the per-client limit would answer most of it 429.
        RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // The service logs each long build with its time waiting for PostgreSQL.
  service.stdout?.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n'))
      if (line.includes('ms waiting for PostgreSQL'))
        console.log(`  service: ${line.replace(/\x1b\[[0-9;]*m/g, '').replace(/^.*\] /, '')}`);
  });
  const redis = new Redis(env.REDIS_URL);
  try {
    t = process.hrtime.bigint();
    // Start-up loads the live board (1M players) from PostgreSQL.
    await until(async () => (await fetch(`${base}/health`)).status === 200, 'the service');
    console.log(
      `start-up with a live board of ${players.toLocaleString('en')}: ${seconds(t).toFixed(1)} s`,
    );

    // The close: the rating service would have frozen the standings and marked the day closed.
    await db.query(
      "INSERT INTO ladder_periods (ladder, period, period_key, seq) VALUES ($1, 'daily', $2, 1)",
      [ladder, key],
    );
    const producer = kafka.producer();
    await producer.connect();
    t = process.hrtime.bigint();
    await producer.send({
      topic: topics.ratingChanges,
      messages: [
        {
          key: ladder,
          value: JSON.stringify({
            eventId: `period.closed:${ladder}:daily:${key}`,
            ladder,
            seq: 1,
            type: 'period.closed',
            period: 'daily',
            key,
            changes: [],
          }),
        },
      ],
    });
    await producer.disconnect();
    await until(
      async () => (await fetch(`${base}/v1/ladders/${ladder}/leaderboard?limit=1`)).status === 200,
      'the daily board',
    );
    const switched = seconds(t);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const build =
      /ranking_board_build_duration_seconds_sum\{ladder="qq-gomoku",view="daily"\} ([\d.]+)/.exec(
        metrics,
      )?.[1];
    console.log(
      `daily board of ${players.toLocaleString('en')} ranked players: close message to switch ${switched.toFixed(2)} s (build ${Number(build).toFixed(2)} s)`,
    );

    // `path` may be a function: a new path for every request (a different player each time).
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
        ignoreCoordinatedOmission: !process.env.BENCH_CORRECTED,
        duration,
      });
      const cpu = cpuSeconds(service.pid!) - cpuBefore;
      console.log(
        `${`${name} ×${conns}`.padEnd(32)} ${Math.round(result.requests.average)} req/s  p50 ${result.latency.p50} ms  p90 ${result.latency.p90} ms  p99 ${result.latency.p99} ms  max ${result.latency.max} ms  non-2xx ${result.non2xx}  errors ${result.errors}  service CPU ${Math.round((cpu / Math.max(result.requests.total, 1)) * 1e6)} µs/request`,
      );
      return result;
    };
    // Warm-up, then the runs.
    await autocannon({
      url: `${base}/v1/ladders/${ladder}/leaderboard?limit=100`,
      connections: 10,
      duration: 3,
    });
    console.log(
      `${rate} req/s over ${connections} connections, ${duration} s a run, ${process.env.BENCH_CORRECTED ? "autocannon's corrected" : 'measured'} latencies; load average ${loadAverage()}`,
    );
    const ceiling = await run('GET /ping (bare)', '/ping');
    const board = await run(
      'GET leaderboard limit=100',
      `/v1/ladders/${ladder}/leaderboard?limit=100`,
    );
    const deep = await run(
      'GET leaderboard deep page',
      `/v1/ladders/${ladder}/leaderboard?limit=100&cursor=${encodeURIComponent(
        (
          (await (await fetch(`${base}/v1/ladders/${ladder}/leaderboard?limit=200`)).json()) as {
            nextCursor: string;
          }
        ).nextCursor,
      )}`,
    );
    const player = await run(
      'GET player (around=5)',
      () => `/v1/ladders/${ladder}/players/p${1 + Math.floor(Math.random() * players)}`,
    );
    const crowded = await run(
      'GET player (around=5)',
      () => `/v1/ladders/${ladder}/players/p${1 + Math.floor(Math.random() * players)}`,
      connections * 2,
    );
    const ratio = (r: AutocannonResult) =>
      (r.latency.p99 / Math.max(ceiling.latency.p99, 0.001)).toFixed(2);
    console.log(
      `p99 ratio to the bare endpoint: leaderboard ${ratio(board)}x, deep page ${ratio(deep)}x, player ${ratio(player)}x (${ratio(crowded)}x over ${connections * 2} connections)`,
    );
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    if (process.env.BENCH_KEEP) {
      // Leaves the data for experiments: start the service by hand with these settings.
      console.log(
        `kept: DATABASE_URL=${databaseUrl} KAFKA_TOPIC_PREFIX=${prefix} REDIS_KEY_PREFIX=${redisPrefix}`,
      );
      await redis.quit();
      await db.destroy();
      return;
    }
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
