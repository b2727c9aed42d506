/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { type LadderConfig, ladderRegistry, ReplayEngine } from '@ranking/rating';
import { RatingScenario, ServiceProcess, type TestDatabase, waitFor } from '@ranking/testing';
import { redisClient, unlinkPrefixed } from '@ranking/redis';

const run = promisify(execFile);

/** The demo tournaments `deploy/run.sh` serves. */
export const DEMO_TOURNAMENTS = 'deploy/demo-tournaments.json';

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface Answer {
  status: number;
  body: any;
}

/** A rating-service world plus a leaderboard service process with its own Redis keys and port. */
export class LeaderboardWorld extends RatingScenario {
  readonly redisPrefix = `lbtest-${randomBytes(5).toString('hex')}:`;
  port = 0;
  leaderboard!: ServiceProcess;

  constructor(
    readonly ladderConfigs: ReadonlyMap<string, LadderConfig> = ladderRegistry(),
    private readonly redisUrl = 'redis://127.0.0.1:6379',
    /** Where the world's database comes from (see RatingScenario). */
    options: { readonly database?: () => Promise<TestDatabase> } = {},
  ) {
    super(ladderConfigs, options);
  }

  /**
   * The suite's end: stops the leaderboard service and the other services it started, removes
   * the suite's keys from Redis (every master's, on a cluster), drops its database and topics.
   */
  async tearDownAll(...services: (ServiceProcess | null | undefined)[]): Promise<void> {
    await this.leaderboard?.stop();
    for (const service of services) await service?.stop();
    const redis = redisClient(this.redisUrl, 'leaderboard-test');
    await unlinkPrefixed(redis, this.redisPrefix);
    await redis.quit();
    await this.tearDown();
  }

  /**
   * The usual start of a suite: the world set up, the rating service and the leaderboard
   * service (with `env`) running, and `lines` produced and applied. Answers the rating service,
   * for the suite's end.
   */
  async serving(
    lines: readonly string[],
    env: Record<string, string> = {},
  ): Promise<ServiceProcess> {
    await this.setUp();
    const rating = this.service();
    rating.start();
    await this.startLeaderboard(env);
    await this.produce(lines);
    await waitFor(() => this.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    return rating;
  }

  /**
   * `env`: extra variables, e.g. RANKING_TOURNAMENTS_FILE. The per-client rate limit is off
   * unless `env` sets one: every test polls from the one loopback address.
   */
  async startLeaderboard(env: Record<string, string> = {}): Promise<void> {
    this.port ||= await freePort();
    this.leaderboard = new ServiceProcess('dist/apps/leaderboard-service/src/main.js', {
      DATABASE_URL: this.databaseUrl,
      KAFKA_TOPIC_PREFIX: this.prefix,
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.redisPrefix,
      HTTP_PORT: String(this.port),
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    });
    this.leaderboard.start();
    await waitFor(async () => (await this.get('/health')).status === 200, {
      timeout: 60_000,
      interval: 200,
      what: 'the leaderboard service to be healthy',
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${this.leaderboard.output}`);
    });
  }

  /**
   * Nothing more is on its way: the rating service drained the log, its outbox is relayed, and
   * the leaderboard service committed every rating change. `caughtUp` alone can be true while
   * the relay still holds a batch's messages, and the boards then change under a test.
   */
  async settled(): Promise<boolean> {
    return (
      (await this.drained()) &&
      (await this.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0' &&
      (await this.caughtUp())
    );
  }

  /** The leaderboard service has committed every rating-changes message published so far. */
  async caughtUp(): Promise<boolean> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const high = await admin.fetchTopicOffsets(this.topics.ratingChanges);
      const [done] = await admin.fetchOffsets({
        groupId: `${this.prefix}leaderboard-service`,
        topics: [this.topics.ratingChanges],
      });
      return high.every(
        (h) =>
          Number(h.high) === 0 ||
          Number(done!.partitions.find((p) => p.partition === h.partition)?.offset) ===
            Number(h.high),
      );
    } finally {
      await admin.disconnect();
    }
  }

  /** GET from this world's leaderboard service, or from another instance's `base` URL. */
  async get(path: string, base = `http://127.0.0.1:${this.port}`): Promise<Answer> {
    const res = await fetch(`${base}${path}`);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body };
  }

  /** POST a JSON body (or raw text, with its content type) to this world's leaderboard service. */
  async post(path: string, body: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(`http://127.0.0.1:${this.port}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }

  /**
   * Plays the demo tournaments' games as `deploy/run.sh` does (a day of them, seed 5, through
   * `ranking simulate`) into this world's topics; answers the simulator's output. `now`: the
   * instant the simulator takes as now (default the clock's), so that a suite which asserts on
   * the games' days lays out the same games whenever it runs.
   */
  async playDemoTournaments(
    logLevel = 'warn',
    now?: string,
  ): Promise<{ stdout: string; stderr: string }> {
    return run(
      process.execPath,
      [
        'bin/ranking.js',
        'simulate',
        '--tournaments',
        DEMO_TOURNAMENTS,
        '--backfill-days',
        '1',
        '--players',
        '40',
        '--rate',
        '1',
        '--duration',
        '1',
        '--seed',
        '5',
        ...(now === undefined ? [] : ['--now', now]),
      ],
      { env: { ...process.env, KAFKA_TOPIC_PREFIX: this.prefix, LOG_LEVEL: logLevel } },
    );
  }

  /** Every row of a board, page by page (200 a page), following the cursors. */
  async wholeBoard(ladder: string, query: string, base?: string): Promise<any[]> {
    const rows: any[] = [];
    let cursor: string | null = null;
    for (;;) {
      const { status, body } = await this.get(
        `/ladders/${ladder}/leaderboard?${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        base,
      );
      if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
      rows.push(...body.rows);
      cursor = body.nextCursor;
      if (!cursor) return rows;
    }
  }
}

/** Competition ranks (1, 2, 2, 4) of ranked players by rating, ties in player code-unit order. */
export function expectedBoard(
  lines: readonly string[],
  ladders: ReadonlyMap<string, LadderConfig>,
  ladder: string,
) {
  const engine = new ReplayEngine(ladders);
  for (const line of lines) engine.ingestLine(line);
  const standings = JSON.parse([...engine.render()].join('')).ladders[ladder]?.players ?? {};
  const ranked = Object.entries(standings as Record<string, any>)
    .filter(([, p]) => p.ranked)
    .map(([player, p]) => ({
      player,
      rating: p.rating,
      wins: p.wins,
      losses: p.losses,
      draws: p.draws,
    }))
    .sort((a, b) => b.rating - a.rating || (a.player < b.player ? -1 : 1));
  let previous: { rank: number; rating: number } | null = null;
  return ranked.map((row, i) => {
    const rank: number = previous && previous.rating === row.rating ? previous.rank : i + 1;
    previous = { rank, rating: row.rating };
    return { rank, ...row };
  });
}
