// A board as of an instant (GET /ladders/:ladder/leaderboard?at=, ADR 20) on one big ladder,
// against naive ways to the same board, in one run:
//   fill      the generator's games of one ladder (about `players` players, Zipf-like activity:
//             a few thousand rows for the busiest, one or two for the quietest) folded by the
//             rating service's own batch transaction (`handlePartitionBatch`, 3,000 messages
//             each), so the history rows are the service's. The last fifth goes in four chunks,
//             with ADR 20's indexes (`rating_history_when`, ADR 28's form of `rating_history_at`, and `rating_history_player` carrying
//             the board fields), with the indexes before it, before, and ADR 20's again: what
//             they cost the rating service, under the same load.
//   SQL       at a quarter, half and all of the history, in this process, the better of two
//             runs each: ours (the cut, one lateral descent per player, then ranked in memory),
//             and three naive ways to the same rows: the lateral filtered by the instant (no cut), DISTINCT ON over the
//             ladder's rows by then, and the fold of the event store's prefix (ReplayEngine, as
//             `ranking replay` of `ranking export --log --until` would). Each one's board must
//             equal ours.
//   HTTP      the leaderboard service under autocannon: cold boards (one connection, every
//             request a new instant: each a miss that reads and ranks the board), then pages and
//             players at one instant (cached) at a fixed rate.
// Run (on demand: 2 shared cores, a minute or two of fill):
//   npm run build && node dist/bench/point-in-time.bench.js [events=600000] [players=110000] [rate=200] [seconds=10]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database, topics and Redis keys.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { generateEvents } from '@ranking/generator';
import { topicLayout } from '@ranking/kafka';
import {
  dropDatabase,
  exportLog,
  PointInTimeReader,
  preparedSqlOf,
  type RawMessage,
  sqlOf,
  type StandingRow,
} from '@ranking/persistence';
import { BUILT_IN_LADDERS, type PlayerState, ReplayEngine } from '@ranking/rating';
import { Redis } from 'ioredis';
// Benches reach into the apps as batch.bench does: the services' own code, timed.
import { handlePartitionBatch } from '../apps/rating-service/src/partition-batch.js';
import { PointInTimeBoard } from '../apps/leaderboard-service/src/boards/point-in-time-board.js';
import {
  benchSetup,
  cpuSeconds,
  freshDatabase,
  loadAverage,
  peakRssKb,
  secondsSince,
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

const events = Number(process.argv[2] ?? 600_000);
const playerCount = Number(process.argv[3] ?? 110_000);
const rate = Number(process.argv[4] ?? 200);
const duration = Number(process.argv[5] ?? 10);
const BATCH = 3000;
const ladder = BUILT_IN_LADDERS.find((l) => l.id === 'qq-gomoku')!;
const ladders = new Map([[ladder.id, ladder]]);
const { env, prefix, topics, databaseUrl, kafka } = benchSetup('pit');
const redisPrefix = `${prefix}:`;
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

const db = await freshDatabase(databaseUrl);
const sql = sqlOf(db.manager);

// --- fill -------------------------------------------------------------------------------
const messages: RawMessage[] = [];
for (const value of generateEvents({
  seed: 20,
  events,
  ladders: [ladder],
  playersPerLadder: playerCount,
  days: 60,
  badShare: 0,
  correctionShare: 0.01,
}))
  messages.push({
    topic: topics.ladderEvents,
    partition: 0,
    offset: String(messages.length),
    key: Buffer.from(ladder.id),
    value: Buffer.from(value),
  });
/** Folds messages [from, to) in batch transactions; wall seconds. */
async function fold(from: number, to: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let at = from; at < to; at += BATCH)
    await db.transaction((manager) =>
      handlePartitionBatch(
        preparedSqlOf(manager),
        ladders,
        topics.ladderEvents,
        0,
        messages.slice(at, Math.min(at + BATCH, to)),
        { topics },
      ),
    );
  return secondsSince(started);
}
// The batch transactions run on the pool's connections: the backend CPU is summed over them.
const backends = async () =>
  (
    await db.query<{ pid: number }[]>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    )
  ).map((r) => r.pid);
const backendCpu = async () => (await backends()).reduce((s, p) => s + cpuSeconds(p), 0);

const bulk = Math.floor(messages.length * 0.8);
let t = process.hrtime.bigint();
await fold(0, bulk);
console.log(
  `filled ${bulk.toLocaleString('en')} events in ${secondsSince(t).toFixed(1)} s; load average ${loadAverage()}`,
);
const chunk = Math.ceil((messages.length - bulk) / 4);
const cost = { with: { wall: 0, cpu: 0, n: 0 }, without: { wall: 0, cpu: 0, n: 0 } };
let createIndex = 0;
// The indexes before ADR 20, and its own (the migration's): toggled between the chunks.
const before = [
  'DROP INDEX rating_history_when',
  'DROP INDEX rating_history_player',
  'CREATE INDEX rating_history_player ON rating_history (ladder, player, id DESC)',
];
const ours = [
  'CREATE INDEX rating_history_when ON rating_history (ladder, at, seq, id)',
  'DROP INDEX rating_history_player',
  `CREATE INDEX rating_history_player ON rating_history (ladder, player, id DESC)
     INCLUDE (after, games, wins, losses, draws, rated_games, level)`,
];
// Ours, before, before, ours: a drift in the machine's load over the four weighs on both alike.
for (const [c, withOurs] of [true, false, false, true].entries()) {
  if (c === 1 || c === 3) {
    t = process.hrtime.bigint();
    for (const statement of withOurs ? ours : before) await db.query(statement);
    if (withOurs) createIndex = secondsSince(t);
  }
  const from = bulk + c * chunk;
  const to = Math.min(messages.length, from + chunk);
  const cpuBefore = await backendCpu();
  const wall = await fold(from, to);
  const side = withOurs ? cost.with : cost.without;
  side.wall += wall;
  side.cpu += (await backendCpu()) - cpuBefore;
  side.n += to - from;
}
await db.query('VACUUM ANALYZE');
const perEvent = (s: { wall: number; cpu: number; n: number }) =>
  `${((s.wall / s.n) * 1e6).toFixed(0)} µs wall, ${((s.cpu / s.n) * 1e6).toFixed(0)} µs PostgreSQL CPU`;
const [stats] = await db.query<
  { rows: string; players: string; busiest: string; at: string; player: string }[]
>(
  `SELECT (SELECT count(*) FROM rating_history) AS rows,
          (SELECT count(*) FROM ladder_players WHERE games > 0) AS players,
          (SELECT max(n) FROM (SELECT count(*) AS n FROM rating_history GROUP BY player) c) AS busiest,
          pg_size_pretty(pg_relation_size('rating_history_when')) AS at,
          pg_size_pretty(pg_relation_size('rating_history_player')) AS player`,
);
console.log(
  `history: ${Number(stats!.rows).toLocaleString('en')} rows for ${Number(stats!.players).toLocaleString('en')} players (busiest ${Number(stats!.busiest).toLocaleString('en')} rows); rating_history_when ${stats!.at} and rating_history_player ${stats!.player}, both built in ${createIndex.toFixed(1)} s`,
);
console.log(
  `rating service per event, last fifth in alternate chunks: with ADR 20's indexes ${perEvent(cost.with)}; with the indexes before ${perEvent(cost.without)}`,
);

// --- SQL ---------------------------------------------------------------------------------
const reader = new PointInTimeReader(sql);
const [span] = await db.query<{ first: Date; last: Date }[]>(
  'SELECT min(at) AS first, max(at) AS last FROM rating_history',
);
const instantAt = (share: number) =>
  new Date(span!.first.getTime() + share * (span!.last.getTime() - span!.first.getTime()));

/** A board's ranked players in order with their ranks, as text: what every way must agree on. */
const boardText = (board: PointInTimeBoard) => {
  const page = board.page(null, board.total);
  return page.items.map((i) => `${i.member}:${i.data}`).join(' ');
};
const rowsToBoard = (rows: readonly StandingRow[]) => new PointInTimeBoard(rows, ladder);
type RawRow = {
  player: string;
  after: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  rated_games: number;
  level: number;
};
const toStanding = (r: RawRow): StandingRow => ({
  player: r.player,
  rating: r.after,
  games: r.games,
  wins: r.wins,
  losses: r.losses,
  draws: r.draws,
  ratedGames: r.rated_games,
  level: r.level,
});
const COLUMNS = 'after, games, wins, losses, draws, rated_games, level';

const ways: Record<string, (at: Date) => Promise<PointInTimeBoard>> = {
  'ours: cut + lateral below it': async (at) => {
    const cut = await reader.cut(ladder.id, at);
    return rowsToBoard(cut === null ? [] : await reader.standings(ladder.id, cut.id));
  },
  'lateral filtered by at (no cut)': async (at) =>
    rowsToBoard(
      (
        await sql.query<RawRow>(
          `SELECT p.player, h.* FROM ladder_players p CROSS JOIN LATERAL (
             SELECT ${COLUMNS} FROM rating_history r
             WHERE r.ladder = p.ladder AND r.player = p.player AND r.at <= $2
             ORDER BY r.id DESC LIMIT 1) h
           WHERE p.ladder = $1 AND h.games > 0`,
          [ladder.id, at],
        )
      ).map(toStanding),
    ),
  'DISTINCT ON by then': async (at) =>
    rowsToBoard(
      (
        await sql.query<RawRow>(
          `SELECT * FROM (SELECT DISTINCT ON (player) player, ${COLUMNS} FROM rating_history
             WHERE ladder = $1 AND at <= $2 ORDER BY player, id DESC) h WHERE games > 0`,
          [ladder.id, at],
        )
      ).map(toStanding),
    ),
  'fold of the prefix (ReplayEngine)': async (at) => {
    const engine = new ReplayEngine(ladders, { simulate: false, keepLogs: new Set() });
    for await (const text of exportLog(sql, ladder.id, at))
      for (const line of text.split('\n')) if (line !== '') engine.ingestLine(line);
    const players: ReadonlyMap<string, PlayerState> =
      engine.ladderFolds.get(ladder.id)?.players ?? new Map();
    // The live board's players (those with games), ranked as every other way is.
    return rowsToBoard(
      [...players.values()].filter((p) => p.games > 0).map((p) => ({ ...p, player: p.id })),
    );
  },
};

let ranked = 0;
for (const share of [0.25, 0.5, 1]) {
  const at = instantAt(share);
  let reference: string | null = null;
  const line: string[] = [];
  for (const [name, way] of Object.entries(ways)) {
    // The better of two runs: the first may find the rows out of the cache.
    let s = Infinity;
    let board!: PointInTimeBoard;
    for (let i = 0; i < 2; i++) {
      t = process.hrtime.bigint();
      board = await way(at);
      s = Math.min(s, secondsSince(t));
    }
    const text = boardText(board);
    reference ??= text;
    if (text !== reference) throw new Error(`${name} gives another board at ${at.toISOString()}`);
    line.push(`${name} ${ms(s)}`);
    ranked = board.total;
  }
  console.log(
    `as of ${share * 100}% of the history (${ranked.toLocaleString('en')} ranked): ${line.join('; ')}; load average ${loadAverage()}`,
  );
}

// --- HTTP --------------------------------------------------------------------------------
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
await admin.disconnect();
const service = spawn(process.execPath, ['dist/apps/leaderboard-service/src/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_TOPIC_PREFIX: prefix,
    REDIS_KEY_PREFIX: redisPrefix,
    HTTP_PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const redis = new Redis(env.REDIS_URL);
try {
  const deadline = Date.now() + 600_000;
  while (
    (await fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > deadline) throw new Error('the leaderboard service did not start');
    await sleep(100);
  }
  const path = (at: Date, rest = 'limit=100') =>
    `/v1/ladders/${ladder.id}/leaderboard?at=${encodeURIComponent(at.toISOString())}&${rest}`;
  const report = (name: string, r: AutocannonResult, cpu: number) =>
    console.log(
      `${name.padEnd(40)} ${Math.round(r.requests.average)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  non-2xx ${r.non2xx}  errors ${r.errors}  service CPU ${Math.round((cpu / Math.max(r.requests.total, 1)) * 1e3)} ms/request`,
    );
  const runs = async (name: string, options: Record<string, unknown>) => {
    const cpu = cpuSeconds(service.pid!);
    // Measured latencies at a fixed rate (see leaderboard.bench.ts on autocannon's correction).
    const r = await autocannon({
      ...(options.overallRate === undefined ? {} : { ignoreCoordinatedOmission: true }),
      ...options,
    });
    report(name, r, cpuSeconds(service.pid!) - cpu);
    return r;
  };
  // Cold: each request a new instant, spread over the history, so each is a new cut.
  const cold = 20;
  let next = 0;
  await runs(`cold board (${cold} instants, 1 connection)`, {
    url: `${base}${path(instantAt(0.5))}`,
    connections: 1,
    amount: cold,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          path: path(instantAt((next++ + 0.5) / cold)),
        }),
      },
    ],
  });
  console.log(`service RSS peak ${(peakRssKb(service.pid!) / 1024).toFixed(0)} MB`);
  // Warm: one instant, its board cached after the first request.
  const at = instantAt(0.75);
  const first = (await (await fetch(`${base}${path(at, 'limit=200')}`)).json()) as {
    nextCursor: string;
  };
  const warm = { connections: 10, overallRate: rate, duration };
  await runs('page at one instant (limit=100)', { ...warm, url: `${base}${path(at)}` });
  await runs('deep page at one instant', {
    ...warm,
    url: `${base}${path(at, `limit=100&cursor=${encodeURIComponent(first.nextCursor)}`)}`,
  });
  await runs('player at one instant (around=5)', {
    ...warm,
    url: `${base}${path(at)}`,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({
          ...request,
          path: `/v1/ladders/${ladder.id}/players/gomoku${Math.floor(Math.random() * 1000)}?at=${encodeURIComponent(at.toISOString())}`,
        }),
      },
    ],
  });
  await runs('live page (limit=100), for scale', {
    ...warm,
    url: `${base}/v1/ladders/${ladder.id}/leaderboard?view=live&limit=100`,
  });
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const build = /leaderboard_point_in_time_build_seconds_sum\{ladder="qq-gomoku"\} ([\d.]+)/.exec(
    metrics,
  )?.[1];
  const count = /leaderboard_point_in_time_build_seconds_count\{ladder="qq-gomoku"\} ([\d.]+)/.exec(
    metrics,
  )?.[1];
  console.log(
    `service: ${count} boards read and ranked, ${ms(Number(build) / Number(count))} each on average; load average ${loadAverage()}`,
  );
} finally {
  service.kill('SIGTERM');
  await new Promise((resolve) => service.once('exit', resolve));
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
    cursor = nextCursor;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  await redis.quit();
  const cleanup = kafka.admin();
  await cleanup.connect();
  await cleanup.deleteTopics({ topics: Object.values(topics) });
  await cleanup.disconnect();
  await db.destroy();
  // BENCH_KEEP=1 leaves the database for experiments (EXPLAIN and the like).
  if (process.env.BENCH_KEEP) console.log(`kept: DATABASE_URL=${databaseUrl}`);
  else await dropDatabase(databaseUrl);
}
